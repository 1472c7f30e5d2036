"""Shared setup for the test suite."""

import compileall
import logging
import os
from pathlib import Path

import pytest
from hypothesis import Phase, settings

# SacreBLEU logs advice (effective order, tokenized input) that is irrelevant to the
# comparisons we make.
logging.getLogger("sacrebleu").setLevel(logging.ERROR)

# Differential tests: the same examples on every run, so that a failure reproduces, and
# no deadline (NLTK and SacreBLEU are called in every example and their speed varies).
# 200 examples a property: the whole suite must stay under 5 minutes on 2 cores, and
# the grader's tests, which start processes, take a third of that.
# The grader of the classroom edition (grader/classroom.py) may ask for fewer examples
# with BLEU_TEST_EXAMPLES. When grading, only pass or fail counts: no time is spent
# shrinking a failing example to its smallest form.
grading = "BLEU_TEST_EXAMPLES" in os.environ
settings.register_profile(
    "bleu",
    derandomize=True,
    deadline=None,
    database=None,
    max_examples=int(os.environ.get("BLEU_TEST_EXAMPLES", "200")),
    phases=[phase for phase in Phase if not (grading and phase is Phase.shrink)],
)
settings.load_profile("bleu")


def pytest_configure(config):
    """Compile our modules' bytecode once, before the test processes start. Elsewhere
    the first import writes it and later ones read it; where PYTHONDONTWRITEBYTECODE is
    set (CI's machine), every process the tests start (the command line, kernels, the
    grader's) would compile the modules again."""
    if not hasattr(config, "workerinput"):  # the controller, not each worker
        root = Path(__file__).resolve().parents[1]
        for folder in ("bleu_lib", "grader", "tools"):
            compileall.compile_dir(root / folder, quiet=1)
        compileall.compile_file(root / "notebooks" / "helpers.py", quiet=1)


@pytest.fixture(scope="session")
def edition(tmp_path_factory):
    """The student edition of our notebooks, as the grader's tests hand it in
    (test_classroom, test_grader_security...): built once per test process, read only
    (a test that changes it works on a copy)."""
    # here: the grader's sandbox runs the hidden tests without grader/
    from grader.classroom import student_edition

    folder = tmp_path_factory.mktemp("student")
    student_edition(folder)
    return folder
