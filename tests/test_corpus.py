"""Corpus BLEU: NLTK's corpus_bleu (with its floor of 1 per segment) and the paper's
summed statistics.

Known difference, tested explicitly: NLTK adds 0/1 for every order a hypothesis is too
short for; the paper and SacreBLEU add nothing. So corpus_bleu follows NLTK, and
bleu_from_stats(corpus_stats(...)) follows SacreBLEU."""

import math
import random

import pytest
from hypothesis import given, strategies as st
from nltk.translate import bleu_score as nltk_bleu

from bleu_lib import (
    BleuStats,
    BleuWarning,
    bleu_from_stats,
    corpus_bleu,
    corpus_stats,
    sentence_bleu,
)
from support import barnhart_tokens, close, corpora, load_data, quietly
from support import sacrebleu_on_tokens

# every test here is a hidden test of the corpus stage
pytestmark = pytest.mark.stage(name="corpus")


@given(
    corpora(),
    st.sampled_from([(0.25,) * 4, (0.5, 0.5), (1,), (0.2,) * 5, (0.1, 0.3, 0.5, 0.1)]),
)
def test_corpus_bleu_matches_nltk(corpus, weights):
    refs, hyps = corpus
    ours, theirs = (
        quietly(corpus_bleu, refs, hyps, weights),
        quietly(nltk_bleu.corpus_bleu, refs, hyps, weights),
    )
    # a weighted order with no match in the whole corpus: NLTK's sys.float_info.min
    # artefact
    if ours == 0.0:
        assert theirs < 1e-30
    else:
        assert close(ours, theirs)


@given(corpora(), st.integers(1, 5))
def test_corpus_stats_match_sacrebleu(corpus, max_order):
    refs, hyps = corpus
    stats, sacre = (
        corpus_stats(refs, hyps, max_order),
        sacrebleu_on_tokens(refs, hyps, max_order),
    )
    assert (list(stats.matches), list(stats.totals), stats.hyp_len, stats.ref_len) == (
        sacre.counts,
        sacre.totals,
        sacre.sys_len,
        sacre.ref_len,
    )
    assert close(
        100 * quietly(bleu_from_stats, stats, (1 / max_order,) * max_order), sacre.score
    )


@given(corpora())
def test_nltk_floor_is_the_only_difference(corpus):
    """NLTK's totals are the paper's with every segment's total floored at 1: the same
    score exactly when no hypothesis is shorter than the highest order."""
    refs, hyps = corpus
    nltk_score, paper_score = (
        quietly(corpus_bleu, refs, hyps),
        quietly(bleu_from_stats, corpus_stats(refs, hyps)),
    )
    if all(len(hyp) >= 4 for hyp in hyps):
        assert nltk_score == paper_score


def test_nltk_floor_on_identical_corpora():
    """Two identical corpora (hypotheses equal to references): the paper gives 1, NLTK
    less, both tested."""
    for refs, hyps in [
        ([["a b c d e".split()], [["x"]]], ["a b c d e".split(), ["x"]]),
        (
            [["the cat sat on the mat".split()], [[]]],
            ["the cat sat on the mat".split(), []],
        ),
    ]:
        assert bleu_from_stats(corpus_stats(refs, hyps)) == 1.0
        assert math.isclose(sacrebleu_on_tokens(refs, hyps).score, 100, rel_tol=1e-12)
        assert (
            close(corpus_bleu(refs, hyps), nltk_bleu.corpus_bleu(refs, hyps))
            and corpus_bleu(refs, hyps) < 0.81
        )


@given(corpora(), st.randoms(use_true_random=False))
def test_corpus_bleu_ignores_segment_order(corpus, rng):
    refs, hyps = corpus
    order = list(range(len(hyps)))
    rng.shuffle(order)
    shuffled = ([refs[i] for i in order], [hyps[i] for i in order])
    assert corpus_stats(refs, hyps) == corpus_stats(*shuffled)
    assert quietly(corpus_bleu, refs, hyps) == quietly(corpus_bleu, *shuffled)


@given(corpora(min_segments=2), st.data())
def test_statistics_of_a_split_add_up(corpus, data):
    refs, hyps = corpus
    cut = data.draw(st.integers(1, len(hyps) - 1))  # both parts non-empty
    assert corpus_stats(refs[:cut], hyps[:cut]) + corpus_stats(
        refs[cut:], hyps[cut:]
    ) == corpus_stats(refs, hyps)


def test_sentence_bleu_is_corpus_bleu_of_one_segment():
    rng = random.Random(0)
    for _ in range(200):
        refs = [
            [rng.choice("abc") for _ in range(rng.randint(0, 8))]
            for _ in range(rng.randint(1, 3))
        ]
        hyp = [rng.choice("abc") for _ in range(rng.randint(0, 8))]
        assert quietly(sentence_bleu, refs, hyp) == quietly(corpus_bleu, [refs], [hyp])


def test_from_scratch_corpus_example():
    """Published: 0.3366184122712009 (data/published_examples.json)."""
    scratch = load_data("published_examples.json")["from_scratch_notebook"]
    refs, hyps = barnhart_tokens(scratch["references"], scratch["hypotheses"])
    assert close(corpus_bleu(refs, hyps), scratch["published"])
    assert close(bleu_from_stats(corpus_stats(refs, hyps)), scratch["published"])
    assert close(sacrebleu_on_tokens(refs, hyps).score / 100, scratch["published"])


def test_nltk_corpus_doctest_statistics():
    """NLTK's corpus_bleu docstring corpus: statistics worked by hand in notebook 05."""
    refs = [
        [
            (
                "It is a guide to action that ensures that the military will forever "
                "heed Party commands"
            ).split(),
            (
                "It is the guiding principle which guarantees the military forces "
                "always being under the command of the Party"
            ).split(),
            (
                "It is the practical guide for the army always to heed the directions "
                "of the party"
            ).split(),
        ],
        ["he was interested in world history because he read the book".split()],
    ]
    hyps = [
        (
            "It is a guide to action which ensures that the military always obeys the "
            "commands of the party"
        ).split(),
        "he read the book because he was interested in world history".split(),
    ]
    assert corpus_stats(refs, hyps) == BleuStats(
        29, 29, (28, 19, 13, 8), (29, 27, 25, 23)
    )


BAD_CORPORA = [
    (
        "fewer reference lists than hypotheses",
        [[["a"]]],
        [["a"], ["b"]],
        ValueError,
        "2 hypotheses but 1 lists",
    ),
    (
        "hypotheses as one sentence",
        [[["a", "b"]]],
        ["a", "b"],
        TypeError,
        "one flat list of tokens",
    ),
    (
        "references not wrapped per segment",
        [["a", "b"], ["c"]],
        [["a", "b"], ["c"]],
        TypeError,
        "list_of_references[0]",
    ),
    ("empty corpus", [], [], ValueError, "the corpus is empty"),
    ("a string corpus", "a b", "a b", TypeError, "not a string"),
    (
        "a bad token deep inside",
        [[["a"]], [["b", ["c"]]]],
        [["a"], ["b"]],
        TypeError,
        "list_of_references[1][0][1]",
    ),
    (
        "hypotheses as a set",
        [[["a"]], [["b"]]],
        {("a",), ("b",)},
        TypeError,
        "in order, not set",
    ),
    (
        "hypotheses as a dict",
        [[["a"]], [["b"]]],
        {("a",): 1, ("b",): 2},
        TypeError,
        "in order, not dict",
    ),
    (
        "references as a set",
        {(("a",),), (("b",),)},
        [["a"], ["b"]],
        TypeError,
        "list_of_references must be a list",
    ),
    (
        "numbers for a corpus",
        0,
        0,
        TypeError,
        "hypotheses must be a list with one entry per segment, in order, not int",
    ),
    (
        "a bad hypothesis",
        [[["a"]], [["b"]]],
        [["a"], "b c"],
        TypeError,
        "hypotheses[1] is a string",
    ),
]


@pytest.mark.parametrize(
    "what, refs, hyps, exception, words",
    BAD_CORPORA,
    ids=[row[0] for row in BAD_CORPORA],
)
def test_bad_corpus_gets_a_clear_error(what, refs, hyps, exception, words):
    for function in (corpus_bleu, corpus_stats):
        with pytest.raises(exception) as error:
            function(refs, hyps)
        assert words in str(error.value)


def test_zero_corpus_score_warns_once_naming_the_order():
    with pytest.warns(BleuWarning, match=r"p_4 = 0/1\b") as record:
        assert corpus_bleu([[["a", "b", "c", "d"]]], [["a", "b", "c", "x"]]) == 0.0
    assert len(record) == 1
