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


@pytest.fixture
def bad_files(tmp_path):
    (tmp_path / "latin1.txt").write_bytes("Gr\u00fc\u00dfe\n".encode("latin-1"))
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01\x02\n")
    (tmp_path / "short.txt").write_text("one line\n", encoding="utf-8")
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "folder").mkdir()
    return tmp_path


BAD = [
    ("missing hypothesis file", [REFS[0], "-i", "no-such-file.txt"], 1, "cannot read hypothesis file 'no-such-file.txt'"),
    ("missing reference file", ["no-such-ref.txt", "-i", ALPHA], 1, "cannot read reference file 'no-such-ref.txt'"),
    ("not UTF-8", [REFS[0], "-i", "latin1.txt"], 1, "is not UTF-8 text (byte 0xfc on line 1)"),
    ("binary", ["binary.txt", "-i", ALPHA], 1, "looks binary"),
    ("different line counts", [REFS[0], "-i", "short.txt"], 1, "has 60 lines but the hypotheses have 1"),
    ("empty hypothesis file", [REFS[0], "-i", "empty.txt"], 1, "is empty"),
    ("a folder", [REFS[0], "-i", "folder"], 1, "cannot read hypothesis file 'folder'"),
    ("two systems after -i", [REFS[0], "-i", ALPHA, BETA], 2, "takes one hypothesis file"),
    ("unknown tokenizer", [REFS[0], "-i", ALPHA, "-tok", "ja-mecab"], 2, "invalid choice: 'ja-mecab'"),
    ("negative smoothing value", [REFS[0], "-i", ALPHA, "-s", "floor", "-sv", "-1"], 1, "smooth_value must be"),
    ("no reference", ["-i", ALPHA], 2, "the following arguments are required: REFERENCE_FILE"),
]


@pytest.mark.parametrize("what, args, status, words", BAD, ids=[row[0] for row in BAD])
def test_bad_input_is_one_line_and_a_non_zero_exit(bad_files, what, args, status, words):
    code, out, err = command(*args, cwd=bad_files)
    assert (code, out) == (status, "")
    assert len(err.strip().splitlines()) == 1 and words in err and "Traceback" not in err


def test_tab_separated_standard_input_is_refused():
    code, out, err = command(REFS[0], stdin=b"a\tb\n" * 60)
    assert code == 1 and "several systems" in err
