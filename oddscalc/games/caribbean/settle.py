"""Caribbean Stud settled: a pay table under every named strategy at once, from the raise table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.games.caribbean import raise_table
from oddscalc.games.caribbean.raise_table import FIXED, N_PAY, STRATEGIES, RaiseTable, fixed_decisions
from oddscalc.games.caribbean.table import RaisePays
from oddscalc.hands import HAND_CLASSES
from oddscalc.protocol import OptionError
from oddscalc.results import Section

if TYPE_CHECKING:
    from oddscalc.games.caribbean.card import Card

N_CLOSE = 10  # closest decisions reported
CARD = "card"  # the strategy name of a strategy card file


@dataclass(frozen=True)
class Settled:
    """One pay table settled: tallies of every named strategy, the chosen strategy's charts."""

    strategy: str
    tallies: dict[str, np.ndarray]  # strategy -> (N_PAY, 5)
    ak_raised: np.ndarray  # (13, 13) by [third-highest rank, up-card rank], chosen strategy
    ak_total: np.ndarray
    closest: tuple[tuple[int, int, Fraction, bool], ...]  # (row, up-card slot, raise - fold EV, raised)
    decision: Callable[[], np.ndarray] | None = None  # (m, n-5) bool by sorted position: raise (chosen strategy)
    card_cost: Section | None = None  # a strategy card's cost against optimal, rule by rule

    @property
    def tally(self) -> np.ndarray:
        """The chosen strategy's tally."""
        return self.tallies[self.strategy]


def pay_list(pays: RaisePays) -> list[Fraction]:
    """The raise pay of each pay class (ace-king and other high card share high_card)."""
    return [getattr(pays, c.value) for c in HAND_CLASSES[:9]] + [pays.high_card, pays.high_card, Fraction(0)]


def settle_counts(rt: RaiseTable, pays: RaisePays, strategy: str = "optimal", closest: bool = True,
                  card: Card | None = None) -> Settled:
    """Settle one pay table under every named strategy, and the card when given (``strategy`` picks the
    charts and decisions: a name, or CARD)."""
    if strategy not in STRATEGIES and not (strategy == CARD and card is not None):
        raise OptionError(f"unknown strategy {strategy!r} for caribbean; one of: {', '.join(STRATEGIES)}")
    by_class = pay_list(pays)
    opt = raise_table.optimal(rt, by_class)
    nu = rt.keys.shape[1]
    tallies = {"optimal": opt.tally, **{name: rt.fixed_tally[i] for i, name in enumerate(FIXED)}}
    from oddscalc.games.caribbean import card as raise_card  # only a card run needs it

    played = raise_card.play(card, rt) if card is not None else None
    if played is not None:
        tallies[CARD] = raise_card.tally(rt, played.raised, N_PAY)

    def by_slot(rows: slice) -> np.ndarray:  # (rows, nu) bool by up-card slot, for a fixed strategy or the card
        if played is not None:
            return played.raised[rows]
        ups = raise_table.up_cards(rt.deck, rt.reps[rows])
        return fixed_decisions(strategy, rt.pay_class[rows], rt.reps[rows], ups)

    def decision() -> np.ndarray:  # by (hand, sorted position): the same points for every pay table
        if strategy == "optimal":
            return opt.sorted_raised(nu)
        return np.take_along_axis(by_slot(slice(None)), rt.perm.astype(np.int64), axis=1)

    if strategy == "optimal":
        ak_raised = raise_table.ak_chart(rt, opt)
    elif played is not None:
        ak_raised = raise_card.ak_chart(rt, played.raised)
    else:
        ak_raised = rt.fixed_ak[FIXED.index(strategy)]
    nearest = _closest(rt, by_class, strategy, by_slot) if closest else ()
    cost = None
    if played is not None and card is not None and closest:
        section, whole = raise_card.cost_section(card, rt, played, opt.sorted_raised(nu), by_class)
        cost = section
        gap = _ev(rt, pays, opt.tally) - _ev(rt, pays, tallies[CARD])
        if whole != gap:
            raise AssertionError(f"the card's cost by rule {whole} does not add up to optimal minus card {gap}")
    return Settled(strategy, tallies, ak_raised, rt.ak_total, nearest, decision, cost)


def _ev(rt: RaiseTable, pays: RaisePays, tally: np.ndarray) -> Fraction:
    p = pay_list(pays)
    t = [[int(x) for x in row] for row in tally.tolist()]
    units = sum(-r[0] + r[1] + r[2] * (1 + 2 * p[k]) - 3 * r[4] for k, r in enumerate(t))
    return Fraction(units, rt.total)


def _closest(rt: RaiseTable, by_class: list[Fraction], strategy: str,
             by_slot: Callable[[slice], np.ndarray]) -> tuple[tuple[int, int, Fraction, bool], ...]:
    """The N_CLOSE decisions with the smallest |raise EV - fold EV|, with the chosen strategy's decision."""
    out = []
    for i, ui, gap in raise_table.closest(rt, by_class, N_CLOSE):
        raised = gap > 0 if strategy == "optimal" else bool(by_slot(slice(i, i + 1))[0, ui])
        out.append((i, ui, gap, raised))
    return tuple(out)
