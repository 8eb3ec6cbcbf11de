"""Hold tolerance: the hold a casino should see after n rounds, and the bands its actual hold falls in.

The hold after n rounds is what the house keeps over what was wagered: H_n = -sum(X) / sum(S) for a
round's net result X and stake S. Its expectation is h = -E[X] / E[S] (the house edge for a fixed
stake, the element of risk when the stake varies), and by the delta method its standard deviation
is sqrt(E[(X + h S)^2] / n) / E[S]. The moments are exact Fractions from the integer counts; only
the square root and the normal quantiles (95%: 1.95996, 99%: 2.57583) are floating point, and the
bands are rounded to 1e-8 for printing. They are the normal approximation: at 1,000 rounds of a
wager with rare large prizes they are wider than the truth on one side and narrower on the other.

A seat's combined stake (Caribbean's ante and raise with the Jackpot at a stated ante) is one more
subject: its rounds come from the analysis's joint counts of the two wagers, so their correlation
(the same hand pays both) is in its variance exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from oddscalc.exact import frac_str, rounded
from oddscalc.results import Z_SCORES, Analysis, Cell, Column, Lines, Section, WagerResult
from oddscalc.tables import money_text

ROUNDS = tuple(10**k for k in range(3, 9))
Z = Z_SCORES


@dataclass(frozen=True)
class Subject:
    """What a hold is measured on: rounds as (net result, stake, deals)."""

    name: str
    outcomes: tuple[tuple[Fraction, Fraction, int], ...]

    @property
    def total(self) -> int:
        """Every deal."""
        return sum(n for _, _, n in self.outcomes)

    @property
    def hold(self) -> Fraction:
        """Expected hold: -E[X] / E[S], exact."""
        x = sum((u * n for u, _, n in self.outcomes), Fraction(0))
        s = sum((st * n for _, st, n in self.outcomes), Fraction(0))
        return -x / s

    def spread(self) -> Fraction:
        """n x Var(H_n) (exact, up to the square root): E[(X + h S)^2] / E[S]^2."""
        h, t = self.hold, self.total
        second = sum(((u + h * st) ** 2 * n for u, st, n in self.outcomes), Fraction(0)) / t
        mean_s = sum((st * n for _, st, n in self.outcomes), Fraction(0)) / t
        return second / mean_s**2


def of_wager(w: WagerResult) -> Subject:
    """A wager's rounds."""
    return Subject(f"{w.wager}: {w.title}", tuple((r.units, r.stake, r.combinations) for r in w.rows
                                                 if r.combinations))


def seat(a: Analysis, first: str, second: str, stake_first: Fraction, stake_second: Fraction) -> Subject:
    """Two wagers played together at stated stakes (money per unit of each), from the joint counts."""
    joint = a.joint.get((first, second))
    if joint is None:
        raise KeyError(f"no joint counts of {first} and {second}")
    wa, wb = a.wager(first), a.wager(second)
    ra = {r.event: r for r in wa.rows}
    rb = {r.event: r for r in wb.rows}
    outcomes = tuple((stake_first * ra[ea].units + stake_second * rb[eb].units,
                      stake_first * ra[ea].stake + stake_second * rb[eb].stake, n) for (ea, eb), n in joint.items())
    name = (f"seat: {first} (1 {wa.unit} = {money_text(stake_first)}) + {second} "
            f"(1 {wb.unit} = {money_text(stake_second)})")
    return Subject(name, outcomes)


def bands(subject: Subject, rounds: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(95% low, 95% high, 99% low, 99% high) of the hold after ``rounds`` rounds."""
    h = subject.hold
    sd = math.sqrt(subject.spread() / rounds)
    return (rounded(float(h) - Z["95"] * sd), rounded(float(h) + Z["95"] * sd),
            rounded(float(h) - Z["99"] * sd), rounded(float(h) + Z["99"] * sd))


def section(subjects: Sequence[Subject]) -> Section:
    """The hold tolerance table: each subject at 10^3 .. 10^8 rounds."""
    rows: list[tuple[Cell, ...]] = []
    for s in subjects:
        for n in ROUNDS:
            rows.append((s.name, n, s.hold, *bands(s, n)))
    return Section(
        "hold_tolerance", "Hold tolerance",
        (Column("subject", "Wager or seat"), Column("rounds", "Rounds", "int"),
         Column("expected_hold", "Expected hold", "percent", 4), Column("low_95", "95% low", "percent", 4),
         Column("high_95", "95% high", "percent", 4), Column("low_99", "99% low", "percent", 4),
         Column("high_99", "99% high", "percent", 4)),
        tuple(rows),
        intro=("The hold is what the house keeps over what was wagered. The expected hold is exact ("
               + "; ".join(f"{s.name.split(':')[0]} {frac_str(s.hold)}" for s in subjects) + "); the bands are "
               "the normal approximation (delta method on the ratio of sums), rounded to 1e-8.",),
        notes=("A casino's actual hold over that many rounds falls inside the 95% band 19 times in 20 if the game "
               "runs as analysed; outside the 99% band it is worth investigating.",))


def subjects_of(a: Analysis, seat_stakes: Iterable[tuple[str, str, Fraction, Fraction]] = ()) -> list[Subject]:
    """Every wager of the analysis, then each seat asked for."""
    out = [of_wager(w) for w in a.wagers]
    out += [seat(a, *spec) for spec in seat_stakes]
    return out


def chart(subject: Subject, chart_id: str) -> Lines:
    """Bands against the number of rounds (as powers of ten)."""
    rows = [(n, *bands(subject, n)) for n in ROUNDS]
    series = (("expected", tuple(subject.hold for _ in rows)),
              ("95% low", tuple(r[1] for r in rows)), ("95% high", tuple(r[2] for r in rows)),
              ("99% low", tuple(r[3] for r in rows)), ("99% high", tuple(r[4] for r in rows)))
    return Lines(chart_id, f"Hold tolerance: {subject.name}", tuple(int(math.log10(n)) for n in ROUNDS), series,
                 "rounds (power of ten)", "hold")
