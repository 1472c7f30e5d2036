"""Notebook 03's checks moved out of the lesson (issue 25): the lesson shows one number
per idea, and these confirm what its prose says about it.

- Logan Barnhart's "cat. dog." ("Biweekly Report 3: Understanding and Implementing the
  BLEU Score Metric", 2023): one penalty from summed lengths, c = 2 and r = 12, gives
  the published 0.006737946999085467 = exp(-5), in NLTK and SacreBLEU too.
- The penalty's curve falls fastest at c/r = 1/2, where the figure marks it."""

import math

from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import brevity_penalty, closest_ref_length
from support import load_data

BARNHART = load_data("published_examples.json")["barnhart_2023_brevity_penalty"]


def test_barnhart_brevity_penalty_in_nltk_and_sacrebleu():
    segments = [text.split() for text in BARNHART["hypothesis"].split(".")]
    segments = [hyp for hyp in segments if hyp]
    refs = [[ref.split() for ref in refs] for refs in BARNHART["references"]]
    c = sum(len(hyp) for hyp in segments)
    r = sum(closest_ref_length(rs, len(hyp)) for rs, hyp in zip(refs, segments))
    sacre = SacreBLEU(tokenize="none").corpus_score(
        [" ".join(hyp) for hyp in segments],
        [list(stream) for stream in zip(*BARNHART["references"])],
    )
    published = BARNHART["published"]
    assert (c, r) == (sacre.sys_len, sacre.ref_len) == (2, 12)
    assert brevity_penalty(r, c) == nltk_bleu.brevity_penalty(r, c) == published
    assert sacre.bp == published == math.exp(-5)


def test_the_penalty_falls_fastest_at_half_the_reference_length():
    ratios = [i / 200 for i in range(10, 200)]  # the figure's ratios below 1
    slope = {x: math.exp(1 - 1 / x) / x**2 for x in ratios}  # d/dx exp(1 - 1/x)
    assert max(slope, key=slope.get) == 0.5
