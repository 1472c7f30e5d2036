"""SacreBLEU's other modules through the drop-in (issue 27): `tokenizers`,
`significance` (PairedTest) and `utils`, each against SacreBLEU's own, run live.

SacreBLEU's own `test/test_significance.py` (30 tests, on its WMT17 pickle) passes
through `bleu_lib.sacrebleu` too, 30 of 30, but takes about a minute: it was run by hand
for issue 27. These tests compare the same functions on the shipped corpus, in
seconds."""

import importlib
import os
from pathlib import Path

import pytest
import sacrebleu.utils
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import PairedTest as SacrePairedTest

import bleu_lib.sacrebleu as ours
from bleu_lib.sacrebleu.metrics import BLEU
from bleu_lib.sacrebleu.significance import PairedTest, Result
from support import ROOT

CORPUS = ROOT / "data" / "corpus"
lines = lambda name: Path(CORPUS / name).read_text(encoding="utf-8").splitlines()
REFS = [lines("ref.A.en"), lines("ref.B.en")]
SYSTEMS = [
    ("alpha", lines("sys.alpha.en")),
    ("beta", lines("sys.beta.en")),
    ("alpha, lower-cased", [line.lower() for line in lines("sys.alpha.en")]),
]


@pytest.mark.parametrize("name", list(ours.TOKENIZER_CLASSES))
def test_each_tokenizer_class_is_sacrebleus(name):
    module, cls = ours.TOKENIZER_CLASSES[name]
    theirs = getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), cls)()
    mine = getattr(
        importlib.import_module(f"bleu_lib.sacrebleu.tokenizers.{module}"), cls
    )()
    assert isinstance(mine, ours.tokenizers.BaseTokenizer)
    assert mine.signature() == theirs.signature()
    for line in REFS[0][:20] + ["Hi, 5.50 $ (you) 1,000-2 «ok»", "中文 1.5 ABC."]:
        assert mine(line) == theirs(line)


def test_utils_are_sacrebleus():
    for p in (0.0, 0.5, 1.0, 1e-300):
        assert ours.utils.my_log(p) == sacrebleu.utils.my_log(p)
    counts = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert ours.utils.sum_of_lists(counts) == sacrebleu.utils.sum_of_lists(counts)


@pytest.mark.parametrize(
    "test_type, n_samples, n_ar_confidence", [("bs", 300, -1), ("ar", 300, 200)]
)
def test_paired_test_is_sacrebleus(monkeypatch, test_type, n_samples, n_ar_confidence):
    """The same signature, and for each system the same score, p-value, mean and
    interval, bit for bit."""
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    results = []
    for Metric, Test in ((BLEU, PairedTest), (SacreBLEU, SacrePairedTest)):
        signatures, scores = Test(
            SYSTEMS,
            {"BLEU": Metric(references=REFS)},
            None,
            test_type=test_type,
            n_samples=n_samples,
            n_ar_confidence=n_ar_confidence,
        )()
        rows = [(r.score, r.p_value, r.mean, r.ci) for r in scores["BLEU"]]
        results.append((str(signatures["BLEU"]), scores["System"], rows))
    assert results[0] == results[1]
    assert results[0][2][1][1] is not None and results[0][2][0][1] is None


def test_a_result_prints_as_sacrebleus():
    from sacrebleu.significance import Result as SacreResult

    assert repr(Result(30.5, 0.01, 30.4, 1.2)) == repr(
        SacreResult(30.5, 0.01, 30.4, 1.2)
    )


@pytest.mark.parametrize(
    "metrics, words",
    [(None, "metrics must be a dict"), ({"BLEU": "13a"}, "metrics['BLEU'] must be")],
)
def test_a_paired_test_refuses_what_is_not_a_metric(metrics, words):
    with pytest.raises(TypeError, match=words.replace("[", r"\[")):
        PairedTest(SYSTEMS, metrics, REFS)


def test_sacrebleu_names_read_by_its_users():
    """BLEU.TOKENIZERS, and BLEUScore._mean and _ci, which SacreBLEU's code and tests
    read."""
    assert set(BLEU.TOKENIZERS) <= set(SacreBLEU.TOKENIZERS)
    hyps = SYSTEMS[0][1]
    assert (
        BLEU().corpus_score(hyps, REFS)._mean,
        SacreBLEU().corpus_score(hyps, REFS)._mean,
    ) == (-1.0, -1.0)
    assert os.environ.get("SACREBLEU_SEED") in (None, "12345")
    mine, theirs = (
        Metric().corpus_score(hyps, REFS, n_bootstrap=50)
        for Metric in (BLEU, SacreBLEU)
    )
    assert (mine._mean, mine._ci) == (theirs._mean, theirs._ci)
