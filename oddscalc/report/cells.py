"""How a section's cell is printed, by its column's kind (shared by the Markdown and JSON renderers)."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from oddscalc.exact import decimal_str, frac_str, percent_str
from oddscalc.results import Cell, Column


def cell_text(value: Cell, column: Column) -> str:
    """The cell as a reader sees it."""
    if value is None:
        return ""
    if isinstance(value, bool) or isinstance(value, str):
        return str(value)
    kind = column.kind
    if kind == "int" and isinstance(value, int):
        return f"{value:,}"
    if kind == "fraction":
        return frac_str(value)
    if kind == "decimal":
        return decimal_str(value, column.places)
    if kind == "percent":
        return percent_str(value, column.places)
    if kind == "signed_percent":
        return ("+" if value > 0 else "") + percent_str(value, column.places)
    if kind == "odds":  # grouped digits, the "1 in 1,189,352" style of the rest of a document
        whole, dot, part = decimal_str(value, column.places).partition(".")
        return f"{int(whole):,}{dot}{part} to 1"
    if kind == "share":
        if value == 1:
            return "all"
        if value == 0:
            return "-"
        return percent_str(value, 0)
    return frac_str(value) if isinstance(value, Fraction) else str(value)


def cell_json(value: Cell) -> Any:
    """The cell as exact JSON: Fractions as "p/q" text, everything else as it is."""
    if isinstance(value, Fraction):
        return frac_str(value)
    return value


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def no_controls(text: str, shown: str = "\ufffd") -> str:
    """Text with every control character but tab and new lines (which XML and HTML may not carry) as ``shown``."""
    return _CONTROL.sub(shown, text)
