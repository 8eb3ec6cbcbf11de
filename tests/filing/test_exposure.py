"""Exposure at the table's limits: top wins recounted by hand, the cap's edge against the rows, and
limits naming an unknown wager refused with file, line and key."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner

from oddscalc.analysis import Session
from oddscalc.catalog import load_table, tables_dir
from oddscalc.cli.main import EXIT_INPUT, EXIT_TABLE, main
from oddscalc.filing import exposure
from oddscalc.results import Cell

SPAIN = tables_dir() / "caribbean" / "spain.toml"


def _rows(s: Session, path: Path | str) -> dict[str, dict[str, Cell]]:
    a = s.analyze(load_table(Path(path)) if isinstance(path, Path) else path)
    sec = exposure.section(a)
    assert sec is not None
    return {str(r["subject"]).split(" at ")[0].split(":")[0]: r for r in sec.records()}


def test_the_rule_sheets_caribbean_at_its_limits(sessions: Callable[[str], Session]) -> None:
    s = sessions("caribbean")
    rows = _rows(s, "spain")
    main_w = s.analyze("spain").wager("main")
    # the ante of 100 wins 1:1 and the raise of 200 wins 100:1 on a royal flush; the Jackpot pays 25,000 for 0.50
    assert rows["main"]["top_net_win"] == 100 + 200 * 100
    assert rows["jackpot"]["top_net_win"] == Fraction(25_000) - Fraction(1, 2)
    royal = main_w.probability(main_w.row("win_royal_flush"))
    assert rows["one seat"]["top_net_win"] == 100 + 200 * 100 + Fraction(49_999, 2)
    assert rows["one seat"]["probability"] == royal  # a raised royal flush always has the Jackpot's royal too
    assert rows["full table"]["top_net_win"] == 7 * rows["one seat"]["top_net_win"]
    assert rows["main"]["house_edge"] == main_w.element_of_risk
    # the seat's two bets at once: its joint outcomes' mean is the sum of each wager's own (a second route)
    jack_w = s.analyze("spain").wager("jackpot")
    net = 100 * main_w.expected_value + Fraction(1, 2) * jack_w.expected_value
    staked = 100 * main_w.average_stake + Fraction(1, 2) * jack_w.average_stake
    assert rows["one seat"]["house_edge"] == -net / staked


def test_a_cap_on_one_seat(sessions: Callable[[str], Session], tmp_path: Path) -> None:
    text = SPAIN.read_text().replace('seats = 7\n', 'seats = 7\ncap = 10000\n')
    p = tmp_path / "capped.toml"
    p.write_text(text)
    s = sessions("caribbean")
    rows = _rows(s, p)
    w = s.analyze(load_table(p)).wager("main")
    by_hand = -sum((w.probability(r) * min(100 * r.units, Fraction(10_000)) for r in w.rows), Fraction(0)) \
        / (100 * w.average_stake)
    assert rows["main"]["house_edge_capped"] == by_hand > w.element_of_risk  # type: ignore[operator]


def test_limits_naming_an_unknown_wager_and_a_table_without_limits(tmp_path: Path) -> None:
    p = tmp_path / "bad.toml"
    p.write_text(SPAIN.read_text().replace('jackpot = { min = "0.50"', 'bonus = { min = "0.50"'))
    r = CliRunner().invoke(main, ["exposure", "caribbean", "--table", str(p)])
    assert r.exit_code == EXIT_TABLE and "bad.toml:" in r.output and "limits.bets.bonus: no wager 'bonus'" in r.output
    p.write_text(SPAIN.read_text().replace('main = { min = 5, max = 100 }', 'main = { min = 500, max = 100 }'))
    r = CliRunner().invoke(main, ["exposure", "caribbean", "--table", str(p)])
    assert r.exit_code == EXIT_TABLE and "limits.bets.main: a bet limit needs 0 < min <= max" in r.output
    r = CliRunner().invoke(main, ["exposure", "caribbean", "--table", "us"])
    assert r.exit_code == EXIT_INPUT and "states no [limits]" in r.output
