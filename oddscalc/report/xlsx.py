"""Excel workbook report (openpyxl): the report sheet, one sheet per wager and per section, the
published checks. Every exact figure is written as text ("p/q") beside its decimal, and a count too
large for a spreadsheet number (above 2**53) is written as text, so nothing is rounded on the way.

The workbook's bytes depend on the analysis only: its document dates and the archive's entry
times are fixed.
"""

from __future__ import annotations

import datetime
import io
import re
import zipfile
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from oddscalc import __version__
from oddscalc.exact import frac_str
from oddscalc.report.cells import no_controls
from oddscalc.report.document import rules_text, wager_facts
from oddscalc.report.html import needs
from oddscalc.results import Analysis, Cell, Section, WagerResult

EXACT_NUMBER = 2**53  # every integer up to here is a spreadsheet number exactly
_FIXED = datetime.datetime(2000, 1, 1)
_BAD = re.compile(r"[\[\]:*?/\\]")


def _number(value: int) -> int | str:
    return value if abs(value) < EXACT_NUMBER else str(value)


def _sheet_name(title: str, taken: set[str]) -> str:
    base = no_controls(_BAD.sub("-", title), "-")[:31]
    name, k = base, 2
    while name.lower() in taken:
        suffix = f" {k}"
        name, k = base[:31 - len(suffix)] + suffix, k + 1
    taken.add(name.lower())
    return name


MAX_CELL = 32_767  # the most characters a spreadsheet cell holds


def text(value: str) -> str:
    """A text as a cell can hold it: a control character (which XML cannot carry) shown as U+FFFD, and a text
    longer than a cell cut with a note saying so, never silently."""
    out = no_controls(value)
    if len(out) > MAX_CELL:
        note = f" [cut: {len(out):,} characters; a cell holds {MAX_CELL:,}]"
        out = out[:MAX_CELL - len(note)] + note
    return out


def _append(ws: Any, values: Sequence[Any]) -> None:
    """A row of cells; a text is always text: one beginning with '=' (a table's label, say) never a formula."""
    ws.append([text(v) if isinstance(v, str) else v for v in values])
    for cell in ws[ws.max_row] if values else ():
        if cell.data_type == "f":
            cell.data_type = "s"


def _bold_row(ws: Any, values: Sequence[Any], font: Any) -> None:
    _append(ws, list(values))
    for cell in ws[ws.max_row]:
        cell.font = font


def _wager_sheet(ws: Any, w: WagerResult, bold: Any) -> None:
    _append(ws, [w.title, w.wager])
    ws["A1"].font = bold
    for fact in wager_facts(w, extras=True):
        _append(ws, [fact])
    _append(ws, [])
    _bold_row(ws, ["event", "label", "pays", "units (exact)", "units", "stake (exact)", "combinations",
                   "probability (exact)", "probability", "return (exact)", "return"], bold)
    for r in w.rows:
        p, ret = w.probability(r), w.row_return(r)
        _append(ws, [r.event, r.label, r.pays, frac_str(r.units), float(r.units), frac_str(r.stake),
                   _number(r.combinations), frac_str(p), float(p), frac_str(ret), float(ret)])
    _append(ws, ["total", "", "", "", "", "", _number(w.total_combinations), "1", 1.0, frac_str(w.expected_value),
               float(w.expected_value)])
    for column, width in zip("ABCDEFGHIJK", (26, 40, 16, 14, 10, 12, 22, 34, 14, 34, 14)):
        ws.column_dimensions[column].width = width


def _cells(value: Cell) -> list[Any]:
    """A section cell: its decimal (or int, text) and its exact text."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return [value, None]
    if isinstance(value, int):
        return [_number(value), None]
    return [float(value), frac_str(value)]


def _section_sheet(ws: Any, s: Section, bold: Any) -> None:
    _append(ws, [s.title])
    ws["A1"].font = bold
    for line in s.intro:
        _append(ws, [line])
    _append(ws, [])
    exact = [any(isinstance(r[j], Fraction) for r in s.rows) for j in range(len(s.columns))]
    header: list[str] = []
    for c, has in zip(s.columns, exact):
        header += [c.title, f"{c.title} (exact)"] if has else [c.title]
    _bold_row(ws, header, bold)
    for row in s.rows:
        out: list[Any] = []
        for v, has in zip(row, exact):
            out += _cells(v) if has else _cells(v)[:1]
        _append(ws, out)
    for line in s.notes:
        _append(ws, [line])


def render_xlsx(a: Analysis) -> bytes:
    """The whole report as an xlsx workbook."""
    openpyxl = needs("openpyxl")
    bold = openpyxl.styles.Font(bold=True)
    wb = openpyxl.Workbook()
    wb.properties.created = wb.properties.modified = _FIXED
    wb.properties.creator = f"oddscalc {__version__}"
    wb.properties.title = text(a.table.title)
    ws = wb.active
    ws.title = "Report"
    taken = {"report"}
    t = a.table
    for key, value in (("title", t.title), ("verdict", a.verdict.text), ("game", a.game), ("table", t.id),
                       ("table sha256", t.sha256),
                       ("oddscalc", __version__), ("counting convention", a.convention),
                       ("rules as resolved", rules_text(a)),
                       ("description", " ".join((t.model.description or "").split()))):
        _append(ws, [key, value])
    for h in a.headline:
        _append(ws, ["headline", h])
    for assumption in a.assumptions:
        _append(ws, ["assumption", assumption])
    ws.column_dimensions["A"].width = 22
    ws.column_dimensions["B"].width = 120
    _append(ws, [])
    _bold_row(ws, ["sheet", "contents"], bold)
    for w in a.wagers:
        name = _sheet_name(f"wager {w.wager}", taken)
        _append(ws, [name, w.title])
        _wager_sheet(wb.create_sheet(name), w, bold)
    if a.checks:
        name = _sheet_name("published", taken)
        _append(ws, [name, "published and claimed figures against the exact ones"])
        sheet = wb.create_sheet(name)
        _append(sheet, ["Sources: " + "; ".join(a.sources)])
        _bold_row(sheet, ["block", "wager", "figure", "stated", "computed", "verdict", "reason"], bold)
        for c in a.checks:
            _append(sheet, [c.block, c.wager, c.figure, c.expected, c.computed, c.verdict, c.message])
    for s in a.sections:
        name = _sheet_name(s.id, taken)
        _append(ws, [name, s.title])
        _section_sheet(wb.create_sheet(name), s, bold)
    return _saved(wb)


def render_sections_xlsx(title: str, facts: Sequence[tuple[str, str]], sections: Sequence[Section]) -> bytes:
    """A workbook of report sections alone (``oddscalc compare``): a first sheet of facts, a sheet each."""
    openpyxl = needs("openpyxl")
    bold = openpyxl.styles.Font(bold=True)
    wb = openpyxl.Workbook()
    wb.properties.created = wb.properties.modified = _FIXED
    wb.properties.creator = f"oddscalc {__version__}"
    wb.properties.title = text(title)
    ws = wb.active
    ws.title = "Report"
    _append(ws, ["title", title])
    for key, value in facts:
        _append(ws, [key, value])
    ws.column_dimensions["A"].width = 22
    ws.column_dimensions["B"].width = 100
    taken = {"report"}
    for s in sections:
        name = _sheet_name(s.id, taken)
        _append(ws, [name, s.title])
        _section_sheet(wb.create_sheet(name), s, bold)
    return _saved(wb)


def _saved(wb: Any) -> bytes:
    buffer = io.BytesIO()
    wb.save(buffer)
    return _fixed_times(buffer.getvalue())


_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")


def _fixed_times(data: bytes) -> bytes:
    """The same archive with every entry dated the same and the document's modified date fixed (openpyxl
    stamps the time of saving), so equal workbooks are equal bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2000, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = _MODIFIED.sub(rb"\g<1>" + _FIXED.strftime("%Y-%m-%dT%H:%M:%SZ").encode() + rb"\g<2>", body)
            dst.writestr(fixed, body)
    return out.getvalue()
