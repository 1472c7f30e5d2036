"""The classroom edition and its grader.

The student edition hides every solution; the untouched edition is "not attempted"; our
notebooks score full marks; one stage filled in scores exactly that stage; wrong
submissions get messages that name the mistake; broken ones are reported. The tricks
that try to fool the grader are tests/test_grader_security.py's.

Grading runs the hidden tests with few random examples (to keep CI short); the times are
in the README."""

import ast
import json
import re
import subprocess
import sys
import textwrap
import tomllib

import nbformat
import pytest

from grader import classroom
from grader.classroom import REGION, grade, stages
from grading import FAST, with_hinted_solutions
from hinted_solutions import HINTED
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
    source = source_of(edition / "notebooks" / "01_ngrams.ipynb")
    assert (
        'raise NotImplementedError("Your turn: zip the token list with itself shifted'
        in source
    )
    assert 'raise NotImplementedError("Your turn: set answer_1")' in source


def test_a_hint_over_several_lines_reaches_the_stub_whole(edition):
    source = source_of(edition / "notebooks" / "04_sentence_bleu.ipynb")
    # the hint's second comment line, "# (notebook 03)", is in the message too
    assert (
        'NotImplementedError("Your turn: clip_counts, ngram_counts and max_ref_counts '
        '(notebook 02), closest_ref_len (notebook 03)")'
    ) in source


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


def test_every_stage_scores_full_marks_with_our_answers_or_the_hinted_ones(
    marked, edition, tmp_path
):
    """Every stage handed in at once: each solution region as a student who follows
    its hint literally writes it (tests/hinted_solutions.py), or else our answer. Each
    passes, so no hint leaves out what a check or hidden test demands; one grading run
    for all, to keep the suite short."""
    handed_in = with_hinted_solutions(edition, tmp_path / "hinted")
    assert {name: notebook_source(name) for name in HINTED} != {
        name: source_of(handed_in / "notebooks" / name) for name in HINTED
    }  # the hinted regions are what was graded, not our answers
    report = grade(handed_in, **FAST)
    assert report["passed"] == report["stages_total"] == len(STAGES), classroom.table(
        report
    )
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


def notebook_source(name):
    return source_of(ROOT / "notebooks" / name)


def source_of(path):
    return "\n".join(cell.source for cell in nbformat.read(path, as_version=4).cells)


def test_check_names_say_where_a_check_is_and_what_it_calls():
    names = classroom.check_names(
        nbformat.read(ROOT / "notebooks" / "03_brevity_penalty.ipynb", as_version=4)
    )
    assert names["c07"] == "The effective reference length: closest_ref_len"
    assert names["c13b"] == "The penalty: brevity_penalty (check 2 of 2)"
    assert names["c26"] == "Exercise 1: answer_1"
    for path, _ in stages():  # every check of every stage has a name of its own
        found = classroom.check_names(nbformat.read(path, as_version=4))
        assert len(set(found.values())) == len(found) > 0, path.name
        assert not any(re.fullmatch(r"c\d+\w*", name) for name in found.values())


def run_check(source):
    """The message a check cell's source fails with, run as the grader runs it, or
    None."""
    try:
        exec(compile(classroom.reworded_check(source), "<check>", "exec"), {})
    except AssertionError as error:
        return str(error)
    return None


CHECKS = [  # a check cell's source, and the message the grader reports
    (
        "def f(x):\n    return 1 / x\n\nassert f(0) == 1, f'f(0) is 1, got {f(0)!r}'",
        "`f(0) == 1` raised ZeroDivisionError: division by zero. The check says: f(0) "
        "is 1, got (raised ZeroDivisionError)",
    ),
    ("assert 1 + 1 == 3", "`1 + 1 == 3` is false: its sides are 2, 3"),
    ("assert [] == [], 'never'\nassert not 1 // 1 == 1", "`not 1 // 1 == 1` is false"),
    ("assert {}['k']", "`{}['k']` raised KeyError: 'k'"),
    ("assert 2 < 1, f'not {1:>3}'", "not 1"),  # one line: the spaces collapse
    ("assert True, 'fine'\nx = 1", None),
    ("for x in [1, 2]:\n    assert x < 2, f'x = {x}'", "x = 2"),
    ("y = 1 / 0\nassert y", "ZeroDivisionError: division by zero"),
]


@pytest.mark.parametrize("source, message", CHECKS)
def test_a_failed_check_reports_its_message_whatever_the_code_raises(source, message):
    assert run_check(source) == message
    # the same checks: the cell as written fails exactly when the grader says so
    try:
        exec(compile(source, "<check>", "exec"), {})
        failed = False
    except Exception:
        failed = True
    assert failed == (message is not None)


def test_hidden_tests_are_named_by_their_docstring_or_name():
    docs = classroom.test_descriptions(
        {
            "tests/test_x.py": (
                "def test_a():\n"
                '    """The paper\'s examples, exactly.\n\n    More."""\n'
                "def test_the_maximum_not_the_sum(): pass\n"
                "def test_nltk_s_floor(): pass\n"
            )
        }
    )
    assert docs == {
        ("test_x", "test_a"): "The paper's examples, exactly.",
        ("test_x", "test_the_maximum_not_the_sum"): "the maximum not the sum",
        ("test_x", "test_nltk_s_floor"): "nltk's floor",
    }
    assert classroom.test_name("tests.test_x", "test_a[case-1]", docs) == (
        "The paper's examples, exactly. [case-1]"
    )
    assert classroom.test_name("test_x", "test_unknown", docs) == "test_unknown"


@pytest.mark.parametrize("teacher", [False, True])
def test_learners_jupyterlab_hides_nbgrader_and_teachers_can_turn_it_on(
    monkeypatch, teacher
):
    """README command 1's config: nbgrader's server extensions off and its JupyterLab
    extension disabled, unless BLEU_TEACHER=1 (checked in Chromium: no "Nbgrader"
    menu, "Validate" button or "Create Assignment" sidebar)."""
    from traitlets.config.loader import PyFileConfigLoader

    monkeypatch.setenv("BLEU_TEACHER", "1" if teacher else "0")
    config = PyFileConfigLoader(
        "jupyter_server_config.py", path=str(ROOT / "tools")
    ).load_config()
    extensions = config.ServerApp.get("jpserver_extensions", {})
    hook = config.ServerApp.get("tornado_settings", {}).get("page_config_hook")
    installed = ROOT / ".venv/etc/jupyter/jupyter_server_config.d/nbgrader.json"
    if installed.exists():  # every server extension nbgrader enables, we disable
        enabled = json.loads(installed.read_text())["ServerApp"]["jpserver_extensions"]
        assert set(enabled) <= set(extensions) or teacher
    if teacher:
        assert extensions == {} and hook is None
        return
    assert extensions and not any(extensions.values())
    assert all(name.startswith("nbgrader.") for name in extensions)
    for disabled in ({}, ["other"], {"other": True}):
        page = hook(None, {"disabledExtensions": disabled} if disabled != {} else {})
        assert "@jupyter/nbgrader" in page["disabledExtensions"]
