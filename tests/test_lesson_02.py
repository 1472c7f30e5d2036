"""Notebook 02's checks over many cases, moved out of the lesson (issue 25): the lesson
keeps one telling check per idea, and these confirm it on every case it used to check.

p_n is computed as the lesson composes the library's two functions (`max_ref_counts`,
then `clip_counts`), and compared with the same peers and published numbers:

- The clipping limits are Counter's union over the references: the larger count of each
  n-gram, not the sum.
- Every precision the paper states (Examples 1 to 3) is NLTK's modified_precision and
  SacreBLEU's statistics, and so are 500 random segments from a five-word vocabulary;
  where the hypothesis is shorter than n, NLTK says 0/1 and SacreBLEU and we 0/0.
- The paper's Example 2 is 2/7 with the maximum over the references, 3/7 with the sum.
- Arie Pratama Sutiono's blog post "Introduction to BLEU in Python" (2019), `is some`:
  the limit of `is` is 3 (not the sum, 4) and p_1 is NLTK's 1/2.
- The Chinese-language blog post on BLEU smoothing, `I am fine I am fine`: 6/6 and 4/5
  without clipping, the published 1/2 and 2/5 with it (NLTK's 3/6 and 2/5), and BLEU-2
  is NLTK's sentence_bleu with weights (1/2, 1/2), sqrt(1/5), with BP = 1.
- The figure's p_1..p_4 of Example 1 are NLTK's: candidate 1 from 17/18 to 4/15,
  candidate 2 8/14, 1/13, 0 and 0."""

import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from nltk.translate import bleu_score as nltk_bleu

from bleu_lib.ngrams import ngram_counts, ngrams
from bleu_lib.precision import clip_counts, max_ref_counts
from support import close, load_data, sacrebleu_on_tokens

PAPER = load_data("paper_examples.json")["precision_examples"]
PUBLISHED = load_data("published_examples.json")


def paper_tokens(text):
    "The paper's normalization: lower-case, drop the final period, split on whitespace."
    return text.lower().rstrip(".").split()


def precision_counts(refs, hyp, n):
    "(m_n, l_n) of order n, as notebook 02 composes the library's two functions."
    matches, totals = clip_counts(ngram_counts(hyp, n), max_ref_counts(refs, n), n)
    return matches[-1], totals[-1]


def nltk_counts(refs, hyp, n):
    "NLTK's modified_precision as its unreduced (numerator, denominator)."
    p = nltk_bleu.modified_precision(refs, hyp, n)
    return p.numerator, p.denominator


def sacrebleu_counts(refs, hyp, n):
    "SacreBLEU's clipped matches and total of order n for one segment, on our tokens."
    result = sacrebleu_on_tokens([refs], [hyp], max_order=n)
    return result.counts[n - 1], result.totals[n - 1]


def random_segments(count=500, seed=2002):
    """(references, hypothesis) pairs from a five-word vocabulary, so that repeated and
    shared n-grams are common: 1 to 4 references, lengths 0 to 12."""
    rng = random.Random(seed)
    words = lambda: [rng.choice("abcde") for _ in range(rng.randint(0, 12))]  # noqa: E731
    return [
        ([words() for _ in range(rng.randint(1, 4))], words()) for _ in range(count)
    ]


CAT_REFS = [
    paper_tokens("The cat is on the mat."),
    paper_tokens("There is a cat on the mat."),
]
THE7 = paper_tokens("the the the the the the the.")


@pytest.mark.stage(name="precision")
def test_the_limits_are_counter_s_union_over_the_references():
    for refs, _ in random_segments(100, seed=1) + [(CAT_REFS, THE7)]:
        for n in (1, 2, 3):
            union = Counter()
            for ref in refs:
                union |= Counter(ngram_counts(ref, n))
            limits = max_ref_counts(refs, n)
            assert {g: c for g, c in limits.items() if c} == dict(union), (refs, n)


@pytest.mark.stage(name="precision")
@pytest.mark.parametrize("example", PAPER, ids=lambda e: e["id"])
def test_the_paper_s_precisions_are_nltk_s_and_sacrebleu_s(example):
    refs = [paper_tokens(r) for r in example["references"]]
    hyp = paper_tokens(example["hypothesis"])
    for n, (m, l) in example["precisions"].items():
        n = int(n)
        assert (
            precision_counts(refs, hyp, n)
            == (m, l)
            == nltk_counts(refs, hyp, n)
            == sacrebleu_counts(refs, hyp, n)
        ), (example["id"], n)


@pytest.mark.stage(name="precision")
def test_random_segments_agree_with_nltk_and_sacrebleu():
    for refs, hyp in random_segments():
        for n in range(1, 5):
            m, l = precision_counts(refs, hyp, n)
            # NLTK's total of 1 where there is none
            assert (m, max(1, l)) == nltk_counts(refs, hyp, n), (refs, hyp, n)
            assert (m, l) == sacrebleu_counts(refs, hyp, n), (refs, hyp, n)


@pytest.mark.stage(name="precision")
def test_a_hypothesis_shorter_than_n_is_0_over_0_and_nltk_s_0_over_1():
    refs, hyp = [["a", "b"]], ["a"]
    assert precision_counts(refs, hyp, 2) == sacrebleu_counts(refs, hyp, 2) == (0, 0)
    assert nltk_counts(refs, hyp, 2) == (0, 1)


@pytest.mark.stage(name="precision")
def test_the_maximum_over_the_references_not_the_sum():
    summed = sum((Counter(ngrams(ref, 1)) for ref in CAT_REFS), Counter())
    assert min(7, summed[("the",)]) == 3
    assert precision_counts(CAT_REFS, THE7, 1) == (2, 7)


@pytest.mark.stage(name="precision")
def test_sutiono_is_some():
    case = PUBLISHED["sutiono_2019_is_some"]
    refs, hyp = [r.split() for r in case["references"]], case["hypothesis"].split()
    limits = max_ref_counts(refs, 1)
    clipped = {g[0]: min(c, limits.get(g, 0)) for g, c in ngram_counts(hyp, 1).items()}
    assert clipped == case["published_clipped_counts"]
    # the largest count in any single reference, not the sum over the references (4)
    assert limits[("is",)] == refs[1].count("is") == 3
    assert precision_counts(refs, hyp, 1) == nltk_counts(refs, hyp, 1) == (1, 2)


FINE = PUBLISHED["chinese_smoothing_blog_repeated_reference"]
FINE_REFS = [r.split() for r in FINE["references"]]
FINE_HYP = FINE["hypothesis"].split()


def bleu_2(counts):
    """BLEU with N = 2 and BP = 1: the geometric mean of p_1 and p_2, as exp of the mean
    log (NLTK's way)."""
    return math.exp(sum(0.5 * math.log(m / l) for m, l in counts))


@pytest.mark.stage(name="precision")
def test_repeated_reference_precisions():
    limits = max_ref_counts(FINE_REFS, 2)
    unclipped = []
    for n in (1, 2):
        grams = ngrams(FINE_HYP, n)
        unclipped.append((sum(limits.get(g, 0) > 0 for g in grams), len(grams)))
    # every bigram but 'fine I'
    assert unclipped == [(6, 6), (4, 5)]
    clipped = [precision_counts(FINE_REFS, FINE_HYP, n) for n in (1, 2)]
    published = FINE["published_clipped_precisions"].values()
    assert [Fraction(m, l) for m, l in clipped] == [Fraction(p) for p in published]
    assert (
        clipped
        == [(3, 6), (2, 5)]
        == [nltk_counts(FINE_REFS, FINE_HYP, n) for n in (1, 2)]
    )
    assert round(bleu_2(unclipped), 4) == FINE["published_unclipped"] == 0.8944
    assert close(bleu_2(unclipped), math.sqrt(4 / 5))


@pytest.mark.stage(name="precision")
def test_repeated_reference_bleu_2_is_nltk_s():
    # BP = 1: the hypothesis is longer than the reference
    assert len(FINE_HYP) > len(FINE_REFS[0])
    clipped = [precision_counts(FINE_REFS, FINE_HYP, n) for n in (1, 2)]
    theirs = nltk_bleu.sentence_bleu(FINE_REFS, FINE_HYP, weights=(0.5, 0.5))
    assert bleu_2(clipped) == theirs and close(theirs, math.sqrt(1 / 5))
    assert round(bleu_2(clipped), 3) == FINE["published_clipped"] == 0.447


@pytest.mark.stage(name="precision")
def test_the_figure_s_precisions_of_example_1():
    plotted = {}
    for example in PAPER[:2]:
        refs = [paper_tokens(r) for r in example["references"]]
        hyp = paper_tokens(example["hypothesis"])
        ours = [m / l for m, l in (precision_counts(refs, hyp, n) for n in range(1, 5))]
        theirs = [
            float(nltk_bleu.modified_precision(refs, hyp, n)) for n in range(1, 5)
        ]
        assert ours == theirs, example["id"]
        plotted[example["id"]] = ours
    candidate_1 = plotted["example-1-candidate-1"]
    assert candidate_1[0] == 17 / 18 and candidate_1[3] == 4 / 15
    assert plotted["example-1-candidate-2"] == [8 / 14, 1 / 13, 0.0, 0.0]
