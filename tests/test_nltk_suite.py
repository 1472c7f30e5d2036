"""NLTK's own tests of its BLEU functions, run against bleu_lib.

Two sources, both from NLTK 3.10.4:
- the doctests in nltk/translate/bleu_score.py, executed as they are, with bleu_lib's
  functions in place of NLTK's;
- the cases of nltk/test/unit/translate/test_bleu.py (not shipped in NLTK's wheel),
  transcribed below, one test each, with NLTK's assertion and a live comparison with
  NLTK.

Where NLTK's number is its ~1e-155 artefact for an unsmoothed zero precision, NLTK's own
test asserts 0.0 to 4 places; we assert exactly 0.0 and check that NLTK's value is the
artefact (below 1e-70), and that a warning is raised."""

import doctest
import warnings

import pytest
from nltk.translate import bleu_score as nltk_bleu

import bleu_lib
from bleu_lib import (
    BleuWarning,
    brevity_penalty,
    closest_ref_length,
    corpus_bleu,
    modified_precision,
    sentence_bleu,
)
from support import quietly

# The functions under test replace NLTK's; everything else in the doctests
# (SmoothingFunction) stays NLTK's.
OURS = {
    name: getattr(bleu_lib, name)
    for name in [
        "sentence_bleu",
        "corpus_bleu",
        "modified_precision",
        "closest_ref_length",
        "brevity_penalty",
    ]
}
DOCSTRINGS = [
    "sentence_bleu",
    "corpus_bleu",
    "modified_precision",
    "brevity_penalty",
    "SmoothingFunction.__init__",
]


@pytest.mark.stage(name="sentence")
@pytest.mark.parametrize("name", DOCSTRINGS)
def test_nltk_doctests_pass_with_bleu_lib(name):
    """nltk/translate/bleu_score.py: every example in the docstring of `name`."""
    obj = nltk_bleu
    for part in name.split("."):
        obj = getattr(obj, part)
    test = doctest.DocTestParser().get_doctest(
        obj.__doc__, {**vars(nltk_bleu), **OURS}, name, None, 0
    )
    report = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = runner.run(test, out=report.append)
    assert result.attempted > 0 and result.failed == 0, "".join(report)


# --- nltk/test/unit/translate/test_bleu.py, class TestBLEU
# ---------------------------------------------------

REF1 = (
    "It is a guide to action that ensures that the military will forever heed Party "
    "commands"
).split()
REF2 = (
    "It is the guiding principle which guarantees the military forces always being "
    "under the command of the Party"
).split()
REF3 = (
    "It is the practical guide for the army always to heed the directions of the party"
).split()
HYP1 = (
    "It is a guide to action which ensures that the military always obeys the commands "
    "of the party"
).split()
HYP2 = (
    "It is to insure the troops forever hearing the activity guidebook that party "
    "direct"
).split()


def same_as_nltk(refs, hyp, n):
    ours, theirs = (
        modified_precision(refs, hyp, n),
        nltk_bleu.modified_precision(refs, hyp, n),
    )
    assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
    return float(ours)


@pytest.mark.stage(name="precision")
def test_modified_precision():
    """TestBLEU.test_modified_precision: the paper's examples (mixed case, as NLTK
    writes them)."""
    cat_refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    the7 = "the the the the the the the".split()
    assert round(same_as_nltk(cat_refs, the7, 1), 4) == 0.2857
    assert same_as_nltk(cat_refs, the7, 2) == 0.0
    refs = [REF1, REF2, REF3]
    assert same_as_nltk(refs, "of the".split(), 1) == 1.0
    assert same_as_nltk(refs, "of the".split(), 2) == 1.0
    assert round(same_as_nltk(refs, HYP1, 1), 4) == 0.9444
    assert round(same_as_nltk(refs, HYP2, 1), 4) == 0.5714
    assert round(same_as_nltk(refs, HYP1, 2), 4) == 0.5882
    assert round(same_as_nltk(refs, HYP2, 2), 4) == 0.0769


@pytest.mark.stage(name="brevity")
def test_brevity_penalty():
    """TestBLEU.test_brevity_penalty: mteval-v13a's brevity_penalty_closest cases."""
    for ref_lens, expected in [([11, 8], 0.8669), ([11, 8, 6, 7], 1.0)]:
        refs, hyp_len = [["a"] * n for n in ref_lens], 7
        r = closest_ref_length(refs, hyp_len)
        assert r == nltk_bleu.closest_ref_length(refs, hyp_len)
        assert brevity_penalty(r, hyp_len) == nltk_bleu.brevity_penalty(r, hyp_len)
        assert round(brevity_penalty(r, hyp_len), 4) == expected


def test_zero_matches():
    """TestBLEU.test_zero_matches: no n-gram in common gives 0 for BLEU-1 and BLEU-2."""
    refs, hyp = (
        ["The candidate has no alignment to any of the references".split()],
        "John loves Mary".split(),
    )
    for n in range(1, len(hyp)):
        with pytest.warns(BleuWarning, match="p_1 = 0/3"):
            assert (
                sentence_bleu(refs, hyp, (1.0 / n,) * n)
                == 0
                == quietly(nltk_bleu.sentence_bleu, refs, hyp, (1.0 / n,) * n)
            )


@pytest.mark.stage(name="sentence")
def test_full_matches():
    """TestBLEU.test_full_matches: an identical hypothesis scores 1 for BLEU-1 and
    BLEU-2."""
    refs, hyp = ["John loves Mary".split()], "John loves Mary".split()
    for n in range(1, len(hyp)):
        assert (
            sentence_bleu(refs, hyp, (1.0 / n,) * n)
            == 1.0
            == nltk_bleu.sentence_bleu(refs, hyp, (1.0 / n,) * n)
        )


def zero_with_warning(refs, hyp, *args):
    """Our score is exactly 0 with a BleuWarning, NLTK's is its sys.float_info.min
    artefact; NLTK's test wants ~0."""
    with pytest.warns(BleuWarning):
        ours = sentence_bleu(refs, hyp, *args)
    # NLTK warns too: that part of its test holds for both
    with pytest.warns(UserWarning):
        theirs = nltk_bleu.sentence_bleu(refs, hyp, *args)
    assert ours == 0.0 and 0 < theirs < 1e-70
    # NLTK's test: assertAlmostEqual(..., 0.0, places=4)
    assert round(ours, 4) == round(theirs, 4) == 0.0


def test_partial_matches_hypothesis_longer_than_reference():
    """TestBLEU.test_partial_matches_hypothesis_longer_than_reference: no 4-gram
    match."""
    zero_with_warning(
        ["John loves Mary".split()], "John loves Mary who loves Mike".split()
    )


# --- class TestBLEUFringeCases
# --------------------------------------------------------------------------------------


def test_case_where_n_is_bigger_than_hypothesis_length():
    """TestBLEUFringeCases: a hypothesis shorter than the highest order has no 4-grams:
    BLEU-4 is 0."""
    zero_with_warning(
        ["John loves Mary ?".split()], "John loves Mary".split(), (0.25,) * 4
    )
    zero_with_warning(
        ["John loves Mary".split()], "John loves Mary".split(), (0.25,) * 4
    )


def test_empty_hypothesis():
    """TestBLEUFringeCases.test_empty_hypothesis."""
    refs = ["The candidate has no alignment to any of the references".split()]
    with pytest.warns(BleuWarning, match="has 0 tokens"):
        assert sentence_bleu(refs, []) == 0 == nltk_bleu.sentence_bleu(refs, [])


def test_length_one_hypothesis():
    """TestBLEUFringeCases.test_length_one_hypothesis: NLTK's method4 with a one-token
    hypothesis does not crash."""
    refs = ["The candidate has no alignment to any of the references".split()]
    method4 = nltk_bleu.SmoothingFunction().method4
    assert (
        sentence_bleu(refs, ["Foo"], smoothing_function=method4)
        == 0
        == nltk_bleu.sentence_bleu(refs, ["Foo"], smoothing_function=method4)
    )


def test_empty_references():
    """TestBLEUFringeCases.test_empty_references."""
    with pytest.warns(BleuWarning):
        assert (
            sentence_bleu([[]], "John loves Mary".split())
            == 0
            == nltk_bleu.sentence_bleu([[]], "John loves Mary".split())
        )


def test_empty_references_and_hypothesis():
    """TestBLEUFringeCases.test_empty_references_and_hypothesis."""
    with pytest.warns(BleuWarning):
        assert sentence_bleu([[]], []) == 0 == nltk_bleu.sentence_bleu([[]], [])


def test_reference_or_hypothesis_shorter_than_fourgrams():
    """TestBLEUFringeCases.test_reference_or_hypothesis_shorter_than_fourgrams."""
    zero_with_warning(["let it go".split()], "let go it".split())


# --- classes TestBLEUWithBadSentence and TestBLEUWithMultipleWeights
# ------------------------------------------ (TestBLEUvsMteval13a needs NLTK's
# wmt15_eval data package, which we may not ship or download; its comparison with
# mteval-v13a is covered by the SacreBLEU-compatible tests, whose 13a tokenizer and exp
# smoothing are mteval's.)


def test_corpus_bleu_with_bad_sentence():
    """TestBLEUWithBadSentence: a garbled hypothesis with no bigram match scores ~0 with
    a warning."""
    hyp = (
        "Teo S yb , oe uNb , R , T t , , t Tue Ar saln S , , 5istsi l , 5oe R ulO sae "
        "oR R"
    )
    ref = (
        "Their tasks include changing a pump on the faulty stokehold .Likewise , two "
        "species that are very similar in morphology were distinguished using genetics "
        "."
    )
    with pytest.warns(BleuWarning, match="p_2 = 0/"):
        ours = corpus_bleu([[ref.split()]], [hyp.split()])
    theirs = quietly(nltk_bleu.corpus_bleu, [[ref.split()]], [hyp.split()])
    assert (
        ours == 0.0 and 0 < theirs < 1e-70 and round(ours, 4) == round(theirs, 4) == 0.0
    )


def test_corpus_bleu_with_multiple_weights():
    """TestBLEUWithMultipleWeights: a list of weight sets gives the same scores as one
    call per set."""
    refs = [
        [REF1, REF2, REF3],
        ["he was interested in world history because he read the book".split()],
    ]
    hyps = [HYP1, "he read the book because he was interested in world history".split()]
    weight_sets = [(1, 0, 0, 0), (0.25, 0.25, 0.25, 0.25), (0, 0, 0, 0, 1)]
    scores = corpus_bleu(refs, hyps, weights=weight_sets)
    assert scores == [corpus_bleu(refs, hyps, w) for w in weight_sets]
    assert scores == nltk_bleu.corpus_bleu(refs, hyps, weights=weight_sets)


def test_precision_behaves_like_a_fraction_with_raw_counts():
    """bleu_lib's replacement for NLTK's private Fraction(_normalize=False): raw counts,
    Fraction's values."""
    import copy
    import pickle
    from fractions import Fraction

    from bleu_lib import Precision

    p = Precision(2, 4)
    assert (p.numerator, p.denominator, repr(p), str(p), f"{p}") == (
        2,
        4,
        "Precision(2, 4)",
        "2/4",
        "2/4",
    )
    assert (
        p == Fraction(1, 2) == p
        and p == 0.5
        and 0.5 == p
        and p != 0.25
        and 0 < p < 0.75
        and float(p) == 0.5
    )
    # comparing with floats must not break (Python 3.12)
    assert [p, 0.125] != [Precision(2, 4), Precision(0, 4)]
    assert (
        type(Precision.from_float(0.5)) is Fraction and Precision.from_float(0.5) == p
    )
    assert (
        repr(pickle.loads(pickle.dumps(p)))
        == repr(copy.deepcopy(p))
        == "Precision(2, 4)"
    )
    with pytest.raises(ValueError, match="at least one n-gram"):
        Precision(0, 0)


def test_auto_reweigh_also_for_uniform_weights_given_as_a_list():
    """The one deliberate difference in auto_reweigh: NLTK compares the weights with a
    tuple, we with their values."""
    refs, hyp = [["John", "loves", "Mary"]], ["John", "loves", "Mary"]
    assert (
        sentence_bleu(refs, hyp, (0.25,) * 4, auto_reweigh=True)
        == 1.0
        == quietly(nltk_bleu.sentence_bleu, refs, hyp, (0.25,) * 4, auto_reweigh=True)
    )
    assert sentence_bleu(refs, hyp, [0.25] * 4, auto_reweigh=True) == 1.0
    # not re-weighed by NLTK
    assert (
        quietly(nltk_bleu.sentence_bleu, refs, hyp, [0.25] * 4, auto_reweigh=True)
        < 1e-70
    )
