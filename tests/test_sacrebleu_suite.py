"""SacreBLEU's own BLEU tests, with `bleu_lib.sacrebleu` substituted for `sacrebleu`.

Transcribed from SacreBLEU's repository (mjpost/sacrebleu, 2.x): test/test_bleu.py (27
cases) and test/test_sentence_bleu.py (30 cases). Each test below makes the call
SacreBLEU's test makes, in the same words (`sacrebleu.raw_corpus_bleu`,
`sacrebleu.corpus_bleu`, `sacrebleu.compat.sentence_bleu`, `sacrebleu.metrics.BLEU`,
`BLEU.compute_bleu`), with `sacrebleu` bound to bleu_lib's drop-in module, and checks
the value SacreBLEU's test pins with SacreBLEU's tolerance (1e-8 for test_bleu.py, 1e-3
for test_sentence_bleu.py). Each call is also made with SacreBLEU 2.6.0 itself, which
must give the identical float and the identical printed line."""

import warnings
from collections import namedtuple

import pytest
import sacrebleu as real_sacrebleu

import bleu_lib.sacrebleu as sacrebleu
from bleu_lib import ZeroBleuWarning

# test_bleu.py: from sacrebleu.metrics import BLEU
from bleu_lib.sacrebleu.metrics import BLEU

EPSILON = 1e-8  # test_bleu.py
Statistics = namedtuple("Statistics", ["common", "total"])


def identical(ours, theirs):
    "The same float, counts and printed line as SacreBLEU 2.6.0."
    return (
        ours.score,
        ours.counts,
        ours.totals,
        ours.sys_len,
        ours.ref_len,
        str(ours),
    ) == (
        theirs.score,
        theirs.counts,
        theirs.totals,
        theirs.sys_len,
        theirs.ref_len,
        str(theirs),
    )


def quietly(call, module):
    """The result of call(module); our zero-score warnings are not what these tests look
    at."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call(module)


def both(call):
    """call(bleu_lib.sacrebleu), after checking that call(sacrebleu) gives the identical
    result."""
    ours, theirs = quietly(call, sacrebleu), quietly(call, real_sacrebleu)
    assert identical(ours, theirs)
    return ours


# --- test/test_bleu.py
# --------------------------------------------------------------------------------------

test_raw_bleu_cases = [
    # SacreBLEU issue #141: now 0.0
    (["this is a test", "another test"], [["ref1", "ref2"]], 0.0),
    (["this is a test"], [["this is a test"]], 1.0),
    (["this is a fest"], [["this is a test"]], 0.223606797749979),
]
_refs = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    [
        "The dog had bit the man.",
        "No one was surprised.",
        "The man had bitten the dog.",
    ],
]
_hyps = [
    "The dog bit the man.",
    "It wasn't surprising.",
    "The man had just bitten him.",
]
test_corpus_bleu_cases = [
    (_hyps, _refs, {}, 48.530827),  # default BLEU settings
    (("", "", ""), _refs, {}, 0.0),  # empty hypotheses are not removed
    (_hyps, _refs, {"tokenize": "none"}, 49.1919566),
    (_hyps, _refs, {"tokenize": "13a"}, 48.530827),
    (_hyps, _refs, {"tokenize": "intl"}, 43.91623493),
    (_hyps, _refs, {"smooth_method": "none"}, 48.530827),
]
test_case_offset = [
    (
        ["am I am a character sequence"],
        [["I am a symbol string sequence a a"]],
        0.1555722182,
        0,
    )
]
test_case_statistics = [
    (
        ["am I am a character sequence"],
        [["I am a symbol string sequence a a"]],
        Statistics([4, 2, 1, 0], [6, 5, 4, 3]),
    )
]
test_case_scoring = [((Statistics([9, 7, 5, 3], [10, 8, 6, 4]), 11, 11), 0.8375922397)]
test_case_effective_order = [
    (["test"], [["a test"]], 0.3678794411714425),
    (["a test"], [["a test"]], 1.0),
    (["a little test"], [["a test"]], 0.03218297948685433),
]
test_case_degenerate_stats = [
    ((Statistics([0, 0, 0, 0], [4, 4, 2, 1]), 0, 1), 0.0, 0.0),
    ((Statistics([0, 0, 0, 0], [10, 11, 12, 0]), 14, 10), 0.0, 0.0),
    ((Statistics([0, 0, 0, 0], [0, 0, 0, 0]), 0, 0), 0.0, 0.0),
    ((Statistics([6, 5, 4, 0], [6, 5, 4, 3]), 6, 6), 0.0, 0.0),
    ((Statistics([0, 0, 0, 0], [0, 0, 0, 0]), 0, 0), 0.1, 0.0),
    ((Statistics([0, 0, 0, 0], [0, 0, 0, 0]), 1, 5), 0.01, 0.0),
]
test_bleu_max_order = [
    (order, _hyps, _refs, pinned)
    for order, pinned in [
        (1, "77.65"),
        (2, "60.50"),
        (3, "53.93"),
        (4, "48.53"),
        (5, "46.14"),
        (6, "43.28"),
    ]
]


@pytest.mark.parametrize("hypotheses, references, expected_bleu", test_raw_bleu_cases)
def test_raw_bleu(hypotheses, references, expected_bleu):
    bleu = both(lambda s: s.raw_corpus_bleu(hypotheses, references, 0.01)).score / 100
    assert abs(bleu - expected_bleu) < EPSILON


@pytest.mark.parametrize(
    "hypotheses, references, kwargs, expected_bleu", test_corpus_bleu_cases
)
def test_corpus_bleu(hypotheses, references, kwargs, expected_bleu):
    bleu = both(lambda s: s.corpus_bleu(hypotheses, references, **kwargs)).score
    assert abs(bleu - expected_bleu) < EPSILON


@pytest.mark.parametrize(
    "hypotheses, references, expected_bleu", test_case_effective_order
)
def test_effective_order(hypotheses, references, expected_bleu):
    bleu = both(lambda s: s.raw_corpus_bleu(hypotheses, references, 0.01)).score / 100
    assert abs(bleu - expected_bleu) < EPSILON


@pytest.mark.parametrize("hypothesis, reference, expected_stat", test_case_statistics)
def test_statistics(hypothesis, reference, expected_stat):
    result = both(lambda s: s.raw_corpus_bleu(hypothesis, reference, 0.01))
    assert Statistics(result.counts, result.totals) == expected_stat


@pytest.mark.parametrize("statistics, expected_score", test_case_scoring)
def test_scoring(statistics, expected_score):
    score = (
        BLEU.compute_bleu(
            statistics[0].common, statistics[0].total, statistics[1], statistics[2]
        ).score
        / 100
    )
    assert abs(score - expected_score) < EPSILON
    assert identical(
        BLEU.compute_bleu(
            statistics[0].common, statistics[0].total, statistics[1], statistics[2]
        ),
        real_sacrebleu.BLEU.compute_bleu(
            statistics[0].common, statistics[0].total, statistics[1], statistics[2]
        ),
    )


@pytest.mark.parametrize(
    "hypothesis, reference, expected_with_offset, expected_without_offset",
    test_case_offset,
)
def test_offset(hypothesis, reference, expected_with_offset, expected_without_offset):
    score_without_offset = (
        both(lambda s: s.raw_corpus_bleu(hypothesis, reference, 0.0)).score / 100
    )
    assert abs(expected_without_offset - score_without_offset) < EPSILON
    # let it use BLEU's internal default of 0.1 through passing `None`
    score_with_offset = (
        both(lambda s: s.raw_corpus_bleu(hypothesis, reference, None)).score / 100
    )
    assert abs(expected_with_offset - score_with_offset) < EPSILON
    # let it use BLEU's internal default of 0.1
    score_with_offset = (
        both(lambda s: s.raw_corpus_bleu(hypothesis, reference)).score / 100
    )
    assert abs(expected_with_offset - score_with_offset) < EPSILON


@pytest.mark.parametrize(
    "statistics, offset, expected_score", test_case_degenerate_stats
)
def test_degenerate_statistics(statistics, offset, expected_score):
    args = (statistics[0].common, statistics[0].total, statistics[1], statistics[2])
    score = (
        BLEU.compute_bleu(*args, smooth_method="floor", smooth_value=offset).score / 100
    )
    assert score == expected_score
    assert identical(
        BLEU.compute_bleu(*args, smooth_method="floor", smooth_value=offset),
        real_sacrebleu.BLEU.compute_bleu(
            *map(list, args[:2]), *args[2:], smooth_method="floor", smooth_value=offset
        ),
    )


@pytest.mark.parametrize("order, hyps, refs, expected_bleu", test_bleu_max_order)
def test_max_ngram_order(order, hyps, refs, expected_bleu):
    bleu = both(
        lambda s: s.metrics.BLEU(max_ngram_order=order).corpus_score(hyps, refs)
    )
    assert f"{bleu.score:.2f}" == expected_bleu


# --- test/test_sentence_bleu.py (example from SacreBLEU issue #98, and #141 for the
# zeros) ------------------------

REF = "producţia de zahăr brut se exprimă în zahăr alb;"
SYS = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
test_cases = [
    ("exp", None, False, "13a", 8.493),
    ("none", None, False, "13a", 0.0),
    ("floor", None, False, "13a", 4.51688),
    ("floor", 0.1, False, "13a", 4.51688),
    ("floor", 0.5, False, "13a", 10.10),
    ("add-k", None, False, "13a", 14.882),
    ("add-k", 1, False, "13a", 14.882),
    ("add-k", 2, False, "13a", 21.389),
    ("exp", None, False, "none", 7.347),
    ("exp", None, False, "intl", 8.493),
    ("exp", None, False, "char", 40.8759),
    ("exp", None, True, "char", 42.0267),
]
REF_0, SYS_0 = "okay thanks", "this is a cat"
test_cases_zero_bleu = [
    ("exp", None, False, "13a", 0.0),
    ("none", None, False, "13a", 0.0),
    ("floor", None, False, "13a", 0.0),
    ("floor", 0.1, False, "13a", 0.0),
    ("add-k", None, False, "13a", 0.0),
    ("add-k", 1, False, "13a", 0.0),
]


@pytest.mark.parametrize(
    "smooth_method, smooth_value, lowercase, tok, expected_score", test_cases
)
def test_compat_sentence_bleu(
    smooth_method, smooth_value, lowercase, tok, expected_score
):
    score = both(
        lambda s: s.compat.sentence_bleu(
            SYS,
            [REF],
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            tokenize=tok,
            lowercase=lowercase,
            use_effective_order=True,
        )
    )
    assert abs(score.score - expected_score) < 1e-3


@pytest.mark.parametrize(
    "smooth_method, smooth_value, lowercase, tok, expected_score", test_cases
)
def test_api_sentence_bleu(smooth_method, smooth_value, lowercase, tok, expected_score):
    score = both(
        lambda s: s.metrics.BLEU(
            lowercase=lowercase,
            force=False,
            tokenize=tok,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            effective_order=True,
        ).sentence_score(SYS, [REF])
    )
    assert abs(score.score - expected_score) < 1e-3


@pytest.mark.parametrize(
    "smooth_method, smooth_value, lowercase, tok, expected_score", test_cases_zero_bleu
)
def test_api_sentence_bleu_zero(
    smooth_method, smooth_value, lowercase, tok, expected_score
):
    metric = sacrebleu.metrics.BLEU(
        lowercase=lowercase,
        force=False,
        tokenize=tok,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=True,
    )
    # SacreBLEU is silent; ours says why
    with pytest.warns(ZeroBleuWarning, match="BLEU is 0 because"):
        score = metric.sentence_score(SYS_0, [REF_0])
    assert abs(score.score - expected_score) < 1e-3
    assert identical(
        score,
        real_sacrebleu.metrics.BLEU(
            lowercase=lowercase,
            force=False,
            tokenize=tok,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            effective_order=True,
        ).sentence_score(SYS_0, [REF_0]),
    )


# --- the rest of SacreBLEU's interface that scripts use
# ------------------------------------------------------------


def test_the_namespace_is_sacrebleus_for_bleu():
    assert sacrebleu.__version__ == real_sacrebleu.__version__ == "2.6.0"
    assert (
        sacrebleu.BLEU is sacrebleu.metrics.BLEU is BLEU
        and sacrebleu.compat.corpus_bleu is sacrebleu.corpus_bleu
    )
    assert identical(
        both(lambda s: s.sentence_bleu(SYS, [REF])),
        real_sacrebleu.sentence_bleu(SYS, [REF]),
    )
    metric = sacrebleu.BLEU(tokenize="intl")
    metric.corpus_score(_hyps, _refs)
    assert (
        str(metric.get_signature())
        == "nrefs:2|case:mixed|eff:no|tok:intl|smooth:exp|version:2.6.0"
    )


def test_what_is_not_bleu_says_so():
    for name in ["CHRF", "TER", "corpus_chrf", "DATASETS"]:
        assert hasattr(real_sacrebleu, name)
        with pytest.raises(AttributeError, match=f"SacreBLEU's BLEU only, not {name}"):
            getattr(sacrebleu, name)
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        sacrebleu.nothing  # noqa: B018
