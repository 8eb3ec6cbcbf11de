"""House baccarat settled: the best play from exact counts, the equilibrium of several seats, the wager.

Every choice here is exact: an EV is a ratio of integer combinations, so the best play is read off
by comparing integers, never floats. With other seats the best play is a fixed point of best
responses (``solve``), each response read off the counts of the others playing the last one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.games.house_baccarat.count import (
    LOSS,
    PUSH,
    SIT_OUT,
    WIN,
    HouseBaccaratRules,
    SeatCounter,
    SeatCounts,
)
from oddscalc.games.house_baccarat.others import NATURAL
from oddscalc.games.house_baccarat.strategy import TOTAL, Strategy
from oddscalc.games.shoe import VALUES
from oddscalc.results import Row, WagerResult
from oddscalc.tables import ratio_text


def best_by_composition(sc: SeatCounts, pay: Fraction, name: str = "optimal") -> Strategy:
    """The best play for each two-card composition against ``sc``'s other seats."""
    ev = sc.ev(pay)
    m = np.zeros((VALUES, VALUES), dtype=bool)
    for u in range(VALUES):
        for w in range(u, VALUES):
            if not NATURAL[u, w]:
                d = ev[u, w, 1] + ev[w, u, 1] - ev[u, w, 0] - ev[w, u, 0]
                m[u, w] = m[w, u] = d > 0
    return Strategy.of(name, m)


def best_by_total(sc: SeatCounts, pay: Fraction, name: str = "optimal-total") -> Strategy:
    """The best play by two-card total only."""
    ev = sc.ev(pay)
    totals = [t for t in range(8) if sum(ev[TOTAL == t, 1]) > sum(ev[TOTAL == t, 0])]
    return Strategy.by_totals(name, totals)


def seat_ev(sc: SeatCounts, you: Strategy, pay: Fraction) -> Fraction:
    """Your EV per unit staked playing ``you`` against ``sc``'s other seats."""
    ev = sc.ev(pay)
    m = you.matrix
    return Fraction(sum(ev[u, w, int(m[u, w])] for u in range(VALUES) for w in range(VALUES)), sc.total)


@dataclass(frozen=True)
class Solved:
    """A strategy every seat plays, with your seat's counts against it."""

    strategy: Strategy
    counts: SeatCounts  # the others play ``strategy`` too
    iterations: int


def solve(seats: SeatCounter, players: int, pay: Fraction, kind: str, fixed: Strategy | None = None) -> Solved:
    """Everyone plays one strategy: ``fixed``, or the best response to itself (``kind``)."""
    if fixed is not None:
        return Solved(fixed, seats.seat(players, fixed), 0)
    respond = best_by_composition if kind == "optimal" else best_by_total
    if players == 1:  # nobody else at the table: one evaluation gives the best play
        sc = seats.seat(1, None)
        return Solved(respond(sc, pay, kind), sc, 1)
    # start from the optimum with one seat fewer, cheap next to this one and usually already the answer
    current = solve(seats, players - 1, pay, kind).strategy
    seen: list[tuple[tuple[bool, ...], ...]] = []
    for i in range(1, 20):
        sc = seats.seat(players, current)
        nxt = respond(sc, pay, kind)
        if nxt.draws == current.draws:
            return Solved(nxt, sc, i)
        if nxt.draws in seen:
            raise RuntimeError("best responses cycle: no strategy is a best response to itself")
        seen.append(current.draws)
        current = nxt
    raise RuntimeError("best responses did not settle")


def plays(counter: SeatCounter, rules: HouseBaccaratRules) -> tuple[Solved, Solved]:
    """The optimum (a symmetric equilibrium with several seats) and the play of this report, every seat playing it.

    An optimum by composition that depends on the total only is also the best play by total, so it is not
    searched for twice."""
    players, pay = rules.players, rules.pay
    optimum = solve(counter, players, pay, "optimal")
    if rules.fixed is None and (rules.kind == "optimal" or optimum.strategy.totals() is not None):
        same = optimum.strategy if rules.kind == "optimal" else Strategy(rules.kind, optimum.strategy.draws)
        return optimum, Solved(same, optimum.counts, optimum.iterations)
    return optimum, solve(counter, players, pay, rules.kind, rules.fixed)


# --- settling the wager ----------------------------------------------------------------------------


def main_wager(sc: SeatCounts, you: Strategy, pay: Fraction, strategy_text: str, notes: Sequence[str]) -> WagerResult:
    """Your hand against the house, per unit staked."""
    m = you.matrix
    agg = np.zeros((3, 4), dtype=object)  # [natural, stood, drew] x outcome
    for u in range(VALUES):
        for w in range(VALUES):
            row = 0 if NATURAL[u, w] else 2 if m[u, w] else 1
            agg[row] += sc.counts[:, u, w, int(m[u, w])]
    p = ratio_text(pay)
    rows = [
        Row("win_natural", "Your natural beats the house's two cards", p, pay, int(agg[0, WIN]),
            pay_ref="main.win", pay_coef=Fraction(1)),
        Row("push_natural", "Your natural ties the house's two cards", "push", Fraction(0), int(agg[0, PUSH])),
        Row("lose_natural", "Your natural loses to a higher house natural", "", Fraction(-1), int(agg[0, LOSS])),
    ]
    sit = int(agg[1, SIT_OUT] + agg[2, SIT_OUT])
    if sit:
        rows.append(Row("push_sit_out", "Another player shows a natural: you sit out", "push", Fraction(0), sit))
    for r, word in ((1, "stand"), (2, "draw")):
        verb = "You stand" if r == 1 else "You draw"
        for o, ev_id, text, units, shown in ((WIN, "win", "and win", pay, p),
                                             (PUSH, "push", "and tie", Fraction(0), "push"),
                                             (LOSS, "lose", "and lose", Fraction(-1), "")):
            if agg[r, o]:
                ref, coef = ("main.win", Fraction(1)) if o == WIN else ("", Fraction(0))
                rows.append(Row(f"{ev_id}_{word}", f"{verb} {text}", shown, units, int(agg[r, o]), pay_ref=ref,
                                pay_coef=coef))
    return WagerResult("main", "Your hand against the house", strategy_text, sc.total, tuple(rows), "unit staked",
                       notes=tuple(notes))
