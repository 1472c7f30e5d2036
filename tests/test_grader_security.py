"""The tricks of tests/make_malicious_submission.py fail their stage, the teacher's
files stay as they were, the gradebook is the grader's, and student code runs isolated.
(A file of its own so that the parallel test processes share the grader's slowest
tests; tests/test_classroom.py has the rest.)"""

import hashlib
import json
import os
import subprocess
import sys
import time

import pytest

from grader import classroom, sandbox
from grader.classroom import fingerprint, grade, write_gradebook
from grading import FAST, with_stage
from make_malicious_submission import make
from support import ROOT


# --- the tricks
# --------------------------------------------------------------------------------------


TRICKS = [
    "conftest",
    "silence",
    "write",
    "detach",
    "peek",
    "transform",
    "equal",
    "forge",
]
# without strong isolation, these would really reach the repository (and be reported)
REACHING = {"conftest", "write", "peek", "forge"}


@pytest.fixture(scope="module")
def tricked(edition, tmp_path_factory):
    """A class in which each student hands in one trick (those this machine's isolation
    lets us try), graded as a teacher does, in one command, stages 01 and 02: (the
    command's result, the --json gradebook's path, the tricks tried, the repository's
    fingerprint before)."""
    tricks = [t for t in TRICKS if sandbox.isolation() != "weak" or t not in REACHING]
    tmp = tmp_path_factory.mktemp("tricks")
    gradebook = tmp / "gradebook.json"
    for trick in tricks:
        make(edition, tmp / "class" / trick, trick, gradebook)
    before = fingerprint()
    done = subprocess.run(
        [
            *[sys.executable, "-m", "grader", "grade", str(tmp / "class")],
            *["--out", str(tmp / "grades"), "--json", str(gradebook)],
            *["--examples", str(FAST["examples"]), "--stage", "01", "--stage", "02"],
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return done, gradebook, tricks, before


@pytest.mark.parametrize("trick", TRICKS)
def test_a_malicious_notebook_fools_nobody(tricked, trick):
    done, gradebook, tricks, _ = tricked
    if trick not in tricks:
        pytest.skip("no strong isolation here: this trick would reach the repository")
    assert done.returncode == 0, done.stderr
    (report,) = [
        student
        for student in json.loads(gradebook.read_text())["students"]
        if student["student"] == trick
    ]
    stage = report["stages"][0]
    assert (
        report["passed"] == 0 and stage["status"] == "graded" and not stage["passed"]
    ), report
    # our checks ran in a process of their own, and saw the stubs raise
    if trick in ("silence", "transform"):
        assert stage["checks_passed"] < stage["checks_total"] and all(
            "Your turn" in why or "is not defined" in why
            for why in stage["failed_checks"].values()
        ), stage
    # our solution module was not there to be read: the student's stubs were tested
    if trick == "peek":
        assert stage["tests_passed"] == 0 < stage["tests_total"], stage
    # only plain values cross to our checks: an object of the student's class does not
    if trick == "equal":
        failed = [
            why for name, why in stage["failed_checks"].items() if "answer_" in name
        ]
        assert len(failed) == 2 and all(
            f"answer_{i} cannot be checked: the checks take only plain values" in why
            and "not __main__.Equal objects" in why
            for i, why in enumerate(failed, 1)
        ), stage
    # the student's module runs in a process of its own, apart from the hidden tests'
    # report: the tests saw the stubs raise
    if trick == "forge":
        assert stage["tests_passed"] == 0 < stage["tests_total"], stage
        assert all("Your turn" in why for why in stage["failed_tests"].values()), stage


def test_rewritten_checks_pass_no_stage(edition, tmp_path):
    """`transform` rewrites check cells in the student's process; ours run in another:
    stages 08 and 09, which have no hidden test, fail with their checks. (Stage 01
    fails with `transform`, and with `forge`, in the class above.)"""
    notebooks = ["08_reporting_bleu.ipynb", "09_why_libraries_differ.ipynb"]
    folder = make(edition, tmp_path / "both", "transform+forge", notebooks=notebooks)
    stages = grade(folder, only=["08", "09"], **FAST)["stages"]
    assert [s["notebook"] for s in stages] == notebooks
    assert not any(s["passed"] for s in stages) and all(
        s["failed_checks"] for s in stages
    ), stages


def test_the_tricks_leave_the_repository_and_the_gradebook_as_the_grader_made_them(
    tricked,
):
    done, gradebook, tricks, before = tricked
    assert done.returncode == 0, done.stderr
    assert (
        fingerprint() == before
        and not (ROOT / "HACKED.txt").exists()
        and json.loads(gradebook.read_text())["repository_changed"] == []
    )
    printed = done.stdout.split(f"gradebook written to {gradebook} (sha256 ")[1][:64]
    # long enough for a process that survived the grader to have rewritten the gradebook
    time.sleep(2)
    assert (
        printed == hashlib.sha256(gradebook.read_bytes()).hexdigest()
        and "forged" not in gradebook.read_text()
    )
    # first which isolation, then a line per student, as each one ends
    first, *progress = [line.split(":")[0] for line in done.stderr.splitlines()]
    assert first == "isolation"
    assert sorted(line.split("] ")[1] for line in progress) == sorted(tricks)


def test_links_to_our_solutions_are_refused(edition, tmp_path):
    folder = make(edition, tmp_path / "links", "links")
    report = grade(folder, **FAST)
    assert {r["status"] for r in report["stages"]} == {
        "refused: a link, not a file of the submission"
    }
    notebooks_link = tmp_path / "folder_link"
    notebooks_link.mkdir()
    (notebooks_link / "notebooks").symlink_to(ROOT / "notebooks")
    assert all(
        r["status"].startswith("refused: ") and not r["passed"]
        for r in grade(notebooks_link, **FAST)["stages"]
    )
    hard = with_stage(edition, tmp_path / "hard", "01_ngrams.ipynb")
    # a file shared with another folder
    os.link(hard / "notebooks" / "01_ngrams.ipynb", tmp_path / "elsewhere.ipynb")
    assert (
        grade(hard, only=["01"], **FAST)["stages"][0]["status"]
        == "refused: not a regular file of its own"
    )


def test_a_changed_repository_is_reported_and_fails_the_command(
    edition, tmp_path, monkeypatch, capsys
):
    """If student code got to change the teacher's files anyway, the teacher is told,
    and the command exits 3."""
    states = iter(
        [
            {"tests/conftest.py": "before"},
            {"tests/conftest.py": "after", "HACKED.txt": "new"},
        ]
    )
    monkeypatch.setattr(classroom, "fingerprint", lambda: next(states))
    assert classroom.main(["grade", str(edition), "--stage", "01"]) == 3
    assert (
        "WARNING: files of the grader's repository changed while grading: HACKED.txt, "
        "tests/conftest.py" in capsys.readouterr().out
    )


def test_without_isolation_the_processes_a_notebook_started_are_killed(
    edition, tmp_path, monkeypatch
):
    """The weak isolation, as without util-linux or user namespaces: what the student's
    notebook started dies with it (by its marker)."""
    # the grading workers are forked: they see it too
    monkeypatch.setattr(sandbox, "isolation", lambda: "weak")
    gradebook = tmp_path / "gradebook.json"
    report = grade(
        make(edition, tmp_path / "submission", "detach", gradebook), only=["01"], **FAST
    )
    digest = write_gradebook(report, gradebook)
    time.sleep(2)
    assert (
        report["isolation"] == "weak"
        and hashlib.sha256(gradebook.read_bytes()).hexdigest() == digest
    )


def test_the_fingerprint_sees_git_hooks_and_config_not_its_bookkeeping(
    tmp_path, monkeypatch
):
    """A hook or config that student code planted would run the next time the teacher
    commits; the index, refs and logs change whenever the teacher does commit."""
    kept = ["config", "hooks/pre-commit", "info/attributes"]
    changing = ["index", "HEAD", "logs/HEAD", "refs/heads/main", "worktrees/wt/index"]
    for name in [*kept, *changing, "objects/ab"]:
        (tmp_path / ".git" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / ".git" / name).write_text(name)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text("")
    monkeypatch.setattr(classroom, "ROOT", tmp_path)
    assert sorted(fingerprint()) == [
        ".git/config",
        ".git/hooks/pre-commit",
        ".git/info/attributes",
        "tests/conftest.py",
    ]
