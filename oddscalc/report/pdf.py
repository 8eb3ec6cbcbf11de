"""PDF report: the document blocks laid out with fpdf2 on landscape A4, charts drawn from their SVG.

The PDF uses the standard Helvetica font, so text is written in Latin-1: the few other characters
a report can hold (dashes, quotes, mathematical signs) are spelled in ASCII first.
"""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Sequence
from typing import Any

from oddscalc import __version__
from oddscalc.report.document import Document, document
from oddscalc.report.html import needs
from oddscalc.report.svg import render_chart
from oddscalc.results import Analysis, Chart

_SPELL = {"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
          "\u2026": "...", "\u2264": "<=", "\u2265": ">=", "\u2248": "~", "\u2192": "->", "\u2260": "!="}


_FIXED = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
_TITLE = re.compile(r"<title>.*?</title>", re.DOTALL)


def latin(text: str) -> str:
    """Text the standard PDF fonts can show."""
    text = "".join(_SPELL.get(ch, ch) for ch in text)
    return text.encode("latin-1", "replace").decode("latin-1")


def _widths(rows: Sequence[Sequence[str]]) -> tuple[int, ...]:
    """Column widths in proportion to their longest cell, within limits (a long text wraps)."""
    return tuple(min(60, max(6, *(len(r[j]) for r in rows))) for j in range(len(rows[0])))


def _table(pdf: Any, b: Any, fpdf: Any) -> None:
    t = b.table
    n = len(t.header)
    pdf.set_font("Helvetica", size=6.5 if n > 8 else 7.5)
    align = tuple("RIGHT" if num else "LEFT" for num in t.numeric)
    with pdf.table(text_align=align, line_height=pdf.font_size * 1.6, first_row_as_headings=True,
                   col_widths=_widths([t.header, *t.rows]),
                   headings_style=fpdf.fonts.FontFace(emphasis="BOLD", fill_color=(235, 235, 235))) as table:
        for row in (t.header, *t.rows):
            r = table.row()
            for cell in row:
                r.cell(latin(cell))
    pdf.ln(2)


def pdf_of(doc: Document) -> bytes:
    """A document as PDF bytes."""
    fpdf = needs("fpdf")
    pdf = fpdf.FPDF(orientation="landscape", format="A4")
    pdf.set_auto_page_break(True, margin=12)
    pdf.set_title(latin(doc.title))
    pdf.set_creator(f"oddscalc {__version__}")
    pdf.set_creation_date(_FIXED)  # the same analysis, the same bytes
    pdf.add_page()
    width = pdf.epw
    for b in doc.blocks:
        if b.kind == "title":
            pdf.set_font("Helvetica", "B", 15)
            pdf.multi_cell(width, 7, latin(b.text), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif b.kind == "heading":
            if pdf.will_page_break(40):  # a heading never ends a page
                pdf.add_page()
            pdf.ln(3)
            pdf.set_font("Helvetica", "B", 11.5)
            pdf.multi_cell(width, 6, latin(b.text), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        elif b.kind in ("paragraph", "quote"):
            pdf.set_font("Helvetica", "I" if b.kind == "quote" else "", 8.5)
            pdf.multi_cell(width, 4.4, latin(b.text), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        elif b.kind == "list":
            pdf.set_font("Helvetica", size=8.5)
            for item in b.items:
                pdf.multi_cell(width, 4.4, latin(f"- {item}"), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        elif b.kind == "table" and b.table is not None:
            _table(pdf, b, fpdf)
        elif b.kind == "chart" and b.chart is not None:
            if pdf.will_page_break(110):
                pdf.add_page()
            svg = _TITLE.sub("", render_chart(b.chart))  # fpdf2 draws no <title>; the caption says it
            pdf.image(io.BytesIO(svg.encode("utf-8")), w=min(width, 200))
            pdf.set_font("Helvetica", "I", 8)
            pdf.multi_cell(width, 4.4, latin(b.text), new_x="LMARGIN", new_y="NEXT")
    data: bytes = bytes(pdf.output())
    return data


def render_pdf(a: Analysis, charts: Sequence[Chart] = ()) -> bytes:
    """The whole report as PDF."""
    return pdf_of(document(a, charts))
