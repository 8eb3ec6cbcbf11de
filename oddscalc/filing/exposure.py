"""Exposure: the most the house pays in one round at the table's limits, and the house edge under a cap.

The limits are data (``[limits]`` of a table: bets per wager in money per unit of the wager, the
number of seats, an optional cap on what one seat is paid in one round). For each wager, the top
net win at its maximum bet is its largest outcome that can happen (combinations > 0) times that
bet. A seat playing two wagers together (Caribbean's ante and raise with the Jackpot) is read from
the joint counts, so only wins that can come in one round are added. A full table is bounded by
seats x one seat's top win: an upper bound, since one deck rarely gives every seat the top hand.

With a cap, each outcome of one seat pays at most the cap (net); the house edge at the maximum
bet is then exact for one seat. Where several seats share a cap per round the edge is higher
still: the figure here is a lower bound for such a table-wide cap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from oddscalc.datafile import Problem, TableError, key_lines, read_text
from oddscalc.exact import one_in
from oddscalc.results import Analysis, Cell, Column, Section
from oddscalc.tables import Limits, money_text

Outcome = tuple[str, Fraction, Fraction]  # (what, net win in money, probability)


def _limits(a: Analysis) -> Limits | None:
    limits = a.table.model.limits
    if limits is None:
        return None
    names = [w.wager for w in a.wagers]
    for name in limits.bets:
        if name not in names:
            try:
                line = key_lines(read_text(a.table.path)[0]).get(("limits", "bets", name))
            except (OSError, TableError):
                line = None
            raise TableError([Problem(str(a.table.path), line, f"limits.bets.{name}",
                                      f"no wager {name!r} in {a.game}; wagers: {', '.join(names)}")])
    return limits


def _wager_outcomes(a: Analysis, wager: str, bet: Fraction) -> list[Outcome]:
    w = a.wager(wager)
    return [(r.label, r.units * bet, w.probability(r)) for r in w.rows if r.combinations]


def _seat_outcomes(a: Analysis, first: str, second: str, bets: Sequence[Fraction]) -> list[Outcome]:
    wa, wb = a.wager(first), a.wager(second)
    ra, rb = {r.event: r for r in wa.rows}, {r.event: r for r in wb.rows}
    total = wa.total_combinations
    return [(f"{ra[ea].label} + {rb[eb].label}", bets[0] * ra[ea].units + bets[1] * rb[eb].units, Fraction(n, total))
            for (ea, eb), n in a.joint[(first, second)].items() if n]


def _top(outcomes: Sequence[Outcome]) -> Outcome:
    best = max(net for _, net, _ in outcomes)
    names = [what for what, net, _ in outcomes if net == best]
    return (names[0] + (f" (and {len(names) - 1} more)" if len(names) > 1 else ""), best,
            sum((p for _, net, p in outcomes if net == best), Fraction(0)))


def _capped_edge(outcomes: Sequence[Outcome], stake: Fraction, cap: Fraction) -> Fraction:
    return -sum((p * min(net, cap) for _, net, p in outcomes), Fraction(0)) / stake


@dataclass(frozen=True)
class Exposure:
    """The exposure at a table's limits: one seat's top net win and the full table's bound, in money."""

    seat_top: Fraction
    table_top: Fraction
    currency: str
    section: Section


def exposure_of(a: Analysis) -> Exposure | None:
    """The table's exposure at its limits (None when the table states no limits)."""
    limits = _limits(a)
    if limits is None or not limits.bets:
        return None
    cur = f" {limits.currency}" if limits.currency else ""
    rows: list[tuple[Cell, ...]] = []
    subjects: list[tuple[str, list[Outcome], Fraction]] = []  # name, outcomes, expected stake per round
    for w in a.wagers:
        lim = limits.bets.get(w.wager)
        if lim is None:
            continue
        subjects.append((f"{w.wager} at {money_text(lim.max)}{cur}", _wager_outcomes(a, w.wager, lim.max),
                         lim.max * w.average_stake))
    seats = [(x, y) for x, y in a.joint if x in limits.bets and y in limits.bets]
    for x, y in seats:
        bets = (limits.bets[x].max, limits.bets[y].max)
        stake = bets[0] * a.wager(x).average_stake + bets[1] * a.wager(y).average_stake
        subjects.append((f"one seat: {x} at {money_text(bets[0])} + {y} at {money_text(bets[1])}{cur}",
                         _seat_outcomes(a, x, y, bets), stake))
    tops: list[Fraction] = []
    for name, outcomes, stake in subjects:
        what, net, p = _top(outcomes)
        tops.append(net)
        edge = -sum((q * v for _, v, q in outcomes), Fraction(0)) / stake
        capped = (_capped_edge(outcomes, stake, limits.cap),) if limits.cap is not None else ()
        rows.append((name, what, net, p, one_in(p), edge, *capped))
    # one seat's top win: its joint outcome where the game counts one, else every wager's top at once (a bound)
    seat_top = max(tops[len(tops) - len(seats):]) if seats else sum(tops, Fraction(0))
    table_top = limits.seats * seat_top
    rows.append((f"full table: {limits.seats} seats", "every seat's top win in one round (an upper bound)",
                 table_top, None, "", None, *((None,) if limits.cap is not None else ())))
    return Exposure(seat_top, table_top, limits.currency, Section(
        "exposure", f"Exposure at the table's limits{f' ({limits.currency})' if limits.currency else ''}",
        (Column("subject", "Bet"), Column("top_outcome", "Top outcome"),
         Column("top_net_win", f"Top net win{cur}", "decimal", 2),
         Column("probability", "Probability", "decimal", 12), Column("odds", "Odds"),
         Column("house_edge", "House edge", "percent", 4),
         *((Column("house_edge_capped", f"House edge with the cap of {money_text(limits.cap)}{cur}", "percent", 4),)
           if limits.cap is not None else ())),
        tuple(rows),
        intro=("Net wins at the maximum bets of the table's limits (what the house pays beyond the stakes). The house "
               "edge is per amount wagered at those bets; with a cap, each outcome of one seat pays at most the cap.",),
        notes=("A full table is bounded by its seats times one seat's top win. A cap shared by the table's seats in "
               "one round makes the edge higher than the capped figure here, which is for one seat.",)))


def section(a: Analysis) -> Section | None:
    """The exposure section (None when the table states no limits)."""
    e = exposure_of(a)
    return None if e is None else e.section
