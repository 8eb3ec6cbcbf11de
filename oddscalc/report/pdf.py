"""PDF report: the document blocks laid out with fpdf2 on landscape A4, charts drawn from their SVG.

The PDF uses the standard Helvetica font, so text is written in the Windows-1252 code page those fonts carry:
the few other characters a report can hold (dashes, quotes, mathematical signs) are spelled in ASCII first, and
any character still missing is shown as "?". Text from a file is text, whatever it holds: a control character is
shown as "?" (as the HTML and the workbook show U+FFFD), a line break is a space (so a title cannot start a line
that looks like a figure of the report), markup such as ``<b>`` or ``**x**`` is printed as it is (fpdf2's markup
is never on), and a text too long for a page is cut with a note saying so. A table too wide for the page is shown
in parts, each beginning with the table's first column, so no row is squeezed past reading.
"""

from __future__ import annotations

import datetime
import io
import math
import re
from collections.abc import Sequence
from typing import Any

from oddscalc import __version__
from oddscalc.report.cells import no_controls
from oddscalc.report.document import Document, Table, document
from oddscalc.report.html import needs
from oddscalc.report.svg import render_chart
from oddscalc.results import Analysis, Chart

_SPELL = {"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
          "\u2026": "...", "\u2264": "<=", "\u2265": ">=", "\u2248": "~", "\u2192": "->", "\u2260": "!="}
ENCODING = "windows-1252"  # the standard fonts' WinAnsiEncoding: Latin-1 and the euro sign, among others
# line breaks and tabs are kept by no_controls (HTML and XML carry them); a PDF line of text is one line
_BREAKS = re.compile(r"[\t\n\r\x85\u2028\u2029]")
_C1 = re.compile(r"[\x80-\x9f]")  # Latin-1's second control block: WinAnsi would print each as another glyph

_FIXED = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
_TITLE = re.compile(r"<title>.*?</title>", re.DOTALL)

LINE = 1.6  # a table's line height, in font sizes
HEADING_LINES = 6  # the most lines a table's heading cell or a document heading takes
WIDEST = 0.2  # the widest a column is laid out before its text wraps, as a share of the page's width


def latin(text: str) -> str:
    """Text the standard PDF fonts can show, on one line: a control character as "?"."""
    text = _C1.sub("\ufffd", no_controls(_BREAKS.sub(" ", text)))
    text = "".join(_SPELL.get(ch, ch) for ch in text)
    return text.encode(ENCODING, "replace").decode(ENCODING)


def cut_note(total: int, shown: int) -> str:
    """What a text cut to fit the page says at its end."""
    return f" [cut: {total:,} characters, the first {shown:,} shown]"


def _lines(pdf: Any, width: float, text: str) -> int:
    return len(pdf.multi_cell(width, text=text, dry_run=True, output="LINES"))


def fitted(pdf: Any, width: float, text: str, most: int) -> str:
    """The text if it takes at most ``most`` lines of ``width`` in the current font, else its beginning and a note
    of the cut (never cut silently)."""
    if pdf.get_string_width(text) <= width - 2 * pdf.c_margin:
        return text  # one line: most cells, settled without breaking lines
    # no line holds more characters than the width over the narrowest glyph (and the space it breaks at)
    bound = most * (math.ceil(width / pdf.get_string_width("'")) + 1) + 1
    lines = pdf.multi_cell(width, text=text[:bound], dry_run=True, output="LINES")
    if len(text) <= bound and len(lines) <= most:
        return text
    keep = len(" ".join(lines[:most]))
    while True:
        keep = keep * 9 // 10
        shown = text[:keep]
        shown = (shown.rsplit(" ", 1)[0] if " " in shown[-20:] else shown).rstrip()  # at a word's end if near
        out = shown + cut_note(len(text), len(shown))
        if not shown or _lines(pdf, width, out) <= most:
            return out


def _natural(pdf: Any, column: Sequence[str]) -> float:
    """A column's width for its longest cell on one line (its heading in bold), cell margins included."""
    pdf.set_font(style="B")
    widths: list[float] = [pdf.get_string_width(column[0])]
    pdf.set_font(style="")
    widths += [pdf.get_string_width(text) for text in column[1:]]
    return max(widths) + 2 * float(pdf.c_margin) + 0.5


def column_parts(widths: Sequence[float], page: float) -> list[list[int]]:
    """The columns of a table as parts that fit the page's width, in as few parts as will do, of nearly equal
    numbers of columns; every part begins with the first column (the row's name)."""
    rest = list(range(1, len(widths)))
    for parts in range(1, max(1, len(rest)) + 1):
        size, extra = divmod(len(rest), parts)
        chunks, at = [], 0
        for k in range(parts):
            n = size + (k < extra)
            chunks.append([0, *rest[at:at + n]])
            at += n
        if all(sum(widths[j] for j in c) <= page for c in chunks):
            return chunks
    return [[0, j] for j in rest]  # each column beside the names: the widest is bounded, so this fits


def _table(pdf: Any, t: Table, fpdf: Any) -> None:
    n = len(t.header)
    size = 6.5 if n > 8 else 7.5
    pdf.set_font("Helvetica", size=size)
    page = pdf.epw
    rows = [tuple(latin(c) for c in row) for row in (t.header, *t.rows)]
    natural = [min(page * WIDEST, _natural(pdf, [r[j] for r in rows])) for j in range(n)]
    parts = column_parts(natural, page)
    line = pdf.font_size * LINE
    # a row and the heading row repeated above it fit on one page, with room to spare
    body = int((pdf.page_break_trigger - pdf.t_margin) / line) - HEADING_LINES - 2
    if len(parts) > 1:
        pdf.set_font(style="I", size=8)
        pdf.multi_cell(page, 4.4, f"This table's {n} columns are shown in {len(parts)} parts, each beginning with "
                       f"its first column ({rows[0][0] or 'unnamed'}).", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(style="", size=size)
    for part in parts:
        if pdf.will_page_break(4 * line):  # a part never begins at a page's foot, its heading row alone there
            pdf.add_page()
        scale = page / sum(natural[j] for j in part)
        widths = [natural[j] * scale for j in part]
        with pdf.table(text_align=tuple("RIGHT" if t.numeric[j] else "LEFT" for j in part), line_height=line,
                       first_row_as_headings=True, col_widths=widths,
                       headings_style=fpdf.fonts.FontFace(emphasis="BOLD", fill_color=(235, 235, 235))) as table:
            for i, row in enumerate(rows):
                r = table.row()
                pdf.set_font(style="B" if i == 0 else "")
                cells = [fitted(pdf, w, row[j], HEADING_LINES if i == 0 else body) for j, w in zip(part, widths)]
                pdf.set_font(style="")
                for cell in cells:
                    r.cell(cell)
        pdf.ln(2)


def _text(pdf: Any, style: str, size: float, height: float, text: str, most: int | None = None) -> None:
    """A block of text across the page; a title or heading (``most`` lines at most) aligned left, not justified."""
    pdf.set_font("Helvetica", style, size)
    shown = latin(text)
    if most is None:
        pdf.multi_cell(pdf.epw, height, shown, new_x="LMARGIN", new_y="NEXT")
    else:
        pdf.multi_cell(pdf.epw, height, fitted(pdf, pdf.epw, shown, most), align="L", new_x="LMARGIN", new_y="NEXT")


def pdf_of(doc: Document) -> bytes:
    """A document as PDF bytes."""
    fpdf = needs("fpdf")
    pdf = fpdf.FPDF(orientation="landscape", format="A4")
    pdf.core_fonts_encoding = ENCODING
    pdf.set_auto_page_break(True, margin=12)
    pdf.set_title(latin(doc.title))
    pdf.set_creator(f"oddscalc {__version__}")
    pdf.set_creation_date(_FIXED)  # the same analysis, the same bytes
    pdf.add_page()
    width = pdf.epw
    for b in doc.blocks:
        if b.kind == "title":
            _text(pdf, "B", 15, 7, b.text, HEADING_LINES)
            pdf.ln(2)
        elif b.kind == "heading":
            if pdf.will_page_break(40):  # a heading never ends a page
                pdf.add_page()
            pdf.ln(3)
            _text(pdf, "B", 11.5, 6, b.text, HEADING_LINES)
            pdf.ln(1)
        elif b.kind in ("paragraph", "quote"):
            _text(pdf, "I" if b.kind == "quote" else "", 8.5, 4.4, b.text)
            pdf.ln(1)
        elif b.kind == "list":
            for item in b.items:
                _text(pdf, "", 8.5, 4.4, f"- {item}")
            pdf.ln(1)
        elif b.kind == "table" and b.table is not None:
            _table(pdf, b.table, fpdf)
        elif b.kind == "chart" and b.chart is not None:
            if pdf.will_page_break(110):
                pdf.add_page()
            svg = _TITLE.sub("", render_chart(b.chart))  # fpdf2 draws no <title>; the caption says it
            pdf.image(io.BytesIO(svg.encode("utf-8")), w=min(width, 200))
            _text(pdf, "I", 8, 4.4, b.text)
    data: bytes = bytes(pdf.output())
    return data


def render_pdf(a: Analysis, charts: Sequence[Chart] = ()) -> bytes:
    """The whole report as PDF."""
    return pdf_of(document(a, charts))
