"""Sentence BLEU of a batch (appendix A11, bleu_lib/batch.py): the same numbers as the
scalar path, row by row and bit for bit, for every smoothing method of the registry;
SacreBLEU's and NLTK's numbers to 1e-12; corpus statistics from the same counts.
(Bad input: tests/test_bad_input.py, BATCH_API.)"""

import subprocess
import sys
import warnings

import numpy as np
from hypothesis import given, settings, strategies as st
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import BLEU, batch_statistics, corpus_bleu, sentence_bleu_batch
from bleu_lib.batch import PIECE_TOKENS, flat_ids, rows_by_piece, statistics_rows
from bleu_lib.engine import segment_row
from bleu_lib.smoothing import length_counts
from bleu_lib.smoothing_registry import SMOOTHING, named_methods, register
from support import ROOT, close

# a small vocabulary: repeated n-grams and matches in most examples
ids = st.lists(st.integers(0, 4), max_size=9)
batches = st.lists(
    st.tuples(ids, st.lists(ids, min_size=1, max_size=3)), min_size=1, max_size=8
)


def text(sequence):
    "Ids as SacreBLEU's tokenize='none' reads them: joined by spaces."
    return " ".join(map(str, sequence))


def scalar_scores(hyps, refs, method, value, effective, order):
    "bleu_lib's sentence-level path, one segment at a time, on the ids as text."
    metric = BLEU(
        tokenize="none",
        smooth_method=method,
        smooth_value=value,
        effective_order=effective,
        max_ngram_order=order,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ZeroBleuWarning on a score of 0
        return [
            metric.sentence_score(text(hyp), [text(r) for r in hyp_refs]).score / 100
            for hyp, hyp_refs in zip(hyps, refs)
        ]


def padded(sequences, width, pad_id):
    "The sequences as rows of a 2-D array, pad_id after each."
    return np.array([list(s) + [pad_id] * (width - len(s)) for s in sequences])


@settings(max_examples=60)
@given(batches, st.integers(1, 5), st.booleans(), st.sampled_from([None, 0.3]))
def test_the_batch_is_the_scalar_path_row_by_row_for_every_method(
    batch, order, effective, value
):
    """Every named method, and one registered here with no array form (row by row in
    bleu_scores): the same float, bit for bit, as BLEU.sentence_score / 100; and the
    same rows as engine.segment_row."""
    hyps, refs = [h for h, _ in batch], [r for _, r in batch]
    rows = batch_statistics(hyps, refs, order)
    assert rows.tolist() == [segment_row(h, r, order) for h, r in batch]
    register("length-test", length_counts, parameter="k", default=5)
    try:
        for method in named_methods():
            entry_value = value if SMOOTHING[method].parameter else None
            got = sentence_bleu_batch(hyps, refs, method, entry_value, effective, order)
            want = scalar_scores(hyps, refs, method, entry_value, effective, order)
            assert got.dtype == np.float64 and got.tolist() == want, method
    finally:
        del SMOOTHING["length-test"]


@settings(max_examples=40)
@given(batches, st.integers(-3, 5))
def test_a_padded_array_gives_the_lists_scores(batch, pad_id):
    """A padded 2-D array of hypotheses and 3-D array of references (an all-pad row: an
    empty reference) score as the lists do; pad_id may be negative (-100 is common)."""
    hyps = [[t + 6 for t in h] for h, _ in batch]  # ids above any pad_id here
    refs = [[[t + 6 for t in r] for r in rs] for _, rs in batch]
    width, most = 10, max(len(r) for r in refs)
    hyp_array = padded(hyps, width, pad_id)
    ref_array = np.array(
        [padded(r + [[]] * (most - len(r)), width, pad_id) for r in refs]
    )
    with_empty = [r + [[]] * (most - len(r)) for r in refs]
    got = sentence_bleu_batch(hyp_array, ref_array, pad_id=pad_id)
    assert got.tolist() == sentence_bleu_batch(hyps, with_empty).tolist()
    # a list of arrays and tuples, padded too
    mixed = [
        np.array(h + [pad_id] * 2) if k % 2 else tuple(h) for k, h in enumerate(hyps)
    ]
    assert (
        sentence_bleu_batch(mixed, with_empty, pad_id=pad_id).tolist() == got.tolist()
    )


def random_batch(rng, size, vocab):
    hyps = [rng.integers(0, vocab, rng.integers(0, 30)).tolist() for _ in range(size)]
    refs = [
        [rng.integers(0, vocab, rng.integers(0, 30)).tolist() for _ in range(k)]
        for k in rng.integers(1, 4, size)
    ]
    return hyps, refs


@settings(max_examples=60)
@given(
    st.lists(
        st.tuples(
            st.lists(ids, min_size=1, max_size=3), st.lists(ids, min_size=1, max_size=3)
        ),
        max_size=8,
    ),
    st.integers(1, 40),
    st.integers(1, 5),
)
def test_pieces_of_any_size_give_the_rows_of_the_whole_batch(
    segments, piece_tokens, order
):
    """rows_by_piece (what batch_statistics, the paired tests and corpus_score call)
    counts whole segments of about piece_tokens tokens at a time: the rows of
    statistics_rows on the whole batch, segments of several hypotheses included."""
    hyps = [hyp for seg_hyps, _ in segments for hyp in seg_hyps]
    refs = [ref for _, seg_refs in segments for ref in seg_refs]
    per_segment = np.array([len(h) for h, _ in segments], dtype=np.int64)
    refs_per_segment = np.array([len(r) for _, r in segments], dtype=np.int64)
    arrays = (*flat_ids(hyps, str), *flat_ids(refs, str), refs_per_segment, order)
    pieces = rows_by_piece(*arrays, per_segment, piece_tokens)
    assert pieces.tolist() == statistics_rows(*arrays, per_segment).tolist()


def test_a_batch_past_one_piece_is_the_scalar_engines():
    "A batch of several pieces of batch.PIECE_TOKENS tokens: engine.segment_row's rows."
    hyps, refs = random_batch(np.random.default_rng(31), 4_000, 20)
    tokens = sum(map(len, hyps)) + sum(len(r) for hyp_refs in refs for r in hyp_refs)
    assert tokens > 2 * PIECE_TOKENS
    rows = batch_statistics(hyps, refs).tolist()
    assert rows == [segment_row(hyp, hyp_refs, 4) for hyp, hyp_refs in zip(hyps, refs)]


# SacreBLEU's method -> NLTK's SmoothingFunction method with the same rule (notebook 07)
NLTK_METHODS = {"exp": "method3", "floor": "method1", "add-k": "method2"}


def test_sacrebleu_and_nltk_agree_to_1e_12_on_random_batches():
    """SacreBLEU's sentence_score (tokenize='none') for every named method and both
    effective orders; NLTK's sentence_bleu with the matching method and auto_reweigh
    (effective order), and method0 where every order matches (else NLTK returns a tiny
    number where SacreBLEU and the paper say 0); add-k from 4 tokens on."""
    rng = np.random.default_rng(28)
    for method in named_methods():
        for effective in (True, False):
            hyps, refs = random_batch(rng, 80, 6)
            ours = sentence_bleu_batch(hyps, refs, method, effective_order=effective)
            sacre = SacreBLEU(
                tokenize="none", smooth_method=method, effective_order=effective
            )
            for score, hyp, hyp_refs in zip(ours.tolist(), hyps, refs):
                line = sacre.sentence_score(text(hyp), [text(r) for r in hyp_refs])
                assert abs(score - line.score / 100) <= 1e-12 * line.score / 100
    hyps, refs = random_batch(rng, 150, 4)
    for method in ("exp", "floor", "add-k", "none"):
        ours = sentence_bleu_batch(hyps, refs, method)
        smoothing = getattr(SmoothingFunction(), NLTK_METHODS.get(method, "method0"))
        rows = batch_statistics(hyps, refs)
        for score, row, hyp, hyp_refs in zip(ours.tolist(), rows, hyps, refs):
            if method == "none" and not all(row[2 : 2 + min(4, row[0])]):
                continue  # an order with no match: 0 here, NLTK's 1e-78 or so
            if method == "add-k" and len(hyp) < 4:
                continue  # SacreBLEU's add-k gives order 4 a count: 1/1, not absent
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                nltk = nltk_sentence_bleu(
                    hyp_refs, hyp, smoothing_function=smoothing, auto_reweigh=True
                )
            assert abs(score - nltk) <= 1e-12 * nltk, (method, hyp, hyp_refs)


def test_corpus_statistics_are_the_engines_for_random_batches():
    """The column sums of batch_statistics are corpus BLEU's statistics: those of
    BLEU(tokenize='none').corpus_score on the ids as text (None: no reference)."""
    rng = np.random.default_rng(29)
    for vocab in (3, 50, 2**40):
        hyps, refs = random_batch(rng, 300, vocab)
        streams = [[text(r[j]) if j < len(r) else None for r in refs] for j in range(3)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # 2**40 ids: nothing matches, BLEU is 0
            corpus = BLEU(tokenize="none").corpus_score(
                [text(h) for h in hyps], streams
            )
        sums = batch_statistics(hyps, refs).sum(axis=0).tolist()
        assert sums == [corpus.sys_len, corpus.ref_len, *corpus.counts, *corpus.totals]
        # corpus_score counts these 300 segments with arrays too: the scalar engine's
        # rows add up to the same
        assert (
            sums
            == np.sum([segment_row(*seg, 4) for seg in zip(hyps, refs)], 0).tolist()
        )


WORDS = "a b c the cat , . ?".split()


def words(rng, longest=30):
    "A line of a few words and punctuation: repeated n-grams, and work for 13a."
    return " ".join(rng.choice(WORDS, int(rng.integers(0, longest))))


@settings(max_examples=8)
@given(st.integers(100, 1_200), st.integers(1, 3), st.integers(1, 5), st.integers(0))
def test_corpora_of_100_segments_on_count_with_arrays_as_sacrebleu_and_nltk(
    size, n_refs, order, seed
):
    """From 100 segments a chunk (engine.ARRAY_SEGMENTS), corpus_score and corpus_bleu
    count with arrays: SacreBLEU's statistics and score, with references passed or
    cached, its bootstrap (every segment's row), and NLTK's corpus_bleu. Sizes past
    1,000 mix an array chunk with a scalar one."""
    rng = np.random.default_rng(seed)
    hyps = [words(rng) for _ in range(size)]
    streams = [[words(rng) for _ in range(size)] for _ in range(n_refs)]
    options = {"max_ngram_order": order, "effective_order": order > 2}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a score of 0, or advice on effective order
        theirs = SacreBLEU(**options).corpus_score(hyps, streams, n_bootstrap=20)
        ours = [
            BLEU(**options).corpus_score(hyps, streams, n_bootstrap=20),
            BLEU(**options, references=streams).corpus_score(hyps, None, 20),
        ]
    for result in ours:
        assert (result.counts, result.totals, result.sys_len, result.ref_len) == (
            theirs.counts,
            theirs.totals,
            theirs.sys_len,
            theirs.ref_len,
        )
        assert (result.score, result._mean, result._ci) == (
            theirs.score,
            theirs._mean,
            theirs._ci,
        )
    refs = [[stream[k].split() for stream in streams] for k in range(size)]
    split = [hyp.split() for hyp in hyps]
    weights = [1 / order] * order
    smoothing = SmoothingFunction().method1  # a corpus with no 4-gram match is possible
    theirs = nltk_corpus_bleu(refs, split, weights, smoothing)
    assert close(corpus_bleu(refs, split, weights, smoothing), theirs)


def test_numpy_is_imported_only_for_a_corpus_that_repays_it():
    """A chunk below engine.ARRAY_SEGMENTS is counted without NumPy: the shipped
    60-line corpus, scored from Python or the command line, never imports it."""
    program = (
        "import sys; from bleu_lib import BLEU; from bleu_lib.engine import "
        "ARRAY_SEGMENTS as n; hyps = ['a b c .'] * (n - 1); "
        "BLEU().corpus_score(hyps, [hyps]); print('numpy' in sys.modules); "
        "BLEU().corpus_score(hyps + hyps, [hyps + hyps]); print('numpy' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "True"]
    corpus = ROOT / "data" / "corpus"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "bleu_lib", corpus / "ref.A.en"],
        input=(corpus / "sys.alpha.en").read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=True,
    )
    assert "BLEU" in done.stdout and " numpy" not in done.stderr


def test_edges_empty_batch_long_lines_and_huge_ids():
    "No hypothesis, empty sentences, ids up to 2**63 - 1, one long line."
    assert sentence_bleu_batch([], []).tolist() == []
    assert batch_statistics([], []).shape == (0, 10)
    assert sentence_bleu_batch([[], [1]], [[[]], [[]]]).tolist() == [0.0, 0.0]
    big, hyp = 2**63 - 1, [2**63 - 1, 0, 2**63 - 1, 1]
    assert sentence_bleu_batch([hyp], [[hyp]]).tolist() == scalar_scores(
        [hyp], [[hyp]], "exp", None, True, 4
    )
    assert batch_statistics([[big]], [[[big, big]]])[0].tolist() == segment_row(
        [big], [[big, big]], 4
    )
    rng = np.random.default_rng(30)
    line = rng.integers(0, 500, 5000).tolist()
    ref = line[:2500] + rng.integers(0, 500, 2500).tolist()
    assert batch_statistics([line], [[ref]])[0].tolist() == segment_row(line, [ref], 4)
