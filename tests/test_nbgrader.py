"""Teachers who use nbgrader can take the notebooks as they are: nbgrader's own commands
accept and grade them.

The metadata that nbgrader grades by is written by grader/nbgrader_metadata.py; these
tests check that it is up to date and valid, and then run nbgrader itself (as `python -m
nbgrader`, with a course folder and configuration of its own in a temporary folder, no
network) on one stage notebook: `generate_assignment` hands out a student version with
every solution gone and every check kept, and `autograde` gives the teacher's notebook,
handed in as a student's, every point of its check cells (and leaves its model answers
to the teacher), and the student version as handed out, none."""

import os
import re
import shutil
import subprocess
import sys

import nbformat
import pytest

from support import ROOT
from grader import nbgrader_metadata

NOTEBOOK = "03_brevity_penalty.ipynb"
COURSE, ASSIGNMENT = "bleu", "ps1"


def test_nbgrader_metadata_is_up_to_date(capsys):
    assert nbgrader_metadata.main(["--check"]) == 0, capsys.readouterr().out


@pytest.mark.parametrize(
    "path", nbgrader_metadata.notebook_paths(), ids=lambda p: p.name
)
def test_nbgrader_accepts_the_metadata(path):
    """nbgrader's own validator: the schema, a grade_id and points where needed, no
    grade_id twice."""
    from nbgrader.nbgraderformat import MetadataValidator

    MetadataValidator().validate_nb(nbformat.read(path, as_version=4))


def nbgrader(course, *args):
    """Run an nbgrader command in `course`, with Jupyter's and IPython's folders there
    too; its output. nbgrader runs the `alembic` command by name when it creates a
    gradebook: this environment's comes first on PATH, as it would in an activated
    virtual environment."""
    path = os.pathsep.join(
        [os.path.dirname(sys.executable), os.environ.get("PATH", "")]
    )
    env = {
        **os.environ,
        "PATH": path,
        "JUPYTER_CONFIG_DIR": str(course / ".jupyter"),
        "JUPYTER_DATA_DIR": str(course / ".data"),
        "JUPYTER_RUNTIME_DIR": str(course / ".runtime"),
        "IPYTHONDIR": str(course / ".ipython"),
    }
    run = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, (
        f"nbgrader {' '.join(args)} failed:\n{run.stdout}\n{run.stderr}"
    )
    return run.stdout + run.stderr


def regions(source):
    """The lines a student writes in `source`: those between the solution markers, blank
    ones left out."""
    inside = re.findall(
        r"### BEGIN SOLUTION\n(.*?)^[ \t]*### END SOLUTION", source, re.M | re.S
    )
    return [
        line.strip()
        for region in inside
        for line in region.splitlines()
        if line.strip()
    ]


def grades(course, student):
    """What nbgrader's gradebook says of `student`'s graded cells, by grade id: (points,
    out of, left to the teacher)."""
    from nbgrader.api import Gradebook

    with Gradebook(
        f"sqlite:///{course / 'gradebook.db'}", course_id=COURSE
    ) as gradebook:
        submitted = gradebook.find_submission_notebook(
            NOTEBOOK.removesuffix(".ipynb"), ASSIGNMENT, student
        )
        return {
            grade.name: (grade.score, grade.max_score, grade.needs_manual_grade)
            for grade in submitted.grades
        }


def test_nbgrader_hands_out_and_grades_a_notebook(tmp_path):
    from nbgrader.api import Gradebook

    teacher = nbformat.read(ROOT / "notebooks" / NOTEBOOK, as_version=4)
    # the metadata as the script writes it, committed or not
    nbgrader_metadata.apply(teacher)
    kind = {
        cell.id: nbgrader_metadata.describe(cell.metadata["nbgrader"])
        for cell in teacher.cells
        if "nbgrader" in cell.metadata
    }
    # the check cells, 1 point each
    tests = {cell_id for cell_id, name in kind.items() if name == "autograder tests"}
    # model answers
    by_hand = {
        cell_id for cell_id, name in kind.items() if name == "a manually graded answer"
    }
    solutions = [cell for cell in teacher.cells if nbgrader_metadata.is_solution(cell)]
    assert tests and solutions

    course = tmp_path / "course"
    (course / "source" / ASSIGNMENT).mkdir(parents=True)
    nbformat.write(teacher, course / "source" / ASSIGNMENT / NOTEBOOK)
    # handed out, restored when grading
    shutil.copy(ROOT / "notebooks" / "helpers.py", course / "source" / ASSIGNMENT)
    (course / "nbgrader_config.py").write_text(
        "c = get_config()\nc.CourseDirectory.root = "
        f"{str(course)!r}\nc.CourseDirectory.course_id = "
        f"{COURSE!r}\nc.CourseDirectory.db_url = "
        f"{'sqlite:///' + str(course / 'gradebook.db')!r}\nc.Execute.timeout = 120\n"
    )

    # generate_assignment, with nbgrader's defaults (ClearSolutions.enforce_metadata
    # among them)
    nbgrader(course, "generate_assignment", ASSIGNMENT, "--force")
    released = course / "release" / ASSIGNMENT / NOTEBOOK
    text = released.read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text
    student = {cell.id: cell for cell in nbformat.reads(text, as_version=4).cells}
    assert [cell.id for cell in teacher.cells] == list(student)
    # no answer shown by an output either
    assert all(cell.get("outputs", []) == [] for cell in student.values())
    for cell in solutions:
        kept = {line.strip() for line in student[cell.id].source.splitlines()}
        leaked = [line for line in regions(cell.source) if line in kept]
        assert not leaked, (
            f"cell {cell.id}: solution lines left in the student version: {leaked}"
        )
        assert "raise NotImplementedError()" in student[cell.id].source
        hints = [
            line
            for line in cell.source.splitlines()
            if line.strip().startswith("# Hint:")
        ]
        assert all(hint in student[cell.id].source.splitlines() for hint in hints)
    for cell in teacher.cells:
        if cell.id in tests:
            assert student[cell.id].source == cell.source
        if cell.id in by_hand:
            assert student[cell.id].source == "YOUR ANSWER HERE"
            assert not any(
                cell.source in handed_out.source for handed_out in student.values()
            )

    # autograde: the teacher's notebook as one student's submission, the student version
    # untouched as another's
    for name, notebook in [
        ("teacher", course / "source" / ASSIGNMENT / NOTEBOOK),
        ("student", released),
    ]:
        (course / "submitted" / name / ASSIGNMENT).mkdir(parents=True)
        shutil.copy(notebook, course / "submitted" / name / ASSIGNMENT / NOTEBOOK)
        (course / "autograded" / name).mkdir(parents=True)
        # the notebooks read ../data
        (course / "autograded" / name / "data").symlink_to(ROOT / "data")
    nbgrader(course, "autograde", ASSIGNMENT, "--force")

    teacher, student = grades(course, "teacher"), grades(course, "student")
    assert set(teacher) == set(student) == tests | by_hand
    assert {cell_id: teacher[cell_id] for cell_id in tests} == {
        cell_id: (1.0, 1.0, False) for cell_id in tests
    }
    assert {cell_id: student[cell_id] for cell_id in tests} == {
        cell_id: (0.0, 1.0, False) for cell_id in tests
    }
    # an answer written: the teacher grades it
    assert all(teacher[cell_id][2] for cell_id in by_hand)
    # "YOUR ANSWER HERE" left: 0
    assert all(student[cell_id] == (0.0, 1.0, False) for cell_id in by_hand)
    with Gradebook(
        f"sqlite:///{course / 'gradebook.db'}", course_id=COURSE
    ) as gradebook:
        assert gradebook.find_submission(ASSIGNMENT, "teacher").score == len(tests)
        assert gradebook.find_submission(ASSIGNMENT, "student").score == 0
