"""Notebook 11 and appendix A7: explanations add up to the score, a fix's gain is
SacreBLEU's score of the counts made perfect, highlights count what modified_precision
counts, the report stands alone.

The random inputs are the differential tests' (support.py). The scores are compared with
SacreBLEU's own, bit for bit."""

import math
import re
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import modified_precision
from bleu_lib.explain import (
    Highlight,
    compare_systems,
    costliest_segments,
    decompose,
    explain,
    explain_corpus,
    if_perfect,
    report_html,
    sentence_scores,
    top_ngrams,
)
from bleu_lib.metric import BLEU
from bleu_lib.significance import bootstrap_indices
from support import ROOT, references, tokens

CORPUS = ROOT / "data" / "corpus"
REFS = [
    (CORPUS / name).read_text(encoding="utf-8").splitlines()
    for name in ("ref.A.en", "ref.B.en")
]
SYSTEMS = {
    name: (CORPUS / f"sys.{name}.en").read_text(encoding="utf-8").splitlines()
    for name in ("alpha", "beta")
}
METHODS = ["exp", "floor", "add-k", "none"]


def on_tokens(metric_class, method, order, effective_order=True):
    "Our BLEU or SacreBLEU's, on text already split into tokens."
    return metric_class(
        smooth_method=method,
        effective_order=effective_order,
        max_ngram_order=order,
        tokenize="none",
    )


def adds_up(explanation):
    return abs(explanation.score + sum(explanation.losses) - 100.0) <= 1e-12 * 100


@pytest.mark.stage(name="breakdown")
@given(references, tokens, st.sampled_from(METHODS), st.booleans(), st.integers(1, 6))
def test_parts_add_up_to_the_score_on_random_sentences(
    refs, hyp, method, effective_order, order
):
    metric = on_tokens(BLEU, method, order, effective_order)
    explanation = explain(hyp, refs, metric)
    assert adds_up(explanation) and all(loss >= 0 for loss in explanation.losses)
    sacre = on_tokens(SacreBLEU, method, order, effective_order)
    # SacreBLEU sees text: tokens it can rebuild by splitting
    if hyp and all(token.strip() for token in hyp):
        assert (
            explanation.score
            == sacre.sentence_score(
                " ".join(hyp), [" ".join(ref) for ref in refs]
            ).score
        )


@pytest.mark.stage(name="breakdown")
@given(references, tokens, st.integers(1, 5))
def test_highlighted_matches_are_modified_precisions_counts(refs, hyp, n):
    matched, total = Highlight(hyp, refs, max_order=n).counts()[n - 1]
    precision = modified_precision(refs, hyp, n)
    assert (precision.numerator, precision.denominator) == (matched, max(total, 1))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", SYSTEMS)
def test_corpus_parts_add_up_and_the_score_is_sacrebleus(name, method):
    explanation = explain_corpus(SYSTEMS[name], REFS, BLEU(smooth_method=method))
    assert adds_up(explanation)
    assert (
        explanation.score
        == SacreBLEU(smooth_method=method).corpus_score(SYSTEMS[name], REFS).score
    )


def test_every_sentence_of_the_corpus_adds_up_and_scores_as_sacrebleu():
    metric, sacre = BLEU(effective_order=True), SacreBLEU(effective_order=True)
    for hyp, a, b in zip(SYSTEMS["alpha"] + SYSTEMS["beta"], REFS[0] * 2, REFS[1] * 2):
        explanation = explain(hyp, [a, b], metric)
        assert (
            adds_up(explanation)
            and explanation.score == sacre.sentence_score(hyp, [a, b]).score
        )


# Case table: (score, bp, precisions, orders) -> losses, worked out from the definition
# (the log shares of 100 - score)
DECOMPOSITIONS = {
    "perfect: nothing lost": ((100.0, 1.0, [100.0] * 4, 4), [0.0] * 5),
    "no 4-gram matched: the 4-grams take all 100 points": (
        (0.0, 1.0, [50.0, 25.0, 10.0, 0.0], 4),
        [0, 0, 0, 100.0, 0],
    ),
    "empty hypothesis: BP of 0 and no n-grams share them": (
        (0.0, 0.0, [0.0, 0.0], 2),
        [100 / 3] * 3,
    ),
    "only brevity: BP e^-1 costs all of 100 - 36.79": (
        (36.787944117144235, 0.36787944117144233, [100.0], 1),
        [0.0, 100 - 36.787944117144235],
    ),
    "two equal halves: p1 = p2 = 50, no BP": (
        (50.0, 1.0, [50.0, 50.0], 2),
        [25.0, 25.0, 0.0],
    ),
}


@pytest.mark.stage(name="breakdown")
@pytest.mark.parametrize("case", DECOMPOSITIONS, ids=str)
def test_decompose_case_table(case):
    arguments, expected = DECOMPOSITIONS[case]
    assert decompose(*arguments) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def made_perfect(result, part, orders):
    """SacreBLEU's own score of the counts with one part perfect: every n-gram of that
    order matched, or r = c."""
    correct, ref_len = list(result.counts), result.ref_len
    if part == "brevity":
        ref_len = min(ref_len, result.sys_len)
    else:
        correct[part - 1] = result.totals[part - 1]
    return SacreBLEU.compute_bleu(
        correct,
        list(result.totals),
        result.sys_len,
        ref_len,
        "none",
        None,
        True,
        orders,
    ).score


@pytest.mark.stage(name="breakdown")
@given(references, tokens, st.sampled_from(METHODS), st.integers(1, 6))
def test_a_fix_gains_what_sacrebleu_gives_the_counts_made_perfect(
    refs, hyp, method, order
):
    explanation = explain(hyp, refs, on_tokens(BLEU, method, order))
    gains, shares = explanation.gains(), explanation.losses
    # a gain never exceeds its share, and the two rank the parts alike
    assert all(gain <= share + 1e-9 for gain, share in zip(gains, shares))
    assert not any(
        (s - t) * (g - h) < -1e-9
        for s, g in zip(shares, gains)
        for t, h in zip(shares, gains)
    )
    result = explanation.result
    # where every order matched, no smoothing acts: SacreBLEU's arithmetic, to the bit
    if all(result.counts[: explanation.orders]):
        parts = [*range(1, explanation.orders + 1), "brevity"]
        for part in parts:
            assert if_perfect(
                result.bp, result.precisions, explanation.orders, {part}
            ) == made_perfect(result, part, explanation.orders)


# Case table: the NASA example (notebook 11, data/published_examples.json), candidate
# 1 as 13a tokenizes it: c = 12, r = 14, p_n = 9/12, 5/11, 3/10, 1/9
NASA_BP, NASA_P = math.exp(1 - 14 / 12), [75.0, 500 / 11, 30.0, 100 / 9]
IF_PERFECT = {
    "nothing: the score itself, 27.64": ((), 27.637383080309554),
    "BP = 1: +5.01, though brevity's share is 9.38": (("brevity",), 32.649710286280516),
    "4-grams: +20.23, though their share is 30.91": ((4,), 47.869351683340604),
    "3-grams and BP together: more than their two gains added": (
        (3, "brevity"),
        44.11629359322706,
    ),
    "everything: 100": ((1, 2, 3, 4, "brevity"), 100.0),
}


@pytest.mark.stage(name="breakdown")
@pytest.mark.parametrize("case", IF_PERFECT, ids=str)
def test_if_perfect_case_table(case):
    perfect, expected = IF_PERFECT[case]
    assert if_perfect(NASA_BP, NASA_P, 4, set(perfect)) == pytest.approx(
        expected, rel=1e-12
    )


@pytest.mark.stage(name="breakdown")
def test_add_k_with_effective_order_shares_the_orders_sacrebleu_averaged():
    # add-k adds 1 to every order above 1, so "Nope ." has 4 orders for SacreBLEU
    metric = BLEU(smooth_method="add-k", effective_order=True)
    explanation = explain("Nope.", ["No."], metric)
    sacre = SacreBLEU(smooth_method="add-k", effective_order=True)
    assert explanation.orders == 4 and adds_up(explanation)
    assert explanation.score == sacre.sentence_score("Nope.", ["No."]).score


def test_the_closest_reference_length_is_explained_and_ties_go_to_the_shorter():
    explanation = explain(
        "a b c d e f", ["a b c d e", "a b c d e f g"], BLEU(effective_order=True)
    )
    assert (
        explanation.ref_len == 5
        and "[5, 7] are equally close: the shorter wins" in explanation.why_ref_len()
    )


def test_removing_the_costliest_segment_raises_the_score_by_its_cost():
    metric = BLEU(references=REFS)
    explanation = explain_corpus(SYSTEMS["beta"], None, metric)
    worst, gain = costliest_segments(explanation, metric, 1)[0]
    keep = [i for i in range(len(REFS[0])) if i != worst]
    without = SacreBLEU().corpus_score(
        [SYSTEMS["beta"][i] for i in keep], [[ref[i] for i in keep] for ref in REFS]
    )
    assert abs(explanation.score + gain - without.score) <= 1e-12 * without.score


def test_sentence_scores_are_sacrebleus_sentence_bleu():
    sacre = SacreBLEU(effective_order=True)
    scores = sentence_scores(BLEU(references=REFS), SYSTEMS["alpha"])
    assert scores.tolist() == [
        sacre.sentence_score(h, [a, b]).score
        for h, a, b in zip(SYSTEMS["alpha"], *REFS)
    ]


def test_the_ngram_lists_account_for_the_difference_in_matches():
    metric = BLEU(references=REFS)
    comparison = compare_systems(
        metric, ("alpha", SYSTEMS["alpha"]), ("beta", SYSTEMS["beta"]), n_samples=200
    )
    sacre = [
        SacreBLEU().corpus_score(SYSTEMS[name], REFS) for name in ("alpha", "beta")
    ]
    for n in range(1, 5):
        difference = sum(
            sum(d.values()) for gram, d in comparison.ngrams.items() if len(gram) == n
        )
        assert difference == sacre[0].counts[n - 1] - sacre[1].counts[n - 1]
    assert comparison.scores == [s.score for s in sacre]


@pytest.mark.parametrize("sign", [1, -1])
def test_ngram_intervals_are_the_middle_of_the_resampled_totals(sign):
    metric, seed = BLEU(references=REFS), 7
    comparison = compare_systems(
        metric,
        ("alpha", SYSTEMS["alpha"]),
        ("beta", SYSTEMS["beta"]),
        n_samples=200,
        seed=seed,
    )
    indices = bootstrap_indices(len(SYSTEMS["alpha"]), 200, seed)
    rows = top_ngrams(comparison.ngrams, comparison.counts, 8, sign)
    assert rows and [total for _, total, _ in rows] == sorted(
        (total for _, total, _ in rows), reverse=True
    )
    # each segment's surplus, summed over each resample's drawn segments
    for gram, total, (low, high) in rows:
        surplus = [
            sign * comparison.ngrams[gram].get(i, 0)
            for i in range(len(SYSTEMS["alpha"]))
        ]
        resampled = sorted(sum(surplus[i] for i in drawn) for drawn in indices)
        assert total == sum(surplus) > 0 and (low, high) == (
            resampled[5],
            resampled[194],
        )


def test_the_report_stands_alone_and_shows_sacrebleus_numbers(tmp_path):
    page = report_html([("alpha", SYSTEMS["alpha"]), ("beta", SYSTEMS["beta"])], REFS)
    sacre = SacreBLEU()
    lines = [sacre.corpus_score(SYSTEMS[name], REFS) for name in SYSTEMS]
    assert all(
        line.format(signature=sacre.get_signature().format()) in page for line in lines
    )
    outside = re.findall(
        r"(?:src|href)\s*=|<script|<link|<iframe|<img|@import|url\(|"
        r"https?://(?!www\.w3\.org/2000/svg)",
        page,
    )
    assert outside == [] and page.count("<svg") == 2


def test_report_from_the_command_line(tmp_path):
    files = [str(CORPUS / name) for name in ("ref.A.en", "ref.B.en")]
    systems = [str(CORPUS / f"sys.{name}.en") for name in SYSTEMS]
    report = tmp_path / "report.html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_lib",
            *files,
            "-i",
            *systems,
            "--report",
            str(report),
            "-f",
            "text",
        ],
        capture_output=True,
        text=True,
    )
    plain = subprocess.run(
        [sys.executable, "-m", "sacrebleu", *files, "-i", *systems, "-f", "text"],
        capture_output=True,
        text=True,
    )
    assert (
        done.returncode == 0
        and done.stdout == plain.stdout
        and "wrote the report" in done.stderr
    )
    page = report.read_text(encoding="utf-8")
    assert (
        "<h2>The two systems compared</h2>" in page
        and "sys.alpha.en" in page
        and str(CORPUS) not in page
    )
    (tmp_path / "gamma.en").write_text(
        SYSTEMS["alpha"][0] + "\n" * len(SYSTEMS["alpha"]), encoding="utf-8"
    )
    three = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_lib",
            *files,
            "-i",
            *systems,
            str(tmp_path / "gamma.en"),
            "--report",
            str(report),
        ],
        capture_output=True,
        text=True,
    )
    assert (
        three.returncode == 1
        and three.stdout == ""
        and len(three.stderr.splitlines()) == 1
        and "two" in three.stderr
    )


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: explain("a b", "a b"), "list"),
        (lambda: explain("a b", []), "non-empty"),
        (lambda: explain(["a", ["b"]], [["a"]]), "token"),
        (lambda: report_html([("a", ["x"])] * 3, [["x"]]), "compares two"),
    ],
    ids=[
        "references as a string",
        "no reference",
        "a nested token",
        "three systems in a report",
    ],
)
def test_bad_input_says_what_is_wrong(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()
