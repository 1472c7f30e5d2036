"""Notebook 06's checks over many cases, moved out of the lesson (issue 25): the lesson
keeps one telling check per idea, and these confirm the rest of what its text and figure
say, against SacreBLEU as the lesson did.

- The opening table (corpus BLEU, unsmoothed, of the small corpus's systems alpha and
  beta, two references): the scores it prints; for both systems `none` lowest and `char`
  highest, the three word-level tokenizers that split punctuation within 1.2 points;
  beta below alpha under every tokenization; alpha's `13a` and `none` almost four points
  apart; alpha's line 15 ends in "square.", a token neither reference has.
- The Chinese output under `13a`: 29 tokens, no line longer than three, p_3 = 0/4,
  p_4 = 0/0, BLEU 0, and even the reference scored against itself gets 0 though its
  1- to 3-gram precisions are 100; `zh` and `char` give 42.8 and 51.4; told
  trg_lang="zh", SacreBLEU picks `zh` and its score.
- Notebook 06's tokenizers (bleu_lib.tokenizers) with notebook 05's corpus statistics
  give SacreBLEU's scores of both tables, to 1e-9.
- The worked example by hand, and why `tokenize_13a` pads the line: rule 3 splits a
  period only when a character follows it.

tests/test_tokenizers.py checks every tokenizer on every line of the test set."""

import math

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib import tokenizers as lesson
from bleu_lib.corpus import corpus_stats
from bleu_lib.sentence import bleu_from_stats
from support import data_lines, quietly

SETTINGS = ["13a", "13a, lowercase", "none", "intl", "char"]
TOKENIZERS = {
    "13a": lesson.tokenize_13a,
    "none": lesson.tokenize_none,
    "char": lesson.tokenize_char,
    "zh": lesson.tokenize_zh,
    "intl": lesson.tokenize_intl,
}


REFS = [data_lines("ref.A.en"), data_lines("ref.B.en")]
SYSTEMS = {"alpha": data_lines("sys.alpha.en"), "beta": data_lines("sys.beta.en")}
ZH_REF, ZH_SYS = data_lines("ref.zh", "zh"), data_lines("sys.zh", "zh")


def sacrebleu(setting, hyps, refs):
    "SacreBLEU's unsmoothed corpus score under '13a', '13a, lowercase' and so on."
    name, *lowercase = setting.split(", ")
    metric = SacreBLEU(tokenize=name, lowercase=bool(lowercase), smooth_method="none")
    return metric.corpus_score(hyps, refs)


def ours(setting, hyps, ref_streams):
    """Corpus BLEU in percent with notebook 06's tokenizer (lower-casing first if
    asked) and notebook 05's corpus statistics."""
    name, *lowercase = setting.split(", ")
    prepare = lambda line: TOKENIZERS[name](line.lower() if lowercase else line)
    refs = [[prepare(ref).split() for ref in refs] for refs in zip(*ref_streams)]
    stats = corpus_stats(refs, [prepare(hyp).split() for hyp in hyps])
    return 100 * quietly(bleu_from_stats, stats)  # a 0 is a legitimate result here


@pytest.fixture(scope="module")
def table():
    "The opening table: setting -> system -> SacreBLEU's score."
    return {
        setting: {
            name: sacrebleu(setting, hyps, REFS).score for name, hyps in SYSTEMS.items()
        }
        for setting in SETTINGS
    }


def test_the_opening_table_prints_these_scores(table):
    rounded = {s: tuple(round(x, 1) for x in table[s].values()) for s in SETTINGS}
    assert rounded == {
        "13a": (75.7, 35.9),
        "13a, lowercase": (76.3, 36.9),
        "none": (71.9, 29.6),
        "intl": (76.4, 35.8),
        "char": (91.4, 74.3),
    }


@pytest.mark.parametrize("system", SYSTEMS)
def test_none_lowest_char_highest_and_the_word_level_three_close(table, system):
    scores = {s: table[s][system] for s in SETTINGS}
    assert min(scores, key=scores.get) == "none"
    assert max(scores, key=scores.get) == "char"
    word_level = [scores[s] for s in ["13a", "13a, lowercase", "intl"]]
    assert max(word_level) - min(word_level) < 1.2, word_level


def test_beta_below_alpha_everywhere_and_alpha_s_13a_none_gap(table):
    assert all(table[s]["beta"] < table[s]["alpha"] for s in SETTINGS)
    gap = table["13a"]["alpha"] - table["none"]["alpha"]
    assert 3.5 < gap < 4, gap


def test_alpha_s_line_15_ends_in_a_token_neither_reference_has():
    assert "square." in SYSTEMS["alpha"][14].split()
    for ref in REFS:
        assert "square." not in ref[14].split() and "square" in ref[14].split()


def test_chinese_under_13a_has_no_4_gram_and_scores_0():
    under_13a = sacrebleu("13a", ZH_SYS, [ZH_REF])
    lengths = [len(SacreBLEU().tokenizer(line).split()) for line in ZH_SYS]
    assert len(ZH_SYS) == len(ZH_REF) == 20
    assert (under_13a.sys_len, max(lengths), under_13a.score) == (29, 3, 0)
    assert (under_13a.counts[2:], under_13a.totals[2:]) == ([0, 0], [4, 0])
    itself = sacrebleu("13a", ZH_REF, [ZH_REF])
    assert itself.score == 0 and itself.precisions[:3] == [100.0] * 3


def test_chinese_under_zh_and_char_and_told_the_target_language():
    scores = {name: sacrebleu(name, ZH_SYS, [ZH_REF]).score for name in ["zh", "char"]}
    assert (round(scores["zh"], 1), round(scores["char"], 1)) == (42.8, 51.4)
    told = SacreBLEU(trg_lang="zh", smooth_method="none")
    assert told.corpus_score(ZH_SYS, [ZH_REF]).score == scores["zh"]
    assert told.tokenizer.signature() == "zh"


@pytest.mark.stage(name="tokenizers")
@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("system", SYSTEMS)
def test_our_tokenizers_give_the_opening_table(setting, system):
    hyps = SYSTEMS[system]
    theirs = sacrebleu(setting, hyps, REFS).score
    assert math.isclose(ours(setting, hyps, REFS), theirs, rel_tol=1e-9)


@pytest.mark.stage(name="tokenizers")
@pytest.mark.parametrize("name", ["13a", "zh", "char"])
def test_our_tokenizers_give_the_chinese_table(name):
    theirs = sacrebleu(name, ZH_SYS, [ZH_REF]).score
    assert math.isclose(ours(name, ZH_SYS, [ZH_REF]), theirs, rel_tol=1e-9)


@pytest.mark.stage(name="tokenizers")
def test_the_worked_example_and_why_13a_pads_the_line():
    worked = "It costs $5.50 (about 5 euros)."
    assert lesson.tokenize_13a(worked) == "It costs $ 5.50 ( about 5 euros ) ."
    # unpadded, the final period has no character after it, and rule 3 leaves it
    assert lesson.split_punctuation_rule_by_rule("In 2019.") == "In 2019."
    assert lesson.tokenize_13a("In 2019.") == "In 2019 ."
