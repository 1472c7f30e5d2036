"""The README's promises: the test command is what CI runs, and the quick start prints
what it says."""

import contextlib
import io
import itertools
import shutil
import subprocess
import sys
import warnings

from support import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_ci_runs_exactly_the_readme_test_command():
    commands = [
        line
        for line in README.splitlines()
        if line.startswith("python3 -m venv") and "pytest" in line
    ]
    assert len(commands) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert commands[0] in ci


def blocks(language):
    "The README's fenced code blocks in `language`, in order."
    return [chunk.split("```", 1)[0] for chunk in README.split(f"```{language}\n")[1:]]


def test_python_examples_give_what_the_comments_say():
    """Every Python block: `code  # value` lines give that value's repr; print(...)
    prints the '# ' lines below it."""
    checked = 0
    for block in blocks("python"):
        namespace, lines = {}, block.splitlines()
        for k, line in enumerate(lines):
            code, _, comment = line.partition("  # ")
            if line.startswith("#"):
                continue  # printed output, checked with its print
            if line.startswith("print("):
                printed = [
                    out[2:]
                    for out in itertools.takewhile(
                        lambda out: out.startswith("#"), lines[k + 1 :]
                    )
                ]
                with contextlib.redirect_stdout(io.StringIO()) as out:
                    exec(line, namespace)
                assert out.getvalue().rstrip("\n").split("\n") == printed, (
                    f"{line} prints {out.getvalue()}"
                )
                checked += 1
            elif (
                comment
                and not code.lstrip().startswith(("from ", "import "))
                and "=" not in code.split("(")[0]
            ):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    value = eval(code, namespace)
                assert comment.startswith(repr(value)), (
                    f"{code.strip()} gives {value!r}, the README says {comment}"
                )
                checked += 1
            else:
                exec(code, namespace)
    assert checked >= 10


def cli_examples():
    "[call, output lines...] of each `.venv/bin/python -m bleu_lib ...` example."
    return [
        chunk.splitlines()
        for block in blocks("bash")
        for chunk in block.split(".venv/bin/python -m bleu_lib ")[1:]
    ]


def test_command_line_examples_print_what_the_readme_says(tmp_path):
    "Every `.venv/bin/python -m bleu_lib ...` line prints the '# ' lines under it."
    examples = cli_examples()
    assert len(examples) == 5
    for call, *output in examples:
        # a report goes to a temporary folder, not into the repository
        report = tmp_path / "report.html"
        report.unlink(missing_ok=True)  # each example writes its own, or none
        args = [str(report) if arg == "report.html" else arg for arg in call.split()]
        done = subprocess.run(
            [sys.executable, "-m", "bleu_lib", *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert done.returncode == 0 and done.stdout.rstrip("\n").split("\n") == [
            line[2:].rstrip() for line in output
        ], call
        assert ("--report" in args) == report.exists()


def git(folder, *args):
    "git's output in `folder`, under a fixed identity."
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_the_readmes_commands_leave_a_copy_clean(tmp_path):
    """In a copy of the project under git: the command-line examples as written (the
    report into the copy) and the student edition leave `git status` clean, and what
    the slower commands write (grades, screenshots, the site) is ignored."""
    copy = tmp_path / "copy"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "site", "classroom", "__pycache__", ".*cache"
        ),
    )
    git(copy, "init", "-q")
    git(copy, "add", "-A")
    git(copy, "commit", "-qm", "copy")
    for call, *_ in cli_examples():
        run = [sys.executable, "-m", "bleu_lib", *call.split()]
        assert subprocess.run(run, cwd=copy, capture_output=True).returncode == 0
    student = [sys.executable, "-m", "grader", "student", "classroom/"]
    assert subprocess.run(student, cwd=copy, capture_output=True).returncode == 0
    written = ["submissions/alice/x", "alice.json", "grades/gradebook.csv"]
    written += ["screens/plot.png", "site/a.html"]
    assert git(copy, "check-ignore", *written).split() == written
    assert git(copy, "status", "--porcelain") == ""
