"""The scoring seam (bleu_lib/scoring.py, appendix A3): every path from statistics to a
SacreBLEU-style score gives the number compute_bleu gives, bit for bit, for every
smoothing method of notebook 07's registry, one registered at run time and one added to
the registry's literal included; and an empty hypothesis has a brevity penalty of 0
everywhere."""

import math
import os
import shutil
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

import bleu_lib
from bleu_lib import BLEU, BleuWarning, brevity_penalty, chen_cherry_bleu_from_stats
from bleu_lib.engine import row_stats
from bleu_lib.explain import order_differences, score_of
from bleu_lib.scoring import ARRAY_FORMS, bleu_scores, brevity_penalties, compute_bleu
from bleu_lib.significance import (
    bootstrap_scores,
    compare_all,
    corpus_scores,
    paired_bootstrap,
    paired_test,
    resample_counts,
)
from bleu_lib.smoothing import epsilon_counts, length_counts
from bleu_lib.smoothing_registry import SMOOTHING, named_methods, register

ORDER = 4


def random_segments(seed, count=300, order=ORDER):
    """Rows [c, r, m_1..m_N, l_1..l_N] of segments as text gives them: empty and
    one-token hypotheses, hypotheses shorter than the order, no match at all, some
    orders without a match, r above and below c."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(count):
        c = int(rng.choice([0, 1, 2, 3, int(rng.integers(0, 40))]))
        r = int(rng.choice([0, c, int(rng.integers(0, 50))]))
        totals = [max(c - n, 0) for n in range(order)]
        matches = [
            int(rng.integers(0, t + 1)) if rng.random() > 0.35 else 0 for t in totals
        ]
        # what text can give: no more n-gram matches than (n-1)-gram matches allow
        for n in range(1, order):
            matches[n] = min(matches[n], matches[n - 1])
        rows.append([c, r, *matches, *totals])
    return np.array(rows, dtype=np.int64)


def scalar_scores(rows, metric):
    "compute_bleu, the scalar formula, on each row: what every other path must give."
    order = metric.max_ngram_order
    return [
        compute_bleu(
            row[2 : 2 + order],
            row[2 + order :],
            row[0],
            row[1],
            metric.smooth_method,
            metric.smooth_value,
            metric.effective_order,
            order,
        ).score
        for row in rows.tolist()
    ]


@pytest.fixture
def extra_methods():
    """A method with floor's counting and a value of its own (it has an array form), and
    one with none (method 4)."""
    register(
        "floor-1", epsilon_counts, parameter="epsilon", default=1.0, at_most_one=True
    )
    register("length", length_counts, parameter="k", default=5)
    yield ["floor-1", "length"]
    del SMOOTHING["floor-1"], SMOOTHING["length"]


def settings_for(method):
    values = [None] if not SMOOTHING[method].parameter else [None, 0.5]
    return [(value, effective) for value in values for effective in (False, True)]


def test_every_path_gives_compute_bleus_score(extra_methods):
    segments = random_segments(1)
    # small corpora
    sums = np.array(
        [segments[i : i + 7].sum(axis=0) for i in range(0, len(segments), 7)]
    )
    rows = np.concatenate([segments, sums])
    for method in named_methods():
        for value, effective in settings_for(method):
            metric = BLEU(
                smooth_method=method, smooth_value=value, effective_order=effective
            )
            want = scalar_scores(rows, metric)
            where = (
                f"smooth_method={method!r}, smooth_value={value}, "
                f"effective_order={effective}"
            )
            assert bleu_scores(rows, metric).tolist() == want, f"bleu_scores, {where}"
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", BleuWarning)  # zero scores, on purpose
                assert [
                    metric.score_statistics(row_stats(row, ORDER)).score
                    for row in rows.tolist()
                ] == want, where
            assert [
                score_of(metric, row_stats(row, ORDER)).score for row in rows.tolist()
            ] == want, f"explain, {where}"
            corpora = [segments[i : i + 7] for i in range(0, len(segments), 7)]
            assert corpus_scores(metric, *corpora) == want[len(segments) :], (
                f"corpus_scores, {where}"
            )


def test_the_paired_tests_score_each_system_as_compute_bleu_does(extra_methods):
    baseline, system, third = (random_segments(seed, count=40) for seed in (2, 3, 4))
    for method in named_methods():
        metric = BLEU(smooth_method=method)
        want = [
            scalar_scores(stats.sum(axis=0, keepdims=True), metric)[0]
            for stats in (baseline, system, third)
        ]
        assert (
            paired_bootstrap(baseline, system, metric, n_samples=50).score == want[1]
        ), method
        tested = paired_test(
            [("a", baseline), ("b", system), ("c", third)], metric, "bs", n_samples=50
        )
        assert [result.score for result in tested] == want, method
        tested = paired_test(
            [("a", baseline), ("b", system)], metric, "ar", n_samples=64
        )
        assert [result.score for result in tested] == want[:2], method
        # --paired-all
        compared = compare_all(
            [("a", baseline), ("b", system), ("c", third)], metric, n_samples=50
        )
        assert [row["score"] for row in compared.systems] == want, method


def test_a_bootstrap_whose_resamples_are_the_identity_gives_the_corpus_score(
    extra_methods,
):
    """One resample that draws every segment once is the test set itself. SacreBLEU
    computes resampled precisions from float32 counts, so the array forms give its
    float32 number (within float32's rounding of the corpus score); a method without an
    array form is scored from the integer sums, the corpus score to the bit."""
    stats = random_segments(5, count=60)
    identity = resample_counts(np.arange(len(stats))[None, :], len(stats))
    for method in named_methods():
        metric = BLEU(smooth_method=method)
        corpus = scalar_scores(stats.sum(axis=0, keepdims=True), metric)[0]
        resampled = bootstrap_scores(stats, metric, identity)[0]
        if ARRAY_FORMS.get(SMOOTHING[method].counts) is None:
            assert resampled == corpus, method
        else:
            assert math.isclose(resampled, corpus, rel_tol=1e-5), method
            # SacreBLEU's name for it
            method, value = ("floor", 1.0) if method == "floor-1" else (method, None)
            sacre = SacreBLEU(smooth_method=method, smooth_value=value)
            assert (
                resampled
                == sacre._compute_score_from_stats(
                    stats.sum(axis=0).astype("float32")
                ).score
            ), method


def test_a_new_method_is_never_silently_unsmoothed(extra_methods):
    """The issue's case: a method defined as floor with value 1 bootstraps as `-s floor
    -sv 1` does (it was not smoothed at all when the array path dispatched on a snapshot
    of the registry's names)."""
    stats = random_segments(6, count=60)
    counts = resample_counts(
        np.random.default_rng(12345).choice(60, size=(200, 60)), 60
    )
    ours = bootstrap_scores(stats, BLEU(smooth_method="floor-1"), counts)
    assert (
        ours.tolist()
        == bootstrap_scores(
            stats, BLEU(smooth_method="floor", smooth_value=1), counts
        ).tolist()
    )
    assert (
        ours.tolist()
        != bootstrap_scores(stats, BLEU(smooth_method="none"), counts).tolist()
    )
    length = BLEU(smooth_method="length")
    assert bootstrap_scores(stats, length, counts).tolist() == scalar_scores(
        (counts @ stats).astype(np.int64), length
    )


def test_a_method_added_to_the_registrys_literal_is_scored_by_its_own_rule(tmp_path):
    """Appendix A8's literal gains an entry, as a maintainer ships 'method 8' (here
    method 4, which has no array form): the array path and the bootstrap score it row by
    row, by its own rule, not unsmoothed."""
    library = tmp_path / "bleu_lib"
    shutil.copytree(
        Path(bleu_lib.__file__).parent,
        library,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    smoothing = library / "smoothing_registry.py"
    literal = '    "exp": Smoothing(halving_counts),\n}'
    assert smoothing.read_text().count(literal) == 1, (
        "appendix A8's SMOOTHING literal has changed: update this test"
    )
    method = '    "length": Smoothing(length_counts, "k", 5),\n}'
    smoothing.write_text(smoothing.read_text().replace(literal, literal[:-1] + method))
    script = textwrap.dedent("""
        import numpy as np
        from bleu_lib import BLEU
        from bleu_lib.scoring import bleu_scores, compute_bleu
        from bleu_lib.significance import bootstrap_scores, resample_counts
        from tests.test_scoring import random_segments
        rows = random_segments(7, count=60)
        metric = BLEU(smooth_method="length")
        score = lambda r, method: compute_bleu(r[2:6], r[6:], r[0], r[1], method).score
        want = [score(r, "length") for r in rows.tolist()]
        counts = resample_counts(np.random.default_rng(1).choice(60, size=(20, 60)), 60)
        resampled = [score(r, "length") for r in (counts @ rows).astype(int).tolist()]
        print(bleu_scores(rows, metric).tolist() == want,
              bootstrap_scores(rows, metric, counts).tolist() == resampled,
              want != [score(r, "none") for r in rows.tolist()])
        """)
    repository = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(tmp_path), str(repository)]),
        },
    )
    assert done.stdout.split() == ["True", "True", "True"], done.stderr


def test_an_empty_hypothesis_has_a_brevity_penalty_of_0_everywhere():
    """c = 0 and r = 5: 0 in notebook 03's formula, in SacreBLEU's, on arrays, in the
    explanation's per-order table."""
    assert brevity_penalty(5, 0) == 0.0
    assert (
        compute_bleu([0] * 4, [0] * 4, 0, 5).bp
        == SacreBLEU.compute_bleu([0] * 4, [0] * 4, 0, 5).bp
        == 0.0
    )
    # 1 for (0, 0)
    assert brevity_penalties(np.array([0, 0, 3]), np.array([5, 0, 3])).tolist() == [
        0.0,
        1.0,
        1.0,
    ]
    empty = np.array([[0, 5, 0, 0, 0, 0, 0, 0, 0, 0]])
    rows = order_differences(BLEU(), empty, empty, np.ones((3, 1)))
    assert rows[-1][:4] == ["BP", 0.0, 0.0, 0.0] and rows[-1][4] == (0.0, 0.0)


def test_the_seam_agrees_with_the_papers_formula_where_the_definitions_meet():
    """Where every order has a match, SacreBLEU's score (percentages, logs added with
    sum()) and the paper's formula in chen_cherry_bleu_from_stats (fractions, math.fsum)
    are one definition in two float arithmetics: 1e-12 apart."""
    for row in random_segments(8).tolist():
        stats = row_stats(row, ORDER)
        if min(stats.matches) > 0:
            sacre = (
                compute_bleu(
                    row[2:6], row[6:], row[0], row[1], "exp", effective_order=True
                ).score
                / 100
            )
            assert math.isclose(
                sacre, chen_cherry_bleu_from_stats(stats, "exp"), rel_tol=1e-12
            )


def test_the_command_line_offers_a_registered_method_and_scores_it_by_its_own_rule(
    extra_methods, tmp_path
):
    """`-s length` exists once the method is registered, and its score and paired
    bootstrap follow its own rule, on short segments where smoothing matters (no 4-gram
    matches)."""
    import json

    from bleu_lib.__main__ import parse_args, run

    files = {
        "ref": [
            "the cat sat on the mat",
            "a dog barked at the moon",
            "it rained all day",
        ],
        "a": ["the cat sat a mat", "a dog barked", "it rained"],
        "b": ["a cat sat", "the dog barked at it", "rain"],
    }
    for name, lines in files.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    ref, a, b = (str(tmp_path / name) for name in files)
    score = BLEU(smooth_method="length").corpus_score(files["a"], [files["ref"]]).score
    # unsmoothed, no 4-gram match: 0
    with pytest.warns(bleu_lib.ZeroBleuWarning, match="p_4 = 0/2"):
        assert (
            BLEU(smooth_method="none").corpus_score(files["a"], [files["ref"]]).score
            == 0
            < score
        )
    assert list(run(parse_args([ref, "-i", a, "-s", "length", "-b"]))) == [
        f"{score:.1f}"
    ]
    paired = {}
    for method in ("length", "none"):
        output = run(
            parse_args([ref, "-i", a, b, "-s", method, "--paired-bs", "-pbsn", "50"])
        )
        paired[method] = json.loads("\n".join(output))
    assert paired["length"][0]["BLEU"]["score"] == score
    assert paired["length"][1]["BLEU"]["mean"] != paired["none"][1]["BLEU"]["mean"]
