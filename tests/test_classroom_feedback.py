"""The grader's verdicts on wrong, partial and broken submissions: the words of the
lesson reach the student. Apart from test_classroom.py so that pytest-xdist can run
these gradings beside its own."""

import re
import shutil
from xml.etree import ElementTree

import nbformat
import pytest

from grader import classroom
from grader.classroom import grade
from grading import FAST, with_stage
from support import ROOT
from test_classroom import notebook_source


def test_one_stage_filled_in_scores_exactly_that_stage(edition, tmp_path):
    report = grade(
        with_stage(edition, tmp_path / "filled", "03_brevity_penalty.ipynb"), **FAST
    )
    assert [r["notebook"] for r in report["stages"] if r["passed"]] == [
        "03_brevity_penalty.ipynb"
    ], report
    assert {r["status"] for r in report["stages"] if not r["passed"]} == {
        "not attempted"
    }


MISTAKES = {  # a wrong solution, and the words of the lesson its feedback must use
    "the shortest reference": (
        "min(ref_lens, key=lambda ref_len: (abs(ref_len - hyp_len), ref_len))",
        "min(ref_lens)",
        "closeness is measured from the hypothesis length",
    ),
    "an inverted brevity penalty": (
        "math.exp(1 - closest_ref_len / hyp_len)",
        "math.exp(1 - hyp_len / closest_ref_len)",
        "BP = exp(1 - r/c) below c = r",
    ),
    # issue 27: the error is raised inside the assert's condition, and the check's own
    # message must still reach the student, with the call that raised
    "three cases where the hint says four": (
        "    if closest_ref_len > 1000 * hyp_len:\n"
        "        return 0.0  # exp(1 - r/c) underflows to 0 anyway\n",
        "",
        "`brevity_penalty(10**400, 1) == brevity_penalty(1001, 1) == "
        "math.exp(1 - 1001) == 0.0` raised OverflowError: integer division result "
        "too large for a float. "
        "The check says: BP for c = 1 and r = 1001 or 10**400 is 0.0 (exp(1 - 1001) "
        "underflows), got 0.0 and (raised OverflowError): for r > 1000 c return 0 "
        "without dividing",
    ),
}


@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_wrong_submission_is_told_its_mistake(edition, tmp_path, mistake):
    right, wrong, words = MISTAKES[mistake]
    assert right in notebook_source("03_brevity_penalty.ipynb")
    folder = with_stage(
        edition,
        tmp_path / "wrong",
        "03_brevity_penalty.ipynb",
        lambda source: source.replace(right, wrong),
    )
    report = grade(folder, only=["03"], **FAST)
    stage = report["stages"][0]
    assert stage["status"] == "graded" and not stage["passed"]
    messages = list(stage["failed_checks"].values()) + list(
        stage["failed_tests"].values()
    )
    assert any(words in message for message in messages), messages
    assert all(
        re.match(r"assert .* failed: .", why) for why in stage["failed_tests"].values()
    ), stage["failed_tests"]
    # named as the student finds them; the ids stay in the gradebook for teachers
    names = classroom.check_names(
        nbformat.read(ROOT / "notebooks" / "03_brevity_penalty.ipynb", as_version=4)
    )
    assert stage["failed_check_ids"] == {
        name: cell for cell, name in names.items() if name in stage["failed_checks"]
    } and set(stage["failed_check_ids"]) == set(stage["failed_checks"])
    assert set(stage["failed_test_ids"]) == set(stage["failed_tests"])
    assert all("::test_" in node for node in stage["failed_test_ids"].values())
    table = classroom.table(report)
    assert all(f'    check "{name}": ' in table for name in stage["failed_checks"])
    assert not re.search(r"check c\d", table)


def test_missing_unreadable_crashing_and_looping_notebooks_are_reported(
    edition, tmp_path
):
    broken = tmp_path / "broken"
    shutil.copytree(edition, broken)
    (broken / "notebooks" / "01_ngrams.ipynb").unlink()
    (broken / "notebooks" / "02_modified_precision.ipynb").write_text("not a notebook")
    for name, code in [
        ("03_brevity_penalty.ipynb", "import os\nos._exit(1)"),
        # a loop that waits: it spends no CPU while the timeout runs out
        ("05_corpus_bleu.ipynb", "import time\nwhile True:\n    time.sleep(0.1)"),
    ]:
        nb = nbformat.read(broken / "notebooks" / name, as_version=4)
        nb.cells.insert(2, nbformat.v4.new_code_cell(code))
        nbformat.write(nb, broken / "notebooks" / name)
    report = grade(broken, timeout=5, examples=5, jobs=2, only=["01", "02", "03", "05"])
    status = {r["notebook"][:2]: r["status"] for r in report["stages"]}
    assert status["01"] == "missing" and status["02"].startswith("unreadable notebook")
    assert status["03"].startswith("the notebook ended its own process") and re.match(
        r"a cell ran longer than 5 s", status["05"]
    )
    assert report["passed"] == 0


def test_a_hidden_test_s_assert_over_several_lines_is_quoted_whole():
    """pytest marks only the first line of an assert that spans lines: the message
    quotes the whole condition, as the test wrote it, not `assert (`."""
    report = (
        "def test_counts(hyp):\n"
        ">       assert (\n"
        "            ngram_counts(hyp, 1) == Counter({('a',): 1})\n"
        "        )\n"
        "E       AssertionError: assert Counter() == Counter({('a',): 1})\n"
        "E         Right contains 1 more item:\n"
    )
    failure = ElementTree.Element(
        "failure", message="AssertionError: assert Counter() == Counter({('a',): 1})"
    )
    failure.text = report
    assert classroom.failure_message(failure) == (
        "assert ngram_counts(hyp, 1) == Counter({('a',): 1}) failed: "
        "Counter() == Counter({('a',): 1})"
    )
