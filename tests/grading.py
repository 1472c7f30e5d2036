"""What the grader's two test files share (with the fixture `edition`, in conftest.py):
a copy of the student edition with one stage handed in, and fast settings."""

import shutil
import textwrap

import nbformat

from grader.classroom import REGION, stages
from hinted_solutions import HINTED
from support import ROOT

# few random examples in the hidden tests, to keep the suite short: these tests check
# the grading; the suite runs every hidden test itself, against our code, with 200
FAST = {"timeout": 60, "examples": 5, "jobs": 2}


def with_stage(edition, folder, name, change=lambda source: source):
    """A copy of the student edition in which our notebook `name`, its solutions changed
    by `change`, is handed in."""
    shutil.copytree(edition, folder)
    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    for cell in nb.cells:
        cell.source = change(cell.source)
    nbformat.write(nb, folder / "notebooks" / name)
    return folder


def with_hinted_solutions(edition, folder):
    """A copy of the student edition in which every stage is handed in: our notebook,
    its solution regions of tests/hinted_solutions.py replaced by the hinted ones (the
    other regions, the exercises and the stages without hints keep our answers)."""
    shutil.copytree(edition, folder)
    for path, _ in stages():
        nb = nbformat.read(path, as_version=4)
        solutions = HINTED.get(path.name, {})
        for cell in nb.cells:
            if cell.id in solutions:
                body = textwrap.dedent(solutions[cell.id]).strip("\n") + "\n"

                def region(match, body=body):
                    indent = match["indent"]
                    return (
                        f"{match['hint'] or ''}{indent}### BEGIN SOLUTION\n"
                        f"{textwrap.indent(body, indent)}{indent}### END SOLUTION\n"
                    )

                source, regions = REGION.subn(region, cell.source + "\n")
                assert regions == 1, (path.name, cell.id)
                cell.source = source.rstrip("\n")
        nbformat.write(nb, folder / "notebooks" / path.name)
    return folder
