"""The website (tools/build_site.py), checked as a reader offline would meet it.

The site is built once, into a temporary folder, with warnings as errors, exactly as the
README's command builds it. Then: every notebook has its page, in reading order; every
internal link, image, script and stylesheet resolves to a file of the site (so it works
from file:// and from any static server); nothing a page loads (scripts, styles, fonts,
images) comes from the network; equations are left as TeX for the site's own MathJax; no
tool directive or nbgrader marker shows in the code; the exercises' answers are folded
behind "show answer"; the landing page says what this is and how to run it."""

import re
import subprocess
import sys
from html import unescape
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

import nbformat
import pytest

from support import ROOT
from tools.nbtools import notebook_paths, title

NOTEBOOKS = notebook_paths()
# http://, https:// and protocol-relative //host
EXTERNAL = re.compile(r"^\s*(https?:)?//", re.I)
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]""")
MARKER = re.compile(r"^\s*### (BEGIN|END) SOLUTION")
EXPORT = re.compile(r"^\s*#\|\s*export", re.M)


class Page(HTMLParser):
    """One page: the URLs it references, its inline styles and scripts, and its text by
    where it stands."""

    def __init__(self, source):
        super().__init__(convert_charrefs=True)
        self.refs, self.styles, self.scripts, self.ids = [], [], [], set()
        self.pre, self.answers, self.outside, self.prose, self.summaries = (
            [],
            [],
            [],
            [],
            [],
        )
        self.stack, self.details, self.in_summary = [], [], False
        self.feed(source)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for name in ("src", "href", "poster", "data"):
            if attrs.get(name):
                self.refs.append((tag, name, attrs[name], attrs.get("rel", "")))
        if attrs.get("style"):
            self.styles.append(attrs["style"])
        if tag in (
            "br",
            "img",
            "input",
            "meta",
            "link",
            "hr",
            "source",
            "wbr",
            "col",
            "area",
            "base",
            "embed",
        ):
            return  # void elements have no end tag
        self.stack.append(tag)
        if tag == "details":
            self.details.append("")
        elif tag == "summary":
            self.in_summary = True
        elif tag == "pre":
            self.pre.append("")

    def handle_endtag(self, tag):
        while self.stack and self.stack[-1] != tag and tag in self.stack:
            self.stack.pop()  # an element left open inside this one
        if not self.stack or self.stack[-1] != tag:
            return
        self.stack.pop()
        if tag == "details":
            # a folded block's text (its summary apart)
            self.answers.append(self.details.pop())
        elif tag == "summary":
            self.in_summary = False

    def handle_data(self, data):
        if "script" in self.stack[-1:]:
            self.scripts.append(data)
            return
        if "style" in self.stack[-1:]:
            self.styles.append(data)
            return
        if self.in_summary:
            self.summaries.append(data.strip())
            return
        if "pre" in self.stack:
            self.pre[-1] += data
        elif "code" not in self.stack:
            self.prose.append(data)
        if self.details:
            self.details[-1] += data
        else:
            self.outside.append(data)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site, built by the README's command into a temporary folder, warnings as
    errors."""
    out = tmp_path_factory.mktemp("site") / "site"
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_site.py"), "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, (
        f"the site did not build:\n{done.stdout}\n{done.stderr}"
    )
    assert "WARNING" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert str(out / "index.html") in done.stdout  # it says where to open it
    assert list(out.parent.iterdir()) == [out], (
        "the build writes nothing beside its folder (myst-nb's jupyter_execute)"
    )
    return out


@pytest.fixture(scope="module")
def pages(site):
    return {
        path.relative_to(site).as_posix(): Page(path.read_text(encoding="utf-8"))
        for path in site.rglob("*.html")
        if "_static" not in path.parts
    }


def words(text, count=10):
    """A pattern for the first `count` words of `text` in order, whatever markup or
    spacing stands between them."""
    found = re.findall(r"\w+", text)[:count]
    assert len(found) >= 3, text
    return re.compile(r"\W+".join(found))


def test_every_notebook_has_a_page_in_reading_order_with_previous_and_next(site, pages):
    order = ["index.html"] + [path.stem + ".html" for path in NOTEBOOKS]
    for path in NOTEBOOKS:
        page = site / f"{path.stem}.html"
        assert page.exists(), f"no page for {path.name}"
        assert f"<h1>{title(path)}" in unescape(page.read_text(encoding="utf-8")), (
            path.name
        )
    # the theme's previous and next links follow the reading order
    for k, name in enumerate(order):
        rels = {
            rel: href
            for tag, attr, href, rel in pages[name].refs
            if tag == "link" and rel in ("prev", "next")
        }
        assert rels.get("prev") == (order[k - 1] if k else None), name
        assert rels.get("next") == (order[k + 1] if k + 1 < len(order) else None), name
    sidebar = (
        (site / "index.html")
        .read_text(encoding="utf-8")
        .split("bd-docs-nav", 1)[1]
        .split("</nav>")[0]
    )
    assert re.findall(r'href="([^"#]+\.html)"', sidebar) == order[1:], (
        "the table of contents is not in reading order"
    )


def test_every_internal_link_image_script_and_stylesheet_resolves(site, pages):
    missing = []
    for name, page in pages.items():
        for tag, attr, ref, rel in page.refs:
            if EXTERNAL.match(ref) or ref.startswith(
                ("mailto:", "data:", "javascript:")
            ):
                continue
            assert not ref.startswith(("/", "file:")), (
                f"{name}: {ref} is not relative: it breaks file:// or a subfolder"
            )
            parts = urlsplit(ref)
            target = (
                (site / name).parent / unquote(parts.path)
                if parts.path
                else site / name
            )
            if not target.resolve().is_file():
                missing.append(f"{name}: <{tag} {attr}={ref}>")
            elif (
                parts.fragment
                and target.suffix == ".html"
                and target.name != "genindex.html"
            ):
                key = target.resolve().relative_to(site.resolve()).as_posix()
                if unquote(parts.fragment) not in pages[key].ids:
                    missing.append(f"{name}: {ref} (no such anchor)")
    for css in site.rglob("*.css"):
        for match in CSS_URL.finditer(
            css.read_text(encoding="utf-8", errors="replace")
        ):
            ref = (match.group(1) or match.group(2)).strip()
            if ref.startswith(("data:", "#")) or EXTERNAL.match(ref):
                continue
            if not (css.parent / unquote(urlsplit(ref).path)).resolve().is_file():
                missing.append(f"{css.relative_to(site)}: url({ref})")
    assert not missing, "\n".join(missing)


def test_nothing_is_loaded_from_the_network(site, pages):
    """Scripts, stylesheets, fonts, images: all local. Links a reader may follow (<a
    href>) may point anywhere."""
    remote = []
    for name, page in pages.items():
        for tag, attr, ref, rel in page.refs:
            if tag != "a" and EXTERNAL.match(ref):
                remote.append(f"{name}: <{tag} {attr}={ref}>")
        for text in page.styles:
            remote += [
                f"{name}: {m.group(0)}"
                for m in CSS_URL.finditer(text)
                if EXTERNAL.match(m.group(1) or m.group(2))
            ]
        # a script that names a remote script, style or font to load (thebe, a CDN...)
        for text in page.scripts:
            remote += [
                f"{name}: script names {url}"
                for url in re.findall(r"https?://[^\s\"'`]+", text)
            ]
    for css in site.rglob("*.css"):
        text = css.read_text(encoding="utf-8", errors="replace")
        remote += [
            f"{css.relative_to(site)}: {m.group(0)}"
            for m in CSS_URL.finditer(text)
            if EXTERNAL.match(m.group(1) or m.group(2))
        ]
    for path in site.rglob("*"):
        if path.suffix in (".html", ".css", ".js") and re.search(
            r"fonts\.(googleapis|gstatic)\.com",
            path.read_text(encoding="utf-8", errors="replace"),
        ):
            remote.append(f"{path.relative_to(site)}: Google Fonts")
    assert not remote, "\n".join(remote)


def test_equations_are_left_for_the_sites_own_mathjax(site, pages):
    mathjax = site / "_static" / "mathjax" / "tex-chtml.js"
    assert mathjax.is_file() and (site / "_static" / "mathjax" / "LICENSE").is_file()
    assert (
        site
        / "_static"
        / "mathjax"
        / "output"
        / "chtml"
        / "fonts"
        / "woff-v2"
        / "MathJax_Main-Regular.woff"
    ).is_file()
    for path in NOTEBOOKS:
        source = "\n".join(
            cell.source
            for cell in nbformat.read(path, as_version=4).cells
            if cell.cell_type == "markdown"
            and "answer-key" not in cell.metadata.get("tags", [])  # not on the site
        )
        if "$" not in source:
            continue
        page = pages[path.stem + ".html"]
        assert any(
            tag == "script" and ref.split("?")[0] == "_static/mathjax/tex-chtml.js"
            for tag, attr, ref, rel in page.refs
        ), f"{path.stem}.html does not load the site's MathJax"
        html = (site / f"{path.stem}.html").read_text(encoding="utf-8")
        assert re.search(
            r'<span class="math notranslate nohighlight">\\\(.+?\\\)</span>', html
        ), path.stem
        # what MathJax typesets
        text = re.sub(r"\\\(.*?\\\)|\\\[.*?\\\]", "", "".join(page.prose), flags=re.S)
        untouched = re.search(r"\$[^$\s][^$\n]*\$", text)
        assert not untouched, (
            f"{path.stem}.html: TeX left between dollars, out of MathJax's reach: "
            f"{untouched}"
        )
    brevity = (site / "03_brevity_penalty.html").read_text(encoding="utf-8")
    # a formula of the notebook, as TeX for MathJax
    assert r"\mathrm{BP} = e^{1 - 12/12} = 1" in unescape(brevity)
    # and a displayed one
    assert '<div class="math notranslate nohighlight">' in brevity


def test_code_shows_without_directives_or_solution_markers(pages):
    for path in NOTEBOOKS:
        page = pages[path.stem + ".html"]
        code = "\n".join(page.pre)
        assert not re.search(r"^\s*#\|", code, re.M), (
            f"{path.stem}.html shows a tool directive"
        )
        assert "### BEGIN SOLUTION" not in code and "### END SOLUTION" not in code, (
            path.stem
        )
        # the exported functions are there, unfolded
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code" and EXPORT.search(cell.source):
                first = next(
                    line
                    for line in cell.source.splitlines()
                    if line.strip()
                    and not line.startswith("#|")
                    and not MARKER.match(line)
                )
                assert first in code, (
                    f"{path.stem}.html: exported code missing: {first}"
                )
                assert not any(first in answer for answer in page.answers), (
                    f"{path.stem}.html: {first} is folded"
                )


def test_answers_are_folded_behind_show_answer(pages):
    """One answer per exercise: the code answers folded, the teachers' model answers
    left out (as in the student edition)."""
    folded = 0
    for path in NOTEBOOKS:
        page = pages[path.stem + ".html"]
        cells = nbformat.read(path, as_version=4).cells
        answers = [
            cell
            for cell in cells
            if cell.cell_type == "code"
            and "### BEGIN SOLUTION" in cell.source
            and not EXPORT.search(cell.source)
        ]
        assert page.summaries.count("show answer") == len(answers), path.stem
        outside = "".join(page.outside)
        for cell in answers:
            source = "\n".join(
                line for line in cell.source.splitlines() if not MARKER.match(line)
            ).strip()
            # the code, exactly, in a folded block and nowhere else
            assert any(source in answer for answer in page.answers), (
                f"{path.stem}.html: not folded: {source[:80]}"
            )
            assert source not in outside, (
                f"{path.stem}.html: printed unfolded: {source[:80]}"
            )
        for cell in cells:
            if "answer-key" in cell.metadata.get("tags", []):
                # the model answer's words, in order, whatever markup stands between
                assert not words(cell.source).search(outside + "".join(page.answers)), (
                    f"{path.stem}.html: the teachers' answer key is published"
                )
        folded += len(answers)
    assert folded >= 30  # the exercises of notebooks 01 to 13


def test_landing_page_says_what_this_is_and_how_to_run_it(site, pages):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    landing = pages["index.html"]
    text = " ".join("".join(landing.outside).split())
    # the README's opening words
    assert " ".join(readme.split("\n\n")[1].split())[:60].replace("`", "") in text
    command = re.search(
        r"```bash\n(python3 -m venv [^\n]*jupyter lab[^\n]*)\n```", readme
    ).group(1)
    assert all(step in "\n".join(landing.pre) for step in command.split(" && ")), (
        "the landing page lacks command 1"
    )
    links = {ref for tag, attr, ref, rel in landing.refs if tag == "a"}
    assert {path.stem + ".html" for path in NOTEBOOKS} <= {
        ref.split("#")[0] for ref in links
    }
    # the search box
    assert 'action="search.html"' in (site / "index.html").read_text(encoding="utf-8")
    assert (site / "search.html").is_file() and (site / "searchindex.js").is_file()
