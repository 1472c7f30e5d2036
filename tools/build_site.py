"""Build the tutorial as a static website: every notebook a page, from its stored
outputs, never re-executed.

    python tools/build_site.py [--out site/] [--allow-warnings]

Jupyter Book 1 (Sphinx, myst-nb, sphinx-book-theme) builds it; nothing of its
configuration is committed: the book's _config.yml, _toc.yml and landing page are
written into a temporary folder, beside a copy of the notebooks made for reading:
- tool directives are left out: `#| export`, `#| default_exp` and the other `#| ` lines,
  and a cell that held only directives; nbgrader's `### BEGIN SOLUTION` / `### END
  SOLUTION` lines too (the exported functions stay, whole);
- the exercises' answers are folded behind a "show answer" toggle: every code cell with
  a solution that is not part of the library (not `#| export`); the teachers' model
  answers (markdown cells tagged `answer-key`) are left out, as in the student edition:
  a reader gets one answer per exercise, folded;
- the navigation line's "contents" link points to the landing page's reading order
  instead of the README, and the line at the bottom is left out (the theme's
  previous/next links are there).
The landing page is made from the README: its opening paragraph, command 1 (set up and
open the tutorial) and the reading order.

The site needs nothing from the network: MathJax 3 is copied from the
`django-static-mathjax` package (MathJax's own files, Apache 2.0, no Django needed) into
the site, and the theme's fonts and scripts are its own local copies. It opens from disk
(file://) or from any static server (`python -m http.server -d site`). Warnings are
errors (the test, tests/test_site.py, builds it the same way), unless --allow-warnings.
"""

import argparse
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
# run as a script, tools/ is on the path, not the repository
sys.path.insert(0, str(ROOT))
from tools.nbtools import MARKER, is_answer, is_answer_key, notebook_paths, title  # noqa: E402

TITLE = "BLEU from scratch"
DIRECTIVE = re.compile(r"^\s*#\|")  # nbdev: #| export, #| default_exp ...
SHOW, HIDE = "show answer", "hide answer"
# the navigation line's link to the README's reading order
CONTENTS = "../README.md#reading-order"


def part_of(name):
    """The part of the book a notebook belongs to, from its number (the README's
    'Reading order')."""
    if name[0] == "A":
        return "Appendix"
    return "Part I: building BLEU" if int(name[:2]) <= 7 else "Part II: using BLEU"


def fold(cell):
    """The code cell folded behind a 'show answer' toggle (a <details> element: it needs
    no JavaScript)."""
    # an answer's output, if it had one, would give it away: folded with it
    cell.metadata.setdefault("tags", []).append(
        "hide-cell" if cell.outputs else "hide-input"
    )
    cell.metadata["mystnb"] = {"code_prompt_show": SHOW, "code_prompt_hide": HIDE}
    return cell


def for_reading(nb):
    "A copy of the notebook as the site shows it (see the module's docstring)."
    cells = []
    for cell in nb.cells:
        if cell.get("id") == "nav-bottom" or is_answer_key(cell):
            continue
        answer = is_answer(cell)
        if cell.cell_type == "code":
            lines = [
                line
                for line in cell.source.splitlines()
                if not DIRECTIVE.match(line) and not MARKER.match(line)
            ]
            if not "".join(lines).strip() and not cell.outputs:
                continue  # only directives
            cell.source = "\n".join(lines).strip("\n")
        elif cell.cell_type == "markdown":
            cell.source = cell.source.replace(CONTENTS, "index.md#reading-order")
        cells.append(fold(cell) if answer else cell)
    nb.cells = cells
    return nb


def readme_parts(readme):
    """The README's opening paragraph, its command 1 and its reading order, for the
    landing page."""
    intro = re.search(r"^# .*?\n\n(.*?)\n\n## ", readme, re.S)
    command = re.search(
        r"```bash\n(python3 -m venv [^\n]*jupyter lab[^\n]*)\n```", readme
    )
    order = re.search(r"^## Reading order\n(.*?)(?=^## )", readme, re.S | re.M)
    if not (intro and command and order):
        raise SystemExit(
            "README.md: the opening paragraph, command 1 or '## Reading order' was not "
            "found; tools/build_site.py makes the landing page from them"
        )
    order = re.sub(r"\]\(notebooks/([^)]+\.ipynb)\)", r"](\1)", order.group(1).strip())
    return intro.group(1).strip(), command.group(1), order


def landing_page(readme):
    intro, command, order = readme_parts(readme)
    # one step a line: easier to read than the README's one-liner
    steps = command.replace(" && ", "\n")
    return f"""# {TITLE}

{intro}

## Run it yourself

This site shows the notebooks as they were last run, with their stored outputs.
To run them, change them and do the exercises, clone the repository and run these
commands in its folder (Python 3.11 or later, and a connection to PyPI for the first
run):

```bash
{steps}
```

It sets up an environment and opens JupyterLab on the first notebook.
The notebooks are also the source of the small library they build, `bleu_lib`.

## Reading order

{order}
"""


def book(notebooks, static):
    """_toc.yml and _config.yml: parts in reading order; execution off; local MathJax;
    no external asset."""
    parts = {}
    for path in notebooks:
        entry = {"file": path.stem}
        # notebook 00 has the site's title: "Introduction" in the sidebar
        if title(path) == TITLE:
            entry["title"] = "Introduction"
        parts.setdefault(part_of(path.name), []).append(entry)
    toc = {
        "format": "jb-book",
        "root": "index",
        "parts": [
            {"caption": caption, "chapters": chapters}
            for caption, chapters in parts.items()
        ],
    }
    config = {
        "title": TITLE,
        "author": "",
        "copyright": "",
        "only_build_toc_files": True,
        "execute": {"execute_notebooks": "off"},  # the stored outputs, as committed
        "parse": {"myst_enable_extensions": ["colon_fence", "dollarmath"]},
        # the site's title, above the contents, links to it
        "html": {
            "home_page_in_navbar": False,
            "use_repository_button": False,
            "use_issues_button": False,
            "use_edit_page_button": False,
            "use_multitoc_numbering": False,
        },
        "sphinx": {
            "recursive_update": True,
            "config": {
                # Jupyter Book's extensions but sphinx_thebe (live code from a remote
                # kernel: it names a script on a CDN in every page), sphinx_togglebutton
                # and intersphinx (unused); sphinx_comments stays, off
                "extensions": [
                    "sphinx_copybutton",
                    "myst_nb",
                    "jupyter_book",
                    "sphinx_comments",
                    "sphinx_external_toc",
                    "sphinx_design",
                    "sphinx_book_theme",
                ],
                # relative: in the site's _static/ folder
                "mathjax_path": "mathjax/tex-chtml.js",
                "html_static_path": [str(static)],
                "html_css_files": ["site.css"],
                # the pages are the edition; the notebooks are in the repository
                "html_copy_source": False,
                "html_show_copyright": False,
                "html_show_sphinx": False,
                "myst_heading_anchors": 2,  # index.md#reading-order
                "nb_merge_streams": True,
                "html_theme_options": {
                    "use_download_button": False,
                    "use_fullscreen_button": False,
                    "navigation_with_keys": False,
                    "show_navbar_depth": 1,
                    # the sidebar has the search box; no second one in a header bar
                    "navbar_persistent": [],
                },
            },
        },
    }
    return yaml.safe_dump(toc, sort_keys=False), yaml.safe_dump(config, sort_keys=False)


# The theme leaves the cells of an output's plain HTML table (bleu_lib's explanations)
# unspaced; JupyterLab spaces them.
# Code is formatted to 88 columns (pyproject.toml): with the theme's 16-pixel padding an
# 88-column line overflows a code block at a 1,400-pixel window by 3 pixels
CSS = """div.output.text_html table:not([style]) th,
div.output.text_html table:not([style]) td { padding: 0.1em 0.7em; }
div.cell_input pre { padding-left: 0.5em; padding-right: 0.5em; }
"""


def copy_mathjax(static):
    """MathJax 3's CommonHTML component, the fonts and the extensions it loads on
    demand, and its licence."""
    import mathjax  # django-static-mathjax: MathJax's release files, nothing else

    source = Path(mathjax.__file__).parent / "static" / "mathjax"
    # Left out: the other ready-made combinations (only tex-chtml.js is used), the SVG
    # output, the loader for node, and latest.js (it loads MathJax from a CDN)
    combined = re.compile(r"^(tex|mml)-.*\.js$")
    shutil.copytree(
        source / "es5",
        static / "mathjax",
        ignore=lambda folder, names: [
            name
            for name in names
            if (
                Path(folder) == source / "es5"
                and combined.match(name)
                and name != "tex-chtml.js"
            )
            or name in ("node-main.js", "latest.js", "svg")
            and Path(folder).name in ("es5", "output")
        ],
    )
    shutil.copy(source / "LICENSE", static / "mathjax" / "LICENSE")


def build(out, strict=True):
    """Build the site into `out` (emptied first if it holds a previous build) and return
    the path of its index.html."""
    from jupyter_book.sphinx import build_sphinx

    out = Path(out).resolve()
    if out.exists() and any(out.iterdir()):
        if not (out / ".buildinfo").exists():
            raise SystemExit(
                f"{out} is not empty and is not a site built before: choose another "
                "--out"
            )
        shutil.rmtree(out)
    notebooks = notebook_paths()
    with tempfile.TemporaryDirectory(prefix="bleu-site-") as tmp:
        src, static = Path(tmp) / "book", Path(tmp) / "static"
        src.mkdir()
        for path in notebooks:
            nbformat.write(
                for_reading(nbformat.read(path, as_version=4)), src / path.name
            )
        (src / "index.md").write_text(
            landing_page((ROOT / "README.md").read_text(encoding="utf-8")),
            encoding="utf-8",
        )
        toc, config = book(notebooks, static)
        (src / "_toc.yml").write_text(toc, encoding="utf-8")
        (src / "_config.yml").write_text(config, encoding="utf-8")
        copy_mathjax(static)
        (static / "site.css").write_text(CSS, encoding="utf-8")
        # myst-nb writes its copies of the notebooks beside it, in tmp, not beside `out`
        html = Path(tmp) / "html"
        result = build_sphinx(
            src,
            html,
            use_external_toc=True,
            noconfig=True,
            path_config=src / "_config.yml",
            confoverrides={
                "external_toc_path": (src / "_toc.yml").as_posix(),
                "latex_individualpages": False,
            },
            doctreedir=Path(tmp) / "doctrees",
            freshenv=True,
            quiet=True,
            warningiserror=strict,
            keep_going=True,
        )
        if result != 0:
            raise SystemExit(
                f"the site did not build (Sphinx exit status {result}); see the "
                "warnings above"
            )
        shutil.copytree(html, out, dirs_exist_ok=True)
    return out / "index.html"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out",
        default=str(ROOT / "site"),
        help="the folder to build into (default: site/)",
    )
    parser.add_argument(
        "--allow-warnings", action="store_true", help="build even if Sphinx warns"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    index = build(args.out, strict=not args.allow_warnings)
    print(f"site built in {time.perf_counter() - start:.0f} s: {index}")
    print(
        f"open {index.as_uri()} in a browser, or serve the folder: "
        f"python3 -m http.server -d {index.parent} 8000 and open http://localhost:8000/"
    )


if __name__ == "__main__":
    main()
