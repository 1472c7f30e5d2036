"""Bad input, one table per interface: every row gets a clear TypeError or ValueError
(or, for the command line, one line on stderr and a non-zero exit) that names the
problem and the fix. README.md shows the same rows ("Bad input").

No row may crash with an unrelated exception (ZeroDivisionError, IndexError,
KeyError...), return NaN, or modify its arguments; degenerate but meaningful input
(empty lines, a hypothesis shorter than n) gets a defined result instead."""

import copy
import math
import os
import subprocess
import sys
import time
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st
from nltk.translate.bleu_score import SmoothingFunction as NLTKSmoothingFunction
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import (
    BLEU,
    BleuStats,
    SmoothingFunction,
    bleu_from_stats,
    brevity_penalty,
    chen_cherry_bleu,
)
from bleu_lib import (
    batch_statistics,
    closest_ref_length,
    corpus_bleu,
    corpus_stats,
    get_tokenizer,
    modified_precision,
    ngrams,
    sentence_bleu,
    sentence_bleu_batch,
)
from bleu_lib import significance
from bleu_lib.explain import explain, report_data
from bleu_lib.resampling import holm
from bleu_lib.tokenizer_table import register as register_tokenizer
from support import ROOT

REFS = [["the", "cat", "is", "on", "the", "mat"]]
HYP = ["the", "cat", "sat", "on", "the", "mat"]
HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
STREAM = ["The dog bit the man.", "It was not unexpected.", "The man bit him first."]
DEEP = []  # a list nested 3,000 levels deep: its repr alone would raise RecursionError
for _ in range(3000):
    DEEP = [DEEP]

# (what is wrong, the call, the exception, words the message must contain)
TOKEN_API = [
    (
        "hypothesis as a string",
        lambda: sentence_bleu(REFS, "the cat sat"),
        TypeError,
        "hypothesis.split()",
    ),
    (
        "hypothesis as bytes",
        lambda: sentence_bleu(REFS, b"the cat"),
        TypeError,
        "list of strings",
    ),
    (
        "references as a string",
        lambda: sentence_bleu("the cat is on the mat", HYP),
        TypeError,
        "[reference.split()]",
    ),
    (
        "a reference as a string",
        lambda: sentence_bleu(["the cat is on the mat", REFS[0]], HYP),
        TypeError,
        "references[0]",
    ),
    (
        "one reference not wrapped",
        lambda: sentence_bleu(REFS[0], HYP),
        TypeError,
        "wrap it as [reference]",
    ),
    (
        "references one level too deep",
        lambda: sentence_bleu([REFS], HYP),
        TypeError,
        "one level too deep",
    ),
    (
        "no references",
        lambda: sentence_bleu([], HYP),
        ValueError,
        "at least one reference",
    ),
    (
        "hypothesis nested",
        lambda: sentence_bleu(REFS, [HYP]),
        TypeError,
        "one flat list of tokens",
    ),
    (
        "a token nested 3,000 levels deep",
        lambda: sentence_bleu(REFS, [DEEP]),
        TypeError,
        "hypothesis[0] is list [[[[...]]]]",
    ),
    (
        "None inside references",
        lambda: sentence_bleu([REFS[0], None], HYP),
        TypeError,
        "references[1]",
    ),
    (
        "a set of tokens",
        lambda: sentence_bleu(REFS, set(HYP)),
        TypeError,
        "in sentence order, not set",
    ),
    (
        "references not iterable",
        lambda: sentence_bleu(5, HYP),
        TypeError,
        "list of token lists",
    ),
    (
        "empty weights",
        lambda: sentence_bleu(REFS, HYP, ()),
        ValueError,
        "weights is empty",
    ),
    (
        "non-numeric weight",
        lambda: sentence_bleu(REFS, HYP, (0.5, "0.5")),
        TypeError,
        "weights must be numbers",
    ),
    (
        "weights as a string",
        lambda: sentence_bleu(REFS, HYP, "0.25"),
        TypeError,
        "tuple of numbers",
    ),
    (
        "negative weight",
        lambda: sentence_bleu(REFS, HYP, (1.5, -0.5)),
        ValueError,
        "at least 0",
    ),
    (
        "NaN weight",
        lambda: sentence_bleu(REFS, HYP, (0.5, math.nan, 0.5)),
        ValueError,
        "finite",
    ),
    (
        "infinite weight",
        lambda: sentence_bleu(REFS, HYP, (math.inf, 0.5)),
        ValueError,
        "finite",
    ),
    (
        "weights all 0",
        lambda: sentence_bleu(REFS, HYP, (0, 0)),
        ValueError,
        "at least one order needs a weight above 0",
    ),
    (
        "a weight too large for a float",
        lambda: sentence_bleu(REFS, HYP, (10**400, 0)),
        ValueError,
        "must be finite",
    ),
    (
        "weights as a set",
        lambda: sentence_bleu(REFS, HYP, {0.5, 0.25}),
        TypeError,
        "not set",
    ),
    (
        "one bad set among several",
        lambda: sentence_bleu(REFS, HYP, [(0.5, 0.5), ()]),
        ValueError,
        "weights[1] is empty",
    ),
    (
        "SmoothingFunction instead of a method",
        lambda: sentence_bleu(REFS, HYP, smoothing_function=SmoothingFunction()),
        TypeError,
        "pass a method",
    ),
    (
        "auto_reweigh as a string",
        lambda: sentence_bleu(REFS, HYP, auto_reweigh="no"),
        TypeError,
        "True or False",
    ),
    (
        "auto_reweigh as an array",
        lambda: sentence_bleu(REFS, HYP, auto_reweigh=np.array([True, False])),
        TypeError,
        "auto_reweigh must be True or False, not ndarray",
    ),
    (
        "NLTK method 6 on a short hypothesis",
        lambda: sentence_bleu(
            REFS, ["the", "cat"], smoothing_function=SmoothingFunction().method6
        ),
        ValueError,
        "trigram match",
    ),
    (
        "unknown paper smoothing method",
        lambda: chen_cherry_bleu(REFS, HYP, 8),
        ValueError,
        "one of 1 to 7",
    ),
    (
        "negative epsilon",
        lambda: chen_cherry_bleu(REFS, HYP, 1, epsilon=-1),
        ValueError,
        "epsilon must be",
    ),
    (
        "epsilon above 1 (a score of 3.25)",
        lambda: chen_cherry_bleu(REFS, ["the", "dog"], 1, epsilon=100),
        ValueError,
        "epsilon must be a finite number between 0 and 1",
    ),
    (
        "infinite k",
        lambda: chen_cherry_bleu(REFS, HYP, 4, k=math.inf),
        ValueError,
        "k must be",
    ),
    (
        "SmoothingFunction: infinite epsilon",
        lambda: SmoothingFunction(epsilon=math.inf),
        ValueError,
        "got inf",
    ),
    (
        "SmoothingFunction: negative epsilon",
        lambda: SmoothingFunction(epsilon=-1),
        ValueError,
        "got -1",
    ),
    (
        "SmoothingFunction: NaN epsilon",
        lambda: SmoothingFunction(epsilon=math.nan),
        ValueError,
        "got nan",
    ),
    (
        "SmoothingFunction: k of 0",
        lambda: SmoothingFunction(k=0),
        ValueError,
        "k must be a finite number above 0",
    ),
    (
        "SmoothingFunction: negative alpha",
        lambda: SmoothingFunction(alpha=-3),
        ValueError,
        "alpha must be",
    ),
    (
        "NLTK's method 5 above 1",
        lambda: sentence_bleu(
            REFS, REFS[0], smoothing_function=SmoothingFunction().method5
        ),
        ValueError,
        "method5 gives BLEU 1.11675 here, above 1",
    ),
    (
        "more matches than n-grams",
        lambda: bleu_from_stats(BleuStats(1, 1, (5,), (1,)), (1,)),
        ValueError,
        "5 matches of order 1 but only 1 n-grams",
    ),
    (
        "n-gram order 0",
        lambda: modified_precision(REFS, HYP, 0),
        ValueError,
        "at least 1",
    ),
    (
        "n-gram order as a float",
        lambda: modified_precision(REFS, HYP, 2.0),
        TypeError,
        "must be an int",
    ),
    (
        "negative hypothesis length",
        lambda: closest_ref_length(REFS, -1),
        ValueError,
        "hyp_len must be at least 0",
    ),
    (
        "length as a float",
        lambda: brevity_penalty(12.5, 10),
        TypeError,
        "closest_ref_len must be an int",
    ),
    (
        "a million tokens for a length",
        lambda: brevity_penalty(["a"] * 10**6, 1),
        TypeError,
        "closest_ref_len must be an int (a number of tokens), not list ['a', 'a', 'a', "
        "'a', 'a', 'a', ...]",
    ),
    ("empty corpus", lambda: corpus_bleu([], []), ValueError, "the corpus is empty"),
    (
        "corpus lengths differ",
        lambda: corpus_bleu([REFS], [HYP, HYP]),
        ValueError,
        "2 hypotheses but 1 lists",
    ),
    (
        "corpus references not wrapped per segment",
        lambda: corpus_bleu([REFS[0], REFS[0]], [HYP, HYP]),
        TypeError,
        "list_of_references[0] is one flat list",
    ),
    (
        "hypotheses as a set",
        lambda: corpus_bleu([REFS, REFS], {tuple(HYP), ("a", "cat")}),
        TypeError,
        "hypotheses must be a list with one entry per segment, in order, not set (a "
        "set or dict has no order of its own)",
    ),
    (
        "numbers for a corpus",
        lambda: corpus_bleu(0, 0),
        TypeError,
        "hypotheses must be a list with one entry per segment",
    ),
    (
        "empty iterators",
        lambda: corpus_bleu(iter([]), iter([])),
        ValueError,
        "the corpus is empty",
    ),
    (
        "an iterator of hypotheses longer",
        lambda: corpus_bleu(iter([REFS]), iter([HYP, HYP, HYP])),
        ValueError,
        "3 hypotheses but 1 lists of references",
    ),
    (
        "an iterator of references longer",
        lambda: corpus_bleu(iter([REFS, REFS]), iter([HYP])),
        ValueError,
        "1 hypotheses but 2 lists of references",
    ),
    (
        "an iterator of one flat hypothesis",
        lambda: corpus_bleu(iter([REFS] * 6), iter(HYP)),
        TypeError,
        "hypotheses is one flat list of tokens",
    ),
    (
        "a string in an iterator, late",
        lambda: corpus_bleu(iter([REFS] * 3), iter([HYP, HYP, "the cat"])),
        TypeError,
        "hypotheses[2] is a string",
    ),
    (
        "bad references in an iterator, late",
        lambda: corpus_bleu(iter([REFS, REFS[0]]), iter([HYP, HYP])),
        TypeError,
        "list_of_references[1] is one flat list",
    ),
    (
        "jobs as a float",
        lambda: corpus_bleu([REFS], [HYP], jobs=1.5),
        ValueError,
        "jobs must be a number of processes",
    ),
    (
        "corpus_stats with order 0",
        lambda: corpus_stats([REFS], [HYP], 0),
        ValueError,
        "max_order must be at least 1",
    ),
    (
        "corpus_stats with order -1",
        lambda: corpus_stats([REFS], [HYP], -1),
        ValueError,
        "max_order must be at least 1",
    ),
]

TEXT_API = [
    (
        "bare strings (the NASA call)",
        lambda: BLEU().corpus_score(HYPS[0], STREAM[0]),
        TypeError,
        "hypotheses is a single string",
    ),
    (
        "references a bare string",
        lambda: BLEU().corpus_score(HYPS, "x"),
        TypeError,
        "references is a single string",
    ),
    (
        "one stream not wrapped",
        lambda: BLEU().corpus_score(HYPS, STREAM),
        TypeError,
        "pass [references]",
    ),
    (
        "each line wrapped on its own",
        lambda: BLEU().corpus_score(HYPS, [[r] for r in STREAM]),
        ValueError,
        "looks transposed",
    ),
    (
        "NLTK's per-segment layout (transposed)",
        lambda: BLEU().corpus_score(HYPS, [[r, r] for r in STREAM]),
        ValueError,
        "zip(*references)",
    ),
    (
        "a stream too short",
        lambda: BLEU().corpus_score(HYPS, [STREAM[:2]]),
        ValueError,
        "has 2 lines but there are 3",
    ),
    (
        "a stream too long",
        lambda: BLEU().corpus_score(HYPS, [STREAM + ["extra"]]),
        ValueError,
        "has 4 lines but there are 3",
    ),
    (
        "streams of different lengths",
        lambda: BLEU().corpus_score(HYPS, [STREAM, STREAM[:2]]),
        ValueError,
        "stream 1 has 2 lines",
    ),
    (
        "token lists for hypotheses",
        lambda: BLEU().corpus_score([h.split() for h in HYPS], [STREAM]),
        TypeError,
        "' '.join(tokens)",
    ),
    (
        "token lists for references",
        lambda: BLEU().corpus_score(HYPS, [[r.split() for r in STREAM]]),
        TypeError,
        "references[0][0] is list",
    ),
    (
        "None as a hypothesis",
        lambda: BLEU().corpus_score([HYPS[0], None, HYPS[2]], [STREAM]),
        TypeError,
        "hypotheses[1] is NoneType",
    ),
    (
        "a segment with no reference at all",
        lambda: BLEU().corpus_score(HYPS, [[STREAM[0], None, STREAM[2]]]),
        ValueError,
        "segment 1 has no reference",
    ),
    (
        "empty corpus (no hypotheses)",
        lambda: BLEU().corpus_score([], [[]]),
        ValueError,
        "nothing to score",
    ),
    (
        "no reference streams",
        lambda: BLEU().corpus_score(HYPS, []),
        TypeError,
        "non-empty list of reference streams",
    ),
    (
        "hypotheses as a set",
        lambda: BLEU().corpus_score(set(HYPS), [STREAM]),
        TypeError,
        "must be a list of strings",
    ),
    (
        "sentence_score given a list",
        lambda: BLEU().sentence_score(["a", "b"], ["a b"]),
        TypeError,
        "scores one string",
    ),
    (
        "sentence_score references a string",
        lambda: BLEU().sentence_score("a b", "a b"),
        TypeError,
        "list of reference strings",
    ),
    (
        "unknown smoothing method",
        lambda: BLEU(smooth_method="laplace"),
        ValueError,
        "is not one of",
    ),
    (
        "negative smoothing value",
        lambda: BLEU(smooth_method="floor", smooth_value=-1),
        ValueError,
        "at least 0",
    ),
    (
        "a floor above 1",
        lambda: BLEU(smooth_method="floor", smooth_value=2),
        ValueError,
        "smooth_value=2 is above 1",
    ),
    ("NaN smoothing value", lambda: BLEU(smooth_value=math.nan), ValueError, "finite"),
    ("max_ngram_order 0", lambda: BLEU(max_ngram_order=0), ValueError, "at least 1"),
    (
        "unknown tokenizer",
        lambda: BLEU(tokenize="13A"),
        ValueError,
        "is not a tokenizer",
    ),
    (
        "tokenizer in a list",
        lambda: BLEU(tokenize=["13a"]),
        ValueError,
        "tokenize=['13a'] is not a tokenizer",
    ),
    (
        "get_tokenizer of a list",
        lambda: get_tokenizer([]),
        ValueError,
        "tokenize=[] is not a tokenizer",
    ),
    (
        "a tokenizer registered under a number",
        lambda: register_tokenizer(13, str.lower),
        TypeError,
        "a tokenizer's name must be a non-empty string, such as the command line's "
        "-tok takes, not int 13",
    ),
    (
        "a tokenizer registered as a string",
        lambda: register_tokenizer("lc", "lower"),
        TypeError,
        "tokenize must be a function from a line to a line of space-separated tokens, "
        "not str 'lower'",
    ),
    (
        "a tokenizer registered over SacreBLEU's",
        lambda: register_tokenizer("13a", str.lower),
        ValueError,
        "'13a' is SacreBLEU's tokenizer, and tok:13a in a signature must mean it",
    ),
    (
        "lowercase as an array",
        lambda: BLEU(lowercase=np.array([True, False])),
        TypeError,
        "lowercase must be True or False",
    ),
    (
        "trg_lang as a list",
        lambda: BLEU(trg_lang=["zh"]),
        TypeError,
        "trg_lang must be a language code",
    ),
    (
        "a hypothesis nested 3,000 levels deep",
        lambda: BLEU().corpus_score([DEEP], [["a"]]),
        TypeError,
        "hypotheses[0] is list [[[[...]]]]",
    ),
    (
        "a tokenizer bleu_lib does not include",
        lambda: BLEU(tokenize="ja-mecab"),
        ValueError,
        "not included in bleu_lib",
    ),
    (
        "lowercase as a string",
        lambda: BLEU(lowercase="no"),
        TypeError,
        "lowercase must be True or False",
    ),
    (
        "signature before scoring",
        lambda: BLEU().get_signature(),
        ValueError,
        "number of references is unknown",
    ),
    (
        "no references at all",
        lambda: BLEU().corpus_score(HYPS, None),
        ValueError,
        "no references",
    ),
    (
        "cached references of another length",
        lambda: BLEU(references=[STREAM[:2]]).corpus_score(HYPS, None),
        ValueError,
        "have 2 lines but there are 3 hypotheses",
    ),
    (
        "compute_bleu with too few counts",
        lambda: BLEU.compute_bleu([1, 0], [2, 1], 2, 2),
        ValueError,
        "need 4 counts each",
    ),
    (
        "compute_bleu with a NaN count",
        lambda: BLEU.compute_bleu([1, math.nan, 0, 0], [2, 1, 1, 1], 2, 2),
        ValueError,
        "correct[1] is nan",
    ),
    (
        "compute_bleu with a fractional length",
        lambda: BLEU.compute_bleu([1, 0, 0, 0], [2, 1, 0, 0], 2.5, 2),
        TypeError,
        "sys_len must be an int",
    ),
    (
        "compute_bleu with None for counts",
        lambda: BLEU.compute_bleu(None, [1] * 4, 1, 1),
        TypeError,
        "correct must be a list of n-gram counts, one per order, not NoneType None",
    ),
    (
        "compute_bleu with more matches than n-grams (a score of 500)",
        lambda: BLEU.compute_bleu([5] * 4, [1] * 4, 1, 1),
        ValueError,
        "correct[0] is 5 but total[0] is 1: there cannot be more matches than n-grams",
    ),
]


@pytest.mark.parametrize(
    "what, call, exception, words",
    TOKEN_API + TEXT_API,
    ids=[row[0] for row in TOKEN_API + TEXT_API],
)
def test_bad_input_gets_a_clear_error(what, call, exception, words):
    with pytest.raises(exception) as error:
        call()
    assert type(error.value) is exception and words in str(error.value)
    # one readable sentence, whatever the input's size or depth
    assert len(str(error.value)) < 400


CORPUS = ROOT / "data" / "corpus"
REF_A, ALPHA, BETA = (
    str(CORPUS / "ref.A.en"),
    str(CORPUS / "sys.alpha.en"),
    str(CORPUS / "sys.beta.en"),
)

# (what is wrong, the arguments, the exit status, words of the one line on stderr)
COMMAND_LINE = [
    (
        "missing hypothesis file",
        [REF_A, "-i", "no-such-file.txt"],
        1,
        "cannot read hypothesis file 'no-such-file.txt'",
    ),
    (
        "missing reference file",
        ["no-such-ref.txt", "-i", ALPHA],
        1,
        "cannot read reference file 'no-such-ref.txt'",
    ),
    (
        "file not UTF-8",
        [REF_A, "-i", "latin1.txt"],
        1,
        "is not UTF-8 text (byte 0xfc on line 1)",
    ),
    ("binary file", ["binary.txt", "-i", ALPHA], 1, "looks binary"),
    (
        "different line counts",
        [REF_A, "-i", "short.txt"],
        1,
        "has 60 lines but the hypotheses have 1",
    ),
    ("empty hypothesis file", [REF_A, "-i", "empty.txt"], 1, "is empty"),
    (
        "a folder for a file",
        [REF_A, "-i", "folder"],
        1,
        "cannot read hypothesis file 'folder'",
    ),
    (
        "references after -i",
        ["-i", ALPHA, REF_A],
        2,
        "no reference file: every file after -i was read as a system output",
    ),
    (
        "unknown tokenizer option",
        [REF_A, "-i", ALPHA, "-tok", "ja-mecab"],
        2,
        "invalid choice: 'ja-mecab'",
    ),
    (
        "negative smoothing value option",
        [REF_A, "-i", ALPHA, "-s", "floor", "-sv", "-1"],
        1,
        "smooth_value must be",
    ),
    (
        "a floor above 1",
        [REF_A, "-i", ALPHA, "-s", "floor", "-sv", "2"],
        1,
        "smooth_value=2.0 is above 1",
    ),
    (
        "no reference file",
        ["-i", ALPHA],
        2,
        "the following arguments are required: REFERENCE_FILE",
    ),
    (
        "a test set (-t)",
        ["-t", "wmt14", "-l", "en-de"],
        2,
        "bleu_lib downloads no test sets",
    ),
    (
        "an abbreviated option (-t none)",
        [REF_A, "-i", ALPHA, "-t", "none"],
        2,
        "the tokenizer's option is -tok none",
    ),
    (
        "another metric (-m chrf)",
        [REF_A, "-i", ALPHA, "-m", "bleu", "chrf"],
        2,
        "bleu_lib computes BLEU only, not chrf",
    ),
    (
        "--num-refs with two reference files",
        [REF_A, REF_A, "-nr", "2", "-i", ALPHA],
        2,
        "a single REFERENCE_FILE",
    ),
    (
        "--num-refs and a line without tabs",
        [REF_A, "-nr", "2", "-i", ALPHA],
        17,  # SacreBLEU's status
        "has 1 tab-separated references on line 1",
    ),
    (
        "an unknown encoding",
        [REF_A, "-i", ALPHA, "-e", "utf-9"],
        2,
        "'utf-9' is not an encoding Python knows",
    ),
    (
        "a broken gzip file",
        [REF_A, "-i", "broken.gz"],
        1,
        "starts like a gzip file but cannot be decompressed",
    ),
    (
        "the same system twice",
        [REF_A, "-i", ALPHA, ALPHA],
        1,
        "is given twice after -i",
    ),
    (
        "several systems at sentence level",
        [REF_A, "-i", ALPHA, BETA, "-sl"],
        1,
        "for one system at a time",
    ),
]


@pytest.fixture
def bad_files(tmp_path):
    (tmp_path / "latin1.txt").write_bytes("Gr\u00fc\u00dfe\n".encode("latin-1"))
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01\x02\n")
    (tmp_path / "short.txt").write_text("one line\n", encoding="utf-8")
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "folder").mkdir()
    (tmp_path / "broken.gz").write_bytes(b"\x1f\x8b" + b"not gzip at all\n")
    return tmp_path


@pytest.mark.parametrize(
    "what, args, status, words", COMMAND_LINE, ids=[row[0] for row in COMMAND_LINE]
)
def test_bad_command_line_input_is_one_line_and_a_non_zero_exit(
    bad_files, what, args, status, words
):
    done = subprocess.run(
        [sys.executable, "-m", "bleu_lib", *args],
        capture_output=True,
        text=True,
        cwd=bad_files,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert (done.returncode, done.stdout) == (status, "")
    assert (
        len(done.stderr.strip().splitlines()) == 1
        and words in done.stderr
        and "Traceback" not in done.stderr
    )


def test_readme_shows_every_row():
    """README.md's "Bad input" table lists exactly the rows tested here, with the same
    exceptions."""
    readme = (
        (ROOT / "README.md")
        .read_text(encoding="utf-8")
        .split("## Bad input", 1)[1]
        .split("\n## ", 1)[0]
    )
    rows = [
        line.split("|")[1:-1]
        for line in readme.splitlines()
        if line.startswith("| ") and not line.startswith("| input")
    ]
    shown = {cells[0].strip(): cells[-1].strip() for cells in rows}
    tested = {
        what: exception.__name__
        for what, _, exception, _ in TOKEN_API + TEXT_API + LIBRARY_API + BATCH_API
    }
    tested.update({what: f"exit {status}" for what, _, status, _ in COMMAND_LINE})
    assert {
        what: result.split(":")[0].strip("`") for what, result in shown.items()
    } == tested


DEFINED = [
    # (what is unusual, the call, the defined result): the paper's limit, as NLTK and
    # SacreBLEU give it
    ("empty hypothesis", lambda: sentence_bleu(REFS, []), 0.0),
    ("empty reference", lambda: sentence_bleu([[]], HYP), 0.0),
    ("both empty", lambda: sentence_bleu([[]], []), 0.0),
    ("hypothesis shorter than n", lambda: sentence_bleu(REFS, ["the", "cat"]), 0.0),
    ("BP of an empty hypothesis", lambda: brevity_penalty(6, 0), 0.0),
    (
        "p_2 of a one-token hypothesis",
        lambda: float(modified_precision(REFS, ["the"], 2)),
        0.0,
    ),
    (
        "empty lines in a corpus",
        lambda: BLEU().corpus_score(["", "a b c d"], [["", "a b c d"]]).score,
        SacreBLEU().corpus_score(["", "a b c d"], [["", "a b c d"]]).score,
    ),
    (
        "whitespace-only lines",
        lambda: BLEU().corpus_score(["  \t ", "a b c d"], [["   ", "a b c d"]]).score,
        SacreBLEU().corpus_score(["  \t ", "a b c d"], [["   ", "a b c d"]]).score,
    ),
    ("only empty lines", lambda: BLEU().corpus_score(["", ""], [["", ""]]).score, 0.0),
    (
        "None as a missing reference",
        lambda: BLEU().corpus_score(HYPS, [STREAM, [None, "x", None]]).score,
        SacreBLEU().corpus_score(HYPS, [STREAM, [None, "x", None]]).score,
    ),
    # found by fuzzing: a brevity penalty that underflows to 0 crashed the zero-score
    # warning
    (
        "a brevity penalty below the smallest float",
        lambda: BLEU().corpus_score(["a a a a"], [["a " * 3000]]).score,
        SacreBLEU().corpus_score(["a a a a"], [["a " * 3000]]).score,
    ),
    (
        "the same, with effective order",
        lambda: BLEU(effective_order=True).sentence_score("a", ["a " * 800]).score,
        SacreBLEU(effective_order=True).sentence_score("a", ["a " * 800]).score,
    ),
    # exp(1 - r/c) -> 0
    (
        "a reference length too large for a float",
        lambda: brevity_penalty(10**400, 1),
        0.0,
    ),
    # NLTK's 0/1
    (
        "an order far above the sentence length",
        lambda: float(modified_precision(REFS, HYP, 10_000)),
        0.0,
    ),
    (
        "1,000 orders",
        lambda: (
            BLEU(max_ngram_order=1000, effective_order=True)
            .corpus_score(HYPS, [STREAM])
            .score
        ),
        SacreBLEU(max_ngram_order=1000, effective_order=True)
        .corpus_score(HYPS, [STREAM])
        .score,
    ),
]


@pytest.mark.parametrize(
    "what, call, expected", DEFINED, ids=[row[0] for row in DEFINED]
)
def test_degenerate_input_gets_a_defined_result(what, call, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert call() == expected


def test_a_zero_from_the_brevity_penalty_is_explained():
    with pytest.warns(
        UserWarning,
        match=r"brevity penalty exp\(1 - 3000/4\) is smaller than the smallest float",
    ):
        BLEU().corpus_score(["a a a a"], [["a " * 3000]])


tokens = st.lists(st.sampled_from(["a", "b", "c"]), max_size=8)


@given(
    st.lists(tokens, min_size=1, max_size=3),
    tokens,
    st.sampled_from([None, 1, 2, 3, 4, 5, 7]),
)
def test_arguments_are_never_modified_and_scores_are_finite(refs, hyp, method):
    """Including with NLTK's own smoothing methods 3, 4, 5 and 7, which modify the list
    they are given (and whose score, for 5 and 7, can be above 1, which we refuse)."""
    smoothing = (
        None if method is None else getattr(NLTKSmoothingFunction(), f"method{method}")
    )
    before = copy.deepcopy((refs, hyp))
    scores = []
    for call in (
        lambda: sentence_bleu(refs, hyp, smoothing_function=smoothing),
        lambda: corpus_bleu([refs], [hyp], smoothing_function=smoothing),
        lambda: chen_cherry_bleu(refs, hyp, method or 1),
    ):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                scores.append(call())
        except ValueError as error:
            assert method in (5, 7) and "above 1" in str(error)
    assert (refs, hyp) == before
    assert all(math.isfinite(x) and 0 <= x <= 1 for x in scores)


# The last robustness gaps of issue 27, one reproduction per row: (what is wrong, the
# call, the exception, words the message must contain). The README's "Bad input" table
# does not list them yet, so they are a table of their own.
STATS = BleuStats(3, 3, (3, 2, 1, 0), (3, 2, 1, 0))
SEGMENTS = np.array([[3, 3, 3, 2, 1, 0, 3, 2, 1, 0], [2, 3, 1, 0, 0, 0, 2, 1, 0, 0]])
LIBRARY_API = [
    (
        "method6 with alpha=0 (NLTK: ZeroDivisionError)",
        lambda: sentence_bleu(
            [["the", "cat", "sat", "on"]],
            ["the", "cat", "sat"],
            smoothing_function=SmoothingFunction(alpha=0).method6,
        ),
        ValueError,
        "use alpha > 0",
    ),
    (
        "score_statistics(None)",
        lambda: BLEU().score_statistics(None),
        TypeError,
        "stats must be BleuStats",
    ),
    ("BleuStats + None", lambda: STATS + None, TypeError, "not NoneType None"),
    (
        "paired_test with metric=None",
        lambda: significance.paired_test([("a", SEGMENTS), ("b", SEGMENTS)], None),
        TypeError,
        "metric must be a bleu_lib BLEU",
    ),
    (
        "explain with a tokenizer's name for the metric",
        lambda: explain("the cat", ["the cat"], metric="13a"),
        TypeError,
        "not str '13a'",
    ),
    (
        "confidence_interval of no scores",
        lambda: significance.confidence_interval([]),
        ValueError,
        "got none",
    ),
    *[
        (
            f"compare_all with alpha={alpha}",
            lambda alpha=alpha: significance.compare_all(
                [("a", SEGMENTS), ("b", SEGMENTS)], BLEU(), alpha=alpha
            ),
            ValueError,
            "alpha must be strictly between 0 and 1",
        )
        for alpha in (math.nan, 2, -1)
    ],
    (
        "holm with a NaN p-value",
        lambda: holm([0.01, math.nan]),
        ValueError,
        "p_values[1] must be from 0 to 1, got nan",
    ),
    (
        "chen_cherry_bleu with method=True",
        lambda: chen_cherry_bleu(REFS, HYP, True),
        ValueError,
        "got True",
    ),
]


@pytest.mark.parametrize(
    "what, call, exception, words", LIBRARY_API, ids=[row[0] for row in LIBRARY_API]
)
def test_library_api_gets_a_clear_error(what, call, exception, words):
    with pytest.raises(exception) as error:
        call()
    assert type(error.value) is exception and words in str(error.value)
    assert len(str(error.value)) < 400


# sentence_bleu_batch and batch_statistics (appendix A11): token ids in lists or padded
# arrays. The README's "Bad input" table gets these rows when the batch is merged (the
# rows are in the batch branch's report); until then they are a table of their own.
IDS, ID_REFS = [[1, 2, 3]], [[[1, 2, 3]]]
BATCH_API = [
    (
        "batch: references for another number of hypotheses",
        lambda: sentence_bleu_batch(IDS, ID_REFS * 2),
        ValueError,
        "hypotheses has 1 sequences but references has 2 lists of references",
    ),
    (
        "batch: a negative id",
        lambda: sentence_bleu_batch([[1, -2]], ID_REFS),
        ValueError,
        "hypotheses[0][1] is -2, but token ids are at least 0",
    ),
    (
        "batch: a float id",
        lambda: sentence_bleu_batch([[1, 2.5]], ID_REFS),
        TypeError,
        "hypotheses[0][1] is float 2.5, but a token id is an integer",
    ),
    (
        "batch: a float array",
        lambda: sentence_bleu_batch(np.ones((2, 3)), ID_REFS * 2),
        TypeError,
        "hypotheses is an array of float64",
    ),
    (
        "batch: ragged padding",
        lambda: sentence_bleu_batch(np.array([[1, 0, 2]]), ID_REFS, pad_id=0),
        ValueError,
        "padding may only come at the end of a sequence",
    ),
    (
        "batch: no reference for a hypothesis",
        lambda: sentence_bleu_batch(IDS, [[]]),
        ValueError,
        "references[0] is empty",
    ),
    (
        "batch: one hypothesis, not a batch",
        lambda: sentence_bleu_batch([1, 2, 3], ID_REFS),
        TypeError,
        "pass [hypothesis] for one hypothesis",
    ),
    (
        "batch: a reference not wrapped",
        lambda: sentence_bleu_batch(IDS, [[1, 2, 3]]),
        TypeError,
        "wrap it as [reference]",
    ),
    (
        "batch: text instead of ids",
        lambda: sentence_bleu_batch(["the cat"], [[["the cat"]]]),
        TypeError,
        "hypotheses[0] is a string, but sentence_bleu_batch counts token ids",
    ),
    (
        "batch: a nested token",
        lambda: sentence_bleu_batch([[1, [2]]], ID_REFS),
        TypeError,
        "hypotheses[0][1] is list [2]",
    ),
    (
        "batch: references as a 2-D array",
        lambda: sentence_bleu_batch(np.array([[1, 2]]), np.array([[1, 2]])),
        ValueError,
        "references[:, None, :]",
    ),
    (
        "batch: None in a reference",
        lambda: batch_statistics(IDS, [[[1, None]]]),
        TypeError,
        "references[0][0][1] is NoneType None",
    ),
    (
        "batch: pad_id as a string",
        lambda: sentence_bleu_batch(IDS, ID_REFS, pad_id="<pad>"),
        TypeError,
        "pad_id must be an integer id or None",
    ),
    (
        "batch: an unknown smoothing method",
        lambda: sentence_bleu_batch(IDS, ID_REFS, smooth_method="method3"),
        ValueError,
        "smooth_method='method3' is not one of",
    ),
    (
        "batch: an id of 2**64",
        lambda: sentence_bleu_batch([[2**64]], ID_REFS),
        TypeError,
        "hypotheses[0][0] is int 18446744073709551616",
    ),
    (
        "batch: True among the ids",
        lambda: sentence_bleu_batch([[1, True]], ID_REFS),
        TypeError,
        "hypotheses[0][1] is bool True, but a token id is an integer",
    ),
]


@pytest.mark.parametrize(
    "what, call, exception, words", BATCH_API, ids=[row[0] for row in BATCH_API]
)
def test_batch_api_gets_a_clear_error(what, call, exception, words):
    arguments = copy.deepcopy((IDS, ID_REFS))
    with pytest.raises(exception) as error:
        call()
    assert type(error.value) is exception and words in str(error.value)
    assert len(str(error.value)) < 400
    assert (IDS, ID_REFS) == arguments, "an argument was changed"


@pytest.mark.parametrize("order", [10**9, 2**63, 10**100])
def test_a_huge_order_costs_nothing(order):
    """NLTK's modified_precision returns Fraction(0, 1) at once for these orders (NLTK
    3.9, run live): no n-gram is that long, so nothing need be counted or allocated."""
    from nltk.translate.bleu_score import modified_precision as nltk_precision

    start = time.perf_counter()
    ours = modified_precision(REFS, HYP, order)
    assert ngrams(HYP, order) == [] and ngrams(HYP, 10**8) == []
    assert ours == nltk_precision(REFS, HYP, order) == 0
    assert time.perf_counter() - start < 1


def test_a_report_scores_against_the_references_it_is_given():
    """report_html(systems, references, metric): the metric's own cached references (or
    none) must not replace `references`."""
    hyps = ["the cat sat on the mat", "a dog barked"]
    refs = [["the cat sat on the mat", "a dog barked"]]
    other = [["completely different words", "nothing alike here"]]
    expected = report_data([("sys", hyps)], refs)["systems"][0]["score"]
    for metric in (BLEU(), BLEU(references=other)):
        assert report_data([("sys", hyps)], refs, metric)["systems"][0]["score"] == (
            expected
        )
    assert expected == SacreBLEU().corpus_score(hyps, refs).score


@pytest.mark.parametrize(
    "weights", [(0.25, 0.25, 0.25, 0.25), (0.5, 0.49, 0.005, 0.005)]
)
def test_nltks_zero_order_is_a_factor_of_the_smallest_float(weights):
    """The README's "How bleu_lib compares" row: NLTK's unsmoothed score with p_4 = 0 is
    the score of the other orders times sys.float_info.min ** w_4 (about 1e-77 at
    1/4, 0.029 at 0.005); bleu_lib gives 0.0."""
    from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

    ref, hyp = "the cat sat on the mat".split(), "the cat sat x the mat".split()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = nltk_sentence_bleu([ref], hyp, weights)
        ours = sentence_bleu([ref], hyp, weights)
        rest = nltk_sentence_bleu([ref], hyp, weights[:3])  # its weights sum below 1
    factor = sys.float_info.min ** weights[3]
    assert math.isclose(theirs, rest * factor, rel_tol=1e-9) and ours == 0.0
    assert f"{factor:.2g}" == ("1.2e-77" if weights[3] == 0.25 else "0.029")
