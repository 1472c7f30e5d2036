"""Bad input gets a clear TypeError or ValueError that names the problem and the fix, or a defined result.

Each row: the call, the exception, and words the message must contain. No row may crash with an unrelated
exception (ZeroDivisionError, IndexError, KeyError...), return NaN, or modify its arguments.
"""
import copy
import math
import warnings

import pytest
from hypothesis import given, strategies as st
from nltk.translate.bleu_score import SmoothingFunction

from bleu_lib import brevity_penalty, closest_ref_length, modified_precision, sentence_bleu

REFS = [["the", "cat", "is", "on", "the", "mat"]]
HYP = ["the", "cat", "sat", "on", "the", "mat"]

BAD = [
    # (what is wrong, the call, expected exception, words the message must contain)
    ("hypothesis as a string", lambda: sentence_bleu(REFS, "the cat sat"), TypeError, "hypothesis.split()"),
    ("hypothesis as bytes", lambda: sentence_bleu(REFS, b"the cat"), TypeError, "list of strings"),
    ("references as a string", lambda: sentence_bleu("the cat is on the mat", HYP), TypeError, "[reference.split()]"),
    ("a reference as a string", lambda: sentence_bleu(["the cat is on the mat", REFS[0]], HYP), TypeError, "references[0]"),
    ("one reference not wrapped", lambda: sentence_bleu(REFS[0], HYP), TypeError, "wrap it as [reference]"),
    ("references one level too deep", lambda: sentence_bleu([REFS], HYP), TypeError, "one level too deep"),
    ("no references", lambda: sentence_bleu([], HYP), ValueError, "at least one reference"),
    ("hypothesis nested", lambda: sentence_bleu(REFS, [HYP]), TypeError, "one flat list of words"),
    ("integer token ids", lambda: sentence_bleu(REFS, [1, 2, 3]), TypeError, "decode integer ids"),
    ("None as a token", lambda: sentence_bleu(REFS, ["the", None]), TypeError, "hypothesis[1]"),
    ("None as a reference", lambda: sentence_bleu([REFS[0], None], HYP), TypeError, "references[1]"),
    ("a set of tokens", lambda: sentence_bleu(REFS, set(HYP)), TypeError, "list or tuple"),
    ("references not iterable", lambda: sentence_bleu(5, HYP), TypeError, "list of token lists"),
    ("empty weights", lambda: sentence_bleu(REFS, HYP, ()), ValueError, "weights is empty"),
    ("non-numeric weight", lambda: sentence_bleu(REFS, HYP, (0.5, "0.5")), TypeError, "weights must be numbers"),
    ("None as a weight", lambda: sentence_bleu(REFS, HYP, (0.5, None)), TypeError, "weights[1]"),
    ("weights as a string", lambda: sentence_bleu(REFS, HYP, "0.25"), TypeError, "tuple of numbers"),
    ("negative weight", lambda: sentence_bleu(REFS, HYP, (1.5, -0.5)), ValueError, "at least 0"),
    ("NaN weight", lambda: sentence_bleu(REFS, HYP, (0.5, math.nan, 0.5)), ValueError, "finite"),
    ("infinite weight", lambda: sentence_bleu(REFS, HYP, (math.inf, 0.5)), ValueError, "finite"),
    ("weights not summing to 1", lambda: sentence_bleu(REFS, HYP, (0.33, 0.33, 0.33)), ValueError, "sum to 0.99"),
    ("one bad set among several", lambda: sentence_bleu(REFS, HYP, [(0.5, 0.5), ()]), ValueError, "weights[1] is empty"),
    ("SmoothingFunction instead of a method", lambda: sentence_bleu(REFS, HYP, smoothing_function=SmoothingFunction()),
     TypeError, "pass a method"),
    ("n-gram order 0", lambda: modified_precision(REFS, HYP, 0), ValueError, "at least 1"),
    ("n-gram order as a float", lambda: modified_precision(REFS, HYP, 2.0), TypeError, "must be an int"),
    ("negative hypothesis length", lambda: closest_ref_length(REFS, -1), ValueError, "hyp_len must be at least 0"),
    ("length as a float", lambda: brevity_penalty(12.5, 10), TypeError, "closest_ref_len must be an int"),
    ("length as a string", lambda: brevity_penalty(12, "10"), TypeError, "hyp_len must be an int"),
]


@pytest.mark.parametrize("what, call, exception, words", BAD, ids=[row[0] for row in BAD])
def test_bad_input_gets_a_clear_error(what, call, exception, words):
    with pytest.raises(exception) as error:
        call()
    assert type(error.value) is exception and words in str(error.value)


DEFINED = [
    # (what is unusual, the call, the defined result): the paper's limit, as NLTK and SacreBLEU give it
    ("empty hypothesis", lambda: sentence_bleu(REFS, []), 0.0),
    ("empty reference", lambda: sentence_bleu([[]], HYP), 0.0),
    ("both empty", lambda: sentence_bleu([[]], []), 0.0),
    ("hypothesis shorter than n", lambda: sentence_bleu(REFS, ["the", "cat"]), 0.0),
    ("BP of an empty hypothesis", lambda: brevity_penalty(6, 0), 0.0),
    ("p_2 of a one-token hypothesis", lambda: float(modified_precision(REFS, ["the"], 2)), 0.0),
]


@pytest.mark.parametrize("what, call, expected", DEFINED, ids=[row[0] for row in DEFINED])
def test_degenerate_input_gets_a_defined_result(what, call, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert call() == expected


tokens = st.lists(st.sampled_from(["a", "b", "c"]), max_size=8)


@given(st.lists(tokens, min_size=1, max_size=3), tokens, st.sampled_from([None, 1, 2, 3, 4, 5, 7]))
def test_arguments_are_never_modified_and_scores_are_finite(refs, hyp, method):
    """Including with NLTK's smoothing methods 3, 4, 5 and 7, which modify the list they are given."""
    smoothing = None if method is None else getattr(SmoothingFunction(), f"method{method}")
    before = copy.deepcopy((refs, hyp))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        score = sentence_bleu(refs, hyp, smoothing_function=smoothing)
    assert (refs, hyp) == before
    assert math.isfinite(score) and score >= 0
