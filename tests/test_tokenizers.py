"""SacreBLEU's five tokenizers give SacreBLEU's output: on every line of
data/tokenizer_cases.json, and on random strings. A tokenizer registered at run time
reaches every interface, and leaves those checks as they were."""

import contextlib

import pytest
from hypothesis import given, strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

# SacreBLEU's own table: name -> its class
from sacrebleu.metrics.bleu import _TOKENIZERS as SACREBLEU_NAMES
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
from sacrebleu.tokenizers.tokenizer_zh import _UCODE_RANGES, TokenizerZh

from bleu_lib import BLEU, TOKENIZERS, get_tokenizer
from bleu_lib.tokenizer_table import (
    NOT_INCLUDED,
    SACREBLEU_TOKENIZER_NAMES,
    register,
)
from bleu_lib import tokenizers as lesson
from bleu_lib.tokenizers import CHINESE
from support import load_data

# every test here is a hidden test of the grader's stage 06
pytestmark = pytest.mark.stage(name="tokenizers")

SACREBLEU = {
    "13a": Tokenizer13a(),
    "none": NoneTokenizer(),
    "char": TokenizerChar(),
    "zh": TokenizerZh(),
    "intl": TokenizerV14International(),
}
CASES = load_data("tokenizer_cases.json")["cases"]


def test_the_same_tokenizers_as_sacrebleu_minus_the_external_ones():
    assert set(SACREBLEU_TOKENIZER_NAMES) == set(SACREBLEU) <= set(TOKENIZERS)
    assert set(SACREBLEU_TOKENIZER_NAMES) | set(NOT_INCLUDED) == set(SACREBLEU_NAMES)


@pytest.mark.parametrize("name", sorted(SACREBLEU_TOKENIZER_NAMES))
def test_every_case_of_the_test_set(name):
    assert len(CASES) >= 200
    differ = [
        case
        for case in CASES
        if get_tokenizer(name)(case["text"]) != SACREBLEU[name](case["text"])
    ]
    assert differ == []


ALPHABET = list("ab9 0.,-'\"$&;<>/()\n\t\r") + [
    "&quot;",
    "&amp;",
    "&lt;",
    "&gt;",
    "<skipped>",
    "-\n",
    "«",
    "—",
    "…",
    "€",
    "中",
    "。",
    "，",
    "ア",
    "한",
    "٣",
    "½",
    "\u00a0",
    "\u3000",
    "😀",
]


@given(
    st.lists(st.sampled_from(ALPHABET), max_size=25).map("".join),
    st.sampled_from(sorted(SACREBLEU_TOKENIZER_NAMES)),
)
def test_random_strings(text, name):
    assert get_tokenizer(name)(text) == SACREBLEU[name](text)


# notebook 06's tokenizers, written to be read (the library's above are the fast ones)
LESSON = {
    "13a": lesson.tokenize_13a,
    "none": lesson.tokenize_none,
    "char": lesson.tokenize_char,
    "zh": lesson.tokenize_zh,
    "intl": lesson.tokenize_intl,
}


@pytest.mark.parametrize("name", sorted(LESSON))
def test_notebook_06s_tokenizers_on_every_case(name):
    assert set(LESSON) == set(SACREBLEU)
    differ = [
        case["text"]
        for case in CASES
        if LESSON[name](case["text"]) != SACREBLEU[name](case["text"])
    ]
    assert differ == []


@given(
    st.lists(st.sampled_from(ALPHABET), max_size=25).map("".join),
    st.sampled_from(sorted(LESSON)),
)
def test_notebook_06s_tokenizers_on_random_strings(text, name):
    assert LESSON[name](text) == SACREBLEU[name](text)


# notebook 06: exercise 2's model answer and the intl rule as cell c19 states it (a mark
# stays whole only when no character next to it is anything but a number)
FEWER_UNDER_INTL = [
    ("The match ended 2:1", "The match ended 2 : 1", "The match ended 2:1"),
    ("5/3", "5 / 3", "5/3"),
    ("2019-05-01", "2019 - 05 - 01", "2019-05-01"),
    ("It rose 50%", "It rose 50 %", "It rose 50%"),
    ("(5)", "( 5 )", "(5)"),
    # the same mark with a non-number next to it is split by both
    ("5% more", "5 % more", "5 % more"),
    # symbols are split by both
    ("$5 = 3+2", "$ 5 = 3 + 2", "$ 5 = 3 + 2"),
    # the question's example: more tokens under intl
    ("«Bonjour», dit-il.", "«Bonjour» , dit-il .", "« Bonjour » , dit - il ."),
]


@pytest.mark.parametrize("text, under_13a, under_intl", FEWER_UNDER_INTL)
def test_where_intl_makes_fewer_tokens_than_13a(text, under_13a, under_intl):
    assert get_tokenizer("13a")(text) == SACREBLEU["13a"](text) == under_13a
    assert get_tokenizer("intl")(text) == SACREBLEU["intl"](text) == under_intl


def test_chinese_table_on_every_code_point():
    """SacreBLEU's _is_chinese_char, as Python evaluates its table, on every code point
    but the surrogates. It compares one character with each range's ends as strings,
    so it can be true only from a range's start to the first character of its end:
    it is called there (35,000 code points), and is false everywhere else."""
    is_chinese = TokenizerZh._is_chinese_char
    surrogate = range(0xD800, 0xE000)
    maybe = {
        code
        for start, end in _UCODE_RANGES
        for code in range(ord(start[0]), ord(end[0]) + 1)
        if code not in surrogate
    }
    theirs = {code for code in maybe if is_chinese(chr(code))}
    # one scan of every code point, instead of a call per code point (3 s)
    every = "".join(chr(code) for code in range(0x110000) if code not in surrogate)
    assert {ord(match[0]) for match in CHINESE.finditer(every)} == theirs


@pytest.mark.parametrize(
    "name, words",
    [
        ("ja-mecab", "needs external models"),
        ("13A", "is not a tokenizer"),
        ("spm", "use SacreBLEU itself"),
    ],
)
def test_unknown_tokenizers_get_a_clear_error(name, words):
    with pytest.raises(ValueError, match=words):
        get_tokenizer(name)


def lowercase_words(line):
    "A tokenizer of our own: lower-case the line, then split at whitespace only."
    return " ".join(line.lower().split())


@contextlib.contextmanager
def registered(name, tokenize):
    """`tokenize` registered as `name` inside the with block; the registry exactly as it
    was afterwards."""
    saved = dict(TOKENIZERS)
    try:
        yield register(name, tokenize)
    finally:
        TOKENIZERS.clear()
        TOKENIZERS.update(saved)


@pytest.fixture
def lc_words():
    "The name of lowercase_words, registered for one test."
    with registered("lc-words", lowercase_words):
        yield "lc-words"


HYPS = [
    "The Cat sat on THE mat today.",
    "It rained ALL day long",
    "Prices ROSE 3.5% in May.",
]
REFS = [
    ["the cat sat on the mat today.", "it rained all day", "Prices rose 3.5% in May ."]
]


def test_a_registered_tokenizer_reaches_get_tokenizer_bleu_and_the_command_line(
    lc_words, tmp_path
):
    """One register() call: get_tokenizer finds it, BLEU(tokenize=...) scores with it,
    and -tok offers it."""
    from bleu_lib.__main__ import parse_args, run

    assert get_tokenizer(lc_words) is lowercase_words
    metric = BLEU(tokenize=lc_words)
    ours = metric.corpus_score(HYPS, REFS)
    theirs = SacreBLEU(tokenize="none").corpus_score(
        [hyp.lower() for hyp in HYPS], [[ref.lower() for ref in REFS[0]]]
    )
    assert (ours.score, ours.counts, ours.totals) == (
        theirs.score,
        theirs.counts,
        theirs.totals,
    )
    # the lower-casing makes the difference
    assert ours.score != BLEU(tokenize="none").corpus_score(HYPS, REFS).score
    assert (
        str(metric.get_signature())
        == "nrefs:1|case:mixed|eff:no|tok:lc-words|smooth:exp|version:2.6.0"
    )
    (tmp_path / "ref.txt").write_text("\n".join(REFS[0]) + "\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    files = [
        str(tmp_path / "ref.txt"),
        "-i",
        str(tmp_path / "hyp.txt"),
        "-tok",
        lc_words,
    ]
    assert list(run(parse_args(files + ["-b"]))) == [f"{theirs.score:.1f}"]
    assert "tok:lc-words" in list(run(parse_args(files)))[0]


def test_the_checks_against_sacrebleu_pass_with_a_tokenizer_registered(lc_words):
    """The drop-in checks read SacreBLEU's five, not the whole registry: a tokenizer of
    our own does not turn them red."""
    assert lc_words in TOKENIZERS and lc_words not in SACREBLEU_TOKENIZER_NAMES
    test_the_same_tokenizers_as_sacrebleu_minus_the_external_ones()
    for name in SACREBLEU_TOKENIZER_NAMES:
        test_every_case_of_the_test_set(name)


def test_a_removed_tokenizer_is_gone_everywhere():
    """After the with block, every interface refuses the name again, and the registry is
    as it was."""
    from bleu_lib.__main__ import parse_args

    before, args = dict(TOKENIZERS), ["ref.txt", "-i", "hyp.txt", "-tok", "lc-words"]
    with registered("lc-words", lowercase_words):
        assert parse_args(args).tokenize == "lc-words"
    assert TOKENIZERS == before
    with pytest.raises(ValueError, match="tokenize='lc-words' is not a tokenizer"):
        BLEU(tokenize="lc-words")
    with pytest.raises(SystemExit):
        parse_args(args)
