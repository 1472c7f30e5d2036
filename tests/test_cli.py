"""python -m bleu_lib prints what the sacrebleu command prints, and reports bad input in
one line."""

import gzip
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, strategies as st
from sacrebleu.utils import smart_open

import bleu_lib
from bleu_lib.__main__ import parse_args, run, split_lines
from bleu_lib.significance import holm
from support import ROOT

CORPUS = ROOT / "data" / "corpus"
REFS = [str(CORPUS / "ref.A.en"), str(CORPUS / "ref.B.en")]
ALPHA, BETA = str(CORPUS / "sys.alpha.en"), str(CORPUS / "sys.beta.en")


def command(*args, program="bleu_lib", stdin=None, cwd=None, env=None):
    done = subprocess.run(
        [sys.executable, "-m", program, *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
    )
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


OPTIONS = [
    [],
    ["-f", "text"],
    ["-b"],
    ["-b", "-w", "4"],
    ["-w", "3", "-f", "text"],
    ["-tok", "none"],
    ["-tok", "char", "-lc"],
    ["-tok", "zh", "-f", "text"],
    ["-tok", "intl"],
    ["-s", "floor"],
    ["-s", "floor", "-sv", "0.5", "-f", "text"],
    ["-s", "add-k", "-sv", "2"],
    ["-s", "none", "-f", "text"],
    ["--short", "-f", "text"],
    ["--short"],
    ["-sl"],
    ["-sl", "-b"],
    ["-sl", "-s", "none", "-w", "2"],
    ["--force"],
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: " ".join(o) or "defaults")
@pytest.mark.parametrize("system", [ALPHA, BETA], ids=["alpha", "beta"])
def test_output_is_sacrebleus(options, system):
    ours, theirs = (
        command(*REFS, "-i", system, *options),
        command(*REFS, "-i", system, *options, program="sacrebleu"),
    )
    assert ours[0] == theirs[0] == 0
    assert ours[1] == theirs[1]


@given(st.text(alphabet="ab \t\n\r\x0b\x0c\u2028\u0085é", max_size=40))
def test_split_lines_reads_a_file_as_sacrebleu_does(text):
    """SacreBLEU opens a file with newline="\\n", so only "\\n" ends a line, and strips
    each line's end."""
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", newline="", suffix=".txt", delete=False
    ) as file:
        file.write(text)
    try:
        assert split_lines(text) == [line.rstrip() for line in smart_open(file.name)]
    finally:
        os.unlink(file.name)


def test_one_reference_and_standard_input():
    text = (CORPUS / "sys.beta.en").read_bytes()
    ours, theirs = (
        command(REFS[0], "-f", "text", stdin=text),
        command(REFS[0], "-f", "text", stdin=text, program="sacrebleu"),
    )
    assert ours[0] == 0 and ours[1] == theirs[1]


def test_chinese_with_zh():
    zh = ROOT / "data" / "zh"
    args = [str(zh / "ref.zh"), "-i", str(zh / "sys.zh"), "-tok", "zh"]
    assert command(*args)[1] == command(*args, program="sacrebleu")[1]


def test_max_ngram_order_matches_the_api():
    from sacrebleu.metrics import BLEU

    hyps = (CORPUS / "sys.alpha.en").read_text(encoding="utf-8").splitlines()
    refs = [(CORPUS / "ref.A.en").read_text(encoding="utf-8").splitlines()]
    status, out, _ = command(
        REFS[0], "-i", ALPHA, "--max-ngram-order", "2", "-b", "-w", "6"
    )
    assert (
        status == 0
        and out.strip()
        == f"{BLEU(max_ngram_order=2).corpus_score(hyps, refs).score:.6f}"
    )


# --- several systems
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        ["-f", "text"],
        ["-f", "json"],
        ["-f", "latex"],
        ["-f", "text", "-w", "3", "-sh"],
        ["-b"],
        ["-f", "latex", "-w", "0"],
        ["-m", "bleu", "-f", "text", "-tok", "intl"],
    ],
    ids=lambda o: " ".join(o),
)
@pytest.mark.parametrize("refs", [REFS[:1], REFS], ids=["1 ref", "2 refs"])
def test_several_systems_print_sacrebleus_table(options, refs):
    ours = command(*refs, "-i", ALPHA, BETA, *options)
    theirs = command(*refs, "-i", ALPHA, BETA, *options, program="sacrebleu")
    assert ours[0] == theirs[0] == 0 and ours[1] == theirs[1] and ours[2] == ""


def test_tab_separated_standard_input_is_several_systems():
    both = "".join(
        f"{a}\t{b}\n"
        for a, b in zip(
            *(open(f, encoding="utf-8").read().splitlines() for f in (ALPHA, BETA))
        )
    )
    ours, theirs = (
        command(*REFS, "-f", "text", stdin=both.encode()),
        command(*REFS, "-f", "text", stdin=both.encode(), program="sacrebleu"),
    )
    assert ours[0] == 0 and ours[1] == theirs[1] and "System 2" in ours[1]
    code, out, err = command(*REFS, stdin=b"a\tb\n" + b"c\n" * 59)
    assert (
        code == 17  # SacreBLEU's status for uneven fields
        and out == ""
        and "standard input has 1 tab-separated fields on line 2 but 2 on line 1" in err
    )


def test_system_names_that_look_like_numbers_are_tabulated_as_sacrebleu_does(tmp_path):
    """tabulate reformats a column whose every cell is a number: system files named 01
    and 2.50 print as 1.0 and 2.5."""
    for name, source in [("01", ALPHA), ("2.50", BETA)]:
        (tmp_path / name).write_bytes(open(source, "rb").read())
    for options in (["-f", "text"], ["-f", "latex", "-w", "2"]):
        ours = command(*REFS, "-i", "01", "2.50", *options, cwd=tmp_path)
        assert (
            ours[0] == 0
            and ours[1]
            == command(
                *REFS, "-i", "01", "2.50", *options, program="sacrebleu", cwd=tmp_path
            )[1]
        )


def test_the_references_given_after_i_are_named_in_the_error():
    code, out, err = command("-i", ALPHA, *REFS)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert (
        "no reference file: every file after -i was read as a system output" in err
        and "ref.B.en" in err
    )


# --- confidence intervals and paired tests
# ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def gamma(tmp_path_factory):
    "A third system: alpha, with every third line replaced by beta's."
    lines = [
        b if k % 3 == 2 else a
        for k, (a, b) in enumerate(
            zip(*(open(f, encoding="utf-8").read().splitlines() for f in (ALPHA, BETA)))
        )
    ]
    path = tmp_path_factory.mktemp("gamma") / "sys.gamma.en"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def same_as_sacrebleu(*args, stdin=None, env=None):
    ours, theirs = (
        command(*args, stdin=stdin, env=env),
        command(*args, stdin=stdin, env=env, program="sacrebleu"),
    )
    assert ours[0] == theirs[0] and ours[1] == theirs[1] and "Traceback" not in ours[2]
    return ours


@pytest.mark.parametrize(
    "test",
    [["--paired-bs", "--paired-bs-n", "200"], ["--paired-ar", "--paired-ar-n", "1000"]],
    ids=["bs", "ar"],
)
@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("tokenize", ["13a", "char"])
@pytest.mark.parametrize("refs", [REFS[:1], REFS], ids=["1 ref", "2 refs"])
def test_paired_tests_print_sacrebleus_table(test, fmt, tokenize, refs, gamma):
    code, out, _ = same_as_sacrebleu(
        *refs, "-i", ALPHA, BETA, gamma, *test, "-f", fmt, "-tok", tokenize
    )
    assert code == 0 and "p" in out and gamma in out


@pytest.mark.parametrize(
    "options",
    [
        ["--paired-bs", "-f", "text"],
        ["--paired-ar", "-f", "json"],
        ["--paired-bs", "-f", "latex", "-w", "3", "-sh", "-b"],
        ["--paired-ar", "--paired-ar-n", "500", "-f", "latex", "-lc"],
        ["-pbs", "-pbsn", "300", "-f", "text", "-w", "2", "-sh", "-j", "2"],
    ],
    ids=lambda o: " ".join(o),
)
def test_paired_tests_with_default_counts_and_other_options(options, gamma):
    assert same_as_sacrebleu(*REFS, "-i", ALPHA, gamma, BETA, *options)[0] == 0


def test_paired_test_on_standard_input_and_with_a_seed(gamma):
    columns = [
        open(f, encoding="utf-8").read().splitlines() for f in (ALPHA, BETA, gamma)
    ]
    tsv = "".join("\t".join(row) + "\n" for row in zip(*columns)).encode()
    assert (
        same_as_sacrebleu(
            *REFS, "--paired-bs", "--paired-bs-n", "200", "-f", "text", stdin=tsv
        )[0]
        == 0
    )
    ours = same_as_sacrebleu(
        *REFS,
        "-i",
        ALPHA,
        gamma,
        "--paired-bs",
        "-pbsn",
        "200",
        env={"SACREBLEU_SEED": "7"},
    )
    assert (
        ours[0] == 0
        and ours[1]
        != command(*REFS, "-i", ALPHA, gamma, "--paired-bs", "-pbsn", "200")[1]
    )
    ours = same_as_sacrebleu(
        *REFS,
        "-i",
        ALPHA,
        gamma,
        "--paired-ar",
        "-parn",
        "1000",
        "-f",
        "text",
        env={"SACREBLEU_SEED": "7"},
    )
    assert ours[0] == 0 and "seed:7|" in ours[1]


@pytest.mark.parametrize(
    "options",
    [
        ["-f", "text"],
        ["-f", "json"],
        ["-b"],
        ["-f", "text", "-tok", "char", "-w", "2"],
        ["-f", "json", "-tok", "char", "-sh"],
        ["-cin", "300", "-f", "latex"],
    ],
    ids=lambda o: " ".join(o),
)
@pytest.mark.parametrize("refs", [REFS[:1], REFS], ids=["1 ref", "2 refs"])
def test_confidence_for_one_system_is_sacrebleus(options, refs, gamma):
    code, out, _ = same_as_sacrebleu(*refs, "-i", gamma, "--confidence", *options)
    assert code == 0 and "μ = " in out


def test_confidence_with_a_seed_and_for_several_systems(gamma):
    ours = same_as_sacrebleu(
        REFS[0], "-i", ALPHA, "--confidence", "-f", "text", env={"SACREBLEU_SEED": "7"}
    )
    assert ours[0] == 0 and "seed:7|" in ours[1]
    # SacreBLEU too refuses it
    code, out, err = same_as_sacrebleu(*REFS, "-i", ALPHA, BETA, "--confidence")
    assert (
        code == 1 and out == "" and "--paired-bs" in err and len(err.splitlines()) == 1
    )


@pytest.mark.parametrize(
    "options", [["-f", "text"], ["-f", "json"], ["-f", "latex"], ["-b"]]
)
def test_three_systems_without_a_test_print_a_row_each(options, gamma):
    code, out, _ = same_as_sacrebleu(*REFS, "-i", ALPHA, BETA, gamma, *options)
    assert code == 0 and all(name in out for name in (ALPHA, BETA, gamma))


@pytest.mark.parametrize(
    "options",
    [[], ["-tok", "char", "-lc"], ["-s", "floor"]],
    ids=lambda o: " ".join(o) or "defaults",
)
@pytest.mark.parametrize("refs", [REFS[:1], REFS], ids=["1 ref", "2 refs"])
def test_paired_all_gives_each_system_sacrebleus_bootstrap(options, refs, gamma):
    """Every pair (ours): each system's score, mean and interval are SacreBLEU's; its
    pairs with the first are SacreBLEU's tests."""
    systems = ["-i", ALPHA, gamma, BETA, "-pbsn", "300", *options]
    code, out, _ = command(*refs, *systems, "--paired-all")
    theirs = json.loads(command(*refs, *systems, "--paired-bs", program="sacrebleu")[1])
    ours = json.loads(out)
    assert code == 0 and [row["name"] for row in ours["systems"]] == [
        ALPHA,
        gamma,
        BETA,
    ]
    for mine, sacre in zip(ours["systems"], theirs):
        assert [mine[k] for k in ("score", "mean", "ci")] == [
            sacre["BLEU"][k] for k in ("score", "mean", "ci")
        ]
    pairs = {(pair["a"], pair["b"]): pair for pair in ours["pairs"]}
    assert len(pairs) == 3 and [pairs[ALPHA, name]["p"] for name in (gamma, BETA)] == [
        s["BLEU"]["p_value"] for s in theirs[1:]
    ]
    assert [pair["p_holm"] for pair in ours["pairs"]] == holm(
        [pair["p"] for pair in ours["pairs"]]
    )
    assert ours["signature"].startswith(f"nrefs:{len(refs)}|bs:300|seed:12345|")


def test_paired_all_as_text_and_from_standard_input(gamma):
    code, out, err = command(
        *REFS, "-i", ALPHA, BETA, gamma, "--paired-all", "-f", "text", "-w", "2"
    )
    assert code == 0 and "comparing every pair of 3 systems" in err
    lines = out.splitlines()
    assert lines[0].split() == ["cluster", "system", "BLEU", "μ", "±", "95%", "CI"]
    # the text names the systems by what differs in their file names
    assert lines[2].split()[:3] == ["1", "alpha", "75.75"] and lines[-1].startswith(
        " - BLEU       nrefs:2|bs:1000|seed:12345|"
    )
    assert [
        line.split()[3:] for line in lines if line.startswith("alpha vs beta ")
    ] == [["-39.84", "0.0010", "0.0030", "yes"]]
    columns = [open(f, encoding="utf-8").read().splitlines() for f in (ALPHA, BETA)]
    tsv = "".join("\t".join(row) + "\n" for row in zip(*columns)).encode()
    code, out, _ = command(*REFS, "--paired-all", "-f", "text", "-q", stdin=tsv)
    assert code == 0 and "System 1 vs System 2" in out


BAD_TESTS = {
    "systems of different lengths": (
        ["-i", ALPHA, "SHORT", "--paired-bs"],
        {},
        "have 59",
    ),
    "references shorter than the systems": (
        ["SHORT", "-i", ALPHA, BETA, "--paired-ar"],
        {},
        "has 59 lines",
    ),
    "one system for a paired test": (
        ["-i", ALPHA, "--paired-ar"],
        {},
        "two or more files after -i",
    ),
    "both tests": (
        ["-i", ALPHA, BETA, "--paired-bs", "--paired-ar"],
        {},
        "not allowed with",
    ),
    # 0 is SacreBLEU's "the default" (test_cli_real_systems.py); 1e3 is not a count
    "resamples in exponent notation": (
        ["-i", ALPHA, BETA, "--paired-bs", "--paired-bs-n", "1e3"],
        {},
        "'1e3' is not a whole number",
    ),
    "negative trials": (
        ["-i", ALPHA, BETA, "--paired-ar", "--paired-ar-n", "-5"],
        {},
        "'-5' is not a whole number",
    ),
    "fractional resamples": (
        ["-i", ALPHA, "--confidence", "--confidence-n", "1.5"],
        {},
        "'1.5' is not a whole number",
    ),
    "too many resamples": (
        ["-i", ALPHA, BETA, "-pbs", "-pbsn", "1000001"],
        {},
        "from 0 (the default) to 1,000,000",
    ),
    "a seed that is not a number": (
        ["-i", ALPHA, BETA, "--paired-bs"],
        {"SACREBLEU_SEED": "seven"},
        "SACREBLEU_SEED",
    ),
    "a seed that is not a number, one system": (
        ["-i", ALPHA, "--confidence"],
        {"SACREBLEU_SEED": "1.5"},
        "SACREBLEU_SEED",
    ),
    "chrF in a paired test": (
        ["-i", ALPHA, BETA, "--paired-bs", "-m", "bleu", "chrf", "-f", "json"],
        {},
        "BLEU only",
    ),
    "a test at sentence level": (["-i", ALPHA, "-sl", "--confidence"], {}, "drop -sl"),
    "every pair of one system": (
        ["-i", ALPHA, "--paired-all"],
        {},
        "two or more files after -i",
    ),
    "every pair and a baseline test": (
        ["-i", ALPHA, BETA, "--paired-all", "--paired-ar"],
        {},
        "not allowed with",
    ),
    "every pair in LaTeX": (
        ["-i", ALPHA, BETA, "--paired-all", "-f", "latex"],
        {},
        "no LaTeX form",
    ),
    "every pair of systems of different lengths": (
        ["-i", ALPHA, "SHORT", "--paired-all"],
        {},
        "have 59",
    ),
}


@pytest.mark.parametrize("case", BAD_TESTS, ids=str)
def test_bad_test_options_are_one_line(case, tmp_path):
    args, env, message = BAD_TESTS[case]
    (tmp_path / "short").write_text(
        "".join(open(BETA, encoding="utf-8").readlines()[:59]), encoding="utf-8"
    )
    refs = [] if args[0] == "SHORT" else [REFS[0]]  # the short file is the reference
    code, out, err = command(
        *refs,
        *[str(tmp_path / "short") if arg == "SHORT" else arg for arg in args],
        env=env,
    )
    assert (
        code in (1, 2) and out == "" and len(err.splitlines()) == 1 and message in err
    ), err


# --- SacreBLEU's other options
# --------------------------------------------------------------------------------------


def test_latex_for_one_system_prints_the_text_line_as_sacrebleu_does():
    assert (
        command(*REFS, "-i", ALPHA, "-f", "latex")[1]
        == command(*REFS, "-i", ALPHA, "-f", "latex", program="sacrebleu")[1]
    )


def test_num_refs_reads_tab_separated_references(tmp_path):
    lines = zip(*(open(path, encoding="utf-8").read().splitlines() for path in REFS))
    (tmp_path / "refs.tsv").write_text(
        "".join(f"{a}\t{b}\n" for a, b in lines), encoding="utf-8"
    )
    ours = command(str(tmp_path / "refs.tsv"), "-nr", "2", "-i", ALPHA, "-f", "text")
    assert ours[0] == 0 and ours[1] == command(*REFS, "-i", ALPHA, "-f", "text")[1]
    assert (
        ours[1]
        == command(
            str(tmp_path / "refs.tsv"),
            "-nr",
            "2",
            "-i",
            ALPHA,
            "-f",
            "text",
            program="sacrebleu",
        )[1]
    )


def test_language_pair_picks_the_tokenizer():
    zh = ROOT / "data" / "zh"
    args = [str(zh / "ref.zh"), "-i", str(zh / "sys.zh"), "-l", "en-zh", "-f", "text"]
    ours = command(*args)
    assert (
        ours[0] == 0
        and ours[1] == command(*args, program="sacrebleu")[1]
        and "tok:zh" in ours[1]
    )


def test_encoding_and_gzipped_files(tmp_path):
    (tmp_path / "ref.latin1").write_bytes(
        open(REFS[0], encoding="utf-8").read().encode("latin-1", errors="replace")
    )
    (tmp_path / "sys.latin1").write_bytes(
        open(ALPHA, encoding="utf-8").read().encode("latin-1", errors="replace")
    )
    args = [
        str(tmp_path / "ref.latin1"),
        "-i",
        str(tmp_path / "sys.latin1"),
        "-e",
        "latin-1",
        "-f",
        "text",
    ]
    assert (
        command(*args)[0] == 0
        and command(*args)[1] == command(*args, program="sacrebleu")[1]
    )
    for path in [REFS[0], ALPHA]:
        (tmp_path / (Path(path).name + ".gz")).write_bytes(
            gzip.compress(open(path, "rb").read())
        )
    args = [
        str(tmp_path / "ref.A.en.gz"),
        "-i",
        str(tmp_path / "sys.alpha.en.gz"),
        "-f",
        "text",
    ]
    assert (
        command(*args)[1]
        == command(*args, program="sacrebleu")[1]
        == command(REFS[0], "-i", ALPHA, "-f", "text")[1]
    )


def test_version_is_sacrebleus_line_and_ours():
    sacrebleu_command = subprocess.run(
        [Path(sys.executable).parent / "sacrebleu", "--version"],
        capture_output=True,
        text=True,
    )
    code, out, _ = command("--version")
    assert (
        code == 0
        and out
        == f"{sacrebleu_command.stdout.strip()} (bleu_lib {bleu_lib.__version__})\n"
    )
    assert sacrebleu_command.stdout == "sacrebleu 2.6.0\n"


def test_options_are_never_abbreviated():
    # argparse's default would read --tokenize
    code, out, err = command(REFS[0], "-i", ALPHA, "--tok", "none")
    assert code == 2 and out == "" and "unrecognized arguments: --tok" in err


def test_quiet_silences_warnings():
    zh = ROOT / "data" / "zh"
    args = [str(zh / "ref.zh"), "-i", str(zh / "sys.zh")]
    assert "looks Chinese or Japanese" in command(*args)[2]
    code, out, err = command(*args, "-q")
    assert code == 0 and err == "" and out == command(*args)[1]


def test_a_brevity_penalty_that_underflows_is_a_score_not_a_traceback(tmp_path):
    (tmp_path / "ref").write_text("a " * 3000 + "\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("a a a a\n", encoding="utf-8")
    ours = command(str(tmp_path / "ref"), "-i", str(tmp_path / "hyp"), "-f", "text")
    assert (
        ours[0] == 0
        and ours[1]
        == command(
            str(tmp_path / "ref"),
            "-i",
            str(tmp_path / "hyp"),
            "-f",
            "text",
            program="sacrebleu",
        )[1]
    )
    assert "Traceback" not in ours[2] and "brevity penalty" in ours[2]


# --- the command as a process: pipes, interrupts, closed outputs
# --------------------------------------------------


@pytest.fixture(scope="module")
def long_corpus(tmp_path_factory):
    """20,000 segments: seconds of sentence-level scoring, so that the process is still
    running when we act on it."""
    folder = tmp_path_factory.mktemp("long")
    text = open(ALPHA, encoding="utf-8").read() * 334
    (folder / "ref").write_text(
        open(REFS[0], encoding="utf-8").read() * 334, encoding="utf-8"
    )
    (folder / "hyp").write_text(text, encoding="utf-8")
    return [str(folder / "ref"), "-i", str(folder / "hyp"), "-sl", "-b"]


def start(args):
    """The command as a terminal starts it: Ctrl-C interrupts it even when the tests
    themselves run in the background."""
    return subprocess.Popen(
        [sys.executable, "-m", "bleu_lib", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_a_closed_pipe_ends_the_command_quietly(long_corpus):
    """`python -m bleu_lib ... -sl | head -1`: SacreBLEU ends on SIGPIPE without a word,
    and so do we."""
    process = start(long_corpus)
    first = process.stdout.readline()
    process.stdout.close()  # what `head -1` does after one line
    assert process.wait(timeout=120) == -signal.SIGPIPE and first.strip() == b"100.0"
    assert process.stderr.read() == b""


def test_ctrl_c_ends_the_command_with_one_line(long_corpus):
    process = start(long_corpus)
    process.stdout.readline()  # it is scoring
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=120) == 130
    assert process.stderr.read() == b"python -m bleu_lib: interrupted\n"


def test_sentence_scores_are_printed_as_they_are_computed(monkeypatch):
    """The first line is yielded after one sentence is scored, not after all of them
    (SacreBLEU prints line by line)."""
    scored = []
    original = bleu_lib.BLEU.sentence_score
    monkeypatch.setattr(
        bleu_lib.metric.BLEU,
        "sentence_score",
        lambda self, *args: scored.append(1) or original(self, *args),
    )
    lines = run(parse_args([*REFS, "-i", ALPHA, "-sl"]))
    assert (
        next(lines).startswith(
            "BLEU|nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0 = "
        )
        and len(scored) == 1
    )
    assert len(list(lines)) == 59 and len(scored) == 60


def test_a_closed_standard_output_is_an_error_not_silence():
    done = subprocess.run(
        [
            "bash",
            "-c",
            f'exec "{sys.executable}" -m bleu_lib "{REFS[0]}" -i "{ALPHA}" >&-',
        ],
        capture_output=False,
        stderr=subprocess.PIPE,
    )
    assert done.returncode == 1 and b"standard output is closed" in done.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_is_an_error_not_a_traceback():
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "bleu_lib", REFS[0], "-i", ALPHA],
            stdout=full,
            stderr=subprocess.PIPE,
        )
    assert done.returncode == 1 and done.stderr == (
        b"python -m bleu_lib: error: cannot write the output: No space left on device\n"
    )


def test_the_doctor_names_hugging_face_for_its_number():
    status, out, _ = command(*REFS, "-i", BETA, "--doctor", "36.45")
    found = json.loads(out)
    assert status == 0 and [d["settings"]["dialect"] for d in found] == ["hf-evaluate"]
    assert 36.445 <= found[0]["score"] <= 36.455 and found[0]["reproduces"]
    status, out, _ = command(*REFS, "-i", BETA, "--doctor", "36.45", "-f", "text")
    assert out.splitlines()[0] == "1 configuration reproduces 36.45, simplest first:"
    status, out, _ = command(*REFS, "-i", BETA, "--doctor", "99")
    assert status == 0 and not json.loads(out)[0]["reproduces"]
    status, _, err = command(*REFS, "-i", BETA, "--doctor", "high")
    assert status == 2 and "--doctor: the reported score must be a number" in err
    status, _, err = command(*REFS, "-i", BETA, ALPHA, "--doctor", "30")
    assert status != 0 and "one system" in err
