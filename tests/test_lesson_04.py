"""Notebook 04's checks over many cases, moved out of the lesson (issue 25): the lesson
keeps one telling check per idea, and these confirm it on every case it used to table.

- bleu_from_stats equals SacreBLEU's unsmoothed sentence score on the lesson's examples,
  to 1e-12 and exactly 0.0 where an order has no match; NLTK gives the same number where
  every order matches, and its floor artefact where one does not.
- The from-scratch `bleu_score` of Arie Pratama Sutiono's blog post "Introduction to
  BLEU in Python" (2019) skips the orders with p_n = 0; on every example of the post
  that is NLTK 3.2's rule, because the orders with no match always come last.
- SacreBLEU's 13a tokenizer gives the NASA example's stored tokens (it only splits off
  the final period), for the reference and both candidates."""

import math

import pytest
from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from bleu_lib import bleu_from_stats, brevity_penalty, nltk32_bleu_from_stats
from bleu_lib import segment_stats
from support import close, load_data, nltk_floor_artefact, quietly

PUBLISHED = load_data("published_examples.json")
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
