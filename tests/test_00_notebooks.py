"""The notebooks are the single source of truth: they must have run cleanly, and
bleu_lib/ must be their export.

These run first (the file name sorts first), so that a notebook that did not run
cleanly, or a library out of sync, is the first failure reported. The notebooks
themselves run later, under nbval.

A learner who opens, re-runs and saves a notebook in JupyterLab must still pass: the
checks look at what matters (execution order, errors, warnings, machine paths), not at
the metadata JupyterLab rewrites, and JupyterLab started as README command 1 starts it
cleans that metadata as it saves."""

import copy
import re

import nbformat
import pytest
from jupyter_server.services.contents.filemanager import FileContentsManager
from traitlets.config.loader import PyFileConfigLoader

from support import ROOT
from tools.nbtools import (
    MODEL_ANSWER,
    NAV_IDS,
    is_answer,
    notebook_paths,
    out_of_sync,
    problems,
    stale_navigation,
)

NOTEBOOKS = notebook_paths()


def as_jupyterlab_saves_it(nb, python_version):
    """The notebook as JupyterLab 4 writes it after opening it with a kernel of this
    Python version."""
    nb = copy.deepcopy(nb)
    nb.metadata = {
        "kernelspec": {
            "display_name": "Python 3 (ipykernel)",
            "language": "python",
            "name": "python3",
        },
        "language_info": {
            "codemirror_mode": {"name": "ipython", "version": 3},
            "file_extension": ".py",
            "mimetype": "text/x-python",
            "name": "python",
            "nbconvert_exporter": "python",
            "pygments_lexer": "ipython3",
            "version": python_version,
        },
    }
    for cell in nb.cells:
        # what older front ends store; JupyterLab keeps what it finds
        cell.metadata["trusted"] = True
    return nb


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_ran_top_to_bottom_without_errors_warnings_or_paths(path):
    assert problems(path) == []


@pytest.mark.parametrize("python_version", ["3.11.7", "3.13.0"])
def test_metadata_written_by_jupyterlab_is_not_a_problem(tmp_path, python_version):
    for path in NOTEBOOKS:
        nbformat.write(
            as_jupyterlab_saves_it(nbformat.read(path, as_version=4), python_version),
            tmp_path / path.name,
        )
        assert problems(tmp_path / path.name) == []


def test_an_answer_stored_open_is_a_problem(tmp_path):
    """Self-study: README command 1 opens our notebooks, where every exercise's answer
    is collapsed until clicked; `check` (and so the test above) reports one stored
    open."""
    path = NOTEBOOKS[1]
    nb = nbformat.read(path, as_version=4)
    answer = next(cell for cell in nb.cells if is_answer(cell))
    assert answer.metadata["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    del answer.metadata["jupyter"]
    nbformat.write(nb, tmp_path / path.name)
    assert problems(tmp_path / path.name) == [
        f"cell {answer.id} is an exercise's answer, stored open: run `nbtools.py clean`"
    ]


@pytest.mark.parametrize(
    "unfold",
    [
        # the first line tells the answer (JupyterLab shows it in a collapsed cell)
        lambda text: text.replace(f"{MODEL_ANSWER[0]}\n\n", "**Model answer.** ", 1),
        # no <details> around it: Run All would open it
        lambda text: text.replace(MODEL_ANSWER[0], "**Model answer.**", 1).replace(
            MODEL_ANSWER[1], ""
        ),
    ],
    ids=["first line", "not folded"],
)
def test_a_model_answer_that_is_not_folded_is_a_problem(tmp_path, unfold):
    path = NOTEBOOKS[1]
    nb = nbformat.read(path, as_version=4)
    key = next(c for c in nb.cells if is_answer(c) and c.cell_type == "markdown")
    key.source = unfold(key.source)
    nbformat.write(nb, tmp_path / path.name)
    assert problems(tmp_path / path.name) == [
        f"cell {key.id} is a model answer not folded in {MODEL_ANSWER[0]} ... "
        f"{MODEL_ANSWER[1]}"
    ]


def test_jupyterlab_with_our_config_saves_every_notebook_as_committed(tmp_path):
    """README command 1 starts JupyterLab with tools/jupyter_server_config.py; saving
    goes through Jupyter's own FileContentsManager and the pre-save hook that file
    configures, so git sees no change."""
    assert "--config=tools/jupyter_server_config.py" in (ROOT / "README.md").read_text(
        encoding="utf-8"
    )
    config = PyFileConfigLoader(
        "jupyter_server_config.py", path=str(ROOT / "tools")
    ).load_config()
    manager = FileContentsManager(config=config, root_dir=str(tmp_path))
    for path in NOTEBOOKS:
        opened = as_jupyterlab_saves_it(nbformat.read(path, as_version=4), "3.12.1")
        manager.save({"type": "notebook", "content": opened}, path.name)
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name


def test_bleu_lib_is_the_export_of_the_notebooks():
    assert out_of_sync() == [], (
        "edit the notebooks, then run: python tools/nbtools.py export"
    )


def test_every_notebook_opens_with_its_title_and_links_to_its_neighbours():
    assert stale_navigation() == [], "run: python tools/nbtools.py nav"
    for path in NOTEBOOKS:
        cells = nbformat.read(path, as_version=4).cells
        assert cells[0].cell_type == "markdown" and cells[0].source.startswith("# "), (
            f"{path.name} opens with its title"
        )
        assert [c.id for c in cells].index(NAV_IDS[0]) == 1 and cells[-1].id == NAV_IDS[
            1
        ]
        for target in re.findall(r"\]\(([^)#]+)", cells[1].source):
            assert (path.parent / target).is_file(), (
                f"{path.name} links to {target}, which does not exist"
            )


def test_every_notebook_ends_with_what_to_remember():
    for path in NOTEBOOKS:
        text = "".join(
            c.source
            for c in nbformat.read(path, as_version=4).cells
            if c.cell_type == "markdown"
        )
        assert "## What to remember" in text, (
            f"{path.name} has no 'What to remember' section"
        )


def test_every_figure_has_a_description_under_it():
    """Our alt text: a plot's output is followed by a markdown cell that starts with
    *Figure:* and says what it shows."""
    for path in NOTEBOOKS:
        cells = nbformat.read(path, as_version=4).cells
        for i, cell in enumerate(cells):
            if any(
                "image/png" in out.get("data", {}) for out in cell.get("outputs", [])
            ):
                after = cells[i + 1] if i + 1 < len(cells) else None
                assert (
                    after is not None
                    and after.cell_type == "markdown"
                    and after.source.startswith("*Figure:*")
                ), (
                    f"{path.name}, cell {cell.id}: describe the figure in a markdown "
                    "cell under it, starting *Figure:*"
                )
