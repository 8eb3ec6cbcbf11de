"""How a section's cell is printed, by its column's kind (shared by the Markdown and JSON renderers): as text
(:func:`cell_text`, defined beside the section so a notebook's table of it prints the same) or as exact JSON."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from oddscalc.exact import frac_str
from oddscalc.results import Cell
from oddscalc.results.section import cell_text

__all__ = ["cell_json", "cell_text", "no_controls"]


def cell_json(value: Cell) -> Any:
    """The cell as exact JSON: Fractions as "p/q" text, everything else as it is."""
    if isinstance(value, Fraction):
        return frac_str(value)
    return value


# the bidirectional embeddings, overrides and isolates reorder what follows them on screen: "\u202e5.0%" would
# read as "%0.5" in a browser, so a title could show a figure that is not the one written
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


def no_controls(text: str, shown: str = "\ufffd") -> str:
    """Text with every control character but tab and new lines (which XML and HTML may not carry), and every
    bidirectional override, as ``shown``.

    >>> no_controls("edge\x07 \u202e%5.0")
    'edge\ufffd \ufffd%5.0'
    """
    return _CONTROL.sub(shown, text)
