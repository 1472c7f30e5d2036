"""bleu_lib.agreement: Pearson's r and Kendall's tau, against the standard library and
the definitions.

Case tables name where each case comes from; property tests (hypothesis) compare with
`statistics.correlation` (Python 3.10+) for Pearson and with a pair-by-pair count
written from Kendall (1938, 1945) for tau. scipy is not a dependency of this project, so
the reference values of the tables were worked out by hand from the definitions."""

import math
import statistics
from itertools import combinations

import pytest
from hypothesis import assume, given, strategies as st

from bleu_lib.agreement import (
    PairCounts,
    grouped_kendall_tau,
    kendall_tau,
    pair_counts,
    pearson,
    tau_from_counts,
)

# Rounded to 6 decimals: statistics.correlation, the reference, underflows on tiny
# values such as 5e-324 and calls them constant (test_pearson_of_tiny_values covers
# those); scores of BLEU and MQM are far from that.
scores = st.floats(
    min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False
).map(lambda x: round(x, 6))
few_values = st.integers(min_value=0, max_value=4)  # many ties, as MQM has


def brute_force(xs, ys):
    "(C, D, T_x, T_y, T_xy) by the definition: every pair i < j, in plain Python."
    counts = [0, 0, 0, 0, 0]
    for (x1, y1), (x2, y2) in combinations(zip(xs, ys), 2):
        if x1 == x2 and y1 == y2:
            counts[4] += 1
        elif x1 == x2:
            counts[2] += 1
        elif y1 == y2:
            counts[3] += 1
        else:
            counts[0 if (x1 < x2) == (y1 < y2) else 1] += 1
    return tuple(counts)


def tau_by_definition(xs, ys, variant):
    c, d, tx, ty, txy = brute_force(xs, ys)
    return {
        "a": (c - d) / (c + d + tx + ty + txy),
        "b": (c - d) / math.sqrt((c + d + tx) * (c + d + ty)),
        "like": (c - d) / (c + d),
    }[variant]


PEARSON_CASES = [
    # (xs, ys, r, provenance)
    (
        [1, 2, 3],
        [1, 3, 2],
        0.5,
        "notebook 12, worked by hand: products sum to 1, squares to 2 and 2",
    ),
    ([1, 2, 3, 4], [2, 4, 6, 8], 1.0, "a straight line with positive slope"),
    ([1, 2, 3, 4], [8, 6, 4, 2], -1.0, "a straight line with negative slope"),
    (
        [1, 2, 3, 4, 5],
        [2, 1, 4, 3, 5],
        0.8,
        "deviations (-2..2) and (-1,-2,1,0,2): products 8, squares 10 and 10",
    ),
    (
        [0, 1, 0, 1],
        [0, 0, 1, 1],
        0.0,
        "the four corners of a square: no linear relation",
    ),
]

KENDALL_CASES = [
    # (xs, ys, variant, tau, provenance)
    (
        [10, 20, 30, 40],
        [-5, -1, -1, 0],
        "a",
        5 / 6,
        "notebook 12 by hand: 5 concordant, 1 tied in MQM only",
    ),
    (
        [10, 20, 30, 40],
        [-5, -1, -1, 0],
        "b",
        5 / math.sqrt(30),
        "the same: (5 - 0) / sqrt(6 * 5)",
    ),
    (
        [10, 20, 30, 40],
        [-5, -1, -1, 0],
        "like",
        1.0,
        "the same, the tied pair left out",
    ),
    ([1, 2, 3, 4], [1, 3, 2, 4], "a", 4 / 6, "notebook 12, exercise 1: C = 5, D = 1"),
    ([1, 2, 3], [3, 2, 1], "b", -1.0, "exactly reversed order"),
    (
        [1, 1, 2, 2],
        [1, 2, 1, 2],
        "b",
        0.0,
        "C = D = 0 among the untied pairs: independent orders",
    ),
    (
        [1, 1, 2],
        [1, 2, 2],
        "a",
        1 / 3,
        "one pair tied in x only, one in y only, one concordant",
    ),
    ([1, 1, 2], [1, 2, 2], "b", 0.5, "(1 - 0) / sqrt((1 + 1) * (1 + 1))"),
]


@pytest.mark.parametrize(
    "xs, ys, expected, provenance",
    PEARSON_CASES,
    ids=[c[3][:40] for c in PEARSON_CASES],
)
def test_pearson_cases(xs, ys, expected, provenance):
    assert math.isclose(pearson(xs, ys), expected, rel_tol=1e-12, abs_tol=1e-15)


@pytest.mark.parametrize(
    "xs, ys, variant, expected, provenance",
    KENDALL_CASES,
    ids=[c[4][:40] for c in KENDALL_CASES],
)
def test_kendall_cases(xs, ys, variant, expected, provenance):
    assert math.isclose(
        kendall_tau(xs, ys, variant), expected, rel_tol=1e-12, abs_tol=1e-15
    )


@pytest.mark.stage(name="agreement")
@given(st.lists(st.tuples(scores, scores), min_size=2, max_size=30))
def test_pearson_matches_statistics_correlation(pairs):
    """Hidden test of the classroom's agreement stage: r equals Python's
    statistics.correlation, stays in [-1, 1], is symmetric."""
    xs, ys = [x for x, _ in pairs], [y for _, y in pairs]
    assume(len(set(xs)) > 1 and len(set(ys)) > 1)
    expected = statistics.correlation(xs, ys)
    assert math.isclose(pearson(xs, ys), expected, rel_tol=1e-9, abs_tol=1e-9), (
        pearson(xs, ys),
        expected,
    )
    assert -1.0 <= pearson(xs, ys) <= 1.0
    assert pearson(xs, ys) == pearson(ys, xs)


def test_pearson_of_tiny_values():
    """Where statistics.correlation underflows and says 'constant', scaling first keeps
    r exact: two points make a line."""
    with pytest.raises(statistics.StatisticsError):
        statistics.correlation([0.0, 1.0], [0.0, 5e-324])
    assert (
        pearson([0.0, 1.0], [0.0, 5e-324]) == 1.0
        and pearson([0.0, 1.0], [2.2250738585072014e-308, 0.0]) == -1.0
    )


@pytest.mark.stage(name="agreement")
@given(
    st.lists(st.tuples(few_values, few_values), min_size=2, max_size=25),
    st.sampled_from(["a", "b", "like"]),
)
def test_kendall_tau_matches_brute_force_pair_count(pairs, variant):
    """Hidden test of the classroom's agreement stage: the pair counts, and every
    variant of tau, from the definition."""
    xs, ys = [x for x, _ in pairs], [y for _, y in pairs]
    assert tuple(pair_counts(xs, ys)) == brute_force(xs, ys)
    assume(len(set(xs)) > 1 and len(set(ys)) > 1 and brute_force(xs, ys)[:2] != (0, 0))
    assert math.isclose(
        kendall_tau(xs, ys, variant),
        tau_by_definition(xs, ys, variant),
        rel_tol=1e-12,
        abs_tol=1e-15,
    )


@given(
    st.lists(st.tuples(scores, scores), min_size=2, max_size=20),
    st.sampled_from(["a", "b", "like"]),
)
def test_kendall_is_symmetric_in_range_and_flips_sign(pairs, variant):
    xs, ys = [x for x, _ in pairs], [y for _, y in pairs]
    assume(len(set(xs)) > 1 and len(set(ys)) > 1 and brute_force(xs, ys)[:2] != (0, 0))
    tau = kendall_tau(xs, ys, variant)
    assert -1.0 <= tau <= 1.0
    assert tau == kendall_tau(ys, xs, variant)
    assert kendall_tau([-x for x in xs], ys, variant) == -tau


@given(
    st.lists(
        st.tuples(
            st.floats(0.001, 100), st.integers(-250, 0).map(lambda tenths: tenths / 10)
        ),
        min_size=2,
        max_size=20,
    )
)
def test_kendall_is_invariant_under_monotone_transforms_and_pearson_under_linear_ones(
    pairs,
):
    xs, ys = [x for x, _ in pairs], [y for _, y in pairs]
    assume(len(set(xs)) > 1 and len(set(ys)) > 1 and brute_force(xs, ys)[:2] != (0, 0))
    # log, cube and exp keep the order of positive numbers; distinct values stay
    # distinct at these sizes
    assume(len({math.log(x) for x in xs}) == len(set(xs)) == len({x**3 for x in xs}))
    assert kendall_tau([math.log(x) for x in xs], ys) == kendall_tau(xs, ys)
    assert kendall_tau([x**3 for x in xs], [math.exp(y) for y in ys]) == kendall_tau(
        xs, ys
    )
    assume(len({3 * x + 7 for x in xs}) == len(set(xs)))
    assert math.isclose(
        pearson([3 * x + 7 for x in xs], ys),
        pearson(xs, ys),
        rel_tol=1e-9,
        abs_tol=1e-9,
    )


def test_grouped_kendall_counts_pairs_within_groups_only():
    # two groups of two: within each, one concordant pair; across groups the order is
    # reversed, and ignored
    xs, ys, groups = [1, 2, 10, 11], [10, 11, 1, 2], ["s1", "s1", "s2", "s2"]
    assert grouped_kendall_tau(xs, ys, groups) == 1.0
    assert kendall_tau(xs, ys, "like") < 0
    # one group: all pairs
    assert grouped_kendall_tau(xs, ys, [7, 7, 7, 7], "b") == kendall_tau(xs, ys, "b")


def test_tau_from_counts_variants():
    counts = PairCounts(concordant=5, discordant=1, ties_x=2, ties_y=0, ties_both=2)
    assert tau_from_counts(counts, "a") == 4 / 10
    assert tau_from_counts(counts, "b") == 4 / math.sqrt(8 * 6)
    assert tau_from_counts(counts, "like") == 4 / 6


BAD_INPUT = [
    # (function, arguments, exception, words of the message)
    (pearson, ([1, 2, 3], [1, 2]), ValueError, "xs has 3 scores but ys has 2"),
    (kendall_tau, ([1, 2, 3], [1, 2]), ValueError, "xs has 3 scores but ys has 2"),
    (pearson, ([1], [2]), ValueError, "at least 2 items"),
    (kendall_tau, ([], []), ValueError, "at least 2 items"),
    (pearson, ([2, 2, 2], [1, 2, 3]), ValueError, "every score in xs is 2"),
    (pearson, ([1, 2, 3], [0.5, 0.5, 0.5]), ValueError, "every score in ys is 0.5"),
    (
        kendall_tau,
        ([1, 2, 3], [4, 4, 4]),
        ValueError,
        "a correlation with a constant is undefined",
    ),
    # within each group every pair is tied on one side (C + D = 0); a non-constant list
    # never does that as a whole
    (
        grouped_kendall_tau,
        ([1, 2, 1, 1], [5, 5, 1, 2], ["a", "a", "b", "b"], "like"),
        ValueError,
        "no pair is ordered by both",
    ),
    (kendall_tau, ([1, 2], [1, 2], "c"), ValueError, "variant='c' is not one of"),
    (pearson, ([1, float("nan")], [1, 2]), ValueError, "NaN or an infinity"),
    (kendall_tau, ([1, 2], [1, float("inf")]), ValueError, "NaN or an infinity"),
    (pearson, ([[1, 2], [3, 4]], [1, 2]), ValueError, "flat list"),
    (pearson, (["a", "b"], [1, 2]), TypeError, "xs must be a list of numbers"),
    (pearson, (None, [1, 2]), TypeError, "xs must be a list of numbers"),
    (kendall_tau, ([1, 2], 3), TypeError, "ys must be a list of numbers"),
    (
        grouped_kendall_tau,
        ([1, 2, 3], [1, 2, 3], ["a"]),
        ValueError,
        "groups has 1 labels but there are 3 items",
    ),
]


@pytest.mark.parametrize(
    "function, arguments, error, words", BAD_INPUT, ids=[case[3] for case in BAD_INPUT]
)
def test_bad_input_is_refused_with_a_clear_error(function, arguments, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(").replace("[", r"\[")):
        function(*arguments)
