"""Maintain the notebooks: run them, clean them, export them to bleu_lib, and check all
three.

    python tools/nbtools.py run [NAME ...]
        run notebooks top to bottom in a fresh kernel, store outputs, clean
    python tools/nbtools.py clean
        strip machine-specific metadata from every notebook
    python tools/nbtools.py export
        write bleu_lib/ from the `#| export` cells (nbdev's exporter)
    python tools/nbtools.py nav
        write each notebook's links to the previous and next notebook
    python tools/nbtools.py check
        fail if a notebook did not run cleanly, its links are out of date, or bleu_lib/
        is out of sync

The notebooks are the single source of truth: edit them, then `run` and `export`; never
edit bleu_lib/. We clean with our own rules rather than `nbdev-clean` because
nbdev-clean erases execution counts, and the counts 1..N are how a reader (and our
check) sees that a notebook ran top to bottom. JupyterLab started with
tools/jupyter_server_config.py (README command 1) applies the same `clean` on every
save, so opening, re-running and saving a notebook there leaves it byte for byte as
committed."""

import filecmp
import json
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LIBRARY = ROOT / "bleu_lib"
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}
# nbdev's #| export, #|export, #| exports: the library's code
EXPORT = re.compile(r"^\s*#\|\s*export", re.M)
MARKER = re.compile(r"^\s*### (BEGIN|END) (SOLUTION|HIDDEN TESTS)\s*$")  # nbgrader
# JupyterLab shows such a cell collapsed, as "…", until it is clicked
HIDDEN = {"source_hidden": True, "outputs_hidden": True}
# A model answer is also folded inside the cell: JupyterLab opens a collapsed markdown
# cell when it runs it (Run All), but leaves a <details> block closed until clicked.
MODEL_ANSWER = (
    "<details><summary><b>Model answer</b> (click once you have tried)</summary>",
    "</details>",
)
# What may not appear in a stored output: machine paths and memory addresses differ from
# machine to machine.
LEAKS = re.compile(
    r"(/root/|/home/|/work/|/tmp/|/Users/|site-packages|\bat "
    r"0x[0-9a-fA-F]+|0x[0-9a-f]{8,})"
)


def notebook_paths(names=(), folder=NOTEBOOKS):
    """The notebooks in reading order (00 to 99, then the appendix A1, A2... A10...), or
    those whose name starts with one of `names`."""
    paths = sorted(
        (
            p
            for p in Path(folder).glob("*.ipynb")
            if re.match(r"([0-9]{2}|A[0-9]+)_", p.name)
        ),
        key=lambda p: (p.name[0] == "A", int(re.match(r"A?([0-9]+)", p.name)[1])),
    )
    # "A1" names A1 only, not A10
    return [
        p
        for p in paths
        if not names
        or any(re.match(rf"{re.escape(n)}(?![0-9])", p.name) for n in names)
    ]


def is_answer_key(cell):
    """A teachers' model answer to an 'explain why' exercise: a cell tagged answer-key,
    left out of the student edition and of the website."""
    return "answer-key" in cell.metadata.get("tags", [])


def is_answer(cell):
    """An exercise's answer: a solution outside the library (exported functions are the
    tutorial's text), or a teachers' model answer."""
    if cell.cell_type == "markdown":
        return is_answer_key(cell)
    return any(
        MARKER.match(line) for line in cell.source.splitlines()
    ) and not EXPORT.search(cell.source)


def is_folded(source):
    "A model answer's text inside MODEL_ANSWER's <details> block, and nothing outside."
    lines = source.strip().splitlines()
    return len(lines) > 2 and (lines[0], lines[-1]) == MODEL_ANSWER


def clean(nb):
    """Keep only what is the same on every machine: no timings, versions, widget state
    or stray metadata. Every exercise's answer is stored collapsed, so that a reader
    sees it only by clicking it open."""
    nb.metadata = {"kernelspec": KERNELSPEC, "language_info": {"name": "python"}}
    for cell in nb.cells:
        cell.metadata = {
            k: v for k, v in cell.metadata.items() if k in ("tags", "nbgrader")
        }
        if is_answer(cell):
            cell.metadata["jupyter"] = dict(HIDDEN)
        for output in cell.get("outputs", []):
            if "metadata" in output:
                output.metadata = {}
        if cell.cell_type == "code":
            cell.outputs = merge_streams(cell.outputs)
    nb.nbformat_minor = max(nb.nbformat_minor, 5)  # cell ids
    return nb


def merge_streams(outputs):
    """Join consecutive prints to the same stream: how the kernel chunks them varies
    from run to run."""
    merged = []
    for output in outputs:
        if (
            merged
            and output.output_type == "stream" == merged[-1].output_type
            and output.name == merged[-1].name
        ):
            merged[-1].text += output.text
        else:
            merged.append(output)
    return merged


def clean_on_save(model, **kwargs):
    """Jupyter's pre-save hook: `clean` each notebook as JupyterLab saves it, autosave
    included (tools/jupyter_server_config.py)."""
    if model.get("type") == "notebook":
        model["content"] = clean(nbformat.from_dict(model["content"]))


def run(path):
    """Execute `path` top to bottom in a fresh kernel, with the notebook's folder as
    working directory."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    nbformat.write(clean(nb), path)


def problems(path):
    """What is wrong with the stored notebook at `path`, as a list of sentences (empty
    when all is well).

    Only what a reader and the tests care about: it ran top to bottom, without errors or
    warnings, its outputs name no path or memory address of this machine, and every
    exercise's answer is stored collapsed. Other metadata is not checked: JupyterLab
    rewrites the kernel's display name and the running Python's version on every save,
    and neither changes what the notebook shows or computes."""
    nb = nbformat.read(path, as_version=4)
    found = [
        f"cell {cell.id} is an exercise's answer, stored open: run `nbtools.py clean`"
        for cell in nb.cells
        if is_answer(cell) and cell.metadata.get("jupyter") != HIDDEN
    ]
    # folded, so that running the notebook does not open it; and JupyterLab shows a
    # collapsed cell's first line, which must tell nothing
    found += [
        f"cell {cell.id} is a model answer not folded in {MODEL_ANSWER[0]} ... "
        f"{MODEL_ANSWER[1]}"
        for cell in nb.cells
        if is_answer(cell)
        and cell.cell_type == "markdown"
        and not is_folded(cell.source)
    ]
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    if [c.execution_count for c in code] != list(range(1, len(code) + 1)):
        found.append(
            "was not run top to bottom in a fresh kernel (execution counts are not "
            "1..N)"
        )
    for cell in code:
        for out in cell.outputs:
            # every field of the output as text
            text = json.dumps(out, ensure_ascii=False)
            if out.output_type == "error":
                found.append(f"cell {cell.execution_count} stored an error")
            elif out.get("name") == "stderr":
                found.append(
                    f"cell {cell.execution_count} wrote to stderr (a warning?)"
                )
            elif LEAKS.search(text.split('"image/png"')[0]):
                found.append(
                    f"cell {cell.execution_count} output shows a path or memory address"
                )
    return found


def title(path):
    "A notebook's title: the first line of its first cell, without the heading's #."
    return (
        nbformat.read(path, as_version=4).cells[0].source.splitlines()[0].lstrip("# ")
    )


def navigation(paths):
    """Each notebook's link line: the previous and next notebook in reading order, and
    the contents (the README)."""
    titles = [title(p) for p in paths]
    lines = {}
    for i, path in enumerate(paths):
        links = [f"← [{titles[i - 1]}]({paths[i - 1].name})"] if i else []
        links.append("[contents](../README.md#reading-order)")
        links += (
            [f"[{titles[i + 1]}]({paths[i + 1].name}) →"] if i + 1 < len(paths) else []
        )
        lines[path] = " · ".join(links)
    return lines


NAV_IDS = ("nav-top", "nav-bottom")


def with_navigation(nb, line):
    """The notebook with its link line under the title cell and again at the end
    (replacing the old ones)."""
    cells = [cell for cell in nb.cells if cell.id not in NAV_IDS]
    top, bottom = (nbformat.v4.new_markdown_cell(line) for _ in NAV_IDS)
    top.id, bottom.id = NAV_IDS
    nb.cells = cells[:1] + [top] + cells[1:] + [bottom]
    return nb


def stale_navigation():
    "The notebooks whose link lines are missing or out of date."
    return [
        path
        for path, line in navigation(notebook_paths()).items()
        if [
            c.source for c in nbformat.read(path, as_version=4).cells if c.id in NAV_IDS
        ]
        != [line, line]
    ]


def export(lib_path=LIBRARY, notebooks=NOTEBOOKS):
    "Write the `#| export` cells of every notebook to `lib_path` with nbdev's exporter."
    from nbdev.export import nb_export
    from nbdev.maker import ModuleMaker

    def module_maker(dest, name, nb_path, is_new=True, **kwargs):
        # nbdev expects `#| export NAME` to add to a module another notebook made; here
        # it may also make it (appendix A2 writes two modules, NLTK's layer and
        # SacreBLEU's)
        return ModuleMaker(
            dest,
            name,
            nb_path,
            is_new=is_new or not Path(dest, f"{name}.py").exists(),
            **kwargs,
        )

    shutil.rmtree(lib_path, ignore_errors=True)
    for path in notebook_paths(folder=notebooks):
        nb_export(str(path), lib_path=str(lib_path), mod_maker=module_maker)
    for module in Path(lib_path).glob("*.py"):
        text = wrap_header(
            wrap_docstring(hoist_docstring(module.read_text(encoding="utf-8")))
        )
        module.write_text(text, encoding="utf-8")
    # the formatter the notebooks pass, so that bleu_lib/ reads as they do (after
    # nbdev's rewrite of `bleu_lib.` to `.`, and its `__all__`)
    subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--quiet", str(lib_path)], check=True
    )


def hoist_docstring(text):
    """nbdev writes a module docstring only for a notebook's default module: a module of
    `#| export NAME` cells opens with the docstring its first cell begins with."""
    first_cell = text.find("\n# %% ../")
    body = text.find("\n", first_cell + 1) + 1
    if text.startswith('"""') or first_cell < 0 or not text.startswith('"""', body):
        return text
    end = text.index('"""', body + 3) + 4  # the closing quotes and their newline
    return text[body:end] + "\n" + text[:body] + text[end:]


def wrap_docstring(text):
    "The module docstring's lines (a notebook's description) wrapped at 88 columns."
    if not text.startswith('"""'):
        return text
    end = text.index('"""', 3) + 3
    lines = [
        wrapped
        for line in text[:end].split("\n")
        for wrapped in textwrap.wrap(line, 88, break_long_words=False) or [""]
    ]
    return "\n".join(lines) + text[end:]


def wrap_header(text):
    """nbdev's header, "# AUTOGENERATED! ... File to edit: PATH", on two lines when a
    long notebook name takes it past 88 columns (ruff's limit)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("# AUTOGENERATED!") and len(line) > 88:
            head, path = line.split(" File to edit: ")
            lines[i] = f"{head} File to edit:\n# {path}"
    return "\n".join(lines)


def out_of_sync():
    """Files of bleu_lib/ that differ from a fresh export of the notebooks (empty when
    in sync)."""
    with tempfile.TemporaryDirectory() as tmp:
        # Same layout as the repository, so that the generated headers name the same
        # notebook paths.
        shutil.copytree(
            NOTEBOOKS, Path(tmp) / "notebooks", ignore=shutil.ignore_patterns(".*")
        )
        export(Path(tmp) / "bleu_lib", Path(tmp) / "notebooks")
        fresh = {p.name for p in (Path(tmp) / "bleu_lib").glob("*.py")}
        stored = {p.name for p in LIBRARY.glob("*.py")}
        differ = [
            n
            for n in fresh & stored
            if not filecmp.cmp(LIBRARY / n, Path(tmp) / "bleu_lib" / n, shallow=False)
        ]
        return sorted(differ + list(fresh ^ stored))


def main(command, *names):
    if command == "run":
        for path in notebook_paths(names):
            print("running", path.name, flush=True)
            run(path)
    elif command == "clean":
        for path in notebook_paths():
            nbformat.write(clean(nbformat.read(path, as_version=4)), path)
    elif command == "export":
        export()
    elif command == "nav":
        for path, line in navigation(notebook_paths()).items():
            nbformat.write(
                clean(with_navigation(nbformat.read(path, as_version=4), line)), path
            )
    elif command == "check":
        report = [f"{p.name}: {msg}" for p in notebook_paths() for msg in problems(p)]
        report += [
            f"{p.name}: links to the previous and next notebook are out of date (run "
            "`python tools/nbtools.py nav`)"
            for p in stale_navigation()
        ]
        report += [
            f"bleu_lib/{name} differs from the notebooks (run `python tools/nbtools.py "
            "export`)"
            for name in out_of_sync()
        ]
        print("\n".join(report) or "notebooks ran cleanly, bleu_lib in sync")
        return 1 if report else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]) if len(sys.argv) > 1 else main("help"))
