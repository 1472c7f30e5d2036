"""One linter and one formatter for everything a reader or a contributor opens: the
notebooks' code cells, the tools and the tests (ruff, configured in pyproject.toml, at
the 88 columns a code block shows on the website). bleu_lib/ is generated from the
notebooks, and formatted by the export."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ruff(*arguments):
    return subprocess.run(
        [sys.executable, "-m", "ruff", *arguments, "--no-cache", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_ruff_finds_nothing():
    done = ruff("check", "--output-format", "concise")
    assert done.returncode == 0, done.stdout + done.stderr


def test_everything_is_formatted():
    done = ruff("format", "--check")
    assert done.returncode == 0, (
        f"{done.stdout}{done.stderr}run `.venv/bin/python -m ruff format .` (and "
        "`python tools/nbtools.py export` after changing a notebook)"
    )
