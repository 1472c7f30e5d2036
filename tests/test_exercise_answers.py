"""Check cells that would give an exercise's answer away compare fingerprints instead
(`check_answer` in notebooks/helpers.py), so that a reader who reads the check does not
read the answer. Here each answer is derived again, from its definition, and its
fingerprint compared with the one the notebook stores: no fingerprint can drift."""

import re
import sys
from fractions import Fraction
from itertools import combinations

import nbformat
import numpy as np
import pytest
from nltk.translate import bleu_score as nltk_bleu

from support import ROOT

sys.path.insert(0, str(ROOT / "notebooks"))
from helpers import check_answer, fingerprint  # noqa: E402

CALL = re.compile(r'check_answer\(\s*"(\w+)",\s*\w+,\s*"([0-9a-f]{16})"')


def holm_significant(p_values, alpha):
    """How many p-values stay below `alpha` after Holm's correction, by its definition:
    the k-th smallest (from 0) times (m - k), made non-decreasing."""
    adjusted, running = [], 0.0
    for k, p in enumerate(sorted(p_values)):
        running = max(running, p * (len(p_values) - k))
        adjusted.append(running)
    return sum(p < alpha for p in adjusted)


def tau_a(xs, ys):
    "Kendall's tau-a by its definition: (concordant - discordant) / pairs."
    pairs = list(combinations(range(len(xs)), 2))
    sign = [(xs[j] - xs[i]) * (ys[j] - ys[i]) for i, j in pairs]
    return (sum(s > 0 for s in sign) - sum(s < 0 for s in sign)) / len(pairs)


# notebook 02, exercise 1: notes print p_1 = 5/6 for NOTES_HYP against NOTES_REF
NOTES_REF, NOTES_HYP = "The cat is on the mat".split(), "the cat sat on the mat".split()


def split_p1(refs, hyp):
    "NLTK's modified unigram precision as (clipped matches, total), not reduced."
    p = nltk_bleu.modified_precision(refs, hyp, 1)
    return p.numerator, p.denominator


def credited_by_mistake(ref, hyp):
    "The reference tokens that match a hypothesis word only once case is ignored."
    lower = {token.lower() for token in hyp}
    return [token for token in ref if token not in hyp and token.lower() in lower]


EXPECTED = {
    ("02_modified_precision", "answer_1"): split_p1([NOTES_REF], NOTES_HYP),
    ("02_modified_precision", "culprit_1"): credited_by_mistake(NOTES_REF, NOTES_HYP)[
        0
    ],
    ("10_significance", "answer_2"): holm_significant([0.01, 0.02, 0.03, 0.04], 0.05),
    ("12_what_a_score_means", "answer_1"): tau_a([1, 2, 3, 4], [1, 3, 2, 4]),
}


def stored():
    "(notebook, answer name) -> the fingerprint its check cell holds."
    found = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            for name, digest in CALL.findall(cell.source):
                found[(path.stem, name)] = digest
    return found


def test_every_fingerprint_is_the_answer_derived_again():
    assert {key: fingerprint(value) for key, value in EXPECTED.items()} == stored()


def test_the_notes_5_6_is_the_count_after_lower_casing():
    # the mistake of notebook 02's exercise 1: one token, and only a case apart
    assert credited_by_mistake(NOTES_REF, NOTES_HYP) == ["The"]
    lower = [token.lower() for token in NOTES_REF]
    assert split_p1([lower], NOTES_HYP) == (5, 6) != split_p1([NOTES_REF], NOTES_HYP)


def test_a_wrong_answer_gets_the_hint_and_the_right_one_passes():
    check_answer("answer_2", 1, fingerprint(1), "unused")
    with pytest.raises(AssertionError, match="answer_2 = 2 is not it: count again"):
        check_answer("answer_2", 2, fingerprint(1), "count again")


def test_floats_are_compared_to_four_decimals():
    assert fingerprint(0.1 + 0.2) == fingerprint(0.3) != fingerprint(0.3001)
    assert fingerprint((1, 0.5)) == fingerprint([1, 0.50000001])


def test_a_fraction_and_numpy_numbers_count_as_their_value():
    assert fingerprint(Fraction(2, 3)) == fingerprint(2 / 3)
    assert fingerprint(np.int64(1)) == fingerprint(1) != fingerprint(True)
