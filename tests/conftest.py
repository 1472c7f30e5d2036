"""Shared setup for the test suite."""

import logging
import os

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
