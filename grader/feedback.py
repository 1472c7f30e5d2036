"""What a teacher hands back after grading a class: the gradebook as CSV (one row per
student, one column per stage, then the totals) and one feedback page per student.

A feedback page is one HTML file that loads nothing (its style is inline, and its
Content-Security-Policy forbids any other resource), so it opens offline and can be
mailed as it is. It gives each stage's verdict, the failed checks with their messages
and the failed hidden tests, as nbgrader's `generate_feedback` gives a student their
graded notebook. Everything a student can influence (their folder's name, the messages
their code raised) is escaped: the page shows it, never runs it.

Leaves out: points and weights (a stage passes or fails, as the grader decides), and
the teachers' model answers."""

import csv
import html
import io
import re

# What each verdict tells a student who reads it on their page.
MEANINGS = {
    "pass": "every check and every hidden test passed.",
    "fail": "some checks or hidden tests failed: their messages are below.",
    "not attempted": "the notebook is the student edition, unchanged.",
    "missing": "the notebook was not handed in.",
}


def stage_name(result):
    "03_brevity_penalty for 03_brevity_penalty.ipynb."
    return result["notebook"].removesuffix(".ipynb")


def verdict(result):
    "pass, fail, or what kept the stage from being graded (as the grader's table says)."
    if result["passed"]:
        return "pass"
    return "fail" if result["status"] == "graded" else result["status"]


def spreadsheet_safe(value):
    """`value` as a spreadsheet shows it, never runs it: text that starts like a formula
    (=, +, -, @) gets a leading apostrophe, as OWASP advises against CSV injection."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def gradebook_csv(gradebook):
    """The class's gradebook (the JSON's dict) as CSV text: a header, then per student
    their name, each stage's verdict and the totals."""
    stages = [name.removesuffix(".ipynb") for name in gradebook["stages"]]
    totals = ["stages passed", "stages", "checks passed", "checks"]
    totals += ["hidden tests passed", "hidden tests"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180, as spreadsheets write
    writer.writerow(["student", *stages, *totals])
    for student in gradebook["students"]:
        results = student["stages"]
        row = [student["student"], *(verdict(r) for r in results)]
        row += [student["passed"], student["stages_total"]]
        row += [sum(r["checks_passed"] for r in results)]
        row += [sum(r["checks_total"] for r in results)]
        row += [sum(r["tests_passed"] for r in results)]
        row += [sum(r["tests_total"] for r in results)]
        writer.writerow([spreadsheet_safe(value) for value in row])
    return out.getvalue()


def page_name(student):
    """The file name of a student's feedback page: their name, with anything but
    letters, digits, dots, dashes and underscores replaced by _."""
    return re.sub(r"[^\w.-]", "_", student).lstrip(".") + ".html"


STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto;
       padding: 0 1rem; color: #1b1b1b; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border-bottom: 1px solid #ddd; padding: .3rem .8rem; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.pass { color: #116329; font-weight: 600; } .fail { color: #a40e26; font-weight: 600; }
.other { color: #6b5900; font-weight: 600; }
section { border-left: 4px solid #ddd; padding-left: 1rem; margin: 1.5rem 0; }
section.fail { border-color: #a40e26; } section.pass { border-color: #116329; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa;
      padding: .5rem; margin: .2rem 0 .8rem; }
"""


def css_class(word):
    return {"pass": "pass", "fail": "fail"}.get(word, "other")


def stage_section(result):
    "A stage's part of a feedback page: its verdict, then why each failure failed."
    word = verdict(result)
    text = html.escape
    parts = [
        f'<section class="{css_class(word)}">',
        f"<h2>{text(stage_name(result))}: "
        f'<span class="{css_class(word)}">{text(word)}</span></h2>',
        f"<p>{text(MEANINGS.get(word, 'the stage could not be graded.'))}</p>",
    ]
    for title, failures in [
        ("Checks that failed (cells of the notebook)", result["failed_checks"]),
        ("Hidden tests that failed", result["failed_tests"]),
    ]:
        if failures:
            parts.append(f"<h3>{title}</h3>")
            parts += [
                f"<p><code>{text(name)}</code></p><pre>{text(why)}</pre>"
                for name, why in failures.items()
            ]
    return "\n".join([*parts, "</section>"])


def feedback_page(student, report):
    """One student's feedback page, as a complete HTML document: a summary table, then
    a section per stage."""
    text = html.escape
    rows = [
        f"<tr><td>{text(stage_name(r))}</td>"
        f'<td class="n">{r["checks_passed"]}/{r["checks_total"]}</td>'
        f'<td class="n">{r["tests_passed"]}/{r["tests_total"]}</td>'
        f'<td class="{css_class(verdict(r))}">{text(verdict(r))}</td></tr>'
        for r in report["stages"]
    ]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            # nothing but the inline style may load: the page works offline
            '<meta http-equiv="Content-Security-Policy" '
            "content=\"default-src 'none'; style-src 'unsafe-inline'\">",
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>BLEU from scratch: feedback for {text(student)}</title>",
            f"<style>{STYLE}</style></head><body>",
            f"<h1>Feedback for {text(student)}</h1>",
            f"<p>Stages passed: <strong>{report['passed']} of "
            f"{report['stages_total']}</strong>. A stage passes when every check of "
            "its notebook and every hidden test passes.</p>",
            "<table><tr><th>stage</th><th>checks</th><th>hidden tests</th>"
            "<th>result</th></tr>",
            *rows,
            "</table>",
            *(stage_section(r) for r in report["stages"]),
            "</body></html>",
            "",
        ]
    )
