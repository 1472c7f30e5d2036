"""A generated corpus, the same on every run: the systems of the significance tests
(tests/test_significance.py) and of the benchmark's --significance (tools/benchmark.py).

Its exact text matters: the transcribed cases of SacreBLEU's significance tests run on
it, and the README quotes what the benchmark measures on it. Change nothing here that
changes a byte of what it returns."""

import random


def generated_corpus(segments=3000, references=4, seed=13):
    """Hypotheses and reference streams: noisy copies of random sentences over a
    Zipf-like vocabulary, with punctuation."""
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(5000)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]

    def noisy(words):
        out = [
            w if rng.random() > 0.15 else rng.choices(vocabulary, weights)[0]
            for w in words
            if rng.random() > 0.05
        ]
        return out + [rng.choice([".", "?", "!"])]

    # attach punctuation the way detokenized text does, so that 13a has work to do
    def text(words):
        return (
            " ".join(words[:-1]) + words[-1] if rng.random() > 0.2 else " ".join(words)
        )

    bases = [
        rng.choices(vocabulary, weights, k=rng.randint(5, 40)) for _ in range(segments)
    ]
    hyps = [text(noisy(base)) for base in bases]
    streams = [[text(noisy(base)) for base in bases] for _ in range(references)]
    return hyps, streams


def deleted_words(hyps, rate, seed=0):
    """A noisier system: each word of each hypothesis deleted with probability `rate` (a
    line keeps at least one word)."""
    rng = random.Random(seed)
    out = []
    for hyp in hyps:
        words = hyp.split()
        kept = [w for w in words if rng.random() >= rate]
        out.append(" ".join(kept or words[:1]))
    return out
