"""The Python API as the README shows it: the README's example runs as a doctest, records and DataFrames."""

from __future__ import annotations

import doctest
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pandas
import pytest

from oddscalc import analyze
from oddscalc.analysis import Session
from oddscalc.datafile import TableError
from oddscalc.protocol import OptionError

ROOT = Path(__file__).resolve().parent.parent


def test_readme_example_runs() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8 and result.failed == 0


def test_records_and_frames_carry_the_exact_values(sessions: Callable[[str], Session]) -> None:
    a = sessions("let-it-ride").analyze(None)
    w = a.wager("three_card_bonus")
    records = w.records()
    assert [r["event"] for r in records] == [r.event for r in w.rows]
    assert sum(r["probability"] for r in records) == 1
    frame = w.to_frame()
    assert isinstance(frame, pandas.DataFrame) and len(frame) == len(w.rows)
    assert frame.loc[frame["event"] == "pair", "combinations"].item() == 3744
    assert frame["return"].sum() == w.expected_value == Fraction(-392, 5525)
    section = a.section("return_by_hand").to_frame()
    assert list(section.columns) == ["hand", "pays", "deals", "average_bets", "return"]
    assert section["deals"].sum() == a.wager("main").total_combinations
    assert section["return"].sum() == a.wager("main").expected_value  # exact Fractions in the frame too
    assert len(a.to_frame()) == sum(len(x.rows) for x in a.wagers)


def test_api_errors_are_the_cli_errors() -> None:
    with pytest.raises(TableError, match="no 'let-it-ride' table with this id"):
        analyze("let-it-ride", table="nonesuch")
    with pytest.raises(OptionError, match="--decks does not apply to let-it-ride"):
        analyze("let-it-ride", decks=2)
    with pytest.raises(OptionError, match="unknown game 'poker'"):
        analyze("poker")


def test_a_missing_id_lists_the_ids_there_are() -> None:
    a = analyze("caribbean", table="us")
    with pytest.raises(KeyError, match=r"no wager 'jackpots'; there are: main"):
        a.wager("jackpots")
    with pytest.raises(KeyError, match=r"no section 'x'; there are: .*closest_decisions"):
        a.section("x")
