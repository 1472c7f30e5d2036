"""What several test files share: the repository root and the data files of data/."""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_data(name):
    "A JSON file of data/ (the worked examples the notebooks use too)."
    return json.loads((ROOT / "data" / name).read_text(encoding="utf-8"))
