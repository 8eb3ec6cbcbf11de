"""One wager on the layout: its events (:class:`Row`, integer combinations each) and every figure derived from them
as a ``Fraction`` (:class:`WagerResult`), and the prizes it can win (:class:`Prize`)."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from oddscalc.exact import decimal_str, frac_str, percent_str
from oddscalc.results.display import escape, frame, html_table, missing, one_line, quoted

if TYPE_CHECKING:
    import pandas

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


Z_SCORES = {"90": 1.6448536269514722, "95": 1.959963984540054, "99": 2.5758293035489004}  # two-sided
PRIZE_HORIZON = 100_000_000  # a prize should be expected at least once in this many games


@dataclass(frozen=True)
class Prize:
    """One pay a wager can win, with its total probability (its rows joined)."""

    pay_ref: str  # "<wager>.<key>" in the table's [pays]
    pays: str
    probability: Fraction

    @property
    def one_in(self) -> Fraction | None:
        """1 / probability (None when the prize never happens)."""
        return None if self.probability == 0 else 1 / self.probability

    @property
    def reachable(self) -> bool:
        """Expected at least once in PRIZE_HORIZON games."""
        return self.probability * PRIZE_HORIZON >= 1


@dataclass(frozen=True, repr=False)
class WagerResult:
    """Exact results of one wager on the layout; every figure is derived from the integer rows.

    The sums over rows are computed once (cached_property: the instance is frozen, its rows never change).
    """

    wager: str  # "main", "jackpot", "three_card_bonus", "banker", ...
    title: str
    strategy: str  # an id: "optimal", "rules-of-thumb", a strategy card's id, "none" (no decision)
    total_combinations: int
    rows: tuple[Row, ...]
    unit: str = "unit bet"  # what EV is per ("ante", "base bet", "unit staked")
    stake_varies: bool = False  # element of risk is only meaningful when the stake can change
    extras: Mapping[str, Figure] = field(default_factory=dict)  # game-specific exact figures
    notes: tuple[str, ...] = ()
    strategy_title: str = ""  # the strategy in words, beside its id

    def __post_init__(self) -> None:
        s = sum(r.combinations for r in self.rows)
        if s != self.total_combinations:
            raise ValueError(f"{self.wager}: rows add up to {s} combinations, expected {self.total_combinations}")
        if len({r.event for r in self.rows}) != len(self.rows):
            raise ValueError(f"{self.wager}: duplicate event ids")
        if any(r.combinations < 0 for r in self.rows):
            raise ValueError(f"{self.wager}: a negative count")

    def probability(self, row: Row) -> Fraction:
        """P(row) = combinations / total."""
        return Fraction(row.combinations, self.total_combinations)

    def row_return(self, row: Row) -> Fraction:
        """The row's share of the expected value: units x probability."""
        return row.units * self.probability(row)

    @functools.cached_property
    def expected_value(self) -> Fraction:
        """Net units won per unit bet, on average."""
        return sum((Fraction(r.units * r.combinations) for r in self.rows), Fraction(0)) / self.total_combinations

    @property
    def house_edge(self) -> Fraction:
        """Minus the expected value."""
        return -self.expected_value

    @functools.cached_property
    def average_stake(self) -> Fraction:
        """Units at risk per unit bet, on average."""
        return sum((r.stake * r.combinations for r in self.rows), Fraction(0)) / self.total_combinations

    @property
    def element_of_risk(self) -> Fraction | None:
        """House edge per unit actually staked (None when the stake never varies)."""
        if not self.stake_varies:
            return None
        return self.house_edge / self.average_stake

    @functools.cached_property
    def variance(self) -> Fraction:
        """Variance of the net units won."""
        second = sum((r.units * r.units * r.combinations for r in self.rows), Fraction(0))
        return second / self.total_combinations - self.expected_value**2

    @property
    def standard_deviation(self) -> float:
        """Square root of the variance (a float: the only inexact figure, compared exactly by verify)."""
        return math.sqrt(self.variance)

    @property
    def hit_frequency(self) -> Fraction:
        """P(the wager wins something)."""
        wins = sum(r.combinations for r in self.rows if r.units > 0)
        return Fraction(wins, self.total_combinations)

    @property
    def volatility_index(self) -> Mapping[str, float]:
        """z * SD by two-sided confidence, "90", "95" and "99" percent (PAR-sheet convention), e.g.
        ``w.volatility_index["90"]``."""
        return MappingProxyType({level: z * self.standard_deviation for level, z in Z_SCORES.items()})

    @functools.cached_property
    def prizes(self) -> tuple[Prize, ...]:
        """Each pay of the table that this wager can win, with its total probability (rows joined by pay)."""
        by: dict[str, list[Row]] = {}
        for r in self.rows:
            if r.pay_ref and r.units > 0:
                by.setdefault(r.pay_ref, []).append(r)
        return tuple(Prize(ref, rows[0].pays, Fraction(sum(r.combinations for r in rows), self.total_combinations))
                     for ref, rows in by.items())

    def row(self, event: str) -> Row:
        """The row with this event id."""
        for r in self.rows:
            if r.event == event:
                return r
        raise missing("event", event, [r.event for r in self.rows])

    def records(self) -> list[dict[str, Any]]:
        """One plain dict per row, exact values as Fractions and ints."""
        return [{"wager": self.wager, "event": r.event, "label": r.label, "pays": r.pays, "units": r.units,
                 "stake": r.stake, "combinations": r.combinations, "probability": self.probability(r),
                 "return": self.row_return(r)} for r in self.rows]

    def to_frame(self, floats: bool = False) -> pandas.DataFrame:
        """The rows as a pandas DataFrame (needs the optional ``pandas`` extra), the columns of :meth:`records`:
        exact by default (``units``, ``stake``, ``probability`` and ``return`` as ``Fraction``, ``combinations`` as
        int); with ``floats`` each ``Fraction`` as the nearest float, so those columns are ``float64`` for
        plotting and fast arithmetic (the exact frame sums ``return`` to the expected value exactly; the float
        one to within rounding)."""
        return frame(self.records(), floats)

    @property
    def summary(self) -> str:
        """The wager in one line: its id, title, house edge (and element of risk) and strategy."""
        eor = self.element_of_risk
        risk = "" if eor is None else f"; element of risk {percent_str(eor)}"
        play = "" if self.strategy == "none" else f" under {one_line(self.strategy, 40)}"
        return (f"{one_line(self.wager, 40)} {quoted(self.title)}: house edge {percent_str(self.house_edge)} "
                f"of the {one_line(self.unit, 40)}{play}{risk}")

    def __repr__(self) -> str:
        return (f"<WagerResult {self.summary}; {len(self.rows)} events over {self.total_combinations:,} "
                "combinations>")

    def _repr_html_(self) -> str:
        """The wager's figures and its return table (first rows) as small HTML tables."""
        eor = self.element_of_risk
        facts = [("Strategy", self.strategy_title or self.strategy),
                 ("House edge", f"{percent_str(self.house_edge)} of the {self.unit}"),
                 *([("Element of risk", percent_str(eor))] if eor is not None else []),
                 ("Expected value", f"{decimal_str(self.expected_value, 8)} (exact {frac_str(self.expected_value)})"),
                 ("Standard deviation", f"{self.standard_deviation:.4f}"),
                 ("Hit frequency", percent_str(self.hit_frequency)),
                 ("Total combinations", f"{self.total_combinations:,}")]
        rows = ([r.label, r.pays, frac_str(r.units), f"{r.combinations:,}", decimal_str(self.probability(r), 10),
                 decimal_str(self.row_return(r), 10)] for r in self.rows)
        return "\n".join([
            f"<p><strong>{escape(self.title, 200)}</strong> <code>{escape(self.wager, 40)}</code></p>",
            html_table(("Figure", "Value"), facts, (False, True)),
            html_table(("Event", "Pays", "Units", "Combinations", "Probability", "Return"), rows,
                       (False, False, True, True, True, True), len(self.rows), "events")])

