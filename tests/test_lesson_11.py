"""Notebook 11's checks over many cases, moved out of the lesson (issue 25): the lesson
keeps one telling check per idea, and these confirm it on every case it used to check.

- A fix's score (`if_perfect`) is SacreBLEU's own score of the counts made perfect
  (every n-gram of an order matched, or r = c), to the bit, for every part and every
  pair of parts, on the paper's Example 1 (candidate 1) and both NASA candidates; with
  nothing perfect it is the score itself; the gains rank the parts as the shares do,
  and no gain exceeds its share.
- The highlight counts what the paper states and what modified_precision counts
  (bleu_lib's and NLTK's), on each of the paper's examples in the paper's normalization.
- Every sentence score of both systems that the lesson's histogram draws is SacreBLEU's
  sentence_bleu, and the medians the lesson quotes are 78 and 34."""

from itertools import combinations

import numpy as np
import pytest
from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import modified_precision
from bleu_lib.explain import Highlight, explain, if_perfect, sentence_scores
from bleu_lib.metric import BLEU
from support import data_lines, load_data

PAPER = load_data("paper_examples.json")["precision_examples"]
NASA = load_data("published_examples.json")["nasa"]
# the hypotheses the lesson explains, and their references (SacreBLEU's sentence
# settings: 13a tokens, cased, effective order)
SENTENCES = {
    "paper-example-1-candidate-1": (PAPER[0]["hypothesis"], PAPER[0]["references"]),
    "nasa-candidate-1": (NASA["candidates"][0]["text"], [NASA["reference"]]),
    "nasa-candidate-2": (NASA["candidates"][1]["text"], [NASA["reference"]]),
}
PARTS = [1, 2, 3, 4, "brevity"]
REFS = [data_lines("ref.A.en"), data_lines("ref.B.en")]


def made_perfect(result, perfect):
    """SacreBLEU's own score of the counts with the parts in `perfect` made perfect:
    every n-gram of that order matched, or r = c (sentence settings)."""
    correct, ref_len = list(result.counts), result.ref_len
    for n in set(perfect) - {"brevity"}:
        correct[n - 1] = result.totals[n - 1]
    if "brevity" in perfect:
        ref_len = min(ref_len, result.sys_len)
    return SacreBLEU.compute_bleu(
        correct, list(result.totals), result.sys_len, ref_len, "exp", None, True, 4
    ).score


@pytest.mark.stage(name="breakdown")
@pytest.mark.parametrize("name", SENTENCES)
def test_a_fix_scores_what_sacrebleu_gives_the_counts_made_perfect(name):
    explanation = explain(*SENTENCES[name])
    bp, precisions = explanation.bp, explanation.precisions
    assert if_perfect(bp, precisions, 4) == explanation.score
    for k in (1, 2):
        for perfect in combinations(PARTS, k):
            assert if_perfect(bp, precisions, 4, set(perfect)) == made_perfect(
                explanation.result, perfect
            ), f"{perfect} made perfect"
    gains, shares = explanation.gains(), explanation.losses
    rank = lambda values: sorted(range(len(PARTS)), key=values.__getitem__)  # noqa: E731
    assert rank(gains) == rank(shares), "the gains rank the parts as the shares do"
    assert all(gain <= share for gain, share in zip(gains, shares))


def paper_tokens(sentence):
    "The paper's normalization (data/paper_examples.json): lower-case, no final period."
    return sentence.lower().rstrip(".").split()


@pytest.mark.stage(name="breakdown")
@pytest.mark.parametrize("example", PAPER, ids=lambda example: example["id"])
def test_the_highlight_counts_what_the_paper_and_modified_precision_count(example):
    hyp = paper_tokens(example["hypothesis"])
    refs = [paper_tokens(ref) for ref in example["references"]]
    for n, (matched, total) in enumerate(Highlight(hyp, refs).counts(), 1):
        if str(n) in example["precisions"]:
            assert [matched, total] == example["precisions"][str(n)]
        # with no n-gram at all, the denominator is 1
        for precision in (
            modified_precision(refs, hyp, n),
            nltk_bleu.modified_precision(refs, hyp, n),
        ):
            assert (precision.numerator, precision.denominator) == (
                matched,
                max(total, 1),
            ), f"order {n}"


@pytest.mark.parametrize("name, median", [("alpha", 78), ("beta", 34)])
def test_the_histogram_s_sentence_scores_are_sacrebleus(name, median):
    hyps = data_lines(f"sys.{name}.en")
    scores = sentence_scores(BLEU(references=REFS), hyps)
    sacre = SacreBLEU(effective_order=True)
    assert scores.tolist() == [
        sacre.sentence_score(hyp, [a, b]).score for hyp, a, b in zip(hyps, *REFS)
    ]
    assert round(float(np.median(scores))) == median
