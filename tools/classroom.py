"""The classroom edition: a student version of every notebook, and a grader for what students hand in.

    python tools/classroom.py student FOLDER                 write the student edition to FOLDER
    python tools/classroom.py grade FOLDER [--json FILE]     grade the notebooks in FOLDER (or FOLDER/notebooks)
                              [--timeout SECONDS] [--examples N] [--jobs N]

What a student writes is marked in our notebooks with nbgrader's markers, so that teachers who use nbgrader can take
the notebooks as they are:

    # Hint: the hint becomes the stub's message (optional)
    ### BEGIN SOLUTION
    ...the code the student writes...
    ### END SOLUTION

The student edition replaces every marked region by `raise NotImplementedError(hint)` and clears that cell's outputs;
explanations, examples and check cells stay. Earlier stages come from the installed bleu_lib, so each stage can be done
on its own.

The grader grades each stage (a notebook with marked regions) on its own: it exports the student's notebook into a copy
of bleu_lib in which only that stage's module is the student's, runs the notebook in a fresh kernel, and runs the stage's
hidden tests from tests/ against that copy. A stage passes when every check cell of our notebook (same id, same source)
runs without error and every hidden test passes. Missing, unreadable, failing or looping notebooks are reported as such.
"""
import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script, tools/ is on the path, not the repository
from tools.nbtools import notebook_paths  # noqa: E402

NOTEBOOKS, LIBRARY, TESTS = ROOT / "notebooks", ROOT / "bleu_lib", ROOT / "tests"
REGION = re.compile(r"^(?P<hint>[ \t]*# Hint: (?P<text>[^\n]*)\n)?(?P<indent>[ \t]*)### BEGIN SOLUTION\n.*?"
                    r"^[ \t]*### END SOLUTION[ \t]*\n?", re.M | re.S)

# The hidden tests of each stage: the tests of tests/ that exercise that stage's module.
HIDDEN_TESTS = {
    "ngrams": ["test_differential.py::test_ngrams_match_nltk", "test_differential.py::test_ngram_counts_match_sacrebleu"],
    "precision": ["test_differential.py::test_modified_precision_matches_nltk_and_sacrebleu",
                  "test_nltk_suite.py::test_modified_precision", "test_examples.py::test_paper_precisions_are_exact",
                  "test_invariants.py::test_adding_a_reference_never_lowers_clipped_matches"],
    "brevity": ["test_differential.py::test_closest_ref_length_and_brevity_penalty_match_nltk_and_sacrebleu",
                "test_nltk_suite.py::test_brevity_penalty", "test_examples.py::test_paper_brevity_example",
                "test_examples.py::test_paper_example_3_is_saved_by_the_brevity_penalty"],
    "sentence": ["test_differential.py::test_sentence_bleu_matches_nltk", "test_differential.py::test_sentence_bleu_matches_sacrebleu",
                 "test_nltk_suite.py::test_nltk_doctests_pass_with_bleu_lib", "test_nltk_suite.py::test_full_matches",
                 "test_examples.py::test_2019_tutorial_numbers_follow_nltk_3_2_rule"],
    "corpus": ["test_corpus.py"],
    "tokenizers": ["test_tokenizers.py"],
    "metric": ["test_sacrebleu_suite.py", "test_metric.py::test_corpus_score_is_sacrebleus"],
    "__main__": ["test_cli.py::test_output_is_sacrebleus", "test_cli.py::test_one_reference_and_standard_input",
                 "test_cli.py::test_several_systems_print_sacrebleus_table"],
    "smoothing": ["test_smoothing.py::test_case_a", "test_smoothing.py::test_identical_hypothesis_and_reference_score_one",
                  "test_smoothing.py::test_paper_methods_stay_in_zero_one",
                  "test_smoothing.py::test_sacrebleu_floor_add_k_exp_are_methods_1_2_3"],
}


def stub(match):
    "The stub that replaces one solution region: the hint line stays, the code becomes NotImplementedError."
    answer = re.search(r"^\s*(answer_\w+|\w+_3) =", match[0], re.M)  # an exercise: name what to set
    hint = match["text"] or (f"set {answer[1]}" if answer else "replace this line with your solution")
    return f"{match['hint'] or ''}{match['indent']}raise NotImplementedError({json.dumps('Your turn: ' + hint)})\n"


def strip_solutions(source):
    "The source with every solution region replaced by its stub."
    return REGION.sub(stub, source if source.endswith("\n") else source + "\n").rstrip("\n")


def stages():
    "The notebooks with solution regions, in reading order, each with the module it exports (default_exp)."
    found = []
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        if any(cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source for cell in cells):
            module = next(re.search(r"#\| default_exp (\S+)", c.source)[1] for c in cells if "#| default_exp" in c.source)
            found.append((path, module))
    return found


def student_edition(folder):
    "Write the student edition (notebooks with stubs, display helpers, data) to `folder`."
    folder = Path(folder)
    (folder / "notebooks").mkdir(parents=True, exist_ok=True)
    for path in notebook_paths():  # the appendix too: it has no solutions, only reading
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source:
                cell.source, cell.outputs, cell.execution_count = strip_solutions(cell.source), [], None
        nbformat.write(nb, folder / "notebooks" / path.name)
    shutil.copy(NOTEBOOKS / "helpers.py", folder / "notebooks" / "helpers.py")
    shutil.copytree(ROOT / "data", folder / "data", dirs_exist_ok=True)
    (folder / "README.md").write_text(STUDENT_README, encoding="utf-8")


STUDENT_README = """# BLEU from scratch: student edition

Open the notebooks in order. In each one, the cells that raise `NotImplementedError` are yours to write: replace the
`raise` line with your code (the hint above it says where to start). The check cells under them compare your code with
NLTK and SacreBLEU and print nothing when it is right; they turn from red to green as you go. Each notebook ends with
exercises, checked the same way. Earlier stages come from the installed `bleu_lib`, so every notebook can be done on its own.
"""


def check_cells(nb):
    "The ids and sources of a notebook's check cells: code cells with an assert statement and no solution region."
    checks = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and "### BEGIN SOLUTION" not in cell.source and not cell.source.startswith("#|"):
            try:
                tree = ast.parse(cell.source)
            except SyntaxError:
                continue
            if any(isinstance(node, ast.Assert) for node in ast.walk(tree)):
                checks[cell.id] = cell.source
    return checks


def workspace(tmp, student_path):
    "A folder like the repository: our bleu_lib, tests and data, and the student's notebook under notebooks/."
    shutil.copytree(LIBRARY, tmp / "bleu_lib", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(TESTS, tmp / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "data", tmp / "data")
    (tmp / "notebooks").mkdir()
    shutil.copy(NOTEBOOKS / "helpers.py", tmp / "notebooks" / "helpers.py")
    shutil.copy(student_path, tmp / "notebooks" / student_path.name)
    (tmp / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    return tmp / "notebooks" / student_path.name


def run_notebook(path, timeout, env):
    "Execute `path` in a fresh kernel, continuing past errors; interrupt a cell that runs longer than `timeout`."
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, interrupt_on_timeout=True, allow_errors=True, kernel_name="python3",
                            record_timing=False, resources={"metadata": {"path": str(path.parent)}})
    client.execute(env=env, stderr=subprocess.DEVNULL)  # the kernel's own log lines are not the student's
    return nb


def run_hidden_tests(tmp, module, timeout, env):
    "(passed, total) of the stage's hidden tests, run against the workspace's bleu_lib."
    report = tmp / "report.xml"
    selection = [f"tests/{test}" for test in HIDDEN_TESTS.get(module, [])]
    if not selection:
        return 0, 0
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-c", str(tmp / "pytest.ini"), "--rootdir", str(tmp),
                    f"--junitxml={report}", *selection], cwd=tmp, env=env, capture_output=True, timeout=timeout)
    cases = ElementTree.parse(report).getroot().iter("testcase")
    results = [not any(child.tag in ("failure", "error", "skipped") for child in case) for case in cases]
    return sum(results), len(results)


def grade_stage(teacher_path, student_path, timeout, examples):
    "The result of one stage, as a dict for the gradebook; never raises."
    teacher = nbformat.read(teacher_path, as_version=4)
    module = next(re.search(r"#\| default_exp (\S+)", c.source)[1] for c in teacher.cells if "#| default_exp" in c.source)
    checks = check_cells(teacher)
    result = {"notebook": teacher_path.name, "module": module, "status": "graded", "checks_passed": 0,
              "checks_total": len(checks), "failed_checks": sorted(checks), "tests_passed": 0, "tests_total": 0,
              "passed": False}
    if not student_path.exists():
        return {**result, "status": "missing"}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        env = {**os.environ, "PYTHONPATH": str(tmp), "BLEU_TEST_EXAMPLES": str(examples)}
        try:
            copy = workspace(tmp, student_path)
            nbformat.read(copy, as_version=4)
        except Exception as error:
            return {**result, "status": f"unreadable notebook ({type(error).__name__})"}
        try:
            from nbdev.export import nb_export
            nb_export(str(copy), lib_path=str(tmp / "bleu_lib"))
        except Exception as error:
            return {**result, "status": f"cannot export its code ({type(error).__name__})"}
        try:
            ran = run_notebook(copy, timeout, env)
        except Exception as error:  # a dead kernel, a kernel that never started...
            return {**result, "status": f"could not run ({type(error).__name__})"}
        by_id = {cell.id: cell for cell in ran.cells}
        failed = [cell_id for cell_id, source in checks.items()
                  if cell_id not in by_id or by_id[cell_id].source.strip() != source.strip()
                  or any(out.output_type == "error" for out in by_id[cell_id].outputs)]
        timed_out = any(out.output_type == "error" and out.ename in ("KeyboardInterrupt", "CellTimeoutError")
                        for cell in ran.cells for out in cell.get("outputs", []))
        try:
            passed, total = run_hidden_tests(tmp, module, 10 * timeout, env)
        except Exception as error:
            passed, total = 0, len(HIDDEN_TESTS.get(module, []))
            result["status"] = f"hidden tests did not finish ({type(error).__name__})"
        result.update(checks_passed=len(checks) - len(failed), failed_checks=failed, tests_passed=passed, tests_total=total)
        if timed_out:
            result["status"] = f"a cell ran longer than {timeout} s and was interrupted"
        result["passed"] = not failed and passed == total > 0
        return result


def grade(folder, timeout=120, examples=300, jobs=1, only=()):
    "Grade every stage (or those whose names start with one of `only`) of the notebooks in `folder`; a gradebook dict."
    folder = Path(folder)
    folder = folder / "notebooks" if (folder / "notebooks").is_dir() else folder
    work = [(teacher, folder / teacher.name, timeout, examples) for teacher, _ in stages()
            if not only or teacher.name.startswith(tuple(only))]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(grade_stage_safely, work))
    return {"stages": results, "passed": sum(r["passed"] for r in results), "stages_total": len(results)}


def grade_stage_safely(args):
    "grade_stage, with anything unexpected reported in the result instead of stopping the grader."
    teacher, student, timeout, examples = args
    try:
        return grade_stage(teacher, student, timeout, examples)
    except Exception as error:
        return {"notebook": teacher.name, "status": f"grader error ({type(error).__name__}: {error})", "passed": False,
                "checks_passed": 0, "checks_total": 0, "failed_checks": [], "tests_passed": 0, "tests_total": 0}


def table(report):
    "The grades as a plain-text table for a person."
    lines = [f"{'stage':26} {'checks':>8} {'hidden tests':>13}  result"]
    for r in report["stages"]:
        verdict = "pass" if r["passed"] else "fail" + ("" if r["status"] == "graded" else f": {r['status']}")
        lines.append(f"{r['notebook'][:-6]:26} {r['checks_passed']:>3}/{r['checks_total']:<4} "
                     f"{r['tests_passed']:>6}/{r['tests_total']:<6}  {verdict}")
    lines.append(f"stages passed: {report['passed']} of {report['stages_total']}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description="The classroom edition: student notebooks and a grader.")
    commands = parser.add_subparsers(dest="command", required=True)
    student = commands.add_parser("student", help="write the student edition to FOLDER")
    student.add_argument("folder")
    grader = commands.add_parser("grade", help="grade the notebooks in FOLDER")
    grader.add_argument("folder")
    grader.add_argument("--json", help="also write the grades as JSON to this file")
    grader.add_argument("--timeout", type=int, default=120, help="seconds a cell may run (default: 120)")
    grader.add_argument("--examples", type=int, default=300, help="random examples per hidden property test (default: 300)")
    grader.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1), help="stages graded at once")
    grader.add_argument("--stage", action="append", default=[], help="grade only this stage, e.g. 03 (repeatable)")
    args = parser.parse_args(argv)
    if args.command == "student":
        student_edition(args.folder)
        print(f"student edition written to {args.folder}")
        return 0
    report = grade(args.folder, args.timeout, args.examples, args.jobs, args.stage)
    print(table(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
