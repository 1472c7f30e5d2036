"""What several test files share: the repository root, the data files, the comparison rule, and the random inputs
of the differential tests (a small vocabulary so that n-grams repeat, 0 to 30 tokens, 1 to 4 references)."""
import json
import math
import warnings
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]

tokens = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=30)
references = st.lists(tokens, min_size=1, max_size=4)


@st.composite
def corpora(draw):
    "1 to 6 segments with the same number (1 to 4) of references each; short and empty lines included."
    n_refs = draw(st.integers(1, 4))
    refs = draw(st.lists(st.lists(tokens, min_size=n_refs, max_size=n_refs), min_size=1, max_size=6))
    return refs, draw(st.lists(tokens, min_size=len(refs), max_size=len(refs)))


@st.composite
def weight_sets(draw):
    "Random non-negative weights for 1 to 6 orders, summing to 1, often with zeros."
    raw = draw(st.lists(st.sampled_from([0, 0, 1, 2, 3]), min_size=1, max_size=6).filter(any))
    return tuple(w / sum(raw) for w in raw)


def load_data(name):
    "A JSON file of data/ (the worked examples the notebooks use too)."
    return json.loads((ROOT / "data" / name).read_text(encoding="utf-8"))


def close(a, b):
    "The same number to 1e-12 relative: our bar for agreement with NLTK and SacreBLEU."
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)


def quietly(function, *args, **kwargs):
    "Call without warnings (NLTK's and ours), where the number is what the test looks at."
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)
