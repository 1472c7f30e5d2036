"""The work BLEU does is bounded by the sentences, not by the n-gram order asked for.

NLTK's modified_precision(refs, hyp, 10_000) took 52 s here, and
BLEU(max_ngram_order=1000) 18.5 s on 100 segments (SacreBLEU: 0.06 s): counting looped
over every order up to the one asked, slicing the sentence once per order and position.
A sentence of L tokens has n-grams of orders 1 to L only, so counting stops there. The
tests count the slicing itself, not seconds: they say the same on any machine."""

from bleu_lib import corpus_stats, ngram_counts


class CountedTokens(tuple):
    """A token tuple that counts how often it is sliced (ngram_counts slices it once per
    order and shift)."""

    slices = 0

    def __getitem__(self, index):
        if isinstance(index, slice):
            CountedTokens.slices += 1
        return super().__getitem__(index)


def test_counting_stops_at_the_sentence_length():
    tokens = CountedTokens("the cat sat on the mat with the other cat".split())
    CountedTokens.slices = 0
    counts = ngram_counts(tokens, 10_000)
    # 55 slices; 50,005,000 if every order were counted
    assert CountedTokens.slices == sum(range(1, len(tokens) + 1))
    assert counts == ngram_counts(tuple(tokens), len(tokens))


def test_orders_above_every_sentence_are_zero_statistics():
    refs, hyps = [[["a", "b", "c"]], [["b", "c"]]], [["a", "b", "c"], ["c", "b"]]
    low, high = corpus_stats(refs, hyps, 4), corpus_stats(refs, hyps, 10**6)
    assert (
        high.matches[:4] == low.matches
        and high.totals[:4] == low.totals
        and (high.hyp_len, high.ref_len) == (low.hyp_len, low.ref_len)
    )
    assert (
        len(high.matches) == 10**6
        and not any(high.matches[4:])
        and not any(high.totals[4:])
    )
