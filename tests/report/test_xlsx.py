"""The xlsx report as a PAR workbook a lab can cite (issue 42): figures in number formats and as label | value cells,
frozen headers, fitted columns and readable names on every sheet, and live formulas that give the report's edge.

The formulas are checked two ways, each against the analysis's exact figures (never against the workbook's own
numbers): evaluated here exactly, with Fractions, by a small evaluator of the grammar oddscalc writes, and evaluated
by LibreOffice headless (the must: a spreadsheet's own evaluation) to float closeness. Changing a pay cell moves
the edge by exactly the sensitivity of the report's symbolic section.
"""

from __future__ import annotations

import dataclasses
import datetime
import io
import math
import os
import re
import shutil
import subprocess
import zipfile
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from oddscalc.analysis import Session
from oddscalc.exact import percent_str
from oddscalc.filing.paytools import symbolic_section, with_symbolic
from oddscalc.report.xlsx import render_xlsx
from oddscalc.report.xlsx_sheet import INPUT, LIVE, sheet_name
from oddscalc.results import Analysis, WagerResult

CASES = [("caribbean", "progressive"), ("let-it-ride", "bonus"), ("punto-banco", "dragon-bonus"),
         ("house-baccarat", "seed")]
FORBIDDEN = re.compile(r"[\[\]:*?/\\]")


@pytest.fixture(scope="module", params=CASES, ids=[f"{g}-{t}" for g, t in CASES])
def case(request: pytest.FixtureRequest, sessions: Callable[[str], Session]) -> Analysis:
    game, table = request.param
    return with_symbolic(sessions(game).analyze(table))


def _book(a: Analysis) -> Any:
    return openpyxl.load_workbook(io.BytesIO(render_xlsx(a)))


def _index(wb: Any) -> dict[str, str]:
    """What the Summary says each sheet holds ("wager main: ...", "section id: ...")."""
    return {r[0]: r[1] for r in wb["Summary"].iter_rows(values_only=True) if r[0] in wb.sheetnames and r[1]}


def _wager_sheet(wb: Any, wager: str) -> Any:
    return wb[next(name for name, what in _index(wb).items() if what.startswith(f"wager {wager}: "))]


def _row_of(ws: Any, test: Callable[[Any], bool], start: int = 1) -> int:
    return next(r for r in range(start, ws.max_row + 1) if test(ws.cell(row=r, column=1).value))


def _live(ws: Any, what: str) -> Any:
    """The cell of a live figure ("Expected value", "House edge", "Element of risk") below the return table."""
    r = _row_of(ws, lambda v: isinstance(v, str) and v.startswith(what) and v.endswith("at the pays below"))
    return ws.cell(row=r, column=2)


def _pays(ws: Any) -> dict[str, Any]:
    """The pay table: each pay's id and its value cell."""
    head = _row_of(ws, lambda v: v == "pay")
    out = {}
    for r in range(head + 1, ws.max_row + 1):
        cell = ws.cell(row=r, column=3)
        if cell.style != INPUT:
            break
        out[ws.cell(row=r, column=1).value] = cell
    return out


def _sensitivity(a: Analysis) -> dict[tuple[str, str], Fraction]:
    """The report's sensitivity of each wager's house edge to each of its pays (the symbolic section)."""
    s = symbolic_section(a)
    return {(str(row[0]), str(row[1])): Fraction(str(row[4])) for row in s.rows}


# --- an exact evaluator of oddscalc's formulas ------------------------------------------------------------------------

TOKEN = re.compile(r"(SUM|VALUE)\(|\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?|(\d+)|([-+*/()])")


def _column(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


class Evaluator:
    """Evaluates the formula cells of one sheet exactly: numbers read as the decimals they print as (a pay of 0.95
    is 19/20), counts held as text through VALUE, + - * / SUM with Excel's precedence (negation first)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    def value(self, row: int, column: int) -> Fraction:
        v = self.ws.cell(row=row, column=column).value
        if isinstance(v, str) and v.startswith("="):
            return self.formula(v)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ValueError(f"{self.ws.title}!{row},{column}: {v!r} is not a number")
        return Fraction(repr(v)) if isinstance(v, float) else Fraction(v)

    def formula(self, text: str) -> Fraction:
        outer = getattr(self, "tokens", None), getattr(self, "at", 0)  # a cell it reads may hold a formula too
        self.tokens, self.at = list(self._tokens(text[1:])), 0
        out = self._sum()
        assert self.at == len(self.tokens), text
        self.tokens, self.at = outer  # type: ignore[assignment]
        return out

    def _tokens(self, text: str) -> Iterator[tuple[str, Any]]:
        at = 0
        while at < len(text):
            m = TOKEN.match(text, at)
            assert m, text[at:]
            at = m.end()
            if m.group(1):
                yield "func", m.group(1)
            elif m.group(2):
                yield "ref", (int(m.group(3)), _column(m.group(2)), m.group(4) and (int(m.group(5)),
                                                                                     _column(m.group(4))))
            elif m.group(6):
                yield "num", Fraction(int(m.group(6)))
            else:
                yield "op", m.group(7)

    def _peek(self) -> tuple[str, Any] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _take(self) -> tuple[str, Any]:
        self.at += 1
        return self.tokens[self.at - 1]

    def _sum(self) -> Fraction:
        out = self._product()
        while self._peek() in (("op", "+"), ("op", "-")):
            op = self._take()[1]
            right = self._product()
            out = out + right if op == "+" else out - right
        return out

    def _product(self) -> Fraction:
        out = self._unary()
        while self._peek() in (("op", "*"), ("op", "/")):
            op = self._take()[1]
            right = self._unary()
            out = out * right if op == "*" else out / right
        return out

    def _unary(self) -> Fraction:
        if self._peek() == ("op", "-"):
            self._take()
            return -self._unary()
        return self._atom()

    def _atom(self) -> Fraction:
        kind, v = self._take()
        if kind == "num":
            return Fraction(v)
        if kind == "op" and v == "(":
            out = self._sum()
            assert self._take() == ("op", ")")
            return out
        if kind == "ref":
            return self.value(v[0], v[1])
        _, cell = self._take()
        assert self._take() == ("op", ")")
        (r1, c1, end) = cell
        if v == "VALUE":
            held = self.ws.cell(row=r1, column=c1).value
            return Fraction(int(held)) if isinstance(held, str) else self.value(r1, c1)
        r2, c2 = end
        return sum((self.value(r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)), Fraction(0))


# --- the live formulas, evaluated exactly ----------------------------------------------------------------------------


def _check_return_table(ws: Any, w: WagerResult) -> None:
    """A formula in each return cell (and the units of each row with a pay), none elsewhere in the table."""
    head = _row_of(ws, lambda v: v == "event")
    total = _row_of(ws, lambda v: v == "total", head)
    assert [ws.cell(row=r, column=1).value for r in range(head + 1, total)] == [r.event for r in w.rows]
    for n, r in enumerate(w.rows, start=head + 1):
        ret, units = ws.cell(row=n, column=11), ws.cell(row=n, column=5)
        assert ret.data_type == "f" and ret.style == LIVE, (ws.title, r.event, ret.value)
        assert (units.data_type == "f") == bool(r.pay_ref and r.pay_coef), (ws.title, r.event, units.value)
        assert ret.number_format == "0.0000000000" and ws.cell(row=n, column=7).number_format == "#,##0"
    assert str(ws.cell(row=total, column=11).value).startswith("=SUM(")


def test_each_return_cell_is_a_formula_that_gives_the_reports_figures(case: Analysis) -> None:
    wb = _book(case)
    for w in case.wagers:
        ws = _wager_sheet(wb, w.wager)
        _check_return_table(ws, w)
        ev = Evaluator(ws)
        assert ev.formula(_live(ws, "Expected value").value) == w.expected_value, (w.wager, ws.title)
        edge = _live(ws, "House edge")
        assert ev.formula(edge.value) == w.house_edge and edge.number_format == "0.0000%"
        if w.element_of_risk is not None:
            assert ev.formula(_live(ws, "Element of risk").value) == w.element_of_risk
        head = _row_of(ws, lambda v: v == "event")
        for n, r in enumerate(w.rows, start=head + 1):  # each row's units and return, exactly
            assert (ev.value(n, 5), ev.value(n, 11)) == (r.units, w.row_return(r)), (w.wager, r.event)


def test_changing_a_pay_cell_moves_the_edge_by_exactly_its_sensitivity(case: Analysis) -> None:
    """Every pay of every wager, one at a time: + 1 unit of pay (+ 100% of a meter share) moves the edge by the
    report's symbolic sensitivity, and another + 1 by as much again (linear, the strategy held)."""
    wb = _book(case)
    slopes = _sensitivity(case)
    seen = set()
    for w in case.wagers:
        ws = _wager_sheet(wb, w.wager)
        edge = _live(ws, "House edge").value
        before = Evaluator(ws).formula(edge)
        for pay, cell in _pays(ws).items():
            was = cell.value
            for step in (1, 2):
                cell.value = was + step
                assert Evaluator(ws).formula(edge) - before == step * slopes[(w.wager, pay)], (w.wager, pay)
            cell.value = was
            seen.add((w.wager, pay))
    assert seen == set(slopes)  # every pay the symbolic section names has its cell


def test_a_count_past_two_to_the_53_stays_text_and_the_formulas_read_it(sessions: Callable[[str], Session]) -> None:
    """Counts scaled by 2**40 (the same probabilities): every count is text, and the formulas give the same edge."""
    a = sessions("punto-banco").analyze("dragon-bonus")
    k = 2**40
    w = a.wager("banker")
    big = dataclasses.replace(w, total_combinations=w.total_combinations * k,
                              rows=tuple(dataclasses.replace(r, combinations=r.combinations * k) for r in w.rows))
    wb = _book(dataclasses.replace(a, wagers=(big,)))
    ws = _wager_sheet(wb, "banker")
    head = _row_of(ws, lambda v: v == "event")
    counts = [ws.cell(row=n, column=7).value for n in range(head + 1, head + 2 + len(w.rows))]
    assert counts == [str(r.combinations) for r in big.rows] + [str(big.total_combinations)]
    assert "VALUE(" in ws.cell(row=head + 1, column=11).value
    assert Evaluator(ws).formula(_live(ws, "House edge").value) == w.house_edge


# --- what a lab cites and reads ---------------------------------------------------------------------------------------


def _near(cell: Any, exact: Fraction | float) -> bool:
    """A decimal as a workbook holds it: 16 significant digits (openpyxl's), the exact figure beside as text."""
    return isinstance(cell, float) and math.isclose(cell, float(exact), rel_tol=1e-15)


def test_the_summary_holds_each_wagers_figures_as_formatted_label_value_cells(case: Analysis) -> None:
    wb = _book(case)
    assert wb.sheetnames[0] == "Summary"
    ws = wb["Summary"]
    facts = {r[0]: r[1] for r in ws.iter_rows(max_col=2, values_only=True) if r[0]}
    assert facts["table"] == case.table.id and facts["table sha256"] == case.table.sha256
    assert facts["verdict"] == case.verdict.text and facts["counting convention"] == case.convention
    for w in case.wagers:
        start = next(r for r in range(1, ws.max_row + 1) if ws.cell(row=r, column=1).value == f"wager {w.wager}")
        cells = {}
        for r in range(start + 1, ws.max_row + 1):
            label = ws.cell(row=r, column=1).value
            if not label or str(label).startswith("wager "):
                break
            cells[label] = ws.cell(row=r, column=2)
        edge = cells[f"House edge (of the {w.unit})"]
        assert edge.number_format == "0.0000%" and _near(edge.value, w.house_edge)
        assert percent_str(Fraction(repr(edge.value))) == percent_str(w.house_edge)
        assert cells["Hit frequency"].number_format == "0.0000%" and _near(cells["Hit frequency"].value,
                                                                             w.hit_frequency)
        assert _near(cells["Standard deviation"].value, w.standard_deviation)
        assert cells["Total combinations"].number_format == "#,##0"
        assert cells["Total combinations"].value == w.total_combinations
        if w.element_of_risk is not None:
            eor = cells["Element of risk (edge per unit staked)"]
            assert eor.number_format == "0.0000%" and _near(eor.value, w.element_of_risk)
        assert any(label.startswith("Top award odds") for label in cells)


def test_every_sheet_has_a_frozen_header_fitted_columns_and_a_readable_name(case: Analysis) -> None:
    wb = _book(case)
    index = _index(wb)
    assert set(index) == set(wb.sheetnames) - {"Summary"}
    for ws in wb.worksheets:
        assert ws.freeze_panes is not None, ws.title
        used = {c.column_letter for row in ws.iter_rows() for c in row if c.value is not None}
        assert all(ws.column_dimensions[col].width for col in used), ws.title
        assert len(ws.title) <= 31 and not FORBIDDEN.search(ws.title) and ws.title == ws.title.strip()
    for w in case.wagers:
        name = _wager_sheet(wb, w.wager).title
        assert w.title.startswith(name.rstrip("-").rstrip()) or len(w.title) > 31, (name, w.title)
    assert len({n.lower() for n in wb.sheetnames}) == len(wb.sheetnames)


def test_sheet_names_are_titles_cut_at_a_word_and_never_clash() -> None:
    taken: set[str] = {"summary"}
    assert sheet_name("Symbolic expected value and pay sensitivities", taken) == "Symbolic expected value"
    assert sheet_name("Compliance: Nevada [minimum] return?", taken) == "Compliance - Nevada -minimum"
    assert sheet_name("Summary", taken) == "Summary (2)"
    assert sheet_name("summary", taken) == "summary (3)"
    assert sheet_name("'quoted'", taken) == "quoted"
    assert sheet_name("History", taken) == "history (sheet)"
    assert sheet_name("\x07", taken) == "-"
    long = sheet_name("x" * 40, taken)
    assert long == "x" * 31 and sheet_name("x" * 40, taken) == "x" * 27 + " (2)"


def test_the_workbook_is_dated_now_unless_source_date_epoch_fixes_it(sessions: Callable[[str], Session],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    a = sessions("punto-banco").analyze("dragon-bonus")
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    now = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    made = openpyxl.load_workbook(io.BytesIO(render_xlsx(a))).properties.created
    assert abs((made - now).total_seconds()) < 600  # today's date, not 2000-01-01
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    raw = render_xlsx(a)
    assert render_xlsx(a) == raw  # a fixed date, the same bytes
    wb = openpyxl.load_workbook(io.BytesIO(raw))
    fixed = datetime.datetime(2023, 11, 14, 22, 13, 20)
    assert wb.properties.created == wb.properties.modified == fixed
    assert wb["Summary"]["B6"].value == fixed and wb["Summary"]["A6"].value == "prepared (UTC)"
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        assert {i.date_time for i in z.infolist()} == {(2023, 11, 14, 22, 13, 20)}


# --- LibreOffice's own evaluation -----------------------------------------------------------------------------------

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
# CI installs LibreOffice (.ci/run) and sets CI: there, a missing soffice fails the test instead of skipping it
needs_soffice = pytest.mark.skipif(SOFFICE is None and not os.environ.get("CI"),
                                   reason="LibreOffice (soffice) is not installed; CI installs it")


def recalculated(books: dict[str, bytes], folder: Path) -> dict[str, Any]:
    """The workbooks as LibreOffice headless computes them (one soffice for all: it starts in seconds), read back
    with the values it computed. openpyxl writes no cached values, so every value read is LibreOffice's."""
    assert SOFFICE is not None, "LibreOffice is not installed (apt-get install libreoffice-calc-nogui)"
    src, out = folder / "in", folder / "out"
    src.mkdir()
    for name, data in books.items():
        (src / f"{name}.xlsx").write_bytes(data)
    profile = (folder / "profile").as_uri()  # its own profile: no lock shared with another soffice
    subprocess.run([SOFFICE, f"-env:UserInstallation={profile}", "--headless", "--norestore", "--convert-to",
                    "xlsx", "--outdir", str(out), *sorted(str(p) for p in src.iterdir())],
                   check=True, capture_output=True, timeout=600)
    return {name: openpyxl.load_workbook(out / f"{name}.xlsx", data_only=True) for name in books}


def _with_pays_raised(raw: bytes) -> bytes:
    """The workbook with the first pay of each wager's sheet raised by one unit (one pay a sheet: the sheets are
    independent)."""
    wb = openpyxl.load_workbook(io.BytesIO(raw))
    for ws in wb.worksheets[1:]:
        if any(str(c.value).startswith("wager ") for c in ws[1]):
            pays = _pays(ws)
            if pays:
                cell = next(iter(pays.values()))
                cell.value += 1
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _libreoffice_case(analyses: list[Analysis], tmp_path: Path) -> None:
    books: dict[str, bytes] = {}
    for i, a in enumerate(analyses):
        books[f"{i}"] = render_xlsx(a)
        books[f"{i}-raised"] = _with_pays_raised(books[f"{i}"])
    got = recalculated(books, tmp_path)
    for i, a in enumerate(analyses):
        slopes = _sensitivity(a)
        mine = openpyxl.load_workbook(io.BytesIO(books[f"{i}"]))
        for w in a.wagers:
            name = _wager_sheet(mine, w.wager).title
            first_pay = next(iter(_pays(mine[name])), None)
            edge = _live(mine[name], "House edge").coordinate
            computed = got[f"{i}"][name][edge].value
            assert isinstance(computed, float), (a.table.id, w.wager, computed)
            assert math.isclose(computed, float(w.house_edge), rel_tol=1e-12, abs_tol=1e-15), (w.wager, computed)
            assert percent_str(Fraction(repr(computed))) == percent_str(w.house_edge)  # as the report prints it
            ev = _live(mine[name], "Expected value").coordinate
            assert math.isclose(got[f"{i}"][name][ev].value, float(w.expected_value), rel_tol=1e-12, abs_tol=1e-15)
            if first_pay is not None:
                moved = got[f"{i}-raised"][name][edge].value - computed
                assert math.isclose(moved, float(slopes[(w.wager, first_pay)]), rel_tol=1e-9, abs_tol=1e-13), (
                    a.table.id, w.wager, first_pay, moved)


@needs_soffice
def test_libreoffice_evaluates_the_formulas_to_the_reports_edge(sessions: Callable[[str], Session],
                                                                  tmp_path: Path) -> None:
    """Caribbean Stud's progressive table (pays as odds, amounts and shares of the meter) and the Dragon Bonus table
    (a commission): LibreOffice's edge is the report's, and a pay raised by one moves it by the sensitivity."""
    _libreoffice_case([with_symbolic(sessions("caribbean").analyze("progressive")),
                       with_symbolic(sessions("punto-banco").analyze("dragon-bonus"))], tmp_path)


@needs_soffice
@pytest.mark.deep
def test_libreoffice_evaluates_every_games_formulas(sessions: Callable[[str], Session], tmp_path: Path) -> None:
    """The other games and tables: Let It Ride's bets in play and bonus amounts, the house baccarat, the US table."""
    _libreoffice_case([with_symbolic(sessions(g).analyze(t)) for g, t in
                       (("let-it-ride", "bonus"), ("let-it-ride", "standard"), ("house-baccarat", "seed"),
                        ("caribbean", "us"), ("punto-banco", "ez-baccarat"), ("punto-banco", "standard"))], tmp_path)
