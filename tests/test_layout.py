"""How bleu_lib is built: modules that read as a ladder (each imports only modules below
it, so no import cycle), and one brevity-penalty formula that every score shares."""

import ast
from pathlib import Path

LIBRARY = Path(__file__).resolve().parents[1] / "bleu_lib"

# From the bottom up: a module may import only modules before it. A new module takes its
# place here.
LADDER = [
    "checks",
    "ngrams",
    "precision",
    "brevity",
    "sentence",
    "corpus",
    "tokenizers",
    "smoothing",
    "tokenizer_table",
    "smoothing_registry",
    "result",
    "scoring",
    "streams",
    "engine",
    "batch",
    "bleu_score",
    "resampling",
    "significance",
    "metric",
    "sacrebleu",
    "breakdown",
    "render",
    "explain",
    "dialects",
    "agreement",
    "museum",
    "__init__",
    "__main__",
]


def imported_modules(path):
    "The bleu_lib modules that `path` imports, at its top or inside a function."
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "bleu_lib."
        ):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(
                alias.name.split(".")[1]
                for alias in node.names
                if alias.name.startswith("bleu_lib.")
            )
    return found


def test_every_module_imports_only_modules_below_it():
    modules = sorted(path.stem for path in LIBRARY.glob("*.py"))
    assert set(modules) <= set(LADDER), (
        f"place the new module(s) in LADDER: {sorted(set(modules) - set(LADDER))}"
    )
    upward = [
        (module, other)
        for module in modules
        for other in imported_modules(LIBRARY / f"{module}.py")
        if LADDER.index(other) >= LADDER.index(module)
    ]
    assert upward == [], f"these imports go up the ladder (or in a cycle): {upward}"


def test_the_brevity_penalty_formula_is_written_once():
    """exp(1 - r / c) appears in notebook 03's brevity_penalty only; every other path
    calls it."""
    places = []
    for path in LIBRARY.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", None)) == "exp"
                and node.args
                and isinstance(node.args[0], ast.BinOp)
                and isinstance(node.args[0].op, ast.Sub)
                and getattr(node.args[0].left, "value", None) == 1
            ):
                places.append(f"{path.name}:{node.lineno}")
    assert len(places) == 1 and places[0].startswith("brevity.py"), places
