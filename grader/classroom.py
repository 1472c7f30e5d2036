"""The classroom edition: a student version of every notebook, and a grader for what
students hand in.

    python -m grader student FOLDER
        write the student edition to FOLDER
    python -m grader grade FOLDER [--json FILE]
                     [--timeout SECONDS] [--examples N] [--jobs N] [--stage NN]
        grade the notebooks in FOLDER (or FOLDER/notebooks)

What a student writes is marked in our notebooks with nbgrader's markers, so that
teachers who use nbgrader can take the notebooks as they are:

    # Hint: the hint becomes the stub's message (optional)
    ### BEGIN SOLUTION
    ...the code the student writes...
    ### END SOLUTION

The student edition replaces every marked region by `raise NotImplementedError(hint)`
and clears that cell's outputs; explanations, examples and check cells stay, and the
teachers' model answers (cells tagged answer-key) are left out. Earlier stages come from
the installed bleu_lib, so each stage can be done on its own.

The grader grades each stage (a notebook with marked regions) on its own: it exports the
student's notebook into a copy of bleu_lib in which only that stage's module is the
student's, runs the notebook in a fresh kernel, and runs the stage's hidden tests
against that copy: the tests of tests/ that carry the mark `stage` with the stage's
module for name, such as `@pytest.mark.stage(name="brevity")`. A stage passes when every
check cell of our notebook (same id, same source) runs to its end and every hidden test
passes. Missing, unreadable, failing or looping notebooks are reported as such.

Student code is untrusted: everything the verdict depends on (our notebooks, bleu_lib,
tests, data) is read before it runs; the kernel and the hidden tests run apart
(grader/sandbox.py), the tests from a fresh copy written after the kernel has ended; a
check cell passes only if the grader saw it print a secret after its last line; links
out of the submission are refused; the gradebook is written last, atomically. The README
says what this does not guarantee."""

import argparse
import ast
import contextlib
import copy
import hashlib
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
# run as a script, grader/ is on the path, not the repository
sys.path.insert(0, str(ROOT))
from grader import sandbox  # noqa: E402
from tools.nbtools import is_answer_key, notebook_paths  # noqa: E402

NOTEBOOKS, LIBRARY, TESTS = ROOT / "notebooks", ROOT / "bleu_lib", ROOT / "tests"
REGION = re.compile(
    r"^(?P<hint>[ \t]*# Hint: (?P<text>[^\n]*)\n)?(?P<indent>[ \t]*)### BEGIN "
    r"SOLUTION\n.*?"
    r"^[ \t]*### END SOLUTION[ \t]*\n?",
    re.M | re.S,
)


def stub(match):
    """The stub that replaces one solution region: the hint line stays, the code becomes
    NotImplementedError."""
    # an exercise: name what to set
    answer = re.search(r"^\s*(answer_\w+|\w+_3) =", match[0], re.M)
    hint = match["text"] or (
        f"set {answer[1]}" if answer else "replace this line with your solution"
    )
    return (
        f"{match['hint'] or ''}{match['indent']}raise "
        f"NotImplementedError({json.dumps('Your turn: ' + hint)})\n"
    )


def strip_solutions(source):
    "The source with every solution region replaced by its stub."
    return REGION.sub(stub, source if source.endswith("\n") else source + "\n").rstrip(
        "\n"
    )


def stages():
    """The notebooks with solution regions, in reading order, each with the module it
    exports (default_exp)."""
    found = []
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        if any(
            cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source
            for cell in cells
        ):
            exports = (
                re.search(r"#\| default_exp (\S+)", c.source)[1]
                for c in cells
                if "#| default_exp" in c.source
            )
            # None: exercises only, graded by their check cells
            module = next(exports, None)
            found.append((path, module))
    return found


def student_edition(folder):
    """Write the student edition (notebooks with stubs, display helpers, data) to
    `folder`."""
    folder = Path(folder)
    (folder / "notebooks").mkdir(parents=True, exist_ok=True)
    for path in notebook_paths():  # the appendix too: it has no solutions, only reading
        nb = nbformat.read(path, as_version=4)
        # the teachers' model answers stay with us
        nb.cells = [cell for cell in nb.cells if not is_answer_key(cell)]
        for cell in nb.cells:
            if cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source:
                cell.source, cell.outputs, cell.execution_count = (
                    strip_solutions(cell.source),
                    [],
                    None,
                )
                # our notebooks store the answers collapsed; a stub is the student's
                cell.metadata.pop("jupyter", None)
        nbformat.write(nb, folder / "notebooks" / path.name)
    shutil.copy(NOTEBOOKS / "helpers.py", folder / "notebooks" / "helpers.py")
    shutil.copytree(ROOT / "data", folder / "data", dirs_exist_ok=True)
    (folder / "README.md").write_text(STUDENT_README, encoding="utf-8")


STUDENT_README = """# BLEU from scratch: student edition

Open the notebooks in order. In each one, the cells that raise `NotImplementedError`
are yours to write: replace the `raise` line with your code (the hint above it says
where to start). The check cells under them compare your code with NLTK and SacreBLEU
and print nothing when it is right; they turn from red to green as you go. Each notebook
ends with exercises, checked the same way. Earlier stages come from the installed
`bleu_lib`, so every notebook can be done on its own.
"""


def check_cells(nb):
    """The ids and sources of a notebook's check cells: code cells with an assert
    statement and no solution region."""
    checks = {}
    for cell in nb.cells:
        if (
            cell.cell_type == "code"
            and "### BEGIN SOLUTION" not in cell.source
            and not cell.source.startswith("#|")
        ):
            try:
                tree = ast.parse(cell.source)
            except SyntaxError:
                continue
            if any(isinstance(node, ast.Assert) for node in ast.walk(tree)):
                checks[cell.id] = cell.source
    return checks


def edition_sources(teacher):
    """The cell sources of the student edition of `teacher`, by cell id: what a student
    who did nothing hands in."""
    return {
        cell.id: strip_solutions(cell.source)
        if cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source
        else cell.source
        for cell in teacher.cells
        if not is_answer_key(cell)
    }


# --- what the grader trusts: read once, before any student code runs
# ---------------------------------------------


def trusted_files():
    """Our bleu_lib, tests (and the modules they share, such as corpus_generator.py),
    helpers.py and data/, by path."""
    files = {}
    for pattern in ["bleu_lib/*.py", "tests/*.py", "notebooks/helpers.py", "data/**/*"]:
        paths = [path for path in sorted(ROOT.glob(pattern)) if path.is_file()]
        files.update({str(path.relative_to(ROOT)): path.read_bytes() for path in paths})
    return files


def write_files(files, folder):
    "Write `files` (bytes by relative path) below `folder`."
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)


def fingerprint():
    """A hash of every file of the repository the grader depends on, and the target of
    every link, to tell whether student code changed one."""
    skipped = {".venv", "classroom", "__pycache__"}
    entries = {}
    # os.walk, pruned: the virtual environment and git's objects hold 70,000 files
    for folder, subfolders, names in os.walk(ROOT):
        links = [name for name in subfolders if Path(folder, name).is_symlink()]
        subfolders[:] = [
            name
            for name in subfolders
            if name not in skipped and Path(folder, name) != ROOT / ".git" / "objects"
        ]
        for path in (Path(folder, name) for name in names + links):
            if path.is_symlink():
                entry = f"link to {os.readlink(path)}"
            elif path.is_file():
                entry = hashlib.sha256(path.read_bytes()).hexdigest()
            else:  # a pipe or a socket: never read (reading a pipe waits forever)
                entry = "special file"
            entries[str(path.relative_to(ROOT))] = entry
    return entries


# --- reading a submission
# --------------------------------------------------------------------------------------


def submission_folder(folder):
    """The folder holding the student's notebooks: FOLDER/notebooks if there is one (and
    it is not a link), else FOLDER."""
    folder = Path(folder).resolve()
    inner = folder / "notebooks"
    if inner.is_symlink():
        raise ValueError(
            f"{inner} is a link: a submission is read as the files inside its own "
            "folder"
        )
    return inner if inner.is_dir() else folder


def read_submission(folder, name):
    """(notebook, None) for the student's notebook `name`, read as a regular file inside
    `folder`, or (None, why not)."""
    path = folder / name
    if path.is_symlink() or (
        path.exists() and not path.resolve().is_relative_to(folder)
    ):
        return None, "refused: a link, not a file of the submission"
    if not path.exists():
        return None, "missing"
    if not path.is_file() or path.stat().st_nlink > 1:
        return None, "refused: not a regular file of its own"
    try:
        return nbformat.reads(path.read_text(encoding="utf-8"), as_version=4), None
    except Exception as error:
        return None, f"unreadable notebook ({type(error).__name__})"


def export_module(student, module, folder):
    """The source of `module` exported with nbdev from the student's notebook, which may
    name no other module or path."""
    nb = copy.deepcopy(student)
    for cell in nb.cells:
        # `#| default_exp ../../x` would write outside: the module is ours to name
        if cell.cell_type == "code":
            cell.source = DIRECTIVE.sub(
                lambda m: (
                    f"#| default_exp {module}"
                    if m[1] == "default_exp"
                    else f"#| {m[1]}"
                ),
                cell.source,
            )
    nbformat.write(nb, folder / "student.ipynb")
    from nbdev.export import nb_export

    nb_export(str(folder / "student.ipynb"), lib_path=str(folder / "lib"))
    exported = folder / "lib" / f"{module}.py"
    return exported.read_text(encoding="utf-8") if exported.exists() else None


DIRECTIVE = re.compile(r"^#\s*\|\s*(default_exp|export\w*)\b.*$", re.M)


# --- the hidden tests: the tests of tests/ marked @pytest.mark.stage(name=MODULE)
# ---------------------------------

STAGE_MARK = (
    "stage(name): a hidden test of the classroom grader's stage whose module is `name` "
    "(grader/classroom.py)"
)


def marked_stages(source):
    """The stages that the Python `source` marks tests for: the name of every
    `stage(name=...)` call in it."""
    calls = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "stage"
    ]
    return {
        keyword.value.value
        for call in calls
        for keyword in call.keywords
        if keyword.arg == "name" and isinstance(keyword.value, ast.Constant)
    }


def hidden_test_files(files, module):
    """The test files of `files` (bytes by path) that mark tests for `module`'s stage.
    pytest, given only these, selects the marked tests (-m): collecting every file of
    tests/ would cost each stage seconds."""
    return sorted(
        name
        for name, data in files.items()
        if re.fullmatch(r"tests/test_\w+\.py", name)
        and module in marked_stages(data.decode("utf-8"))
    )


# --- running a stage
# --------------------------------------------------------------------------------------


def with_secrets(student, checks, secret):
    """A copy of the student's notebook in which each of our check cells, unchanged,
    prints `secret` after its last line."""
    nb = copy.deepcopy(student)
    for cell in nb.cells:
        if (
            cell.cell_type == "code"
            and cell.id in checks
            and cell.source.strip() == checks[cell.id].strip()
        ):
            cell.source += f"\nprint({secret + cell.id!r})"
    return nb


def run_notebook(nb, workspace, timeout):
    """Execute `nb` in a fresh kernel in the sandbox, from `workspace`, in place; True
    if every cell ran, False if one ran longer than `timeout` seconds and the kernel was
    killed (the cells after it never ran)."""
    from jupyter_client import AsyncKernelManager
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_core.utils import run_sync
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError

    sandbox.prepare(workspace)
    spec = workspace / "kernels" / "sandboxed"
    spec.mkdir(parents=True)
    argv = sandbox.command(
        [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        workspace,
        [ROOT],
    )
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "sandboxed", "language": "python"})
    )
    (workspace / "runtime").mkdir()
    # again: the new folders belong to the sandbox's user too
    sandbox.prepare(workspace)
    # asynchronous, as nbclient expects: a blocking client would wait for a looping
    # cell's output and never time out
    manager = AsyncKernelManager(
        kernel_name="sandboxed",
        transport="ipc",
        kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec.parent)]),
        connection_file=str(workspace / "runtime" / "kernel.json"),
    )
    # No interrupt on timeout: a kernel in its own PID namespace need not obey one, and
    # killing it is certain.
    client = NotebookClient(
        nb,
        km=manager,
        timeout=timeout,
        interrupt_on_timeout=False,
        allow_errors=True,
        record_timing=False,
        resources={"metadata": {"path": str(workspace / "notebooks")}},
    )
    marker = sandbox.new_marker()
    try:
        client.execute(
            env=sandbox.environment(workspace, marker), stderr=subprocess.DEVNULL
        )
        return True
    except CellTimeoutError:
        return False
    finally:
        # nbclient leaves running a kernel it was given; it may be dead already
        with contextlib.suppress(Exception):
            run_sync(manager.shutdown_kernel)(now=True)
        sandbox.end(marker)


def failed_checks(ran, checks, secret):
    """Why each of our check cells failed, by id: its error's message, or that the
    grader never saw it finish."""
    cells = {cell.id: cell for cell in ran.cells}
    failed = {}
    for cell_id in checks:
        cell = cells.get(cell_id)
        if cell is None or secret + cell_id not in cell.source:
            failed[cell_id] = "missing or changed: keep the check cells as they are"
            continue
        errors = [out for out in cell.outputs if out.output_type == "error"]
        printed = "".join(
            out.get("text", "") for out in cell.outputs if out.output_type == "stream"
        )
        if errors:
            failed[cell_id] = shorten(
                f"{errors[0].ename}: {errors[0].evalue}".strip().splitlines()[0]
            )
        elif secret + cell_id not in printed:
            failed[cell_id] = (
                "did not run to the end: an error was hidden, or the cell was skipped"
            )
    return failed


def run_hidden_tests(workspace, module, files, timeout, examples):
    """The stage's hidden tests, the tests of `files` marked for `module`, run in the
    sandbox from `workspace`: (number passed, {test: why it failed})."""
    if not files:
        return 0, {
            "(all)": (
                f"no test of tests/ is marked stage(name={module!r}): the stage has no "
                "hidden tests"
            )
        }
    (workspace / "pytest.ini").write_text(
        "[pytest]\naddopts = -p no:cacheprovider\npythonpath = . tests\n"
        f"markers =\n    {STAGE_MARK}\n"
    )
    sandbox.prepare(workspace)
    argv = sandbox.command(
        [
            sys.executable,
            "-s",
            "-m",
            "pytest",
            "-q",
            "-c",
            "pytest.ini",
            "--rootdir",
            ".",
            "--confcutdir",
            ".",
            "-p",
            "hypothesis.extra.pytestplugin",
            "--junitxml=report.xml",
            "-m",
            f"stage(name={module!r})",
            *files,
        ],
        workspace,
        [ROOT],
    )
    marker = sandbox.new_marker()
    # only the plugin the tests need: loading every installed one (nbval, Jupyter...)
    # takes seconds
    extra = {"BLEU_TEST_EXAMPLES": str(examples), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    try:
        subprocess.run(
            argv,
            cwd=workspace,
            capture_output=True,
            timeout=timeout,
            env=sandbox.environment(workspace, marker, extra),
        )
    finally:
        sandbox.end(marker)
    passed, failed = 0, {}
    for case in ElementTree.parse(workspace / "report.xml").getroot().iter("testcase"):
        problems = [
            child for child in case if child.tag in ("failure", "error", "skipped")
        ]
        if problems:
            failed[case.get("name")] = failure_message(problems[0])
        else:
            passed += 1
    return passed, failed


def failure_message(problem):
    """One line for a failed hidden test (a JUnit element): the assertion that failed,
    what it got, and on what example."""
    why = (problem.get("message") or problem.tag).strip().splitlines()[0]
    report = problem.text or ""
    # pytest marks the failing line
    marked = [line[1:].strip() for line in report.splitlines() if line.startswith(">")]
    if marked and marked[-1].startswith("assert "):
        why = (
            f"{marked[-1]} failed: "
            f"{why.removeprefix('AssertionError: ').removeprefix('assert ')}"
        )
    # Hypothesis's input
    example = re.search(
        r"^E +Failing test case: \w+\((.*?)^E +\)$", report, re.M | re.S
    )
    if example:
        why += " on " + " ".join(
            line.removeprefix("E").strip() for line in example[1].splitlines()
        ).strip(" ,")
    return shorten(why)


def shorten(text, width=400):
    return text if len(text) <= width else text[: width - 3] + "..."


def grade_stage(teacher_name, submission, trusted, timeout=60, examples=30):
    "The result of one stage, as a dict for the gradebook."
    teacher, module = trusted["notebooks"][teacher_name]
    checks = check_cells(teacher)
    result = {
        "notebook": teacher_name,
        "module": module,
        "status": "graded",
        "passed": False,
        "checks_passed": 0,
        "checks_total": len(checks),
        "failed_checks": {},
        "tests_passed": 0,
        "tests_total": 0,
        "failed_tests": {},
    }
    student, problem = submission
    if problem:
        return {**result, "status": problem}
    if {cell.id: cell.source for cell in student.cells} == edition_sources(teacher):
        return {**result, "status": "not attempted"}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # the sandbox's user may pass through to its workspace, but not list what else
        # is here
        tmp.chmod(0o711)
        (tmp / "export").mkdir(mode=0o700)
        # a stage that exports no module (Part II's exercises) is graded by its check
        # cells alone
        library = export_module(student, module, tmp / "export") if module else ""
        if library is None:
            return {
                **result,
                "status": f"exports no bleu_lib/{module}.py: keep the #| export cells",
            }
        ours = {f"bleu_lib/{module}.py": library.encode()} if module else {}
        kernel_workspace = tmp / "kernel"
        write_files({**trusted["files"], **ours}, kernel_workspace)
        secret = secrets.token_hex(16)
        nbformat.write(
            with_secrets(student, checks, secret),
            kernel_workspace / "notebooks" / teacher_name,
        )
        ran = nbformat.read(kernel_workspace / "notebooks" / teacher_name, as_version=4)
        try:
            finished = run_notebook(ran, kernel_workspace, timeout)
        except Exception as error:  # a dead kernel, a kernel that never started...
            return {**result, "status": f"could not run ({type(error).__name__})"}
        failed = failed_checks(ran, checks, secret)
        if not finished:
            result["status"] = (
                f"a cell ran longer than {timeout} s: the kernel was stopped there"
            )
        passed, failed_tests = 0, {}
        if module:
            # a new, unguessable folder, written after the kernel ended
            tests_workspace = Path(tempfile.mkdtemp(dir=tmp))
            write_files({**trusted["files"], **ours}, tests_workspace)
            try:
                files = hidden_test_files(trusted["files"], module)
                passed, failed_tests = run_hidden_tests(
                    tests_workspace, module, files, 10 * timeout, examples
                )
            except Exception as error:
                passed, failed_tests = (
                    0,
                    {
                        "(all)": "the hidden tests did not finish "
                        f"({type(error).__name__})"
                    },
                )
    total = passed + len(failed_tests)
    return {
        **result,
        "checks_passed": len(checks) - len(failed),
        "failed_checks": failed,
        "tests_passed": passed,
        "tests_total": total,
        "failed_tests": failed_tests,
        "passed": not failed
        and not failed_tests
        and (total > 0 or not module)
        and len(checks) > 0,
    }


def grade_stage_safely(args):
    """grade_stage, with anything unexpected reported in the result instead of stopping
    the grader; timed."""
    started = time.monotonic()
    try:
        result = grade_stage(*args)
    except Exception as error:
        result = {
            "notebook": args[0],
            "status": f"grader error ({type(error).__name__}: {error})",
            "passed": False,
            "checks_passed": 0,
            "checks_total": 0,
            "failed_checks": {},
            "tests_passed": 0,
            "tests_total": 0,
            "failed_tests": {},
        }
    return {**result, "seconds": round(time.monotonic() - started, 1)}


def grade(folder, timeout=60, examples=30, jobs=2, only=(), progress=None):
    """Grade every stage (or those whose names start with one of `only`) of the
    notebooks in `folder`; a gradebook dict."""
    before = fingerprint()
    # probed once, here: the workers forked below inherit the answer
    sandbox.isolation()
    trusted = {
        "files": trusted_files(),
        "notebooks": {
            path.name: (nbformat.read(path, as_version=4), module)
            for path, module in stages()
        },
    }
    names = [
        name
        for name in trusted["notebooks"]
        if not only or name.startswith(tuple(only))
    ]
    try:
        folder = submission_folder(folder)
        submissions = {name: read_submission(folder, name) for name in names}
    except ValueError as error:
        submissions = {name: (None, f"refused: {error}") for name in names}
    results = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [
            pool.submit(
                grade_stage_safely,
                (name, submissions[name], trusted, timeout, examples),
            )
            for name in names
        ]
        for future in as_completed(futures):
            result = future.result()
            results[result["notebook"]] = result
            if progress:
                progress(
                    f"{result['notebook'][:-6]}: {verdict(result)} "
                    f"({result['seconds']} s)"
                )
    # added, removed or rewritten
    changed = sorted({name for name, _ in fingerprint().items() ^ before.items()})
    return {
        "stages": [results[name] for name in names],
        "passed": sum(r["passed"] for r in results.values()),
        "stages_total": len(names),
        "isolation": sandbox.isolation(),
        "repository_changed": changed,
    }


def verdict(result):
    "pass, fail, or what kept the stage from being graded."
    if result["passed"]:
        return "pass"
    return "fail" if result["status"] == "graded" else result["status"]


def table(report):
    """The grades as plain text for a person: one line per stage, then why each failing
    check and test failed."""
    lines = [f"{'stage':26} {'checks':>8} {'hidden tests':>13}  result"]
    for r in report["stages"]:
        lines.append(
            f"{r['notebook'][:-6]:26} {r['checks_passed']:>3}/{r['checks_total']:<4} "
            f"{r['tests_passed']:>6}/{r['tests_total']:<6}  {verdict(r)}"
        )
        lines += [
            f"    check {cell}: {why}" for cell, why in r["failed_checks"].items()
        ]
        lines += [f"    test {test}: {why}" for test, why in r["failed_tests"].items()]
    lines.append(f"stages passed: {report['passed']} of {report['stages_total']}")
    if report["repository_changed"]:
        changed = ", ".join(report["repository_changed"])
        lines.append(
            "WARNING: files of the grader's repository changed while grading: "
            f"{changed}"
        )
    return "\n".join(lines)


def write_gradebook(report, path):
    """Write the JSON gradebook atomically (a temporary file, then a rename); return its
    SHA-256."""
    data = (json.dumps(report, indent=1) + "\n").encode()
    path = Path(path)
    with tempfile.NamedTemporaryFile(
        dir=path.parent, prefix=f".{path.name}.", delete=False
    ) as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(file.name, path)
    return hashlib.sha256(data).hexdigest()


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m grader",
        description="The classroom edition: student notebooks and a grader.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    student = commands.add_parser("student", help="write the student edition to FOLDER")
    student.add_argument("folder")
    grader = commands.add_parser("grade", help="grade the notebooks in FOLDER")
    grader.add_argument("folder")
    grader.add_argument(
        "--json", help="also write the grades as JSON to this file (last, atomically)"
    )
    grader.add_argument(
        "--timeout", type=int, default=60, help="seconds a cell may run (default: 60)"
    )
    grader.add_argument(
        "--examples",
        type=int,
        default=30,
        help="random examples per hidden property test (default: 30)",
    )
    grader.add_argument(
        "--jobs",
        type=int,
        default=min(4, os.cpu_count() or 1),
        help="stages graded at once",
    )
    grader.add_argument(
        "--stage",
        action="append",
        default=[],
        help="grade only this stage, e.g. 03 (repeatable)",
    )
    grader.add_argument(
        "--require-isolation",
        action="store_true",
        help="refuse to grade (exit status 4) unless student code runs strongly "
        "isolated (grader/sandbox.py)",
    )
    args = parser.parse_args(argv)
    if args.command == "student":
        student_edition(args.folder)
        print(f"student edition written to {args.folder}")
        return 0
    if not sandbox.announce(args.require_isolation):
        return 4
    report = grade(
        args.folder,
        args.timeout,
        args.examples,
        args.jobs,
        args.stage,
        progress=lambda line: print(line, file=sys.stderr, flush=True),
    )
    print(table(report))
    if args.json:
        print(
            f"gradebook written to {args.json} (sha256 "
            f"{write_gradebook(report, args.json)})"
        )
    return 3 if report["repository_changed"] else 0


if __name__ == "__main__":
    sys.exit(main())
