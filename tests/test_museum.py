"""Hidden tests of notebook 13's museum of real BLEU bugs: each exhibit's fixed function
keeps an invariant that the bug broke, checked on random inputs rather than one number.
The exhibit's minimal input (data/museum_cases.json) is always among the examples, so a
student's function with the bug put back fails however few random examples run.

The random segments hold a hypothesis cut from one of its references (so that scores
are often above 0 and lengths differ) or drawn apart from them."""

import json
from dataclasses import replace

import pytest
from hypothesis import example, given, settings, strategies as st
from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import museum
from bleu_lib.brevity import brevity_penalty
from bleu_lib.sentence import bleu_from_stats, score_from_precisions, segment_stats
from support import ROOT, close, quietly

# each exhibit's own input is always an @example: 100 random ones more are plenty, and
# keep the suite short (the grader passes fewer with BLEU_TEST_EXAMPLES)
FEWER = settings(max_examples=min(settings().max_examples, 100))

pytestmark = pytest.mark.stage(name="museum")

CASES = json.loads((ROOT / "data" / "museum_cases.json").read_text(encoding="utf-8"))
WORDS = ["a", "b", "c", "d"]
# tokens that contain spaces: joined into strings, they collide with n-grams of "a", "b"
SPACED = ["a", "b", "a b", "b a", " ", "a  b"]


def minimal(name):
    "An exhibit's references and hypothesis, as token tuples."
    case = CASES[name]
    return [tuple(ref) for ref in case["refs"]], tuple(case["hyp"])


@st.composite
def segments(draw, words=WORDS):
    """1 to 4 references of 0 to 12 tokens, and a hypothesis: most of one reference,
    perhaps with a token more, or any tokens."""
    sentence = st.lists(st.sampled_from(words), max_size=12).map(tuple)
    refs = draw(st.lists(sentence, min_size=1, max_size=4))
    if draw(st.booleans()):
        return refs, draw(sentence)
    ref = draw(st.sampled_from(refs))
    # most of the reference: all orders match, and c is near (often below) its length
    start = draw(st.integers(0, min(2, len(ref))))
    piece = ref[start : draw(st.integers(max(start, len(ref) - 3), len(ref)))]
    return refs, piece + tuple(draw(st.lists(st.sampled_from(words), max_size=1)))


def nltk_score(refs, hyp, **kwargs):
    """NLTK's sentence_bleu, its floor for a precision of 0 (1e-77 or less) read as the
    paper's 0."""
    score = quietly(nltk_bleu.sentence_bleu, refs, hyp, **kwargs)
    return 0.0 if score < 1e-70 else score


def same(ours, theirs):
    return close(ours, theirs) or ours == theirs == 0


def precisions(stats):
    "p_n = m_n / l_n, and 0 for an order with no n-gram (NLTK's 0/1)."
    return [m / l if l else 0.0 for m, l in zip(stats.matches, stats.totals)]


def add_one_score(stats):
    "BLEU of a segment's statistics with add_one's counts in place of its own."
    matches, totals = museum.add_one(stats.matches, stats.totals)
    smoothed = replace(stats, matches=tuple(matches), totals=tuple(totals))
    return quietly(bleu_from_stats, smoothed)


@example(minimal("shortest_reference"))
@FEWER
@given(segments())
def test_exhibit_1_closest_length_gives_nltk_s_score(segment):
    refs, hyp = segment
    stats = segment_stats(refs, hyp)
    score = quietly(
        bleu_from_stats, replace(stats, ref_len=museum.closest_length(refs, hyp))
    )
    assert same(score, nltk_score(refs, hyp)), (
        f"r = {museum.closest_length(refs, hyp)} for reference lengths "
        f"{[len(ref) for ref in refs]} and c = {len(hyp)}"
    )


@example(*minimal("smoothed_unigrams"))
@FEWER
@given(
    st.lists(st.lists(st.sampled_from("efgh"), max_size=8), min_size=1, max_size=3),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=8),
)
def test_exhibit_2_add_one_scores_0_when_no_unigram_matches(refs, hyp):
    stats = segment_stats(refs, hyp)
    score = add_one_score(stats)
    assert score == 0.0, (
        f"no unigram matches, yet add_one's counts "
        f"{museum.add_one(stats.matches, stats.totals)} score {score}"
    )


def sacrebleu_add_k(refs, hyp):
    "SacreBLEU's add-k sentence BLEU on our tokens, every order counted, from 0 to 1."
    metric = SacreBLEU(tokenize="none", smooth_method="add-k", effective_order=False)
    result = metric.sentence_score(" ".join(hyp), [" ".join(ref) for ref in refs])
    return result.score / 100


@example(minimal("smoothed_unigrams"))
@FEWER
@given(segments())
def test_exhibit_2_add_one_counts_are_sacrebleu_s_add_k(segment):
    refs, hyp = segment
    assert same(add_one_score(segment_stats(refs, hyp)), sacrebleu_add_k(refs, hyp))


@example([5, 3], 4)
@FEWER
@given(st.lists(st.integers(0, 20), min_size=1, max_size=5), st.integers(0, 20))
def test_exhibit_3_tie_safe_length_ignores_the_order_of_references(ref_lens, hyp_len):
    r = museum.tie_safe_length(ref_lens, hyp_len)
    orders = [ref_lens[::-1], sorted(ref_lens), sorted(ref_lens, reverse=True)]
    assert all(museum.tie_safe_length(order, hyp_len) == r for order in orders), (
        f"reference lengths {ref_lens} in another order give another r than {r}"
    )
    refs = [["w"] * n for n in ref_lens]
    assert r == nltk_bleu.closest_ref_length(refs, hyp_len)


@example(minimal("smoothing_skipped"))
@FEWER
@given(segments())
def test_exhibit_4_add_one_bleu_is_sacrebleu_s_add_k(segment):
    refs, hyp = segment
    stats = segment_stats(refs, hyp)
    assert same(quietly(museum.add_one_bleu, stats), sacrebleu_add_k(refs, hyp))


@example(minimal("skipped_orders"), (0.25,) * 4)
@example(([[1, 2, 3, 4]], [5, 6, 8, 1]), (0.5, 0.5))  # nltk/nltk issue 1838
@FEWER
@given(segments(), st.sampled_from([(0.25,) * 4, (0.5, 0.5), (1 / 3,) * 3]))
def test_exhibit_5_precision_mean_gives_nltk_s_score(segment, weights):
    refs, hyp = segment
    stats = segment_stats(refs, hyp, len(weights))
    mean = museum.precision_mean(precisions(stats), weights)
    score = brevity_penalty(stats.ref_len, stats.hyp_len) * mean
    assert same(score, nltk_score(refs, hyp, weights=weights)), (
        f"precisions {precisions(stats)}, weights {weights}: mean {mean}"
    )


@example(minimal("inverted_penalty"))
@FEWER
@given(segments())
def test_exhibit_6_scores_with_penalty_stay_at_most_1(segment):
    refs, hyp = segment
    stats = segment_stats(refs, hyp)
    bp = museum.penalty(stats.ref_len, stats.hyp_len)
    p = precisions(stats)
    score = score_from_precisions(bp, p, [0.25] * 4) if all(p) else 0.0
    assert score <= 1 and bp == nltk_bleu.brevity_penalty(
        stats.ref_len, stats.hyp_len
    ), f"c = {stats.hyp_len}, r = {stats.ref_len}: penalty {bp}, BLEU {score}"


@example(minimal("joined_ngrams"))
@FEWER
@given(segments(SPACED))
def test_exhibit_7_clipped_counts_give_nltk_s_score_with_spaces_in_tokens(segment):
    refs, hyp = segment
    stats = segment_stats(refs, hyp)
    matches, totals = museum.clipped_counts(refs, hyp)
    counted = replace(stats, matches=tuple(matches), totals=tuple(totals))
    assert same(quietly(bleu_from_stats, counted), nltk_score(refs, hyp)), (
        f"clipped_counts gives {matches}, {totals}"
    )
