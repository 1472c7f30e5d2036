"""bleu_lib.BLEU against SacreBLEU's BLEU: numbers, output, signatures, and the layouts
SacreBLEU lets through."""

import copy
import json
import warnings

import pytest
from hypothesis import given, strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import BLEU, BleuWarning, ZeroBleuWarning
from support import ROOT, load_data

WORDS = [
    "the",
    "a",
    "cat",
    "sat",
    "mat",
    ".",
    ",",
    "!",
    "3.5",
    "1,000",
    "don't",
    "well-known",
    "&amp;",
    "中文",
    "Éé",
    "-",
]
lines = st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join)


@st.composite
def corpora(draw):
    """Hypotheses and 1 to 4 reference streams of equal length; later streams may have
    None placeholders."""
    hyps = draw(st.lists(lines, min_size=1, max_size=12))
    streams = [draw(st.lists(lines, min_size=len(hyps), max_size=len(hyps)))]
    for _ in range(draw(st.integers(0, 3))):
        streams.append(
            draw(
                st.lists(
                    st.one_of(lines, st.none()), min_size=len(hyps), max_size=len(hyps)
                )
            )
        )
    return hyps, streams


options = st.fixed_dictionaries(
    {
        "lowercase": st.booleans(),
        "tokenize": st.sampled_from(["13a", "none", "char", "zh", "intl"]),
        "smooth_method": st.sampled_from(["exp", "floor", "add-k", "none"]),
        "smooth_value": st.sampled_from([None, 0.0, 0.3, 2]),
        "max_ngram_order": st.integers(1, 5),
        "effective_order": st.booleans(),
    }
)


def score_quietly(metric, *args, method="corpus_score"):
    with warnings.catch_warnings():
        # the CJK warning fires on purpose for 中文
        warnings.simplefilter("ignore", BleuWarning)
        return getattr(metric, method)(*args)


def floor_above_one(opts):
    """SacreBLEU scores floor smoothing with a value above 1 (up to scores above 100);
    BLEU refuses it."""
    if opts["smooth_method"] == "floor" and (opts["smooth_value"] or 0) > 1:
        with pytest.raises(ValueError, match="above 1"):
            BLEU(**opts)
        return True
    return False


@given(corpora(), options)
def test_corpus_score_is_sacrebleus(corpus, opts):
    hyps, streams = corpus
    if floor_above_one(opts):
        return
    before = copy.deepcopy(corpus)
    ours_metric, theirs_metric = BLEU(**opts), SacreBLEU(**opts)
    ours, theirs = (
        score_quietly(ours_metric, hyps, streams),
        theirs_metric.corpus_score(hyps, streams),
    )
    assert (
        ours.score,
        ours.counts,
        ours.totals,
        ours.precisions,
        ours.bp,
        ours.sys_len,
        ours.ref_len,
    ) == (
        theirs.score,
        theirs.counts,
        theirs.totals,
        theirs.precisions,
        theirs.bp,
        theirs.sys_len,
        theirs.ref_len,
    )
    signature = str(ours_metric.get_signature())
    assert signature == str(theirs_metric.get_signature())
    assert ours_metric.get_signature().format(
        short=True
    ) == theirs_metric.get_signature().format(short=True)
    for width in (0, 1, 2, 4):
        assert ours.format(width, signature=signature) == theirs.format(
            width, signature=signature
        )
        assert ours.format(width, signature=signature, is_json=True) == theirs.format(
            width, signature=signature, is_json=True
        )
        assert ours.format(width, score_only=True) == theirs.format(
            width, score_only=True
        )
    assert (hyps, streams) == before


@given(lines, st.lists(lines, min_size=1, max_size=4), options)
def test_sentence_score_is_sacrebleus(hyp, refs, opts):
    if floor_above_one(opts):
        return
    ours = score_quietly(BLEU(**opts), hyp, refs, method="sentence_score")
    assert (
        str(ours) == str(SacreBLEU(**opts).sentence_score(hyp, refs))
        and ours.score == SacreBLEU(**opts).sentence_score(hyp, refs).score
    )


@given(corpora())
def test_cached_references_give_the_same_score(corpus):
    hyps, streams = corpus
    cached = BLEU(references=streams)
    assert (
        score_quietly(cached, hyps, None).score
        == score_quietly(BLEU(), hyps, streams).score
    )
    assert str(cached.get_signature()) == str(
        SacreBLEU(references=streams).get_signature()
    )


def test_compute_bleu_never_changes_its_arguments():
    correct, total = [3, 0, 0, 0], [4, 3, 2, 1]
    ours = BLEU.compute_bleu(correct, total, 4, 5, smooth_method="add-k")
    # SacreBLEU's would now be [3, 1, 1, 1], [4, 4, 3, 2]
    assert (correct, total) == ([3, 0, 0, 0], [4, 3, 2, 1])
    # reported like SacreBLEU's
    assert ours.counts == [3, 1, 1, 1] and ours.totals == [4, 4, 3, 2]


def test_nasa_output_line():
    nasa = load_data("published_examples.json")["nasa"]
    result = BLEU().corpus_score([nasa["candidates"][0]["text"]], [[nasa["reference"]]])
    assert str(result) == (
        "BLEU = 27.64 75.0/45.5/30.0/11.1 (BP = 0.846 ratio = 0.857 hyp_len = 12 "
        "ref_len = 14)"
    )
    assert (
        json.loads(result.format(signature="nrefs:1|case:mixed", is_json=True))["nrefs"]
        == "1"
    )


HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]


def test_warning_for_chinese_under_13a_and_none():
    zh = ROOT / "data" / "zh"
    hyps = (zh / "sys.zh").read_text(encoding="utf-8").splitlines()
    refs = [(zh / "ref.zh").read_text(encoding="utf-8").splitlines()]
    for tokenize in ("13a", "none"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            BLEU(tokenize=tokenize).corpus_score(hyps, refs)
        # and the score is 0: clauses are tokens
        assert [w.category for w in caught] == [BleuWarning, ZeroBleuWarning]
        assert "looks Chinese or Japanese" in str(caught[0].message)
    with warnings.catch_warnings():
        # no warning with the right tokenizer, nor for English
        warnings.simplefilter("error")
        BLEU(tokenize="zh").corpus_score(hyps, refs)
        BLEU().corpus_score(HYPS, [REFS])


def test_warning_for_tokenized_output_unless_forced():
    hyps, refs = ["the cat sat ."] * 100, [["the cat sat."] * 100]
    with pytest.warns(BleuWarning, match="looks tokenized"):
        BLEU().corpus_score(hyps, refs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        BLEU(force=True).corpus_score(hyps, refs)
        BLEU().corpus_score(hyps[:99], [refs[0][:99]])


# n_bootstrap: differential tests against SacreBLEU 2.6.0's corpus_score(...,
# n_bootstrap=N) (sacrebleu/metrics/base.py Metric.corpus_score, Score.format and
# Score.estimate_ci, Signature; sacrebleu/significance.py _bootstrap_resample). The
# expected output is whatever the installed SacreBLEU prints for the same data, options
# and SACREBLEU_SEED.
CORPUS = {
    name: (ROOT / "data" / "corpus" / name).read_text(encoding="utf-8").splitlines()
    for name in ("sys.alpha.en", "ref.A.en", "ref.B.en")
}


def bootstrapped(metric, n_refs, n_bootstrap):
    refs = [CORPUS["ref.A.en"], CORPUS["ref.B.en"]][:n_refs]
    return metric, score_quietly(metric, CORPUS["sys.alpha.en"], refs, n_bootstrap)


def assert_same_output(ours, theirs):
    (ours_metric, ours_result), (theirs_metric, theirs_result) = ours, theirs
    for short in (False, True):
        assert ours_metric.get_signature().format(
            short
        ) == theirs_metric.get_signature().format(short)
    signature = str(theirs_metric.get_signature())
    for width in (1, 2):
        for is_json in (False, True):
            assert ours_result.format(
                width, signature=signature, is_json=is_json
            ) == theirs_result.format(width, signature=signature, is_json=is_json)
        assert ours_result.format(width, score_only=True) == theirs_result.format(
            width, score_only=True
        )


@pytest.mark.parametrize("n_refs", [1, 2])
@pytest.mark.parametrize("tokenize", ["13a", "char"])
@pytest.mark.parametrize("smooth_method", ["exp", "floor", "none"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_bootstrap_output_is_sacrebleus(
    n_refs, tokenize, smooth_method, lowercase, monkeypatch
):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    opts = {
        "tokenize": tokenize,
        "smooth_method": smooth_method,
        "lowercase": lowercase,
    }
    ours, theirs = (
        bootstrapped(BLEU(**opts), n_refs, 1000),
        bootstrapped(SacreBLEU(**opts), n_refs, 1000),
    )
    assert_same_output(ours, theirs)
    assert (
        "|bs:1000|seed:12345|" in str(ours[0].get_signature())
        and ours[1].mean is not None
        and ours[1].ci > 0
    )


def test_bootstrap_with_seed_7_and_n_bootstrap_1(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    ours, theirs = bootstrapped(BLEU(), 2, 500), bootstrapped(SacreBLEU(), 2, 500)
    assert_same_output(ours, theirs)
    assert "|bs:500|seed:7|" in str(ours[0].get_signature())
    # n_bootstrap=1 (the default): no interval; the metric keeps bs and seed in its
    # signature, as SacreBLEU's does
    assert_same_output(bootstrapped(ours[0], 2, 1), bootstrapped(theirs[0], 2, 1))
    plain = bootstrapped(BLEU(), 1, 1)
    assert_same_output(plain, bootstrapped(SacreBLEU(), 1, 1))
    assert plain[1].mean is plain[1].ci is None and "bs:" not in str(
        plain[0].get_signature()
    )


def test_bootstrap_unseeded(monkeypatch):
    # fresh randomness: only the signature can be compared
    monkeypatch.setenv("SACREBLEU_SEED", "none")
    ours, theirs = bootstrapped(BLEU(), 1, 100), bootstrapped(SacreBLEU(), 1, 100)
    for short in (False, True):
        assert ours[0].get_signature().format(short) == theirs[
            0
        ].get_signature().format(short)
    assert "|bs:100|seed:none|" in str(ours[0].get_signature())
    assert ours[1].mean > 0 and ours[1].ci > 0 and "μ = " in str(ours[1])


def test_bootstrap_of_a_zero_score_shows_no_interval(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    hyps, refs = ["a b c d", "e f g h"], [["w x y z", "s t u v"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ZeroBleuWarning)
        ours = BLEU().corpus_score(hyps, refs, n_bootstrap=50)
    theirs = SacreBLEU().corpus_score(hyps, refs, n_bootstrap=50)
    assert ours.mean == 0 and ours.format(
        signature="bs:50", is_json=True
    ) == theirs.format(signature="bs:50", is_json=True)
    assert str(ours) == str(theirs) and "μ" not in str(ours)


def test_signature_update_follows_sacrebleus_order():
    ours, theirs = BLEU(), SacreBLEU()
    ours.corpus_score(HYPS, [REFS]), theirs.corpus_score(HYPS, [REFS])
    ours_sig, theirs_sig = ours.get_signature(), theirs.get_signature()
    for key, value in [("seed", "12345"), ("ar", 10000), ("bs", 1000), ("ar", None)]:
        ours_sig.update(key, value), theirs_sig.update(key, value)
        assert ours_sig.format() == theirs_sig.format() and ours_sig.format(
            short=True
        ) == theirs_sig.format(short=True)


@pytest.mark.parametrize(
    "bad", [0, -1, 2.5, 1000.0, True, False, 1_000_001, "1000", None]
)
def test_bad_n_bootstrap(bad):
    with pytest.raises(
        ValueError, match="n_bootstrap .*must be a whole number from 1 to 1,000,000"
    ):
        BLEU().corpus_score(HYPS, [REFS], n_bootstrap=bad)


def test_no_numpy_without_bootstrap():
    import subprocess
    import sys

    code = (
        "import sys; from bleu_lib import BLEU; BLEU().corpus_score(['a b'], [['a "
        "b']], n_bootstrap=1); print('numpy' in sys.modules)"
    )
    assert (
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        == "False\n"
    )
