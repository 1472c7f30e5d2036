"""data/mqm: the derived MQM files have the shape and checksums data/mqm/README.md
documents.

The files are derived by tools/derive_mqm.py from google/wmt-mqm-human-evaluation
(ted/ende, commit 7fadea2); the source is not part of this project, so re-deriving is
checked by hand (README of data/mqm: the command and the sha256 of the sources), not
here."""

import hashlib
import re
from collections import defaultdict
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "mqm"
SYSTEMS = [
    "Facebook-AI",
    "HuaweiTSC",
    "Nemo",
    "Online-W",
    "UEdin",
    "VolcTrans-AT",
    "VolcTrans-GLAT",
    "eTranslation",
    "metricsystem1",
    "metricsystem2",
    "metricsystem3",
    "metricsystem4",
    "metricsystem5",
    "ref",
]


def read(name):
    text = (DATA / name).read_bytes().decode("utf-8")
    assert text.endswith("\n") and "\r" not in text
    header, *rows = text.splitlines()
    return header.split("\t"), [row.split("\t") for row in rows]


@pytest.mark.parametrize("name", ["wmt21_ted_ende.tsv", "wmt21_ted_ende.sources.tsv"])
def test_sha256_is_the_one_in_the_readme(name):
    documented = re.search(
        rf"\| derived: `{re.escape(name)}` \| ([0-9a-f]{{64}}) \|",
        (DATA / "README.md").read_text(encoding="utf-8"),
    )
    assert documented, f"data/mqm/README.md should give the sha256 of {name}"
    assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == documented[1]


def test_outputs_have_the_documented_shape():
    header, rows = read("wmt21_ted_ende.tsv")
    assert header == ["seg_id", "system", "rater", "mqm", "major", "minor", "output"]
    assert all(len(row) == 7 for row in rows)
    by_segment = defaultdict(list)
    for seg_id, system, *_ in rows:
        by_segment[int(seg_id)].append(system)
    assert len(by_segment) == 529 and len(rows) == 529 * 14
    assert all(systems == SYSTEMS for systems in by_segment.values()), (
        "every segment has all 14 systems, sorted"
    )
    assert [(int(r[0]), r[1]) for r in rows] == sorted((int(r[0]), r[1]) for r in rows)
    assert min(by_segment) >= 1 and max(by_segment) <= 606


def test_no_empty_output_and_scores_in_range():
    _, rows = read("wmt21_ted_ende.tsv")
    for seg_id, system, rater, mqm, major, minor, output in rows:
        assert output.strip() and "<v>" not in output and "</v>" not in output, (
            seg_id,
            system,
        )
        assert rater in {"rater1", "rater2", "rater3", "rater4"}
        assert re.fullmatch(r"0\.0|-[0-9]+\.[0-9]", mqm), mqm
        # MQM is minus the weighted errors: 5 per major, 1 or 0.1 (punctuation) per
        # minor
        assert -25.0 <= float(mqm) <= 0.0
        assert (
            5 * int(major) + 0.1 * int(minor) - 1e-9
            <= -float(mqm)
            <= 5 * int(major) + int(minor) + 1e-9
        )


def test_sources_have_one_row_per_segment():
    header, rows = read("wmt21_ted_ende.sources.tsv")
    assert header == ["seg_id", "doc", "source"]
    _, outputs = read("wmt21_ted_ende.tsv")
    assert [int(r[0]) for r in rows] == sorted({int(r[0]) for r in outputs})
    assert all(
        doc.startswith("talk.") and source.strip() and "<v>" not in source
        for _, doc, source in rows
    )


def test_the_human_reference_has_the_best_mean_mqm():
    _, rows = read("wmt21_ted_ende.tsv")
    totals = defaultdict(float)
    for _, system, _, mqm, *_ in rows:
        totals[system] += float(mqm)
    assert max(totals, key=totals.get) == "ref"
