"""Progressive jackpots: prizes that are a share of a meter, the meter's reset and growth, and the
return as an exact function of the meter.

A wager with meter prizes ("100% meter", "10% meter") carries a ``[...meter]`` block::

    [pays.jackpot.meter]
    reset = 10000           # the seed the meter restarts from after a 100% award
    contribution = "15%"    # the share of each stake added to the meter
    current = 200000        # the meter the report's rows are settled at (default: reset)

With p_i the probability and s_i the share of each meter prize, and stake S, the expected value per
stake is linear in the meter M: EV(M) = EV(0) + M * sum(p_i s_i) / S, so the return is
RTP(M) = 1 + EV(M), and the break-even meter is M* = -EV(0) S / sum(p_i s_i). Over the long run
every contribution is paid back through the meter, and the house adds the reset after each award
of the whole meter, so the return including the meter's growth is RTP(0) + contribution +
reset * P(an award of 100% of the meter) / S, whatever the meter shows now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from pydantic import BeforeValidator, field_validator, model_validator

from oddscalc.exact import decimal_str, frac_str, parse_fraction, percent_str
from oddscalc.results import Cell, Column, Section, WagerResult
from oddscalc.tables import Amount, MeterShare, Strict, money_text


def _share(value: Any) -> Fraction:
    """A share of each stake as a percent string ("15%")."""
    if isinstance(value, bool) or not isinstance(value, str):
        raise ValueError(f"write the contribution as a percent string, e.g. \"15%\", not {value!r}")
    try:
        v = parse_fraction(value)
    except ValueError:
        raise ValueError(f"not a share: {value!r}") from None
    if not 0 <= v < 1:
        raise ValueError(f"the contribution is a share of each stake from 0% to below 100%, not {value!r}")
    return v


class Meter(Strict):
    """A progressive meter: its reset (seed), the share of each stake it gets, the value shown now."""

    reset: Amount
    contribution: Annotated[Fraction, BeforeValidator(_share)] = Fraction(0)
    current: Amount | None = None

    @field_validator("reset")
    @classmethod
    def _positive(cls, v: Fraction) -> Fraction:
        if v <= 0:
            raise ValueError("the reset must be more than 0")
        return v

    @property
    def shown(self) -> Fraction:
        """The meter the rows are settled at."""
        return self.current if self.current is not None else self.reset


class StakedPrizes(Strict):
    """Prizes paid on a hand for a stake of their own: amounts, odds or shares of a meter (``tables.Prize``).
    A game's block adds its prize fields; a meter prize needs the ``meter`` block, and a meter a meter prize."""

    stake: Amount
    meter: Meter | None = None

    @field_validator("stake")
    @classmethod
    def _positive(cls, v: Fraction) -> Fraction:
        if v <= 0:
            raise ValueError("the stake must be more than 0")
        return v

    def prizes(self) -> dict[str, Fraction | None]:
        """Every prize field (hand class id -> prize, None when the hand wins nothing)."""
        return {k: getattr(self, k) for k in type(self).model_fields if k not in ("stake", "meter")}

    def meter_shares(self) -> dict[str, Fraction]:
        """The prizes that are shares of the meter."""
        return {k: v for k, v in self.prizes().items() if isinstance(v, MeterShare)}

    @model_validator(mode="after")
    def _meter(self) -> StakedPrizes:
        shares = list(self.meter_shares())
        if shares and self.meter is None:
            raise ValueError(f"{shares[0]} is a share of the meter: add a [meter] block with its reset")
        if self.meter is not None and not shares:
            raise ValueError("a [meter] block needs a prize that is a share of the meter (e.g. \"100% meter\")")
        return self


@dataclass(frozen=True)
class Progressive:
    """A wager's return as a function of its meter."""

    wager: WagerResult
    meter: Meter
    stake: Fraction
    slope: Fraction  # d EV / d meter, per stake
    full_award: Fraction  # probability of an award of the whole meter (it resets)

    @property
    def ev_at_zero(self) -> Fraction:
        """EV(0) per stake: the fixed prizes alone."""
        return self.wager.expected_value - self.slope * self.meter.shown

    def ev(self, meter: Fraction) -> Fraction:
        """Exact EV per stake with the meter at ``meter``."""
        return self.ev_at_zero + self.slope * meter

    @property
    def break_even(self) -> Fraction | None:
        """The meter at which EV is 0 (None when the meter prizes cannot happen)."""
        return None if self.slope == 0 else -self.ev_at_zero / self.slope

    @property
    def long_run_return(self) -> Fraction:
        """The return including the meter's growth: RTP(0) + contribution + reset x P(full award) / stake."""
        return 1 + self.ev_at_zero + self.meter.contribution + self.meter.reset * self.full_award / self.stake


def progressive(w: WagerResult, shares: Mapping[str, Fraction], stake: Fraction, meter: Meter) -> Progressive:
    """The meter analysis of ``w``, whose rows ``shares`` (event -> share of the meter) are meter prizes."""
    slope = Fraction(0)
    full = Fraction(0)
    for r in w.rows:
        share = shares.get(r.event)
        if share is None:
            continue
        p = w.probability(r)
        slope += p * share / stake
        if share == 1:
            full += p
    return Progressive(w, meter, stake, slope, full)


def section(p: Progressive) -> Section:
    """The return at the meter values a regulator asks about, the break-even meter and the long-run return."""
    m = p.meter
    points: list[tuple[str, Fraction]] = [("reset", m.reset)]
    if m.current is not None:
        points.append(("shown now", m.current))
    even = p.break_even
    if even is not None:
        points.append(("break-even meter", even))
    points += [(f"{k} x reset", k * m.reset) for k in (2, 5, 10)]
    points.sort(key=lambda t: t[1])
    rows: tuple[tuple[Cell, ...], ...] = tuple(
        (name, value, 1 + p.ev(value), -p.ev(value)) for name, value in points)
    intro = (f"RTP(M) = {frac_str(1 + p.ev_at_zero)} + M x {frac_str(p.slope)} per stake of {money_text(p.stake)}, "
             f"exactly (M the meter).",
             *([f"Break-even meter: {decimal_str(even, 2)} (exact {frac_str(even)}): above it the wager favours "
                "the player."] if even is not None else ["The meter prizes cannot happen: the return does not "
                                                         "depend on the meter."]),
             f"Return including the meter's growth: {percent_str(p.long_run_return, 4)} = RTP(0) "
             f"{percent_str(1 + p.ev_at_zero, 4)} + contribution {percent_str(m.contribution, 2)} + reset "
             f"{money_text(m.reset)} x P(award of the whole meter) {frac_str(p.full_award)} / stake.")
    return Section(
        f"progressive_{p.wager.wager}", f"Progressive meter: {p.wager.title}",
        (Column("meter_at", "Meter"), Column("meter", "Meter value", "decimal", 2),
         Column("return", "Return to player", "percent", 4), Column("house_edge", "House edge", "signed_percent")),
        rows, intro=intro,
        notes=("The rows of the wager above are settled with the meter at "
               f"{money_text(m.shown)}" + (" (its reset)." if m.current is None else " (shown now)."),
               "Long run: every contribution comes back through the meter, and the house adds the reset after each "
               "award of the whole meter; awards of part of the meter only move money the meter already holds."))
