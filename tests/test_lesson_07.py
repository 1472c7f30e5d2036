"""Notebook 07's regression checks, moved here so that the lesson keeps one short check
per idea.

SacreBLEU's floor, add-k and exp against chen_cherry_bleu's methods 1 to 3, on the four
inputs the lesson's table once showed: equal wherever a word matches and the hypothesis
has every order, and different, as the lesson says, in exactly two ways on short inputs.
(tests/test_smoothing.py checks the same rule on random inputs.)"""

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import chen_cherry_bleu
from support import close, quietly

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
