"""The grader's command line as a teacher uses it: a class graded in one command (a
gradebook as CSV and JSON, a feedback page per student), and bad arguments refused
before any grading, with exit status 2 as argparse gives.

Cheap by design: a class of three in which only stage 01 is graded, twice at most; the
rest is refused before grading or "not attempted" (never run)."""

import csv
import json
import shutil

import pytest

from grader import classroom
from grader.classroom import main, stage_names
from grading import with_stage
from support import ROOT

# a bug whose message the student wrote, with markup a feedback page must not run
BUG = "raise ValueError('<script>alert(1)</script> & <b>bold</b>')"
SOLUTION = "return list(zip(*(tokens[i:] for i in range(n))))"


@pytest.fixture
def never_graded(monkeypatch):
    "Fail the test if grading starts: a bad argument must be refused before."

    def grade_class(*args, **kwargs):
        raise AssertionError("graded despite a bad argument")

    monkeypatch.setattr(classroom, "grade_class", grade_class)


def refused(argv, capsys):
    "The error message of a command line that must exit with status 2."
    with pytest.raises(SystemExit) as exit:
        main([str(arg) for arg in argv])
    assert exit.value.code == 2
    return capsys.readouterr().err.splitlines()[-1]


@pytest.mark.parametrize(
    "options, message",
    [
        (["--stage", "99"], "no stage '99': the stages are 01_ngrams, "),
        (["--stage", "brevity"], "no stage 'brevity': the stages are 01_ngrams, "),
        (["--jobs", "0"], "argument --jobs: must be 1 or more, got 0"),
        (["--jobs", "-1"], "argument --jobs: must be 1 or more, got -1"),
        (["--timeout", "-1"], "argument --timeout: must be 1 or more, got -1"),
        (["--examples", "ten"], "argument --examples: expected a whole number"),
        (["--json", "missing/x.json"], "--json: folder "),
        (["--json", "."], "--json . is a folder: name another"),
        (["--out", "README.md"], "--out README.md is a file: name another"),
    ],
)
def test_bad_options_are_refused_before_grading(
    options, message, never_graded, capsys, monkeypatch
):
    monkeypatch.chdir(ROOT)
    assert message in refused(["grade", "notebooks", *options], capsys)


def test_a_gradebook_from_an_earlier_run_may_be_replaced(tmp_path):
    """The JSON gradebook is written private (0600) and replaced by a rename: grading
    again to the same --json or --out needs only the folder to be writable."""
    gradebook, grades = tmp_path / "grades.json", tmp_path / "grades"
    gradebook.write_text("{}")
    gradebook.chmod(0o600)
    grades.mkdir()
    assert classroom.output_problem("--json", gradebook) is None
    assert classroom.output_problem("--out", grades, folder=True) is None


def test_the_valid_stages_are_named_and_a_number_is_enough():
    assert stage_names(["3"]) == stage_names(["03"]) == ["03_brevity_penalty.ipynb"]
    assert stage_names(["12", "03_brevity_penalty", "1"]) == [
        "01_ngrams.ipynb",
        "03_brevity_penalty.ipynb",
        "12_what_a_score_means.ipynb",
    ]
    assert len(stage_names()) == len(classroom.stages())


def test_bad_folders_are_refused_before_grading(tmp_path, never_graded, capsys):
    assert refused(["grade", tmp_path / "misspelled"], capsys).endswith(
        "misspelled: not found"
    )
    assert refused(["grade", "/proc/x"], capsys).endswith("/proc/x: not found")
    assert "not a folder" in refused(["grade", ROOT / "README.md"], capsys)
    # a folder with no notebooks, neither a submission nor a class
    assert "no notebooks (NN_*.ipynb)" in refused(["grade", ROOT / "tests"], capsys)
    for name in ["a/alice", "b/alice"]:
        (tmp_path / name).mkdir(parents=True)
    both = [tmp_path / "a/alice", tmp_path / "b/alice"]
    assert "two submissions are named 'alice'" in refused(
        ["grade", *both, "--out", tmp_path / "grades"], capsys
    )
    (tmp_path / "a/bob").mkdir()
    two = [tmp_path / "a/alice", tmp_path / "a/bob"]
    assert "name a folder for them with --out" in refused(["grade", *two], capsys)


def test_the_student_edition_is_refused_where_it_cannot_go(capsys):
    assert refused(["student", "/proc/x"], capsys).endswith(
        "cannot write the student edition to /proc/x: No such file or directory"
    )
    # our notebooks would be overwritten by stubs
    assert "is this repository" in refused(["student", ROOT], capsys)


def test_a_class_in_one_command(edition, tmp_path, capsys):
    """Three students: one passes stage 01, one's bug raises markup, one did nothing;
    one gradebook, one feedback page each."""
    students = tmp_path / "class"
    students.mkdir()
    with_stage(edition, students / "alice", "01_ngrams.ipynb")
    # a name a spreadsheet would take for a formula, with markup
    eve = '=eve<i>&"'
    with_stage(
        edition,
        students / eve,
        "01_ngrams.ipynb",
        lambda source: source.replace(SOLUTION, BUG),
    )
    shutil.copytree(edition, students / "bob")
    grades = tmp_path / "grades"
    assert main(["grade", str(students), "--stage", "1", "--out", str(grades)]) == 0
    out, err = capsys.readouterr()
    # one progress line per student
    assert sorted(line.split("] ")[0] for line in err.splitlines()[1:]) == [
        "[1/3",
        "[2/3",
        "[3/3",
    ]
    assert out.splitlines()[:4] == [
        "student    01  passed",
        f"{eve}   x     0/1",
        "alice      ok     1/1",
        "bob         .     0/1",
    ]
    with open(grades / "gradebook.csv", encoding="utf-8-sig", newline="") as file:
        rows = list(csv.DictReader(file))
    # the CSV says what the JSON says
    book = json.loads((grades / "gradebook.json").read_text(encoding="utf-8"))
    assert [s["student"] for s in book["students"]] == [eve, "alice", "bob"]
    assert [(r["student"], r["01_ngrams"], r["stages passed"]) for r in rows] == [
        ("'" + eve, "fail", "0"),
        ("alice", "pass", "1"),
        ("bob", "not attempted", "0"),
    ]
    alice = book["students"][1]["stages"][0]
    assert rows[1]["checks passed"] == str(alice["checks_passed"]) == rows[1]["checks"]
    pages = sorted(path.name for path in (grades / "feedback").iterdir())
    assert pages == ["_eve_i___.html", "alice.html", "bob.html"]
    page = (grades / "feedback" / "_eve_i___.html").read_text(encoding="utf-8")
    # what the student wrote is shown, escaped, in the failed checks and tests
    shown = "ValueError: &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold"
    assert "<script" not in page and page.count(shown) >= 2
    assert "Feedback for =eve&lt;i&gt;&amp;&quot;" in page
    # offline: nothing but the inline style may load
    assert "default-src 'none'" in page and "http" not in page.replace("http-equiv", "")


def test_several_folders_grade_as_the_folder_that_holds_them(edition, tmp_path, capsys):
    """Untouched editions: "not attempted" is decided without running anything, so
    this is fast."""
    for name in ["ann", "ben"]:
        shutil.copytree(edition, tmp_path / "class" / name)
    listed = [str(tmp_path / "class" / name) for name in ["ann", "ben"]]
    for folders, out in [([str(tmp_path / "class")], "a"), (listed, "b")]:
        assert main(["grade", *folders, "--out", str(tmp_path / out)]) == 0
    csvs = [(tmp_path / out / "gradebook.csv").read_bytes() for out in "ab"]
    assert csvs[0] == csvs[1] and csvs[0].count(b"not attempted") == 2 * len(
        stage_names()
    )
    capsys.readouterr()


def test_one_submission_is_graded_as_before_with_a_page_if_asked(
    edition, tmp_path, capsys
):
    # as the README's example: the table, and the JSON gradebook of one student
    assert main(["grade", str(edition), "--stage", "01", "--out", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("stage ") and "stages passed: 0 of 1" in out
    # first which isolation, then a line per stage, as each one ends
    assert [line.split(":")[0] for line in err.splitlines()] == [
        "isolation",
        "01_ngrams",
    ]
    assert (tmp_path / "feedback" / f"{edition.name}.html").exists()


def test_a_gradebook_that_cannot_be_written_after_grading_is_an_error(
    edition, tmp_path, monkeypatch, capsys
):
    """The disk fills up while the class is graded: the grades are still printed, and
    the command says what could not be written and exits 1."""

    def full_disk(report, path):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(classroom, "write_gradebook", full_disk)
    gradebook = tmp_path / "grades.json"
    assert main(["grade", str(edition), "--stage", "01", "--json", str(gradebook)]) == 1
    out, err = capsys.readouterr()
    assert "stages passed: 0 of 1" in out and not gradebook.exists()
    assert err.splitlines()[-1] == (
        "python -m grader grade: error: the grades could not be written: [Errno 28] "
        f"No space left on device: '{gradebook}'"
    )
