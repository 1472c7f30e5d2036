"""Notebook 05's checks over many cases, moved out of the lesson (issue 25): the lesson
keeps one telling check per idea, and these confirm it on every case it used to table.

- NLTK's documentation corpus (the paper's Example 1, candidate 1, and NLTK's second
  example): the sums NLTK's way, bleu_from_stats(nltk_corpus_stats(...)), equal NLTK's
  corpus_bleu under every weighting the lesson showed.
- Logan Barnhart's notebook scores 0.3366184122712009: bleu_lib's corpus_bleu, the
  paper's sums, NLTK and SacreBLEU all give the published score.
- The ProtonX repository's chicken corpus: the repository's own rule (orders with no
  match skipped, BP from the last segment's r) prints what its demo.py printed, and is
  NLTK 3.2's rule on the corpus sums.
- data/corpus/: for both systems corpus_bleu equals NLTK's corpus_bleu and the paper's
  sums SacreBLEU's; the figure's description (zeros, tallest bars, means) holds.
- Exercise 3's model answer: its numbers."""

import math
import statistics

import pytest
from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import bleu_from_stats, brevity_penalty, corpus_bleu, corpus_stats
from bleu_lib import nltk32_bleu_from_stats, segment_stats, sentence_bleu
from bleu_lib.corpus import nltk_corpus_stats
from support import barnhart_tokens, close, data_lines, load_data, quietly
from support import sacrebleu_on_tokens

# every test here is a hidden test of the corpus stage
pytestmark = pytest.mark.stage(name="corpus")

PUBLISHED = load_data("published_examples.json")
EXAMPLE_1 = load_data("paper_examples.json")["precision_examples"][0]
# the lesson's hyp1, refs1, hyp2 and refs2: case kept, final period dropped
NLTK_DOC_CORPUS = (
    [
        [ref.rstrip(".").split() for ref in EXAMPLE_1["references"]],
        ["he was interested in world history because he read the book".split()],
    ],
    [
        EXAMPLE_1["hypothesis"].rstrip(".").split(),
        "he read the book because he was interested in world history".split(),
    ],
)


@pytest.mark.parametrize(
    "weights", [(0.25,) * 4, (0.1, 0.3, 0.5, 0.1), (0.5, 0.5), (0.333, 0.333, 0.334)]
)
def test_nltk_sums_are_nltk_corpus_bleu(weights):
    ours = bleu_from_stats(nltk_corpus_stats(*NLTK_DOC_CORPUS, len(weights)), weights)
    assert close(ours, nltk_bleu.corpus_bleu(*NLTK_DOC_CORPUS, weights=weights))


def test_every_definition_gives_barnhart_s_published_score():
    scratch = PUBLISHED["from_scratch_notebook"]
    refs, hyps = barnhart_tokens(scratch["references"], scratch["hypotheses"])
    scores = [
        corpus_bleu(refs, hyps),
        bleu_from_stats(corpus_stats(refs, hyps)),
        nltk_bleu.corpus_bleu(refs, hyps),
        sacrebleu_on_tokens(refs, hyps).score / 100,
    ]
    assert all(close(score, scratch["published"]) for score in scores), scores


def protonx_score(refs_per_segment, hyps, weights=(0.25, 0.25, 0.25, 0.25)):
    """The repository's rule on our statistics: orders with no match skipped (and
    announced), BP from the last segment's r."""
    stats = corpus_stats(refs_per_segment, hyps, len(weights))
    last_r = segment_stats(refs_per_segment[-1], hyps[-1], len(weights)).ref_len
    skipped = [
        f"There are no common {n} grams between candidates and references"
        for n, m in enumerate(stats.matches, start=1)
        if m == 0
    ]
    log_sum = sum(
        w * math.log(m / l)
        for w, m, l in zip(weights, stats.matches, stats.totals)
        if m != 0
    )
    return skipped, brevity_penalty(last_r, stats.hyp_len) * math.exp(log_sum)


def test_the_repository_s_rule_is_nltk32_s_on_the_chicken_corpus():
    chicken = PUBLISHED["protonx_2021_chicken_corpus"]
    refs = [[ref.split() for ref in refs] for refs in chicken["references"]]
    hyps = [hyp.split() for hyp in chicken["hypotheses"]]
    skipped, score = protonx_score(refs, hyps)
    assert skipped + [f"Bleu Score: {score}"] == chicken["repository_prints"]
    assert close(score, nltk32_bleu_from_stats(corpus_stats(refs, hyps)))


def read_segments(name):
    "notebook 05's reader: one segment a line, split on whitespace."
    return [line.split() for line in data_lines(name)]


REFS_AB = [[a, b] for a, b in zip(read_segments("ref.A.en"), read_segments("ref.B.en"))]
SYSTEMS = {name: read_segments(f"sys.{name}.en") for name in ["alpha", "beta"]}


@pytest.mark.parametrize("name", SYSTEMS)
def test_the_sixty_segments_agree_with_nltk_and_sacrebleu(name):
    hyps = SYSTEMS[name]
    assert close(corpus_bleu(REFS_AB, hyps), nltk_bleu.corpus_bleu(REFS_AB, hyps))
    paper = bleu_from_stats(corpus_stats(REFS_AB, hyps))
    assert close(paper, sacrebleu_on_tokens(REFS_AB, hyps).score / 100)


def test_the_figure_s_description():
    """Notebook 05's figure: 11 of alpha's and 32 of beta's segments at exactly 0, the
    tallest bars at 0 (bins of 0.05), and the means 0.60 against 0.72 for alpha, 0.17
    against 0.29 for beta."""
    means, zeros = [], {}
    for name, hyps in SYSTEMS.items():
        scores = [quietly(sentence_bleu, refs, hyp) for refs, hyp in zip(REFS_AB, hyps)]
        zeros[name] = scores.count(0)
        assert statistics.multimode(min(int(s * 20), 19) for s in scores) == [0]
        corpus = corpus_bleu(REFS_AB, hyps)
        means.append((round(corpus, 2), round(statistics.mean(scores), 2)))
    assert zeros == {"alpha": 11, "beta": 32}
    assert means == [(0.72, 0.6), (0.29, 0.17)]


def test_exercise_3_model_answer_numbers():
    """A perfect six-token third segment: the corpus goes from 0.5921 to 0.6520 (p_4
    from 8/23 to 11/26), the mean of the sentence scores from 0.6223 to 0.748."""
    refs, hyps = NLTK_DOC_CORPUS
    perfect = "the cat sat on the mat".split()
    third_refs, third_hyps = refs + [[perfect]], hyps + [perfect]
    # one stream per reference; None where a segment has fewer references
    streams = [
        [" ".join(segment[k]) if k < len(segment) else None for segment in third_refs]
        for k in range(3)
    ]
    after = SacreBLEU(tokenize="none", smooth_method="none").corpus_score(
        [" ".join(hyp) for hyp in third_hyps], streams
    )
    before = nltk_bleu.corpus_bleu(refs, hyps)
    assert (round(before, 4), round(after.score / 100, 4)) == (0.5921, 0.652)
    assert (after.counts[3], after.totals[3]) == (11, 26)
    sentences = [sentence_bleu(r, h) for r, h in zip(third_refs, third_hyps)]
    assert [round(s, 4) for s in sentences] == [0.5046, 0.7401, 1.0]
    assert round(statistics.mean(sentences), 3) == 0.748
    assert round(statistics.mean(sentences[:2]), 4) == 0.6223
