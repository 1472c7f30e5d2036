"""python -m bleu_lib with real systems (issue 27): names in any script, a baseline
repeated by a shell glob, values SacreBLEU accepts, identical systems, and our own
outputs signed and worded as ours."""

import io
import json
import sys
import warnings
from pathlib import Path

import pytest
import wcwidth

import bleu_lib
from bleu_lib import BLEU
from bleu_lib.__main__ import main, short_names
from bleu_lib.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
from bleu_lib.engine import available_cpus, plan_jobs
from bleu_lib.result import display_width
from bleu_lib.significance import Comparison, p_text
from support import ROOT
from test_cli import ALPHA, BETA, REFS, command

SIGNED = f"|bleu_lib:{bleu_lib.__version__}"


def ours(capsys, *args):
    "(exit status, output, errors) of main(args), run in this process."
    try:
        status = main([str(arg) for arg in args])
    except SystemExit as exit:
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def same_as_sacrebleu(capsys, monkeypatch):
    """Run ours in this process (quick) and the sacrebleu command: the same exit status
    and standard output, and our (exit status, output, errors)."""

    def compare(*args, stdin=None, cwd=None, env=None):
        theirs = command(*args, program="sacrebleu", stdin=stdin, cwd=cwd, env=env)
        with monkeypatch.context() as patch:
            if cwd is not None:
                patch.chdir(cwd)
            for name, value in (env or {}).items():
                patch.setenv(name, value)
            if stdin is not None:
                patch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
            result = ours(capsys, *args)
        assert result[:2] == theirs[:2], (args, result, theirs)
        assert "Traceback" not in result[2]
        return result

    return compare


# --- two identical systems
# ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def copy_of_alpha(tmp_path_factory):
    path = tmp_path_factory.mktemp("copy") / "copy.en"
    path.write_bytes(Path(ALPHA).read_bytes())
    return str(path)


def test_identical_systems_are_not_different_in_our_outputs(
    capsys, tmp_path, copy_of_alpha, same_as_sacrebleu
):
    """SacreBLEU's --paired-bs gives a byte-identical copy p = 1/1001 and a star (it
    counts only strictly larger differences); our --report and --paired-all count ties:
    p = 1."""
    out = same_as_sacrebleu(*REFS, "-i", ALPHA, copy_of_alpha, "-pbs", "-f", "text")[1]
    assert "(p = 0.0010)*" in out
    report = tmp_path / "report.html"
    status, _, _ = ours(capsys, *REFS, "-i", ALPHA, copy_of_alpha, "--report", report)
    page = report.read_text(encoding="utf-8")
    assert status == 0 and "p = 1.0000 (within resampling noise)" in page
    assert "0.0010" not in page
    status, out, _ = ours(capsys, *REFS, "-i", ALPHA, copy_of_alpha, "--paired-all")
    (pair,) = json.loads(out)["pairs"]
    assert status == 0 and pair["p"] == pair["p_holm"] == 1.0


def test_report_with_sentence_level_is_refused(capsys, tmp_path):
    status, out, err = ours(
        capsys, REFS[0], "-i", ALPHA, "--report", tmp_path / "r.html", "-sl"
    )
    assert status == 2 and out == "" and "drop -sl" in err
    assert not (tmp_path / "r.html").exists()


def test_an_unwritable_report_is_named(capsys, tmp_path):
    path = tmp_path / "no-such-folder" / "report.html"
    status, out, err = ours(capsys, REFS[0], "-i", ALPHA, "--report", path)
    assert status == 1 and out == ""
    assert err == (
        f"python -m bleu_lib: error: cannot write the report to {str(path)!r}: "
        "No such file or directory\n"
    )


# --- -j: capped, and said
# -------------------------------------------------------------------------------------


def test_jobs_are_capped_at_the_cpus_and_the_chunks(capsys, monkeypatch):
    chunks = [(None, ["a"])] * 3
    assert plan_jobs(100_000, chunks)[0] == min(3, available_cpus())
    assert plan_jobs(100_000, chunks[:1])[0] == 1 and plan_jobs(1, chunks)[0] == 1

    started, count_chunks = [], bleu_lib.metric.count_chunks

    def counted(count, state, chunks, jobs):
        started.append(jobs)
        return count_chunks(count, state, chunks, 1)

    # jobs=: a list is cut to keep the processes busy, a stream in chunks of 1,000
    monkeypatch.setattr(bleu_lib.metric, "count_chunks", counted)
    lines = Path(ALPHA).read_text(encoding="utf-8").splitlines()
    score = BLEU().corpus_score(lines, [lines], jobs=1).score
    assert BLEU().corpus_score(lines, [lines], jobs=100_000).score == score
    assert BLEU().corpus_score(iter(lines), [lines], jobs=100_000).score == score
    assert started == [1, min(2, available_cpus()), 1]
    # -j: 60 segments read from a file are one chunk, counted in this process
    status, out, err = ours(capsys, REFS[0], "-i", ALPHA, "-j", "100000", "-b")
    assert status == 0 and out == "70.9\n"
    assert err == (
        "python -m bleu_lib: -j 100000: 1 process(es) at most, one per CPU "
        f"({available_cpus()} here) and per 1,000 segments (60 here)\n"
    )
    assert ours(capsys, REFS[0], "-i", ALPHA, "-j", "100000", "-b", "-q")[2] == ""


# --- tables of names in any script
# -------------------------------------------------------------------------------------

WIDE_NAMES = ["系统甲", "ＡＢＣ", "😀", "e\u0301x", "a\tb", "👨\u200d👩\u200d👧", "sys"]


def test_display_width_is_wcwidths():
    for name in [*WIDE_NAMES, "١٢", "007", "\x7f", "\u200b"]:
        assert display_width(name) == wcwidth.wcswidth(name), name


@pytest.fixture(scope="module")
def named_systems(tmp_path_factory):
    "Copies of alpha and beta under names in several scripts, and number-like ones."
    folder = tmp_path_factory.mktemp("names")
    for k, name in enumerate([*WIDE_NAMES, "007", "1_000", "١٢"]):
        (folder / name).write_bytes(Path((ALPHA, BETA)[k % 2]).read_bytes())
    return folder


@pytest.mark.parametrize(
    "names, options",
    [
        (WIDE_NAMES, ["-f", "text"]),
        (WIDE_NAMES, ["-f", "latex"]),
        (WIDE_NAMES[:3], ["-pbs", "-pbsn", "50", "-f", "text"]),
        (["007", "1_000", "١٢"], ["-f", "text"]),
        (["007", "1_000"], ["-f", "latex", "-w", "2"]),
    ],
    ids=["text", "latex", "paired-bs", "integers", "integers latex"],
)
def test_tables_of_names_in_any_script_are_sacrebleus(
    named_systems, names, options, same_as_sacrebleu
):
    "SacreBLEU's tabulate pads by display width and keeps integer names as written."
    same_as_sacrebleu(REFS[0], "-i", *names, *options, cwd=named_systems)


def test_a_table_prints_in_utf8_whatever_the_locale(named_systems):
    args = [REFS[0], "-i", *WIDE_NAMES[:2], "-f", "text"]
    env = {"PYTHONIOENCODING": "ascii"}
    mine = command(*args, cwd=named_systems, env=env)
    theirs = command(*args, program="sacrebleu", cwd=named_systems, env=env)
    assert mine[:2] == theirs[:2] and "系统甲" in mine[1]


# --- the baseline repeated, and SacreBLEU's values and exit statuses
# -------------------------------------------------------------------------------------


def test_a_repeated_baseline_is_skipped_as_sacrebleu_skips_it(same_as_sacrebleu):
    # `-i base.txt outputs/*.txt`, the glob matching base.txt again
    code, out, err = same_as_sacrebleu(
        REFS[0], "-i", ALPHA, BETA, ALPHA, "-pbs", "-pbsn", "50", "-f", "text"
    )
    # the table: its header, the baseline once, then beta and its p-value
    table = out.split("\n\n")[0].splitlines()
    rows = [line.split("│")[1].strip() for line in table if "│" in line]
    assert code == 0 and rows == ["System", f"Baseline: {ALPHA}", BETA, ""]
    assert f"ignoring {ALPHA!r} as it was also given as the baseline" in err
    # another system twice, or any repeat without a paired test: both refuse
    for args in [[ALPHA, BETA, BETA, "-pbs"], [ALPHA, BETA, ALPHA]]:
        code, out, err = same_as_sacrebleu(REFS[0], "-i", *args)
        assert code == 1 and "given twice" in err


@pytest.mark.parametrize(
    "args, env",
    [
        ([ALPHA, BETA, "-pbs", "-pbsn", "0", "-f", "text"], {}),
        ([ALPHA, "-ci", "-cin", "0"], {}),
        ([ALPHA, "-l", "EN-DE", "-f", "text"], {}),
        ([ALPHA, "-ci", "-f", "text"], {"SACREBLEU_SEED": "+7"}),
        ([ALPHA, BETA, "-pbs", "-pbsn", "50"], {"SACREBLEU_SEED": "+7"}),
        ([ALPHA, "-d"], {}),
        ([ALPHA, BETA, "-d"], {}),
    ],
    ids=[
        "-pbsn 0",
        "-cin 0",
        "-l EN-DE",
        "seed +7",
        "seed +7 paired",
        "-d",
        "-d two",
    ],
)
def test_values_sacrebleu_accepts_are_accepted(args, env, same_as_sacrebleu):
    assert same_as_sacrebleu(REFS[0], "-i", *args, env=env)[0] == 0


def test_lines_of_the_wrong_shape_exit_with_sacrebleus_17(tmp_path, same_as_sacrebleu):
    (tmp_path / "refs.tsv").write_text("a\tb\n" * 59 + "a\n", encoding="utf-8")
    code, out, err = same_as_sacrebleu(
        str(tmp_path / "refs.tsv"), "-nr", "2", "-i", ALPHA
    )
    assert code == 17 and "line 60" in err
    code, out, err = same_as_sacrebleu(REFS[0], stdin=b"a\tb\n" + b"c\n" * 59)
    assert code == 17 and "line 2" in err


def test_an_upper_case_chinese_target_is_pointed_out(capsys):
    zh = ROOT / "data" / "zh"
    status, _, err = ours(capsys, zh / "ref.zh", "-i", zh / "sys.zh", "-l", "EN-ZH")
    assert status == 0 and "write -l en-zh" in err


# --- --paired-all: short names, p-values beside their decision, bleu_lib's signature
# -------------------------------------------------------------------------------------


def test_short_names_drop_what_every_name_shares():
    assert short_names(["out/sys.alpha.en", "out/sys.beta.en"]) == ["alpha", "beta"]
    assert short_names(["a/model_v10.txt", "b/model_v11.txt"]) == ["v10", "v11"]
    # one name inside another: kept whole; one file name in two folders: the folders
    assert short_names(["base.en", "base.en.en"]) == ["base.en", "base.en.en"]
    assert short_names(["x/out.en", "y/out.en"]) == ["x", "y"]
    assert short_names(["a\tb.en", "c.en"]) == ["a\\tb", "c"]


def test_paired_all_names_systems_shortly_and_signs_as_bleu_lib(capsys):
    args = [*REFS, "-i", ALPHA, BETA, "--paired-all", "-pbsn", "100", "-f", "text"]
    status, out, _ = ours(capsys, *args)
    lines = out.splitlines()
    assert status == 0 and "alpha vs beta " in out and f" - alpha: {ALPHA}" in lines
    assert max(map(len, lines[:8])) < 60 and lines[-1].endswith(SIGNED)
    assert "version:" not in out
    status, out, _ = ours(capsys, *args, "--names", "A", "B")
    assert status == 0 and "A vs B " in out and ALPHA not in out
    status, out, _ = ours(capsys, *args[:-2])
    assert [s["name"] for s in json.loads(out)["systems"]] == [ALPHA, BETA]
    assert json.loads(out)["signature"].endswith(SIGNED)
    status, out, err = ours(capsys, *args, "--names", "A")
    assert status == 1 and "--names gives 1 names for 2 systems" in err


def test_names_rename_sacrebleus_tables_too(capsys):
    status, out, _ = ours(capsys, REFS[0], "-i", ALPHA, BETA, "--names", "A", "B")
    assert status == 0 and [row["system"] for row in json.loads(out)] == ["A", "B"]


def test_a_p_value_is_printed_as_its_decision_used_it():
    assert p_text(0.04995) == "0.04995" and p_text(0.05) == "0.0500"
    assert p_text(0.0123456) == "0.0123" and p_text(0.050004) == "0.0500"
    systems = [
        {"name": name, "score": score, "mean": None, "ci": None, "cluster": 1}
        for name, score in [("a", 30.0), ("b", 31.0)]
    ]
    pair = {"a": "a", "b": "b", "delta": 1.0, "p": 0.04995, "p_holm": 0.04995}
    _, (_, rows) = Comparison(systems, [pair], 0.05, "paired bootstrap").rows()
    assert rows == [["a vs b", "+1.0", "0.04995", "0.04995", "yes"]]


def test_the_report_signs_as_bleu_lib(capsys, tmp_path):
    # (the doctor prints no signature: its lines name dialects and calls)
    ours(capsys, REFS[0], "-i", ALPHA, "--report", tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    # the page's signature is ours; each score's line is SacreBLEU's, with its version
    signature = "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp"
    assert f"<code>{signature}{SIGNED}</code>" in page
    assert f"BLEU|{signature}|version:2.6.0 = 70.91 " in page


# --- words a command-line user can act on
# -------------------------------------------------------------------------------------


def test_the_chinese_hint_names_the_option(capsys):
    zh = ROOT / "data" / "zh"
    status, _, err = ours(capsys, zh / "ref.zh", "-i", zh / "sys.zh")
    assert status == 0 and "use -tok zh for Chinese, or -tok char" in err
    assert "tokenize=" not in err


@pytest.mark.parametrize(
    "hypothesis, reference, options, advice",
    [
        # no 4-gram at all: effective order, which the command has for -sl only
        ("the cat sat", "the cat sat on", [], "score segment by segment with -sl"),
        # 4-grams, none matching, unsmoothed
        (
            "the cat sat on a mat",
            "the cat is on a mat",
            ["-s", "none"],
            "Use -s exp, -s floor or -s add-k",
        ),
    ],
)
def test_a_zero_score_s_advice_names_options(
    capsys, tmp_path, hypothesis, reference, options, advice
):
    (tmp_path / "hyp").write_text(hypothesis + "\n")
    (tmp_path / "ref").write_text(reference + "\n")
    status, _, err = ours(capsys, tmp_path / "ref", "-i", tmp_path / "hyp", *options)
    assert status == 0 and "BLEU is 0 because" in err and advice in err
    assert "effective_order" not in err and "smooth_method" not in err


@pytest.mark.parametrize(
    "typo, meant",
    [
        (["--smooth-metod", "exp"], "did you mean --smooth-method?"),
        (["--paired-bs-m", "5"], "did you mean --paired-bs-n?"),
        (["-tok", "zhh"], "did you mean zh?"),
    ],
)
def test_a_typo_gets_did_you_mean(capsys, typo, meant):
    status, out, err = ours(capsys, REFS[0], "-i", ALPHA, *typo)
    assert status == 2 and out == "" and meant in err and len(err.splitlines()) == 1


def test_warnings_name_the_callers_line():
    "Not a line inside bleu_lib/bleu_score.py or metric.py: this file's."
    calls = [
        lambda: sentence_bleu([["a", "b"]], ["c"]),
        lambda: corpus_bleu([[["a", "b"]]], [["c"]]),
        lambda: sentence_bleu(
            [["a", "b", "c"]],
            ["a", "b"],
            smoothing_function=SmoothingFunction().method0,
        ),
        lambda: BLEU().sentence_score("c", ["a b"]),
        lambda: BLEU().corpus_score(["c"], [["a b"]]),
    ]
    for call in calls:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        assert caught and {w.filename for w in caught} == {__file__}, [
            (w.filename, w.lineno) for w in caught
        ]
