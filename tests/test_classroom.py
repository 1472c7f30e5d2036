"""The classroom edition: the student edition hides every solution and scores 0; our notebooks score full marks;
a student edition with one stage filled in scores exactly that stage; broken submissions never crash the grader.

Grading runs the notebooks in fresh kernels and the hidden tests with fewer random examples (to keep CI short).
"""
import json
import re
import shutil

import nbformat
import pytest

from support import ROOT
from tools.classroom import REGION, grade, stages, student_edition

STAGES = [path.name for path, _ in stages()]
FAST = {"timeout": 120, "examples": 10, "jobs": 2}


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    folder = tmp_path_factory.mktemp("student")
    student_edition(folder)
    return folder


def solution_lines():
    "Every substantial line of code inside a solution region of our notebooks, unless our notebooks also show it elsewhere."
    inside, outside = set(), set()
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            source = cell.source + "\n"
            for region in REGION.finditer(source):
                body = region[0].split("### BEGIN SOLUTION\n", 1)[1].rsplit("### END SOLUTION", 1)[0]
                inside |= {line.strip() for line in body.splitlines() if len(line.strip()) >= 12 and not line.strip().startswith("#")}
            outside |= {line.strip() for line in REGION.sub("", source).splitlines()}
    return inside - outside  # e.g. BP * exp(log_mean) also ends nltk32_bleu_from_stats, which students read


def test_every_stage_is_implementable():
    assert STAGES == [p.name for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))][1:]  # all but the introduction


def test_solutions_never_leak_into_the_student_edition(edition):
    lines = solution_lines()
    assert len(lines) > 40
    texts, code = [], []
    for path in edition.rglob("*"):
        if path.suffix == ".ipynb":
            nb = nbformat.read(path, as_version=4)
            texts += [cell.source for cell in nb.cells] + [json.dumps(cell.get("outputs", [])) for cell in nb.cells]
            code += [cell.source for cell in nb.cells if cell.cell_type == "code"]
        elif path.is_file() and path.suffix in (".py", ".md", ".txt"):
            texts.append(path.read_text(encoding="utf-8"))
    leaked = sorted(line for line in lines if any(line in text for text in texts))
    assert leaked == []
    assert not (edition / "bleu_lib").exists() and "### BEGIN SOLUTION" not in "".join(code)


def test_stubs_raise_with_a_hint(edition):
    source = "".join(c.source for c in nbformat.read(edition / "notebooks" / "01_ngrams.ipynb", as_version=4).cells)
    assert 'raise NotImplementedError("Your turn: zip the token list with itself shifted' in source
    assert 'raise NotImplementedError("Your turn: set answer_1")' in source


def test_student_edition_runs_and_scores_zero_on_every_stage(edition):
    report = grade(edition, **FAST)
    assert [r["notebook"] for r in report["stages"]] == STAGES
    assert all(r["status"] == "graded" and not r["passed"] for r in report["stages"]), report
    assert report["passed"] == 0


def test_our_notebooks_score_full_marks():
    report = grade(ROOT / "notebooks", **FAST)
    assert report["passed"] == report["stages_total"] == len(STAGES), report
    assert all(r["checks_passed"] == r["checks_total"] > 0 and r["tests_passed"] == r["tests_total"] > 0 for r in report["stages"])


def test_one_stage_filled_in_scores_exactly_that_stage(edition, tmp_path):
    filled = tmp_path / "filled"
    shutil.copytree(edition, filled)
    shutil.copy(ROOT / "notebooks" / "03_brevity_penalty.ipynb", filled / "notebooks")
    report = grade(filled, **FAST)
    assert [r["notebook"] for r in report["stages"] if r["passed"]] == ["03_brevity_penalty.ipynb"], report


def test_missing_unreadable_and_crashing_notebooks_are_reported(edition, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(edition, broken)
    (broken / "notebooks" / "01_ngrams.ipynb").unlink()
    (broken / "notebooks" / "02_modified_precision.ipynb").write_text("not a notebook")
    crashing = nbformat.read(broken / "notebooks" / "03_brevity_penalty.ipynb", as_version=4)
    crashing.cells.insert(2, nbformat.v4.new_code_cell("import os\nos._exit(1)"))
    nbformat.write(crashing, broken / "notebooks" / "03_brevity_penalty.ipynb")
    looping = nbformat.read(broken / "notebooks" / "05_corpus_bleu.ipynb", as_version=4)
    looping.cells.insert(2, nbformat.v4.new_code_cell("while True:\n    pass"))
    nbformat.write(looping, broken / "notebooks" / "05_corpus_bleu.ipynb")
    report = grade(broken, timeout=5, examples=5, jobs=2, only=["01", "02", "03", "05"])
    status = {r["notebook"][:2]: r["status"] for r in report["stages"]}
    assert status["01"] == "missing" and status["02"].startswith("unreadable notebook")
    assert status["03"].startswith("could not run") and re.match(r"a cell ran longer than 5 s", status["05"])
    assert report["passed"] == 0
