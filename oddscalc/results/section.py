"""A report's tables as data: a :class:`Section` (a stable id, :class:`Column` s with their kinds, rows of cells)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from oddscalc.results.display import frame

if TYPE_CHECKING:
    import pandas

Cell = str | int | Fraction | bool | None

COLUMN_KINDS = ("text", "int", "fraction", "decimal", "percent", "signed_percent", "share", "odds")
NUMERIC_KINDS = frozenset(COLUMN_KINDS) - {"text"}  # the kinds a table aligns right


@dataclass(frozen=True)
class Column:
    """A column of a section: its id (the JSON key), its heading, and how a renderer prints it.

    kinds: text; int (thousands separators); fraction (exact p/q); decimal and percent (rounded to
    ``places``); signed_percent (with a + on gains); share (a proportion: all, -, or a percent); odds (x to 1,
    with thousands separators, as a petition prints odds).
    """

    id: str
    title: str
    kind: str = "text"
    places: int = 4

    def __post_init__(self) -> None:
        if self.kind not in COLUMN_KINDS:
            raise ValueError(f"column {self.id}: unknown kind {self.kind!r}")


@dataclass(frozen=True)
class Section:
    """A table of a report with a stable id: intro lines, columns, rows of cells, notes (plain text)."""

    id: str
    title: str
    columns: tuple[Column, ...] = ()
    rows: tuple[tuple[Cell, ...], ...] = ()
    intro: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for r in self.rows:
            if len(r) != len(self.columns):
                raise ValueError(f"section {self.id}: a row of {len(r)} cells for {len(self.columns)} columns")

    def records(self) -> list[dict[str, Cell]]:
        """One dict per row, keyed by column id."""
        ids = [c.id for c in self.columns]
        return [dict(zip(ids, r)) for r in self.rows]

    def column(self, column_id: str) -> list[Cell]:
        """Every cell of one column."""
        i = [c.id for c in self.columns].index(column_id)
        return [r[i] for r in self.rows]

    def to_frame(self) -> pandas.DataFrame:
        """The rows as a pandas DataFrame (needs the optional ``pandas`` extra)."""
        return frame(self.records())
