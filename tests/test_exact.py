from __future__ import annotations

import signal
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oddscalc.exact import bounded_number, decimal_str, parse_fraction, percent_str
from oddscalc.results import Row, WagerResult


def _wager(rows: list[Row], varies: bool = False) -> WagerResult:
    return WagerResult("main", "t", "s", sum(r.combinations for r in rows), tuple(rows), stake_varies=varies)


def test_simple_coin_flip_figures() -> None:
    w = _wager([Row("win", "Win", "1:1", Fraction(1), 1), Row("lose", "Lose", "", Fraction(-1), 1)])
    assert w.expected_value == 0
    assert w.variance == 1
    assert w.hit_frequency == Fraction(1, 2)
    assert w.element_of_risk is None


def test_element_of_risk_and_average_stake() -> None:
    # fold: lose 1 staked 1; raise-win: +3 staked 3; raise-lose: -3 staked 3
    rows = [Row("fold", "", "", Fraction(-1), 2, Fraction(1)), Row("w", "", "", Fraction(3), 1, Fraction(3)),
            Row("l", "", "", Fraction(-3), 1, Fraction(3))]
    w = _wager(rows, varies=True)
    assert w.expected_value == Fraction(-2, 4)
    assert w.average_stake == Fraction(2 + 3 + 3, 4)
    assert w.element_of_risk == Fraction(1, 2) / 2


def test_rows_must_add_up() -> None:
    with pytest.raises(ValueError, match="add up"):
        WagerResult("main", "t", "s", 5, (Row("a", "", "", Fraction(1), 2),))


@pytest.mark.parametrize("text,value", [("3/7", Fraction(3, 7)), ("3.51%", Fraction(351, 10000)),
                                        ("-2", Fraction(-2)), ("0.10912580", Fraction(1091258, 10**7))])
def test_parse_fraction(text: str, value: Fraction) -> None:
    assert parse_fraction(text) == value


def test_decimal_rounding_is_exact_half_away_from_zero() -> None:
    assert decimal_str(Fraction(1, 8), 2) == "0.13"
    assert decimal_str(Fraction(-1, 8), 2) == "-0.13"
    assert decimal_str(Fraction(2, 3), 0) == "1"
    assert decimal_str(Fraction(-1, 1000), 2) == "0.00"
    assert percent_str(Fraction(1, 3), 2) == "33.33%"


@given(st.fractions(min_value=-1000, max_value=1000), st.integers(0, 8))
def test_decimal_str_within_half_ulp(x: Fraction, places: int) -> None:
    assert abs(Fraction(decimal_str(x, places)) - x) <= Fraction(1, 2 * 10**places)


HOSTILE = ["1e-999999999", "1e999999999", "1e" + "9" * 5000, "9" * 61,
           "1/" + "7" * 60, "٣", "1e61", "0." + "0" * 61 + "1"]


@pytest.fixture
def _within_a_second() -> Iterator[None]:
    # a number that builds a huge integer hangs: turn that into a failure, not a stuck suite
    def stuck(signum: int, frame: object) -> None:
        raise TimeoutError("took over a second")

    old = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(1)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.mark.usefixtures("_within_a_second")
@pytest.mark.parametrize("text", HOSTILE)
def test_a_number_too_long_or_too_far_out_is_refused_before_any_arithmetic(text: str) -> None:
    with pytest.raises(ValueError, match="digits|exponent|not a number"):
        parse_fraction(text)
    with pytest.raises(ValueError):
        parse_fraction(text + "%")


def test_the_bounds_admit_every_real_figure() -> None:
    assert parse_fraction("1e-60") == Fraction(1, 10**60)
    assert parse_fraction("9" * 60) == 10**60 - 1
    assert bounded_number("3.51") == (Fraction(351, 100), 2)
    assert bounded_number("1.5e-5") == (Fraction(3, 200_000), 6)
    assert bounded_number("-3/7") == (Fraction(-3, 7), None)
