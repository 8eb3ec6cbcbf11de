"""Hold tolerance: the hold a casino should see after n rounds, and the bands its actual hold falls in.

The hold after n rounds is what the house keeps over what was wagered: H_n = -sum(X) / sum(S) for a round's net
result X and stake S. Its expectation is h = -E[X] / E[S] (the house edge for a fixed stake, the element of risk
when the stake varies), exact from the integer counts.

A band at 95% has at most 2.5% of the holds after n rounds below its low end and at most 2.5% above its high end
(99%: 0.5% each side), proven, never beyond what the wager can win or lose (the least and the most a round holds
per unit staked). Three methods give such ends, the tightest available is printed, and the ``method`` column names
it:

- exact: the quantiles of the exact distribution of n rounds (:mod:`oddscalc.filing.sums`: convolution powers of
  the round's outcomes on their lattice, with a proven floating-point error far below the tails, read
  conservatively). For a fixed stake, up to ``EXACT_ROUNDS`` rounds (more where the sum's lattice stays small: a
  jackpot whose prizes are multiples of 2,500), while the lattice of the sum takes at most
  ``sums.MAX_POINTS`` points; for a stake of two values (Caribbean's ante alone or ante and raise), by the count
  of rounds at each (:mod:`oddscalc.filing.ratio`), while its lattices take at most ``ratio.MAX_CELLS`` points.
  Only where the normal approximation is not already proven close (Berry-Esseen within ``NORMAL_ERROR``): it costs
  a tenth of a second or more a wager, and a filing has many.
- normal + Berry-Esseen: the normal approximation (the delta method's band for a fixed stake, Fieller's form of it
  for a stake that varies) widened by the Berry-Esseen bound on its error (:mod:`oddscalc.filing.tails`).
- Chernoff: the exponential bound on each tail, valid for rare large prizes at any n (wider than the truth where
  the normal is good).

The normal approximation alone (mean +- z SD of the delta method, the band this section printed before) is said
not to hold where its 99% band leaves the support, or where the exact distribution puts more than a fifth more or
less beyond one of its ends than it says (2.5% +- 0.5%, 0.5% +- 0.1%); and to be unproven where there is no exact
distribution and Berry-Esseen bounds its error by more than a fifth of the 99% band's 0.5% tail. The section's
notes list both.

A stake that varies makes the hold a ratio of two sums: each tail of the ratio at t is a tail of the sum of t S - W,
which the bounds bound; the exact method takes two stakes (Caribbean's), not three (Let It Ride's bets pulled back).

A seat's combined stake (Caribbean's ante and raise with the Jackpot at a stated ante) is one more subject: its
rounds come from the analysis's joint counts of the two wagers, so their correlation (the same hand pays both) is
in its variance exactly.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from oddscalc.exact import frac_str
from oddscalc.filing import ratio, sums, tails
from oddscalc.results import Z_SCORES, Analysis, Cell, Column, Lines, Section, WagerResult
from oddscalc.tables import money_text

ROUNDS = tuple(10**k for k in range(3, 9))
Z = Z_SCORES
TAILS = {"95": 0.025, "99": 0.005}  # each side of a band
NORMAL_ERROR = TAILS["99"] / 5  # the Berry-Esseen error at which the normal approximation is said to hold
EXACT_ERROR = TAILS["99"] / 20  # the most error an exact sum may carry (its tails are read that much on the safe side)
EXACT_ROUNDS = 100_000  # the most rounds summed exactly, but where the sum's lattice stays small: beyond, too slow
EXACT = "exact"
NORMAL = "normal + Berry-Esseen"
CHERNOFF = "Chernoff"
UNPROVEN = "unproven: "  # a Band's ``normal`` so marked: the normal band may hold there, but nothing proves it


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

    @property
    def support(self) -> tuple[Fraction, Fraction]:
        """The least and the most a hold can be, after any number of rounds: the least and most -X / S of a round
        (a hold is an average of its rounds' -X / S weighted by their stakes)."""
        ratios = [-u / st for u, st, n in self.outcomes if n]
        return min(ratios), max(ratios)

    @property
    def fixed_stake(self) -> Fraction | None:
        """The stake, when every round stakes the same (then the hold is the sum's mean over it); else None."""
        stakes = {st for _, st, n in self.outcomes if n}
        return stakes.pop() if len(stakes) == 1 else None


@dataclass(frozen=True)
class Band:
    """The hold's bands after ``rounds`` rounds: each end proven (at most 2.5% or 0.5% of holds beyond it), by
    ``method``; ``normal`` tells whether the plain normal approximation holds there, and if not, why."""

    rounds: int
    low_95: Fraction
    high_95: Fraction
    low_99: Fraction
    high_99: Fraction
    method: str
    normal: str = ""  # "" when the normal approximation holds; else the reason it does not

    @property
    def ends(self) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        """(95% low, 95% high, 99% low, 99% high)."""
        return self.low_95, self.high_95, self.low_99, self.high_99


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


def _outward(x: float, down: bool) -> Fraction:
    """A float end of a band as a Fraction of 1e-8, rounded away from the band's middle (so it stays proven)."""
    scaled = x * 10**8
    return Fraction(math.floor(scaled) if down else math.ceil(scaled), 10**8)


def rounds_of(subject: Subject) -> tails.Rounds:
    """The subject's rounds as :class:`tails.Rounds` (house net, stake, probability)."""
    t = subject.total
    return tails.Rounds.of(tuple((-u, st, Fraction(n, t)) for u, st, n in subject.outcomes))


def normal_ends(subject: Subject, n: int) -> tuple[float, float, float, float]:
    """The plain normal band (expected hold +- z SD, the delta method): (95% low, 95% high, 99% low, 99% high)."""
    h, sd = float(subject.hold), math.sqrt(subject.spread() / n)
    return h - Z["95"] * sd, h + Z["95"] * sd, h - Z["99"] * sd, h + Z["99"] * sd


def _normal_fails(subject: Subject, r: tails.Rounds, n: int, exact: sums.Sum | ratio.Mixture | None) -> str:
    """Why the plain normal band does not hold after n rounds, or "" when it does: it holds when its 99% band is
    inside the support and each of its four tails is within a fifth of what it says (2.5% +- 0.5%, 0.5% +- 0.1%),
    read from the exact distribution where there is one, else proven by Berry-Esseen."""
    ends = normal_ends(subject, n)
    low, high = subject.support
    if ends[2] < low or ends[3] > high:
        return "its band leaves the support"
    if exact is None:
        error = tails.berry_esseen(r) / math.sqrt(n)
        return f"{UNPROVEN}Berry-Esseen bounds its error by {error:.2%}" if error > NORMAL_ERROR else ""
    per = float(n * (subject.fixed_stake or 1))
    worst = []
    for level, (lo, hi) in (("95", ends[:2]), ("99", ends[2:])):
        if isinstance(exact, sums.Sum):
            below, above = exact.below(lo * per), exact.above(hi * per)
        else:
            below, above = exact.below(lo), exact.above(hi)
        tail = TAILS[level]
        if not (0.8 * tail <= below <= 1.2 * tail and 0.8 * tail <= above <= 1.2 * tail):
            worst.append(f"{below:.2%} below and {above:.2%} above its {level}% band")
    return "; ".join(worst)


def bounded(subject: Subject, n: int) -> tuple[list[Fraction], str]:
    """The four ends from the normal with Berry-Esseen and from Chernoff (where Berry-Esseen is loose), each the
    tighter of the two; and the method(s) that gave them."""
    r = rounds_of(subject)
    loose = tails.berry_esseen(r) / math.sqrt(n)
    ends: list[Fraction] = []
    used: set[str] = set()
    s_low, s_high = subject.support
    for level in ("95", "99"):
        tail = TAILS[level]
        low = tails.end(lambda t: tails.normal_below(r, n, t), r, tail, upper=False)
        high = tails.end(lambda t: tails.normal_above(r, n, t), r, tail, upper=True)
        by_low, by_high = NORMAL, NORMAL
        if loose > tail / 4:  # far from normal: Chernoff may be the tighter, at least on the short side
            c_low = tails.end(lambda t: tails.chernoff_below(r, n, t), r, tail, upper=False)
            c_high = tails.end(lambda t: tails.chernoff_above(r, n, t), r, tail, upper=True)
            if c_low > low:
                low, by_low = c_low, CHERNOFF
            if c_high < high:
                high, by_high = c_high, CHERNOFF
        used |= {by_low, by_high}
        ends += [max(_outward(low, True), s_low), min(_outward(high, False), s_high)]
    return [ends[0], ends[1], ends[2], ends[3]], ", ".join(m for m in (NORMAL, CHERNOFF) if m in used)


def _exact(subject: Subject, counts: tuple[int, ...]) -> dict[int, sums.Sum | ratio.Mixture]:
    """The exact distributions of the hold after the counts of rounds where they are needed (the normal
    approximation is not proven within a fifth of its tails) and cheap enough: on one lattice for a fixed stake, by
    the count of each stake for two stakes."""
    loose = tails.berry_esseen(rounds_of(subject))
    needed = [n for n in counts if loose / math.sqrt(n) > NORMAL_ERROR]
    if not needed:
        return {}
    t = subject.total
    if subject.fixed_stake is not None:
        one = sums.one_round((-u, Fraction(n, t)) for u, _, n in subject.outcomes)
        return {} if one is None else dict(sums.decades(one, needed, EXACT_ERROR, EXACT_ROUNDS))
    outcomes = tuple((-u, st, Fraction(n, t)) for u, st, n in subject.outcomes)
    out: dict[int, sums.Sum | ratio.Mixture] = {}
    for n in sorted(needed):
        last = out[max(out)] if out else None
        # the lattices grow about as the rounds: stop before a count whose would pass the limit
        if n > EXACT_ROUNDS or (isinstance(last, ratio.Mixture)
                                and len(last.flat) * n // last.rounds > ratio.MAX_CELLS):
            break
        m = ratio.mixture(outcomes, n)
        if m is None or m.error > EXACT_ERROR:
            break
        out[n] = m
    return out


def _exact_ends(subject: Subject, exact: sums.Sum | ratio.Mixture, n: int) -> list[Fraction]:
    """(95% low, 95% high, 99% low, 99% high) from an exact distribution."""
    if isinstance(exact, sums.Sum):
        per = n * (subject.fixed_stake or Fraction(1))
        return [exact.lower(TAILS["95"]) / per, exact.upper(TAILS["95"]) / per,
                exact.lower(TAILS["99"]) / per, exact.upper(TAILS["99"]) / per]
    support = (float(subject.support[0]), float(subject.support[1]))
    out = []
    for level in ("95", "99"):
        for upper in (False, True):
            t = ratio.end(exact, TAILS[level], upper, support, float(subject.hold))
            out.append(min(_outward(t, False), subject.support[1]) if upper else max(_outward(t, True),
                                                                                    subject.support[0]))
    return out


def band(subject: Subject, rounds: int) -> Band:
    """The bands after ``rounds`` rounds (exact where it can be computed, else proven bounds)."""
    return bands_of(subject, (rounds,))[0]


@functools.lru_cache(maxsize=256)  # Bands only (a few numbers): the section and the chart share them
def bands_of(subject: Subject, counts: tuple[int, ...] = ROUNDS) -> tuple[Band, ...]:
    """The bands after each count of rounds (a rising tuple)."""
    r = rounds_of(subject)
    exact = _exact(subject, counts)
    out = []
    for n in counts:
        s = exact.get(n)
        if s is not None:
            ends, method = _exact_ends(subject, s, n), EXACT
        else:
            ends, method = bounded(subject, n)
        out.append(Band(n, ends[0], ends[1], ends[2], ends[3], method, _normal_fails(subject, r, n, s)))
    return tuple(out)


def bands(subject: Subject, rounds: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(95% low, 95% high, 99% low, 99% high) of the hold after ``rounds`` rounds."""
    return band(subject, rounds).ends


def _not_normal(subjects: Sequence[Subject], unproven: bool) -> list[str]:
    """Where the plain normal band fails (``unproven`` False) or is not proven to hold (True), subject by subject."""
    out = []
    for s in subjects:
        failed = [b for b in bands_of(s) if b.normal and b.normal.startswith(UNPROVEN) == unproven]
        if failed:
            reasons = "; ".join(f"{b.rounds:,} rounds: {b.normal.removeprefix(UNPROVEN)}" for b in failed)
            out.append(f"{s.name.split(':')[0]} ({reasons})")
    return out


def section(subjects: Sequence[Subject]) -> Section:
    """The hold tolerance table: each subject at 10^3 .. 10^8 rounds."""
    rows: list[tuple[Cell, ...]] = []
    for s in subjects:
        for b in bands_of(s):
            rows.append((s.name, b.rounds, s.hold, *b.ends, b.method))
    fails, unproven = _not_normal(subjects, False), _not_normal(subjects, True)
    notes = ["A casino's actual hold over that many rounds falls inside the 95% band at least 19 times in 20 if the "
             "game runs as analysed; outside the 99% band it is worth investigating."]
    if fails:
        notes.append("The normal approximation alone (expected hold +- z standard deviations) does not hold for: "
                     + "; ".join(fails) + ". Its band there leaves what the wager can win or lose, or the exact "
                     "distribution puts more than a fifth more or less than the band says beyond it (2.5% +- 0.5% a "
                     "side at 95%, 0.5% +- 0.1% at 99%); the bands above do not rely on it.")
    if unproven:
        notes.append("Nothing here proves the normal approximation alone within a fifth of its tails for: "
                     + "; ".join(unproven) + " (Berry-Esseen's bound on its error is wider, and the exact "
                     "distribution was not computed); the bands above widen it by that bound, or take Chernoff's.")
    return Section(
        "hold_tolerance", "Hold tolerance",
        (Column("subject", "Wager or seat"), Column("rounds", "Rounds", "int"),
         Column("expected_hold", "Expected hold", "percent", 4), Column("low_95", "95% low", "percent", 4),
         Column("high_95", "95% high", "percent", 4), Column("low_99", "99% low", "percent", 4),
         Column("high_99", "99% high", "percent", 4), Column("method", "Method")),
        tuple(rows),
        intro=("The hold is what the house keeps over what was wagered. The expected hold is exact ("
               + "; ".join(f"{s.name.split(':')[0]} {frac_str(s.hold)}" for s in subjects) + "). At most 2.5% of "
               "the holds after that many rounds fall below a 95% band and at most 2.5% above it (0.5% for the 99% "
               "band), proven, and no band leaves what the wager can win or lose.",
               "Method: exact is the quantiles of the exact distribution of that many rounds (floating-point "
               "convolutions with a bound on their error below 0.025%, read on the safe side; computed up to 100,000 "
               "rounds, or beyond where the sum takes few values); "
               "normal + Berry-Esseen is the normal approximation widened by the Berry-Esseen bound on its error; "
               "Chernoff is the exponential bound on each tail, valid for rare large prizes, wider than the truth "
               "where the normal is good. "
               "Where more than one is computed, each end is the tighter."),
        notes=tuple(notes))


def subjects_of(a: Analysis, seat_stakes: Iterable[tuple[str, str, Fraction, Fraction]] = ()) -> list[Subject]:
    """Every wager of the analysis, then each seat asked for."""
    out = [of_wager(w) for w in a.wagers]
    out += [seat(a, *spec) for spec in seat_stakes]
    return out


def chart(subject: Subject, chart_id: str) -> Lines:
    """Bands against the number of rounds (as powers of ten)."""
    rows = bands_of(subject)
    series = (("expected", tuple(subject.hold for _ in rows)),
              ("95% low", tuple(b.low_95 for b in rows)), ("95% high", tuple(b.high_95 for b in rows)),
              ("99% low", tuple(b.low_99 for b in rows)), ("99% high", tuple(b.high_99 for b in rows)))
    return Lines(chart_id, f"Hold tolerance: {subject.name}", tuple(int(math.log10(b.rounds)) for b in rows), series,
                 "rounds, as a power of ten (3: 1,000 rounds; 8: 100,000,000)", "hold")
