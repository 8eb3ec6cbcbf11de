"""Excel workbook report (openpyxl), a PAR workbook a lab can cite: a Summary sheet first (the table, its sha256,
the counting convention, the verdict, and each wager's figures as label | value cells with number formats), one
sheet per wager (its return table with live formulas from its pays: ``report.xlsx_wager``), per section, and the
published checks, each under a readable name. Every exact figure is written as text ("p/q") beside its decimal,
and a count too large for a spreadsheet number (2**53 or more) is written as text, so nothing is rounded on the
way. A text from a file is always a text, never a formula (``report.xlsx_sheet``).

The workbook is dated when it is made (``report.dates``): its bytes are the same from run to run when
``SOURCE_DATE_EPOCH`` fixes that date.
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
from oddscalc.report.dates import made_at
from oddscalc.report.document import Prepared, rules_text
from oddscalc.report.html import needs
from oddscalc.report.xlsx_sheet import (
    COUNT,
    DATE,
    GENERAL,
    ODDS,
    Exact,
    Fmt,
    Sheet,
    Value,
    sheet_name,
    styles,
    text,
)
from oddscalc.report.xlsx_wager import figures, wager_sheet
from oddscalc.results import Analysis, Cell, Column, Section

SUMMARY = "Summary"


def _kind_format(column: Column) -> str:
    """The number format of a section column's decimals, by the column's kind."""
    decimal = "0." + "0" * column.places if column.places else "0"
    return {"int": COUNT, "decimal": decimal, "percent": f"{decimal}%",
            "signed_percent": f"+{decimal}%;-{decimal}%;{decimal}%", "share": "0%", "odds": ODDS,
            }.get(column.kind, GENERAL)


def _cells(value: Cell, column: Column) -> list[Value]:
    """A section cell: its decimal (or int, text) with the column's format, and its exact text."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return [value, None]
    if isinstance(value, int):
        return [value if column.kind in ("int", "text", "fraction") else Fmt(value, _kind_format(column)), None]
    return [Fmt(value, _kind_format(column)), Exact(frac_str(value))]


def _section_sheet(sheet: Sheet, s: Section) -> None:
    exact = [any(isinstance(r[j], Fraction) for r in s.rows) for j in range(len(s.columns))]
    header: list[Value] = []
    for c, has in zip(s.columns, exact):  # an exact column is its text, its decimal beside
        header += ([f"{c.title} (decimal)", c.title] if c.kind == "fraction" else [c.title, f"{c.title} (exact)"]
                   ) if has else [c.title]
    sheet.title(s.title, f"section {s.id}", len(header))
    for line in s.intro:
        sheet.line(line)
    head = sheet.row(header, header=True)
    for row in s.rows:
        out: list[Value] = []
        for v, c, has in zip(row, s.columns, exact):
            out += _cells(v, c) if has else _cells(v, c)[:1]
        sheet.row(out)
    for line in s.notes:
        sheet.line(line)
    sheet.finish(freeze=head + 1)


def _checks_sheet(sheet: Sheet, a: Analysis) -> None:
    sheet.title("Published figures: published and claimed figures against the exact ones", "published", 7)
    sheet.line("Sources: " + "; ".join(a.sources))
    head = sheet.row(["block", "wager", "figure", "stated", "computed", "verdict", "reason"], header=True)
    for c in a.checks:
        sheet.row([c.block, c.wager, c.figure, c.expected, c.computed, c.verdict, c.message], unsized=(7,))
    sheet.finish(freeze=head + 1)


def _workbook(title: str, when: datetime.datetime | None = None) -> tuple[Any, Any, datetime.datetime]:
    openpyxl = needs("openpyxl")
    wb = openpyxl.Workbook()
    bold = styles(wb)
    # a spreadsheet's dates have no zone: this one is UTC
    made = (made_at() if when is None else when.astimezone(datetime.UTC)).replace(tzinfo=None)
    wb.properties.created = wb.properties.modified = made
    wb.properties.creator = f"oddscalc {__version__}"
    wb.properties.title = text(title)
    wb.active.title = SUMMARY
    return wb, bold, made


def render_xlsx(a: Analysis, prepared: Prepared | None = None) -> bytes:
    """The whole report as an xlsx workbook, dated when ``prepared`` says (else now), naming who prepared it for
    whom when said."""
    t = a.table
    wb, bold, made = _workbook(t.title, None if prepared is None else prepared.made)
    summary = Sheet(wb.active, bold, max_width=60, min_widths={3: 58})  # room for the long texts beside a label
    summary.row(["title", t.title], bold=True, unsized=(2,))
    verdict = summary.pair("verdict", a.verdict.text)
    summary.ws.cell(row=verdict, column=2).font = bold  # the line a reader must not miss
    for key, value in (("game", a.game), ("table", t.id), ("table sha256", t.sha256)):
        summary.row([key, value], unsized=(2,))
    summary.row(["prepared (UTC)", Fmt(made, DATE)])
    for label, said in (("prepared by", prepared.by if prepared else ""), ("prepared for", prepared.for_whom
                                                                          if prepared else "")):
        if said:
            summary.row([label, said], unsized=(2,))
    summary.row(["oddscalc", __version__])
    summary.pair("counting convention", a.convention)
    summary.pair("rules as resolved", rules_text(a))
    if t.model.description:
        summary.pair("description", " ".join(t.model.description.split()))
    for h in a.headline:
        summary.pair("headline", h)
    for assumption in a.assumptions:
        summary.pair("assumption", assumption)
    summary.blank()
    summary.line("Figures by wager, as solved for this table's pays (label | value | exact); each wager's sheet "
                 "holds its return table, with live formulas from its pays", bold=True)
    for w in a.wagers:
        summary.row([f"wager {w.wager}", w.title], bold=True, unsized=(2,))
        for label, figure, exact in figures(w):
            summary.row([label, figure, Exact(exact)], unsized=(2, 3) if isinstance(figure, str) or len(exact) > 40
                        else ())
    summary.blank()
    summary.row(["sheet", "contents"], header=True)
    taken = {SUMMARY.lower()}
    for w in a.wagers:
        name = sheet_name(w.title, taken)
        summary.row([name, f"wager {w.wager}: {w.title}"], unsized=(2,))
        wager_sheet(Sheet(wb.create_sheet(name), bold), w, t.model)
    if a.checks:
        name = sheet_name("Published figures", taken)
        summary.row([name, "published and claimed figures against the exact ones"], unsized=(2,))
        _checks_sheet(Sheet(wb.create_sheet(name), bold), a)
    for s in a.sections:
        name = sheet_name(s.title, taken)
        summary.row([name, f"section {s.id}: {s.title}"], unsized=(2,))
        _section_sheet(Sheet(wb.create_sheet(name), bold), s)
    summary.finish(freeze=2, landscape=False)
    return _saved(wb, made)


def render_sections_xlsx(title: str, facts: Sequence[tuple[str, str]], sections: Sequence[Section]) -> bytes:
    """A workbook of report sections alone (``oddscalc compare``): a first sheet of facts, a sheet each."""
    wb, bold, made = _workbook(title)
    summary = Sheet(wb.active, bold, max_width=60, min_widths={3: 58})  # room for the long texts beside a label
    summary.row(["title", title], bold=True, unsized=(2,))
    summary.row(["prepared (UTC)", Fmt(made, DATE)])
    if not any(__version__ in value for _, value in facts):
        summary.row(["oddscalc", __version__])
    for key, value in facts:
        if key == value:  # a sentence, not a label and its value
            summary.line(value)
        else:
            summary.pair(key, value)
    summary.blank()
    summary.row(["sheet", "contents"], header=True)
    taken = {SUMMARY.lower()}
    for s in sections:
        name = sheet_name(s.title, taken)
        summary.row([name, f"section {s.id}: {s.title}"], unsized=(2,))
        _section_sheet(Sheet(wb.create_sheet(name), bold), s)
    summary.finish(freeze=2, landscape=False)
    return _saved(wb, made)


def _saved(wb: Any, made: datetime.datetime) -> bytes:
    buffer = io.BytesIO()
    wb.save(buffer)
    return _dated(buffer.getvalue(), made)


_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")
_ZIP_EPOCH = datetime.datetime(1980, 1, 1)  # the earliest time a zip entry can carry


def _dated(data: bytes, made: datetime.datetime) -> bytes:
    """The same archive with every entry and the document's modified date set to when it was made (openpyxl
    stamps the time of saving), so that one date (``SOURCE_DATE_EPOCH``) gives the same bytes."""
    stamp = max(made, _ZIP_EPOCH).timetuple()[:6]
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=stamp)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = _MODIFIED.sub(rb"\g<1>" + made.strftime("%Y-%m-%dT%H:%M:%SZ").encode() + rb"\g<2>", body)
            dst.writestr(fixed, body)
    return out.getvalue()


__all__ = ["SUMMARY", "render_sections_xlsx", "render_xlsx", "text"]
