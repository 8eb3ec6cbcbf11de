"""Documents for a filing: the xlsx workbook read back equals the JSON report cell for cell, and the
PDF and HTML, read back as text, show every figure of the Markdown report."""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from oddscalc.analysis import Session
from oddscalc.cli.main import main
from oddscalc.games import GAMES
from oddscalc.report import render_json, render_markdown
from oddscalc.report.html import render_html
from oddscalc.report.pdf import latin, render_pdf
from oddscalc.report.xlsx import render_xlsx
from oddscalc.results import Analysis

CASES = [("caribbean", "us"), ("let-it-ride", "standard"), ("punto-banco", "dragon-bonus"),
         ("house-baccarat", "seed"), ("caribbean", "progressive")]
# a figure as the Markdown report prints it: a decimal, a percent, or a count with thousands separators
FIGURE = re.compile(r"-?\d[\d,]*\.\d+%?|\d{1,3}(?:,\d{3})+")


@pytest.fixture(scope="module", params=CASES, ids=[f"{g}-{t}" for g, t in CASES])
def case(request: pytest.FixtureRequest, sessions: Callable[[str], Session]) -> tuple[Session, Analysis]:
    game, table = request.param
    s = sessions(game)
    return s, s.analyze(table)


def _figures(markdown: str) -> set[str]:
    return set(FIGURE.findall(markdown))


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _rows(ws: Any) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in ws.iter_rows(values_only=True)]


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def test_the_workbook_reads_back_as_the_json_report(case: tuple[Session, Analysis],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _, a = case
    data = json.loads(render_json(a))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the date a workbook carries, fixed
    raw = render_xlsx(a)
    assert render_xlsx(a) == raw  # the same analysis, the same bytes
    wb = openpyxl.load_workbook(io.BytesIO(raw))
    index = {r[0]: r[1] for r in _rows(wb["Summary"]) if r[0] in wb.sheetnames and r[1]}  # sheet: what it holds
    for w in data["wagers"]:
        rows = _rows(wb[next(name for name, what in index.items() if what.startswith(f"wager {w['wager']}: "))])
        start = next(i for i, r in enumerate(rows) if r[0] == "event") + 1
        end = next(i for i, r in enumerate(rows) if r[0] == "total")
        got = {r[0]: r for r in rows[start:end]}
        assert list(got) == [r["event"] for r in w["rows"]]
        for r in w["rows"]:
            event, _, pays, units, _, stake, combos, prob, _, ret, _ = got[r["event"]]
            assert (_text(pays), units, stake, _text(combos), prob, ret) == (
                r["pays"], r["units"], r["stake"], str(r["combinations"]), r["probability"], r["return"])
    for sid, section in data["sections"].items():
        sheet = next(name for name, what in index.items() if what == f"section {sid}: {section['title']}")
        rows = _rows(wb[sheet])
        header_at = next(i for i, r in enumerate(rows) if r and r[0] == section["columns"][0]["title"])
        header = [h for h in rows[header_at] if h is not None]
        for cells, want in zip(rows[header_at + 1:], section["rows"]):
            by_title = dict(zip(header, cells))
            for col in section["columns"]:
                value = want[col["id"]]
                exact = by_title.get(f"{col['title']} (exact)")
                shown = exact if exact is not None else by_title[col["title"]]
                assert _text(shown) == _text(value), (sid, col["id"])
    if data["published_checks"]:
        rows = _rows(wb["Published figures"])[3:]
        assert [(r[2], r[3], r[4], r[5]) for r in rows] == [
            (c["figure"], c["stated"], c["computed"], c["verdict"]) for c in data["published_checks"]]


def test_the_pdf_and_the_html_show_every_figure_of_the_markdown_report(case: tuple[Session, Analysis],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # a PDF carries the day it is made: one day for both
    session, a = case
    charts = GAMES[a.game].charts(a, session.rerun(a.table))
    figures = _figures(render_markdown(a))
    assert len(figures) > 20
    raw = render_pdf(a, charts)  # the same bytes twice: test_pdf_filing.py, and every case in the deep test below
    pdf = PdfReader(io.BytesIO(raw))
    text = _squeezed(latin(" ".join(page.extract_text() for page in pdf.pages)))
    missing = sorted(f for f in figures if f not in text)
    assert not missing, missing[:10]
    page = html.unescape(render_html(a, charts))
    assert not sorted(f for f in figures if f not in page)
    assert page.count("<svg") == len(charts) and f"<title>{html.escape(a.table.title)}" in render_html(a, charts)


@pytest.mark.deep
def test_the_pdf_of_every_case_is_the_same_bytes_twice(case: tuple[Session, Analysis],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same analysis, the same bytes, on every case with its charts. The fast suite checks it on the us table:
    test_pdf_filing.py::test_the_date_is_today_unless_source_date_epoch_is_set (the renderer, no charts) and
    ::test_the_same_bytes_from_the_command_line (the whole command, charts drawn)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    session, a = case
    charts = GAMES[a.game].charts(a, session.rerun(a.table))
    assert render_pdf(a, charts) == render_pdf(a, charts)


def test_documents_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "spain.pdf"
    r = CliRunner().invoke(main, ["report", "caribbean", "--format", "pdf", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes().startswith(b"%PDF") and "5.2637%" in PdfReader(out).pages[0].extract_text()
    r = CliRunner().invoke(main, ["report", "caribbean", "--format", "xlsx", "-o", str(tmp_path / "spain.xlsx")])
    # B4: the table id, under the title and the verdict
    assert r.exit_code == 0 and openpyxl.load_workbook(tmp_path / "spain.xlsx")["Summary"]["B4"].value == "spain"
    r = CliRunner().invoke(main, ["report", "caribbean", "--format", "xlsx", "--profile", "nevada-minimum-return",
                                  "-o", str(tmp_path / "checked.xlsx")])
    assert r.exit_code == 6
    names = openpyxl.load_workbook(tmp_path / "checked.xlsx").sheetnames
    assert any(n.startswith("Compliance - ") for n in names)  # a readable name, of 31 characters at most


def test_a_house_baccarat_filing_leads_with_the_edge_by_seats_filled(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Its rows are the reports of that many seats (the report's own count of the table), the first the
    one-seat figure; another game's filing has no such sheet."""
    from oddscalc.games.house_baccarat import game as house_baccarat

    monkeypatch.setattr(house_baccarat, "FINITE_EXACT_MAX_PLAYERS", 3)  # the table's seven, as three: seconds
    out = tmp_path / "house.xlsx"
    r = CliRunner().invoke(main, ["report", "house-baccarat", "--format", "xlsx", "-o", str(out)])
    assert r.exit_code == 0, r.output
    book = openpyxl.load_workbook(out)
    seats = next(r[0] for r in _rows(book["Summary"]) if str(r[1]).startswith("section edge_by_seats: "))
    assert book.sheetnames[:3] == ["Summary", "Your hand against the house", seats]
    rows = _rows(book[seats])
    rows = rows[next(i for i, r in enumerate(rows) if r[0] == "Seats"):]
    assert rows[0] == ("Seats", "Every seat plays", "EV per seat", "EV per seat (exact)", "House edge",
                       "House edge (exact)", "Shoe")
    edge = {row[0]: Fraction(row[3]) for row in rows[1:]}
    assert list(edge) == [1, 2, 3]
    assert edge[1] == Fraction(317_218_834_208, 2_789_284_751_955)
    for players in (2, 3):
        r = CliRunner().invoke(main, ["report", "house-baccarat", "--players", str(players), "--format", "json"])
        assert r.exit_code == 0, r.output
        assert edge[players] == Fraction(json.loads(r.output)["wagers"][0]["expected_value"])
    r = CliRunner().invoke(main, ["report", "caribbean", "--format", "xlsx", "-o", str(tmp_path / "c.xlsx")])
    summary = _rows(openpyxl.load_workbook(tmp_path / "c.xlsx")["Summary"])
    assert r.exit_code == 0 and not [r for r in summary if str(r[1]).startswith("section edge_by_seats")]
