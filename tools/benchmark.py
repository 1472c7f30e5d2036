"""Time corpus BLEU in bleu_lib and its peers on the same corpora, in one run, and print
the ratios.

    python tools/benchmark.py
        the shipped corpus and 100,000 generated segments
    python tools/benchmark.py --sizes shipped                  a quick run (seconds)
    python tools/benchmark.py --sizes shipped,100000,1000000
        the three sizes of issue 15 (1,000,000 takes a while)
    python tools/benchmark.py --hyp OUT.txt --ref REF.txt ...
        also a real corpus (one file per reference)
    python tools/benchmark.py --significance
        paired significance tests instead (see below)
    python tools/benchmark.py --doctor
        the doctor on 2,000 segments, against one SacreBLEU score (see below)
    python tools/benchmark.py --batch
        sentence BLEU of token-id batches, each library's loop and our batch
    python tools/benchmark.py --long-lines
        one line of 20,000 and one of 1,000,000 tokens, and streaming memory (below)

Corpora: `shipped` is data/corpus (sys.alpha.en against ref.A.en and ref.B.en, 60
segments); a number is that many segments generated here, deterministically (seeded):
noisy copies of random sentences over a Zipf-distributed vocabulary of pseudo-words,
with commas, numbers, quotes and final punctuation, and --refs references (default 2).

Two tasks. From raw text: detokenized lines, tokenized by each library its own way: 13a
for bleu_lib's BLEU, SacreBLEU and bleuscore; NLTK's Treebank word tokenizer for NLTK
(what nltk.word_tokenize applies after sentence splitting, which would need a data
download), so NLTK's score differs. From tokens: the lines tokenized with 13a
beforehand, given as token lists to bleu_lib's corpus_bleu and NLTK's corpus_bleu
(NLTK's conventions), as the joined tokens to SacreBLEU (tokenize='none') and to
bleuscore (whose own 13a leaves them as they are: the BLEU column shows it). bleuscore,
a Rust implementation (a benchmark-only dependency: tools/requirements-benchmark.txt),
is skipped with a note when it is not installed.

Before anything is timed, bleu_lib's bytecode is compiled (compileall), as its first
import does wherever Python may write it: SacreBLEU's and NLTK's was compiled when they
were installed, and a process that compiled bleu_lib's modules each time (as under
PYTHONDONTWRITEBYTECODE) would time the compiler.

Every measurement is one call in a fresh process (`--child`), which reads its input from
files first: wall time, CPU time (all threads, and worker processes once they have
exited), and peak memory (ru_maxrss), printed as the process's peak and as what the call
added to the memory the process held before it, its input included (on Linux the peak is
reset once the input is read, so that the memory reading it took for a while does not
count; elsewhere it does). A worker process's memory is its private pages, polled while
it runs (Linux; elsewhere its whole peak, which counts the pages a forked worker shares
with its parent, input included, as its own). The rows take turns over --repeat rounds
(5 times as many under 10,000 segments, where a call takes milliseconds; interleaved,
the order rotated each round), and the table shows each row's medians, with the range of
the machine's 1-minute load average before its runs. Ratios are peer / bleu_lib on the
same task (above 1: bleu_lib is faster or smaller; for memory, only where bleu_lib adds
1 MB or more: below that, the ratio would be of noise). A row whose peak memory,
projected from a smaller run, would exceed --max-gb (or 80% of the memory available) is
skipped with its projection rather than run. Below the table, issue 15's targets (the
comparisons with bleuscore and of memory from 100,000 segments on).

--significance: paired tests on 9 systems (a baseline and 8 others: the generated
hypotheses with words deleted at rates 0% to 8%), 2,000 segments, 2 references, written
to a temporary folder. Whole runs of the two commands, each in a fresh process and
interleaved over --repeat rounds: `python -m sacrebleu REF1 REF2 -i SYS... -m bleu
--paired-bs` (then `--paired-ar`) against `python -m bleu_lib` with the same arguments,
and bleu_lib's `--paired-all` (every pair; SacreBLEU has no equivalent), and a floor: a
fresh process that only starts, imports NumPy and bleu_lib, and reads and tokenizes
(13a) every line, the least any command in Python must do before it counts anything.
Then, in this process, the two parts of that work apart: counting (each library's
per-segment statistics of the 9 systems against cached references, as its command counts
them: bleu_lib's systems_statistics) and resampling (bleu_lib's paired_test given the
statistics; for SacreBLEU, its PairedTest's time minus its counting, which PairedTest
does inside). Wall and CPU times, the ratios, and the 1-minute load beside each.

--batch: sentence BLEU of token ids (issue 28), two workloads (see batch_workloads):
256 hypotheses of 1,024 ids and 100,000 short sentences, one reference each. Rows, in
this process, interleaved over --repeat rounds: NLTK's sentence_bleu loop (method3,
auto_reweigh: SacreBLEU's exp with effective order), SacreBLEU's sentence_score loop
(tokenize='none', effective_order=True), bleuscore's compute per sentence (its own
settings; skipped with a note if not installed), bleu_lib's sentence_bleu loop (method3)
and bleu_lib's sentence_bleu_batch. Median wall and CPU times, the load, and each row's
CPU time over the batch's.

--doctor: `python -m bleu_lib REF1 REF2 -i SYS --doctor SCORE` on --significance's
baseline system (2,000 segments, 2 references), for a score that one dialect reproduces
(Hugging Face evaluate's) and for one that none does, against one whole run of
`python -m sacrebleu REF1 REF2 -i SYS -m bleu`, interleaved over --repeat rounds: how
many SacreBLEU runs the doctor's search over every dialect and setting costs.

--long-lines (issue 28): a document scored as one segment. One line of 20,000 and one
of 1,000,000 13a tokens (the generated corpus's lines, tokenized and joined by spaces,
which 13a leaves as they are) against two references made the same way; from raw text,
bleu_lib's BLEU().corpus_score, SacreBLEU's and NLTK's corpus_bleu after Treebank
tokenization (each call timed alone in a fresh process, as in the table above), and the
two command lines, `python -m bleu_lib REF1 REF2 -i HYP` and `python -m sacrebleu ... -m
bleu` (whole processes); interleaved over --repeat rounds, medians, the load beside
each, the CPU ratios to bleu_lib's call or command, and each row's growth in CPU time
from the short line to the long one (50x is linear). A row that takes more than
LONG_LINE_TIMEOUT seconds is stopped and skipped with a note. Then streaming memory: in
a fresh process, BLEU().corpus_score(jobs=1) reads 20,000 and then 70,000 generated
segments (2 references) from files as generators; the resident memory before and after
scoring, and the peak: what stays constant as the stream grows."""

import argparse
import compileall
import gc
import json
import logging
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

from nltk.tokenize import TreebankWordTokenizer
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from sacrebleu.metrics import BLEU as SacreBLEU

ROOT = Path(__file__).resolve().parents[1]
# bleu_lib, and --significance's corpus, which the tests share
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
import bleu_lib  # noqa: E402
from bleu_lib import tokenizer_table  # noqa: E402
from corpus_generator import deleted_words, generated_corpus  # noqa: E402


# --- corpora on disk: raw lines (hyp.txt, ref1.txt, ...) and the same lines tokenized
# with 13a (hyp.tok, ...) --------


def pseudo_vocabulary(rng, size=20000):
    """Words of 1 to 4 syllables, most frequent first; a few carry a comma or quotes, or
    are numbers or compounds."""
    consonants, vowels = "bcdfghklmnprstvwz", "aeiou"
    words = []
    for _ in range(size):
        word = "".join(
            consonants[rng.integers(17)] + vowels[rng.integers(5)]
            for _ in range(rng.integers(1, 5))
        )
        kind = rng.random()
        if kind < 0.06:
            word += ","
        elif kind < 0.07:
            word = (
                f"{rng.integers(1, 5000):,}"
                if kind < 0.065
                else f"{rng.integers(1, 100)}.{rng.integers(100):02d}"
            )
        elif kind < 0.075:
            word = f'"{word}"'
        elif kind < 0.08:
            word = f"({word})"
        elif kind < 0.085:
            word += "-" + words[rng.integers(len(words))].strip('",()') if words else ""
        words.append(word)
    return words


def generate(folder, segments, references=2, seed=15, chunk=10000):
    """Write `segments` generated segments to folder/hyp.txt and folder/ref1.txt...: the
    hypothesis and each reference are copies of one random sentence with 5% of its words
    deleted and 15% replaced (Zipf draws), deterministic. Not
    tests/corpus_generator.py's generated_corpus, which --significance uses: that one
    builds a few thousand segments in memory, in pure Python, and the significance tests
    pin its text; this one streams up to millions of segments to files, in NumPy chunks,
    with the commas, numbers and quotes that 13a splits off."""
    import numpy as np

    rng = np.random.default_rng(seed)
    vocabulary = np.array(pseudo_vocabulary(rng), dtype=object)
    cumulative = np.cumsum(1 / np.arange(1, len(vocabulary) + 1))
    zipf = lambda n: np.minimum(
        np.searchsorted(cumulative, rng.random(n) * cumulative[-1]), len(vocabulary) - 1
    )  # noqa
    names = ["hyp.txt"] + [f"ref{k + 1}.txt" for k in range(references)]
    files = [open(Path(folder, name), "w", encoding="utf-8") for name in names]
    try:
        for done in range(0, segments, chunk):
            n = min(chunk, segments - done)
            lengths = rng.integers(5, 41, n)
            starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
            base = zipf(int(lengths.sum()))
            for out in files:
                keep = rng.random(base.size) >= 0.05
                keep[starts] = True  # every line keeps its first word
                words = np.where(rng.random(base.size) < 0.15, zipf(base.size), base)
                kept = vocabulary[words[keep]].tolist()
                ends = np.cumsum(
                    np.add.reduceat(keep.astype(np.int64), starts)
                ).tolist()
                marks = rng.choice([".", "?", "!"], n, p=[0.9, 0.05, 0.05]).tolist()
                lines = [" ".join(kept[a:b]) for a, b in zip([0] + ends[:-1], ends)]
                out.write(
                    "".join(
                        f"{line[0].upper()}{line[1:]}{mark}\n"
                        for line, mark in zip(lines, marks)
                    )
                )
    finally:
        for out in files:
            out.close()


def shipped(folder):
    "The shipped corpus, data/corpus: sys.alpha.en against ref.A.en and ref.B.en."
    for source, name in [
        ("sys.alpha.en", "hyp.txt"),
        ("ref.A.en", "ref1.txt"),
        ("ref.B.en", "ref2.txt"),
    ]:
        shutil.copyfile(ROOT / "data" / "corpus" / source, Path(folder, name))


def copied(folder, hyp, refs):
    "A real corpus of the user's: the hypothesis file and its reference files."
    shutil.copyfile(hyp, Path(folder, "hyp.txt"))
    for k, ref in enumerate(refs, 1):
        shutil.copyfile(ref, Path(folder, f"ref{k}.txt"))


def tokenize_files(folder):
    """folder/*.tok: every line of folder/*.txt tokenized with 13a (bleu_lib's,
    SacreBLEU's to the character)."""
    tokenize = tokenizer_table.fast_13a.__wrapped__  # no cache: every line once
    for path in sorted(Path(folder).glob("*.txt")):
        with (
            open(path, encoding="utf-8") as lines,
            open(path.with_suffix(".tok"), "w", encoding="utf-8") as out,
        ):
            out.writelines(tokenize(line.rstrip("\n")) + "\n" for line in lines)


def read_lines(path):
    """The lines of a file, read one at a time (no copy of the whole file in memory at
    once)."""
    with open(path, encoding="utf-8") as lines:
        return [line.rstrip("\n") for line in lines]


# --- the rows: what each library is given and how it is called
# -----------------------------------------------------


def prepare(task, library, folder):
    """Read the input of one row from `folder` and return the timed call, which returns
    the score (0 to 100)."""
    streams = [
        read_lines(path)
        for path in sorted(
            Path(folder).glob(f"ref*.{'txt' if task == 'raw' else 'tok'}")
        )
    ]
    hyps = read_lines(Path(folder, f"hyp.{'txt' if task == 'raw' else 'tok'}"))
    if library == "bleuscore":
        import bleuscore

        # its layout: the references of each segment
        per_segment = [list(refs) for refs in zip(*streams)]
        return lambda: (
            100
            * bleuscore.compute(per_segment, hyps, ref_len_method="sacrebleu")["bleu"]
        )
    if task == "raw":
        if library.startswith("bleu_lib"):
            metric, jobs = bleu_lib.BLEU(), 2 if library == "bleu_lib jobs=2" else 1
            return lambda: metric.corpus_score(hyps, streams, jobs=jobs).score
        if library == "SacreBLEU":
            return lambda: SacreBLEU().corpus_score(hyps, streams).score
        tokenize = TreebankWordTokenizer().tokenize  # NLTK
        return lambda: (
            100
            * nltk_corpus_bleu(
                [[tokenize(r) for r in refs] for refs in zip(*streams)],
                [tokenize(h) for h in hyps],
            )
        )
    if library == "SacreBLEU":
        return lambda: SacreBLEU(tokenize="none").corpus_score(hyps, streams).score
    per_segment, hyps = (
        [[ref.split() for ref in refs] for refs in zip(*streams)],
        [hyp.split() for hyp in hyps],
    )
    streams = None  # the raw lines are not needed once split
    if library == "NLTK":
        return lambda: 100 * nltk_corpus_bleu(per_segment, hyps)
    jobs = 2 if library == "bleu_lib jobs=2" else 1
    return lambda: 100 * bleu_lib.corpus_bleu(per_segment, hyps, jobs=jobs)


def resident_kb():
    """The memory this process holds now, in KiB (Linux: /proc/self/statm; elsewhere its
    peak so far)."""
    try:
        return (
            int(Path("/proc/self/statm").read_text().split()[1])
            * os.sysconf("SC_PAGE_SIZE")
            // 1024
        )
    except (OSError, ValueError, IndexError):
        return peak_kb(resource.RUSAGE_SELF)


def peak_kb(who):
    "ru_maxrss in KiB (macOS reports bytes)."
    peak = resource.getrusage(who).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak


def reset_peak():
    """Linux: start the peak memory anew from here, so that reading the input does not
    count as the call's (no-op elsewhere)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


class WorkerMemory(threading.Thread):
    """Linux: the largest private memory (pages not shared with this process) of any
    child process, polled while a call runs. A forked worker shares the parent's pages,
    its input included, which its ru_maxrss counts as its own."""

    def __init__(self):
        super().__init__(daemon=True)
        self.peak_kb, self.running = None, True

    def run(self):
        while self.running:
            for stat in Path("/proc").glob("[0-9]*/stat"):
                try:
                    # field 4: the parent's process id
                    if stat.read_text().split()[3] == str(os.getpid()):
                        rollup = (
                            Path(stat.parent, "smaps_rollup").read_text().splitlines()
                        )
                        private = sum(
                            int(line.split()[1])
                            for line in rollup
                            if line.startswith("Private_")
                        )
                        self.peak_kb = max(self.peak_kb or 0, private)
                # gone meanwhile, or not Linux
                except (OSError, IndexError, ValueError):
                    pass
            time.sleep(0.1)


def child(task, library, folder):
    """One measurement, in this fresh process: print wall and CPU seconds, memory in KiB
    and the score as JSON."""
    quiet()
    # the interpreter and the libraries, before the input is read
    start_kb = resident_kb()
    call = prepare(task, library, folder)
    gc.collect()
    reset_peak()
    before_kb = resident_kb()
    workers_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    watch = WorkerMemory()
    watch.start()
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    score = call()
    wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    watch.running = False
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += (workers.ru_utime - workers_before.ru_utime) + (
        workers.ru_stime - workers_before.ru_stime
    )
    print(
        json.dumps(
            {
                "wall": wall,
                "cpu": cpu,
                "peak_kb": peak_kb(resource.RUSAGE_SELF),
                "before_kb": before_kb,
                "start_kb": start_kb,
                "worker_peak_kb": peak_kb(resource.RUSAGE_CHILDREN),
                "worker_private_kb": watch.peak_kb,
                "score": score,
            }
        )
    )


def quiet():
    "Timings only: zero-precision and tokenization warnings are not the point here."
    warnings.simplefilter("ignore")
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)


# --- the parent: corpora, interleaved rounds, projections, the table
# ----------------------------------------------

TASKS = {"raw": "from raw text", "tokens": "from tokens (13a)"}
LIBRARIES = ["bleu_lib", "bleu_lib jobs=2", "SacreBLEU", "NLTK", "bleuscore"]
CALLS = {
    ("raw", "bleu_lib"): "BLEU().corpus_score",
    ("raw", "bleu_lib jobs=2"): "BLEU().corpus_score(jobs=2)",
    ("raw", "SacreBLEU"): "BLEU().corpus_score",
    ("raw", "NLTK"): "Treebank + corpus_bleu",
    ("raw", "bleuscore"): "compute (Rust)",
    ("tokens", "bleu_lib"): "corpus_bleu",
    ("tokens", "bleu_lib jobs=2"): "corpus_bleu(jobs=2)",
    ("tokens", "SacreBLEU"): "tokenize='none'",
    ("tokens", "NLTK"): "corpus_bleu",
    ("tokens", "bleuscore"): "compute (Rust)",
}
# runs a projection of memory starts from, when no smaller corpus was measured
PROBE_SEGMENTS = [10000, 50000]
# corpora larger than this are not run where they would need more than --max-gb
PROJECT_ABOVE = 100000


def run_child(task, library, folder):
    "One measurement in a fresh process, with the 1-minute load before it."
    load = os.getloadavg()[0]
    command = [sys.executable, __file__, "--child", task, library, str(folder)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        return {
            "error": (done.stderr.strip().splitlines() or ["failed"])[-1],
            "load": load,
        }
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "load": load}


def unavailable(task, library):
    "Why a row cannot run here, or None."
    if library == "bleuscore":
        try:
            import bleuscore  # noqa: F401
        except ImportError:
            return (
                "skipped: bleuscore is not installed (pip install -r "
                "tools/requirements-benchmark.txt)"
            )
    return None


def available_gb():
    "The memory the machine has available now, in GB (Linux), or None."
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 2**20
    except OSError:
        pass
    return None


def rounds(repeat, segments):
    """--repeat rounds, five times as many under 10,000 segments, whose calls take
    milliseconds and vary the most."""
    return repeat * 5 if segments < 10000 else repeat


def measure_corpus(folder, segments, args, peaks, generated=True):
    """Every row on one corpus, interleaved over `rounds(...)`; returns {(task,
    library): summary or skip note}."""
    rows, results = [], {}
    free = available_gb()
    for task in TASKS:
        for library in LIBRARIES:
            note = unavailable(task, library)
            if note is None and segments > PROJECT_ABOVE:
                limit = min(args.max_gb, 0.8 * free) if free else args.max_gb
                gb, sizes = projected_gb(task, library, segments, args, peaks)
                if gb > limit:
                    note = (
                        f"skipped: needs ~{gb:.{0 if gb >= 10 else 1}f} GB (projected "
                        f"from its runs on {sizes[0]:,} and {sizes[1]:,} segments)"
                    )
            if note:
                results[task, library] = note
            else:
                rows.append((task, library))
    runs = {row: [] for row in rows}
    for round_ in range(rounds(args.repeat, segments)):
        shift = round_ % len(rows) if rows else 0
        for row in rows[shift:] + rows[:shift]:
            runs[row].append(run_child(*row, folder))
    for row, measured in runs.items():
        failed = [m for m in measured if "error" in m]
        if failed:
            results[row] = f"failed: {failed[0]['error']}"
            continue
        results[row] = summary(measured)
        if generated:
            peaks.setdefault(row, {})[segments] = total_peak_kb(measured[0], row[1])
    return results


def worker_kb(measured):
    """A worker's own peak memory: its private pages where they could be read (Linux),
    else its whole peak (more)."""
    private = measured.get("worker_private_kb")
    return measured["worker_peak_kb"] if private is None else private


def total_peak_kb(measured, library):
    "A run's peak memory; for jobs=2, plus two workers' own."
    return measured["peak_kb"] + (
        2 * worker_kb(measured) if library == "bleu_lib jobs=2" else 0
    )


def projected_gb(task, library, segments, args, peaks):
    """(GB, (n1, n2)): this row's peak memory at `segments`, extrapolated along the line
    through its peaks on the two largest corpora measured (runs on PROBE_SEGMENTS
    generated segments first, if need be). Memory that grows less than in proportion
    (hash tables that double, caches) makes this an overestimate."""
    known = peaks.setdefault((task, library), {})
    for probe_segments in PROBE_SEGMENTS:
        if len(known) >= 2 and max(known) >= PROBE_SEGMENTS[-1]:
            break
        if probe_segments not in known:
            with tempfile.TemporaryDirectory(prefix="bleu-probe-") as probe:
                generate(probe, probe_segments, args.refs)
                tokenize_files(probe)
                measured = run_child(task, library, probe)
            if "error" in measured:
                return 0, (0, 0)
            known[probe_segments] = total_peak_kb(measured, library)
    small, large = sorted(known)[-2:]
    slope = (known[large] - known[small]) / (large - small)
    return (known[large] + slope * (segments - large)) / 2**20, (small, large)


def summary(measured):
    "Medians over the rounds, the load range, and the score (the same in every round)."
    median = lambda key: statistics.median(m[key] for m in measured)  # noqa: E731
    return {
        "wall": median("wall"),
        "cpu": median("cpu"),
        "peak_kb": median("peak_kb"),
        "added_kb": statistics.median(m["peak_kb"] - m["before_kb"] for m in measured),
        "worker_kb": statistics.median(worker_kb(m) for m in measured),
        "score": measured[0]["score"],
        "worker_private": all(m.get("worker_private_kb") is not None for m in measured),
        "load": (min(m["load"] for m in measured), max(m["load"] for m in measured)),
    }


def seconds(t):
    return f"{t:8.3f}" if t >= 0.1 else f"{t:8.4f}"


def megabytes(kb):
    return f"{kb / 1024:8.1f}"


def ratio(theirs, ours):
    return f"{theirs / ours:6.1f}x" if ours > 0 and theirs > 0 else f"{'-':>7}"


def print_table(label, results):
    print(f"\n{label}")
    print(
        f"{'task':18} {'library, call':43} {'wall s':>8} {'CPU s':>8} {'load':>9} "
        f"{'peak MB':>8} {'added MB':>8} {'BLEU':>8}   {'peer / bleu_lib: wall':>21} "
        f"{'CPU':>7} {'added':>7}"
    )
    for task, title in TASKS.items():
        ours = results.get((task, "bleu_lib"))
        for library in LIBRARIES:
            result = results.get((task, library))
            name = f"{library} {CALLS[task, library]}"
            if isinstance(result, str):
                print(f"{title:18} {name:43} {result}")
                continue
            load = f"{result['load'][0]:4.2f}-{result['load'][1]:4.2f}"
            line = (
                f"{title:18} {name:43} {seconds(result['wall'])} "
                f"{seconds(result['cpu'])} {load:>9} {megabytes(result['peak_kb'])} "
                f"{megabytes(result['added_kb'])} {result['score']:8.4f}"
            )
            if library.startswith("bleu_lib jobs") and result["worker_kb"]:
                whose = (
                    "of their own"
                    if result["worker_private"]
                    else "with the pages shared with bleu_lib's"
                )
                line += (
                    f"   (+ workers, up to {result['worker_kb'] / 1024:.0f} MB each "
                    f"{whose})"
                )
            elif not library.startswith("bleu_lib") and isinstance(ours, dict):
                line += (
                    f"   {ratio(result['wall'], ours['wall']):>21} "
                    f"{ratio(result['cpu'], ours['cpu'])} "
                    + format(
                        ratio(result["added_kb"], ours["added_kb"])
                        if ours["added_kb"] >= 1024
                        else "-",
                        ">7",
                    )
                )
            print(line)


def print_targets(results, segments):
    """Issue 15's targets on this corpus, as measured (bleuscore's from 100,000 segments
    on)."""
    lines = []
    for task, title in TASKS.items():
        ours = [results.get((task, lib)) for lib in ("bleu_lib", "bleu_lib jobs=2")]
        ours = [r for r in ours if isinstance(r, dict)]
        if not ours:
            continue
        serial = ours[0]
        for peer in ("SacreBLEU", "NLTK"):
            theirs = results.get((task, peer))
            if isinstance(theirs, dict):
                lines.append(
                    f"{title}: {peer} / bleu_lib CPU "
                    f"{theirs['cpu'] / serial['cpu']:.2f}x (target >= 1.5x: "
                    f"{'met' if theirs['cpu'] >= 1.5 * serial['cpu'] else 'not met'})"
                )
        rust = results.get((task, "bleuscore"))
        if isinstance(rust, dict) and segments >= 100000:
            best = min(r["wall"] for r in ours)
            lines.append(
                f"{title}: bleu_lib's best wall / bleuscore's "
                f"{best / rust['wall']:.2f}x (target <= 2x: "
                f"{'met' if best <= 2 * rust['wall'] else 'not met'})"
            )
        peers = [results.get((task, p)) for p in ("SacreBLEU", "NLTK", "bleuscore")]
        peers = [p["added_kb"] for p in peers if isinstance(p, dict)]
        if peers and segments >= 100000:
            ours_kb, least_kb = serial["added_kb"], min(peers)
            verdict = (
                "met"
                if ours_kb < least_kb
                else "even: both add under 1 MB, the noise of a measure in pages"
                if max(ours_kb, least_kb) < 1024
                else "not met"
            )
            lines.append(
                f"{title}: bleu_lib's added memory {ours_kb / 1024:.1f} MB, the peers' "
                f"least {least_kb / 1024:.1f} MB (target: below all: {verdict})"
            )
    if lines:
        print("targets (issue 15):\n  " + "\n  ".join(lines))


def benchmark_corpora(args):
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    for size in sizes:
        if size != "shipped" and not size.replace("_", "").isdigit():
            raise SystemExit(
                f"--sizes: {size!r} is neither 'shipped' nor a number of segments"
            )
    corpora = [
        (size, int(size.replace("_", "")) if size != "shipped" else None)
        for size in sizes
    ]
    # smaller first: their memory projects the larger ones'
    corpora.sort(key=lambda c: c[1] or 0)
    if args.hyp:
        corpora.append(("real", None))
    print(
        f"bleu_lib {bleu_lib.__version__}, {os.cpu_count()} CPUs, Python "
        f"{sys.version.split()[0]}; medians of interleaved rounds, every run in a "
        "fresh process; load = the 1-minute load average before the row's runs "
        "(lowest-highest)"
    )
    peaks = {}
    for size, segments in corpora:
        with tempfile.TemporaryDirectory(prefix="bleu-benchmark-") as folder:
            if size == "shipped":
                shipped(folder)
                label = (
                    "shipped corpus: data/corpus, sys.alpha.en against ref.A.en and "
                    "ref.B.en, 60 segments"
                )
            elif size == "real":
                copied(folder, args.hyp, args.ref)
                label = f"{Path(args.hyp).name} against {len(args.ref)} reference(s)"
            else:
                generate(folder, segments, args.refs)
                label = (
                    f"generated: {segments:,} segments, {args.refs} references (seeded)"
                )
            tokenize_files(folder)
            count = segments or len(read_lines(Path(folder, "hyp.txt")))
            results = measure_corpus(
                folder, count, args, peaks, generated=size != "real"
            )
        print_table(f"{label}; medians of {rounds(args.repeat, count)} rounds", results)
        print_targets(results, count)
        sys.stdout.flush()


# --- paired significance tests
# --------------------------------------------------------------------------------------

# the baseline first
DELETION_RATES = [0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08]


def significance_corpus(folder, segments=2000, seed=13):
    """Write ref1.txt, ref2.txt and sys0.txt..sys8.txt (more words deleted as k grows)
    to `folder`; return the paths."""
    hyps, streams = generated_corpus(segments, references=2, seed=seed)
    refs = []
    for k, stream in enumerate(streams, 1):
        refs.append(Path(folder, f"ref{k}.txt"))
        refs[-1].write_text("\n".join(stream) + "\n", encoding="utf-8")
    systems = []
    for k, rate in enumerate(DELETION_RATES):
        systems.append(Path(folder, f"sys{k}.txt"))
        systems[-1].write_text(
            "\n".join(deleted_words(hyps, rate, seed=k)) + "\n", encoding="utf-8"
        )
    return [str(r) for r in refs], [str(s) for s in systems]


FLOOR = """import sys, numpy
from bleu_lib.tokenizer_table import fast_13a as tokenize_13a
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            tokenize_13a(line.rstrip("\\n")).split()
"""  # the --significance floor: start, import, read and tokenize, and nothing more


def timed_subprocess(command):
    """(wall seconds, CPU seconds of the child, 1-minute load before the run) of one
    command, which must succeed."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (
        wall,
        (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        load,
    )


def timed_call(function):
    """(wall seconds, CPU seconds of this process, 1-minute load before the call) and
    the call's result."""
    load = os.getloadavg()[0]
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    result = function()
    return (
        time.perf_counter() - start_wall,
        time.process_time() - start_cpu,
        load,
    ), result


def best(timings):
    "The run with the least wall time, as (wall, cpu, load)."
    return min(timings, key=lambda t: t[0])


def print_significance_row(label, sacre, ours):
    """One row: SacreBLEU's and bleu_lib's (wall, CPU, load) and the ratios; `sacre`
    None where SacreBLEU has no equivalent."""
    theirs = (
        f"{sacre[0]:7.2f}s {sacre[1]:7.2f}s {sacre[2]:5.2f}" if sacre else f"{'-':>26}"
    )
    ratios = f"{sacre[0] / ours[0]:6.1f}x {sacre[1] / ours[1]:6.1f}x" if sacre else ""
    print(
        f"{label:46} {theirs}   {ours[0]:7.2f}s {ours[1]:7.2f}s {ours[2]:5.2f}   "
        f"{ratios}"
    )


def benchmark_significance(repeat):
    from sacrebleu.significance import PairedTest
    from bleu_lib.significance import (
        paired_test,
        seed_from_environment,
        systems_statistics,
    )

    env_seed = os.environ.get("SACREBLEU_SEED", "12345")
    with tempfile.TemporaryDirectory(prefix="bleu-significance-") as folder:
        refs, systems = significance_corpus(folder)
        runs = {
            f"whole run, {label} (command line)": [
                [
                    sys.executable,
                    "-m",
                    program,
                    *refs,
                    "-i",
                    *systems,
                    "-m",
                    "bleu",
                    option,
                ]
                for program in ("sacrebleu", "bleu_lib")
            ]
            for label, option in [
                ("paired bootstrap", "--paired-bs"),
                ("approx. randomization", "--paired-ar"),
            ]
        }
        runs["whole run, every pair (bleu_lib only)"] = [
            None,
            [sys.executable, "-m", "bleu_lib", *refs, "-i", *systems, "--paired-all"],
        ]
        floor_label = "floor: start, import, read, tokenize (bleu_lib)"
        runs[floor_label] = [None, [sys.executable, "-c", FLOOR, *refs, *systems]]
        hypotheses = list(
            zip(
                *(
                    Path(path).read_text(encoding="utf-8").splitlines()
                    for path in systems
                )
            )
        )
        print(
            f"{len(systems)} systems (baseline first), 2,000 segments, 2 references, "
            f"SACREBLEU_SEED={env_seed}; best of {repeat} interleaved rounds; load = "
            f"1-minute load average before the run ({os.cpu_count()} CPUs)"
        )
        print(
            f"{sum(map(len, map(set, hypotheses))):,} distinct hypotheses among the "
            f"{len(systems) * len(hypotheses):,} (one given by several systems for a "
            "segment counts once): deleting words at random leaves many segments as "
            "they were"
        )
        print(
            f"{'':46} {'SacreBLEU':>26}   {'bleu_lib':>26}   "
            f"{'SacreBLEU / bleu_lib':>14}"
        )
        print(
            f"{'task':46} {'wall':>8} {'CPU':>8} {'load':>5}   {'wall':>8} {'CPU':>8} "
            f"{'load':>5}   {'wall':>7} {'CPU':>7}"
        )
        timings = {label: ([], []) for label in runs}
        for _ in range(repeat):
            for label, commands in runs.items():
                for command, times in zip(commands, timings[label]):
                    if command:
                        times.append(timed_subprocess(command))
        for label, (sacre, ours) in timings.items():
            print_significance_row(label, best(sacre) if sacre else None, best(ours))
        sacre_bs, floor = (
            best(timings["whole run, paired bootstrap (command line)"][0]),
            best(timings[floor_label][1]),
        )
        budget = sacre_bs[0] / 10
        print(
            f"10 times SacreBLEU's paired bootstrap: a whole run under {budget:.2f}s; "
            f"the floor alone takes {floor[0]:.2f}s, leaving {budget - floor[0]:.2f}s "
            f"to count {len(systems) * 2000:,} hypotheses and resample"
        )

        read = lambda path: Path(path).read_text(encoding="utf-8").splitlines()
        ref_lines, named_hyps = (
            [read(r) for r in refs],
            [(Path(p).name, read(p)) for p in systems],
        )
        metric, sacre_metric = (
            bleu_lib.BLEU(references=ref_lines),
            SacreBLEU(references=ref_lines),
        )
        parts = {
            "counting the 9 systems (in-process)": ([], []),
            "resampling, paired bootstrap (in-process)": ([], []),
            "resampling, approx. rand. (in-process)": ([], []),
        }
        identical = {}
        for _ in range(repeat):
            t_sacre, _ = timed_call(
                lambda: [
                    sacre_metric._extract_corpus_statistics(hyps, None)
                    for _, hyps in named_hyps
                ]
            )
            t_ours, all_stats = timed_call(
                lambda: systems_statistics(metric, [hyps for _, hyps in named_hyps])
            )
            named_stats = [
                (name, stats) for (name, _), stats in zip(named_hyps, all_stats)
            ]
            parts["counting the 9 systems (in-process)"][0].append(t_sacre)
            parts["counting the 9 systems (in-process)"][1].append(t_ours)
            for test, label in [
                ("bs", "resampling, paired bootstrap (in-process)"),
                ("ar", "resampling, approx. rand. (in-process)"),
            ]:
                t_test, theirs = timed_call(
                    lambda: PairedTest(
                        named_hyps, {"BLEU": sacre_metric}, None, test
                    )()[1]["BLEU"]
                )
                t_ours, mine = timed_call(
                    lambda: paired_test(
                        named_stats, metric, test, seed=seed_from_environment()
                    )
                )
                # minus counting
                parts[label][0].append(
                    tuple(a - b for a, b in zip(t_test[:2], t_sacre[:2])) + t_test[2:]
                )
                parts[label][1].append(t_ours)
                identical[test] = [tuple(r) for r in mine] == [
                    (r.score, r.p_value, r.mean, r.ci) for r in theirs
                ]
        for label, (sacre, ours) in parts.items():
            print_significance_row(label, best(sacre), best(ours))
        print(
            "same scores, p-values, means and intervals as SacreBLEU's PairedTest: "
            + ", ".join(f"{test} {same}" for test, same in identical.items())
        )
        print(
            "SacreBLEU's resampling time is its PairedTest's time minus its counting "
            "time, both measured in the same round"
        )


def benchmark_doctor(repeat):
    "The doctor's whole command against one SacreBLEU command, on 2,000 segments."
    from bleu_lib.dialects import score

    with tempfile.TemporaryDirectory(prefix="bleu-doctor-") as folder:
        refs, systems = significance_corpus(folder)
        lines = [Path(p).read_text(encoding="utf-8").splitlines() for p in refs]
        hyps = Path(systems[0]).read_text(encoding="utf-8").splitlines()
        reported = f"{score(hyps, lines, 'hf-evaluate').score:.2f}"
        base = [sys.executable, "-m"]
        runs = {
            "one score (sacrebleu -m bleu)": base
            + ["sacrebleu", *refs, "-i", systems[0]],
            f"doctor, {reported} (hf-evaluate's)": base
            + ["bleu_lib", *refs, "-i", systems[0], "--doctor", reported],
            "doctor, 99.99 (nothing reproduces)": base
            + ["bleu_lib", *refs, "-i", systems[0], "--doctor", "99.99"],
        }
        timings = {label: [] for label in runs}
        for _ in range(repeat):
            for label, command in runs.items():
                timings[label].append(timed_subprocess(command))
        print(f"2,000 segments, 2 references; best of {repeat} interleaved rounds")
        print(
            f"{'command':40} {'wall':>8} {'CPU':>8} {'load':>5}   {'/ one score':>11}"
        )
        one = best(timings["one score (sacrebleu -m bleu)"])
        for label, times in timings.items():
            wall, cpu, load = best(times)
            ratio = wall / one[0]
            print(f"{label:40} {wall:7.2f}s {cpu:7.2f}s {load:5.2f}   {ratio:10.1f}x")


def batch_workloads(seed=28):
    """(name, hypotheses, references) of --batch's two workloads, as lists of token ids:
    256 hypotheses of 1,024 ids, and 100,000 sentences of WMT-like lengths (log-normal,
    median 20 tokens), one reference each. A hypothesis is a noisy copy of its
    reference (10% of the ids dropped, 30% replaced), over a Zipf-distributed vocabulary
    of 32,000 ids, so that n-grams of every order match."""
    import numpy as np

    rng = np.random.default_rng(seed)

    def noisy_copy(ref):
        kept = ref[rng.random(len(ref)) > 0.1]
        replaced = rng.random(len(kept)) < 0.3
        kept[replaced] = rng.zipf(1.2, int(replaced.sum())) % 32000
        return kept.tolist()

    def pairs(lengths):
        refs = [rng.zipf(1.2, n) % 32000 for n in lengths]
        return [noisy_copy(ref) for ref in refs], [[ref.tolist()] for ref in refs]

    long_lengths = [1024] * 256
    short_lengths = np.clip(rng.lognormal(3.0, 0.5, 100_000).astype(int), 1, 200)
    return [
        ("256 x 1,024 ids", *pairs(long_lengths)),
        ("100,000 short sentences", *pairs(short_lengths.tolist())),
    ]


def batch_rows(hyps, refs):
    """--batch's rows: name -> a call that scores every hypothesis (0 to 1, SacreBLEU's
    exp smoothing with effective order, or its match in each library)."""
    from nltk.translate.bleu_score import SmoothingFunction
    from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

    lines = [" ".join(map(str, hyp)) for hyp in hyps]
    ref_lines = [[" ".join(map(str, r)) for r in hyp_refs] for hyp_refs in refs]
    sacre = SacreBLEU(tokenize="none", effective_order=True)
    ours = bleu_lib.SmoothingFunction().method3
    rows = {
        "NLTK sentence_bleu loop (method3)": lambda: [
            nltk_sentence_bleu(
                r, h, smoothing_function=SmoothingFunction().method3, auto_reweigh=True
            )
            for h, r in zip(hyps, refs)
        ],
        "SacreBLEU sentence_score loop": lambda: [
            sacre.sentence_score(h, r).score / 100 for h, r in zip(lines, ref_lines)
        ],
        "bleu_lib sentence_bleu loop (method3)": lambda: [
            bleu_lib.sentence_bleu(r, h, smoothing_function=ours, auto_reweigh=True)
            for h, r in zip(hyps, refs)
        ],
        "bleu_lib sentence_bleu_batch": lambda: bleu_lib.sentence_bleu_batch(
            hyps, refs
        ).tolist(),
    }
    try:
        import bleuscore

        # its own settings: no smoothing, and its 13a on the ids joined by spaces
        rows["bleuscore compute per sentence"] = lambda: [
            bleuscore.compute([r], [h])["bleu"] for h, r in zip(lines, ref_lines)
        ]
    except ImportError:
        print(
            "bleuscore rows skipped: bleuscore is not installed (pip install -r "
            "tools/requirements-benchmark.txt)"
        )
    return rows


def benchmark_batch(repeat):
    """Sentence BLEU of a batch of token ids: each library's loop against bleu_lib's
    batch, in this process, interleaved over `repeat` rounds (the order rotated each
    round); the median wall and CPU times, the load before each row's runs, and the
    ratio of each row's median CPU time to the batch's."""
    warnings.simplefilter("ignore")  # NLTK's and bleu_lib's zero-score warnings
    for name, hyps, refs in batch_workloads():
        rows = batch_rows(hyps, refs)
        times = {label: [] for label in rows}
        for round_ in range(repeat):
            labels = list(rows)
            labels = labels[round_ % len(labels) :] + labels[: round_ % len(labels)]
            for label in labels:
                gc.collect()
                timing, scores = timed_call(rows[label])
                times[label].append(timing)
                if label.startswith("SacreBLEU"):
                    sacre_scores = scores
        batch = bleu_lib.sentence_bleu_batch(hyps, refs)
        worst = max(abs(a - b) / b for a, b in zip(batch.tolist(), sacre_scores) if b)
        print(f"\n{name}: {len(hyps):,} hypotheses, {sum(map(len, hyps)):,} ids")
        print(f"{'row':40} {'wall':>8} {'CPU':>8} {'load':>11}   {'CPU / batch':>11}")
        ours = statistics.median(t[1] for t in times["bleu_lib sentence_bleu_batch"])
        for label, timings in times.items():
            wall = statistics.median(t[0] for t in timings)
            cpu = statistics.median(t[1] for t in timings)
            loads = [t[2] for t in timings]
            print(
                f"{label:40} {wall:7.2f}s {cpu:7.2f}s {min(loads):5.2f}-"
                f"{max(loads):<5.2f}   {cpu / ours:10.1f}x"
            )
        print(f"batch against SacreBLEU: largest relative difference {worst:.1e}")


# --- long lines (issue 28): one segment of 20,000 and of 1,000,000 tokens
# --------------------------------------------------------------------------------------

LONG_LINES = [20_000, 1_000_000]
# a row that takes longer is stopped and skipped with a note
LONG_LINE_TIMEOUT = 600
RUSAGE_CHILDREN = resource.RUSAGE_CHILDREN
# the streams of --long-lines' memory rows, in segments
STREAMED = [20_000, 70_000]
STREAM_MEMORY = """import gc, json, resource, sys
sys.path[:0] = sys.argv[2:4]
import benchmark, bleu_lib
def lines(name):
    with open(f"{sys.argv[1]}/{name}", encoding="utf-8") as stream:
        for line in stream:
            yield line.rstrip("\\n")
gc.collect()
benchmark.reset_peak()
before = benchmark.resident_kb()
score = bleu_lib.BLEU().corpus_score(
    lines("hyp.txt"), [lines("ref1.txt"), lines("ref2.txt")], jobs=1
).score
gc.collect()
try:  # Linux: the peak since reset_peak (ru_maxrss starts from the parent's at fork)
    status = open("/proc/self/status").read()
    peak = int(status.split("VmHWM:")[1].split()[0])
except (OSError, IndexError, ValueError):
    peak = benchmark.peak_kb(resource.RUSAGE_SELF)
print(json.dumps({"before_kb": before, "after_kb": benchmark.resident_kb(),
    "peak_kb": peak, "score": score}))
"""  # --long-lines' memory rows: a fresh process streams the files as generators


def long_line(folder, tokens, seed=28):
    """Write folder/hyp.txt, ref1.txt and ref2.txt, one line each: the first `tokens`
    13a tokens of a generated corpus (a document scored as one segment), joined by
    spaces, which 13a leaves as they are."""
    tokenize = tokenizer_table.fast_13a.__wrapped__
    with tempfile.TemporaryDirectory(prefix="bleu-long-") as source:
        # about 22 tokens a segment: enough segments for `tokens` tokens
        generate(source, tokens // 15, 2, seed=seed)
        for name in ("hyp.txt", "ref1.txt", "ref2.txt"):
            words = []
            with open(Path(source, name), encoding="utf-8") as lines:
                for line in lines:
                    words += tokenize(line.rstrip("\n")).split()
                    if len(words) >= tokens:
                        break
            Path(folder, name).write_text(
                " ".join(words[:tokens]) + "\n", encoding="utf-8"
            )


def long_line_rows(folder):
    """{row name: command}: each library's call on the raw text (timed inside a fresh
    process by --child, as the table of corpora times it) and each command line (the
    whole process)."""
    files = [str(Path(folder, name)) for name in ("ref1.txt", "ref2.txt")]
    hyp, child_row = str(Path(folder, "hyp.txt")), [sys.executable, __file__, "--child"]
    return {
        "bleu_lib BLEU().corpus_score": child_row + ["raw", "bleu_lib", str(folder)],
        "SacreBLEU BLEU().corpus_score": child_row + ["raw", "SacreBLEU", str(folder)],
        "NLTK Treebank + corpus_bleu": child_row + ["raw", "NLTK", str(folder)],
        "python -m bleu_lib REF1 REF2 -i HYP": [
            sys.executable, "-m", "bleu_lib", *files, "-i", hyp
        ],
        "python -m sacrebleu REF1 REF2 -i HYP": [
            sys.executable, "-m", "sacrebleu", *files, "-i", hyp, "-m", "bleu"
        ],
    }  # fmt: skip


def timed_row(command):
    """One run: {wall, cpu, load, output} (--child's own timing of the call where it
    prints one, else the whole process's), or {note} if it failed or timed out."""
    load, before = os.getloadavg()[0], resource.getrusage(RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=LONG_LINE_TIMEOUT
        )
    except subprocess.TimeoutExpired:
        return {"note": f"skipped: stopped after {LONG_LINE_TIMEOUT} s"}
    if done.returncode:
        return {"note": f"failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}"}
    wall, after = time.perf_counter() - start, resource.getrusage(RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if "--child" in command:  # the call alone, as --child times it
        measured = json.loads(done.stdout.strip().splitlines()[-1])
        wall, cpu, score = measured["wall"], measured["cpu"], measured["score"]
    else:  # the command's JSON, which both print the same way
        score = json.loads(done.stdout)["score"]
    return {"wall": wall, "cpu": cpu, "load": load, "output": f"{score:.4f}"}


def measure_long_line(tokens, repeat):
    """{row name: medians over `repeat` interleaved rounds, or a note} for one line of
    `tokens` tokens. A row skipped once (timed out) is not run again."""
    with tempfile.TemporaryDirectory(prefix="bleu-long-line-") as folder:
        long_line(folder, tokens)
        rows = long_line_rows(folder)
        runs, notes = {name: [] for name in rows}, {}
        for round_ in range(repeat):
            names = [name for name in rows if name not in notes]
            shift = round_ % len(names)
            for name in names[shift:] + names[:shift]:
                measured = timed_row(rows[name])
                if "note" in measured:
                    notes[name] = measured["note"]
                else:
                    runs[name].append(measured)
    return {
        name: notes.get(name)
        or {
            "wall": statistics.median(m["wall"] for m in measured),
            "cpu": statistics.median(m["cpu"] for m in measured),
            "load": (
                min(m["load"] for m in measured),
                max(m["load"] for m in measured),
            ),
            "output": measured[0]["output"],
        }
        for name, measured in runs.items()
    }


def print_long_lines(results):
    """One table: each row at each length, its ratio to bleu_lib's (CPU), and its growth
    from the shortest line to the longest (50 is linear)."""
    first, last = LONG_LINES[0], LONG_LINES[-1]
    print(
        f"{'tokens':>9} {'row':38} {'wall s':>8} {'CPU s':>8} {'load':>9} "
        f"{'score':>8}   {'CPU / bleu_lib':>14}"
    )
    for tokens in LONG_LINES:
        ours = {
            "bleu_lib": results[tokens]["bleu_lib BLEU().corpus_score"],
            "python": results[tokens]["python -m bleu_lib REF1 REF2 -i HYP"],
        }
        for name, result in results[tokens].items():
            if isinstance(result, str):
                print(f"{tokens:9,} {name:38} {result}")
                continue
            # a command against bleu_lib's command, a call against bleu_lib's call
            mine = ours["python" if name.startswith("python") else "bleu_lib"]
            load = f"{result['load'][0]:4.2f}-{result['load'][1]:4.2f}"
            line = (
                f"{tokens:9,} {name:38} {seconds(result['wall'])} "
                f"{seconds(result['cpu'])} {load:>9} {result['output']:>8}"
            )
            if isinstance(mine, dict) and mine is not result:
                line += f"   {ratio(result['cpu'], mine['cpu']):>14}"
            print(line)
    print(
        f"growth in CPU time, {first:,} to {last:,} tokens (linear: {last // first}x):"
    )
    for name in results[first]:
        small, large = results[first][name], results[last][name]
        if isinstance(small, dict) and isinstance(large, dict):
            print(f"  {name:38} {large['cpu'] / small['cpu']:6.1f}x")


def stream_memory(segments):
    """Resident memory before and after BLEU().corpus_score streams `segments` generated
    segments (2 references) from files as generators, in a fresh process: a dict of
    KiB and the score."""
    with tempfile.TemporaryDirectory(prefix="bleu-stream-") as folder:
        generate(folder, segments, 2)
        paths = [str(ROOT), str(ROOT / "tools")]  # bleu_lib, and this module
        done = subprocess.run(
            [sys.executable, "-c", STREAM_MEMORY, folder, *paths],
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(done.stdout.strip().splitlines()[-1])


def benchmark_long_lines(repeat):
    print(
        f"bleu_lib {bleu_lib.__version__}, {os.cpu_count()} CPUs, Python "
        f"{sys.version.split()[0]}; one line of generated text (13a tokens joined by "
        "spaces) against 2 references of the same length; medians of "
        f"{repeat} interleaved rounds, every run in a fresh process; load = the "
        "1-minute load average before the row's runs (lowest-highest). The library "
        "rows time the call alone; the command lines, the whole process"
    )
    results = {tokens: measure_long_line(tokens, repeat) for tokens in LONG_LINES}
    print_long_lines(results)
    print(
        "\nstreaming memory: BLEU().corpus_score(jobs=1) reading hypotheses and 2 "
        "reference files as generators, in a fresh process"
    )
    print(f"{'segments':>9} {'before MB':>10} {'after MB':>9} {'added MB':>9} peak MB")
    for segments in STREAMED:
        m = stream_memory(segments)
        added = m["after_kb"] - m["before_kb"]
        print(
            f"{segments:9,} {megabytes(m['before_kb']):>10} "
            f"{megabytes(m['after_kb']):>9} {megabytes(added):>9} "
            f"{megabytes(m['peak_kb'])}"
        )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        default="shipped,100000",
        help=(
            "comma-separated corpora: 'shipped' (data/corpus) and numbers of generated "
            "segments (default: shipped,100000; issue 15's table: "
            "shipped,100000,1000000)"
        ),
    )
    parser.add_argument(
        "--refs",
        type=int,
        default=2,
        help="references of the generated corpora (default 2)",
    )
    parser.add_argument("--hyp", help="a real system output (one segment per line)")
    parser.add_argument("--ref", nargs="+", default=[], help="its reference files")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help=(
            "interleaved rounds, the median shown (five times as many under 10,000 "
            "segments)"
        ),
    )
    parser.add_argument(
        "--max-gb",
        type=float,
        default=8,
        help="skip a row whose projected peak memory exceeds this many GB (default 8)",
    )
    parser.add_argument(
        "--significance",
        action="store_true",
        help=(
            "time paired significance tests (SacreBLEU's command line and PairedTest "
            "against bleu_lib)"
        ),
    )
    parser.add_argument(
        "--doctor",
        action="store_true",
        help="time the doctor (--doctor) against one SacreBLEU score",
    )
    parser.add_argument(
        "--batch", action="store_true", help="time sentence BLEU of token-id batches"
    )
    parser.add_argument(
        "--long-lines",
        action="store_true",
        help="time one line of 20,000 and of 1,000,000 tokens, and streaming memory",
    )
    parser.add_argument(
        "--child",
        nargs=3,
        metavar=("TASK", "LIBRARY", "FOLDER"),
        help=argparse.SUPPRESS,
    )
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return
    quiet()
    # what a first import writes, written now: no timed process compiles bleu_lib
    compileall.compile_dir(ROOT / "bleu_lib", quiet=1)
    if args.hyp and not args.ref:
        parser.error("--hyp needs its reference files: --ref REF1 [REF2 ...]")
    # the options that run a benchmark of their own instead of the corpora's
    for asked, run in [
        (args.significance, benchmark_significance),
        (args.doctor, benchmark_doctor),
        (args.batch, benchmark_batch),
        (args.long_lines, benchmark_long_lines),
    ]:
        if asked:
            run(args.repeat)
            return
    benchmark_corpora(args)


if __name__ == "__main__":
    main()
