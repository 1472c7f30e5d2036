"""Smoothing: bleu_lib.SmoothingFunction is NLTK's, number for number; chen_cherry_bleu
is the paper's.

Where NLTK raises (its method 6 on fewer than 3 orders or no trigram match), ours raises
a ValueError, and where NLTK returns a score above 1 (its methods 5 and 7 on an
identical pair, or parameters out of range), ours raises a ValueError too; those are the
only intended differences in bleu_lib.SmoothingFunction, besides never modifying the
list it is given. Paper values (case A) are worked out below from Chen and Cherry's
definitions, as notebook 07 states them; NLTK's are NLTK 3.10.4's own numbers, run here;
SacreBLEU's floor/add-k/exp are compared with methods 1/2/3 where the definitions
coincide, and the cases where they do not are tested as differences."""

import copy
import doctest
import math
import warnings

import pytest
from hypothesis import given, strategies as st
from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics import BLEU as SacreBLEU

import bleu_lib
from bleu_lib import (
    BleuStats,
    Precision,
    SmoothingFunction,
    chen_cherry_bleu,
    chen_cherry_bleu_from_stats,
    corpus_bleu,
)
from bleu_lib import segment_stats, sentence_bleu
from support import close, quietly, references, tokens, weight_sets

# every value each parameter may take, edges included: epsilon in [0, 1], alpha >= 0, k
# > 0
parameters = st.fixed_dictionaries(
    {
        "epsilon": st.one_of(st.sampled_from([0.0, 0.1, 1.0]), st.floats(0, 1)),
        "alpha": st.one_of(st.sampled_from([0, 5]), st.floats(0, 1e6)),
        "k": st.one_of(st.sampled_from([5, 1e-9]), st.floats(1e-6, 1e6)),
    }
)


def outcome(call):
    "The score, or the exception's type."
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return call()
    except Exception as error:
        return type(error)


def same_as_nltk(ours, theirs, method):
    # NLTK raised: only method 6 may, and we raise a ValueError instead
    if isinstance(theirs, type):
        return (
            method == 6
            and theirs in (AssertionError, IndexError, ZeroDivisionError)
            and ours is ValueError
        )
    if theirs > 1:  # NLTK's number out of range: we refuse it
        return ours is ValueError
    return not isinstance(ours, type) and (close(ours, theirs) or ours == theirs == 0)


@given(references, tokens, st.integers(0, 7), weight_sets(), parameters, st.booleans())
def test_sentence_level_matches_nltk(refs, hyp, method, weights, params, auto_reweigh):
    ours = outcome(
        lambda: sentence_bleu(
            refs,
            hyp,
            weights,
            getattr(SmoothingFunction(**params), f"method{method}"),
            auto_reweigh,
        )
    )
    theirs = outcome(
        lambda: nltk_bleu.sentence_bleu(
            refs,
            hyp,
            weights,
            getattr(nltk_bleu.SmoothingFunction(**params), f"method{method}"),
            auto_reweigh,
        )
    )
    assert same_as_nltk(ours, theirs, method), (ours, theirs)


@given(
    st.lists(st.tuples(references, tokens), min_size=1, max_size=5),
    st.integers(0, 7),
    weight_sets(),
    parameters,
)
def test_corpus_level_matches_nltk(segments, method, weights, params):
    """Including NLTK's corpus-level quirk: smoothing sees the last segment and the
    corpus length."""
    refs, hyps = [s[0] for s in segments], [s[1] for s in segments]
    ours = outcome(
        lambda: corpus_bleu(
            refs, hyps, weights, getattr(SmoothingFunction(**params), f"method{method}")
        )
    )
    theirs = outcome(
        lambda: nltk_bleu.corpus_bleu(
            refs,
            hyps,
            weights,
            getattr(nltk_bleu.SmoothingFunction(**params), f"method{method}"),
        )
    )
    assert same_as_nltk(ours, theirs, method), (ours, theirs)


def test_method6_without_a_prior_on_an_empty_last_segment_is_a_clear_error():
    """Found by Hypothesis: at corpus level NLTK gives method 6 the last segment's
    hypothesis; with alpha=0 and no trigram there, NLTK divides by zero."""
    refs, hyps = [[["b", "a", "b"]], [[]]], [["b", "a", "b"], []]
    method6 = SmoothingFunction(alpha=0).method6
    with pytest.raises(ZeroDivisionError):
        nltk_bleu.corpus_bleu(
            refs, hyps, (0, 0, 1), nltk_bleu.SmoothingFunction(alpha=0).method6
        )
    with pytest.raises(ValueError, match="use alpha > 0"):
        corpus_bleu(refs, hyps, (0, 0, 1), method6)


@given(references, tokens, st.integers(0, 7))
def test_methods_never_modify_their_input(refs, hyp, method):
    stats = segment_stats([tuple(r) for r in refs], tuple(hyp), 4)
    p_n = [Precision(m, max(1, l)) for m, l in zip(stats.matches, stats.totals)]
    before, refs_before = list(p_n), copy.deepcopy((refs, hyp))
    outcome(
        lambda: getattr(SmoothingFunction(), f"method{method}")(
            p_n, references=refs, hypothesis=hyp, hyp_len=len(hyp)
        )
    )
    assert (
        p_n == before
        and [type(p) for p in p_n] == [Precision] * len(p_n)
        and (refs, hyp) == refs_before
    )


def test_nltk_smoothing_doctest_with_our_smoothing_function():
    """nltk/translate/bleu_score.py, SmoothingFunction.__init__: every method on NLTK's
    example, through bleu_lib."""
    globs = {
        **vars(nltk_bleu),
        "sentence_bleu": sentence_bleu,
        "SmoothingFunction": SmoothingFunction,
    }
    test = doctest.DocTestParser().get_doctest(
        nltk_bleu.SmoothingFunction.__init__.__doc__, globs, "init", None, 0
    )
    report = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(
            test, out=report.append
        )
    assert result.attempted >= 9 and result.failed == 0, "".join(report)


def test_nltk_bleu_doctest_method4():
    """nltk/test/bleu.doctest: method 4 on a short hypothesis, 4.4267... (x 100)."""
    score = (
        sentence_bleu(
            ["It is a place of quiet contemplation .".split()],
            "It is .".split(),
            smoothing_function=SmoothingFunction().method4,
        )
        * 100
    )
    assert f"{score:.4f}" == "4.4267"


def test_nltk_length_one_hypothesis_with_method4():
    """nltk/test/unit/translate/test_bleu.py, test_length_one_hypothesis."""
    refs = ["The candidate has no alignment to any of the references".split()]
    assert (
        sentence_bleu(refs, ["Foo"], smoothing_function=SmoothingFunction().method4)
        == 0
    )


def test_nltk_sentence_bleu_doctest_method1():
    """nltk/translate/bleu_score.py, sentence_bleu's docstring: 0.0370... with method
    1."""
    hyp = (
        "It is to insure the troops forever hearing the activity guidebook that party "
        "direct"
    ).split()
    refs = [
        (
            "It is a guide to action that ensures that the military will forever heed "
            "Party commands"
        ).split(),
        (
            "It is the guiding principle which guarantees the military forces always "
            "being under the command of the Party"
        ).split(),
        (
            "It is the practical guide for the army always to heed the directions of "
            "the party"
        ).split(),
    ]
    method1 = SmoothingFunction().method1
    assert f"{sentence_bleu(refs, hyp, smoothing_function=method1):.4f}" == "0.0370"


# --- the paper's methods
# --------------------------------------------------------------------------------------

CASE_A = (
    [["the", "cat", "sat", "on", "the", "mat"]],
    ["the", "cat", "ran", "to", "the", "mat"],
)


def averaged(counts):
    """Method 5's counts: m'_1 starts from m_1 + 1, then each is the mean of the one
    before, m_n and m_{n+1}."""
    out = [(counts[0] + 1 + counts[0] + counts[1]) / 3]
    for m_n, m_next in zip(counts[1:], counts[2:]):
        out.append((out[-1] + m_n + m_next) / 3)
    return out


def case_a_by_hand():
    """Case A: m = (4, 2, 0, 0, 0) of l = (6, 5, 4, 3, 2), c = r = 6 (BP = 1), under
    each method, from its definition."""
    # methods 4 and 7: ln(c) / K with K = 5, compounded for each further zero order
    f = math.log(6) / 5
    # method 6: prior p_2^2 / p_1, alpha = 5
    p3 = (0 + 5 * (2 / 5) ** 2 / (4 / 6)) / (4 + 5)
    p4 = (0 + 5 * p3**2 / (2 / 5)) / (3 + 5)
    mean = lambda counts: (
        math.prod(m / l for m, l in zip(counts, (6, 5, 4, 3))) ** (1 / 4)
    )  # noqa: E731
    return {
        1: mean([4, 2, 0.1, 0.1]),
        2: (4 / 6 * 3 / 6 * 1 / 5 * 1 / 4) ** (1 / 4),
        3: mean([4, 2, 1 / 2, 1 / 4]),
        4: mean([4, 2, f, f**2]),
        5: mean(averaged([4, 2, 0, 0, 0])),
        6: (4 / 6 * 2 / 5 * p3 * p4) ** (1 / 4),
        7: mean(averaged([4, 2, f, f**2, 0])),
    }


@pytest.mark.stage(name="smoothing")
@pytest.mark.parametrize("method", range(1, 8))
def test_case_a(method):
    assert math.isclose(
        chen_cherry_bleu(*CASE_A, method), case_a_by_hand()[method], rel_tol=1e-12
    )
    # NLTK's method 6 stops on case A (no trigram match), an AssertionError; ours a
    # ValueError (above)
    if method != 6:
        smoothing = f"method{method}"
        ours = sentence_bleu(
            *CASE_A, smoothing_function=getattr(SmoothingFunction(), smoothing)
        )
        assert ours == nltk_bleu.sentence_bleu(
            *CASE_A,
            smoothing_function=getattr(nltk_bleu.SmoothingFunction(), smoothing),
        )
        # NLTK departs from the paper from 4 on
        assert (ours == chen_cherry_bleu(*CASE_A, method)) == (method <= 3)


@pytest.mark.stage(name="smoothing")
@given(
    st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=1, max_size=30),
    st.integers(1, 7),
)
def test_identical_hypothesis_and_reference_score_one(tokens_, method):
    assert chen_cherry_bleu([tokens_], tokens_, method) == 1.0


@pytest.mark.stage(name="smoothing")
@given(references, tokens, st.integers(1, 7), weight_sets(), parameters)
def test_paper_methods_stay_in_zero_one(refs, hyp, method, weights, params):
    """A score in [0, 1], or an error saying why not: method 4 (and 7) with a tiny k,
    and method 6 when p_{n-1} > p_{n-2} (its prior p_{n-1}**2 / p_{n-2} is then above
    p_{n-1}), can make a precision above 1."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            score = chen_cherry_bleu(refs, hyp, method, weights, **params)
    except ValueError as error:
        assert method in (4, 6, 7) and "above 1" in str(error)
    else:
        assert 0.0 <= score <= 1.0


@pytest.mark.stage(name="smoothing")
@given(references, tokens)
def test_method_2_is_at_least_method_1_once_a_word_matches(refs, hyp):
    """Notebook 07, exercise 3's model answer: from n = 2 on, (m + 1)/(l + 1) >= m/l and
    1/(l + 1) > 0.1/l, and both leave p_1 alone; only m_1 = 0 lets method 1 win."""
    method_1, method_2 = (quietly(chen_cherry_bleu, refs, hyp, m) for m in (1, 2))
    if any(token in {t for r in refs for t in r} for token in hyp):
        assert method_2 >= method_1 * (1 - 1e-12)
    else:
        assert method_2 == 0.0


def test_the_reversal_of_exercise_3_exists_only_in_the_definitions():
    """Notebook 07, exercise 3's model answer: 'a dog ran' against case A's reference
    scores e**-1 * (0.1/3 * 0.1/2 * 0.1/1)**(1/3) = 0.0202 under method 1 and 0 under
    method 2; NLTK and SacreBLEU score it 0 under both."""
    refs, hyp = CASE_A[0], ["a", "dog", "ran"]
    by_hand = math.exp(1 - 6 / 3) * (0.1 / 3 * 0.1 / 2 * 0.1 / 1) ** (1 / 3)
    assert close(quietly(chen_cherry_bleu, refs, hyp, 1), by_hand)
    assert round(by_hand, 4) == 0.0202
    assert quietly(chen_cherry_bleu, refs, hyp, 2) == 0.0
    for method in ("method1", "method2"):
        smoothing = getattr(nltk_bleu.SmoothingFunction(), method)
        assert (
            quietly(nltk_bleu.sentence_bleu, refs, hyp, smoothing_function=smoothing)
            == 0
        )
    for name in ("floor", "add-k"):
        sacre = SacreBLEU(tokenize="none", smooth_method=name, effective_order=True)
        assert sacre.sentence_score(" ".join(hyp), [" ".join(refs[0])]).score == 0.0


def test_method_6_prior_above_one_is_refused():
    """A random search found it: p_1 = 4/5 < p_2 = 4/4, so the trigram prior is 1 / 0.8
    = 1.25 and p_3 = (3 + 5 * 1.25) / (3 + 5) = 1.15625; the score, 1.0038, is out of
    range, so it is refused."""
    refs, hyp = (
        [["a", "b"], ["a", "b", "b", "b"], ["a"], ["b", "b", "a"]],
        ["a", "b", "b", "b", "a"],
    )
    stats = segment_stats([tuple(r) for r in refs], tuple(hyp), 5)
    assert stats.matches[:3] == (4, 4, 3) and stats.totals[:3] == (5, 4, 3)
    with pytest.raises(
        ValueError, match=r"method 6 gives BLEU 1.00384 here, above 1, .*1.156"
    ):
        chen_cherry_bleu(refs, hyp, 6)


@pytest.mark.stage(name="smoothing")
@given(references, tokens, st.sampled_from([(1, "floor"), (2, "add-k"), (3, "exp")]))
def test_sacrebleu_floor_add_k_exp_are_methods_1_2_3(refs, hyp, pair):
    """Equal wherever the definitions coincide; the two differences are asserted, not
    skipped."""
    method, name = pair
    sacre = (
        SacreBLEU(tokenize="none", smooth_method=name, effective_order=True)
        .sentence_score(" ".join(hyp), [" ".join(r) for r in refs])
        .score
        / 100
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paper = chen_cherry_bleu(refs, hyp, method)
    nothing_matches = not any(w in {t for r in refs for t in r} for w in hyp)
    # SacreBLEU returns 0 before smoothing; methods 1 and 3 smooth the unigrams too
    if nothing_matches:
        assert sacre == 0.0 and (paper == 0.0) == (method == 2 or not hyp)
    # SacreBLEU's add-k keeps missing orders at (0 + 1) / (0 + 1); we leave them out
    elif method == 2 and len(hyp) < 4:
        assert sacre >= paper
    else:
        assert math.isclose(paper, sacre, rel_tol=1e-12)


# all ValueError, but the string references (TypeError)
@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: chen_cherry_bleu(*CASE_A, 8), "one of 1 to 7"),
        (
            lambda: chen_cherry_bleu(*CASE_A, 1, epsilon=-0.1),
            "epsilon must be a finite number between 0 and 1",
        ),
        (
            lambda: chen_cherry_bleu(*CASE_A, 4, k=0),
            "k must be a finite number above 0",
        ),
        (
            lambda: chen_cherry_bleu(*CASE_A, 6, alpha=float("nan")),
            "alpha must be a finite number",
        ),
        (lambda: chen_cherry_bleu(*CASE_A, 1, weights=(0.5, 0.6)), "sum to 1.1"),
        (
            lambda: chen_cherry_bleu("the cat", ["the", "cat"], 1),
            "references is a string",
        ),
        (
            lambda: chen_cherry_bleu_from_stats(
                BleuStats(6, 6, (4, 2, 0, 0), (6, 5, 4, 3)), 5
            ),
            "statistics of order 5",
        ),
        (
            lambda: sentence_bleu(
                *CASE_A,
                smoothing_function=SmoothingFunction().method6,
                weights=(0.5, 0.5),
            ),
            "at least 3 n-gram orders",
        ),
    ],
)
def test_bad_smoothing_input_gets_a_clear_error(call, words):
    with pytest.raises((ValueError, TypeError)) as error:
        call()
    assert type(error.value) is (
        TypeError if "string" in words else ValueError
    ) and words in str(error.value)


def test_zero_after_smoothing_is_exactly_zero_with_a_warning():
    with pytest.warns(bleu_lib.BleuWarning, match="after smoothing method 4"):
        assert chen_cherry_bleu([["a", "b"]], ["c"], 4) == 0.0  # one token: ln 1 = 0
    with pytest.warns(bleu_lib.BleuWarning, match="has 0 tokens"):
        assert chen_cherry_bleu([["a", "b"]], [], 1) == 0.0


@pytest.fixture
def halves():
    """A throwaway 8th method, registered at run time and removed afterwards: every zero
    match count becomes 1/2."""
    from bleu_lib import smoothing_registry

    entry = smoothing_registry.register(
        "halves", lambda m, l, hyp_len: ([m_n or 0.5 for m_n in m[: len(l)]], list(l))
    )
    yield entry
    del smoothing_registry.SMOOTHING["halves"]


def test_an_eighth_method_is_one_registry_entry(halves, tmp_path):
    """One register() call reaches chen_cherry_bleu, BLEU(smooth_method=...) and the
    command line's -s at once."""
    from bleu_lib import BLEU
    from bleu_lib.__main__ import parse_args, run

    ref, hyp = "the cat sat on the mat", "the cat ran to the mat"
    # case A: m = (4, 2, 0, 0), l = (6, 5, 4, 3), BP = 1
    expected = (4 / 6 * 2 / 5 * 0.5 / 4 * 0.5 / 3) ** (1 / 4)
    assert close(chen_cherry_bleu([ref.split()], hyp.split(), "halves"), expected)
    metric = BLEU(tokenize="none", smooth_method="halves")
    score = metric.sentence_score(hyp, [ref])
    assert close(score.score / 100, expected) and score.counts == [4, 2, 0, 0]
    assert (
        score.score
        == BLEU(tokenize="none", smooth_method="floor", smooth_value=0.5)
        .sentence_score(hyp, [ref])
        .score
    )
    assert (
        str(metric.get_signature())
        == "nrefs:1|case:mixed|eff:no|tok:none|smooth:halves|version:2.6.0"
    )
    (tmp_path / "ref.txt").write_text(ref + "\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text(hyp + "\n", encoding="utf-8")
    files = [
        str(tmp_path / "ref.txt"),
        "-i",
        str(tmp_path / "hyp.txt"),
        "-tok",
        "none",
        "-b",
    ]
    printed = list(run(parse_args(files + ["-s", "halves"])))
    assert (
        printed
        == [f"{100 * expected:.1f}"]
        == list(run(parse_args(files + ["-s", "floor", "-sv", "0.5"])))
    )
    assert "smooth:halves" in list(run(parse_args(files[:-1] + ["-s", "halves"])))[0]


def test_a_removed_method_is_gone_everywhere():
    "Without the entry, every path refuses the name (the fixture above removed it)."
    from bleu_lib import BLEU
    from bleu_lib.__main__ import parse_args

    with pytest.raises(ValueError, match="one of 1 to 7"):
        chen_cherry_bleu([["a", "b"]], ["a", "b"], "halves")
    with pytest.raises(
        ValueError, match="is not one of 'none', 'floor', 'add-k', 'exp'"
    ):
        BLEU(smooth_method="halves")
    with pytest.raises(SystemExit):
        parse_args(["ref.txt", "-i", "hyp.txt", "-s", "halves"])


def test_an_eighth_method_reaches_the_bootstrap_and_the_paired_tests(halves):
    """Resampled scores of a registered method are compute_bleu's, row by row: the
    vectorised code knows only SacreBLEU's four."""
    from bleu_lib import BLEU
    from bleu_lib.scoring import bleu_scores
    from bleu_lib.significance import segment_statistics

    refs = [["the cat sat on the mat", "a dog ran in the park today", "it is cold"]]
    hyps = ["the cat ran to the mat", "a dog ran in a park", "it is very cold"]
    metric = BLEU(smooth_method="halves")
    stats = segment_statistics(metric, hyps, refs)
    # sums of the first 1, 2, 3 segments
    rows = [stats[: k + 1].sum(axis=0) for k in range(len(hyps))]
    assert bleu_scores(rows, metric).tolist() == [
        BLEU(smooth_method="halves")
        .corpus_score(hyps[: k + 1], [refs[0][: k + 1]])
        .score
        for k in range(len(hyps))
    ]
    assert metric.corpus_score(hyps, refs, n_bootstrap=20).mean >= 0
