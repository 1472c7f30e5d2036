"""A fuzzer: random calls to the whole public API, with arguments that are sometimes
right and often wrong.

Whatever it is given, every call must end in one of two ways: a result in range (a
finite score between 0 and 1, or 0 and 100 for SacreBLEU's interface, or statistics), or
a TypeError or ValueError whose message is one readable sentence. Never another
exception (IndexError, ZeroDivisionError, OverflowError, RecursionError...), never NaN,
never a changed argument. This is how a crash on valid input and out-of-range scores
were found; it keeps looking.

In CI it replays the same examples on every run (the "bleu" profile of conftest.py
derandomizes). To search for new ones: BLEU_FUZZ=random BLEU_FUZZ_EXAMPLES=20000
.venv/bin/python -m pytest tests/test_fuzz.py (a failure prints the call that failed,
ready to paste)."""

import copy
import math
import os
import warnings

import numpy as np
from hypothesis import given, settings, strategies as st

import bleu_lib
import bleu_lib.sacrebleu
from bleu_lib import BLEU, BLEUScore, BleuStats

FUZZ = settings(
    max_examples=int(os.environ.get("BLEU_FUZZ_EXAMPLES", "1000")),
    derandomize=os.environ.get("BLEU_FUZZ") != "random",
)

WORDS = ["a", "b", "the", "cat", "", " ", "中文", "&amp;", "don't", "1,000", "-", "."]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.integers(),
    st.floats(),
    st.floats(0, 1),
    st.text(max_size=6),
    st.sampled_from(WORDS),
    st.binary(max_size=3),
)
garbage = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.frozensets(scalars, max_size=3),
        st.dictionaries(st.text(max_size=2), inner, max_size=2),
    ),
    max_leaves=12,
)
tokens = st.one_of(
    st.lists(st.sampled_from(WORDS[:4]), max_size=12),
    st.lists(st.integers(0, 5), max_size=12),
    st.lists(st.sampled_from(WORDS[:4]), max_size=8).map(np.array),
    st.lists(st.integers(0, 5), max_size=8).map(np.array),
)
line = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)
order = st.one_of(
    st.integers(1, 6), st.integers(-2, 1000), st.sampled_from([10**6, np.int64(3)])
)
weights = st.one_of(
    st.lists(st.floats(0, 2), min_size=1, max_size=6).map(tuple),
    st.sampled_from([(0.25,) * 4, (0.5, 0.5)]),
    st.lists(st.lists(st.floats(0, 1), min_size=1, max_size=3), min_size=1, max_size=2),
)
parameter = st.one_of(
    st.floats(0, 1), st.floats(), st.integers(-5, 1000), st.sampled_from([0, 0.1, 5])
)


def maybe(strategy):
    "Usually a plausible argument, sometimes garbage."
    return st.one_of(strategy, strategy, strategy, garbage)


@st.composite
def corpus(draw):
    """A SacreBLEU-layout corpus: hypothesis lines and 1 to 3 reference streams, usually
    of the same length."""
    hyps = draw(st.lists(line, min_size=0, max_size=5))
    streams = draw(
        st.lists(
            st.lists(
                st.one_of(line, st.none()), min_size=len(hyps), max_size=len(hyps)
            ),
            min_size=1,
            max_size=3,
        )
    )
    return hyps, streams


nltk_calls = st.one_of(
    st.tuples(
        st.just(bleu_lib.sentence_bleu),
        st.tuples(
            maybe(st.lists(tokens, min_size=1, max_size=3)),
            maybe(tokens),
            maybe(weights),
        ),
        st.fixed_dictionaries(
            {},
            optional={
                "smoothing_function": st.sampled_from(
                    [
                        None,
                        *(
                            getattr(bleu_lib.SmoothingFunction(), f"method{m}")
                            for m in range(8)
                        ),
                    ]
                ),
                "auto_reweigh": maybe(st.booleans()),
            },
        ),
    ),
    st.tuples(
        st.just(bleu_lib.corpus_bleu),
        st.tuples(
            maybe(st.lists(st.lists(tokens, min_size=1, max_size=2), max_size=3)),
            maybe(st.lists(tokens, max_size=3)),
            maybe(weights),
        ),
        st.just({}),
    ),
    st.tuples(
        st.just(bleu_lib.modified_precision),
        st.tuples(
            maybe(st.lists(tokens, min_size=1, max_size=3)), maybe(tokens), maybe(order)
        ),
        st.just({}),
    ),
    st.tuples(
        st.just(bleu_lib.closest_ref_length),
        st.tuples(
            maybe(st.lists(tokens, min_size=1, max_size=3)), maybe(st.integers(0, 20))
        ),
        st.just({}),
    ),
    st.tuples(
        st.just(bleu_lib.brevity_penalty),
        st.tuples(maybe(st.integers(0, 10**400)), maybe(st.integers(0, 30))),
        st.just({}),
    ),
    st.tuples(
        st.just(bleu_lib.chen_cherry_bleu),
        st.tuples(
            maybe(st.lists(tokens, min_size=1, max_size=3)),
            maybe(tokens),
            maybe(st.integers(1, 7)),
            maybe(weights),
            maybe(parameter),
            maybe(parameter),
            maybe(parameter),
        ),
        st.just({}),
    ),
    st.tuples(
        st.just(bleu_lib.corpus_stats),
        st.tuples(
            maybe(
                st.lists(
                    st.lists(tokens, min_size=1, max_size=2), min_size=1, max_size=3
                )
            ),
            maybe(st.lists(tokens, min_size=1, max_size=3)),
            maybe(order),
        ),
        st.just({}),
    ),
    st.tuples(
        st.just(bleu_lib.SmoothingFunction),
        st.tuples(maybe(parameter), maybe(parameter), maybe(parameter)),
        st.just({}),
    ),
    st.tuples(
        st.just(bleu_lib.bleu_from_stats),
        st.tuples(
            st.builds(
                BleuStats,
                maybe(st.integers(0, 9)),
                maybe(st.integers(0, 9)),
                maybe(st.lists(st.integers(0, 9), min_size=1, max_size=4).map(tuple)),
                maybe(st.lists(st.integers(0, 9), min_size=1, max_size=4).map(tuple)),
            ),
            maybe(weights),
        ),
        st.just({}),
    ),
)
sacrebleu_options = st.fixed_dictionaries(
    {},
    optional={
        "tokenize": maybe(
            st.sampled_from(["13a", "none", "char", "zh", "intl", "ja-mecab"])
        ),
        "smooth_method": maybe(st.sampled_from(["exp", "floor", "add-k", "none"])),
        "smooth_value": maybe(st.one_of(st.none(), parameter)),
        "lowercase": maybe(st.booleans()),
        "effective_order": maybe(st.booleans()),
        "max_ngram_order": maybe(order),
    },
)


def sacrebleu_score(options, data):
    hyps, streams = data
    return BLEU(**options).corpus_score(hyps, streams)


sacrebleu_calls = st.one_of(
    st.tuples(
        st.just(sacrebleu_score),
        st.tuples(sacrebleu_options, maybe(corpus())),
        st.just({}),
    ),
    st.tuples(
        st.just(BLEU.compute_bleu),
        st.tuples(
            maybe(st.lists(st.integers(0, 9), min_size=4, max_size=4)),
            maybe(st.lists(st.integers(0, 9), min_size=4, max_size=4)),
            maybe(st.integers(0, 12)),
            maybe(st.integers(0, 12)),
            maybe(st.sampled_from(["exp", "floor", "add-k", "none"])),
            maybe(st.one_of(st.none(), parameter)),
        ),
        st.just({}),
    ),
    st.tuples(
        st.just(bleu_lib.sacrebleu.sentence_bleu),
        st.tuples(maybe(line), maybe(st.lists(line, min_size=1, max_size=3))),
        st.just({}),
    ),
    st.tuples(
        st.just(bleu_lib.sacrebleu.raw_corpus_bleu),
        st.tuples(
            maybe(st.lists(line, min_size=1, max_size=3)),
            maybe(
                st.lists(st.lists(line, min_size=1, max_size=1), min_size=1, max_size=2)
            ),
        ),
        st.just({}),
    ),
    st.tuples(
        st.just(bleu_lib.get_tokenizer),
        st.tuples(maybe(st.sampled_from(["13a", "zh", "spm"]))),
        st.just({}),
    ),
)


def in_range(result):
    """True for what a successful call may return: scores in range, statistics,
    tokenizers, smoothing functions."""
    if isinstance(result, list):
        return all(in_range(r) for r in result)
    if isinstance(result, BLEUScore):
        return math.isfinite(result.score) and 0 <= result.score <= 100 * (1 + 1e-12)
    if isinstance(result, float):
        return math.isfinite(result) and 0 <= result <= 1
    return isinstance(
        result, (int, BleuStats, bleu_lib.Precision, bleu_lib.SmoothingFunction)
    ) or callable(result)


def check(call):
    function, args, kwargs = call
    before = repr((args, kwargs))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = function(*copy.copy(args), **kwargs)
    except (TypeError, ValueError) as error:
        assert type(error) in (TypeError, ValueError) and 0 < len(str(error)) < 400, (
            function.__name__,
            args,
            error,
        )
        assert "object is not iterable" not in str(
            error
        ) and "unhashable type" not in str(error), (function.__name__, args, error)
    else:
        assert in_range(result), (function.__name__, args, kwargs, result)
    assert repr((args, kwargs)) == before, f"{function.__name__} changed its arguments"


@FUZZ
@given(nltk_calls)
def test_nltk_layer_never_crashes_returns_out_of_range_or_changes_its_input(call):
    check(call)


@FUZZ
@given(sacrebleu_calls)
def test_sacrebleu_layer_never_crashes_returns_out_of_range_or_changes_its_input(call):
    check(call)
