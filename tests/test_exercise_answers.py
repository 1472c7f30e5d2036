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


EXPECTED = {
    ("09_significance", "answer_2"): holm_significant([0.01, 0.02, 0.03, 0.04], 0.05),
    ("11_what_a_score_means", "answer_1"): tau_a([1, 2, 3, 4], [1, 3, 2, 4]),
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
