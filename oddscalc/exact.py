"""Integer tallies to exact wager results.

A game engine reports, for one wager, a list of events: each with the integer number of
equally likely combinations in which it happens, the exact net units won per unit of the
base bet, and the exact total units staked in that event. Everything else (probability,
expected value, house edge, element of risk, variance, hit frequency) is derived here as
``Fraction``s; nothing is rounded until a renderer prints it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

Figure = Fraction | int


@dataclass(frozen=True)
class Row:
    """One event of a wager: what it pays and how often it happens."""

    event: str  # stable id, e.g. "royal_flush_3_bets"
    label: str  # human text, e.g. "Royal flush, 3 bets in play"
    pays: str  # pay as printed on the table, e.g. "1000:1" ("" when not a pay)
    units: Fraction  # net units won per unit base bet (negative: lost)
    combinations: int
    stake: Fraction = Fraction(1)  # total units at risk in this event
    # units depend on at most one pay of the table: units = (units at other pays) + pay_coef * pay,
    # where pay_ref names it as "<wager>.<key>" in the table's [pays]; lets EV be written symbolically
    pay_ref: str = ""
    pay_coef: Fraction = Fraction(0)

    def probability(self, total: int) -> Fraction:
        return Fraction(self.combinations, total)


@dataclass(frozen=True)
class WagerResult:
    """Exact results of one wager on the layout."""

    wager: str  # "main", "jackpot", "three_card_bonus", "banker", ...
    title: str
    strategy: str
    total_combinations: int
    rows: tuple[Row, ...]
    unit: str = "unit bet"  # what EV is per ("ante", "base bet", "unit staked")
    stake_varies: bool = False  # element of risk is only meaningful when the stake can change
    extras: Mapping[str, Figure] = field(default_factory=dict)  # game-specific exact figures
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        s = sum(r.combinations for r in self.rows)
        if s != self.total_combinations:
            raise ValueError(
                f"{self.wager}: rows add up to {s} combinations, expected {self.total_combinations}"
            )
        if len({r.event for r in self.rows}) != len(self.rows):
            raise ValueError(f"{self.wager}: duplicate event ids")

    # Derived figures -------------------------------------------------------
    def probability(self, row: Row) -> Fraction:
        return Fraction(row.combinations, self.total_combinations)

    def row_return(self, row: Row) -> Fraction:
        return row.units * self.probability(row)

    @property
    def expected_value(self) -> Fraction:
        return sum((Fraction(r.units * r.combinations) for r in self.rows), Fraction(0)) / self.total_combinations

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_value

    @property
    def average_stake(self) -> Fraction:
        return sum((r.stake * r.combinations for r in self.rows), Fraction(0)) / self.total_combinations

    @property
    def element_of_risk(self) -> Fraction | None:
        if not self.stake_varies:
            return None
        return self.house_edge / self.average_stake

    @property
    def variance(self) -> Fraction:
        second = sum((r.units * r.units * r.combinations for r in self.rows), Fraction(0))
        return second / self.total_combinations - self.expected_value**2

    @property
    def standard_deviation(self) -> float:
        return math.sqrt(self.variance)

    @property
    def hit_frequency(self) -> Fraction:
        wins = sum(r.combinations for r in self.rows if r.units > 0)
        return Fraction(wins, self.total_combinations)

    def volatility_index(self, confidence: str) -> float:
        """z * SD for a two-sided confidence of "90" or "95" percent (PAR-sheet convention)."""
        return Z_SCORES[confidence] * self.standard_deviation

    def prizes(self) -> list[Prize]:
        """Each pay of the table that this wager can win, with its total probability (rows joined by pay)."""
        by: dict[str, list[Row]] = {}
        for r in self.rows:
            if r.pay_ref and r.units > 0:
                by.setdefault(r.pay_ref, []).append(r)
        out = []
        for ref, rows in by.items():
            n = sum(r.combinations for r in rows)
            out.append(Prize(ref, rows[0].pays, Fraction(n, self.total_combinations)))
        return out

    def row(self, event: str) -> Row:
        for r in self.rows:
            if r.event == event:
                return r
        raise KeyError(event)


Z_SCORES = {"90": 1.6448536269514722, "95": 1.959963984540054}
PRIZE_HORIZON = 100_000_000  # a prize should be expected at least once in this many games


@dataclass(frozen=True)
class Prize:
    pay_ref: str  # "<wager>.<key>" in the table's [pays]
    pays: str
    probability: Fraction

    @property
    def one_in(self) -> Fraction | None:
        return None if self.probability == 0 else 1 / self.probability

    @property
    def reachable(self) -> bool:
        """Expected at least once in PRIZE_HORIZON games."""
        return self.probability * PRIZE_HORIZON >= 1


def merge_rows(rows: Iterable[Row]) -> tuple[Row, ...]:
    """Add up rows that share an event id (first one's text wins), keeping first-seen order."""
    out: dict[str, Row] = {}
    for r in rows:
        if r.event in out:
            o = out[r.event]
            if o.units != r.units or o.stake != r.stake:
                raise ValueError(f"event {r.event}: rows disagree on units or stake")
            out[r.event] = Row(o.event, o.label, o.pays, o.units, o.combinations + r.combinations, o.stake)
        else:
            out[r.event] = r
    return tuple(out.values())


def frac_str(x: Fraction | int) -> str:
    """Exact "p/q" text (integers as "n")."""
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def parse_fraction(text: str) -> Fraction:
    """Read "3/7", "0.0351", "3.51%" or "-2" exactly."""
    t = text.strip().replace(",", "").replace("_", "")
    pct = t.endswith("%")
    if pct:
        t = t[:-1].strip()
    if not t:
        raise ValueError(f"not a number: {text!r}")
    try:
        v = Fraction(t)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"not a number: {text!r}") from None
    return v / 100 if pct else v


def decimal_str(x: Fraction | int, places: int) -> str:
    """Round half away from zero to ``places`` decimals, exactly (no float on the way)."""
    x = Fraction(x)
    neg = x < 0
    scaled = abs(x) * 10**places
    n = math.floor(scaled)
    if scaled - n >= Fraction(1, 2):
        n += 1
    s = str(n).rjust(places + 1, "0")
    body = s if places == 0 else f"{s[:-places]}.{s[-places:]}"
    return ("-" if neg and n else "") + body


def percent_str(x: Fraction | int, places: int = 4) -> str:
    return decimal_str(Fraction(x) * 100, places) + "%"


def one_in(p: Fraction) -> str:
    """Odds "1 in N" with N rounded to a readable precision."""
    if p == 0:
        return "never"
    n = 1 / p
    return "1 in " + (f"{decimal_str(n, 2)}" if n < 100 else f"{round(n):,}")
