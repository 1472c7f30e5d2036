"""Time corpus BLEU in bleu_lib, NLTK and SacreBLEU on the same corpus, in one run, and print the ratios.

    python tools/benchmark.py                                  a generated corpus of 3,000 segments, 1 and 4 references
    python tools/benchmark.py --hyp OUT.txt --ref REF.txt ...  also a real corpus (one file per reference)

Two tasks. From tokens: each library gets whitespace-separated tokens (bleu_lib.corpus_bleu and NLTK's corpus_bleu take
token lists, SacreBLEU takes the joined tokens with tokenize='none'). From raw strings: detokenized text, tokenized
the library's own way: 13a for bleu_lib.BLEU and SacreBLEU, and for NLTK its Treebank word tokenizer (what
nltk.word_tokenize applies after sentence splitting, which would need a data download).
Each timing is the best of --repeat runs, every run with fresh objects and empty tokenizer caches.
"""
import argparse
import logging
import random
import sys
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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hyp", help="a real system output (one segment per line)")
    parser.add_argument("--ref", nargs="+", default=[], help="its reference files")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (the best is kept)")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # timings only: zero-precision and tokenization warnings are not the point here
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)

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
