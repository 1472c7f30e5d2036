"""Helpers shared by the notebooks: tables, a drawing of steps, and the exercises'
answer checks. Nothing here is about BLEU, so it stays out of the argument."""

import hashlib
import math
import numbers
import warnings
from fractions import Fraction


def close(a, b, rel=1e-12):
    """True when `a` and `b` agree to `rel` relative: our bar for 'the same number' as
    NLTK and SacreBLEU."""
    return math.isclose(a, b, rel_tol=rel, abs_tol=0.0)


def quietly(function, *args, **kwargs):
    """Call `function` without its warnings (NLTK's and ours), where the number is what
    we look at."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def fmt(value):
    """One table cell: floats to 12 significant digits (the same text on every machine),
    fractions as m/l."""
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        return f"{value:.12g}"
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    return str(value)


def show_table(header, rows):
    "Print `rows` under `header` as an aligned plain-text table."
    cells = [[fmt(v) for v in row] for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = [
        "  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip() for row in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    print("\n".join(lines))


def canonical(value):
    """An answer as text: whole numbers as int, other numbers (Fraction, NumPy floats)
    as floats rounded to 4 decimals, so that the last bits do not matter."""
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(canonical(v) for v in value) + ")"
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return repr(int(value))
    if isinstance(value, numbers.Real):
        return repr(round(float(value), 4) + 0.0)  # + 0.0: -0.0 and 0.0 alike
    return repr(value)


def fingerprint(value):
    """A fingerprint of an exercise's answer: a check cell compares fingerprints, so
    that reading the check does not give the answer away."""
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()[:16]


def check_answer(name, value, expected, hint):
    "Raise, with `hint`, unless `value` has the `expected` fingerprint."
    assert fingerprint(value) == expected, f"{name} = {value!r} is not it: {hint}"


def draw_steps(steps):
    "Boxes from left to right, one per (title, text) step, joined by arrows."
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(11, 2.4))
    ax.set(xlim=(0, len(steps)), ylim=(0, 1))
    ax.axis("off")
    box = {"boxstyle": "round", "facecolor": "#eef", "edgecolor": "#99b"}
    for i, (title, text) in enumerate(steps):
        ax.text(i + 0.45, 0.78, title, ha="center", va="center", size=9, weight="bold")
        ax.text(i + 0.45, 0.32, text, ha="center", va="center", fontsize=8, bbox=box)
        if i:
            arrow = {"arrowstyle": "->"}
            ax.annotate("", (i + 0.02, 0.55), (i - 0.12, 0.55), arrowprops=arrow)
    plt.show()
