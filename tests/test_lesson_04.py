"""Notebook 04's checks over many cases, moved out of the lesson (issue 25): the lesson
keeps one telling check per idea, and these confirm it on every case it used to table.

- bleu_from_stats equals SacreBLEU's unsmoothed sentence score on the lesson's examples,
  to 1e-12 and exactly 0.0 where an order has no match; NLTK gives the same number where
  every order matches, and its floor artefact where one does not.
- The from-scratch `bleu_score` of Arie Pratama Sutiono's blog post "Introduction to
  BLEU in Python" (2019) skips the orders with p_n = 0; on every example of the post
  that is NLTK 3.2's rule, because the orders with no match always come last.
- SacreBLEU's 13a tokenizer gives the NASA example's stored tokens (it only splits off
  the final period), for the reference and both candidates.
- The lesson's figure and prose on the geometric mean, through score_from_precisions
  (BLEU with BP = 1): its ends, where it comes closest to the arithmetic mean, and what
  halving p_1 or p_3 costs each mean.
- Four precisions cannot underflow: one match in a billion n-grams at every order
  scores 1e-9, in log form and as a product of powers alike.
- d2l.ai's bleu() is bleu_from_stats with weights 1/2^n (they sum to 15/16): the
  product of p_n ** (1/2**n) by hand, and d2l 1.0.3's stored numbers."""

import math
import sys

import pytest
from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from bleu_lib import bleu_from_stats, brevity_penalty
from bleu_lib import nltk32_bleu_from_stats, segment_stats
from bleu_lib.sentence import score_from_precisions
from support import close, load_data, nltk_floor_artefact, quietly

PUBLISHED = load_data("published_examples.json")
OTHER_TOOLS = load_data("other_tools/outputs.json")
# NLTK's documentation example: the paper's Example 1, candidate 1, mixed case as the
# paper prints it, without the final period (notebook 04's hyp1 and refs1)
EXAMPLE_1 = load_data("paper_examples.json")["precision_examples"][0]
HYP1 = EXAMPLE_1["hypothesis"].rstrip(".").split()
REFS1 = [ref.rstrip(".").split() for ref in EXAMPLE_1["references"]]
# no 3-gram of it occurs in a reference
SHORT_HYP = (
    "It is to insure the troops forever hearing the activity guidebook that party "
    "direct"
).split()

EXAMPLES = {
    "example-1": (REFS1, HYP1),
    "no-3-gram-match": (REFS1, SHORT_HYP),
    "perfect-match": ([HYP1], HYP1),
    "the-the": ([["the"] * 4], ["the"] * 2),
    "first-nine-tokens": ([REFS1[0]], REFS1[0][:9]),
    "a-reference-twice": (REFS1, REFS1[2] + REFS1[2]),
}


def sacrebleu_sentence(refs, hyp):
    "SacreBLEU's unsmoothed sentence BLEU on our tokens, rescaled to 0..1."
    metric = SacreBLEU(tokenize="none", smooth_method="none", effective_order=False)
    refs = [" ".join(ref) for ref in refs]
    return metric.sentence_score(" ".join(hyp), refs).score / 100


@pytest.mark.stage(name="sentence")
@pytest.mark.parametrize("name", EXAMPLES)
def test_sentence_bleu_is_sacrebleu_s_unsmoothed_sentence_score(name):
    refs, hyp = EXAMPLES[name]
    stats = segment_stats(refs, hyp)
    ours, sacre = quietly(bleu_from_stats, stats), sacrebleu_sentence(refs, hyp)
    nltk_value = quietly(nltk_bleu.sentence_bleu, refs, hyp)
    if all(stats.matches):
        assert close(ours, sacre) and close(ours, nltk_value)
    else:
        # exactly 0.0, where NLTK floors the zero precision (about 1e-77 per order)
        assert ours == sacre == 0.0
        assert nltk_floor_artefact(nltk_value, (0.25, 0.25, 0.25, 0.25))


def skip_zero_orders_bleu(stats, weights=(0.25, 0.25, 0.25, 0.25)):
    """The post's from-scratch rule: BP * exp(sum of w_n log p_n) over the orders with a
    match only, the weights not renormalized."""
    log_sum = math.fsum(
        w * math.log(m / l)
        for w, m, l in zip(weights, stats.matches, stats.totals)
        if m > 0
    )
    return brevity_penalty(stats.ref_len, stats.hyp_len) * math.exp(log_sum)


TUTORIAL = PUBLISHED["nltk_2019_tutorial"]
FROM_SCRATCH = PUBLISHED["sutiono_2019_from_scratch_bleu"]
POST_EXAMPLES = [
    (TUTORIAL["references"], case["hypothesis"]) for case in TUTORIAL["cases"]
] + [(FROM_SCRATCH["references"], FROM_SCRATCH["hypothesis"])]


@pytest.mark.parametrize("references, hypothesis", POST_EXAMPLES)
def test_skipping_zero_orders_is_nltk_3_2_s_rule(references, hypothesis):
    stats = segment_stats([ref.split() for ref in references], hypothesis.split())
    # a matched (n+1)-gram contains a matched n-gram: the zero orders come last
    assert stats.matches == tuple(sorted(stats.matches, key=lambda m: m == 0))
    assert skip_zero_orders_bleu(stats) == nltk32_bleu_from_stats(stats)


def test_13a_tokens_of_the_nasa_example():
    nasa = PUBLISHED["nasa"]
    tokenize_13a = Tokenizer13a()
    texts = [(c["text"], c["tokens_13a"]) for c in nasa["candidates"]]
    for text, tokens in texts + [(nasa["reference"], nasa["reference_13a"])]:
        assert tokenize_13a(text) == tokens


QUARTERS = (0.25, 0.25, 0.25, 0.25)


def bleu_bp_1(p):
    "BLEU-4 of the precisions p with BP = 1: the lesson's geometric mean."
    return score_from_precisions(1.0, p, QUARTERS)


def test_the_geometric_mean_figure_and_what_halving_costs():
    p4_values = [i / 200 for i in range(201)]
    # p_4 = 0 has no logarithm (the lesson shows the product is exactly 0 there)
    geometric = [bleu_bp_1((0.8, 0.6, 0.4, p4)) for p4 in p4_values[1:]]
    arithmetic = [(0.8 + 0.6 + 0.4 + p4) / 4 for p4 in p4_values]
    assert round(geometric[-1], 2) == 0.66
    assert close(arithmetic[-1], 0.70) and close(arithmetic[0], 0.45)
    gaps = [a - g for a, g in zip(arithmetic[1:], geometric)]
    closest = p4_values[1:][gaps.index(min(gaps))]
    # below the arithmetic mean everywhere, closest (within 0.02) near p_4 = 0.6
    assert min(gaps) >= 0 and abs(closest - 0.6) < 0.05 and min(gaps) < 0.02
    base, halved = (0.8, 0.6, 0.4, 1), [(0.4, 0.6, 0.4, 1), (0.8, 0.6, 0.2, 1)]
    costs = [sum(base) / 4 - sum(p) / 4 for p in halved]
    assert close(costs[0], 0.1) and close(costs[1], 0.05), costs
    ratios = [bleu_bp_1(p) / bleu_bp_1(base) for p in halved]
    assert all(close(r, 2**-0.25) for r in ratios) and round(2**-0.25, 2) == 0.84


def test_four_precisions_cannot_underflow():
    "One match in a billion n-grams at every order: smaller than real text gives."
    tiny = [1 / 10**9] * 4
    product_form = math.prod(p**0.25 for p in tiny)
    assert close(product_form, 1e-9)
    assert math.isclose(bleu_bp_1(tiny), 1e-9, rel_tol=1e-15)
    # far above the smallest float, about 2.2e-308
    assert product_form > 1e-300 > sys.float_info.min
    assert f"{sys.float_info.min:.1e}" == "2.2e-308"


def test_d2l_bleu_is_bleu_from_stats_with_weights_one_over_two_to_the_n():
    nasa, d2l = PUBLISHED["nasa"], OTHER_TOOLS["d2l_bleu"]
    weights = [1 / 2**n for n in range(1, 5)]
    for candidate, stored in zip(nasa["candidates"], d2l["scores"]):
        stats = segment_stats(
            [nasa["reference_13a"].split()], candidate["tokens_13a"].split()
        )
        ours = bleu_from_stats(stats, weights)
        assert close(ours, stored) and ours > 1.4 * bleu_from_stats(stats)
    # the first candidate by hand: BP times p_n ** (1/2**n) for p = 9/12 .. 1/9
    by_hand = (9 / 12) ** (1 / 2) * (5 / 11) ** (1 / 4) * (3 / 10) ** (1 / 8)
    by_hand *= (1 / 9) ** (1 / 16)
    assert close(d2l["scores"][0], math.exp(1 - 14 / 12) * by_hand)
