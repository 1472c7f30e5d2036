"""The classroom edition and its grader.

The student edition hides every solution; the untouched edition is "not attempted"; our
notebooks score full marks; one stage filled in scores exactly that stage; wrong
submissions get messages that name the mistake; broken ones are reported. That the
grader cannot be fooled is tests/test_grader_security.py.

Grading runs the hidden tests with few random examples (to keep CI short); the times are
in the README."""

import ast
import json
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib

import nbformat
import pytest

from grader import classroom
from grader.classroom import REGION, grade, stages
from grading import FAST, with_stage
from support import ROOT
from tools.nbtools import MODEL_ANSWER, notebook_paths

STAGES = [path.name for path, _ in stages()]
# Part II's exercises (08) export no module: no hidden tests
MODULES = {module for _, module in stages() if module}

# Run in a process of its own: every test of tests/ that carries the mark `stage`, as
# pytest itself collects them, printed as JSON {node id: [[args, kwargs] of each such
# mark]}. --strict-markers: the mark must be registered.
COLLECT_MARKED = """
import json, sys
import pytest

class Marked:
    found = {}

    def pytest_collection_finish(self, session):
        for item in session.items:
            marks = [[list(m.args), m.kwargs] for m in item.iter_markers("stage")]
            if marks:
                self.found[item.nodeid] = marks

marked = Marked()
options = ["--collect-only", "-q", "--strict-markers"]
options += ["-o", "addopts=-p no:cacheprovider"]
code = pytest.main([*options, "tests"], plugins=[marked])
print(json.dumps(marked.found))
sys.exit(code)
"""


@pytest.fixture(scope="module")
def marked():
    """Every test of tests/ marked `stage`, by node id: the marks' arguments, as pytest
    collects them."""
    done = subprocess.run(
        [sys.executable, "-c", COLLECT_MARKED], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def hidden_tests(marked):
    "The hidden tests of each stage, by module: the node ids its marks name."
    stages = {}
    for node_id, marks in marked.items():
        for _, kwargs in marks:
            stages.setdefault(kwargs.get("name"), set()).add(node_id)
    return stages


def flat(text):
    """Code with its layout taken out (line breaks, indents, spaces inside brackets and
    trailing commas), so that a statement is found however it is wrapped."""
    text = re.sub(r"\s+", " ", text.replace("\\n", "\n"))
    return re.sub(r",? ([)\]}])", r"\1", re.sub(r"([(\[{]) ", r"\1", text))


def statements(body):
    "The simple statements of a solution region, each flattened."
    # a function around it, as a region may `return`
    source = "def region():\n" + textwrap.indent(textwrap.dedent(body), "    ")
    return {
        flat(ast.get_source_segment(source, node))
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.stmt) and not hasattr(node, "body")
    }


def solution_lines():
    """Every substantial statement inside a solution region of our notebooks, unless our
    notebooks also show it elsewhere."""
    inside, outside = set(), []
    # the appendix too: what it shows, students read anyway
    for path in notebook_paths():
        for cell in nbformat.read(path, as_version=4).cells:
            source = cell.source + "\n"
            for region in REGION.finditer(source):
                body = (
                    region[0]
                    .split("### BEGIN SOLUTION\n", 1)[1]
                    .rsplit("### END SOLUTION", 1)[0]
                )
                inside |= {line for line in statements(body) if len(line) >= 12}
            outside.append(flat(REGION.sub("", source)))
    # e.g. BP * exp(log_mean) also ends nltk32_bleu_from_stats, which students read
    return {line for line in inside if not any(line in text for text in outside)}


def test_every_stage_is_implementable():
    # all but the introduction
    assert (
        STAGES
        == [p.name for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))][1:]
    )


def test_solutions_never_leak_into_the_student_edition(edition):
    lines = solution_lines()
    assert len(lines) > 40
    texts, code = [], []
    for path in edition.rglob("*"):
        if path.suffix == ".ipynb":
            nb = nbformat.read(path, as_version=4)
            texts += [cell.source for cell in nb.cells] + [
                json.dumps(cell.get("outputs", [])) for cell in nb.cells
            ]
            code += [cell.source for cell in nb.cells if cell.cell_type == "code"]
        elif path.is_file() and path.suffix in (".py", ".md", ".txt"):
            texts.append(path.read_text(encoding="utf-8"))
    texts = [flat(text) for text in texts]
    leaked = sorted(line for line in lines if any(line in text for text in texts))
    assert leaked == []
    assert not (edition / "bleu_lib").exists() and "### BEGIN SOLUTION" not in "".join(
        code
    )


def test_the_teachers_model_answers_stay_out_of_the_student_edition(edition):
    def model_answers(folder):
        return [
            (path.name, cell.id, classroom.is_answer_key(cell))
            for path in sorted(folder.glob("*.ipynb"))
            for cell in nbformat.read(path, as_version=4).cells
            if cell.source.startswith(MODEL_ANSWER[0])
        ]

    ours = model_answers(ROOT / "notebooks")
    # every model answer is tagged, so it stays out
    assert len(ours) >= 5 and all(tagged for _, _, tagged in ours)
    assert model_answers(edition / "notebooks") == []


def test_the_script_runs_from_any_folder(edition, tmp_path):
    """`python grader/classroom.py student FOLDER` works run from outside the
    repository: the same edition, byte for byte."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "grader" / "classroom.py"), "student", "out"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr

    def contents(folder):
        return {
            str(path.relative_to(folder)): path.read_bytes()
            for path in folder.rglob("*")
            if path.is_file()
        }

    assert contents(tmp_path / "out") == contents(edition) != {}


def test_stubs_raise_with_a_hint(edition):
    source = "".join(
        c.source
        for c in nbformat.read(
            edition / "notebooks" / "01_ngrams.ipynb", as_version=4
        ).cells
    )
    assert (
        'raise NotImplementedError("Your turn: zip the token list with itself shifted'
        in source
    )
    assert 'raise NotImplementedError("Your turn: set answer_1")' in source


def test_every_stub_is_open_in_the_student_edition(edition):
    # our notebooks store the exercises' answers collapsed (self-study); a stub is not
    collapsed = [
        (path.name, cell.id)
        for path in sorted((edition / "notebooks").glob("*.ipynb"))
        for cell in nbformat.read(path, as_version=4).cells
        if cell.metadata.get("jupyter")
    ]
    assert collapsed == []


def test_the_untouched_edition_is_not_attempted(edition):
    report = grade(edition, **FAST)
    assert [r["notebook"] for r in report["stages"]] == STAGES
    assert [r["status"] for r in report["stages"]] == ["not attempted"] * len(
        STAGES
    ) and report["passed"] == 0


def test_our_notebooks_score_full_marks(marked):
    report = grade(ROOT / "notebooks", **FAST)
    assert report["passed"] == report["stages_total"] == len(STAGES), report
    assert all(
        r["checks_passed"] == r["checks_total"] > 0
        and r["tests_passed"] == r["tests_total"]
        for r in report["stages"]
    )
    # Part II: checks only
    assert all(
        (r["tests_total"] > 0) == (r["module"] is not None) for r in report["stages"]
    )
    # each stage ran as many hidden tests as pytest finds marked for it (a parametrized
    # test counts once per case)
    assert {r["module"]: r["tests_total"] for r in report["stages"] if r["module"]} == {
        module: len(node_ids) for module, node_ids in hidden_tests(marked).items()
    }


def test_every_stage_mark_names_a_stage_by_keyword(marked):
    """-m "stage(name='brevity')" matches keyword arguments only: a mark
    stage("brevity") would never be selected."""
    assert len(marked) >= len(MODULES)
    wrong = {
        node_id: marks
        for node_id, marks in marked.items()
        if any(
            args or list(kwargs) != ["name"] or kwargs["name"] not in MODULES
            for args, kwargs in marks
        )
    }
    assert wrong == {}, (
        f"write @pytest.mark.stage(name=MODULE), MODULE one of {sorted(MODULES)}"
    )


def test_every_stage_with_a_module_has_hidden_tests_in_the_grader_s_files(marked):
    stages = hidden_tests(marked)
    # every stage that exports a module, and only those, has at least one
    assert set(stages) == MODULES
    files = classroom.trusted_files()
    for module, node_ids in stages.items():
        assert classroom.hidden_test_files(files, module) == sorted(
            {node_id.split("::")[0] for node_id in node_ids}
        )
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "tool"
    ]["pytest"]["ini_options"]
    # registered as the grader registers it in its sandbox
    assert classroom.STAGE_MARK in markers["markers"]


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
}


@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_wrong_submission_is_told_its_mistake(edition, tmp_path, mistake):
    right, wrong, words = MISTAKES[mistake]
    folder = with_stage(
        edition,
        tmp_path / "wrong",
        "03_brevity_penalty.ipynb",
        lambda source: source.replace(right, wrong),
    )
    stage = grade(folder, only=["03"], **FAST)["stages"][0]
    assert stage["status"] == "graded" and not stage["passed"]
    messages = list(stage["failed_checks"].values()) + list(
        stage["failed_tests"].values()
    )
    assert any(words in message for message in messages), messages
    assert all(
        re.match(r"assert .* failed: .", why) for why in stage["failed_tests"].values()
    ), stage["failed_tests"]


def test_missing_unreadable_crashing_and_looping_notebooks_are_reported(
    edition, tmp_path
):
    broken = tmp_path / "broken"
    shutil.copytree(edition, broken)
    (broken / "notebooks" / "01_ngrams.ipynb").unlink()
    (broken / "notebooks" / "02_modified_precision.ipynb").write_text("not a notebook")
    for name, code in [
        ("03_brevity_penalty.ipynb", "import os\nos._exit(1)"),
        ("05_corpus_bleu.ipynb", "while True:\n    pass"),
    ]:
        nb = nbformat.read(broken / "notebooks" / name, as_version=4)
        nb.cells.insert(2, nbformat.v4.new_code_cell(code))
        nbformat.write(nb, broken / "notebooks" / name)
    report = grade(broken, timeout=5, examples=5, jobs=2, only=["01", "02", "03", "05"])
    status = {r["notebook"][:2]: r["status"] for r in report["stages"]}
    assert status["01"] == "missing" and status["02"].startswith("unreadable notebook")
    assert status["03"].startswith("could not run") and re.match(
        r"a cell ran longer than 5 s", status["05"]
    )
    assert report["passed"] == 0
