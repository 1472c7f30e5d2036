"""Shared setup for the test suite."""
import logging

from hypothesis import settings

# SacreBLEU logs advice (effective order, tokenized input) that is irrelevant to the comparisons we make.
logging.getLogger("sacrebleu").setLevel(logging.ERROR)

# Differential tests: the same examples on every run, so that a failure reproduces, and no deadline
# (NLTK and SacreBLEU are called in every example and their speed varies).
settings.register_profile("bleu", derandomize=True, deadline=None, max_examples=300, database=None)
settings.load_profile("bleu")
