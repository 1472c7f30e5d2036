"""The student's functions behind a process boundary.

A stage is graded in two processes. Ours runs the stage's hidden tests, with our module
whose functions call the student's, then our notebook, each of its solution cells
replaced by a request for what the student's cell of that id defines. The student's runs
the student's module, and the student's notebook as far as those requests need. Only
data crosses, as lines of JSON on two pipes: the student's code never runs where the
tests, the checks and their reports are, so it cannot rewrite them. The grader copies
this file into both workspaces as `student_boundary.py`:

    python student_boundary.py check PLAN IN_FD OUT_FD REPORT_FD     # ours
    python student_boundary.py notebook MODULE CELLS IN_FD OUT_FD   # the student's

and, in ours, the stage's module ends with `replace_functions(globals())`.

A value crosses as [tag, payload]: None, booleans, integers, floats (exactly, as
hex), strings, bytes, lists, tuples, sets, dicts, Counters, Fractions, numeric NumPy
arrays and scalars, and the objects of bleu_lib's classes and of the notebook's (rebuilt
in the receiving side's own class: named tuples and dataclasses from their fields, other
objects from their attributes). A function passed across becomes a stub that calls
back.
Decoding builds only these: a message can make a call fail, never run code."""

import dataclasses
import importlib
import inspect
import json
import os
import sys
import warnings
from collections import Counter
from fractions import Fraction
from pathlib import Path

SCALARS = {type(None): "n", bool: "b", str: "s"}
# what a student reads when a value cannot cross
ONLY = (
    "the checks take only plain values (numbers, strings, lists, dicts...) and "
    "bleu_lib's"
)


class Channel:
    """Two pipes; `local(name)`, the functions the other side may call by name; and
    those this side lent to calls in progress, by number."""

    def __init__(self, read_fd, write_fd, local=None):
        self.reader = os.fdopen(read_fd, "r", encoding="utf-8")
        self.writer = os.fdopen(write_fd, "w", encoding="utf-8")
        self.local, self.lent, self.pid = local, {}, os.getpid()
        self.ended = False  # the other side's process

    def send(self, message):
        self.writer.write(json.dumps(message) + "\n")
        self.writer.flush()

    def receive(self):
        line = self.reader.readline()
        if not line:
            self.ended = True
            raise EOFError("the student's process ended")
        return json.loads(line)

    def request(self, target, args, kwargs):
        """Call `target` on the other side; serve its calls back meanwhile; return its
        result or raise its error."""
        if os.getpid() != self.pid:  # a child process would garble the pipes
            raise RuntimeError(
                "the student's functions run for the tests' process only"
            )
        self.send(["call", target, self.encode(args), self.encode(kwargs)])
        while True:
            message = self.receive()
            if message[0] == "call":
                self.answer(message)
            else:
                return self.outcome(message)

    def serve(self):
        "Answer the other side's calls until it ends."
        while True:
            try:
                message = self.receive()
            except EOFError:
                return
            self.answer(message)

    def answer(self, message):
        "Run a call from the other side here, and send back how it ended."
        _, target, args, kwargs = message
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                lent = isinstance(target, int)
                function = self.lent[target] if lent else self.local(target)
                result = function(*self.decode(args), **self.decode(kwargs))
                reply = ["return", self.encode(result)]
            except Exception as error:
                kind = type(error)
                reply = ["raise", kind.__module__, kind.__qualname__, str(error)]
        sent = [
            [w.category.__module__, w.category.__qualname__, str(w.message)]
            for w in caught
        ]
        self.send([*reply, sent])

    def outcome(self, message):
        "The result a reply carries, or its error raised, after its warnings."
        for module, name, text in message[-1]:
            warnings.warn(text, found(module, name, Warning, UserWarning), stacklevel=3)
        if message[0] == "return":
            return self.decode(message[1])
        _, module, name, text, _ = message
        raise found(module, name, Exception, RuntimeError)(text)

    def encode(self, value):
        kind = type(value)
        if kind in SCALARS:
            return [SCALARS[kind], value]
        if kind is int:
            return ["i", str(value)]
        if kind is float:
            return ["f", value.hex()]
        if kind is bytes:
            return ["y", value.hex()]
        # the most common, crossing without a tag per item: tokens, and n-gram counts
        if kind in (list, tuple) and all(type(item) is str for item in value):
            return ["L" if kind is list else "T", list(value)]
        if kind in (list, tuple, set, frozenset):
            tag = {list: "l", tuple: "t", set: "S", frozenset: "Z"}[kind]
            return [tag, [self.encode(item) for item in value]]
        if kind is Counter and all(map(is_ngram_count, value.items())):
            return ["K", [[list(k), v] for k, v in value.items()]]
        if kind in (dict, Counter):
            pairs = [[self.encode(k), self.encode(v)] for k, v in value.items()]
            return ["d" if kind is dict else "C", pairs]
        if isinstance(value, Fraction):  # a Precision's numerator is its raw count
            numbers = map(str, (value.numerator, value.denominator))
            return ["q", kind.__module__, kind.__qualname__, *numbers]
        if kind.__module__ == "numpy" and value.dtype.kind in "biuf":
            return ["a", value.dtype.str, list(value.shape), value.tobytes().hex()]
        if is_ours(kind.__module__) and hasattr(value, "_fields"):
            fields = [self.encode(item) for item in value]
            return ["o", kind.__module__, kind.__qualname__, fields]
        if is_ours(kind.__module__) and dataclasses.is_dataclass(value):
            fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
            return ["D", kind.__module__, kind.__qualname__, self.encode(fields)]
        if (
            is_ours(kind.__module__)
            and not callable(value)
            and hasattr(value, "__dict__")
        ):
            return ["O", kind.__module__, kind.__qualname__, self.encode(vars(value))]
        if callable(value):
            self.lent[len(self.lent)] = value
            return ["c", len(self.lent) - 1]
        raise TypeError(f"{ONLY}, not {kind.__qualname__} objects")

    def decode(self, data):
        tag, *rest = data
        if tag in ("n", "b", "s"):
            return rest[0]
        if tag in ("L", "T") and all(type(item) is str for item in rest[0]):
            return rest[0] if tag == "L" else tuple(rest[0])
        if tag == "K" and all(is_ngram_count((tuple(k), v)) for k, v in rest[0]):
            return Counter({tuple(k): v for k, v in rest[0]})
        simple = {"i": int, "f": float.fromhex, "y": bytes.fromhex}
        if tag in simple:
            return simple[tag](rest[0])
        if tag in ("l", "t", "S", "Z"):
            kind = {"l": list, "t": tuple, "S": set, "Z": frozenset}[tag]
            return kind(self.decode(item) for item in rest[0])
        if tag in ("d", "C"):
            kind = dict if tag == "d" else Counter
            return kind({self.decode(k): self.decode(v) for k, v in rest[0]})
        if tag == "q":
            module, name, numerator, denominator = rest
            kind = found(module, name, Fraction, Fraction)
            return kind(int(numerator), int(denominator))
        if tag == "a":
            import numpy as np

            dtype, shape, data = rest
            if np.dtype(dtype).kind not in "biuf":
                raise TypeError(f"no array of {dtype} crosses")
            array = np.frombuffer(bytes.fromhex(data), dtype).reshape(shape)
            return array[()] if shape == [] else array.copy()
        if tag == "o":  # a named tuple
            module, name, fields = rest
            kind = found(module, name, tuple, None, lambda k: hasattr(k, "_fields"))
            return kind(*map(self.decode, fields))
        if tag == "D":
            module, name, fields = rest
            kind = found(module, name, object, None, dataclasses.is_dataclass)
            return kind(**self.decode(fields))
        if tag == "O":  # an object: our class, the other side's attributes
            module, name, attributes = rest
            value = object.__new__(found(module, name, object, None))
            value.__dict__.update(self.decode(attributes))
            return value
        if tag == "c":
            return lambda *args, **kwargs: self.request(rest[0], args, kwargs)
        raise TypeError(f"unknown value: {tag!r}")


def is_ngram_count(item):
    "An n-gram of string tokens, as a tuple, and its integer count."
    ngram, count = item
    return (
        type(ngram) is tuple
        and all(type(token) is str for token in ngram)
        and type(count) is int
    )


def is_ours(module):
    """A module of bleu_lib's, or the notebook's (`__main__`): on the other side, its
    class of the same name stands for a class of it."""
    return module.startswith("bleu_lib.") or module == "__main__"


def found(module, name, base, default, shape=inspect.isclass):
    """The class `name` of `module`, if the module is Python's, bleu_lib's or the
    notebook's (a class its cells defined; never a value that crossed, since no class
    crosses) and loaded already (nothing is imported for a message), the class a
    subclass of `base` and `shape(class)` true; else `default` (None: an error)."""
    kind = None
    if module in ("builtins", "fractions") or is_ours(module):
        kind = getattr(sys.modules.get(module), name, None)
    if inspect.isclass(kind) and issubclass(kind, base) and shape(kind):
        return kind
    if default is None:
        raise TypeError(f"{ONLY}, not {module}.{name} objects")
    return default


# --- the tests' side: the stage's module, its functions the student's
def replace_functions(namespace):
    """Replace every function defined in the module `namespace` by one that calls the
    student's function of that name, in the student's process."""
    fds = os.environ.get("BLEU_BOUNDARY")
    if not fds:
        return  # imported outside the grader: our own functions
    # one channel for the process, should the module be loaded again: two file objects
    # on the same pipes would interleave
    channel = CHANNEL.get("channel") or Channel(*map(int, fds.split(",")))
    CHANNEL["channel"] = channel
    for name in student_functions(namespace):
        namespace[name] = remote(channel, name)


def student_functions(namespace):
    """The names of the functions the module `namespace` defines, decorated ones
    (such as an lru_cache's) included: everything the student may have written."""
    return [
        name
        for name, value in namespace.items()
        if inspect.isfunction(inspect.unwrap(value))
        and inspect.unwrap(value).__module__ == namespace["__name__"]
    ]


CHANNEL = {}


def remote(channel, name):
    def call(*args, **kwargs):
        return channel.request(name, args, kwargs)

    call.__name__ = call.__qualname__ = name
    return call


# --- the student's side
def student_module(module):
    """A function that finds a function of the student's bleu_lib.`module` by name; if
    the module cannot be imported, every call says why, in the tests' report."""
    try:
        student = importlib.import_module(f"bleu_lib.{module}")
    except BaseException as error:
        student = error

    def function(name):
        if isinstance(student, BaseException):
            raise ImportError(
                f"bleu_lib.{module} could not be imported: "
                f"{type(student).__name__}: {student}"
            )
        return getattr(student, name)

    return function


# --- a notebook on each side
def new_shell():
    """An IPython shell, as in a notebook's kernel, run from the notebook's folder; what
    its cells print goes nowhere (no check reads it)."""
    from IPython.core.interactiveshell import InteractiveShell

    sys.path.insert(0, "")  # the notebook's folder, as in a kernel: helpers.py
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")
    return InteractiveShell.instance()


def run_cell(shell, source):
    "Run a cell; how it ended: None, or its error's [class name, message]."
    result = shell.run_cell(source, store_history=False)
    error = result.error_before_exec or result.error_in_exec
    return None if error is None else [type(error).__name__, str(error)]


def serve_notebook(module, cells_path, read_fd, write_fd):
    """Answer calls for the functions of the student's bleu_lib.`module`, and for the
    values and functions of the student's notebook (code cells, [id, source], in
    `cells_path`), run as far as the checks ask."""
    cells = json.loads(Path(cells_path).read_text(encoding="utf-8"))
    shell, ran = new_shell(), []

    def run(cell_id):
        "Run the cells up to `cell_id` (all, if the student has none of that id)."
        ids = [cell[0] for cell in cells]
        end = ids.index(cell_id) + 1 if cell_id in ids else len(cells)
        for next_id, source in cells[len(ran) : end]:
            run_cell(shell, source)
            ran.append(next_id)

    def value(name):
        if name not in shell.user_ns:
            raise NameError(f"name {name!r} is not defined")
        return shell.user_ns[name]

    # imported first, as the hidden tests, which run first, would import it
    function = student_module(module) if module else None

    def local(name):
        # names that no module can define
        if name in (" run", " value"):
            return run if name == " run" else value
        return function(name)

    Channel(int(read_fd), int(write_fd), local).serve()


def check_notebook(plan_path, read_fd, write_fd, report_fd):
    """Run the plan in `plan_path`: pytest's arguments for the hidden tests (if any),
    then our notebook's cells ([id, source]), in which `_grader_fetch(cell_id, names)`
    brings what the student's cell defines. Report on `report_fd`, a line of JSON each:
    when the tests start and end, when each cell starts and how it ended, and at the
    end whether the student's process ended first."""
    plan = json.loads(Path(plan_path).read_text(encoding="utf-8"))
    channel = Channel(int(read_fd), int(write_fd))
    CHANNEL["channel"] = channel  # the stage's module calls the student's through it
    report = os.fdopen(int(report_fd), "w", encoding="utf-8")

    def say(*event):
        print(json.dumps(event), file=report, flush=True)

    shell = new_shell()
    if plan["tests"]:
        import pytest

        say("tests")
        say("tests ended", int(pytest.main(plan["tests"])))

    def fetch(cell_id, names):
        channel.request(" run", (cell_id,), {})
        for name in names:
            try:
                shell.user_ns[name] = channel.request(" value", (name,), {})
            except NameError:
                shell.user_ns.pop(name, None)
            except TypeError as error:
                why = f"{name} cannot be checked: {error}"
                shell.user_ns[name] = Uncheckable(why)

    shell.user_ns["_grader_fetch"] = fetch
    for cell_id, source in plan["cells"]:
        say("start", cell_id)
        say("end", cell_id, run_cell(shell, source))
    say("done", channel.ended)


class Uncheckable:
    "Stands for a student's value that cannot cross: any use of it says why."

    def __init__(self, why):
        self.why = why

    def __repr__(self):  # in a check's message, beside `why`
        return "(not a plain value)"

    def fail(self, *args, **kwargs):
        raise TypeError(self.why)

    __call__ = __eq__ = __iter__ = __len__ = __getitem__ = __bool__ = fail
    __lt__ = __le__ = __gt__ = __ge__ = __float__ = __int__ = __index__ = fail

    def __getattr__(self, name):
        self.fail()


if __name__ == "__main__":
    # as a module: the stage's module, imported by our cells, finds the channel here
    import student_boundary

    mode = {
        "notebook": student_boundary.serve_notebook,
        "check": student_boundary.check_notebook,
    }
    mode[sys.argv[1]](*sys.argv[2:])
