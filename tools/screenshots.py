"""Screenshots of the website in headless Chromium, to see it as a reader does: typeset
equations, plots, highlighting.

    python tools/screenshots.py OUT_FOLDER
                                [--site site/] [--http] [--readme docs/site.png]

Builds the site first if `--site` has no index.html (tools/build_site.py), then saves,
in OUT_FOLDER: landing.png       the landing page equations.png     03_brevity_penalty:
the formula of the brevity penalty and inline math plot.png          03_brevity_penalty:
the plot of the penalty against c/r, inline formulas around it
                    (--readme copies it to the README's picture, docs/site.png)
highlight.png     11_explaining_a_score: the n-grams matched, clipped and unmatched, in
colour answers.png       03_brevity_penalty: exercises with their answers folded
search.png        the search page, for "brevity penalty" Pages are opened from disk
(file://), or with --http from `python -m http.server` on 127.0.0.1 (a free port,
stopped after). Chromium is Debian's `chromium` package, installed with apt-get if
missing (as root), driven over its DevTools pipe: each picture is taken once MathJax has
typeset the page and the fonts have loaded. It fails if a page shows TeX that MathJax
left untouched or could not typeset, an image that did not load, or (pages 00 to 09) no
typeset formula at all."""

import argparse
import base64
import contextlib
import fcntl
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# file name, page, what to scroll to (a CSS selector and which match; None: the top),
# window size
SHOTS = [
    ("landing.png", "index.html", None, (1200, 1100)),
    ("equations.png", "03_brevity_penalty.html", None, (1200, 900)),
    (
        "plot.png",
        "03_brevity_penalty.html",
        ("#what-the-penalty-looks-like", 0),
        (1200, 900),
    ),
    (
        "highlight.png",
        "11_explaining_a_score.html",
        ("#which-n-grams-matched .output.text_html", 1),
        (1200, 900),
    ),
    ("answers.png", "03_brevity_penalty.html", ("#exercises", 0), (1200, 1100)),
    ("search.png", "search.html?q=brevity+penalty", None, (1200, 900)),
]

# Run in the page once it has loaded: wait for MathJax to typeset and the fonts to load,
# scroll to the section, and report what a reader would see: typeset formulas, TeX left
# raw, images not loaded.
SETTLE = r"""(async (target) => {
  if (window.MathJax && MathJax.startup) { await MathJax.startup.promise; }
  await document.fonts.ready;
  // a section: its heading at the top; anything else: in the middle of the window
  if (target) {
    const [selector, index] = target;
    const element = document.querySelectorAll(selector)[index];
    element.scrollIntoView({block: element.tagName === "SECTION" ? "start" : "center"});
  }
  await new Promise(done => setTimeout(done, 500));
  // not one of the site's pages: an error page
  if (!document.querySelector("main")) { return null; }
  // the text, without code and typeset formulas
  const prose = document.querySelector("main").cloneNode(true);
  prose.querySelectorAll("pre, code, script, style, mjx-container")
       .forEach(element => element.remove());
  const text = prose.textContent;
  return {typeset: document.querySelectorAll("mjx-container").length,
          tex_errors: document.querySelectorAll("mjx-merror").length,
          raw_tex: (text.match(/\\\(|\\\[|\$\$|\$[^$\s][^$\n]*\$/g) || []).length,
          broken_images: [...document.images]
            .filter(img => !img.complete || img.naturalWidth === 0).length};
})"""


def chromium():
    "The path of Debian's chromium, installed if missing."
    found = shutil.which("chromium")
    if found:
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise SystemExit(
            "chromium is not installed: install Debian's `chromium` package (apt-get "
            "install chromium)"
        )
    print("installing chromium with apt-get ...", flush=True)
    subprocess.run(["apt-get", "update", "-qq"], check=True)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "chromium"],
        check=True,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )
    return shutil.which("chromium")


class Browser:
    """Headless Chromium driven over the DevTools protocol on a pipe
    (--remote-debugging-pipe: it reads commands on its file descriptor 3 and answers on
    4, each message ending in a NUL byte). A screenshot flag alone cannot wait for
    MathJax or show a section below the top of a page (a URL with #section gives a blank
    picture)."""

    def __init__(self, binary):
        to_browser, self.commands = os.pipe()
        self.answers, from_browser = os.pipe()

        def on_fds_3_and_4():  # in the child, before exec
            high = [
                fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser, from_browser)
            ]
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.process = subprocess.Popen(
            [
                binary,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--no-first-run",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            preexec_fn=on_fds_3_and_4,
            close_fds=False,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser)
        os.close(from_browser)
        self.buffer, self.events, self.last_id = b"", [], 0

    def message(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise SystemExit("chromium did not answer in time")
            chunk = os.read(self.answers, 1 << 20)
            if not chunk:
                raise SystemExit("chromium closed its DevTools pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, session=None, timeout=60, **params):
        self.last_id += 1
        command = {"id": self.last_id, "method": method, "params": params}
        if session:
            command["sessionId"] = session
        os.write(self.commands, json.dumps(command).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self.message(deadline)
            if answer.get("id") == self.last_id:
                if "error" in answer:
                    raise SystemExit(f"chromium: {method}: {answer['error']}")
                return answer["result"]
            self.events.append(answer)

    def wait_for(self, event, session, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            for k, seen in enumerate(self.events):
                if seen.get("method") == event and seen.get("sessionId") == session:
                    del self.events[: k + 1]
                    return seen
            self.events.append(self.message(deadline))

    def screenshot(self, url, target, size, png):
        """Open `url` in a new tab of `size`, wait for MathJax, scroll to `target`, save
        a PNG; return what it saw."""
        tab = self.call("Target.createTarget", url="about:blank")["targetId"]
        session = self.call("Target.attachToTarget", targetId=tab, flatten=True)[
            "sessionId"
        ]
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session,
            width=size[0],
            height=size[1],
            deviceScaleFactor=1,
            mobile=False,
        )
        self.call("Page.enable", session)
        self.call("Page.navigate", session, url=url)
        self.wait_for("Page.loadEventFired", session)
        seen = self.call(
            "Runtime.evaluate",
            session,
            expression=f"({SETTLE})({json.dumps(target)})",
            awaitPromise=True,
            returnByValue=True,
        )
        if "exceptionDetails" in seen:
            raise SystemExit(f"{url}: {seen['exceptionDetails']}")
        png.write_bytes(
            base64.b64decode(
                self.call("Page.captureScreenshot", session, format="png")["data"]
            )
        )
        self.call("Target.closeTarget", targetId=tab)
        if seen["result"].get("value") is None:
            raise SystemExit(f"{url} did not load")
        return seen["result"]["value"]

    def close(self):
        with contextlib.suppress(Exception):
            self.call("Browser.close", timeout=10)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.commands)
        os.close(self.answers)


@contextlib.contextmanager
def served(folder):
    """The folder served by `python -m http.server` on 127.0.0.1 (a free port), for the
    duration of the block."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "http.server",
            str(port),
            "--bind",
            "127.0.0.1",
            "--directory",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(base, timeout=1).close()
                break
            time.sleep(0.1)
        else:
            raise SystemExit(f"python -m http.server did not answer on {base}")
        yield base
    finally:
        server.terminate()
        server.wait()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the folder to save the PNG files in")
    parser.add_argument(
        "--site",
        default=str(ROOT / "site"),
        help="the built site (default: site/, built if missing)",
    )
    parser.add_argument(
        "--http",
        action="store_true",
        help="open the pages from a local http.server, not file://",
    )
    parser.add_argument(
        "--readme",
        help="also copy plot.png to this path (the README's picture: docs/site.png)",
    )
    args = parser.parse_args(argv)
    site, out = Path(args.site).resolve(), Path(args.out).resolve()
    if not (site / "index.html").exists():
        from tools.build_site import build

        build(site)
    out.mkdir(parents=True, exist_ok=True)
    browser = Browser(chromium())
    problems = []
    try:
        with (
            served(site)
            if args.http
            else contextlib.nullcontext(site.as_uri() + "/") as base
        ):
            for name, page, target, size in SHOTS:
                seen = browser.screenshot(base + page, target, size, out / name)
                print(
                    f"{out / name}: {seen['typeset']} formulas typeset, "
                    f"{seen['tex_errors']} TeX errors, {seen['raw_tex']} left as TeX, "
                    f"{seen['broken_images']} images not loaded"
                )
                if (
                    seen["raw_tex"]
                    or seen["tex_errors"]
                    or seen["broken_images"]
                    or (page.startswith("0") and not seen["typeset"])
                ):
                    problems.append(name)
    finally:
        browser.close()
    if problems:
        raise SystemExit(
            "raw TeX, a TeX error, a missing image or no typeset formula in: "
            f"{', '.join(problems)}"
        )
    if args.readme:
        shutil.copy(out / "plot.png", args.readme)
        print(args.readme)


if __name__ == "__main__":
    main()
