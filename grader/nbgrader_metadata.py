"""Give the notebooks nbgrader's cell metadata, so that teachers who use nbgrader can
take them as they are.

    python -m grader.nbgrader_metadata
        write the metadata into every stage notebook (notebooks/NN_*.ipynb)
    python -m grader.nbgrader_metadata --check
        list the cells whose metadata is missing or wrong; exit 1 if any

nbgrader finds the code a student writes by its markers (`### BEGIN SOLUTION` / `### END
SOLUTION`), but by default (ClearSolutions.enforce_metadata) it refuses a marked region
in a cell that its metadata does not call a solution cell, and it grades only cells
whose metadata says so. This script derives that metadata from what grader/classroom.py
already reads in the notebooks, so that both editions grade the same cells:

- a solution cell (a code cell with a marked region) is an nbgrader "autograded answer":
  solution, not graded;
- a check cell (grader/classroom.py's `check_cells`: a code cell with an assert and no
  marked region) that comes after the notebook's first solution cell is an nbgrader
  "autograder test", locked, worth 1 point;
- a check cell before the first solution cell tests nothing a student wrote (it would
  give every student its point): it is "read-only", locked and worth nothing, as
  grader/classroom.py, too, requires check cells to stay as they are;
- a cell tagged `answer-key` (a teachers' model answer, which grader/classroom.py leaves
  out of the student edition) is a "manually graded answer" worth 1 point: nbgrader
  hands it out as "YOUR ANSWER HERE" and the teacher grades it;
- every other cell has no nbgrader metadata, which nbgrader reads as an ordinary cell.

grade_id is the cell's id (nbformat's ids and nbgrader's grade ids allow the same
characters). The notebooks are written as tools/nbtools.py writes them (nbformat.write:
one-space indent, sorted keys), and only when a cell's metadata changes, so a second run
changes nothing and git shows only the metadata. Only the "nbgrader" key of a cell's
metadata is this script's: it is set, replaced or removed; every other key and
everything else stays as it is. tools/nbtools.py's `clean` (run by `run`, `clean` and
JupyterLab's save hook) keeps that key, as it keeps tags."""

import argparse
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
# run as a script, grader/ is on the path, not the repository
sys.path.insert(0, str(ROOT))
from grader.classroom import check_cells, is_answer_key  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"
SCHEMA_VERSION = 3  # nbgrader 0.6 to 0.9's cell metadata


def is_solution(cell):
    "A cell with a region a student writes, as grader/classroom.py finds them."
    return cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source


def nbgrader(cell_id, grade=False, solution=False, locked=False, points=None):
    "One cell's nbgrader metadata, schema version 3."
    meta = {
        "grade": grade,
        "grade_id": cell_id,
        "locked": locked,
        "schema_version": SCHEMA_VERSION,
        "solution": solution,
        "task": False,
    }
    if points is not None:
        meta["points"] = points
    return meta


def expected(nb):
    """The nbgrader metadata each cell of `nb` should have, by cell id (None: no
    nbgrader metadata)."""
    checks = check_cells(nb)
    wanted, after_solution = {}, False
    for cell in nb.cells:
        if "id" not in cell:
            raise ValueError(
                "a cell has no id: run `python tools/nbtools.py clean` first (nbformat "
                "4.5 ids)"
            )
        if is_answer_key(cell):
            # manually graded answer
            wanted[cell.id] = nbgrader(cell.id, grade=True, solution=True, points=1)
        elif is_solution(cell):
            wanted[cell.id] = nbgrader(cell.id, solution=True)  # autograded answer
            after_solution = True
        elif cell.id in checks:
            # autograder test
            wanted[cell.id] = (
                nbgrader(cell.id, grade=True, locked=True, points=1)
                if after_solution
                else nbgrader(cell.id, locked=True)
            )  # read-only
        else:
            wanted[cell.id] = None
    return wanted


def problems(nb):
    """What is missing or wrong in `nb`'s nbgrader metadata: a list of (cell id,
    sentence)."""
    found, wanted = [], expected(nb)
    for cell in nb.cells:
        want, have = wanted[cell.id], cell.metadata.get("nbgrader")
        if want == have:
            continue
        if have is None:
            found.append(
                (cell.id, f"has no nbgrader metadata, should be {describe(want)}")
            )
        elif want is None:
            found.append(
                (
                    cell.id,
                    f"has nbgrader metadata ({describe(have)}) but is neither a "
                    "solution nor a check",
                )
            )
        else:
            found.append(
                (cell.id, f"has nbgrader metadata {dict(have)}, should be {want}")
            )
    return found


def describe(meta):
    "nbgrader's name for a kind of cell (what its Create Assignment toolbar shows)."
    if meta.get("task"):
        return "a task"
    return {
        (True, True): "a manually graded answer",
        (False, True): "an autograded answer",
        (True, False): "autograder tests",
    }.get(
        (meta.get("grade"), meta.get("solution")),
        "read-only" if meta.get("locked") else "no kind",
    )


def apply(nb):
    """Set the nbgrader metadata of every cell of `nb` in place; True if any cell
    changed."""
    changed, wanted = False, expected(nb)
    for cell in nb.cells:
        want = wanted[cell.id]
        if cell.metadata.get("nbgrader") == want:
            continue
        changed = True
        if want is None:
            del cell.metadata["nbgrader"]
        else:
            cell.metadata["nbgrader"] = want
    return changed


def refusals(nb):
    """What nbgrader would still refuse in `nb`, whatever the metadata: a list of (cell
    id, sentence)."""
    found = []
    for cell in nb.cells:
        # nbgrader takes any line containing BEGIN SOLUTION (or END SOLUTION) for a
        # marker, in any kind of cell
        marker = "BEGIN SOLUTION" in cell.source or "END SOLUTION" in cell.source
        if marker and not is_solution(cell) and not is_answer_key(cell):
            found.append(
                (
                    cell.id,
                    "mentions BEGIN/END SOLUTION outside a solution cell: nbgrader's "
                    "generate_assignment refuses this notebook (leave it out of an "
                    "assignment, or reword the cell)",
                )
            )
    return found


def notebook_paths(folder=NOTEBOOKS):
    "The stage notebooks, 00 to 99 (the appendix has nothing to grade)."
    return sorted(Path(folder).glob("[0-9][0-9]_*.ipynb"))


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m grader.nbgrader_metadata",
        description="Set (or --check) nbgrader's cell metadata in the notebooks.",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 if a cell's metadata is wrong",
    )
    # for the tests
    parser.add_argument(
        "--notebooks", type=Path, default=NOTEBOOKS, help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    wrong = 0
    for path in notebook_paths(args.notebooks):
        nb = nbformat.read(path, as_version=4)
        for cell_id, sentence in refusals(nb):
            print(f"note: {path.name} cell {cell_id}: {sentence}", file=sys.stderr)
        if args.check:
            for cell_id, sentence in problems(nb):
                print(f"{path.name} cell {cell_id}: {sentence}")
                wrong += 1
        elif apply(nb):
            nbformat.write(nb, path)  # as tools/nbtools.py writes notebooks
            print(f"{path.name}: nbgrader metadata written")
    if args.check:
        print(
            f"{wrong} cells with missing or wrong nbgrader metadata (run `python -m "
            "grader.nbgrader_metadata`)"
            if wrong
            else "nbgrader metadata up to date"
        )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
