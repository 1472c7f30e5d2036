"""The NLTK drop-in takes what NLTK's users really pass, and gives NLTK's number for it.

Integer token ids and NumPy arrays (training code), NumPy integers as lengths, weights
that do not sum to 1 (with one BleuWarning saying what that does) and float32 weights
(NLTK then computes in float32: so do we, bit for bit). Every expected number here is
NLTK 3.10.4's own, computed in the test."""

import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st
from nltk.translate import bleu_score as nltk_bleu

from bleu_lib import (
    BleuWarning,
    SmoothingFunction,
    ZeroBleuWarning,
    brevity_penalty,
    closest_ref_length,
    corpus_bleu,
)
from bleu_lib import modified_precision, sentence_bleu
from support import close, nltk_floor_artefact, quietly, token_ids, weight_sets

REFS = [
    ["the", "cat", "is", "on", "the", "mat"],
    ["there", "is", "a", "cat", "on", "the", "mat"],
]
HYP = ["the", "cat", "sat", "on", "the", "mat"]
ID_REFS, ID_HYP = [[1, 2, 3, 4, 5, 6, 7], [1, 7, 3, 4, 8, 6]], [1, 2, 3, 4, 9, 6, 7]


def test_token_ids_score_like_words():
    assert (
        sentence_bleu([[1, 2, 3, 4, 5]], [1, 2, 3, 4, 5])
        == 1.0
        == nltk_bleu.sentence_bleu([[1, 2, 3, 4, 5]], [1, 2, 3, 4, 5])
    )
    assert sentence_bleu(ID_REFS, ID_HYP) == nltk_bleu.sentence_bleu(ID_REFS, ID_HYP)


@given(
    st.lists(token_ids, min_size=1, max_size=4),
    token_ids,
    weight_sets(),
    st.integers(0, 4),
)
def test_token_ids_match_nltk(refs, hyp, weights, method):
    smoothing = None if method == 0 else getattr(SmoothingFunction(), f"method{method}")
    nltk_smoothing = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    ours, theirs = (
        quietly(sentence_bleu, refs, hyp, weights, smoothing),
        quietly(nltk_bleu.sentence_bleu, refs, hyp, weights, nltk_smoothing),
    )
    # 0.0 where NLTK floors a zero (about 1e-155 with 4 equal weights)
    assert close(ours, theirs) or (ours == 0.0 and nltk_floor_artefact(theirs, weights))
    for n in (1, 2, 3):
        ours_p, theirs_p = (
            modified_precision(refs, hyp, n),
            nltk_bleu.modified_precision(refs, hyp, n),
        )
        assert (ours_p.numerator, ours_p.denominator) == (
            theirs_p.numerator,
            theirs_p.denominator,
        )


@given(
    st.lists(
        st.tuples(st.lists(token_ids, min_size=1, max_size=3), token_ids),
        min_size=1,
        max_size=5,
    )
)
def test_corpus_of_token_ids_matches_nltk(segments):
    refs, hyps = [refs for refs, _ in segments], [hyp for _, hyp in segments]
    ours, theirs = (
        quietly(corpus_bleu, refs, hyps),
        quietly(nltk_bleu.corpus_bleu, refs, hyps),
    )
    assert close(ours, theirs) or (ours == 0.0 and theirs < 1e-70)


def test_none_is_a_token_as_in_nltk_with_a_warning():
    """Any hashable token that holds no others counts; None too, as NLTK counts it, but
    it usually comes from a failed vocabulary lookup and matches every other None, so it
    comes with a BleuWarning (here for the hypothesis and the reference that hold
    one)."""
    refs, hyp = (
        [["the", None, "sat", "on", "the", "mat"]],
        ["the", None, "sat", "on", "a", "mat"],
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = sentence_bleu(refs, hyp, (0.5, 0.5))
    assert ours == nltk_bleu.sentence_bleu(refs, hyp, (0.5, 0.5))
    assert [w.category for w in caught] == [
        BleuWarning,
        BleuWarning,
    ] and "failed vocabulary lookup" in str(caught[0].message)


def test_numpy_arrays_and_integers_are_what_lists_and_ints_are():
    array_refs, array_hyp = [np.array(ref) for ref in ID_REFS], np.array(ID_HYP)
    assert (
        sentence_bleu(array_refs, array_hyp)
        == sentence_bleu(ID_REFS, ID_HYP)
        == nltk_bleu.sentence_bleu(array_refs, array_hyp)
    )
    # a 2-D array of references
    assert sentence_bleu(np.array(ID_REFS[:1]), array_hyp) == sentence_bleu(
        ID_REFS[:1], ID_HYP
    )
    assert sentence_bleu(
        [np.array(ref) for ref in REFS], np.array(HYP), (0.5, 0.5)
    ) == sentence_bleu(REFS, HYP, (0.5, 0.5))
    assert corpus_bleu(
        [array_refs, array_refs], np.array([ID_HYP, ID_HYP])
    ) == corpus_bleu([ID_REFS] * 2, [ID_HYP] * 2)
    length = np.int64(len(HYP))
    assert (
        closest_ref_length(REFS, length)
        == nltk_bleu.closest_ref_length(REFS, length)
        == 6
    )
    assert (
        brevity_penalty(np.int64(8), length)
        == nltk_bleu.brevity_penalty(np.int64(8), length)
        == brevity_penalty(8, 6)
    )
    assert modified_precision(REFS, HYP, np.int64(2)) == nltk_bleu.modified_precision(
        REFS, HYP, 2
    )


@pytest.mark.parametrize(
    "weights, direction",
    [((0.33, 0.33, 0.33), "higher"), ((1, 1), "lower"), ((0.5, 0.25, 0.5), "lower")],
)
def test_weights_not_summing_to_one_give_nltks_number_and_one_warning(
    weights, direction
):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = sentence_bleu(REFS, HYP, weights, SmoothingFunction().method1)
        corpus = corpus_bleu([REFS], [HYP], weights, SmoothingFunction().method1)
    assert (
        ours
        == corpus
        == nltk_bleu.sentence_bleu(
            REFS, HYP, weights, nltk_bleu.SmoothingFunction().method1
        )
    )
    assert [w.category for w in caught] == [BleuWarning, BleuWarning]  # one per call
    assert (
        f"weights sum to {sum(weights):.6g}, not 1: the score is BP * "
        f"G**{sum(weights):.6g}" in str(caught[0].message)
    )
    assert f"so it is {direction} than BLEU" in str(caught[0].message)


@given(
    st.lists(st.floats(0, 3), min_size=1, max_size=6).filter(
        lambda w: 1e-3 < sum(w) and abs(sum(w) - 1) > 1e-3
    ),
    st.lists(st.lists(st.sampled_from("abcd"), max_size=12), min_size=1, max_size=3),
    st.lists(st.sampled_from("abcd"), max_size=12),
)
def test_unnormalized_weights_match_nltk(weights, refs, hyp):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = sentence_bleu(refs, hyp, tuple(weights))
    theirs = quietly(nltk_bleu.sentence_bleu, refs, hyp, tuple(weights))
    zero_weight = sum(
        w
        for n, w in enumerate(weights, 1)
        if nltk_bleu.modified_precision(refs, hyp, n).numerator == 0
    )
    # NLTK floors each zero precision at sys.float_info.min; the paper and we say 0
    if zero_weight > 0:
        assert ours == 0.0 and theirs <= 1.000001 * sys.float_info.min**zero_weight
    else:
        assert close(ours, theirs)
    assert BleuWarning in [
        w.category for w in caught if w.category is not ZeroBleuWarning
    ]


def test_weights_that_sum_to_one_give_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sentence_bleu(REFS, HYP, (0.5, 0.5))
        sentence_bleu(REFS, HYP, (1 / 3,) * 3)


@pytest.mark.parametrize("method", [1, 2, 3, 4])
def test_float32_weights_are_nltks_float32_arithmetic(method):
    """NLTK multiplies each float32 weight by a float logarithm and NumPy keeps the
    product in float32: 0.25406636947714045 with method 1 where float weights give
    0.25406637407730737 (1.8e-8 apart)."""
    weights = np.full(4, 0.25, dtype=np.float32)
    ours = sentence_bleu(
        REFS, HYP, weights, getattr(SmoothingFunction(), f"method{method}")
    )
    theirs = nltk_bleu.sentence_bleu(
        REFS, HYP, weights, getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    )
    assert ours == theirs  # bit for bit
    if method == 1:
        assert (
            ours
            == 0.25406636947714045
            != sentence_bleu(REFS, HYP, smoothing_function=SmoothingFunction().method1)
        )
    tuple_of_float32 = tuple(np.float32(0.25) for _ in range(4))
    assert sentence_bleu(
        REFS, HYP, tuple_of_float32, SmoothingFunction().method1
    ) == nltk_bleu.sentence_bleu(
        REFS, HYP, tuple_of_float32, nltk_bleu.SmoothingFunction().method1
    )
    assert corpus_bleu(
        [REFS], [HYP], weights, SmoothingFunction().method1
    ) == nltk_bleu.corpus_bleu(
        [REFS], [HYP], weights, nltk_bleu.SmoothingFunction().method1
    )


def test_a_set_of_hypotheses_is_refused_not_paired_by_hash():
    """NLTK pairs the hypotheses of a set with the references in hash order: 1.0 or 0.0
    depending on PYTHONHASHSEED."""
    r1, r2 = "the cat sat on the mat".split(), "a dog ran in the park".split()
    for hypotheses in ({tuple(r1), tuple(r2)}, {tuple(r1): 0, tuple(r2): 1}):
        with pytest.raises(TypeError, match="in order, not (set|dict)"):
            corpus_bleu([[r1], [r2]], hypotheses)
