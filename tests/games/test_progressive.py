"""Progressive jackpots: the return is exactly linear in the meter, the break-even meter is the
published one (recounted by hand from the five-card counts), and a bad meter is refused."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from oddscalc.analysis import Session
from oddscalc.catalog import load_table, tables_dir
from oddscalc.cli.main import EXIT_TABLE, main
from oddscalc.results import Analysis, Cell

HANDS = 2_598_960
COUNTS = {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3_744, "flush": 5_108,
          "straight": 10_200, "three_of_a_kind": 54_912, "two_pair": 123_552}
SHIPPED = tables_dir() / "caribbean" / "progressive.toml"


def _variant(tmp_path: Path, old: str, new: str, name: str = "variant.toml") -> Path:
    text = SHIPPED.read_text()
    assert old in text
    p = tmp_path / name
    changed = text.replace(old, new)
    p.write_text(changed[:changed.index("[published]")])  # the published figures are for the shipped table
    return p


def _break_even(quads: int, full_house: int, flush: int) -> Fraction:
    # Shackleford's break-even: the stake of 1 equals what comes back, the straight flush taking 10% of the meter
    fixed = COUNTS["four_of_a_kind"] * quads + COUNTS["full_house"] * full_house + COUNTS["flush"] * flush
    return (HANDS - fixed) / (COUNTS["royal_flush"] + Fraction(COUNTS["straight_flush"], 10))


def _meter_row(a: Analysis, name: str) -> dict[str, Cell]:
    return next(r for r in a.section("progressive_jackpot").records() if r["meter_at"] == name)


@pytest.fixture(scope="module")
def session(sessions: Callable[[str], Session]) -> Session:
    return sessions("caribbean")


def test_the_published_break_even_meters(session: Session, tmp_path: Path) -> None:
    a = session.analyze(load_table(SHIPPED))
    assert _meter_row(a, "break-even meter")["meter"] == _break_even(100, 75, 50) == Fraction(5_000_900, 19)
    assert [c.verdict for c in a.checks] == ["ok"]  # 263,205 as published
    table2 = _variant(tmp_path, "four_of_a_kind = 100\nfull_house = 75", "four_of_a_kind = 150\nfull_house = 100")
    b = session.analyze(load_table(table2))
    even = _meter_row(b, "break-even meter")["meter"]
    assert isinstance(even, Fraction) and even == _break_even(150, 100, 50) and round(even) == 246_784


def test_the_return_is_linear_in_the_meter_and_its_rows_follow_the_meter_shown(session: Session,
                                                                               tmp_path: Path) -> None:
    at_reset = session.analyze(load_table(SHIPPED))
    shown = session.analyze(load_table(_variant(tmp_path, "reset = 10000\n", "reset = 10000\ncurrent = 123457\n")))
    m = Fraction(123_457)
    jackpot = shown.wager("jackpot")
    # the rows settled at 123,457 (a second route: the sum of the rows, not the meter formula)
    by_hand = Fraction(COUNTS["royal_flush"] * m + COUNTS["straight_flush"] * m / 10 + 624 * 100 + 3_744 * 75
                       + 5_108 * 50, HANDS) - 1
    assert jackpot.expected_value == by_hand
    assert _meter_row(shown, "shown now")["return"] == 1 + by_hand
    reset_row = _meter_row(at_reset, "reset")
    assert reset_row["return"] == 1 + at_reset.wager("jackpot").expected_value
    assert reset_row["house_edge"] == -at_reset.wager("jackpot").expected_value
    for name, meter in (("reset", 10_000), ("2 x reset", 20_000), ("5 x reset", 50_000), ("10 x reset", 100_000),
                        ("break-even meter", _break_even(100, 75, 50))):  # every row by hand, from the counts
        back = Fraction(COUNTS["royal_flush"] * meter + COUNTS["straight_flush"] * Fraction(meter) / 10
                        + 624 * 100 + 3_744 * 75 + 5_108 * 50, HANDS)
        row = _meter_row(at_reset, name)
        assert (row["meter"], row["return"], row["house_edge"]) == (meter, back, 1 - back), name


def test_the_long_run_return_adds_the_contribution_and_the_reset(session: Session) -> None:
    a = session.analyze(load_table(SHIPPED))
    fixed = Fraction(624 * 100 + 3_744 * 75 + 5_108 * 50, HANDS)
    expected = fixed + Fraction(15, 100) + 10_000 * Fraction(4, HANDS)
    intro = " ".join(a.section("progressive_jackpot").intro)
    assert f"Return including the meter's growth: {float(expected) * 100:.4f}%" in intro


def test_a_let_it_ride_bonus_can_be_progressive(sessions: Callable[[str], Session], tmp_path: Path) -> None:
    text = (tables_dir() / "let-it-ride" / "bonus.toml").read_text()
    start = text.index("[pays.five_card_bonus]")
    end = text.index("\n[", start + 1)
    block = ('[pays.five_card_bonus]\nstake = 1\nroyal_flush = "100% meter"\nstraight_flush = 2000\n'
             'four_of_a_kind = 400\nfull_house = 200\nflush = 50\nstraight = 25\nthree_of_a_kind = 5\n\n'
             '[pays.five_card_bonus.meter]\nreset = 20000\ncontribution = "20%"\n')
    p = tmp_path / "lir-progressive.toml"
    changed = text[:start] + block + text[end:]
    p.write_text(changed[:changed.index("[published]")])
    a = sessions("let-it-ride").analyze(load_table(p))
    fixed = sum(COUNTS[k] * v for k, v in (("straight_flush", 2000), ("four_of_a_kind", 400), ("full_house", 200),
                                            ("flush", 50), ("straight", 25), ("three_of_a_kind", 5)))
    even = next(r for r in a.section("progressive_five_card_bonus").records() if r["meter_at"] == "break-even meter")
    assert even["meter"] == Fraction(HANDS - fixed, COUNTS["royal_flush"])


@pytest.mark.parametrize("old,new,message", [
    ("[pays.jackpot.meter]\nreset = 10000\ncontribution = \"15%\"\n", "",
     "royal_flush is a share of the meter: add a [meter] block"),
    ('royal_flush = "100% meter"\nstraight_flush = "10% meter"', "royal_flush = 100000\nstraight_flush = 10000",
     "a [meter] block needs a prize that is a share of the meter"),
    ('straight_flush = "10% meter"', 'straight_flush = "150% meter"', "bad meter prize '150% meter'"),
    ('contribution = "15%"', 'contribution = "120%"', "jackpot.meter.contribution: the contribution is a share"),
    ("reset = 10000", "reset = 0", "jackpot.meter.reset: the reset must be more than 0"),
])
def test_bad_meters_are_refused_with_file_line_and_key(tmp_path: Path, old: str, new: str, message: str) -> None:
    r = CliRunner().invoke(main, ["report", "caribbean", "--table", str(_variant(tmp_path, old, new))])
    assert r.exit_code == EXIT_TABLE and message in r.output and "variant.toml:" in r.output, r.output
    assert "Traceback" not in r.output
