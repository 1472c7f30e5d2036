"""Notebook 07's regression checks, moved here so that the lesson keeps one short check
per idea.

- SacreBLEU's floor, add-k and exp against chen_cherry_bleu's methods 1 to 3, on the
  four inputs the lesson's table once showed: equal wherever a word matches and the
  hypothesis has every order, and different, as the lesson says, in exactly two ways on
  short inputs. (tests/test_smoothing.py checks the same rule on random inputs.)
- Case A, worked by hand step by step as the lesson's prose quotes it, against
  chen_cherry_bleu, and for methods 1 to 3 against NLTK and SacreBLEU.
- A copy of the reference scores 1 under every method, at any length.
- The Chinese blog's sigma example: SacreBLEU's floor with sigma is method 1, as NLTK's
  method1 is (the lesson shows the blog's rule and NLTK's).
- The peers' defaults the lesson states: NLTK's SmoothingFunction and sentence_bleu,
  SacreBLEU's sentence_bleu, BLEU() and its floor."""

import inspect
import math

import pytest
import sacrebleu
from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import BleuStats, chen_cherry_bleu, segment_stats
from support import close, load_data, quietly

CASE_A_REF = ["the", "cat", "sat", "on", "the", "mat"]
# NLTK's documentation example (nltk/translate/bleu_score.py), first reference only
NLTK_DOC = (
    [
        (
            "It is a guide to action that ensures that the military will forever heed "
            "Party commands"
        ).split()
    ],
    (
        "It is a guide to action which ensures that the military always obeys the "
        "commands of the party"
    ).split(),
)
INPUTS = {
    "case A": ([CASE_A_REF], ["the", "cat", "ran", "to", "the", "mat"]),
    "NLTK doc": NLTK_DOC,
    "3 tokens": ([CASE_A_REF], ["the", "cat", "ran"]),
    "no match": ([CASE_A_REF], ["a", "dog", "ran"]),
}
PEER_NAMES = {1: "floor", 2: "add-k", 3: "exp"}
# SacreBLEU scores nothing matching at all 0 (methods 1 and 3 smooth the unigrams), and
# add-k keeps the orders a short hypothesis lacks at (0 + 1) / (0 + 1)
DIFFERENT = {("3 tokens", 2), ("no match", 1), ("no match", 3)}


def sacre_smoothed(refs, hyp, smooth_method):
    "SacreBLEU's sentence BLEU of token lists, with effective order, from 0 to 1."
    bleu = SacreBLEU(tokenize="none", smooth_method=smooth_method, effective_order=True)
    return bleu.sentence_score(" ".join(hyp), [" ".join(r) for r in refs]).score / 100


@pytest.mark.parametrize("name", INPUTS)
@pytest.mark.parametrize("method", PEER_NAMES)
def test_sacrebleu_smoothing_is_methods_1_to_3_but_on_short_inputs(name, method):
    refs, hyp = INPUTS[name]
    paper = quietly(chen_cherry_bleu, refs, hyp, method)
    sacre = sacre_smoothed(refs, hyp, PEER_NAMES[method])
    assert close(paper, sacre) != ((name, method) in DIFFERENT), (paper, sacre)


def test_the_differences_go_the_way_the_lesson_says():
    """On 'a dog ran' SacreBLEU gives 0 where methods 1 and 3 give a small score; on
    'the cat ran' add-k's kept 4-gram at 1/1 raises the score above method 2's."""
    no_match, short = INPUTS["no match"], INPUTS["3 tokens"]
    assert all(sacre_smoothed(*no_match, name) == 0 for name in PEER_NAMES.values())
    assert quietly(chen_cherry_bleu, *no_match, 1) > 0
    assert quietly(chen_cherry_bleu, *no_match, 3) > 0
    assert sacre_smoothed(*short, "add-k") > chen_cherry_bleu(*short, 2)


# --- case A, by hand (the lesson's prose quotes every number below)
CASE_A = ([CASE_A_REF], ["the", "cat", "ran", "to", "the", "mat"])


def case_a_steps():
    """Case A (m = (4, 2, 0, 0, 0) of l = (6, 5, 4, 3, 2), BP = 1) under each method,
    worked from its definition as the lesson's sections do, and the steps they quote."""
    f = math.log(6) / 5  # method 4's factor ln(c) / K
    m5 = [(5 + 4 + 2) / 3]  # method 5: from m_1 + 1 = 5, averaged with m_1 and m_2
    for m_n, m_next in [(2, 0), (0, 0), (0, 0)]:
        m5.append((m5[-1] + m_n + m_next) / 3)
    pi_3 = (2 / 5) ** 2 / (4 / 6)  # method 6's prior p_2^2 / p_1, then alpha = 5
    p6_3 = (0 + 5 * pi_3) / (4 + 5)
    p6_4 = (0 + 5 * p6_3**2 / (2 / 5)) / (3 + 5)
    m7 = [(5 + 4 + 2) / 3]  # method 7: method 4's counts (4, 2, f, f^2), then method 5
    for m_n, m_next in [(2, f), (f, f**2), (f**2, 0)]:
        m7.append((m7[-1] + m_n + m_next) / 3)
    scores = {
        1: (4 / 6 * 2 / 5 * 0.1 / 4 * 0.1 / 3) ** (1 / 4),
        2: (4 / 6 * 3 / 6 * 1 / 5 * 1 / 4) ** (1 / 4),
        3: (4 / 6 * 2 / 5 * 0.5 / 4 * 0.25 / 3) ** (1 / 4),
        4: (4 / 6 * 2 / 5 * f / 4 * f**2 / 3) ** (1 / 4),
        5: math.prod(count / l_n for count, l_n in zip(m5, (6, 5, 4, 3))) ** (1 / 4),
        6: (4 / 6 * 2 / 5 * p6_3 * p6_4) ** (1 / 4),
        7: math.prod(count / l_n for count, l_n in zip(m7, (6, 5, 4, 3))) ** (1 / 4),
    }
    return scores, (f, f**2, *m5, pi_3, p6_3), p6_4


def test_case_a_statistics_are_the_ones_the_lesson_quotes():
    stats = segment_stats(*CASE_A, max_order=5)
    assert stats == BleuStats(6, 6, (4, 2, 0, 0, 0), (6, 5, 4, 3, 2)), stats


def test_case_a_by_hand_is_what_the_prose_quotes():
    scores, steps, p6_4 = case_a_steps()
    quoted = [0.1221, 0.3593, 0.2296, 0.1788, 0.2245, 0.1773, 0.2716]
    assert [round(scores[m], 4) for m in range(1, 8)] == quoted
    quoted_steps = [0.358, 0.128, 3.667, 1.889, 0.63, 0.21, 0.24, 0.133]
    assert [round(x, 3) for x in steps] == quoted_steps, "methods 4 to 6, step by step"
    assert round(p6_4, 4) == 0.0278, "the prose quotes method 6's p_4 as 0.0278"


@pytest.mark.parametrize("method", range(1, 8))
def test_case_a_by_hand_is_chen_cherry_bleu_and_the_peers(method):
    by_hand = case_a_steps()[0][method]
    assert close(chen_cherry_bleu(*CASE_A, method), by_hand)
    if method in PEER_NAMES:
        smoothing = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
        assert close(
            nltk_bleu.sentence_bleu(*CASE_A, smoothing_function=smoothing), by_hand
        )
        assert close(sacre_smoothed(*CASE_A, PEER_NAMES[method]), by_hand)


@pytest.mark.parametrize("length", range(1, 9))
def test_a_copy_scores_one_under_every_method(length):
    copy = "a quick brown fox jumps over the dog".split()[:length]
    assert [chen_cherry_bleu([copy], copy, m) for m in range(1, 8)] == [1.0] * 7


# --- the Chinese blog's sigma example
def test_sacrebleu_floor_with_sigma_is_method_1_on_the_blog_s_example():
    blog = load_data("published_examples.json")["chinese_smoothing_blog_sigma"]
    refs, hyp = [blog["reference"].split()], blog["hypothesis"].split()
    floor = SacreBLEU(
        tokenize="none",
        smooth_method="floor",
        smooth_value=blog["sigma"],
        max_ngram_order=2,
        effective_order=True,
    )
    score = floor.sentence_score(" ".join(hyp), [" ".join(r) for r in refs]).score
    quoted = blog["nltk_method1_as_quoted_in_issue_13"]
    assert close(score / 100, quoted)
    method1 = nltk_bleu.SmoothingFunction(epsilon=blog["sigma"]).method1
    assert close(nltk_bleu.sentence_bleu(refs, hyp, (0.5, 0.5), method1), quoted)


# --- the defaults the lesson states
def defaults(function):
    "The defaults of a function's (or a class's) parameters."
    return {n: p.default for n, p in inspect.signature(function).parameters.items()}


def test_the_peers_defaults_are_the_ones_the_lesson_states():
    assert defaults(nltk_bleu.SmoothingFunction) == {"epsilon": 0.1, "alpha": 5, "k": 5}
    assert "numbers used in the experiments from Chen and Cherry (2014)" in " ".join(
        nltk_bleu.SmoothingFunction.__init__.__doc__.split()
    )
    assert defaults(nltk_bleu.sentence_bleu)["smoothing_function"] is None
    sacre_sentence = defaults(sacrebleu.sentence_bleu)
    assert sacre_sentence["smooth_method"] == "exp"
    assert sacre_sentence["use_effective_order"] is True
    assert SacreBLEU.SMOOTH_DEFAULTS["floor"] == 0.1
    assert SacreBLEU().smooth_method == "exp" and not SacreBLEU().effective_order
