"""Invariants of BLEU that hold for every input, checked on random corpora
(tests/support.py: 0 to 60 tokens, 1 to 4 references, a four-word vocabulary so that
n-grams repeat mixed with a large one, empty lines included)."""

import math

import pytest
from hypothesis import given, strategies as st

from bleu_lib import (
    BLEU,
    SmoothingFunction,
    bleu_from_stats,
    corpus_bleu,
    corpus_stats,
    segment_stats,
    sentence_bleu,
)
from support import corpora, quietly, tokens

long_tokens = st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=4, max_size=30)


def streams(refs):
    "NLTK's layout [segment][reference] as SacreBLEU's [stream][segment], as text."
    return [[" ".join(segment[k]) for segment in refs] for k in range(len(refs[0]))]


@given(corpora(), st.sampled_from(["exp", "floor", "add-k", "none"]), st.booleans())
def test_scores_stay_between_zero_and_one(corpus, smooth_method, effective_order):
    refs, hyps = corpus
    assert 0 <= quietly(corpus_bleu, refs, hyps) <= 1
    assert 0 <= quietly(bleu_from_stats, corpus_stats(refs, hyps)) <= 1
    assert all(0 <= quietly(sentence_bleu, r, h) <= 1 for r, h in zip(refs, hyps))
    score = quietly(
        BLEU(
            tokenize="none",
            smooth_method=smooth_method,
            effective_order=effective_order,
        ).corpus_score,
        [" ".join(h) for h in hyps],
        streams(refs),
    ).score
    # SacreBLEU's percentages can end a few ulps above 100
    assert 0 <= score <= 100 * (1 + 1e-12)


@given(st.lists(long_tokens, min_size=1, max_size=5))
def test_identical_hypotheses_and_references_score_exactly_one(hyps):
    refs = [[hyp] for hyp in hyps]
    assert all(sentence_bleu(r, h) == 1.0 for r, h in zip(refs, hyps))
    assert (
        corpus_bleu(refs, hyps) == 1.0
        and bleu_from_stats(corpus_stats(refs, hyps)) == 1.0
    )
    # SacreBLEU's arithmetic (percentages, then the mean of logs) gives 100 to within a
    # few ulps, and so do we
    assert math.isclose(
        BLEU(tokenize="none")
        .corpus_score([" ".join(h) for h in hyps], streams(refs))
        .score,
        100,
        rel_tol=1e-14,
    )


@pytest.mark.stage(name="precision")
@given(st.lists(tokens, min_size=1, max_size=4), tokens, tokens)
def test_adding_a_reference_never_lowers_clipped_matches(refs, extra, hyp):
    before = segment_stats([tuple(r) for r in refs], tuple(hyp))
    after = segment_stats([tuple(r) for r in refs + [extra]], tuple(hyp))
    assert (
        all(a >= b for a, b in zip(after.matches, before.matches))
        and after.totals == before.totals
    )


@given(corpora(min_segments=2), st.data())
def test_corpus_score_is_the_score_of_the_summed_statistics_of_any_split(corpus, data):
    refs, hyps = corpus
    cut = data.draw(st.integers(1, len(hyps) - 1))  # both parts non-empty: a real split
    whole = corpus_stats(refs, hyps)
    split = corpus_stats(refs[:cut], hyps[:cut]) + corpus_stats(refs[cut:], hyps[cut:])
    assert split == whole and quietly(bleu_from_stats, split) == quietly(
        bleu_from_stats, whole
    )


@given(
    corpora(), st.randoms(use_true_random=False), st.sampled_from([None, 0, 1, 2, 3, 4])
)
def test_shuffling_segments_does_not_change_corpus_bleu(corpus, rng, method):
    refs, hyps = corpus
    order = list(range(len(hyps)))
    rng.shuffle(order)
    shuffled = [refs[i] for i in order], [hyps[i] for i in order]
    smoothing = (
        None if method is None else getattr(SmoothingFunction(), f"method{method}")
    )
    assert quietly(corpus_bleu, refs, hyps, smoothing_function=smoothing) == quietly(
        corpus_bleu, *shuffled, smoothing_function=smoothing
    )
    text = BLEU(tokenize="none")
    assert (
        quietly(text.corpus_score, [" ".join(h) for h in hyps], streams(refs)).score
        == quietly(
            text.corpus_score, [" ".join(h) for h in shuffled[1]], streams(shuffled[0])
        ).score
    )


def test_nltk_corpus_smoothing_5_to_7_depends_on_segment_order_like_nltk():
    """NLTK's methods 5 to 7 read the last segment at corpus level; ours reproduce NLTK
    in either order, and refuse NLTK's number where it is above 1 (method 6 here, in one
    of the two orders)."""
    from nltk.translate import bleu_score as nltk_bleu

    cat = "the cat sat on the mat".split()  # notebook 10's example
    doc_hyp = (
        "It is a guide to action which ensures that the military always obeys the "
        "commands of the party"
    ).split()
    doc_ref = (
        "It is a guide to action that ensures that the military will forever heed "
        "Party commands"
    ).split()
    refs, hyps = (
        [[cat], [cat], [doc_ref]],
        ["the cat ran to the mat".split(), cat, doc_hyp],
    )
    out_of_range = 0
    for method in (5, 6, 7):
        ours, theirs = (
            getattr(SmoothingFunction(), f"method{method}"),
            getattr(nltk_bleu.SmoothingFunction(), f"method{method}"),
        )
        scores = []
        for order in (slice(None), slice(None, None, -1)):
            nltk_score = quietly(
                nltk_bleu.corpus_bleu,
                refs[order],
                hyps[order],
                smoothing_function=theirs,
            )
            if nltk_score > 1:
                with pytest.raises(ValueError, match="above 1"):
                    quietly(
                        corpus_bleu, refs[order], hyps[order], smoothing_function=ours
                    )
                out_of_range += 1
            else:
                assert math.isclose(
                    quietly(
                        corpus_bleu, refs[order], hyps[order], smoothing_function=ours
                    ),
                    nltk_score,
                    rel_tol=1e-12,
                )
            scores.append(nltk_score)
        assert scores[0] != scores[1]  # the order of the segments changes NLTK's score
    assert out_of_range == 1
