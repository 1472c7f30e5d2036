"""The classroom edition: a student version of every notebook, and a grader for what
students hand in.

    python -m grader student FOLDER
        write the student edition to FOLDER
    python -m grader grade FOLDER [--json FILE]
                     [--timeout SECONDS] [--examples N] [--jobs N] [--stage NN]
                     [--require-isolation]
        grade the notebooks in FOLDER (or FOLDER/notebooks)
    python -m grader grade FOLDER FOLDER... --out GRADES   (or one folder of folders)
        grade a class: GRADES/gradebook.csv and .json, and GRADES/feedback/NAME.html,
        one page per student (grader/feedback.py)

What a student writes is marked in our notebooks with nbgrader's markers, so that
teachers who use nbgrader can take the notebooks as they are:

    # Hint: the hint becomes the stub's message (optional)
    ### BEGIN SOLUTION
    ...the code the student writes...
    ### END SOLUTION

The student edition replaces every marked region by `raise NotImplementedError(hint)`
and clears that cell's outputs; explanations, examples and check cells stay, and the
teachers' model answers (cells tagged answer-key) are left out. Earlier stages come from
the installed bleu_lib, so each stage can be done on its own.

The grader grades each stage (a notebook with marked regions) on its own: it exports the
student's notebook into a copy of bleu_lib in which only that stage's module is the
student's. In a process of ours it runs the stage's hidden tests, the tests of tests/
that carry the mark `stage` with the stage's module for name, such as
`@pytest.mark.stage(name="brevity")`, then our notebook, its check cells included; the
student's module and notebook run in a process of their own, which our module's
functions and our solution cells call for what the student's define
(grader/boundary.py). A stage passes when every check cell of our notebook runs without
error and every hidden test passes. Missing, unreadable, failing or looping notebooks
are reported as such.

Student code is untrusted: everything the verdict depends on (our notebooks, bleu_lib,
tests, data) is read before it runs; the student's code runs in the sandbox
(grader/sandbox.py), in a process of its own, out of sight of ours, and only data
crosses; links out of the submission are refused; the gradebook is written last,
atomically. The README says what this does not guarantee."""

import argparse
import ast
import copy
import functools
import hashlib
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
# run as a script, grader/ is on the path, not the repository
sys.path.insert(0, str(ROOT))
from grader import sandbox  # noqa: E402
from grader.feedback import (  # noqa: E402
    feedback_page,
    gradebook_csv,
    page_name,
    stage_name,
    verdict,
)
from tools.nbtools import is_answer_key, notebook_paths  # noqa: E402

NOTEBOOKS, LIBRARY, TESTS = ROOT / "notebooks", ROOT / "bleu_lib", ROOT / "tests"
# The hint may go on over more comment lines, as long as it touches the region
REGION = re.compile(
    r"^(?P<hint>[ \t]*# Hint: (?P<text>[^\n]*\n(?:[ \t]*#(?! Hint:| ###)[^\n]*\n)*))?"
    r"(?P<indent>[ \t]*)### BEGIN SOLUTION\n.*?"
    r"^[ \t]*### END SOLUTION[ \t]*\n?",
    re.M | re.S,
)


def stub(match):
    """The stub that replaces one solution region: the hint's lines stay, and the code
    becomes NotImplementedError with the hint for message."""
    # an exercise: name what to set
    answer = re.search(r"^\s*(answer_\w+|\w+_3) =", match[0], re.M)
    # a hint of several comment lines is one sentence
    text = " ".join(
        line.strip().lstrip("#").strip() for line in (match["text"] or "").splitlines()
    )
    hint = text or (
        f"set {answer[1]}" if answer else "replace this line with your solution"
    )
    return (
        f"{match['hint'] or ''}{match['indent']}raise "
        f"NotImplementedError({json.dumps('Your turn: ' + hint)})\n"
    )


def strip_solutions(source):
    "The source with every solution region replaced by its stub."
    return REGION.sub(stub, source if source.endswith("\n") else source + "\n").rstrip(
        "\n"
    )


def stages():
    """The notebooks with solution regions, in reading order, each with the module it
    exports (default_exp)."""
    found = []
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        if any(
            cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source
            for cell in cells
        ):
            exports = (
                re.search(r"#\| default_exp (\S+)", c.source)[1]
                for c in cells
                if "#| default_exp" in c.source
            )
            # None: exercises only, graded by their check cells
            module = next(exports, None)
            found.append((path, module))
    return found


def student_edition(folder):
    """Write the student edition (notebooks with stubs, display helpers, data) to
    `folder`."""
    folder = Path(folder)
    (folder / "notebooks").mkdir(parents=True, exist_ok=True)
    # the appendix too: reading, and A11's exercises as stubs (not a graded stage)
    for path in notebook_paths():
        nb = nbformat.read(path, as_version=4)
        # the teachers' model answers stay with us
        nb.cells = [cell for cell in nb.cells if not is_answer_key(cell)]
        for cell in nb.cells:
            if cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source:
                cell.source, cell.outputs, cell.execution_count = (
                    strip_solutions(cell.source),
                    [],
                    None,
                )
                # our notebooks store the answers collapsed; a stub is the student's
                cell.metadata.pop("jupyter", None)
        nbformat.write(nb, folder / "notebooks" / path.name)
    shutil.copy(NOTEBOOKS / "helpers.py", folder / "notebooks" / "helpers.py")
    shutil.copytree(ROOT / "data", folder / "data", dirs_exist_ok=True)
    (folder / "README.md").write_text(STUDENT_README, encoding="utf-8")


STUDENT_README = """# BLEU from scratch: student edition

Open the notebooks in order. In each one, the cells that raise `NotImplementedError`
are yours to write: replace the `raise` line with your code (the hint above it says
where to start). The check cells under them compare your code with NLTK and SacreBLEU
and print nothing when it is right; they turn from red to green as you go. Each notebook
ends with exercises, checked the same way. Earlier stages come from the installed
`bleu_lib`, so every notebook can be done on its own.
"""


def check_cells(nb):
    """The ids and sources of a notebook's check cells: code cells with an assert
    statement and no solution region."""
    checks = {}
    for cell in nb.cells:
        if (
            cell.cell_type == "code"
            and "### BEGIN SOLUTION" not in cell.source
            and not cell.source.startswith("#|")
        ):
            try:
                tree = ast.parse(cell.source)
            except SyntaxError:
                continue
            if any(isinstance(node, ast.Assert) for node in ast.walk(tree)):
                checks[cell.id] = cell.source
    return checks


def check_names(nb):
    """A name for each check cell, by id, that a student can find in the notebook: the
    section (or exercise) it sits in, and what of theirs it calls, e.g. "The penalty:
    brevity_penalty" or "Exercise 2: answer_2"; "(check 2 of 3)" when one repeats."""
    theirs = student_names(nb)
    # everything the notebook defines, for a check that calls nothing of the student's
    defined = {
        node.name
        for cell in nb.cells
        if cell.cell_type == "code"
        for node in ast.walk(parsed(cell.source))
        if isinstance(node, ast.FunctionDef)
    }
    checks, names, place = check_cells(nb), {}, "the notebook's start"
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            place = section_of(cell.source, place)
        elif cell.id in checks:
            tree = parsed(cell.source)
            called = {
                node.func.id
                for node in ast.walk(tree)
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            }
            used = dict.fromkeys(
                node.id for node in ast.walk(tree) if isinstance(node, ast.Name)
            )
            # a solution's names first; else the notebook's functions it calls
            called = [n for n in used if n in theirs] or [
                n for n in used if n in defined and n in called
            ]
            names[cell.id] = f"{place}: {', '.join(called)}" if called else place
    counts = {name: list(names.values()).count(name) for name in names.values()}
    seen = {}
    for cell_id, name in names.items():
        if counts[name] > 1:
            seen[name] = seen.get(name, 0) + 1
            names[cell_id] = f"{name} (check {seen[name]} of {counts[name]})"
    return names


def section_of(markdown, place):
    """Where a student is after reading this markdown cell: its last heading, or the
    exercise it asks (**2.**), else still `place`."""
    for line in markdown.splitlines():
        heading = re.match(r"#+\s+(.*\S)", line)
        exercise = re.match(r"\*\*(\d+)\.\*\*", line)
        if heading:
            place = heading[1]
        elif exercise:
            place = f"Exercise {exercise[1]}"
    return place


def student_names(nb):
    """The functions that the solution regions of `nb` define, and the variables that
    they set outside a function (answer_1, refs_3...)."""
    return set().union(
        *(
            defined_names(parsed(cell.source))
            for cell in nb.cells
            if cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source
        )
    )


def defined_names(tree):
    "The functions, classes and variables that a cell's syntax tree defines at its top."
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = getattr(node, "targets", None) or [node.target]
            names |= {
                name.id
                for target in targets
                for name in ast.walk(target)
                if isinstance(name, ast.Name)
            }
    return names


def parsed(source):
    "The syntax tree of `source`, empty if it is not valid Python."
    try:
        return ast.parse(source)
    except SyntaxError:
        return ast.Module([], [])


def edition_sources(teacher):
    """The cell sources of the student edition of `teacher`, by cell id: what a student
    who did nothing hands in."""
    return {
        cell.id: strip_solutions(cell.source)
        if cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source
        else cell.source
        for cell in teacher.cells
        if not is_answer_key(cell)
    }


# --- what the grader trusts: read once, before any student code runs
# ---------------------------------------------


def trusted_files():
    """Our bleu_lib, tests (and the modules they share, such as corpus_generator.py),
    helpers.py and data/, by path."""
    files = {}
    for pattern in ["bleu_lib/*.py", "tests/*.py", "notebooks/helpers.py", "data/**/*"]:
        paths = [path for path in sorted(ROOT.glob(pattern)) if path.is_file()]
        files.update({str(path.relative_to(ROOT)): path.read_bytes() for path in paths})
    return files


def write_files(files, folder):
    "Write `files` (bytes by relative path) below `folder`."
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)


def fingerprint():
    """A hash of every file of the repository the grader depends on, and the target of
    every link, to tell whether student code changed one."""
    skipped = {".venv", "classroom", "__pycache__"}
    entries = {}
    # os.walk, pruned: the virtual environment and git's objects hold 70,000 files
    for folder, subfolders, names in os.walk(ROOT):
        links = [name for name in subfolders if Path(folder, name).is_symlink()]
        subfolders[:] = [name for name in subfolders if name not in skipped]
        if Path(folder) == ROOT / ".git":
            # of git's own files, those that run code or change what git does; its
            # index, refs and logs change whenever the teacher commits
            subfolders[:] = [name for name in subfolders if name in ("hooks", "info")]
            names = [name for name in names if name == "config"]
        for path in (Path(folder, name) for name in names + links):
            if path.is_symlink():
                entry = f"link to {os.readlink(path)}"
            elif path.is_file():
                entry = hashlib.sha256(path.read_bytes()).hexdigest()
            else:  # a pipe or a socket: never read (reading a pipe waits forever)
                entry = "special file"
            entries[str(path.relative_to(ROOT))] = entry
    return entries


# --- reading a submission
# --------------------------------------------------------------------------------------


def submission_folder(folder):
    """The folder holding the student's notebooks: FOLDER/notebooks if there is one (and
    it is not a link), else FOLDER."""
    folder = Path(folder).resolve()
    inner = folder / "notebooks"
    if inner.is_symlink():
        raise ValueError(
            f"{inner} is a link: a submission is read as the files inside its own "
            "folder"
        )
    return inner if inner.is_dir() else folder


def read_submission(folder, name):
    """(notebook, None) for the student's notebook `name`, read as a regular file inside
    `folder`, or (None, why not)."""
    path = folder / name
    if path.is_symlink() or (
        path.exists() and not path.resolve().is_relative_to(folder)
    ):
        return None, "refused: a link, not a file of the submission"
    if not path.exists():
        return None, "missing"
    if not path.is_file() or path.stat().st_nlink > 1:
        return None, "refused: not a regular file of its own"
    try:
        return nbformat.reads(path.read_text(encoding="utf-8"), as_version=4), None
    except Exception as error:
        return None, f"unreadable notebook ({type(error).__name__})"


def export_module(student, module, folder):
    """The source of `module` exported with nbdev from the student's notebook, which may
    name no other module or path."""
    nb = copy.deepcopy(student)
    for cell in nb.cells:
        # `#| default_exp ../../x` would write outside: the module is ours to name
        if cell.cell_type == "code":
            cell.source = DIRECTIVE.sub(
                lambda m: (
                    f"#| default_exp {module}"
                    if m[1] == "default_exp"
                    else f"#| {m[1]}"
                ),
                cell.source,
            )
    nbformat.write(nb, folder / "student.ipynb")
    from nbdev.export import nb_export

    nb_export(str(folder / "student.ipynb"), lib_path=str(folder / "lib"))
    exported = folder / "lib" / f"{module}.py"
    return exported.read_text(encoding="utf-8") if exported.exists() else None


DIRECTIVE = re.compile(r"^#\s*\|\s*(default_exp|export\w*)\b.*$", re.M)


# --- the hidden tests: the tests of tests/ marked @pytest.mark.stage(name=MODULE)
# ---------------------------------

STAGE_MARK = (
    "stage(name): a hidden test of the classroom grader's stage whose module is `name` "
    "(grader/classroom.py)"
)


def marked_stages(source):
    """The stages that the Python `source` marks tests for: the name of every
    `stage(name=...)` call in it."""
    calls = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "stage"
    ]
    return {
        keyword.value.value
        for call in calls
        for keyword in call.keywords
        if keyword.arg == "name" and isinstance(keyword.value, ast.Constant)
    }


def hidden_test_files(files, module):
    """The test files of `files` (bytes by path) that mark tests for `module`'s stage.
    pytest, given only these, selects the marked tests (-m): collecting every file of
    tests/ would cost each stage seconds."""
    return sorted(
        name
        for name, data in files.items()
        if re.fullmatch(r"tests/test_\w+\.py", name)
        and module in marked_stages(data.decode("utf-8"))
    )


# --- running a stage
# --------------------------------------------------------------------------------------


def checker_cells(teacher, checks):
    """Our notebook as the checks run it, [id, source] for each code cell: each check
    reworded (reworded_check), and each solution cell replaced by its imports and a
    request for what the student's cell of that id defines (grader/boundary.py)."""
    cells = []
    for cell in teacher.cells:
        if cell.cell_type != "code" or is_answer_key(cell):
            continue
        source = cell.source
        if "### BEGIN SOLUTION" in source:
            tree = parsed(source)
            imports = (ast.Import, ast.ImportFrom)
            source = "\n".join(
                [ast.unparse(node) for node in tree.body if isinstance(node, imports)]
                + [f"_grader_fetch({cell.id!r}, {sorted(defined_names(tree))!r})"]
            )
        elif cell.id in checks:
            source = reworded_check(source)
        cells.append([cell.id, source])
    return cells


# Defined at the top of every check cell the grader runs: an assert whose condition
# raises would otherwise report only the exception, never the check's own message.
CHECK_HELPERS = """
class _GraderRaised:
    "Stands in a check's message for a value whose computation raised."

    def __init__(self, error):
        self.text = f"(raised {type(error).__name__})"

    def __repr__(self):
        return self.text

    __str__ = __repr__

    def __format__(self, spec):
        return self.text


def _grader_value(compute):
    try:
        return compute()
    except Exception as error:
        return _GraderRaised(error)


def _grader_check(condition, message, source, sides=None):
    try:
        failed = not condition()
    except Exception as error:
        why = f"`{source}` raised {type(error).__name__}: {error}"
        if message:
            why += f". The check says: {_grader_text(message)}"
        raise AssertionError(why) from None
    if failed:
        if not message:
            raise AssertionError(f"`{source}` is false{_grader_text(sides)}")
        raise AssertionError(_grader_text(message))


def _grader_failed(error):
    "Raise `error`, raised on a line of this cell outside an assert, naming the line."
    import linecache

    here, line, trace = _grader_failed.__code__.co_filename, 0, error.__traceback__
    while trace:  # the last line of this cell on the way to the error
        if trace.tb_frame.f_code.co_filename == here:
            line = trace.tb_lineno
        trace = trace.tb_next
    code = " ".join(linecache.getline(here, line).split()) if line else ""
    where = f"`{code}` raised " if code else ""
    raise AssertionError(f"{where}{type(error).__name__}: {error}") from None


def _grader_text(message):
    "The message on one line, or what kept it from being computed."
    try:
        said = message() if message else ""
    except Exception as error:
        said = f"(its message raised {type(error).__name__})"
    return " ".join(str(said).split())
"""


class _RewordAsserts(ast.NodeTransformer):
    """`assert condition, message` becomes `_grader_check(lambda: condition, lambda:
    message, source)`; in the message, each {value} that raises shows what it raised."""

    def __init__(self, source):
        self.source = source

    def visit_Assert(self, node):
        if any(isinstance(inner, ast.NamedExpr) for inner in ast.walk(node.test)):
            return node  # `:=` inside a lambda would bind in the lambda only
        source = " ".join(ast.get_source_segment(self.source, node.test).split())
        # an assert without a message: for a comparison, the value of each side
        none = ast.Constant(None)
        sides = self.thunk(self.sides(node.test)) if node.msg is None else none
        message = none if node.msg is None else _SafeValues().visit(node.msg)
        call = ast.Call(
            ast.Name("_grader_check", ast.Load()),
            [
                self.thunk(node.test),
                none if node.msg is None else self.thunk(message),
                ast.Constant(source),
                sides,
            ],
            [],
        )
        return ast.copy_location(ast.Expr(call), node)

    @staticmethod
    def thunk(expression):
        arguments = ast.arguments([], [], None, [], [], None, [])
        return ast.Lambda(arguments, expression)

    def sides(self, test):
        "`: its sides are a, b` for a comparison, else nothing."
        if not isinstance(test, ast.Compare):
            return ast.Constant("")
        parts = [ast.Constant(": its sides are ")]
        for i, side in enumerate([test.left, *test.comparators]):
            parts += [ast.Constant(", ")] if i else []
            parts.append(ast.FormattedValue(_SafeValues.wrap(side), ord("r")))
        return ast.JoinedStr(parts)


class _SafeValues(ast.NodeTransformer):
    "Every {value} of an f-string message computed by _grader_value."

    @staticmethod
    def wrap(value):
        thunk = _RewordAsserts.thunk(value)
        return ast.Call(ast.Name("_grader_value", ast.Load()), [thunk], [])

    def visit_FormattedValue(self, node):
        self.generic_visit(node)
        node.value = self.wrap(node.value)
        return node


def reworded_check(source):
    """The check cell `source` as the grader runs it: the same checks in the same order,
    but a failed assert always reports its message, even when its condition raises
    (`assert f(x) == y, "..."` with f raising), and an assert without a message its
    source and values."""
    tree = _RewordAsserts(source).visit(ast.parse(source))
    # an error outside an assert (`got = f(x)`) names the line that raised it
    wrapped = ast.parse(
        "try:\n    pass\nexcept AssertionError:\n    raise\n"
        "except Exception as _grader_error:\n    _grader_failed(_grader_error)"
    )
    wrapped.body[0].body = tree.body or [ast.Pass()]
    return CHECK_HELPERS + "\n" + ast.unparse(ast.fix_missing_locations(wrapped))


def run_stage(plan, student, workspaces, module, timeout, examples):
    """Run `plan` (the hidden tests, if any, then our notebook: grader/boundary.py) in
    the sandbox from the first of `workspaces`, and the student's module and notebook
    from the second, out of the first's sight, each in a process of its own: how each
    of our cells ended, {id: None or [its error's class, message]}, and what kept the
    stage from running to the end, if anything (a cell longer than `timeout` seconds, or
    tests longer than ten times that, stop both processes)."""
    ours, theirs = workspaces
    (ours / "plan.json").write_text(json.dumps(plan))
    code = [
        [cell.id, cell.source] for cell in student.cells if cell.cell_type == "code"
    ]
    (theirs / "cells.json").write_text(json.dumps(code))
    to_student, from_student, report = os.pipe(), os.pipe(), os.pipe()
    # only the plugin the tests need: loading every installed one (nbval, Jupyter...)
    # takes seconds
    tests = {
        "BLEU_BOUNDARY": "on",
        "BLEU_TEST_EXAMPLES": str(examples),
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    runs = [
        (theirs, ["notebook", module or "", "../cells.json"], [ROOT, ours], {}),
        (ours, ["check", "../plan.json"], [ROOT], tests),
    ]
    fds = [
        (to_student[0], from_student[1]),
        (from_student[0], to_student[1], report[1]),
    ]
    processes, markers = [], []
    for (workspace, args, hidden, extra), ends in zip(runs, fds):
        sandbox.prepare(workspace)
        markers.append(sandbox.new_marker())
        script = str(workspace / "student_boundary.py")
        argv = [sys.executable, script, *args, *map(str, ends)]
        # figures drawn but never rendered: no check looks at the pictures
        extra = {"MPLBACKEND": "agg", **extra}
        processes.append(
            subprocess.Popen(
                sandbox.command(argv, workspace, hidden),
                cwd=workspace / "notebooks",
                pass_fds=ends,
                env=sandbox.environment(workspace, markers[-1], extra),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        for fd in ends:
            os.close(fd)
    try:
        return read_report(report[0], timeout)
    finally:
        os.close(report[0])
        for process in processes:
            process.kill()
            process.wait()
        for marker in markers:
            sandbox.end(marker)


def read_report(fd, timeout):
    """What our process reports on `fd` until it ends: {cell id: how it ended}, and
    what kept the stage from running to the end (None if nothing)."""
    ended, buffer, problem = {}, b"", None
    running, limit = "a cell", timeout  # what runs now, and for how long it may
    deadline = time.monotonic() + limit
    while True:
        ready, _, _ = select.select([fd], [], [], max(0, deadline - time.monotonic()))
        if not ready:
            return ended, (
                f"{running} ran longer than {limit} s: the stage was stopped there"
            )
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return ended, problem
        *lines, buffer = (buffer + chunk).split(b"\n")
        for event, *details in map(json.loads, lines):
            if event in ("start", "tests ended", "tests"):
                running, limit = (
                    ("the hidden tests", 10 * timeout)
                    if event == "tests"
                    else ("a cell", timeout)
                )
                deadline = time.monotonic() + limit
            elif event == "end":
                ended[details[0]] = details[1]
            elif event == "done" and details[0]:  # the student's process ended first
                problem = (
                    "the notebook ended its own process (a crash, or os._exit): the "
                    "checks after that could not call it"
                )


def failed_checks(ended, checks, names=None):
    """Why each of our check cells failed, by its name for the student (check_names, or
    its id): its error's message, or that it never ran."""
    failed = {}
    for cell_id in checks:
        name = (names or {}).get(cell_id, cell_id)
        if cell_id not in ended:
            failed[name] = "never ran: the notebook was stopped before it"
        elif ended[cell_id]:
            kind, message = ended[cell_id]
            # a failed assert says it in the lesson's words (reworded_check)
            why = (
                message
                if kind == "AssertionError" and message.strip()
                else f"{kind}: {message}"
            )
            failed[name] = shorten((why.strip().splitlines() or [""])[0])
    return failed


# the boundary between our process and the student's, in both workspaces
BOUNDARY = {"student_boundary.py": (ROOT / "grader" / "boundary.py").read_bytes()}


def behind_boundary(files, module):
    """Our bleu_lib/`module`.py, its functions replaced by calls to the student's (in
    the student's process), and the boundary's code: what the hidden tests and our
    notebook import."""
    ours = files[f"bleu_lib/{module}.py"]
    tail = (
        b"\n\nimport student_boundary  # noqa: E402\n\n"
        b"student_boundary.replace_functions(globals())\n"
    )
    return {f"bleu_lib/{module}.py": ours + tail, **BOUNDARY}


def hidden_tests(workspace, module, files):
    """pytest's arguments for the stage's hidden tests, the tests of `files` marked for
    `module`, in `workspace` (its pytest.ini written)."""
    (workspace / "pytest.ini").write_text(
        "[pytest]\naddopts = -p no:cacheprovider\npythonpath = . tests\n"
        f"markers =\n    {STAGE_MARK}\n"
    )
    return [
        *["-q", "-c", str(workspace / "pytest.ini"), "--rootdir", str(workspace)],
        *["--confcutdir", str(workspace), "-p", "hypothesis.extra.pytestplugin"],
        f"--junitxml={workspace / 'report.xml'}",
        *["-m", f"stage(name={module!r})", *(str(workspace / name) for name in files)],
    ]


def tests_report(path, docs):
    """What the hidden tests' JUnit report at `path` says: (number passed, {test's name:
    why it failed}, {test's name: pytest's node id})."""
    if not path.exists():
        return 0, {"(all)": "the hidden tests did not finish"}, {}
    passed, failed, ids = 0, {}, {}
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        problems = [
            child for child in case if child.tag in ("failure", "error", "skipped")
        ]
        if problems:
            name = test_name(case.get("classname", ""), case.get("name", ""), docs)
            failed[name] = failure_message(problems[0])
            ids[name] = f"{case.get('classname')}::{case.get('name')}"
        else:
            passed += 1
    return passed, failed, ids


def test_descriptions(sources):
    """What each test function of `sources` (Python by path) checks, by (module, name):
    its docstring's first sentence, else its name in words."""
    found = {}
    for path, source in sources.items():
        for node in ast.walk(parsed(source)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                doc = (ast.get_docstring(node) or "").split("\n\n")[0]
                words = node.name.removeprefix("test_").replace("_s_", "'s_")
                described = " ".join(doc.split()) or words.replace("_", " ")
                found[(Path(path).stem, node.name)] = shorten(described, 160)
    return found


def test_name(classname, name, docs):
    """A hidden test's name for a student: what it checks (test_descriptions), with the
    case of a parametrized test, e.g. "the maximum over the references, not the sum"."""
    function, _, case = name.partition("[")
    module = next(
        (part for part in classname.split(".") if (part, function) in docs), None
    )
    described = docs.get((module, function), name)
    return f"{described} [{case}" if case else described


def failure_message(problem):
    """One line for a failed hidden test (a JUnit element): the assertion that failed,
    what it got, and on what example."""
    why = (problem.get("message") or problem.tag).strip().splitlines()[0]
    report = problem.text or ""
    statement = failed_statement(report.splitlines())
    if statement.startswith("assert "):
        why = (
            f"{statement} failed: "
            f"{why.removeprefix('AssertionError: ').removeprefix('assert ')}"
        )
    # Hypothesis's input
    example = re.search(
        r"^E +Failing test case: \w+\((.*?)^E +\)$", report, re.M | re.S
    )
    if example:
        why += " on " + " ".join(
            line.removeprefix("E").strip() for line in example[1].splitlines()
        ).strip(" ,")
    return shorten(why)


def failed_statement(lines):
    """The statement that failed, on one line, from pytest's report: the line it marks
    with ">" and those that go on with it, up to its "E" lines; an assert's condition
    without the brackets that let it span lines."""
    marked = [i for i, line in enumerate(lines) if line.startswith(">")]
    if not marked:
        return ""
    statement = [lines[marked[-1]][1:]]
    for line in lines[marked[-1] + 1 :]:
        if line.startswith("E") or not line.strip():
            break
        statement.append(line)
    code = " ".join(" ".join(statement).split())
    tree = parsed(code)
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.Assert):
        return f"assert {ast.unparse(tree.body[0].test)}"
    return code


def shorten(text, width=400):
    return text if len(text) <= width else text[: width - 3] + "..."


def grade_stage(teacher_name, submission, trusted, timeout=60, examples=30):
    "The result of one stage, as a dict for the gradebook."
    teacher, module = trusted["notebooks"][teacher_name]
    checks = check_cells(teacher)
    result = {
        "notebook": teacher_name,
        "module": module,
        "status": "graded",
        "passed": False,
        "checks_passed": 0,
        "checks_total": len(checks),
        "failed_checks": {},
        "tests_passed": 0,
        "tests_total": 0,
        "failed_tests": {},
    }
    student, problem = submission
    if problem:
        return {**result, "status": problem}
    if {cell.id: cell.source for cell in student.cells} == edition_sources(teacher):
        return {**result, "status": "not attempted"}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # the sandbox's user may pass through to its workspace, but not list what else
        # is here
        tmp.chmod(0o711)
        (tmp / "export").mkdir(mode=0o700)
        # a stage that exports no module (Part II's exercises) is graded by its check
        # cells alone
        library = export_module(student, module, tmp / "export") if module else ""
        if library is None:
            return {
                **result,
                "status": f"exports no bleu_lib/{module}.py: keep the #| export cells",
            }
        exported = {f"bleu_lib/{module}.py": library.encode()} if module else {}
        # new, unguessable folders: ours, where the tests and our notebook run with our
        # module calling the student's, and the student's
        ours, theirs = (Path(tempfile.mkdtemp(dir=tmp)) for _ in range(2))
        behind = behind_boundary(trusted["files"], module) if module else BOUNDARY
        write_files({**trusted["files"], **behind}, ours)
        write_files({**trusted["files"], **exported, **BOUNDARY}, theirs)
        files = hidden_test_files(trusted["files"], module) if module else []
        plan = {
            "tests": hidden_tests(ours, module, files) if files else None,
            "cells": checker_cells(teacher, checks),
        }
        try:
            ended, problem = run_stage(
                plan, student, (ours, theirs), module, timeout, examples
            )
        except Exception as error:  # a process that never started...
            return {**result, "status": f"could not run ({type(error).__name__})"}
        names = check_names(teacher)
        failed = failed_checks(ended, checks, names)
        result["status"] = problem or result["status"]
        passed, failed_tests, test_ids = 0, {}, {}
        if module and not files:
            failed_tests = {
                "(all)": f"no test of tests/ is marked stage(name={module!r}): the "
                "stage has no hidden tests"
            }
        elif module:
            sources = {name: trusted["files"][name].decode() for name in files}
            passed, failed_tests, test_ids = tests_report(
                ours / "report.xml", test_descriptions(sources)
            )
    total = passed + len(failed_tests)
    return {
        **result,
        "checks_passed": len(checks) - len(failed),
        "failed_checks": failed,
        "tests_passed": passed,
        "tests_total": total,
        "failed_tests": failed_tests,
        # for teachers: the cell id and pytest's node id of each failure named above
        "failed_check_ids": {
            name: cell_id for cell_id, name in names.items() if name in failed
        },
        "failed_test_ids": test_ids,
        "passed": not failed
        and not failed_tests
        and (total > 0 or not module)
        and len(checks) > 0,
    }


# What the grading workers trust, set in each by the pool's initializer: pickled once
# per worker, not once per stage (a class of 30 has 330 stages).
TRUSTED = {}


def trust(trusted):
    TRUSTED.update(trusted)


def grade_stage_safely(args):
    """grade_stage on what this worker trusts, with anything unexpected reported in the
    result instead of stopping the grader; timed."""
    name, submission, timeout, examples = args
    started = time.monotonic()
    try:
        result = grade_stage(name, submission, TRUSTED, timeout, examples)
    except Exception as error:
        result = {
            "notebook": name,
            "status": f"grader error ({type(error).__name__}: {error})",
            "passed": False,
            "checks_passed": 0,
            "checks_total": 0,
            "failed_checks": {},
            "tests_passed": 0,
            "tests_total": 0,
            "failed_tests": {},
        }
    return {**result, "seconds": round(time.monotonic() - started, 1)}


def stage_names(requested=()):
    """The notebook names of the stages that `requested` names (a number, 3 or 03, or a
    notebook's name), every stage if it names none; a ValueError that lists the stages
    if one names no stage."""
    names = [path.name for path, _ in stages()]
    chosen = set()
    for wanted in requested:
        number = wanted.zfill(2) if wanted.isdigit() else None
        found = {
            name
            for name in names
            if name[:2] == number or wanted in (name, name.removesuffix(".ipynb"))
        }
        if not found:
            listed = ", ".join(name.removesuffix(".ipynb") for name in names)
            raise ValueError(
                f"no stage {wanted!r}: the stages are {listed} (3 or 03 is enough)"
            )
        chosen |= found
    return [name for name in names if name in chosen or not requested]


def read_stages(folder, names):
    """The student's notebook for each stage `names`, as read_submission returns it:
    (notebook, None) or (None, why not)."""
    try:
        folder = submission_folder(folder)
    except ValueError as error:
        return {name: (None, f"refused: {error}") for name in names}
    return {name: read_submission(folder, name) for name in names}


def grade_class(folders, timeout=60, examples=30, jobs=2, only=(), progress=None):
    """Grade the submissions `folders` (a folder by student name), every stage or those
    `only` names, with one pool of `jobs` workers for the whole class; a gradebook
    dict. `progress(student, result, report)` is called as each stage ends; `report`
    is the student's, once their last stage has ended, else None."""
    names = stage_names(only)
    before = fingerprint()
    # probed once, here: the workers forked below inherit the answer
    sandbox.isolation()
    trusted = {
        "files": trusted_files(),
        "notebooks": {
            path.name: (nbformat.read(path, as_version=4), module)
            for path, module in stages()
        },
    }
    results = {student: {} for student in folders}
    tasks = {
        (student, name): (name, submission, timeout, examples)
        for student, folder in folders.items()
        for name, submission in read_stages(folder, names).items()
    }
    # more workers than stages would only wait
    workers = max(1, min(jobs, len(tasks)))
    with ProcessPoolExecutor(workers, initializer=trust, initargs=(trusted,)) as pool:
        # submitted student by student: the first students finish first
        futures = {
            pool.submit(grade_stage_safely, task): key for key, task in tasks.items()
        }
        for future in as_completed(futures):
            student = futures[future][0]
            result = future.result()
            results[student][result["notebook"]] = result
            if progress:
                done = len(results[student]) == len(names)
                progress(
                    student,
                    result,
                    student_report(results[student], names) if done else None,
                )
    # added, removed or rewritten
    changed = sorted({name for name, _ in fingerprint().items() ^ before.items()})
    return {
        "stages": names,
        "students": [
            {
                "student": student,
                "folder": str(folder),
                **student_report(results[student], names),
            }
            for student, folder in folders.items()
        ],
        "isolation": sandbox.isolation(),
        "repository_changed": changed,
    }


def student_report(results, names):
    "One student's results (by notebook name) in the order of the stages `names`."
    return {
        "stages": [results[name] for name in names],
        "passed": sum(results[name]["passed"] for name in names),
        "stages_total": len(names),
    }


def grade(folder, timeout=60, examples=30, jobs=2, only=(), progress=None):
    """Grade every stage (or those `only` names, such as ["03"]) of the notebooks in
    `folder`; a gradebook dict. `progress` is given a line as each stage ends."""

    def each_stage(student, result, report):
        progress(f"{stage_name(result)}: {verdict(result)} ({result['seconds']} s)")

    return one_student(
        grade_class(
            {"": folder},
            timeout,
            examples,
            jobs,
            only,
            each_stage if progress else None,
        )
    )


def one_student(gradebook):
    "The gradebook of a class of one, in the form `grade` returns it."
    student = gradebook["students"][0]
    return {
        "stages": student["stages"],
        "passed": student["passed"],
        "stages_total": student["stages_total"],
        "isolation": gradebook["isolation"],
        "repository_changed": gradebook["repository_changed"],
    }


def table(report):
    """The grades as plain text for a person: one line per stage, then why each failing
    check and test failed."""
    lines = [f"{'stage':26} {'checks':>8} {'hidden tests':>13}  result"]
    for r in report["stages"]:
        lines.append(
            f"{stage_name(r):26} {r['checks_passed']:>3}/{r['checks_total']:<4} "
            f"{r['tests_passed']:>6}/{r['tests_total']:<6}  {verdict(r)}"
        )
        lines += [
            f'    check "{name}": {why}' for name, why in r["failed_checks"].items()
        ]
        lines += [
            f'    hidden test "{name}": {why}'
            for name, why in r["failed_tests"].items()
        ]
    lines.append(f"stages passed: {report['passed']} of {report['stages_total']}")
    return "\n".join(lines + changed_warning(report))


def changed_warning(report):
    "The warning, as lines, if files of the grader's repository changed while grading."
    if not report["repository_changed"]:
        return []
    changed = ", ".join(report["repository_changed"])
    return [
        f"WARNING: files of the grader's repository changed while grading: {changed}"
    ]


# a stage's verdict in the class table, one or two characters
MARKS = {"pass": "ok", "fail": "x", "not attempted": "."}


def class_table(gradebook):
    """The class at a glance: a line per student, a column per stage (ok, x, ., or ?
    when it could not be graded), and the stages passed."""
    names = [s["student"] for s in gradebook["students"]]
    width = max(len("student"), *map(len, names))
    numbers = " ".join(f"{name[:2]:>2}" for name in gradebook["stages"])
    lines = [f"{'student':{width}}  {numbers}  passed"]
    for student in gradebook["students"]:
        marks = " ".join(f"{MARKS.get(verdict(r), '?'):>2}" for r in student["stages"])
        passed = f"{student['passed']}/{student['stages_total']}"
        lines.append(f"{student['student']:{width}}  {marks}  {passed:>6}")
    lines.append(
        "ok pass, x fail, . not attempted, ? not graded (missing, unreadable, refused; "
        "the feedback page says why)"
    )
    return "\n".join(lines + changed_warning(gradebook))


def write_atomically(data, path):
    """Write the bytes `data` to `path` atomically (a temporary file, then a rename);
    return their SHA-256."""
    path = Path(path)
    with tempfile.NamedTemporaryFile(
        dir=path.parent, prefix=f".{path.name}.", delete=False
    ) as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(file.name, path)
    return hashlib.sha256(data).hexdigest()


def write_gradebook(report, path):
    "Write the JSON gradebook atomically; return its SHA-256."
    return write_atomically((json.dumps(report, indent=1) + "\n").encode(), path)


def write_class(gradebook, folder):
    """Write the class's gradebook (gradebook.csv, gradebook.json) and a feedback page
    per student (feedback/NAME.html) to `folder`; lines that say what was written."""
    folder = Path(folder)
    (folder / "feedback").mkdir(parents=True, exist_ok=True)
    # UTF-8 with a byte-order mark: how spreadsheets (Excel too) know it is UTF-8
    csv_hash = write_atomically(
        gradebook_csv(gradebook).encode("utf-8-sig"), folder / "gradebook.csv"
    )
    json_hash = write_gradebook(gradebook, folder / "gradebook.json")
    for student in gradebook["students"]:
        page = feedback_page(student["student"], student).encode()
        write_atomically(page, folder / "feedback" / page_name(student["student"]))
    return [
        f"gradebook written to {folder / 'gradebook.csv'} (sha256 {csv_hash}) and "
        f"{folder / 'gradebook.json'} (sha256 {json_hash})",
        f"feedback pages written to {folder / 'feedback'}: "
        f"{len(gradebook['students'])}, one per student",
    ]


# --- the command line
# --------------------------------------------------------------------------------------


def at_least_one(text):
    "An argparse type: a whole number, 1 or more."
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def is_submission(folder):
    "Whether `folder` holds a student's notebooks (NN_*.ipynb), or a notebooks/ folder."
    return (folder / "notebooks").is_dir() or any(folder.glob("[0-9][0-9]_*.ipynb"))


def student_name(folder):
    "The student a submission folder belongs to: its name (alice for alice/notebooks)."
    folder = folder.resolve()
    return folder.parent.name if folder.name == "notebooks" else folder.name


def submissions(paths):
    """The submissions the folders `paths` name, by student, and whether they are a
    class: several folders, or one folder of submission folders. A ValueError says
    what is wrong with a folder."""
    paths = [Path(path) for path in paths]
    for path in paths:
        if not path.exists():
            raise ValueError(f"{path}: not found")
        if not path.is_dir():
            raise ValueError(
                f"{path}: not a folder: name the folder a student handed in"
            )
        if not os.access(path, os.R_OK | os.X_OK):
            raise ValueError(f"{path}: cannot be read (permission denied)")
    if len(paths) == 1 and is_submission(paths[0]):
        return {student_name(paths[0]): paths[0]}, False
    if len(paths) == 1:
        # a folder of submissions: every folder in it is a student's
        inner = sorted(
            path
            for path in paths[0].iterdir()
            if path.is_dir() and not path.name.startswith(".")
        )
        if not any(map(is_submission, inner)):
            raise ValueError(
                f"{paths[0]}: no notebooks (NN_*.ipynb) in it, in its notebooks/ "
                "folder or in its folders: name a student's folder, or a folder of them"
            )
        paths = inner
    students = {}
    for path in paths:
        name = student_name(path)
        if name in students:
            raise ValueError(
                f"two submissions are named {name!r} ({students[name]} and {path}): "
                "give each student a folder of their own"
            )
        students[name] = path
    return students, True


def output_problem(option, path, folder=False):
    """Why the grader could not write the output `path` of `option` (None if it can):
    said before grading, which takes minutes, rather than after."""
    path = Path(path)
    if path.exists() and path.is_dir() != folder:
        return f"{option} {path} is a {'file' if folder else 'folder'}: name another"
    parent = path.absolute().parent
    if not parent.is_dir():
        return f"{option}: folder {parent} not found: create it first"
    # a file is replaced by a rename in its folder; a folder's files are written in it
    where = path if folder and path.exists() else parent
    if not os.access(where, os.W_OK | os.X_OK):
        return f"{option}: cannot write into {where} (permission denied)"
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m grader",
        description="The classroom edition: student notebooks and a grader.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    student = commands.add_parser("student", help="write the student edition to FOLDER")
    student.add_argument("folder")
    grader = commands.add_parser(
        "grade",
        help="grade a student's FOLDER, several, or a folder of them (a class)",
    )
    grader.add_argument(
        "folders",
        nargs="+",
        metavar="FOLDER",
        help="a student's folder (their notebooks/, or the folder above it); several, "
        "or one folder of such folders, grade a class",
    )
    grader.add_argument(
        "--out",
        metavar="FOLDER",
        help="write gradebook.csv, gradebook.json and feedback/STUDENT.html (one page "
        "per student) here; needed for a class",
    )
    grader.add_argument(
        "--json", help="also write the grades as JSON to this file (last, atomically)"
    )
    grader.add_argument(
        "--timeout",
        type=at_least_one,
        default=60,
        help="seconds a cell may run (default: 60)",
    )
    grader.add_argument(
        "--examples",
        type=at_least_one,
        default=30,
        help="random examples per hidden property test (default: 30)",
    )
    grader.add_argument(
        "--jobs",
        type=at_least_one,
        default=min(4, os.cpu_count() or 1),
        help="stages graded at once, for the whole class (default: one per core, up "
        "to 4)",
    )
    grader.add_argument(
        "--stage",
        action="append",
        default=[],
        help="grade only this stage, e.g. 03 or 3 (repeatable)",
    )
    grader.add_argument(
        "--require-isolation",
        action="store_true",
        help="refuse to grade (exit status 4) unless student code runs strongly "
        "isolated (grader/sandbox.py)",
    )
    args = parser.parse_args(argv)
    if args.command == "student":
        return write_student_edition(student, args.folder)
    # every argument is checked before grading, which takes minutes
    try:
        stage_names(args.stage)
        folders, is_class = submissions(args.folders)
    except ValueError as error:
        grader.error(str(error))
    if is_class and not args.out:
        grader.error(
            f"grading {len(folders)} submissions writes a gradebook and a feedback "
            "page per student: name a folder for them with --out FOLDER"
        )
    problem = (args.json and output_problem("--json", args.json)) or (
        args.out and output_problem("--out", args.out, folder=True)
    )
    if problem:
        grader.error(problem)
    return grade_command(args, folders, is_class)


def write_student_edition(parser, folder):
    "The student command: write the edition to `folder`, or say why it cannot."
    if (Path(folder) / "notebooks").resolve() == NOTEBOOKS:
        parser.error(f"{folder} is this repository: its notebooks hold the solutions")
    try:
        student_edition(folder)
    except OSError as error:
        parser.error(
            f"cannot write the student edition to {folder}: {error.strerror or error}"
        )
    print(f"student edition written to {folder}")
    return 0


def grade_command(args, folders, is_class):
    "The grade command, its arguments checked: grade, print, write what was asked."
    say = functools.partial(print, file=sys.stderr, flush=True)
    if not sandbox.announce(args.require_isolation):  # says which isolation it got
        return 4
    started, graded = time.monotonic(), []

    def progress(student, result, report):
        if not is_class:
            say(f"{stage_name(result)}: {verdict(result)} ({result['seconds']} s)")
        elif report:
            graded.append(student)
            say(
                f"[{len(graded)}/{len(folders)}] {student}: {report['passed']} of "
                f"{report['stages_total']} stages passed "
                f"({time.monotonic() - started:.0f} s)"
            )

    gradebook = grade_class(
        folders, args.timeout, args.examples, args.jobs, args.stage, progress
    )
    report = gradebook if is_class else one_student(gradebook)
    print(class_table(gradebook) if is_class else table(report))
    try:
        for line in write_class(gradebook, args.out) if args.out else []:
            print(line)
        if args.json:
            digest = write_gradebook(report, args.json)
            print(f"gradebook written to {args.json} (sha256 {digest})")
    except OSError as error:
        say(f"python -m grader grade: error: the grades could not be written: {error}")
        return 1
    return 3 if gradebook["repository_changed"] else 0


if __name__ == "__main__":
    sys.exit(main())
