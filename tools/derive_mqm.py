"""Derive data/mqm/ from Google's MQM annotations of the WMT 2021 TED talks test suite,
English to German.

    python tools/derive_mqm.py SOURCE_FOLDER [--out data/mqm]

SOURCE_FOLDER holds `mqm_ted_ende.tsv` (one row per rated error, or "No-error") and
`mqm_ted_ende.avg_seg_scores.tsv` (the MQM score of each system and segment) from
google/wmt-mqm-human-evaluation, `ted/ende/`. The script writes two small files (see
data/mqm/README.md for their columns):

    wmt21_ted_ende.tsv
        one row per system and segment: seg_id, system, rater, mqm, major, minor, output
    wmt21_ted_ende.sources.tsv
        one row per segment: seg_id, doc, source (the English sentence)

It keeps the segments every system has a score for (529 of 606), recomputes each MQM
score from the rated errors with Freitag et al.'s weights and refuses to write anything
if one differs from the published average. The output is the same bytes on every
machine: rows sorted, scores written from integer tenths, UTF-8 with `\\n` line ends.
"""

import argparse
import csv
import sys
from collections import defaultdict
from pathlib import Path

RATINGS, AVERAGES = "mqm_ted_ende.tsv", "mqm_ted_ende.avg_seg_scores.tsv"
# the human reference translation, as the ratings file names it (the averages file says
# "ref-A")
HUMAN = "ref"


def penalty_tenths(severity, category):
    """One error's MQM penalty in tenths of a point, with the weights used with Google's
    MQM annotations: major 5 (a major Non-translation! 25), minor 1, minor punctuation
    0.1."""
    if severity == "Major":
        return 250 if category == "Non-translation!" else 50
    if severity == "Minor":
        return 1 if category == "Fluency/Punctuation" else 10
    if severity == "No-error":
        return 0
    raise ValueError(
        f"unknown severity {severity!r} ({category!r}): the weights would be guesses"
    )


def read_ratings(folder):
    """Per (system, seg_id): rater, doc, source and output without the <v> error
    markers, penalty in tenths, major, minor."""
    items = {}
    with open(folder / RATINGS, encoding="utf-8", newline="") as file:
        for row in csv.DictReader(file, delimiter="\t", quoting=csv.QUOTE_NONE):
            key = (row["system"], int(row["seg_id"]))
            # the span of an error is marked <v>...</v> in the output, or in the source
            # for an omission
            output, source = (
                row[column].replace("<v>", "").replace("</v>", "")
                for column in ("target", "source")
            )
            item = items.setdefault(
                key,
                {
                    "rater": row["rater"],
                    "doc": row["doc"],
                    "source": source,
                    "output": output,
                    "tenths": 0,
                    "major": 0,
                    "minor": 0,
                },
            )
            if (item["rater"], item["output"], item["source"]) != (
                row["rater"],
                output,
                source,
            ):
                raise ValueError(
                    f"{key}: rows disagree on the rater, source or output text"
                )
            item["tenths"] += penalty_tenths(row["severity"], row["category"])
            item["major"] += row["severity"] == "Major"
            item["minor"] += row["severity"] == "Minor"
    return items


def read_averages(folder):
    """Per (system, seg_id): the published MQM average (negative: 0 is perfect), or None
    where the segment was not rated."""
    lines = (folder / AVERAGES).read_text(encoding="utf-8").splitlines()
    if lines[0] != "system mqm_avg_score seg_id":
        raise ValueError(f"unexpected header in {AVERAGES}: {lines[0]!r}")
    averages = {}
    for line in lines[1:]:
        system, rest = line.split("\t")
        score, seg_id = rest.split(" ")
        averages[(HUMAN if system == "ref-A" else system, int(seg_id))] = (
            None if score == "None" else float(score)
        )
    return averages


def derive(folder):
    """The two files' rows: (header, rows) for the outputs and (header, rows) for the
    sources."""
    items, averages = read_ratings(folder), read_averages(folder)
    systems = sorted({system for system, _ in averages})
    by_segment = defaultdict(set)
    for (system, seg_id), score in averages.items():
        if score is not None:
            by_segment[seg_id].add(system)
    kept = sorted(
        seg_id for seg_id, rated in by_segment.items() if rated == set(systems)
    )
    outputs, sources = [], {}
    for seg_id in kept:
        for system in systems:
            item = items[(system, seg_id)]
            if abs(-item["tenths"] / 10 - averages[(system, seg_id)]) > 1e-6:
                raise ValueError(
                    f"{system}, segment {seg_id}: errors give MQM "
                    f"{-item['tenths'] / 10}, the published average is "
                    f"{averages[(system, seg_id)]}"
                )
            mqm = (
                "0.0"
                if item["tenths"] == 0
                else f"-{item['tenths'] // 10}.{item['tenths'] % 10}"
            )
            outputs.append(
                (
                    seg_id,
                    system,
                    item["rater"],
                    mqm,
                    item["major"],
                    item["minor"],
                    item["output"],
                )
            )
            sources[seg_id] = (seg_id, item["doc"], item["source"])
    extra = set(items) - {(system, seg_id) for seg_id in kept for system in systems}
    if extra:
        raise ValueError(
            f"{len(extra)} rated items fall outside the kept segments, e.g. "
            f"{sorted(extra)[0]}"
        )
    return (
        (["seg_id", "system", "rater", "mqm", "major", "minor", "output"], outputs),
        (["seg_id", "doc", "source"], [sources[seg_id] for seg_id in kept]),
    )


def write_tsv(path, header, rows):
    """Tab-separated, UTF-8, `\\n` line ends; refuses a field that holds a tab or a line
    break."""
    lines = []
    for row in [header, *rows]:
        fields = [str(value) for value in row]
        if any(("\t" in f) or ("\n" in f) or ("\r" in f) for f in fields):
            raise ValueError(f"a field of {row!r} holds a tab or a line break")
        lines.append("\t".join(fields) + "\n")
    path.write_bytes("".join(lines).encode("utf-8"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "source_folder",
        type=Path,
        help="folder with mqm_ted_ende.tsv and mqm_ted_ende.avg_seg_scores.tsv",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parents[1] / "data" / "mqm",
        help="where to write the derived files (default: data/mqm of this repository)",
    )
    args = parser.parse_args(argv)
    (header, outputs), (source_header, sources) = derive(args.source_folder)
    args.out.mkdir(parents=True, exist_ok=True)
    write_tsv(args.out / "wmt21_ted_ende.tsv", header, outputs)
    write_tsv(args.out / "wmt21_ted_ende.sources.tsv", source_header, sources)
    print(
        f"{len(sources)} segments, {len(outputs) // len(sources)} systems (the human "
        f"reference included): {len(outputs)} rows written to {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
