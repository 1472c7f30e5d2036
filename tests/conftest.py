"""Shared setup for the test suite."""
import json
import logging
from pathlib import Path

from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]

# SacreBLEU logs advice (effective order, tokenized input) that is irrelevant to the comparisons we make.
logging.getLogger("sacrebleu").setLevel(logging.ERROR)

# Differential tests: the same examples on every run, so that a failure reproduces, and no deadline
# (NLTK and SacreBLEU are called in every example and their speed varies).
settings.register_profile("bleu", derandomize=True, deadline=None, max_examples=300, database=None)
settings.load_profile("bleu")


def load_data(name):
    "A JSON file of data/ (the worked examples the notebooks use too)."
    return json.loads((ROOT / "data" / name).read_text(encoding="utf-8"))
