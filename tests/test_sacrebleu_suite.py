"""SacreBLEU's own BLEU tests, run against bleu_lib.BLEU.

Cases transcribed from SacreBLEU's repository (mjpost/sacrebleu, test/test_bleu.py and test/test_sentence_bleu.py, 2.x):
inputs, options and the values SacreBLEU's tests pin, with SacreBLEU's tolerances (1e-8 for test_bleu.py, 1e-3 for
test_sentence_bleu.py). Every case is also compared with SacreBLEU 2.6.0 itself, which must give the identical float.
SacreBLEU's `raw_corpus_bleu(hyps, refs, v)` is BLEU(smooth_method="floor", smooth_value=v, tokenize="none",
force=True, effective_order=True).corpus_score; `sentence_bleu` from sacrebleu.compat is a BLEU.sentence_score.
"""
import warnings

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import BLEU, ZeroBleuWarning

EPSILON = 1e-8  # test_bleu.py


def raw_corpus_bleu(bleu_class, hyps, refs, smooth_value=0.1):
    metric = bleu_class(smooth_method="floor", smooth_value=smooth_value, tokenize="none", force=True, effective_order=True)
    return metric.corpus_score(hyps, refs)


def same_as_sacrebleu(ours, theirs):
    return (ours.score, ours.counts, ours.totals, ours.sys_len, ours.ref_len, str(ours)) == \
           (theirs.score, theirs.counts, theirs.totals, theirs.sys_len, theirs.ref_len, str(theirs))


RAW_CASES = [  # test_raw_bleu
    (["this is a test", "another test"], [["ref1", "ref2"]], 0.0),
    (["this is a test"], [["this is a test"]], 1.0),
    (["this is a fest"], [["this is a test"]], 0.223606797749979),
]
EFFECTIVE_ORDER_CASES = [  # test_effective_order
    (["test"], [["a test"]], 0.3678794411714425),
    (["a test"], [["a test"]], 1.0),
    (["a little test"], [["a test"]], 0.03218297948685433),
]


@pytest.mark.parametrize("hyps, refs, expected", RAW_CASES + EFFECTIVE_ORDER_CASES)
def test_raw_bleu_and_effective_order(hyps, refs, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore" if expected == 0 else "error", ZeroBleuWarning)  # a zero comes with a warning
        ours = raw_corpus_bleu(BLEU, hyps, refs, 0.01)
    assert abs(ours.score / 100 - expected) < EPSILON
    assert same_as_sacrebleu(ours, raw_corpus_bleu(SacreBLEU, hyps, refs, 0.01))


REFS = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
        ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]]
HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
CORPUS_CASES = [  # test_corpus_bleu (sacrebleu.corpus_bleu is BLEU(**kwargs).corpus_score)
    (HYPS, {}, 48.530827),
    (["", "", ""], {}, 0.0),  # empty hypotheses are not removed
    (HYPS, {"tokenize": "none"}, 49.1919566),
    (HYPS, {"tokenize": "13a"}, 48.530827),
    (HYPS, {"tokenize": "intl"}, 43.91623493),
    (HYPS, {"smooth_method": "none"}, 48.530827),
]


@pytest.mark.parametrize("hyps, options, expected", CORPUS_CASES)
def test_corpus_bleu(hyps, options, expected):
    ours = BLEU(**options).corpus_score(hyps, REFS)
    assert abs(ours.score - expected) < EPSILON
    assert same_as_sacrebleu(ours, sacrebleu.corpus_bleu(hyps, REFS, **options))


@pytest.mark.parametrize("order, expected", [(1, "77.65"), (2, "60.50"), (3, "53.93"), (4, "48.53"), (5, "46.14"), (6, "43.28")])
def test_max_ngram_order(order, expected):
    ours = BLEU(max_ngram_order=order).corpus_score(HYPS, REFS)
    assert f"{ours.score:.2f}" == expected
    assert same_as_sacrebleu(ours, SacreBLEU(max_ngram_order=order).corpus_score(HYPS, REFS))


def test_statistics():
    ours = raw_corpus_bleu(BLEU, ["am I am a character sequence"], [["I am a symbol string sequence a a"]], 0.01)
    assert (ours.counts, ours.totals) == ([4, 2, 1, 0], [6, 5, 4, 3])


def test_offset():
    hyps, refs = ["am I am a character sequence"], [["I am a symbol string sequence a a"]]
    with pytest.warns(ZeroBleuWarning, match="p_4 = 0/3"):  # floor with 0.0 leaves the 4-gram precision at 0
        assert abs(raw_corpus_bleu(BLEU, hyps, refs, 0.0).score / 100 - 0) < EPSILON
    assert abs(raw_corpus_bleu(BLEU, hyps, refs, None).score / 100 - 0.1555722182) < EPSILON
    assert abs(raw_corpus_bleu(BLEU, hyps, refs).score / 100 - 0.1555722182) < EPSILON


def test_scoring():
    assert abs(BLEU.compute_bleu([9, 7, 5, 3], [10, 8, 6, 4], 11, 11).score / 100 - 0.8375922397) < EPSILON


@pytest.mark.parametrize("correct, total, sys_len, ref_len, offset", [
    ([0, 0, 0, 0], [4, 4, 2, 1], 0, 1, 0.0), ([0, 0, 0, 0], [10, 11, 12, 0], 14, 10, 0.0),
    ([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.0), ([6, 5, 4, 0], [6, 5, 4, 3], 6, 6, 0.0),
    ([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.1), ([0, 0, 0, 0], [0, 0, 0, 0], 1, 5, 0.01)])
def test_degenerate_statistics(correct, total, sys_len, ref_len, offset):
    ours = BLEU.compute_bleu(correct, total, sys_len, ref_len, smooth_method="floor", smooth_value=offset)
    assert ours.score == 0.0
    assert ours.score == SacreBLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, "floor", offset).score


# test_sentence_bleu.py: one Romanian sentence (SacreBLEU issue #98), effective order on, tolerance 1e-3
REF = "producţia de zahăr brut se exprimă în zahăr alb;"
SYS = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
SENTENCE_CASES = [
    ("exp", None, False, "13a", 8.493), ("none", None, False, "13a", 0.0), ("floor", None, False, "13a", 4.51688),
    ("floor", 0.1, False, "13a", 4.51688), ("floor", 0.5, False, "13a", 10.10), ("add-k", None, False, "13a", 14.882),
    ("add-k", 1, False, "13a", 14.882), ("add-k", 2, False, "13a", 21.389), ("exp", None, False, "none", 7.347),
    ("exp", None, False, "intl", 8.493), ("exp", None, False, "char", 40.8759), ("exp", None, True, "char", 42.0267),
]
ZERO_CASES = [(method, value, False, "13a", 0.0) for method, value in  # SacreBLEU issue #141: nothing matches
              [("exp", None), ("none", None), ("floor", None), ("floor", 0.1), ("add-k", None), ("add-k", 1)]]


@pytest.mark.parametrize("sys_line, ref_line, case", [(SYS, REF, c) for c in SENTENCE_CASES] +
                         [("this is a cat", "okay thanks", c) for c in ZERO_CASES])
def test_sentence_bleu(sys_line, ref_line, case):
    method, value, lowercase, tokenize, expected = case
    options = dict(lowercase=lowercase, tokenize=tokenize, smooth_method=method, smooth_value=value, effective_order=True)
    if expected == 0.0:  # bleu_lib says why (SacreBLEU is silent)
        with pytest.warns(ZeroBleuWarning, match="BLEU is 0 because"):
            ours = BLEU(**options).sentence_score(sys_line, [ref_line])
    else:
        ours = BLEU(**options).sentence_score(sys_line, [ref_line])
    assert abs(ours.score - expected) < 1e-3
    assert same_as_sacrebleu(ours, SacreBLEU(**options).sentence_score(sys_line, [ref_line]))
