"""What several test files share: the repository root, the data files, the comparison
rule, and the random inputs of the differential tests.

The random inputs are wide on purpose: a four-word vocabulary (so that n-grams repeat
and collide, which is where clipping and closest lengths are tested) mixed with a
vocabulary of thousands of words, sentences of 0 to 60 tokens, 1 to 5 references, empty
segments, weights of any shape. Narrow inputs once let a crash and out-of-range scores
through."""

import json
import math
import sys
import warnings
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]

few_words = st.sampled_from(["a", "b", "c", "d"])
many_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=3)
tokens = st.one_of(
    st.lists(few_words, max_size=30),
    st.lists(st.one_of(few_words, many_words), max_size=60),
)
references = st.lists(tokens, min_size=1, max_size=5)
# what training code passes: a small vocabulary of ids
token_ids = st.lists(st.integers(0, 6), max_size=30)


@st.composite
def corpora(draw, min_segments=1):
    """`min_segments` to 8 segments with the same number (1 to 4) of references each;
    short and empty lines included."""
    n_refs = draw(st.integers(1, 4))
    refs = draw(
        st.lists(
            st.lists(tokens, min_size=n_refs, max_size=n_refs),
            min_size=min_segments,
            max_size=8,
        )
    )
    return refs, draw(st.lists(tokens, min_size=len(refs), max_size=len(refs)))


@st.composite
def weight_sets(draw):
    "Random non-negative weights for 1 to 8 orders, summing to 1, often with zeros."
    raw = draw(
        st.lists(
            st.one_of(st.just(0.0), st.floats(0.001, 1000)), min_size=1, max_size=8
        ).filter(any)
    )
    return tuple(w / sum(raw) for w in raw)


def sacrebleu_on_tokens(refs_per_segment, hyps, max_order=4):
    """SacreBLEU's unsmoothed corpus result for token lists (tokenize='none'), the
    references given per segment as our functions take them."""
    from sacrebleu.metrics import BLEU as SacreBLEU

    n_refs = len(refs_per_segment[0])
    streams = [[" ".join(refs[k]) for refs in refs_per_segment] for k in range(n_refs)]
    metric = SacreBLEU(tokenize="none", smooth_method="none", max_ngram_order=max_order)
    return metric.corpus_score([" ".join(hyp) for hyp in hyps], streams)


def barnhart_tokens(refs_per_segment, hyps):
    "Logan Barnhart's normalization: lower case, periods removed, split on spaces."
    clean = lambda text: text.lower().replace(".", "").split()  # noqa: E731
    return [[clean(r) for r in refs] for refs in refs_per_segment], [
        clean(h) for h in hyps
    ]


def data_lines(name, folder="corpus"):
    "The lines of a text file of data/ (data/corpus/ unless `folder` says otherwise)."
    return (ROOT / "data" / folder / name).read_text(encoding="utf-8").splitlines()


def load_data(name):
    "A JSON file of data/ (the worked examples the notebooks use too)."
    return json.loads((ROOT / "data" / name).read_text(encoding="utf-8"))


def nltk_floor_artefact(value, weights):
    """NLTK floors a zero precision at sys.float_info.min instead of scoring 0: with
    weights w, what is left is at most sys.float_info.min ** (the smallest positive
    w)."""
    smallest = min(w for w in weights if w > 0)
    return 0 < value <= sys.float_info.min**smallest * (1 + 1e-9)


def close(a, b):
    "The same number to 1e-12 relative: our bar for agreement with NLTK and SacreBLEU."
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)


def quietly(function, *args, **kwargs):
    """Call without warnings (NLTK's and ours), where the number is what the test looks
    at."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)
