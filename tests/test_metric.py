"""bleu_lib.BLEU against SacreBLEU's BLEU: numbers, output, signatures, and the layouts SacreBLEU lets through."""
import copy
import json
import warnings

import pytest
from hypothesis import given, strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import BLEU, BleuWarning, ZeroBleuWarning
from support import ROOT, load_data

WORDS = ["the", "a", "cat", "sat", "mat", ".", ",", "!", "3.5", "1,000", "don't", "well-known", "&amp;", "中文", "Éé", "-"]
lines = st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join)


@st.composite
def corpora(draw):
    "Hypotheses and 1 to 4 reference streams of equal length; later streams may have None placeholders."
    hyps = draw(st.lists(lines, min_size=1, max_size=12))
    streams = [draw(st.lists(lines, min_size=len(hyps), max_size=len(hyps)))]
    for _ in range(draw(st.integers(0, 3))):
        streams.append(draw(st.lists(st.one_of(lines, st.none()), min_size=len(hyps), max_size=len(hyps))))
    return hyps, streams


options = st.fixed_dictionaries({
    "lowercase": st.booleans(), "tokenize": st.sampled_from(["13a", "none", "char", "zh", "intl"]),
    "smooth_method": st.sampled_from(["exp", "floor", "add-k", "none"]), "smooth_value": st.sampled_from([None, 0.0, 0.3, 2]),
    "max_ngram_order": st.integers(1, 5), "effective_order": st.booleans()})


def score_quietly(metric, *args, method="corpus_score"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BleuWarning)  # the CJK warning fires on purpose for 中文
        return getattr(metric, method)(*args)


def floor_above_one(opts):
    "SacreBLEU scores floor smoothing with a value above 1 (up to scores above 100); BLEU refuses it."
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
    ours, theirs = score_quietly(ours_metric, hyps, streams), theirs_metric.corpus_score(hyps, streams)
    assert (ours.score, ours.counts, ours.totals, ours.precisions, ours.bp, ours.sys_len, ours.ref_len) == \
           (theirs.score, theirs.counts, theirs.totals, theirs.precisions, theirs.bp, theirs.sys_len, theirs.ref_len)
    signature = str(ours_metric.get_signature())
    assert signature == str(theirs_metric.get_signature())
    assert ours_metric.get_signature().format(short=True) == theirs_metric.get_signature().format(short=True)
    for width in (0, 1, 2, 4):
        assert ours.format(width, signature=signature) == theirs.format(width, signature=signature)
        assert ours.format(width, signature=signature, is_json=True) == theirs.format(width, signature=signature, is_json=True)
        assert ours.format(width, score_only=True) == theirs.format(width, score_only=True)
    assert (hyps, streams) == before


@given(lines, st.lists(lines, min_size=1, max_size=4), options)
def test_sentence_score_is_sacrebleus(hyp, refs, opts):
    if floor_above_one(opts):
        return
    ours = score_quietly(BLEU(**opts), hyp, refs, method="sentence_score")
    assert str(ours) == str(SacreBLEU(**opts).sentence_score(hyp, refs)) and ours.score == SacreBLEU(**opts).sentence_score(hyp, refs).score


@given(corpora())
def test_cached_references_give_the_same_score(corpus):
    hyps, streams = corpus
    cached = BLEU(references=streams)
    assert score_quietly(cached, hyps, None).score == score_quietly(BLEU(), hyps, streams).score
    assert str(cached.get_signature()) == str(SacreBLEU(references=streams).get_signature())


def test_compute_bleu_never_changes_its_arguments():
    correct, total = [3, 0, 0, 0], [4, 3, 2, 1]
    ours = BLEU.compute_bleu(correct, total, 4, 5, smooth_method="add-k")
    assert (correct, total) == ([3, 0, 0, 0], [4, 3, 2, 1])  # SacreBLEU's would now be [3, 1, 1, 1], [4, 4, 3, 2]
    assert ours.counts == [3, 1, 1, 1] and ours.totals == [4, 4, 3, 2]  # reported like SacreBLEU's


def test_nasa_output_line():
    nasa = load_data("published_examples.json")["nasa"]
    result = BLEU().corpus_score([nasa["candidates"][0]["text"]], [[nasa["reference"]]])
    assert str(result) == "BLEU = 27.64 75.0/45.5/30.0/11.1 (BP = 0.846 ratio = 0.857 hyp_len = 12 ref_len = 14)"
    assert json.loads(result.format(signature="nrefs:1|case:mixed", is_json=True))["nrefs"] == "1"


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
        assert [w.category for w in caught] == [BleuWarning, ZeroBleuWarning]  # and the score is 0: clauses are tokens
        assert "looks Chinese or Japanese" in str(caught[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning with the right tokenizer, nor for English
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
