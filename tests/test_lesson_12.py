"""Notebook 12's regression checks, moved here so that the lesson keeps one short check
per idea: every corpus BLEU the lesson prints is SacreBLEU's, and the system-level
correlations with MQM are the ones data/mqm/README.md measured.

(Appendix A9 checks the sentence-level numbers: sentence BLEU against SacreBLEU, and
Kendall's tau within sentences against the README's "about 0.09".)"""

import statistics
from collections import defaultdict

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

from bleu_lib.agreement import VARIANTS, kendall_tau, pearson
from bleu_lib.metric import BLEU
from support import ROOT, close, data_lines


REF_A, REF_B, ALPHA = map(data_lines, ["ref.A.en", "ref.B.en", "sys.alpha.en"])
# the lesson's first table: (translation, scored against) -> (hypotheses, references)
SETTINGS = {
    ("reference B", "A"): (REF_B, [REF_A]),
    ("reference A", "B"): (REF_A, [REF_B]),
    ("alpha", "A"): (ALPHA, [REF_A]),
    ("alpha", "B"): (ALPHA, [REF_B]),
    ("alpha", "A and B"): (ALPHA, [REF_A, REF_B]),
}


@pytest.mark.parametrize("setting", SETTINGS, ids=" against ".join)
def test_a_human_translation_and_alpha_score_as_in_sacrebleu(setting):
    hyps, refs = SETTINGS[setting]
    ours = BLEU().corpus_score(hyps, refs).score
    assert close(ours, SacreBLEU().corpus_score(hyps, refs).score), setting


@pytest.fixture(scope="module")
def mqm_data():
    """Each system's translations and MQM scores by segment, as notebook 12 reads
    data/mqm/wmt21_ted_ende.tsv; 'ref' is the human translation."""
    path = ROOT / "data" / "mqm" / "wmt21_ted_ende.tsv"
    output, mqm = defaultdict(dict), defaultdict(dict)
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        seg, system, _, score, _, _, text = line.split("\t")
        output[system][int(seg)], mqm[system][int(seg)] = text, float(score)
    return output, mqm


@pytest.fixture(scope="module")
def system_level(mqm_data):
    "Corpus BLEU against 'ref' and mean MQM of each of the 13 systems, and of 'ref'."
    output, mqm = mqm_data
    segments = sorted(output["ref"])
    reference = [output["ref"][seg] for seg in segments]
    bleu = {
        name: BLEU().corpus_score([output[name][s] for s in segments], [reference])
        for name in output
        if name != "ref"
    }
    mean_mqm = {name: statistics.mean(scores.values()) for name, scores in mqm.items()}
    return bleu, mean_mqm, segments, reference


def test_every_system_s_corpus_bleu_is_sacrebleu_s(mqm_data, system_level):
    output, _ = mqm_data
    bleu, _, segments, reference = system_level
    assert len(bleu) == 13
    for name, result in bleu.items():
        hyps = [output[name][seg] for seg in segments]
        assert close(result.score, SacreBLEU().corpus_score(hyps, [reference]).score), (
            name
        )


def test_system_level_correlations_are_the_data_readme_s(system_level):
    bleu, mean_mqm, _, _ = system_level
    systems = sorted(bleu)
    xs, ys = [bleu[n].score for n in systems], [mean_mqm[n] for n in systems]
    # data/mqm/README.md: Pearson 0.62 and Kendall 0.385 over the 13 systems
    assert (round(pearson(xs, ys), 2), round(kendall_tau(xs, ys), 3)) == (0.62, 0.385)
    # no two systems tie, so the three variants of tau agree
    assert len({kendall_tau(xs, ys, variant) for variant in VARIANTS}) == 1
    assert max(mean_mqm.values()) == mean_mqm["ref"], "the human translation is best"
