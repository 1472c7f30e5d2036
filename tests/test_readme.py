"""The README's promises: the test command is what CI runs, and the quick start prints what it says."""
import warnings

from support import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_ci_runs_exactly_the_readme_test_command():
    commands = [line for line in README.splitlines() if line.startswith("python3 -m venv") and "pytest" in line]
    assert len(commands) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert commands[0] in ci


def test_quick_start_outputs_are_what_the_comments_say():
    block = README.split("## Quick start", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    namespace, checked = {}, 0
    for line in block.splitlines():
        code, _, comment = line.partition("  # ")
        if comment and not code.lstrip().startswith(("from ", "import ")):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value = eval(code, namespace)
            assert comment.startswith(repr(value)), f"{code.strip()} gives {value!r}, the README says {comment}"
            checked += 1
        else:
            exec(code, namespace)
    assert checked >= 6


def test_command_line_examples_print_what_the_readme_says():
    import subprocess
    import sys
    block = README.split("From the command line", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    examples = [chunk.splitlines() for chunk in block.split(".venv/bin/python ")[1:]]
    assert len(examples) == 2
    for call, *output in examples:
        done = subprocess.run([sys.executable, *call.split()], capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 0 and done.stdout.rstrip("\n").split("\n") == [line[2:] for line in output]
