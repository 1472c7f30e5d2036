"""The paper's worked examples and the published numbers of data/, reproduced exactly.

Expected values come from data/paper_examples.json (stated in the paper) and
data/published_examples.json (printed by the tools of their day); each row there names
its source. data/other_tools/outputs.json holds what releases we do not install
(SacreBLEU 1.5.1, d2l 1.0.3) returned, each with the command that produced it."""

import math
import warnings
from fractions import Fraction

import pytest
import sacrebleu
from nltk.translate import bleu_score as nltk_bleu

from bleu_lib import (
    BleuWarning,
    brevity_penalty,
    closest_ref_length,
    modified_precision,
    nltk32_bleu_from_stats,
)
from bleu_lib import segment_stats, sentence_bleu
from bleu_lib.corpus import corpus_stats
from support import barnhart_tokens, close, load_data, quietly, sacrebleu_on_tokens

PAPER = load_data("paper_examples.json")
PUBLISHED = load_data("published_examples.json")
# numbers from releases we do not install, each with how it was produced
OTHER_TOOLS = load_data("other_tools/outputs.json")


def paper_tokens(text):
    """The paper counts case-insensitively: lower-case, drop the final period, split on
    whitespace."""
    return text.lower().rstrip(".").split()


@pytest.mark.stage(name="precision")
@pytest.mark.parametrize("example", PAPER["precision_examples"], ids=lambda e: e["id"])
def test_paper_precisions_are_exact(example):
    refs, hyp = (
        [paper_tokens(r) for r in example["references"]],
        paper_tokens(example["hypothesis"]),
    )
    for n, (matches, total) in example["precisions"].items():
        p = modified_precision(refs, hyp, int(n))
        assert (p.numerator, p.denominator) == (matches, total)


def test_paper_example_2_is_case_sensitive_without_lower_casing():
    """Section 2.1: with 'The' kept upper-case in reference 1, only one 'the' is
    credited: 1/7."""
    example = PAPER["precision_examples"][2]
    refs = [r.rstrip(".").split() for r in example["references"]]
    assert modified_precision(refs, paper_tokens(example["hypothesis"]), 1) == Fraction(
        1, 7
    )


@pytest.mark.stage(name="brevity")
def test_paper_brevity_example():
    example = PAPER["brevity_example"]
    refs = [["w"] * n for n in example["ref_lens"]]
    r = closest_ref_length(refs, example["hyp_len"])
    assert (
        r == example["closest_ref_len"]
        and brevity_penalty(r, example["hyp_len"]) == example["bp"]
    )


@pytest.mark.stage(name="brevity")
def test_paper_example_3_is_saved_by_the_brevity_penalty():
    """'of the' has perfect p_1 and p_2; BP against the closest reference (16 words) is
    exp(-7)."""
    example = PAPER["precision_examples"][3]
    refs, hyp = (
        [paper_tokens(r) for r in example["references"]],
        paper_tokens(example["hypothesis"]),
    )
    assert brevity_penalty(closest_ref_length(refs, len(hyp)), len(hyp)) == math.exp(
        1 - 16 / 2
    )
    assert close(sentence_bleu(refs, hyp, (0.5, 0.5)), math.exp(-7))


TUTORIAL = PUBLISHED["nltk_2019_tutorial"]


@pytest.mark.stage(name="sentence")
@pytest.mark.parametrize("case", TUTORIAL["cases"], ids=lambda c: c["hypothesis"])
def test_2019_tutorial_numbers_follow_nltk_3_2_rule(case):
    refs, hyp = [r.split() for r in TUTORIAL["references"]], case["hypothesis"].split()
    assert close(nltk32_bleu_from_stats(segment_stats(refs, hyp)), case["published"])
    # Today's NLTK floors the zero precision instead, and the paper's BLEU (ours) is
    # exactly 0 for every case.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert 1e-233 < nltk_bleu.sentence_bleu(refs, hyp) < 1e-76
    with pytest.warns(BleuWarning):
        assert sentence_bleu(refs, hyp) == 0.0


def test_the_rule_is_nltk_3_2_2_to_3_2_5():
    """The 2019 numbers are what NLTK 3.2.2 to 3.2.5 printed, bit for bit; 3.2 gives 0
    on three cases and 3.2.1 raises on four (their sentence_bleu, run from the tags'
    source: data/other_tools/outputs.json), so the rule is 3.2.2's."""
    runs = OTHER_TOOLS["nltk_3_2_series"]["scores"]
    published = [case["published"] for case in TUTORIAL["cases"]]
    assert all(runs[tag] == published for tag in ["3.2.2", "3.2.3", "3.2.4", "3.2.5"])
    assert [a == b for a, b in zip(runs["3.2"], published)].count(False) == 3
    assert runs["3.2.1"].count("ZeroDivisionError") == 4


def test_nltk_issue_2245_both_releases():
    issue = PUBLISHED["nltk_issue_2245"]
    refs, hyp = [r.split() for r in issue["references"]], issue["hypothesis"].split()
    assert close(nltk32_bleu_from_stats(segment_stats(refs, hyp)), issue["nltk_3_2"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert close(nltk_bleu.sentence_bleu(refs, hyp), issue["nltk_3_4"])


@pytest.mark.parametrize(
    "candidate", PUBLISHED["nasa"]["candidates"], ids=["candidate-1", "candidate-2"]
)
def test_nasa_example_on_13a_tokens(candidate):
    nasa = PUBLISHED["nasa"]
    ours = 100 * sentence_bleu(
        [nasa["reference_13a"].split()], candidate["tokens_13a"].split()
    )
    assert round(ours, 1) == candidate["published"]
    assert close(
        ours, sacrebleu.corpus_bleu([candidate["text"]], [[nasa["reference"]]]).score
    )


def test_nasa_bare_strings_are_refused():
    """The course lab's call with two bare strings: SacreBLEU 1.x wrapped each in a list
    and printed the published scores (1.5.1's, stored with the command that produced
    them in data/other_tools/outputs.json); SacreBLEU 2.x returns 0.0; bleu_lib refuses
    them."""
    nasa = PUBLISHED["nasa"]
    text = nasa["candidates"][0]["text"]
    version_1 = OTHER_TOOLS["sacrebleu_1_bare_strings"]
    assert version_1["tool"].startswith("sacrebleu 1.5.1")
    for candidate, score in zip(nasa["candidates"], version_1["scores"]):
        wrapped = sacrebleu.corpus_bleu([candidate["text"]], [[nasa["reference"]]])
        assert score == wrapped.score and round(score, 1) == candidate["published"]
    assert sacrebleu.__version__.startswith("2.")
    assert sacrebleu.corpus_bleu(text, nasa["reference"]).score == 0.0
    with pytest.raises(TypeError, match="references is a string"):
        sentence_bleu(nasa["reference"], text)
    with pytest.raises(TypeError, match="hypothesis is a string"):
        sentence_bleu([nasa["reference"].split()], text)


def test_d2l_bleu_weights_p_n_by_one_over_two_to_the_n():
    """d2l 1.0.3's bleu(pred, label, k=4) on the NASA 13a tokens (run in a scratch
    environment, data/other_tools/outputs.json) is BP * prod of p_n ** (1/2**n) over
    our statistics, and above BLEU."""
    nasa = PUBLISHED["nasa"]
    d2l = OTHER_TOOLS["d2l_bleu"]
    assert d2l["tool"].startswith("d2l 1.0.3") and d2l["k"] == 4
    for candidate, score in zip(nasa["candidates"], d2l["scores"]):
        stats = segment_stats(
            [nasa["reference_13a"].split()], candidate["tokens_13a"].split()
        )
        bp = brevity_penalty(stats.ref_len, stats.hyp_len)
        weighted = math.prod(
            (m / l) ** (1 / 2**n)
            for n, (m, l) in enumerate(zip(stats.matches, stats.totals), start=1)
        )
        assert close(bp * weighted, score)
        assert score > 1.4 * sentence_bleu(
            [nasa["reference_13a"].split()], candidate["tokens_13a"].split()
        )


def test_from_scratch_first_segment_precisions():
    scratch = PUBLISHED["from_scratch_notebook"]
    refs_per_segment, hyps = barnhart_tokens(
        scratch["references"], scratch["hypotheses"]
    )
    refs, hyp = refs_per_segment[0], hyps[0]
    for n, published in scratch["first_segment_precisions"].items():
        assert modified_precision(refs, hyp, int(n)) == Fraction(published)


def test_barnhart_two_segments_sum_then_divide():
    example = PUBLISHED["barnhart_2023_two_segments"]["precision"]
    refs, hyps = barnhart_tokens(example["references"], example["hypotheses"])
    stats = corpus_stats(refs, hyps, max_order=1)
    assert (stats.matches[0], stats.totals[0]) == (5, 13)
    assert Fraction(5, 13) == Fraction(example["published"])
    assert close(5 / 13, example["published_float"])
    sacre = sacrebleu_on_tokens(refs, hyps, max_order=1)
    assert (sacre.counts[0], sacre.totals[0]) == (5, 13)
    # the mean of the segments' precisions is another number: (2/7 + 3/6) / 2
    assert (Fraction(2, 7) + Fraction(3, 6)) / 2 == Fraction(11, 28) != Fraction(5, 13)


def test_barnhart_lengths_r_is_one_plus_two():
    example = PUBLISHED["barnhart_2023_two_segments"]["lengths"]
    refs, hyps = barnhart_tokens(example["references"], example["hypotheses"])
    stats = corpus_stats(refs, hyps, max_order=1)
    assert (stats.hyp_len, stats.ref_len) == (example["published_c"], 1 + 2)
    sacre = sacrebleu_on_tokens(refs, hyps, max_order=1)
    assert (sacre.sys_len, sacre.ref_len) == (2, 3)
    assert close(sacre.bp, brevity_penalty(3, 2)) and close(
        brevity_penalty(3, 2), math.exp(-0.5)
    )


def test_protonx_chicken_corpus_scores():
    chicken = PUBLISHED["protonx_2021_chicken_corpus"]
    refs = [[r.split() for r in refs] for refs in chicken["references"]]
    hyps = [h.split() for h in chicken["hypotheses"]]
    stats = corpus_stats(refs, hyps)
    assert stats.matches == tuple(chicken["counts_as_quoted"]["matches"])
    assert stats.totals == tuple(chicken["counts_as_quoted"]["totals"])
    assert sacrebleu_on_tokens(refs, hyps).score == 0.0
    # NLTK floors the zero precisions at a tiny number instead of 0
    assert 0 < quietly(nltk_bleu.corpus_bleu, refs, hyps) < 1e-150
    # SacreBLEU's defaults smooth the zero orders (exp) and score above 10
    streams = [[refs[k] for refs in chicken["references"]] for k in range(2)]
    assert sacrebleu.corpus_bleu(chicken["hypotheses"], streams).score > 10
    # what the repository prints: NLTK 3.2's rule on the sums, BP 1 either way
    score = nltk32_bleu_from_stats(stats)
    assert close(score, (9 / 15 * 5 / 13) ** 0.25)
    assert f"Bleu Score: {score}" == chicken["repository_prints"][-1]
    assert brevity_penalty(6, 15) == brevity_penalty(12, 15) == 1
