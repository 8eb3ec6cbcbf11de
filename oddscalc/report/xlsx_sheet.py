"""The cells of the workbook and the layout of a sheet.

A text is always a text: one beginning with "=" (a label from a table file, say) is never a formula. The only
formulas are the ones oddscalc writes (:class:`Formula`), in its own small grammar (cell references on the same
sheet, numbers, + - * /, SUM and VALUE: :func:`own_formula`), in the "Live formula" style. A number carries its
number format (:class:`Fmt`); an integer a spreadsheet cannot hold exactly (2**53 or more) is written as text, so
nothing is rounded on the way. A sheet's columns are as wide as its table cells (a long line of text is merged
across the table and wrapped), its header rows are frozen, and it prints to the page width.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from oddscalc.report.cells import no_controls

EXACT_NUMBER = 2**53  # every integer below this is a spreadsheet number exactly
MAX_CELL = 32_767  # the most characters a spreadsheet cell holds

# number formats: a lab reads a percentage as a percentage and a count with separators
COUNT = "#,##0"
PERCENT = "0.0000%"
SIGNED_PERCENT = "+0.0000%;-0.0000%;0.0000%"
EV = "0.00000000"  # as the report prints an expected value: 8 places
PROBABILITY = "0.0000000000"  # as the report's return table: 10 places
SD = "0.0000"
STAKE = "0.000000"
ONE_IN = '"1 in "#,##0'
ODDS = '#,##0.00" to 1"'
AMOUNT = "#,##0.00"
DATE = 'yyyy-mm-dd hh:mm:ss" UTC"'
GENERAL = "General"

LIVE = "Live formula"  # the named style of every formula cell
INPUT = "Pay (input)"  # the named style of a pay a reader may change

_REF = r"\$?[A-Z]{1,3}\$?[0-9]{1,7}"
_GRAMMAR = re.compile(rf"=(?:SUM\({_REF}:{_REF}\)|VALUE\({_REF}\)|{_REF}|[0-9]+|[-+*/()])+")


def own_formula(cell: Any) -> bool:
    """Whether an openpyxl cell holding a formula holds one of oddscalc's: its style and its grammar (a text from
    a file is never a formula, whatever it says)."""
    return cell.data_type == "f" and cell.style == LIVE and bool(_GRAMMAR.fullmatch(str(cell.value)))


def text(value: str) -> str:
    """A text as a cell can hold it: a control character (which XML cannot carry) shown as U+FFFD, and a text
    longer than a cell cut with a note saying so, never silently."""
    out = no_controls(value)
    if len(out) > MAX_CELL:
        note = f" [cut: {len(out):,} characters; a cell holds {MAX_CELL:,}]"
        out = out[:MAX_CELL - len(note)] + note
    return out


def exact_number(value: int) -> int | str:
    """An integer as a cell holds it exactly: a number, or its digits as text from 2**53 up."""
    return value if abs(value) < EXACT_NUMBER else str(value)


@dataclass(frozen=True)
class Fmt:
    """A number and its number format (a Fraction is written as the nearest float: its exact text sits beside)."""

    value: int | float | Fraction | datetime.datetime
    format: str = GENERAL


@dataclass(frozen=True)
class Formula:
    """A formula oddscalc writes: its text (from "="), the number format of its value, and that value at the
    table's own pays (the exact figure the report gives; it sizes the column)."""

    body: str
    format: str = GENERAL
    value: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        if not _GRAMMAR.fullmatch(self.body):
            raise ValueError(f"not a formula of oddscalc's grammar: {self.body!r}")


@dataclass(frozen=True)
class Exact:
    """An exact figure as text ("p/q"), or a word on the number before it, set a little apart from that number."""

    text: str


@dataclass(frozen=True)
class Input:
    """A number a reader may change (a pay), in the input style."""

    value: int | float | Fraction
    format: str = GENERAL


Value = str | int | float | bool | Fraction | None | Fmt | Formula | Input | Exact


def ref(row: int, column: int, absolute: bool = False) -> str:
    """A cell's A1 reference ("$C$7" when absolute)."""
    letters = ""
    n = column
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(65 + r) + letters
    return f"${letters}${row}" if absolute else f"{letters}{row}"


def styles(wb: Any) -> Any:
    """The workbook's bold font, after adding the named styles of live formulas and inputs."""
    from openpyxl.styles import Border, Font, NamedStyle, PatternFill, Side

    thin = Side(style="thin", color="7F7F7F")
    live = NamedStyle(LIVE, fill=PatternFill("solid", fgColor="E2EFDA"))  # pale green: computed here
    pay = NamedStyle(INPUT, fill=PatternFill("solid", fgColor="FFF2CC"), font=Font(color="1F3864", bold=True),
                     border=Border(thin, thin, thin, thin))  # pale yellow, boxed: change me
    wb.add_named_style(live)
    wb.add_named_style(pay)
    return Font(bold=True)


def _shown(value: Any, fmt: str) -> str:
    """About what a reader sees in the cell (for the column's width)."""
    if isinstance(value, str):
        return value
    if isinstance(value, datetime.datetime):
        return "2000-01-01 00:00:00 UTC"
    if isinstance(value, bool) or value is None:
        return str(value or "")
    x = float(value)
    if not math.isfinite(x):
        return str(x)
    if "%" in fmt:
        places = fmt.split("%")[0].count("0") - 1
        return f"{x * 100:+,.{max(places, 0)}f}%"
    if fmt == ONE_IN:
        return f"1 in {x:,.0f}"
    if fmt == ODDS:
        return f"{x:,.2f} to 1"
    if fmt.startswith("#,##0"):
        return f"{x:,.{len(fmt) - 6 if '.' in fmt else 0}f}"
    if fmt.startswith("0."):
        return f"{x:.{len(fmt) - 2}f}"
    return f"{x:.10g}"


class Sheet:
    """One sheet being written row by row: cells with their formats, widths fitted to the table cells."""

    def __init__(self, ws: Any, bold: Any, max_width: int = 60, min_widths: dict[int, int] | None = None) -> None:
        self.ws, self.bold, self.max_width = ws, bold, max_width
        self.widths: dict[int, int] = dict(min_widths or {})
        self.lines: list[tuple[int, int]] = []  # (row, column) of a long text, merged to the table's edge, wrapped

    @property
    def next_row(self) -> int:
        """The number of the row the next call writes."""
        return self.ws.max_row + 1 if self.ws.max_row > 1 or self.ws["A1"].value is not None else 1

    def row(self, values: Sequence[Value], bold: bool = False, unsized: Sequence[int] = (),
            header: bool = False) -> int:
        """Write a row of cells (an empty text is no cell; the columns ``unsized`` leave their width alone: a text
        there may run over the empty cells beside it; a header is bold and underlined); return its number."""
        r = self.next_row
        if not values:
            self.ws.cell(row=r, column=1)  # an empty row still takes its place
            return r
        for j, v in enumerate(values, start=1):
            if v is None or v == "":
                continue
            cell = self.ws.cell(row=r, column=j)
            fmt = _write(cell, v)
            if bold or header:
                cell.font = self.bold
            if header:
                cell.border = _underline()
            if j not in unsized:
                shown = _shown(v.value if isinstance(v, (Fmt, Input, Formula)) else v.text if isinstance(v, Exact)
                               else v, fmt)
                self.widths[j] = max(self.widths.get(j, 0), len(shown) + (isinstance(v, Exact)))
        return r

    def line(self, value: str, bold: bool = False) -> int:
        """A row of one long text (a note, an intro): it spans the table, wrapped, and sets no column's width."""
        r = self.row([value], bold=bold, unsized=(1,))
        self.lines.append((r, 1))
        return r

    def pair(self, label: str, value: str) -> int:
        """A label and a text that may be long: the text spans the rest of the table, wrapped."""
        from openpyxl.styles import Alignment

        r = self.row([label, value], unsized=(2,))
        self.ws.cell(row=r, column=1).alignment = Alignment(vertical="top")  # level with the wrapped text's top
        self.lines.append((r, 2))
        return r

    def title(self, title: str, what: str, columns: int) -> int:
        """The sheet's first row: its title (running over the empty cells beside it) and, in the table's last
        column, what it holds ("wager main", "section closest_decisions")."""
        from openpyxl.styles import Alignment

        r = self.row([title, *[None] * (max(columns, 2) - 2), what], bold=True, unsized=(1, max(columns, 2)))
        self.ws.cell(row=r, column=max(columns, 2)).alignment = Alignment(horizontal="right")
        return r

    def blank(self) -> int:
        """An empty row."""
        return self.row([])

    def finish(self, freeze: int | None = None, landscape: bool = True) -> None:
        """Column widths, long lines merged and wrapped, the rows above ``freeze`` frozen and printed on every
        page, and the page set to print the sheet's width."""
        from openpyxl.styles import Alignment
        from openpyxl.utils import get_column_letter

        columns = max(self.widths, default=1)
        for j in range(1, columns + 1):
            self.ws.column_dimensions[get_column_letter(j)].width = min(max(self.widths.get(j, 0) + 3, 8),
                                                                        self.max_width)
        span = sum(self.ws.column_dimensions[get_column_letter(j)].width for j in range(1, columns + 1))
        for r, j in self.lines:
            cell = self.ws.cell(row=r, column=j)
            length = len(str(cell.value or ""))
            width = span - sum(self.ws.column_dimensions[get_column_letter(i)].width for i in range(1, j))
            if columns > j and length > self.ws.column_dimensions[get_column_letter(j)].width:
                self.ws.merge_cells(start_row=r, start_column=j, end_row=r, end_column=columns)
            cell.alignment = Alignment(wrap_text=True, vertical="top")
            lines = max(1, math.ceil(length / max(width, 1)))
            if lines > 1:
                self.ws.row_dimensions[r].height = min(15 * lines, 409)  # a row is at most 409 points high
        if freeze is not None and freeze > 1:
            self.ws.freeze_panes = f"A{freeze}"
            self.ws.print_title_rows = f"1:{freeze - 1}"
        setup = self.ws.page_setup
        setup.orientation = "landscape" if landscape else "portrait"
        setup.fitToWidth, setup.fitToHeight = 1, 0
        self.ws.sheet_properties.pageSetUpPr.fitToPage = True


def _write(cell: Any, v: Value) -> str:
    """Put a value in a cell; return the number format it was given."""
    from openpyxl.styles import Alignment

    fmt = GENERAL
    if isinstance(v, Formula):
        cell.value = v.body
        cell.style = LIVE
        fmt = v.format
    elif isinstance(v, (Fmt, Input)):
        x = v.value
        cell.value = exact_number(x) if isinstance(x, int) else float(x) if isinstance(x, Fraction) else x
        if isinstance(v, Input):
            cell.style = INPUT
        fmt = v.format if not isinstance(cell.value, str) else GENERAL
    elif isinstance(v, (str, Exact)):
        cell.value = text(v if isinstance(v, str) else v.text)
        if cell.data_type == "f":  # a text is a text, whatever it begins with
            cell.data_type = "s"
        if isinstance(v, Exact):
            cell.alignment = Alignment(horizontal="left", indent=1)
    elif isinstance(v, int) and not isinstance(v, bool):
        cell.value = exact_number(v)
        fmt = COUNT if isinstance(cell.value, int) else GENERAL
    else:
        cell.value = float(v) if isinstance(v, Fraction) else v
    if fmt != GENERAL:
        cell.number_format = fmt
    if cell.data_type == "s" and isinstance(v, (Fmt, Input, int)):
        cell.alignment = Alignment(horizontal="right")  # a count held as text still lines up with the numbers
    return fmt


def _underline() -> Any:
    from openpyxl.styles import Border, Side

    return Border(bottom=Side(style="thin", color="000000"))


_BAD = re.compile(r"[\[\]:*?/\\]")
_DANGLING = {"a", "an", "and", "by", "for", "in", "of", "on", "or", "per", "the", "to", "with", "-"}


def sheet_name(title: str, taken: set[str]) -> str:
    """A readable sheet name from a title: at most 31 characters (cut at a word where it can be), none that a
    sheet name forbids, not blank, and unique in the workbook (case-insensitively, as spreadsheets compare)."""
    base = " ".join(no_controls(_BAD.sub("-", title.replace(": ", " - ")), "-").split()).strip("'") or "sheet"
    if base.lower() == "history":  # a name Excel keeps for itself
        base = "history (sheet)"
    if len(base) > 31:
        cut = base[:31]
        base = cut[:cut.rfind(" ")] if cut.rfind(" ") > 15 else cut
        while base.rsplit(" ", 1)[-1].lower() in _DANGLING and " " in base:  # not "Expected value and"
            base = base.rsplit(" ", 1)[0]
        base = base.rstrip(",;.-( ") or base
    name, k = base, 2
    while name.lower() in taken:
        suffix = f" ({k})"
        name, k = base[:31 - len(suffix)] + suffix, k + 1
    taken.add(name.lower())
    return name
