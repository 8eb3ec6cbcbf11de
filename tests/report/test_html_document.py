"""The HTML filing (issue 42): the summary first, a page of its own when printed, bold as <strong> where the
document has bold, the date and who prepared it for whom escaped like every other text."""

from __future__ import annotations

import datetime
import html
import re
from collections.abc import Callable

import pytest

from oddscalc.analysis import Session
from oddscalc.report.document import Prepared, Span, strong_lines
from oddscalc.report.html import render_html
from oddscalc.results import Analysis

MADE = datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)


@pytest.fixture(scope="module")
def us(sessions: Callable[[str], Session]) -> Analysis:
    return sessions("caribbean").analyze("us")


def test_the_summary_comes_first_and_ends_the_printed_page(us: Analysis) -> None:
    page = render_html(us, prepared=Prepared(MADE, "A. Lab", "A Casino"))
    summary = re.search(r'<section class="summary">(.*?)</section>', page, re.DOTALL)
    assert summary is not None and "section.summary { page-break-after: always; }" in page
    assert page.index("<strong>Date: </strong>2024-01-02 03:04 UTC") < summary.start()
    assert page.index("<strong>Prepared by: </strong>A. Lab") < page.index("<strong>Prepared for: </strong>A Casino")
    cells = [html.unescape(c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", summary[1])]
    assert cells == ["Wager", "Unit", "House edge", "Element of risk", "SD", "Hit frequency", "Top award",
                     "Top award odds", "Caribbean Stud (ante and raise) (main)", "ante", "5.2243%", "2.5553%",
                     "2.2430", "38.5452%", "Player wins with royal flush (100:1)", "1 in 1,189,352"]
    assert summary.start() < page.index("Counting convention")
    assert f"Table us, sha256 {us.table.sha256}. Prepared 2024-01-02 03:04 UTC." in page


def test_bold_survives_as_strong(us: Analysis) -> None:
    page = render_html(us, prepared=Prepared(MADE))
    assert f"<blockquote><strong>{html.escape(us.verdict.text)}</strong></blockquote>" in page
    assert "<li>House edge: <strong>5.2243%</strong> of the ante</li>" in page  # as the Markdown's **5.2243%**
    assert "<li>Expected value per ante: <strong>-0.05224306</strong> (exact" in page
    assert "<td><strong>Total</strong></td>" in page  # the return table's total row, as the Markdown's


def test_what_a_user_types_is_escaped(us: Analysis) -> None:
    page = render_html(us, prepared=Prepared(MADE, "<script>alert(1)</script>\x07", "**x** </strong>"))
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;\ufffd" in page
    assert "**x** &lt;/strong&gt;" in page


def test_bold_is_never_read_from_a_text() -> None:
    """The bold runs are marked with characters that occur in no text of the lines, so a text holding the marks
    the document would otherwise use cannot open bold; a text holding every possible mark leaves the lines plain."""
    def facts(strong: Callable[[str], str], note: str) -> list[str]:
        return [f"House edge: {strong('5%')}", note]

    note = "\ue000 not bold \ue001"
    lines = strong_lines(lambda strong: facts(strong, note))
    assert lines == ((Span("House edge: "), Span("5%", True)), (Span(note),))
    every = "".join(chr(c) for c in range(0xE000, 0xF900))
    assert strong_lines(lambda strong: facts(strong, every)) == ((Span("House edge: 5%"),), (Span(every),))


def test_a_bidirectional_override_cannot_reorder_a_figure(us: Analysis) -> None:
    """U+202E would show "\u202e%5.0 edge" as a different figure in a browser: every embedding, override and isolate
    a user types is shown as U+FFFD, in the HTML and the Markdown alike."""
    from oddscalc.report.markdown import render_markdown

    typed = "\u202a\u202b\u202c\u202d\u202e%5.0\u2066\u2067\u2068\u2069"
    page = render_html(us, prepared=Prepared(MADE, typed))
    text = render_markdown(us, Prepared(MADE, typed))
    for shown in (page, text):
        assert not re.search("[\u202a-\u202e\u2066-\u2069]", shown)
        assert "\ufffd" * 5 + "%5.0" + "\ufffd" * 4 in shown
