"""Scale (issue 15): reading streams, counting in processes and caching references
compactly change how BLEU is counted, never what it counts. Every path gives the serial
list path's score, statistics and signature, bit for bit, on seeded random corpora; the
command line prints the same bytes with -j 2 as with -j 1. Long lines (issue 28): the
engine's clipping, which counts each reference once per order, gives notebook 02's
counts and SacreBLEU's statistics on a 20,000-token line."""

import functools
import gzip
import multiprocessing
import operator
import os
import random
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import BLEU, BleuWarning, SmoothingFunction, corpus_bleu
from bleu_lib import bleu_score as bleu_score_module
from bleu_lib import engine as engine_module
from bleu_lib import metric as metric_module
from bleu_lib.significance import segment_statistics

WORDS = [
    "the",
    "a",
    "cat",
    "sat",
    "on",
    "mat",
    ".",
    ",",
    "!",
    "3.5",
    "1,000",
    "don't",
    "well-known",
    "&amp;",
    "中文",
    "Éé",
    "-",
    "(",
    ")",
]
# several tokenizers and smoothing methods, lower-casing, orders and effective order
OPTIONS = [
    {},
    {"tokenize": "none", "smooth_method": "floor"},
    {"tokenize": "char", "lowercase": True},
    {"tokenize": "zh", "smooth_method": "add-k", "smooth_value": 0.5},
    {"tokenize": "intl", "smooth_method": "none"},
    {"max_ngram_order": 2, "effective_order": True},
    {"max_ngram_order": 6, "smooth_method": "floor", "smooth_value": 0.2},
    {"lowercase": True, "effective_order": True, "smooth_method": "none"},
]


def random_corpus(seed):
    """Hypotheses and 1 to 3 reference streams (later ones with None placeholders):
    noisy copies with repeated words."""
    rng = random.Random(seed)
    n, k = rng.randint(1, 40), rng.randint(1, 3)

    def line(base):
        return " ".join(
            w if rng.random() > 0.3 else rng.choice(WORDS)
            for w in base
            if rng.random() > 0.1
        )

    bases = [
        [rng.choice(WORDS[:8]) for _ in range(rng.choice([0, rng.randint(1, 15)]))]
        for _ in range(n)
    ]
    hyps = [line(base) for base in bases]
    streams = [[line(base) for base in bases] for _ in range(k)]
    for stream in streams[1:]:
        for i in range(n):
            if rng.random() < 0.2:
                stream[i] = None
    return hyps, streams


def outcome(metric, result):
    "Everything a score reports, and the signature."
    return (
        result.score,
        result.counts,
        result.totals,
        result.precisions,
        result.bp,
        result.sys_len,
        result.ref_len,
        result.mean,
        result.ci,
        str(metric.get_signature()),
    )


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        # zero scores and Chinese text, on purpose
        warnings.simplefilter("ignore", BleuWarning)
        return function(*args, **kwargs)


def generators(hyps, streams):
    return (h for h in hyps), [(line for line in stream) for stream in streams]


@pytest.fixture
def small_chunks(monkeypatch):
    "Chunks of 3 segments: several chunks per process, even in small corpora."
    # each reads the engine's CHUNK_SIZE as its own
    for module in (engine_module, metric_module, bleu_score_module):
        monkeypatch.setattr(module, "CHUNK_SIZE", 3)


@pytest.mark.parametrize("seed", range(len(OPTIONS)))
def test_streams_processes_and_the_cache_give_the_serial_lists_numbers(
    seed, small_chunks
):
    hyps, streams = random_corpus(seed)
    options = OPTIONS[seed]
    serial = BLEU(**options)
    expected = outcome(serial, quietly(serial.corpus_score, hyps, streams, jobs=1))
    for jobs in (1, 2):
        for inputs in [(hyps, streams), generators(hyps, streams)]:
            metric = BLEU(**options)
            assert (
                outcome(metric, quietly(metric.corpus_score, *inputs, jobs=jobs))
                == expected
            ), (jobs, inputs)
        # cached, from lists or from iterators
        for references in [streams, generators(hyps, streams)[1]]:
            cached = BLEU(references=references, **options)
            assert (
                outcome(
                    cached, quietly(cached.corpus_score, iter(hyps), None, jobs=jobs)
                )
                == expected
            ), jobs
            assert (
                outcome(cached, quietly(cached.corpus_score, hyps, None, jobs=jobs))
                == expected
            ), jobs
    rows = segment_statistics(BLEU(**options), hyps, streams, jobs=1)
    assert rows.dtype == np.int64 and rows.shape == (
        len(hyps),
        2 + 2 * serial.max_ngram_order,
    )
    assert (
        rows.sum(axis=0).tolist()
        == [expected[5], expected[6], *expected[1], *expected[2]]
        or options.get("smooth_method") == "add-k"
    )  # add-k reports its smoothed counts
    for jobs in (1, 2):
        assert np.array_equal(
            segment_statistics(BLEU(**options), *generators(hyps, streams), jobs=jobs),
            rows,
        )
        assert np.array_equal(
            segment_statistics(
                BLEU(references=streams, **options), iter(hyps), jobs=jobs
            ),
            rows,
        )


@pytest.mark.parametrize("seed", range(len(OPTIONS)))
def test_shards_statistics_add_up_to_the_corpus_score(seed):
    """The README's map-reduce: each shard's statistics in a process of a Pool, added,
    score as the whole corpus does."""
    hyps, streams = random_corpus(seed + 200)
    options, cut = OPTIONS[seed], len(hyps) // 2
    whole = BLEU(**options)
    expected = outcome(whole, quietly(whole.corpus_score, hyps, streams, jobs=1))
    shards = [
        (hyps[:cut], [stream[:cut] for stream in streams]),
        (hyps[cut:], [stream[cut:] for stream in streams]),
    ]
    # a one-segment corpus has one shard
    shards = [shard for shard in shards if shard[0]]
    metric = BLEU(**options)
    with multiprocessing.Pool(2) as pool:
        total = functools.reduce(operator.add, pool.starmap(metric.statistics, shards))
    # the signature's nrefs is known where the references were read
    result = quietly(metric.score_statistics, total)
    assert (
        result.score,
        result.counts,
        result.totals,
        result.precisions,
        result.bp,
        result.sys_len,
        result.ref_len,
    ) == expected[:7]


@pytest.mark.parametrize("seed", [2, 5])
def test_bootstrap_in_processes_is_the_serial_bootstrap(
    seed, small_chunks, monkeypatch
):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    hyps, streams = random_corpus(seed + 100)
    serial, parallel = BLEU(**OPTIONS[seed]), BLEU(**OPTIONS[seed])
    expected = outcome(
        serial, quietly(serial.corpus_score, hyps, streams, n_bootstrap=200, jobs=1)
    )
    assert (
        outcome(
            parallel,
            quietly(
                parallel.corpus_score,
                *generators(hyps, streams),
                n_bootstrap=200,
                jobs=2,
            ),
        )
        == expected
    )


def test_spawned_processes_and_automatic_jobs(monkeypatch, small_chunks):
    """Processes started fresh (spawn, the default on macOS and Windows), and jobs=None
    above a (lowered) threshold."""
    hyps, streams = random_corpus(7)
    serial = BLEU()
    expected = outcome(serial, quietly(serial.corpus_score, hyps, streams))
    monkeypatch.setattr(engine_module, "START_METHOD", "spawn")
    metric = BLEU(references=streams)
    assert (
        outcome(metric, quietly(metric.corpus_score, hyps, None, jobs=2))[:-1]
        == expected[:-1]
    )
    monkeypatch.setattr(engine_module, "START_METHOD", None)
    monkeypatch.setattr(engine_module, "PARALLEL_THRESHOLD", 5)
    metric = BLEU()
    assert (
        outcome(metric, quietly(metric.corpus_score, *generators(hyps, streams)))
        == expected
    )


def test_small_corpora_stay_in_this_process(monkeypatch):
    "jobs=None below PARALLEL_THRESHOLD, and jobs=1: no process is started."

    def no_processes(*args):
        raise AssertionError("a process pool was started")

    monkeypatch.setattr(engine_module.multiprocessing, "get_context", no_processes)
    hyps, streams = random_corpus(3)
    quietly(BLEU().corpus_score, hyps, streams)
    quietly(
        BLEU().corpus_score, *generators(hyps * 100, [s * 100 for s in streams]), jobs=1
    )


def step_counter():
    """(counted, pulled, gap): counted(name, items) yields the items, noting how far
    apart the two readers 'hyps' and 'refs' get."""
    pulled, gap = {"hyps": 0, "refs": 0}, []

    def counted(name, items):
        for item in items:
            pulled[name] += 1
            gap.append(abs(pulled["hyps"] - pulled["refs"]))
            yield item

    return counted, pulled, gap


def test_streams_are_read_in_step_never_whole():
    """A stream is never read ahead of the others (no list of a whole stream is made):
    at most one line apart."""
    counted, pulled, gap = step_counter()
    lines = [f"this is line {i} of the file ." for i in range(5000)]
    BLEU(force=True).corpus_score(
        counted("hyps", lines), [counted("refs", lines)], jobs=1
    )
    assert pulled == {"hyps": 5000, "refs": 5000} and max(gap) <= 1


def test_files_read_lazily(tmp_path):
    """Open files are streams: their lines end in '\\n', which is stripped as SacreBLEU
    strips every line."""
    hyps, streams = random_corpus(11)
    streams = [[line or "" for line in stream] for stream in streams]
    paths = []
    for k, lines in enumerate([hyps, *streams]):
        paths.append(tmp_path / f"file{k}")
        paths[-1].write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    serial = BLEU()
    expected = outcome(serial, quietly(serial.corpus_score, hyps, streams))
    files = [open(path, encoding="utf-8") for path in paths]
    try:
        metric = BLEU()
        assert (
            outcome(metric, quietly(metric.corpus_score, files[0], files[1:], jobs=2))
            == expected
        )
    finally:
        for file in files:
            file.close()


@pytest.mark.parametrize("jobs", [1, 2])
def test_stream_length_errors_are_the_lists_errors(jobs):
    hyps, stream = ["a b", "c d", "e f"], ["a b", "c d"]
    for hypotheses, references, words in [
        (hyps, [stream], "reference stream 0 has 2 lines but there are 3 hypotheses"),
        (hyps[:2], [hyps], "reference stream 0 has 3 lines but there are 2 hypotheses"),
        (hyps, [hyps, stream], "reference stream 1 has 2 lines but there are 3"),
        ([], [[]], "nothing to score"),
        ([], [stream], "nothing to score"),
    ]:
        for inputs in [(hypotheses, references), generators(hypotheses, references)]:
            with pytest.raises(ValueError, match=words):
                BLEU().corpus_score(*inputs, jobs=jobs)
    cached = BLEU(references=[iter(stream)])
    for hypotheses in (hyps, iter(hyps), iter(hyps[:1])):
        with pytest.raises(
            ValueError,
            match=(
                "references given to BLEU.references=.... have 2 lines but there are "
                "[31]"
            ),
        ):
            cached.corpus_score(hypotheses, None, jobs=jobs)
    with pytest.raises(TypeError, match=r"hypotheses\[1\] is NoneType"):
        BLEU().corpus_score(iter(["a", None]), [iter(["a", "b"])], jobs=jobs)
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] is int"):
        BLEU().corpus_score(iter(["a", "b"]), [iter(["a", 7])], jobs=jobs)


def test_bad_jobs():
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="jobs must be a number of processes"):
            BLEU().corpus_score(["a"], [["a"]], jobs=bad)


def test_the_cache_is_compact_and_notebook_10_still_reads_it():
    """Token ids in one array: 4 bytes a token; iterating the cache gives notebook 02's
    limits, as the old cache held them."""
    from bleu_lib.precision import max_ref_counts

    hyps, streams = random_corpus(4)
    metric = BLEU(references=streams)
    cache = metric._ref_cache
    tokens = [
        [metric.tokens(line) for line in lines if line is not None]
        for lines in zip(*streams)
    ]
    assert cache.ids.itemsize == 4 and len(cache.ids) == sum(
        len(ref) for refs in tokens for ref in refs
    )
    assert list(metric.reference_limits()) == [
        (max_ref_counts(refs, 4), [len(ref) for ref in refs]) for refs in tokens
    ]


def command(*args, cwd):
    done = subprocess.run(
        [sys.executable, "-m", "bleu_lib", *args],
        capture_output=True,
        cwd=cwd,
        env={
            **os.environ,
            "PYTHONPATH": str(metric_module.__file__).rsplit("/bleu_lib/", 1)[0],
        },
    )
    return done.returncode, done.stdout, done.stderr


def test_command_line_prints_the_same_bytes_with_two_processes(tmp_path):
    rng = random.Random(5)
    hyps, streams = random_corpus(21)
    # a second system: words shuffled
    other = [" ".join(rng.sample(line.split(), len(line.split()))) for line in hyps]
    streams = [[line or "x" for line in stream] for stream in streams]
    for name, lines in [
        ("hyp", hyps),
        ("other", other),
        *((f"ref{k}", s) for k, s in enumerate(streams)),
    ]:
        (tmp_path / name).write_text(
            "".join(line + "\n" for line in lines), encoding="utf-8"
        )
    (tmp_path / "ref0.gz").write_bytes(gzip.compress((tmp_path / "ref0").read_bytes()))
    refs = ["ref0.gz", *(f"ref{k}" for k in range(1, len(streams)))]
    for options in [
        ["-i", "hyp"],
        ["-i", "hyp", "other", "--paired-bs", "-pbsn", "50", "-f", "text"],
        ["-i", "hyp", "--confidence", "-cin", "50", "-f", "text", "-tok", "char"],
    ]:
        one, two = (
            command(*refs, *options, "-j", "1", cwd=tmp_path),
            command(*refs, *options, "-j", "2", cwd=tmp_path),
        )
        assert one[0] == two[0] == 0 and one[1] == two[1] and b"BLEU" in one[1], (
            options,
            one,
            two,
        )


# --- the token API: corpus_bleu
# --------------------------------------------------------------------------------------


def random_token_corpus(seed):
    """NLTK's layout, [segment][reference][token]: 1 to 40 segments, 1 to 3 references,
    words or integer ids."""
    rng = random.Random(seed)
    vocabulary = WORDS[:8] if seed % 2 else list(range(8))
    bases = [
        [rng.choice(vocabulary) for _ in range(rng.randint(0, 12))]
        for _ in range(rng.randint(1, 40))
    ]
    noisy = lambda base: [
        w if rng.random() > 0.3 else rng.choice(vocabulary)
        for w in base
        if rng.random() > 0.1
    ]  # noqa: E731
    return [[noisy(base) for _ in range(rng.randint(1, 3))] for base in bases], [
        noisy(base) for base in bases
    ]


def token_outcome(refs_per_segment, hyps, **options):
    "corpus_bleu's scores, or the exception's type and message."
    try:
        return quietly(corpus_bleu, refs_per_segment, hyps, **options)
    except ValueError as error:
        return type(error), str(error)


# several weight sets, smoothing methods (which see the last segment), auto_reweigh
TOKEN_OPTIONS = [
    {},
    {"weights": [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25, 0.25, 0.25, 0.25)]},
    {"smoothing_function": SmoothingFunction().method1},
    {"smoothing_function": SmoothingFunction().method4},
    {"smoothing_function": SmoothingFunction().method7, "auto_reweigh": True},
    {"weights": (0.2,) * 5, "auto_reweigh": True},
]


@pytest.mark.parametrize("seed", range(len(TOKEN_OPTIONS)))
def test_corpus_bleu_streams_and_processes_give_the_lists_numbers(seed, small_chunks):
    refs_per_segment, hyps = random_token_corpus(seed)
    options = TOKEN_OPTIONS[seed]
    expected = token_outcome(refs_per_segment, hyps, jobs=1, **options)
    for jobs in (1, 2):
        streamed = token_outcome(
            iter(refs_per_segment), (hyp for hyp in hyps), jobs=jobs, **options
        )
        assert (
            streamed
            == token_outcome(refs_per_segment, hyps, jobs=jobs, **options)
            == expected
        ), jobs
    nltk_options = {
        k: getattr(nltk_bleu.SmoothingFunction(), v.__name__)
        if k == "smoothing_function"
        else v
        for k, v in options.items()
    }
    # NLTK's number, where ours is one (we refuse NLTK's scores above 1)
    if not isinstance(expected, tuple):
        assert expected == quietly(
            nltk_bleu.corpus_bleu, refs_per_segment, hyps, **nltk_options
        )


def test_peers_need_lists():
    """README's comparison table: NLTK takes len() of a corpus first; SacreBLEU refuses
    reference generators."""
    with pytest.raises(TypeError, match="has no len"):
        nltk_bleu.corpus_bleu(iter([[["a", "b"]]]), iter([["a", "b"]]))
    with pytest.raises(TypeError, match="should be a sequence of strings"):
        SacreBLEU().corpus_score(iter(["a b"]), [iter(["a b"])])
    assert (
        corpus_bleu(iter([[["a", "b"]]]), iter([["a", "b"]]), weights=(0.5, 0.5)) == 1.0
    )
    assert (
        BLEU().corpus_score(iter(["a b c d"]), [iter(["a b c d"])]).score
        == SacreBLEU().corpus_score(["a b c d"], [["a b c d"]]).score
    )


def test_corpus_bleu_automatic_jobs(monkeypatch, small_chunks):
    """jobs=None: this process below PARALLEL_THRESHOLD, processes from it on (spawned
    ones too); the same score."""
    refs_per_segment, hyps = random_token_corpus(8)
    expected = corpus_bleu(refs_per_segment, hyps, jobs=1)

    def no_processes(*args):
        raise AssertionError("a process pool was started")

    with monkeypatch.context() as patched:
        patched.setattr(engine_module.multiprocessing, "get_context", no_processes)
        assert corpus_bleu(refs_per_segment, hyps) == expected
    monkeypatch.setattr(engine_module, "PARALLEL_THRESHOLD", 5)
    monkeypatch.setattr(engine_module, "START_METHOD", "spawn")
    assert corpus_bleu(iter(refs_per_segment), iter(hyps)) == expected


def test_corpus_bleu_reads_in_step_and_warns_here(small_chunks):
    """Hypotheses and references are read in step; a None token's warning reaches the
    caller, processes or not."""
    counted, pulled, gap = step_counter()
    refs_per_segment, hyps = random_token_corpus(10)
    corpus_bleu(
        counted("refs", refs_per_segment * 50), counted("hyps", hyps * 50), jobs=1
    )
    assert pulled == {"hyps": 50 * len(hyps), "refs": 50 * len(hyps)} and max(gap) <= 1
    for jobs in (1, 2):
        with pytest.warns(BleuWarning, match="None is counted as a token"):
            assert (
                corpus_bleu(
                    [[["a", "b", "c", "d"]]] * 3 + [[["a", "b", "c", None]]],
                    [["a", "b", "c", "d"]] * 3 + [["a", "b", "c", None]],
                    jobs=jobs,
                )
                == 1.0
            )


# --- several systems against cached references, counted segment by segment
# ----------------------------------------


@pytest.mark.parametrize("seed", [0, 2, 6])
def test_systems_counted_together_get_their_own_rows(seed, small_chunks):
    """systems_statistics (the command line's paired tests) gives each system
    segment_statistics's rows, in processes too, where systems give the same hypothesis
    for a segment (counted once) as well as where they differ."""
    from bleu_lib.significance import systems_statistics

    hyps, streams = random_corpus(seed + 300)
    half = len(hyps) // 2
    systems = [
        hyps,
        hyps[::-1],
        [line.upper() for line in hyps],
        hyps[:half] + hyps[::-1][half:],
    ]
    metric = BLEU(**OPTIONS[seed], references=streams)
    alone = [quietly(segment_statistics, metric, system, jobs=1) for system in systems]
    for jobs in (1, 2):
        together = quietly(
            systems_statistics, metric, [iter(systems[0]), *systems[1:]], jobs=jobs
        )
        assert (
            all((a == b).all() for a, b in zip(together, alone)) and len(together) == 4
        ), jobs


def test_systems_of_the_wrong_length():
    from bleu_lib.significance import systems_statistics

    metric = BLEU(references=[["a b", "c d"]])
    for systems in (
        [["a b", "c d"], ["a b", "c d", "e f"]],
        [["a b", "c d"], iter(["a b"])],
        [iter(["a b", "c d", "e"])],
    ):
        with pytest.raises(
            ValueError, match="have 2 lines but there are [13] hypotheses"
        ):
            systems_statistics(metric, systems)
    with pytest.raises(ValueError, match="no references"):
        systems_statistics(BLEU(), [["a b"]])


# --- long lines (issue 28): clipping counts each reference once per order
# ------------------------------------------------------------------------

# few words, so that nearly every n-gram repeats: the case that counts references
repeats = st.lists(st.sampled_from("abc"), max_size=40)


@settings(max_examples=300)
@given(repeats, st.lists(repeats, min_size=1, max_size=4), st.integers(1, 6))
def test_clipped_matches_are_notebook_02s_counts(hyp, refs, order):
    """The engine's clipping (sets, each reference counted once) against Part I's plain
    counting: notebook 02's limits and clip_counts."""
    from bleu_lib.ngrams import ngram_counts
    from bleu_lib.precision import clip_counts, max_ref_counts

    matches, _ = clip_counts(
        ngram_counts(hyp, order), max_ref_counts(refs, order), order
    )
    assert (
        engine_module.clipped_matches(hyp, engine_module.reference_grams(refs, order))
        == matches
    )


def test_a_long_line_gives_sacrebleus_statistics():
    """One line of 20,000 tokens over 4 words, against two references: every n-gram is
    repeated thousands of times (a document scored as one segment)."""
    rng = random.Random(28)
    hyp, *refs = (
        " ".join(rng.choices("abcd", k=20000 + extra)) for extra in (0, -3, 5)
    )
    ours, theirs = (
        metric(tokenize="none").corpus_score([hyp], [[ref] for ref in refs])
        for metric in (BLEU, SacreBLEU)
    )
    assert (ours.counts, ours.totals, ours.sys_len, ours.ref_len, ours.score) == (
        theirs.counts,
        theirs.totals,
        theirs.sys_len,
        theirs.ref_len,
        theirs.score,
    )


def test_tokenizer_caches_stay_bounded():
    """Streaming memory stays constant (issues 15 and 28): each tokenizer of the table
    remembers at most CACHED_LINES lines, and never one of CACHED_CHARS characters or
    more (a document on one line)."""
    from bleu_lib.tokenizer_table import CACHED_CHARS, CACHED_LINES, TOKENIZERS

    for name in ("13a", "zh", "char", "intl"):
        tokenize, lines = TOKENIZERS[name], CACHED_LINES + 10
        before = tokenize.cache_info()
        tokenize("a long line, " * CACHED_CHARS)
        for i in range(lines):
            tokenize(f"a line this test alone gives, number {i}.")
        info = tokenize.cache_info()
        assert info.maxsize == CACHED_LINES and info.currsize <= CACHED_LINES, name
        # the long line was not looked up: only the short ones missed
        assert info.misses - before.misses == lines, name
