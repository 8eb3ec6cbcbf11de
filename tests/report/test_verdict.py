"""Every report opens with one verdict, worded one way for every game: whom the table favours, naming each
wager that favours the player first (issue 42: a pay typed wrong must not hand the game to the player unseen)."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
from pypdf import PdfReader

from oddscalc.analysis import Session
from oddscalc.exact import parse_fraction
from oddscalc.report import render_json, render_markdown
from oddscalc.report.html import render_html
from oddscalc.report.pdf import render_pdf
from oddscalc.report.xlsx import render_xlsx
from oddscalc.results import Row, WagerResult, verdict

REPORTS = Path(__file__).resolve().parents[2] / "docs" / "reports"


def wager(name: str, title: str, win: int, lose: int, pay: int = 1, strategy: str = "none") -> WagerResult:
    """A wager that wins ``pay`` units on ``win`` of ``win + lose`` deals and loses one unit on the rest."""
    rows = (Row("win", "Win", f"{pay}:1", Fraction(pay), win), Row("lose", "Lose", "", Fraction(-1), lose))
    return WagerResult(name, title, strategy, win + lose, rows, "unit staked")


def test_a_wager_that_favours_the_player_is_named_first() -> None:
    v = verdict([wager("banker", "Banker", 1, 2), wager("bonus", "Bonus", 3, 1, strategy="optimal")])
    assert v.favours == "player" and v.player_wagers == ("bonus",) and v.even_wagers == ()
    # EV of the bonus: (3 - 1) / 4 = +50%; the banker's: (1 - 2) / 3, a house edge of 33.3333%
    assert v.text == ("This game favours the PLAYER: wager bonus has an expected value of +50.0000% per unit staked "
                      "under optimal play, a house edge of -50.0000% (exact EV 1/2). Every other wager favours the "
                      "house; the lowest house edge is wager banker: 33.3333% of the unit staked (exact 1/3).")


def test_every_wager_favours_the_house() -> None:
    v = verdict([wager("banker", "Banker (banca)", 1, 2), wager("tie", "Tie", 1, 9, pay=8)])
    assert v.favours == "house" and v.player_wagers == ()
    # tie: (8 - 9) / 10 = -10%, the lowest edge of the two
    assert v.text.startswith("Every wager favours the house; the lowest house edge is wager tie: 10.0000%")
    one = verdict([wager("main", "Main", 1, 2, strategy="matching-rank")])
    assert one.text == ("This game favours the house: a house edge of 33.3333% of the unit staked under the strategy "
                        "matching-rank (exact 1/3).")


def test_a_wager_that_breaks_even_is_said() -> None:
    v = verdict([wager("even", "Even", 1, 1), wager("banker", "Banker", 1, 2)])
    assert v.favours == "neither" and v.even_wagers == ("even",)
    assert v.text.startswith("No wager favours the player: wager even breaks even exactly.")


@pytest.mark.parametrize("path", sorted(REPORTS.glob("*.json")), ids=lambda p: p.stem)
def test_every_golden_report_opens_with_its_verdict(path: Path) -> None:
    data = json.loads(path.read_text())
    # whom the table favours, decided here from the exact EVs of the JSON, not by the code under test
    evs = {w["wager"]: parse_fraction(w["expected_value"]) for w in data["wagers"]}
    good = {k for k, ev in evs.items() if ev > 0}
    favours = "player" if good else "neither" if any(ev == 0 for ev in evs.values()) else "house"
    assert data["verdict"]["favours"] == favours and set(data["verdict"]["player_wagers"]) == good
    assert list(data)[list(data).index("verdict") + 1] == "headline"
    text = data["verdict"]["text"]
    assert data["headline"][0] == text
    assert text.startswith("This game favours the PLAYER: " if good else ("Every wager favours the house"
                                                                          if len(evs) > 1 else
                                                                          "This game favours the house"))
    for w in good:
        assert f"wager {w} " in text
    # the Markdown report: the title, then the verdict before anything else
    lines = path.with_suffix(".md").read_text().splitlines()
    assert lines[0].startswith("# ") and lines[1] == "" and lines[2].startswith("> ")
    assert lines[2].removeprefix("> ").replace("\\", "") == text


def test_every_format_shows_the_verdict_first(sessions: Callable[[str], Session]) -> None:
    a = sessions("punto-banco").analyze("seed")  # the sheet's rules: the player bet favours the bettor
    text = a.verdict.text
    assert a.verdict.favours == "player" and text.startswith("This game favours the PLAYER: wager player ")
    md = render_markdown(a)
    assert md.index("> This game favours the PLAYER") < md.index("- Game:")
    assert json.loads(render_json(a))["verdict"]["text"] == text
    page = render_html(a)
    assert page.index("This game favours the PLAYER") < page.index("Game: punto-banco")
    first = PdfReader(io.BytesIO(render_pdf(a))).pages[0].extract_text()
    assert first.index("This game favours the PLAYER") < first.index("Game: punto-banco")
    ws = openpyxl.load_workbook(io.BytesIO(render_xlsx(a)))["Summary"]
    assert [ws["A1"].value, ws["A2"].value, ws["B2"].value] == ["title", "verdict", text]
