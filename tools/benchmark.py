"""Time corpus BLEU in bleu_lib, NLTK and SacreBLEU on the same corpus, in one run, and print the ratios.

    python tools/benchmark.py                                  a generated corpus of 3,000 segments, 1 and 4 references
    python tools/benchmark.py --hyp OUT.txt --ref REF.txt ...  also a real corpus (one file per reference)
    python tools/benchmark.py --significance                   paired significance tests instead (see below)

Two tasks. From tokens: each library gets whitespace-separated tokens (bleu_lib.corpus_bleu and NLTK's corpus_bleu take
token lists, SacreBLEU takes the joined tokens with tokenize='none'). From raw strings: detokenized text, tokenized
the library's own way: 13a for bleu_lib.BLEU and SacreBLEU, and for NLTK its Treebank word tokenizer (what
nltk.word_tokenize applies after sentence splitting, which would need a data download).
Each timing is the best of --repeat runs, every run with fresh objects and empty tokenizer caches.

--significance: paired tests on 9 systems (a baseline and 8 others: the generated hypotheses with words deleted at
rates 0% to 8%), 2,000 segments, 2 references, written to a temporary folder. Whole runs of the two commands, each in a
fresh process and interleaved over --repeat rounds: `python -m sacrebleu REF1 REF2 -i SYS... -m bleu --paired-bs` (then
`--paired-ar`) against `python -m bleu_lib` with the same arguments, and bleu_lib's `--paired-all` (every pair; SacreBLEU
has no equivalent). Then, in this process, the two parts of that work apart: counting (each library's per-segment
statistics of the 9 systems against cached references) and resampling (bleu_lib's paired_test given the statistics;
for SacreBLEU, its PairedTest's time minus its counting, which PairedTest does inside). Wall and CPU times, the ratios,
and the 1-minute load beside each.
"""
import argparse
import logging
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from nltk.tokenize import TreebankWordTokenizer
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from sacrebleu.metrics import BLEU as SacreBLEU

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bleu_lib  # noqa: E402
from bleu_lib import tokenizers  # noqa: E402


def generated_corpus(segments=3000, references=4, seed=13):
    "Hypotheses and reference streams: noisy copies of random sentences over a Zipf-like vocabulary, with punctuation."
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(5000)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]

    def noisy(words):
        out = [w if rng.random() > 0.15 else rng.choices(vocabulary, weights)[0] for w in words if rng.random() > 0.05]
        return out + [rng.choice([".", "?", "!"])]

    def text(words):  # attach punctuation the way detokenized text does, so that 13a has work to do
        return " ".join(words[:-1]) + words[-1] if rng.random() > 0.2 else " ".join(words)

    bases = [rng.choices(vocabulary, weights, k=rng.randint(5, 40)) for _ in range(segments)]
    hyps = [text(noisy(base)) for base in bases]
    streams = [[text(noisy(base)) for base in bases] for _ in range(references)]
    return hyps, streams


def deleted_words(hyps, rate, seed=0):
    "A noisier system: each word of each hypothesis deleted with probability `rate` (a line keeps at least one word)."
    rng = random.Random(seed)
    out = []
    for hyp in hyps:
        words = hyp.split()
        kept = [w for w in words if rng.random() >= rate]
        out.append(" ".join(kept or words[:1]))
    return out


def best_time(function, repeat):
    "The fastest of `repeat` runs, each after emptying bleu_lib's tokenizer caches."
    times = []
    for _ in range(repeat):
        for tokenize in (tokenizers.tokenize_13a, tokenizers.tokenize_zh,
                         tokenizers.tokenize_char, tokenizers.tokenize_intl):
            tokenize.cache_clear()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def nltk_raw(hyps, streams):
    "NLTK from text: its Treebank word tokenizer, then corpus_bleu."
    tokenize = TreebankWordTokenizer().tokenize
    return nltk_corpus_bleu([[tokenize(ref) for ref in refs] for refs in zip(*streams)], [tokenize(hyp) for hyp in hyps])


def measure(name, hyps, streams, repeat):
    "One row per task: the three timings and bleu_lib's ratio to the faster of the other two."
    tokens_hyps = [h.split() for h in hyps]
    tokens_refs = [[stream[i].split() for stream in streams] for i in range(len(hyps))]
    joined_hyps, joined_streams = [" ".join(h) for h in tokens_hyps], [[" ".join(s.split()) for s in stream] for stream in streams]
    tasks = {
        "from tokens": (lambda: bleu_lib.corpus_bleu(tokens_refs, tokens_hyps),
                        lambda: nltk_corpus_bleu(tokens_refs, tokens_hyps),
                        lambda: SacreBLEU(tokenize="none").corpus_score(joined_hyps, joined_streams)),
        "from raw strings": (lambda: bleu_lib.BLEU().corpus_score(hyps, streams),
                             lambda: nltk_raw(hyps, streams),
                             lambda: SacreBLEU().corpus_score(hyps, streams)),
    }
    rows = []
    for task, (ours, nltk, sacre) in tasks.items():
        t_ours, t_nltk, t_sacre = (best_time(f, repeat) for f in (ours, nltk, sacre))
        rows.append((name, task, t_ours, t_nltk, t_sacre, t_ours / min(t_nltk, t_sacre)))
    return rows


# --- paired significance tests -------------------------------------------------------------------------------------

DELETION_RATES = [0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08]  # the baseline first

def significance_corpus(folder, segments=2000, seed=13):
    "Write ref1.txt, ref2.txt and sys0.txt..sys8.txt (more words deleted as k grows) to `folder`; return the paths."
    hyps, streams = generated_corpus(segments, references=2, seed=seed)
    refs = []
    for k, stream in enumerate(streams, 1):
        refs.append(Path(folder, f"ref{k}.txt"))
        refs[-1].write_text("\n".join(stream) + "\n", encoding="utf-8")
    systems = []
    for k, rate in enumerate(DELETION_RATES):
        systems.append(Path(folder, f"sys{k}.txt"))
        systems[-1].write_text("\n".join(deleted_words(hyps, rate, seed=k)) + "\n", encoding="utf-8")
    return [str(r) for r in refs], [str(s) for s in systems]


def timed_subprocess(command):
    "(wall seconds, CPU seconds of the child, 1-minute load before the run) of one command, which must succeed."
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), load


def timed_call(function):
    "(wall seconds, CPU seconds of this process, 1-minute load before the call) and the call's result."
    load = os.getloadavg()[0]
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    result = function()
    return (time.perf_counter() - start_wall, time.process_time() - start_cpu, load), result


def best(timings):
    "The run with the least wall time, as (wall, cpu, load)."
    return min(timings, key=lambda t: t[0])


def print_significance_row(label, sacre, ours):
    "One row: SacreBLEU's and bleu_lib's (wall, CPU, load) and the ratios; `sacre` None where SacreBLEU has no equivalent."
    theirs = f"{sacre[0]:7.2f}s {sacre[1]:7.2f}s {sacre[2]:5.2f}" if sacre else f"{'-':>26}"
    ratios = f"{sacre[0] / ours[0]:6.1f}x {sacre[1] / ours[1]:6.1f}x" if sacre else ""
    print(f"{label:46} {theirs}   {ours[0]:7.2f}s {ours[1]:7.2f}s {ours[2]:5.2f}   {ratios}")


def benchmark_significance(repeat):
    from sacrebleu.significance import PairedTest
    from bleu_lib.significance import paired_test, seed_from_environment, segment_statistics

    env_seed = os.environ.get("SACREBLEU_SEED", "12345")
    with tempfile.TemporaryDirectory(prefix="bleu-significance-") as folder:
        refs, systems = significance_corpus(folder)
        runs = {f"whole run, {label} (command line)": [[sys.executable, "-m", program, *refs, "-i", *systems, "-m", "bleu", option]
                                                      for program in ("sacrebleu", "bleu_lib")]
                for label, option in [("paired bootstrap", "--paired-bs"), ("approx. randomization", "--paired-ar")]}
        runs["whole run, every pair (bleu_lib only)"] = [None, [sys.executable, "-m", "bleu_lib", *refs, "-i", *systems,
                                                               "--paired-all"]]
        print(f"{len(systems)} systems (baseline first), 2,000 segments, 2 references, SACREBLEU_SEED={env_seed}; "
              f"best of {repeat} interleaved rounds; load = 1-minute load average before the run ({os.cpu_count()} CPUs)")
        print(f"{'':46} {'SacreBLEU':>26}   {'bleu_lib':>26}   {'SacreBLEU / bleu_lib':>14}")
        print(f"{'task':46} {'wall':>8} {'CPU':>8} {'load':>5}   {'wall':>8} {'CPU':>8} {'load':>5}   {'wall':>7} {'CPU':>7}")
        timings = {label: ([], []) for label in runs}
        for _ in range(repeat):
            for label, commands in runs.items():
                for command, times in zip(commands, timings[label]):
                    if command:
                        times.append(timed_subprocess(command))
        for label, (sacre, ours) in timings.items():
            print_significance_row(label, best(sacre) if sacre else None, best(ours))

        read = lambda path: Path(path).read_text(encoding="utf-8").splitlines()  # noqa: E731
        ref_lines, named_hyps = [read(r) for r in refs], [(Path(p).name, read(p)) for p in systems]
        metric, sacre_metric = bleu_lib.BLEU(references=ref_lines), SacreBLEU(references=ref_lines)
        parts = {"counting the 9 systems (in-process)": ([], []), "resampling, paired bootstrap (in-process)": ([], []),
                 "resampling, approx. rand. (in-process)": ([], [])}
        identical = {}
        for _ in range(repeat):
            t_sacre, _ = timed_call(lambda: [sacre_metric._extract_corpus_statistics(hyps, None) for _, hyps in named_hyps])
            t_ours, named_stats = timed_call(lambda: [(name, segment_statistics(metric, hyps)) for name, hyps in named_hyps])
            parts["counting the 9 systems (in-process)"][0].append(t_sacre)
            parts["counting the 9 systems (in-process)"][1].append(t_ours)
            for test, label in [("bs", "resampling, paired bootstrap (in-process)"),
                                ("ar", "resampling, approx. rand. (in-process)")]:
                t_test, theirs = timed_call(lambda: PairedTest(named_hyps, {"BLEU": sacre_metric}, None, test)()[1]["BLEU"])
                t_ours, mine = timed_call(lambda: paired_test(named_stats, metric, test, seed=seed_from_environment()))
                parts[label][0].append(tuple(a - b for a, b in zip(t_test[:2], t_sacre[:2])) + t_test[2:])  # minus counting
                parts[label][1].append(t_ours)
                identical[test] = [tuple(r) for r in mine] == [(r.score, r.p_value, r.mean, r.ci) for r in theirs]
        for label, (sacre, ours) in parts.items():
            print_significance_row(label, best(sacre), best(ours))
        print("same scores, p-values, means and intervals as SacreBLEU's PairedTest: "
              + ", ".join(f"{test} {same}" for test, same in identical.items()))
        print("SacreBLEU's resampling time is its PairedTest's time minus its counting time, both measured in the same round")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hyp", help="a real system output (one segment per line)")
    parser.add_argument("--ref", nargs="+", default=[], help="its reference files")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (the best is kept)")
    parser.add_argument("--significance", action="store_true",
                        help="time paired significance tests (SacreBLEU's command line and PairedTest against bleu_lib)")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # timings only: zero-precision and tokenization warnings are not the point here
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    if args.significance:
        benchmark_significance(args.repeat)
        return

    corpora = []
    hyps, streams = generated_corpus()
    corpora += [("generated, 3,000 segments, 1 ref", hyps, streams[:1]), ("generated, 3,000 segments, 4 refs", hyps, streams)]
    if args.hyp:
        read = lambda path: Path(path).read_text(encoding="utf-8").splitlines()  # noqa: E731
        corpora.append((f"{Path(args.hyp).name}, {len(args.ref)} ref(s)", read(args.hyp), [read(r) for r in args.ref]))

    print(f"{'corpus':38} {'task':18} {'bleu_lib':>9} {'NLTK':>9} {'SacreBLEU':>10} {'bleu_lib / faster':>18}")
    for name, hyps, streams in corpora:
        for row in measure(name, hyps, streams, args.repeat):
            print(f"{row[0]:38} {row[1]:18} {row[2]:8.3f}s {row[3]:8.3f}s {row[4]:9.3f}s {row[5]:17.2f}x")


if __name__ == "__main__":
    main()
