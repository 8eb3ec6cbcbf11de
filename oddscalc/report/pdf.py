"""PDF report: the document blocks laid out with fpdf2 on landscape A4, charts drawn from their SVG.

The first page is the document's summary (title, verdict, the table's identity, the date and who prepared it, and
every wager's figures on one line); the report follows from the second page. Every page ends with a running
footer naming the table and the sha256 of its file, and "Page N of M". The PDF embeds DejaVu Sans, regular and
bold (shipped in ``oddscalc/report/fonts/`` with their licence; fpdf2 embeds the subset of glyphs used), so text
is printed as it is written, bold where the document has bold, lists with bullets. Its creation date is
:func:`oddscalc.report.dates.made_at`: now, or ``SOURCE_DATE_EPOCH`` for a reproducible build (the same bytes).

Text from a file (or typed by a user, as ``--prepared-by``) is text, whatever it holds: a control character is
shown as "?" (as the HTML and the workbook show U+FFFD; a character the fonts lack is a "?" too), a line break is
a space (so a title cannot start a line that looks like a figure of the report), markup such as ``<b>`` or
``**x**`` is printed as it is (fpdf2's markup is never on, and no alias such as ``{nb}`` is replaced), and a text
too long for a page is cut with a note saying so. A table too wide for the page is shown in parts, each beginning
with the table's first column, so no row is squeezed past reading.
"""

from __future__ import annotations

import functools
import io
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from oddscalc import __version__
from oddscalc.report.cells import no_controls
from oddscalc.report.dates import made_at
from oddscalc.report.document import Block, Document, Line, Prepared, Table, document
from oddscalc.report.html import needs
from oddscalc.report.svg import render_chart
from oddscalc.results import Analysis, Chart

FONTS = Path(__file__).resolve().parent / "fonts"
FAMILY = "DejaVu Sans"  # the name the charts' SVG asks for: their text is set in the embedded fonts too
FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}  # style: file; no italic is used

_SPELL = {"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
          "\u2026": "...", "\u2264": "<=", "\u2265": ">=", "\u2248": "~", "\u2192": "->", "\u2260": "!="}
ENCODING = "windows-1252"  # the standard fonts' WinAnsiEncoding: Latin-1 and the euro sign, among others
# line breaks and tabs are kept by no_controls (HTML and XML carry them); a PDF line of text is one line
_BREAKS = re.compile(r"[\t\n\r\x85\u2028\u2029]")
_C1 = re.compile(r"[\x80-\x9f]")  # Latin-1's second control block: a font would print each as some glyph
MISSING = "?"  # what a control character, or a character the fonts lack, is shown as

_TITLE = re.compile(r"<title>.*?</title>", re.DOTALL)

LINE = 1.6  # a table's line height, in font sizes
HEADING_LINES = 6  # the most lines a table's heading cell or a document heading takes
WIDEST = 0.2  # the widest a column is laid out before its text wraps, as a share of the page's width
FOOT = 16  # the space kept at a page's foot (mm): the running footer is printed there
GREY = (90, 90, 90)
SHADE = (246, 238, 238)  # the verdict's background, as the HTML's


@functools.cache
def glyphs() -> frozenset[int]:
    """The characters both fonts can show."""
    ttlib = needs("fontTools.ttLib")  # fpdf2's own font reader
    maps = [set(ttlib.TTFont(FONTS / name, lazy=True).getBestCmap()) for name in FONT_FILES.values()]
    return frozenset(set.intersection(*maps))


def shown(text: str) -> str:
    """Text as the PDF prints it, on one line: a control character, or a character the fonts lack, as "?"."""
    text = _C1.sub(MISSING, no_controls(_BREAKS.sub(" ", text), MISSING))
    have = glyphs()
    return text if all(ord(ch) in have for ch in text) else "".join(
        ch if ord(ch) in have else MISSING for ch in text)


def latin(text: str) -> str:
    """Text in the Windows-1252 spelling the standard PDF fonts carry, on one line: a control character as "?"
    (how a PDF's text, read back, is compared with a report that spells it otherwise)."""
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


def _table(pdf: Any, t: Table, fpdf: Any, size: float | None = None, most: int | None = None) -> None:
    """A table; a cell of more than ``most`` lines (by default: what a page holds) is cut with a note."""
    n = len(t.header)
    size = size or (6.5 if n > 8 else 7.5)
    pdf.set_font(FAMILY, size=size)
    page = pdf.epw
    rows = [tuple(shown(c) for c in row) for row in (t.header, *t.rows)]
    natural = [_natural(pdf, [r[j] for r in rows]) for j in range(n)]
    if sum(natural) > page:  # wrap the widest columns only when the table cannot be laid out on one line a row
        natural = [min(page * WIDEST, x) for x in natural]
    parts = column_parts(natural, page)
    line = pdf.font_size * LINE
    # a row and the heading row repeated above it fit on one page, with room to spare
    body = most or int((pdf.page_break_trigger - pdf.t_margin) / line) - HEADING_LINES - 2
    if len(parts) > 1:
        _note(pdf, f"This table's {n} columns are shown in {len(parts)} parts, each beginning with its first column "
                   f"({rows[0][0] or 'unnamed'}).")
        pdf.set_font(FAMILY, size=size)
    for part in parts:
        if pdf.will_page_break(4 * line):  # a part never begins at a page's foot, its heading row alone there
            pdf.add_page()
        scale = page / sum(natural[j] for j in part)
        widths = [natural[j] * scale for j in part]
        with pdf.table(text_align=tuple("RIGHT" if t.numeric[j] else "LEFT" for j in part), line_height=line,
                       first_row_as_headings=True, col_widths=widths,
                       headings_style=fpdf.fonts.FontFace(emphasis="BOLD", fill_color=(235, 235, 235))) as table:
            for i, row in enumerate(rows):
                bold = i == 0 or (t.total and i == len(rows) - 1)
                r = table.row(style=fpdf.fonts.FontFace(emphasis="BOLD") if bold and i else None)
                pdf.set_font(style="B" if bold else "")
                cells = [fitted(pdf, w, row[j], HEADING_LINES if i == 0 else body) for j, w in zip(part, widths)]
                pdf.set_font(style="")
                for cell in cells:
                    r.cell(cell)
        pdf.ln(2)


def _text(pdf: Any, style: str, size: float, height: float, text: str, most: int | None = None,
          fill: bool = False) -> None:
    """A block of text across the page; a title or heading (``most`` lines at most) aligned left, not justified."""
    pdf.set_font(FAMILY, style, size)
    text = shown(text)
    if most is not None:
        text = fitted(pdf, pdf.epw, text, most)
    pdf.multi_cell(pdf.epw, height, text, align="L", new_x="LMARGIN", new_y="NEXT", fill=fill)


def _note(pdf: Any, text: str) -> None:
    """A note beside the figures (a table shown in parts, a chart's caption): small and grey."""
    pdf.set_text_color(*GREY)
    _text(pdf, "", 8, 4.4, text)
    pdf.set_text_color(0)


def _item(pdf: Any, line: Line, size: float = 8.5, height: float = 4.4) -> None:
    """A list item: a bullet, then its runs (bold where the document has bold), wrapped under its first word."""
    left, indent = pdf.l_margin, 4
    pdf.set_font(FAMILY, "", size)
    pdf.set_x(left)
    pdf.cell(indent, height, "\u2022")
    pdf.set_left_margin(left + indent)
    try:
        for span in line:
            pdf.set_font(style="B" if span.strong else "")
            pdf.write(height, shown(span.text))
    finally:
        pdf.set_left_margin(left)
    pdf.set_font(style="")
    pdf.ln(height)


SUMMARY_LINES = 4  # the most lines a cell of the summary takes (a wager's title from a file may be any length)
CHART = 110  # the height a chart takes on the page, with its caption (mm)


def _heading(pdf: Any, text: str, room: float = 40) -> None:
    """A heading, on a new page unless ``room`` is left under it (a heading never ends a page)."""
    if pdf.will_page_break(room):
        pdf.add_page()
    pdf.ln(3)
    _text(pdf, "B", 11.5, 6, text, HEADING_LINES)
    pdf.ln(1)


def _block(pdf: Any, b: Block, fpdf: Any, after: Block | None = None) -> None:
    """One block (``after``: the block that follows it, which a heading keeps on its page)."""
    if b.kind == "title":
        _text(pdf, "B", 15, 7, b.text, HEADING_LINES)
        pdf.ln(2)
    elif b.kind == "heading":
        _heading(pdf, b.text, CHART + 12 if after is not None and after.kind == "chart" else 40)
    elif b.kind == "quote":  # the verdict and the game's headline: shaded, as the HTML's
        pdf.set_fill_color(*SHADE)
        _text(pdf, "B" if b.strong else "", 9 if b.strong else 8.5, 4.8, b.text, fill=True)
        pdf.set_fill_color(0)  # the default again: a chart's text is painted in it
        pdf.ln(1.5)
    elif b.kind == "paragraph":
        _text(pdf, "", 8.5, 4.4, b.text)
        pdf.ln(1)
    elif b.kind == "list":
        for item in b.items:
            _item(pdf, item)
        pdf.ln(1)
    elif b.kind == "table" and b.table is not None:
        _table(pdf, b.table, fpdf)
    elif b.kind == "summary" and b.table is not None:  # the first page's end: the report begins on the next
        _heading(pdf, b.text)
        # the page's one table, larger than the report's; a row of a few lines, so that it stays one page
        _table(pdf, b.table, fpdf, 9, SUMMARY_LINES)
        for item in b.items:
            _note(pdf, "".join(s.text for s in item))
        pdf.add_page()
    elif b.kind == "chart" and b.chart is not None:
        if pdf.will_page_break(CHART):
            pdf.add_page()
        svg = _TITLE.sub("", render_chart(b.chart))  # fpdf2 draws no <title>; the caption says it
        pdf.set_fill_color(0)  # fpdf2 paints a chart's text in the page's fill colour: black, as SVG's default
        pdf.image(io.BytesIO(svg.encode("utf-8")), w=min(pdf.epw, 200))
        _note(pdf, b.text)


def _footer(pdf: Any, doc: Document) -> tuple[str, str]:
    """What every page's foot names, left and right: the document and its table (either cut to fit, never the
    rest), and the sha256 of the table's file."""
    right = f"sha256 {doc.sha256}" if doc.sha256 else ""
    room = pdf.epw - pdf.get_string_width(f"{right}   Page 999 of 999") - 8
    table = shown(f" (table {doc.table_id})") if doc.table_id else ""
    if pdf.get_string_width(table) > room / 2:  # an id is a file's name: it may be long too
        table = " " + fitted(pdf, room / 2, table.lstrip(), 1)
    title = fitted(pdf, room - pdf.get_string_width(table), shown(doc.title), 1)
    return title + table, right


def _footers(pdf: Any, doc: Document) -> None:
    """The running footer and "Page N of M" on every page, written once the number of pages is known (fpdf2's
    ``{nb}`` alias would also replace that text wherever a file's text holds it)."""
    total = pdf.pages_count
    pdf.set_auto_page_break(False)
    pdf.set_font(FAMILY, "", 7)
    left, right = _footer(pdf, doc)
    for n in range(1, total + 1):
        pdf.page = n
        pdf.current_font_is_set_on_page = False  # each page's content names its own font
        pdf.set_font(FAMILY, "", 7)
        pdf.set_text_color(*GREY)
        pdf.set_draw_color(*GREY)
        y = pdf.h - FOOT + 5
        pdf.line(pdf.l_margin, y, pdf.w - pdf.r_margin, y)
        pdf.set_xy(pdf.l_margin, y + 1)
        pdf.cell(pdf.epw, 4, left)
        pdf.set_xy(pdf.l_margin, y + 1)
        pdf.cell(pdf.epw, 4, f"{right}   Page {n} of {total}".lstrip(), align="R")
    pdf.set_text_color(0)


def pdf_of(doc: Document) -> bytes:
    """A document as PDF bytes."""
    fpdf = needs("fpdf")
    pdf = fpdf.FPDF(orientation="landscape", format="A4")
    pdf.alias_nb_pages(None)  # "{nb}" in a file's text is text; the footers count the pages themselves
    for style, name in FONT_FILES.items():
        pdf.add_font(FAMILY, style, FONTS / name)
    pdf.set_auto_page_break(True, margin=FOOT)
    made = doc.prepared.made if doc.prepared is not None else made_at()
    pdf.set_title(shown(doc.title))
    if doc.prepared is not None and doc.prepared.by:
        pdf.set_author(shown(doc.prepared.by))
    if doc.table_id:
        pdf.set_subject(shown(f"Table {doc.table_id}, sha256 {doc.sha256}"))
    pdf.set_creator(f"oddscalc {__version__}")
    pdf.set_lang("en")
    pdf.set_creation_date(made)  # now, or SOURCE_DATE_EPOCH: then the same document gives the same bytes
    pdf.add_page()
    for b, after in zip(doc.blocks, [*doc.blocks[1:], None]):
        _block(pdf, b, fpdf, after)
    _footers(pdf, doc)
    data: bytes = bytes(pdf.output())
    return data


def render_pdf(a: Analysis, charts: Sequence[Chart] = (), prepared: Prepared | None = None) -> bytes:
    """The whole report as PDF (``prepared``: when, by and for whom; by default made now)."""
    return pdf_of(document(a, charts, prepared))
