"""The HTML report's drawing (issue 27): the stacked bar has a legend, the histogram a y
axis with ticks, and no highlight table runs off the right of the page. Looked at in
Chromium for issue 27; checked here on the page's own HTML."""

import re

from bleu_lib.explain import Highlight, report_html
from bleu_lib.render import highlight_html, svg_histogram, svg_losses, token_runs
from support import ROOT

CORPUS = ROOT / "data" / "corpus"


def lines(name):
    return (CORPUS / name).read_text(encoding="utf-8").splitlines()


def test_the_stacked_bar_has_a_legend_for_each_colour():
    chart = svg_losses(["a"], [40.0], [[10.0, 15.0, 20.0, 14.0, 1.0]])
    swatches = re.findall(
        r'width="10" height="10" fill="(#[0-9a-f]{6})"/><text[^>]*>([^<]+)<', chart
    )
    assert [name for _, name in swatches] == [
        "BLEU",
        "1-grams",
        "2-grams",
        "3-grams",
        "4-grams",
        "BP",
    ]
    # each swatch has the colour of its part of the bar
    bars = re.findall(
        r'<rect x="[0-9.]+" y="24" width="[0-9.]+" height="24" fill="(#[0-9a-f]{6})"',
        chart,
    )
    assert [colour for colour, _ in swatches] == bars


def test_more_than_four_orders_share_the_darkest_colour_and_say_so():
    chart = svg_losses(["a"], [40.0], [[10.0, 15.0, 15.0, 10.0, 9.0, 1.0]])
    assert ">4+-grams</text>" in chart and ">4-grams</text>" not in chart


def test_the_histogram_has_y_axis_ticks():
    chart = svg_histogram(["a", "b"], [[0] * 9 + [15], [3] * 10])
    ticks = [int(v) for v in re.findall(r'text-anchor="end">(\d+)</text>', chart)]
    assert ticks == [0, 4, 8, 12]
    # a tick at 12 segments stands at 12/15 of the tallest bar's height (120 pixels)
    assert 'y1="44.00" x2="40" y2="44.00"' in chart


def test_a_long_hypothesis_wraps_instead_of_running_off_the_page():
    tokens = ["token"] * 40
    picture = highlight_html(**Highlight(tokens, [tokens]).data())
    assert picture.count("<table") == 3 and picture.count(">token</td>") == 40
    assert all(
        sum(len(t) + 2 for t in tokens[start:end]) <= 100
        for start, end in token_runs(tokens)
    )
    # one token longer than a line still gets its own table
    assert token_runs(["x" * 150, "a"]) == [(0, 1), (1, 2)]


def test_every_highlight_in_the_report_fits_the_page():
    """The README's report, one system (its comparison is notebook A5's): every table of
    the n-gram highlights at most 100 characters wide."""
    refs = [lines("ref.A.en"), lines("ref.B.en")]
    page = report_html([("alpha", lines("sys.alpha.en"))], refs)
    header_rows = re.findall(r"<tr><td></td>(.*?)</tr>", page)
    assert header_rows
    for row in header_rows:
        tokens = re.findall(r">([^<]*)</td>", row)
        assert sum(len(t) + 2 for t in tokens) <= 100 or len(tokens) == 1


def test_the_headlines_p_value_stays_on_the_side_of_its_decision():
    "0.04995 is printed 0.04995 beside 'beyond resampling noise', not 0.0500."
    from bleu_lib.render import comparison_headline

    line = comparison_headline(("a", "b"), (30.0, 31.0), 0.04995)
    assert line.endswith("p = 0.04995 (beyond resampling noise)"), line
    assert comparison_headline(("a", "b"), (30, 31), 0.05).endswith(
        "p = 0.0500 (within resampling noise)"
    )
