"""Differential tests: bleu_lib against NLTK and SacreBLEU on random inputs, layer by
layer.

The vocabulary is tiny so that n-grams repeat and collide, which is where clipping and
closest lengths are tested. Known, deliberate differences are asserted explicitly, never
skipped:
- NLTK floors a zero precision at sys.float_info.min (about 1e-155 for BLEU-4); the
  paper and we say exactly 0.
- NLTK's modified_precision floors a total of 0 n-grams at 1 (0/1); SacreBLEU keeps 0/0.
  We follow NLTK there.
- brevity_penalty(0, 0): NLTK and we say 0, SacreBLEU 1 (no BLEU score depends on it).
"""

import sys
import warnings

import pytest
from hypothesis import given, strategies as st
from nltk.translate import bleu_score as nltk_bleu
from nltk.util import ngrams as nltk_ngrams
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics.helpers import extract_all_word_ngrams

from bleu_lib import (
    BleuWarning,
    ZeroBleuWarning,
    brevity_penalty,
    closest_ref_length,
    modified_precision,
    ngram_counts,
    ngrams,
)
from bleu_lib import segment_stats, sentence_bleu
from support import close, quietly, references, tokens, weight_sets

orders = st.integers(min_value=1, max_value=5)


def sacrebleu_score(refs, hyp, max_order):
    """SacreBLEU's unsmoothed BLEU-N with uniform weights on our tokens (no
    tokenization), as a result object."""
    metric = SacreBLEU(tokenize="none", smooth_method="none", max_ngram_order=max_order)
    return metric.corpus_score([" ".join(hyp)], [[" ".join(ref)] for ref in refs])


@pytest.mark.stage(name="ngrams")
@given(tokens, orders)
def test_ngrams_match_nltk(hyp, n):
    assert ngrams(hyp, n) == list(nltk_ngrams(hyp, n))


@pytest.mark.stage(name="ngrams")
@given(tokens, orders)
def test_ngram_counts_match_sacrebleu(hyp, max_order):
    assert (
        ngram_counts(hyp, max_order)
        == extract_all_word_ngrams(" ".join(hyp), 1, max_order)[0]
    )


@pytest.mark.stage(name="precision")
@given(references, tokens, orders)
def test_modified_precision_matches_nltk_and_sacrebleu(refs, hyp, n):
    ours, theirs = (
        modified_precision(refs, hyp, n),
        nltk_bleu.modified_precision(refs, hyp, n),
    )
    assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
    sacre = sacrebleu_score(refs, hyp, n)
    assert ours.numerator == sacre.counts[n - 1]
    # NLTK's floor; SacreBLEU keeps 0 n-grams as 0
    assert ours.denominator == max(1, sacre.totals[n - 1])


@pytest.mark.stage(name="brevity")
@given(references, tokens)
def test_closest_ref_length_and_brevity_penalty_match_nltk_and_sacrebleu(refs, hyp):
    r = closest_ref_length(refs, len(hyp))
    bp = brevity_penalty(r, len(hyp))
    assert r == nltk_bleu.closest_ref_length(
        refs, len(hyp)
    ) and bp == nltk_bleu.brevity_penalty(r, len(hyp))
    sacre = sacrebleu_score(refs, hyp, 4)
    assert r == sacre.ref_len
    if len(hyp) == r == 0:
        assert (bp, sacre.bp) == (0.0, 1.0)  # c = r = 0: NLTK and we say 0, SacreBLEU 1
    else:
        assert bp == sacre.bp


def zero_weight(refs, hyp, weights):
    """The total weight of the orders with no match (by NLTK's modified_precision): BLEU
    is 0 when it is positive."""
    return sum(
        w
        for n, w in enumerate(weights, start=1)
        if nltk_bleu.modified_precision(refs, hyp, n).numerator == 0
    )


@pytest.mark.stage(name="sentence")
@given(references, tokens, weight_sets(), st.booleans())
def test_sentence_bleu_matches_nltk(refs, hyp, weights, auto_reweigh):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = sentence_bleu(refs, hyp, weights, auto_reweigh=auto_reweigh)
    theirs = quietly(
        nltk_bleu.sentence_bleu, refs, hyp, weights, auto_reweigh=auto_reweigh
    )
    reweighed = auto_reweigh and 0 < len(hyp) < 4 and weights == (0.25,) * 4
    effective = (1 / len(hyp),) * len(hyp) if reweighed else weights
    if zero_weight(refs, hyp, effective) > 0:
        # NLTK's artefact: each zero precision becomes sys.float_info.min, so NLTK's
        # score is at most min ** weight.
        assert (
            ours == 0.0
            and 0
            <= theirs
            <= 1.000001 * sys.float_info.min ** zero_weight(refs, hyp, effective)
        )
        assert [w.category for w in caught] == [ZeroBleuWarning]
    else:
        assert close(ours, theirs) and not caught


@pytest.mark.stage(name="sentence")
@given(references, tokens, st.integers(min_value=1, max_value=4))
def test_sentence_bleu_matches_sacrebleu(refs, hyp, max_order):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BleuWarning)
        ours = 100 * sentence_bleu(refs, hyp, (1 / max_order,) * max_order)
    # exactly 0 for both when an order has no match
    assert close(ours, sacrebleu_score(refs, hyp, max_order).score)


@given(references, tokens, st.integers(min_value=1, max_value=7), weight_sets())
def test_nltk_smoothing_functions_work_through_sentence_bleu(
    refs, hyp, method, weights
):
    """NLTK's own SmoothingFunction methods, passed to our sentence_bleu, give NLTK's
    numbers (or NLTK's error)."""
    smoothing = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    outcomes = []
    for bleu in (sentence_bleu, nltk_bleu.sentence_bleu):
        try:
            outcomes.append(quietly(bleu, refs, hyp, weights, smoothing))
        # NLTK's methods 4 and 6 raise on some inputs; we must raise the same
        except Exception as error:
            outcomes.append(type(error))
    ours, theirs = outcomes
    # NLTK's methods 5 and 7 can score above 1: we refuse the number
    if not isinstance(theirs, type) and theirs > 1:
        assert ours is ValueError
    else:
        assert (
            ours == theirs
            if isinstance(theirs, type) or theirs == 0
            else close(ours, theirs)
        )


@given(references, tokens)
def test_statistics_add_up(refs, hyp):
    stats = segment_stats([tuple(r) for r in refs], tuple(hyp))
    double = stats + stats
    assert (
        double.matches == tuple(2 * m for m in stats.matches)
        and double.hyp_len == 2 * stats.hyp_len
    )
