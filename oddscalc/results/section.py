"""A report's tables as data: a :class:`Section` (a stable id, :class:`Column` s with their kinds, rows of cells)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from oddscalc.exact import decimal_str, frac_str, percent_str
from oddscalc.results.display import escape, frame, html_table, listed, one_line, quoted

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


def cell_text(value: Cell, column: Column) -> str:
    """The cell as a reader sees it, by its column's kind (every renderer's one way: ``report.cells`` gives it
    to the Markdown and JSON reports, and a section's notebook table shows it)."""
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


@dataclass(frozen=True, repr=False)
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

    def to_frame(self, floats: bool = False) -> pandas.DataFrame:
        """The rows as a pandas DataFrame (needs the optional ``pandas`` extra), one column per column id: exact
        cells (``Fraction``) by default, with ``floats`` each ``Fraction`` as the nearest float."""
        return frame(self.records(), floats)

    def __repr__(self) -> str:
        return (f"<Section {one_line(self.id, 40)} {quoted(self.title)}: {len(self.rows):,} rows of "
                f"{len(self.columns)} columns ({listed([c.id for c in self.columns])})>")

    def _repr_html_(self) -> str:
        """The section as a small HTML table (its first rows, cells as a report prints them)."""
        numeric = [c.kind in NUMERIC_KINDS for c in self.columns]
        rows = ([cell_text(v, c) for v, c in zip(r, self.columns)] for r in self.rows)
        return (f"<p><strong>{escape(self.title, 200)}</strong> <code>{escape(self.id, 40)}</code></p>\n"
                + html_table([c.title for c in self.columns], rows, numeric, len(self.rows)))
