"""The notebooks are the single source of truth: they must be clean, and bleu_lib/ must be their export.

These run first (the file name sorts first), so that an unclean or out-of-sync notebook is the first failure
reported: clean, then export, then test. The notebooks themselves run later, under nbval.
"""
import pytest

from tools.nbtools import notebook_paths, out_of_sync, problems


@pytest.mark.parametrize("path", notebook_paths(), ids=lambda p: p.name)
def test_notebook_is_clean_and_ran_top_to_bottom(path):
    assert problems(path) == []


def test_bleu_lib_is_the_export_of_the_notebooks():
    assert out_of_sync() == [], "edit the notebooks, then run: python tools/nbtools.py export"
