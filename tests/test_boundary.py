"""grader/boundary.py: what crosses between our process (the hidden tests, or our
notebook's checks) and the student's crosses exactly, calls go both ways, and a message
can build nothing but data. (Grading through it: tests/test_classroom.py; the tricks it
stops: tests/test_grader_security.py.)"""

import ast
import importlib
import math
import os
import threading
import warnings
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from bleu_lib.agreement import PairCounts
from bleu_lib.bleu_score import Precision
from bleu_lib.metric import BLEU
from bleu_lib.sentence import BleuStats
from support import ROOT
from grader.boundary import Channel, Uncheckable, student_functions
from grader.classroom import stages


def pipe_pair(local=None):
    "Two channels joined by two pipes: the tests' side, and the student's."
    tests_read, student_write = os.pipe()
    student_read, tests_write = os.pipe()
    return Channel(tests_read, tests_write), Channel(student_read, student_write, local)


# what the hidden tests pass to and get from the students' functions
VALUES = [
    None,
    True,
    -(2**70),
    -0.0,
    math.inf,
    0.1,
    "tök",
    b"\x00",
    [1, (2, "a")],
    {("a",): 1},
    Counter({("a", "b"): 2, ("c",): 0}),
    {1, 2},
    frozenset({"x"}),
    Fraction(2, 4),
    Precision(2, 4),  # its raw counts, not 1/2
    BleuStats(3, 4, (1, 0), (3, 2)),
    PairCounts(1, 2, 0, 0, 1),
    np.arange(6, dtype=np.int32).reshape(2, 3),
    np.float64(0.1),
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_values_cross_exactly(value):
    channel, _ = pipe_pair()
    back = channel.decode(channel.encode(value))
    assert type(back) is type(value) and repr(back) == repr(value)


def test_a_nan_crosses():
    channel, _ = pipe_pair()
    assert math.isnan(channel.decode(channel.encode(math.nan)))


@pytest.mark.parametrize(
    "data",
    [
        ["o", "os", "system", [["s", "true"]]],  # a class of another module
        ["D", "subprocess", "Popen", ["d", []]],
        ["o", "bleu_lib.checks", "describe", []],  # a function, not a class
        ["o", "builtins", "tuple", []],  # a class, but no named tuple
        ["D", "bleu_lib.metric", "BLEU", ["d", []]],  # a class, but no dataclass
        ["D", "bleu_lib.no_such_module", "X", ["d", []]],  # never imported for it
        ["O", "__main__", "Equal", ["d", []]],  # a class the receiving side lacks
        ["O", "subprocess", "Popen", ["d", []]],
        ["a", "|O", [1], "00" * 8],  # an array of objects
        ["x", 1],
    ],
)
def test_a_message_builds_nothing_but_data(data):
    channel, _ = pipe_pair()
    with pytest.raises(TypeError):
        channel.decode(data)


def test_calls_go_both_ways_with_errors_and_warnings():
    """The student's side calls back a function the tests passed; an error raised
    there is raised here, a warning warned here."""

    def warns():
        warnings.warn("careful", UserWarning)
        return 1

    functions = {
        "twice": lambda f, x: f(f(x)),
        "fails": lambda: int("x"),
        "warns": warns,
    }
    tests, student = pipe_pair(functions.__getitem__)
    serving = threading.Thread(
        target=lambda: [student.answer(student.receive()) for _ in range(3)]
    )
    serving.start()
    assert tests.request("twice", (lambda v: v + 1, 3), {}) == 5
    with pytest.raises(ValueError, match="invalid literal"):
        tests.request("fails", (), {})
    with pytest.warns(UserWarning, match="careful"):
        assert tests.request("warns", (), {}) == 1
    serving.join()


def test_an_object_of_our_class_crosses_with_its_attributes():
    """A metric a student made (BLEU(tokenize="none"), stage 08's answer) is rebuilt in
    our class from its attributes; its tokenizer, a function, calls back."""
    tests, student = pipe_pair()
    serving = threading.Thread(target=student.serve, daemon=True)
    serving.start()
    made = BLEU(tokenize="none")
    back = tests.decode(student.encode(made))
    line = "a b c d."
    scores = [metric.corpus_score([line], [[line]]).score for metric in (back, made)]
    assert type(back) is BLEU and scores[0] == scores[1] > 99
    assert str(back.get_signature()) == str(made.get_signature())
    tests.writer.close()  # the student's side ends
    serving.join()


def test_a_value_that_cannot_cross_says_why_wherever_it_is_used():
    value = Uncheckable("answer_1 cannot be checked: not Equal objects")
    for use in [lambda: value == 1, lambda: list(value), lambda: value.real, value]:
        with pytest.raises(TypeError, match="not Equal objects"):
            use()


@pytest.mark.parametrize("module", [m for _, m in stages() if m])
def test_every_function_with_a_solution_is_the_students(module):
    """A function of a stage's module that holds a solution region runs in the
    student's process: were it left out (a decorator hiding it, say), the hidden tests
    would test our solution."""
    path = ROOT / "bleu_lib" / f"{module}.py"
    source = path.read_text(encoding="utf-8")
    solved = {
        node.name
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef)
        and "### BEGIN SOLUTION" in ast.get_source_segment(source, node)
    }
    namespace = vars(importlib.import_module(f"bleu_lib.{module}"))
    assert solved and solved <= set(student_functions(namespace)), module
