"""Notebook 10's checks against SacreBLEU to the last digit, moved here so that the
lesson keeps one short check per idea (issue 25). The lesson checks its loops against
SacreBLEU to about a millionth of a point and the library against its loops; these check
the library against SacreBLEU 2.6.0 exactly, on the lesson's data (data/corpus: alpha,
beta and alpha with 1 or 8 segments of beta, against reference A), as the lesson's cells
did:

- each segment's row of statistics, counted as the lesson counts it (notebook 04's
  segment_stats on BLEU's tokens), is SacreBLEU's _extract_corpus_statistics row;
- the 1,000 bootstrap resamples (seed 12345) score as SacreBLEU's _bootstrap_resample,
  in order, and `interval` gives SacreBLEU's 95% half-width;
- paired bootstrap and approximate randomization (1,000 trials) give PairedTest's
  p-values; counting ties can only raise them;
- one changed segment at SacreBLEU's 10,000 trials: p = 1/10001 as SacreBLEU counts,
  p = 1 with ties counted (appendix A6 tables it);
- compare_all counts ties, so its bootstrap p-value is at least PairedTest's, and its
  clusters follow the lesson's rule."""

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import PairedTest, _bootstrap_resample

from bleu_lib import significance as library
from bleu_lib.metric import BLEU
from bleu_lib.resampling import interval
from bleu_lib.sentence import segment_stats
from support import data_lines


REF_A = data_lines("ref.A.en")
ALPHA, BETA = data_lines("sys.alpha.en"), data_lines("sys.beta.en")
ONE, EIGHT = BETA[:1] + ALPHA[1:], BETA[:8] + ALPHA[8:]  # alpha, 1 or 8 of beta
OURS, THEIRS = BLEU(references=[REF_A]), SacreBLEU(references=[REF_A])


def lesson_rows(system):
    "The lesson's rows_of, as a matrix: segment_stats on BLEU's tokens, reference A."
    tokens = OURS.tokens
    rows = [segment_stats([tokens(r)], tokens(h)) for h, r in zip(system, REF_A)]
    return library.as_matrix(rows)


def sacrebleu_p_values(test, systems, n_samples=1000):
    "PairedTest's p-value of each of `systems` against alpha."
    named = [("alpha", ALPHA)] + [(f"system {i}", s) for i, s in enumerate(systems)]
    _, results = PairedTest(named, {"BLEU": THEIRS}, None, test, n_samples)()
    return [result.p_value for result in results["BLEU"][1:]]


@pytest.mark.parametrize("system", [ALPHA, BETA], ids=["alpha", "beta"])
def test_the_lesson_s_rows_are_sacrebleu_s_statistics(system):
    assert (
        lesson_rows(system) == THEIRS._extract_corpus_statistics(system, None)
    ).all(), (
        "each row should be SacreBLEU's: [hypothesis length, closest reference "
        "length, matches per order, totals per order]"
    )


@pytest.mark.stage(name="resampling")
def test_the_bootstrap_and_its_interval_are_sacrebleu_s():
    counts = library.resample_counts(library.bootstrap_indices(60, 1000, 12345), 60)
    fast = library.bootstrap_scores(lesson_rows(ALPHA), OURS, counts)
    _, sacre = _bootstrap_resample(
        THEIRS._extract_corpus_statistics(ALPHA, None), THEIRS, 1000
    )
    assert fast.tolist() == [s.score for s in sacre], "the library's scores"
    ours, theirs = (
        m.corpus_score(ALPHA, None, n_bootstrap=1000) for m in (OURS, THEIRS)
    )
    assert (ours.mean, ours.ci) == (theirs._mean, theirs._ci)
    low, high = interval(fast)
    assert 0.5 * (high - low) == theirs._ci, (
        f"interval gives {low!r} to {high!r}, SacreBLEU's half-width is "
        f"{theirs._ci!r}: drop the lowest and highest n // 40 scores, keep the first "
        "and last that remain"
    )


@pytest.mark.stage(name="resampling")
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_the_paired_tests_are_sacrebleu_s(test):
    sacre = sacrebleu_p_values(test, [BETA, EIGHT])
    for system, sacre_p in zip([BETA, EIGHT], sacre):
        pair = (lesson_rows(ALPHA), lesson_rows(system), OURS)
        if test == "bs":
            assert library.paired_bootstrap(*pair).p_value == sacre_p
            continue
        strict, ties = (
            library.paired_approximate_randomization(*pair, 1000, ties=t).p_value
            for t in (False, True)
        )
        assert strict == sacre_p, "the same coins, the same strict count"
        assert ties >= sacre_p, "counting ties can only raise p"


@pytest.mark.stage(name="resampling")
def test_one_changed_segment_ties_every_shuffle():
    pair = (lesson_rows(ALPHA), lesson_rows(ONE), OURS)
    strict, ties = (
        library.paired_approximate_randomization(*pair, ties=t).p_value
        for t in (False, True)
    )
    assert strict == 1 / 10001, (
        "with one differing segment every shuffle ties with the observed difference, "
        "and SacreBLEU's strict > counts none"
    )
    assert ties == 1.0, (
        "counting ties (the paper's >=), every one of the 10,000 shuffles is at least "
        "as large: p = 10001/10001"
    )


@pytest.mark.stage(name="resampling")
def test_compare_all_counts_ties_and_clusters_by_the_rule():
    mixed = [a if i % 2 else b for i, (a, b) in enumerate(zip(ALPHA, BETA))]
    names = ["alpha", "alpha, 1 segment of beta", "alpha, 8 segments of beta"]
    systems = dict(zip(names + ["mixed", "beta"], [ALPHA, ONE, EIGHT, mixed, BETA]))
    comparison = library.compare_all(
        [(name, lesson_rows(hyps)) for name, hyps in systems.items()], OURS
    )
    assert comparison.pairs[0]["p"] >= sacrebleu_p_values("bs", [ONE])[0], (
        "counting ties can only raise the bootstrap p-value above SacreBLEU's"
    )
    different = {
        frozenset((p["a"], p["b"])): p["p_holm"] < 0.05 for p in comparison.pairs
    }
    ranked = sorted(comparison.systems, key=lambda row: -row["score"])
    for above, below in zip(ranked, ranked[1:]):
        # the best of the cluster above
        best = next(row for row in ranked if row["cluster"] == above["cluster"])
        new_cluster = different[frozenset((best["name"], below["name"]))]
        assert below["cluster"] == above["cluster"] + new_cluster, (
            f"{below['name']!r} is in cluster {below['cluster']}, but it is "
            f"{'' if new_cluster else 'not '}significantly different from "
            f"{best['name']!r}, the best of cluster {above['cluster']}: it should "
            f"{'start a new cluster' if new_cluster else 'join that cluster'}"
        )
