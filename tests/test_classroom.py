"""The classroom edition and its grader.

The student edition hides every solution; the untouched edition is "not attempted"; our notebooks score full marks;
one stage filled in scores exactly that stage; wrong submissions get messages that name the mistake; broken ones are
reported; and the grader cannot be fooled by the tricks of tests/make_malicious_submission.py: the stage fails, the
teacher's files stay as they were, and the gradebook is the grader's.

Grading runs the hidden tests with few random examples (to keep CI short); the times are in the README.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import nbformat
import pytest

from grader import classroom, sandbox
from grader.classroom import REGION, fingerprint, grade, stages, student_edition, write_gradebook
from make_malicious_submission import make
from support import ROOT
from tools.nbtools import notebook_paths

STAGES = [path.name for path, _ in stages()]
MODULES = {module for _, module in stages() if module}  # Part II's exercises (08) export no module: no hidden tests
FAST = {"timeout": 60, "examples": 10, "jobs": 2}

# Run in a process of its own: every test of tests/ that carries the mark `stage`, as pytest itself collects them,
# printed as JSON {node id: [[args, kwargs] of each such mark]}. --strict-markers: the mark must be registered.
COLLECT_MARKED = """
import json, sys
import pytest

class Marked:
    found = {}

    def pytest_collection_finish(self, session):
        for item in session.items:
            marks = [[list(mark.args), mark.kwargs] for mark in item.iter_markers("stage")]
            if marks:
                self.found[item.nodeid] = marks

marked = Marked()
code = pytest.main(["--collect-only", "-q", "--strict-markers", "-o", "addopts=-p no:cacheprovider", "tests"],
                   plugins=[marked])
print(json.dumps(marked.found))
sys.exit(code)
"""


@pytest.fixture(scope="module")
def marked():
    "Every test of tests/ marked `stage`, by node id: the marks' arguments, as pytest collects them."
    done = subprocess.run([sys.executable, "-c", COLLECT_MARKED], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def hidden_tests(marked):
    "The hidden tests of each stage, by module: the node ids its marks name."
    stages = {}
    for node_id, marks in marked.items():
        for _, kwargs in marks:
            stages.setdefault(kwargs.get("name"), set()).add(node_id)
    return stages


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    folder = tmp_path_factory.mktemp("student")
    student_edition(folder)
    return folder


def solution_lines():
    "Every substantial line of code inside a solution region of our notebooks, unless our notebooks also show it elsewhere."
    inside, outside = set(), set()
    for path in notebook_paths():  # the appendix too: what it shows, students read anyway
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


def test_the_teachers_model_answers_stay_out_of_the_student_edition(edition):
    def model_answers(folder):
        return [(path.name, cell.id, classroom.is_answer_key(cell)) for path in sorted(folder.glob("*.ipynb"))
                for cell in nbformat.read(path, as_version=4).cells if cell.source.startswith("**Model answer.**")]
    ours = model_answers(ROOT / "notebooks")
    assert len(ours) >= 5 and all(tagged for _, _, tagged in ours)  # every model answer is tagged, so it stays out
    assert model_answers(edition / "notebooks") == []


def test_the_script_runs_from_any_folder(edition, tmp_path):
    "`python grader/classroom.py student FOLDER` works run from outside the repository: the same edition, byte for byte."
    done = subprocess.run([sys.executable, str(ROOT / "grader" / "classroom.py"), "student", "out"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

    def contents(folder):
        return {str(path.relative_to(folder)): path.read_bytes() for path in folder.rglob("*") if path.is_file()}
    assert contents(tmp_path / "out") == contents(edition) != {}


def test_stubs_raise_with_a_hint(edition):
    source = "".join(c.source for c in nbformat.read(edition / "notebooks" / "01_ngrams.ipynb", as_version=4).cells)
    assert 'raise NotImplementedError("Your turn: zip the token list with itself shifted' in source
    assert 'raise NotImplementedError("Your turn: set answer_1")' in source


def test_the_untouched_edition_is_not_attempted(edition):
    report = grade(edition, **FAST)
    assert [r["notebook"] for r in report["stages"]] == STAGES
    assert [r["status"] for r in report["stages"]] == ["not attempted"] * len(STAGES) and report["passed"] == 0


def test_our_notebooks_score_full_marks(marked):
    report = grade(ROOT / "notebooks", **FAST)
    assert report["passed"] == report["stages_total"] == len(STAGES), report
    assert all(r["checks_passed"] == r["checks_total"] > 0 and r["tests_passed"] == r["tests_total"] for r in report["stages"])
    assert all((r["tests_total"] > 0) == (r["module"] is not None) for r in report["stages"])  # Part II: checks only
    # each stage ran as many hidden tests as pytest finds marked for it (a parametrized test counts once per case)
    assert {r["module"]: r["tests_total"] for r in report["stages"] if r["module"]} == \
           {module: len(node_ids) for module, node_ids in hidden_tests(marked).items()}
    assert all(r["seconds"] < 30 for r in report["stages"]), [(r["notebook"], r["seconds"]) for r in report["stages"]]


def test_every_stage_mark_names_a_stage_by_keyword(marked):
    "-m \"stage(name='brevity')\" matches keyword arguments only: a mark stage(\"brevity\") would never be selected."
    assert len(marked) >= len(MODULES)
    wrong = {node_id: marks for node_id, marks in marked.items()
             if any(args or list(kwargs) != ["name"] or kwargs["name"] not in MODULES for args, kwargs in marks)}
    assert wrong == {}, f"write @pytest.mark.stage(name=MODULE), MODULE one of {sorted(MODULES)}"


def test_every_stage_with_a_module_has_hidden_tests_in_the_files_the_grader_gives_pytest(marked):
    stages = hidden_tests(marked)
    assert set(stages) == MODULES  # every stage that exports a module, and only those, has at least one
    files = classroom.trusted_files()
    for module, node_ids in stages.items():
        assert classroom.hidden_test_files(files, module) == sorted({node_id.split("::")[0] for node_id in node_ids})
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert classroom.STAGE_MARK in markers["markers"]  # registered as the grader registers it in its sandbox


def with_stage(edition, folder, name, change=lambda source: source):
    "A copy of the student edition in which our notebook `name`, its solutions changed by `change`, is handed in."
    shutil.copytree(edition, folder)
    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    for cell in nb.cells:
        cell.source = change(cell.source)
    nbformat.write(nb, folder / "notebooks" / name)
    return folder


def test_one_stage_filled_in_scores_exactly_that_stage(edition, tmp_path):
    report = grade(with_stage(edition, tmp_path / "filled", "03_brevity_penalty.ipynb"), **FAST)
    assert [r["notebook"] for r in report["stages"] if r["passed"]] == ["03_brevity_penalty.ipynb"], report
    assert {r["status"] for r in report["stages"] if not r["passed"]} == {"not attempted"}


MISTAKES = {  # a wrong solution, and the words of the lesson its feedback must use
    "the shortest reference": ("min(ref_lens, key=lambda ref_len: (abs(ref_len - hyp_len), ref_len))", "min(ref_lens)",
                               "closeness is measured from the hypothesis length"),
    "an inverted brevity penalty": ("math.exp(1 - closest_ref_len / hyp_len)", "math.exp(1 - hyp_len / closest_ref_len)",
                                    "BP = exp(1 - r/c) below c = r"),
}


@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_wrong_submission_is_told_its_mistake(edition, tmp_path, mistake):
    right, wrong, words = MISTAKES[mistake]
    folder = with_stage(edition, tmp_path / "wrong", "03_brevity_penalty.ipynb", lambda source: source.replace(right, wrong))
    stage = grade(folder, only=["03"], **FAST)["stages"][0]
    assert stage["status"] == "graded" and not stage["passed"]
    messages = list(stage["failed_checks"].values()) + list(stage["failed_tests"].values())
    assert any(words in message for message in messages), messages
    assert all(re.match(r"assert .* failed: .", why) for why in stage["failed_tests"].values()), stage["failed_tests"]


def test_missing_unreadable_crashing_and_looping_notebooks_are_reported(edition, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(edition, broken)
    (broken / "notebooks" / "01_ngrams.ipynb").unlink()
    (broken / "notebooks" / "02_modified_precision.ipynb").write_text("not a notebook")
    for name, code in [("03_brevity_penalty.ipynb", "import os\nos._exit(1)"), ("05_corpus_bleu.ipynb", "while True:\n    pass")]:
        nb = nbformat.read(broken / "notebooks" / name, as_version=4)
        nb.cells.insert(2, nbformat.v4.new_code_cell(code))
        nbformat.write(nb, broken / "notebooks" / name)
    report = grade(broken, timeout=5, examples=5, jobs=2, only=["01", "02", "03", "05"])
    status = {r["notebook"][:2]: r["status"] for r in report["stages"]}
    assert status["01"] == "missing" and status["02"].startswith("unreadable notebook")
    assert status["03"].startswith("could not run") and re.match(r"a cell ran longer than 5 s", status["05"])
    assert report["passed"] == 0


# --- a grader that cannot be fooled ---------------------------------------------------------------------------------

def grade_command(folder, gradebook, *stages):
    "Grade `folder` as a teacher does, from the command line, with a JSON gradebook."
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(folder), "--json", str(gradebook),
                           "--examples", "10", *(f"--stage={stage}" for stage in stages)],
                          capture_output=True, text=True, cwd=ROOT)
    return done, json.loads(gradebook.read_text())


@pytest.mark.parametrize("trick", ["conftest", "silence", "write", "detach", "peek"])
def test_a_malicious_notebook_fools_nobody(edition, tmp_path, trick):
    if trick in ("conftest", "write", "peek") and sandbox.isolation() != "namespaces":
        pytest.skip("run as root on Linux: without namespaces this trick really reaches the repository (and is reported)")
    gradebook = tmp_path / "gradebook.json"
    folder = make(edition, tmp_path / "submission", trick, gradebook)
    before = fingerprint()
    done, report = grade_command(folder, gradebook, "01", "02")
    assert done.returncode == 0, done.stderr
    stage = report["stages"][0]
    assert report["passed"] == 0 and stage["status"] == "graded" and not stage["passed"], report
    if trick == "silence":  # the check cells raised, silently: the grader never saw them finish
        assert set(stage["failed_checks"].values()) == {"did not run to the end: an error was hidden, or the cell was skipped"}
    if trick == "peek":  # our solution module was not there to be read: the student's stubs were tested
        assert stage["tests_passed"] == 0 < stage["tests_total"], stage
    assert fingerprint() == before and not (ROOT / "HACKED.txt").exists() and report["repository_changed"] == []
    printed = re.search(r"gradebook written to .* \(sha256 ([0-9a-f]{64})\)", done.stdout)[1]
    time.sleep(2)  # long enough for a process that survived the grader to have rewritten the gradebook
    assert printed == hashlib.sha256(gradebook.read_bytes()).hexdigest() and "forged" not in gradebook.read_text()
    progress = [line.split(":")[0] for line in done.stderr.splitlines()[1:]]  # a line per stage, as each one ends
    assert sorted(progress) == ["01_ngrams", "02_modified_precision"]


def test_links_to_our_solutions_are_refused(edition, tmp_path):
    folder = make(edition, tmp_path / "links", "links")
    report = grade(folder, **FAST)
    assert {r["status"] for r in report["stages"]} == {"refused: a link, not a file of the submission"}
    notebooks_link = tmp_path / "folder_link"
    notebooks_link.mkdir()
    (notebooks_link / "notebooks").symlink_to(ROOT / "notebooks")
    assert all(r["status"].startswith("refused: ") and not r["passed"] for r in grade(notebooks_link, **FAST)["stages"])
    hard = with_stage(edition, tmp_path / "hard", "01_ngrams.ipynb")
    os.link(hard / "notebooks" / "01_ngrams.ipynb", tmp_path / "elsewhere.ipynb")  # a file shared with another folder
    assert grade(hard, only=["01"], **FAST)["stages"][0]["status"] == "refused: not a regular file of its own"


def test_a_changed_repository_is_reported_and_fails_the_command(edition, tmp_path, monkeypatch, capsys):
    "If student code got to change the teacher's files anyway, the teacher is told, and the command exits 3."
    states = iter([{"tests/conftest.py": "before"}, {"tests/conftest.py": "after", "HACKED.txt": "new"}])
    monkeypatch.setattr(classroom, "fingerprint", lambda: next(states))
    assert classroom.main(["grade", str(edition), "--stage", "01"]) == 3
    assert "WARNING: files of the grader's repository changed while grading: HACKED.txt, tests/conftest.py" in capsys.readouterr().out


def test_without_namespaces_the_processes_a_kernel_started_are_killed(edition, tmp_path, monkeypatch):
    "The weaker isolation, as when the grader is not root: what the kernel started dies with it (by its marker)."
    monkeypatch.setattr(sandbox, "isolation", lambda: "session")  # the grading workers are forked: they see it too
    gradebook = tmp_path / "gradebook.json"
    report = grade(make(edition, tmp_path / "submission", "detach", gradebook), only=["01"], **FAST)
    digest = write_gradebook(report, gradebook)
    time.sleep(2)
    assert report["isolation"] == "session" and hashlib.sha256(gradebook.read_bytes()).hexdigest() == digest


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0 or not shutil.which("unshare"), reason="needs root and unshare")
def test_as_root_student_code_runs_as_nobody_without_network_or_our_files(tmp_path):
    assert sandbox.isolation() == "namespaces"
    probe = """
import os, socket
print(os.geteuid(), sorted(os.listdir(ROOT)))
for path in [ROOT + "/README.md", "/etc/hostname-sandbox-probe"]:
    try:
        open(path, "w")
        print("wrote", path)
    except OSError:
        pass
try:
    socket.create_connection(("127.0.0.1", 22), timeout=2)
except OSError as error:
    print(type(error).__name__)
"""
    workspace = sandbox.prepare(tmp_path)
    argv = sandbox.command([sys.executable, "-c", f"ROOT = {str(ROOT)!r}" + probe], workspace, [ROOT])
    done = subprocess.run(argv, env=sandbox.environment(workspace, sandbox.new_marker()), capture_output=True, text=True)
    venv = [Path(sys.prefix).name] if Path(sys.prefix).is_relative_to(ROOT) else []
    assert done.stdout.split("\n")[:2] == [f"65534 {venv}", "OSError"], done  # network unreachable, not refused
