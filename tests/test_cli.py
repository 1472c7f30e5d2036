"""python -m bleu_lib prints what the sacrebleu command prints, and reports bad input in one line."""
import os
import subprocess
import sys

import pytest

from support import ROOT

CORPUS = ROOT / "data" / "corpus"
REFS = [str(CORPUS / "ref.A.en"), str(CORPUS / "ref.B.en")]
ALPHA, BETA = str(CORPUS / "sys.alpha.en"), str(CORPUS / "sys.beta.en")


def command(*args, program="bleu_lib", stdin=None, cwd=None):
    done = subprocess.run([sys.executable, "-m", program, *args], input=stdin, capture_output=True, cwd=cwd,
                          env={**os.environ, "NO_COLOR": "1"})
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


OPTIONS = [[], ["-f", "text"], ["-b"], ["-b", "-w", "4"], ["-w", "3", "-f", "text"], ["-tok", "none"], ["-tok", "char", "-lc"],
           ["-tok", "zh", "-f", "text"], ["-tok", "intl"], ["-s", "floor"], ["-s", "floor", "-sv", "0.5", "-f", "text"],
           ["-s", "add-k", "-sv", "2"], ["-s", "none", "-f", "text"], ["--short", "-f", "text"], ["--short"],
           ["-sl"], ["-sl", "-b"], ["-sl", "-s", "none", "-w", "2"], ["--force"]]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: " ".join(o) or "defaults")
@pytest.mark.parametrize("system", [ALPHA, BETA], ids=["alpha", "beta"])
def test_output_is_sacrebleus(options, system):
    ours, theirs = command(*REFS, "-i", system, *options), command(*REFS, "-i", system, *options, program="sacrebleu")
    assert ours[0] == theirs[0] == 0
    assert ours[1] == theirs[1]


def test_one_reference_and_standard_input():
    text = (CORPUS / "sys.beta.en").read_bytes()
    ours, theirs = command(REFS[0], "-f", "text", stdin=text), command(REFS[0], "-f", "text", stdin=text, program="sacrebleu")
    assert ours[0] == 0 and ours[1] == theirs[1]


def test_chinese_with_zh():
    zh = ROOT / "data" / "zh"
    args = [str(zh / "ref.zh"), "-i", str(zh / "sys.zh"), "-tok", "zh"]
    assert command(*args)[1] == command(*args, program="sacrebleu")[1]


def test_max_ngram_order_matches_the_api():
    from sacrebleu.metrics import BLEU
    hyps = (CORPUS / "sys.alpha.en").read_text(encoding="utf-8").splitlines()
    refs = [(CORPUS / "ref.A.en").read_text(encoding="utf-8").splitlines()]
    status, out, _ = command(REFS[0], "-i", ALPHA, "--max-ngram-order", "2", "-b", "-w", "6")
    assert status == 0 and out.strip() == f"{BLEU(max_ngram_order=2).corpus_score(hyps, refs).score:.6f}"


def test_tab_separated_standard_input_is_refused():
    code, out, err = command(REFS[0], stdin=b"a\tb\n" * 60)
    assert code == 1 and "several systems" in err
