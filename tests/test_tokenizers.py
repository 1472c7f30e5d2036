"""Every tokenizer gives SacreBLEU's output: on every line of data/tokenizer_cases.json, and on random strings."""
import pytest
from hypothesis import given, strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from bleu_lib import TOKENIZERS, get_tokenizer
from bleu_lib.tokenizers import CHINESE
from support import load_data

SACREBLEU = {"13a": Tokenizer13a(), "none": NoneTokenizer(), "char": TokenizerChar(), "zh": TokenizerZh(),
             "intl": TokenizerV14International()}
CASES = load_data("tokenizer_cases.json")["cases"]


def test_the_same_tokenizers_as_sacrebleu_minus_the_external_ones():
    assert set(TOKENIZERS) == set(SACREBLEU)


@pytest.mark.parametrize("name", sorted(SACREBLEU))
def test_every_case_of_the_test_set(name):
    assert len(CASES) >= 200
    differ = [case for case in CASES if get_tokenizer(name)(case["text"]) != SACREBLEU[name](case["text"])]
    assert differ == []


ALPHABET = list("ab9 0.,-'\"$&;<>/()\n\t\r") + ["&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-\n", "«", "—", "…",
                                                  "€", "中", "。", "，", "ア", "한", "٣", "½", "\u00a0", "\u3000", "😀"]


@given(st.lists(st.sampled_from(ALPHABET), max_size=25).map("".join), st.sampled_from(sorted(SACREBLEU)))
def test_random_strings(text, name):
    assert get_tokenizer(name)(text) == SACREBLEU[name](text)


def test_chinese_table_on_every_code_point():
    """SacreBLEU's _is_chinese_char, as Python evaluates its table, on every code point but the surrogates."""
    is_chinese = TokenizerZh._is_chinese_char
    differ = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF
              and bool(CHINESE.fullmatch(chr(cp))) != is_chinese(chr(cp))]
    assert differ == []


@pytest.mark.parametrize("name, words", [("ja-mecab", "needs external models"), ("13A", "is not a tokenizer"),
                                         ("spm", "use SacreBLEU itself")])
def test_unknown_tokenizers_get_a_clear_error(name, words):
    with pytest.raises(ValueError, match=words):
        get_tokenizer(name)
