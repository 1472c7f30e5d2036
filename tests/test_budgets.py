"""The learner's path stays short enough to finish: every main-path notebook (00 to 13)
within issue 25's budgets, so that engineering goes to the appendix instead.

- No code cell over 25 lines.
- At most 250 lines of code in all.
- About 2,500 words of prose: at most 2,500.

Lines and words are counted as a reader meets them in JupyterLab: every line of every
code cell (blank lines and directives such as `#| export` too), and every word of every
markdown cell (the previous/next links and a model answer's fold too).

Lessons at a budget's limit have no line or word to spare: what they gain, they must
give up elsewhere, or move to the appendix."""

import re

import nbformat
import pytest

from support import ROOT

CELL_LINES, WORDS, CODE_LINES = 25, 2500, 250

MAIN_PATH = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def measure(path):
    "(longest code cell, lines of code, words of prose) of a notebook, all counted."
    cells = nbformat.read(path, as_version=4).cells
    code = [len(c.source.splitlines()) for c in cells if c.cell_type == "code"]
    prose = " ".join(c.source for c in cells if c.cell_type == "markdown")
    return max(code), sum(code), len(re.findall(r"\S+", prose))


@pytest.mark.parametrize("path", MAIN_PATH, ids=lambda path: path.stem)
def test_a_lesson_keeps_its_budgets(path):
    longest, lines, words = measure(path)
    assert longest <= CELL_LINES, (
        f"{path.name} has a code cell of {longest} lines: split it where the reader "
        f"would pause (at most {CELL_LINES}), or move it to the appendix"
    )
    assert lines <= CODE_LINES, (
        f"{path.name} has {lines} lines of code, more than {CODE_LINES}: move checks "
        "that repeat a test to tests/, engineering to the appendix"
    )
    assert words <= WORDS, f"{path.name} has {words} words of prose, more than {WORDS}"
