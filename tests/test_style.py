"""One linter for everything a reader or a contributor opens: the notebooks' code cells, the tools and the tests (ruff,
configured in pyproject.toml). bleu_lib/ is generated from the notebooks and linted with them."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
