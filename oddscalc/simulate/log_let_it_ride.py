"""Let It Ride rounds for a hand log: when each of bets 1 and 2 rides (optimal play, or a player who sees the first
community card before bet 1), and what the three bets pay together.

Optimal play is the exact engine's: its solved pull-back decisions for the table's pays (``games.let_it_ride.settle
.solve``), one per suit class of three- and four-card holdings, each dealt holding mapped to its class by
``symmetry.suit_class_index``. A player under an information model (``--knows let-it-ride-flash-first-community``)
knows four cards at both decisions: the EV of a bet ridden is then the mean over the 48 last community cards, the
same for bets 1 and 2, and both ride exactly when it is positive (or zero, with ``ride_on_zero``). That EV is
found by the simulator's own enumeration (``simulate.let_it_ride.RideDecisions``: its own evaluator), apart from
the engine and from the audit's evidence, so a log stays an independent test input. The round is settled by the
simulator's evaluator too: the final hand's pay (or -1) on every bet in play, in base bets.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from oddscalc.analysis import Session
from oddscalc.cards import FULL_DECK, parse_rank
from oddscalc.games.let_it_ride.count import PAYING, HoldingCounts
from oddscalc.games.let_it_ride.game import LetItRideRules
from oddscalc.games.let_it_ride.settle import solve
from oddscalc.games.let_it_ride.table import LetItRideTable
from oddscalc.hands import colex_indices
from oddscalc.protection.glimpse import Model
from oddscalc.protocol import OptionError
from oddscalc.simulate.arrays import BoolArray, IntArray
from oddscalc.simulate.evaluator import strength
from oddscalc.simulate.let_it_ride import LIR_CLASSES, RideDecisions, lir_class
from oddscalc.symmetry import suit_class_index
from oddscalc.tables import Table

Rider = Callable[[IntArray], tuple[BoolArray, BoolArray]]  # (n, 5) dealt cards -> (bet 1 rides, bet 2 rides)


def _distinct(cards: IntArray) -> BoolArray:
    """Rows whose cards are all different (a doubled card may deal one twice: no holding class holds that row)."""
    ordered = np.sort(cards, axis=1)
    return np.asarray(~(ordered[:, 1:] == ordered[:, :-1]).any(axis=1))


def optimal_rider(table: Table) -> Rider:
    """The exact engine's optimal pull-backs for the table's pays, looked up per dealt holding's suit class."""
    session = Session("let-it-ride")
    rules = session.resolve(table)
    assert isinstance(rules, LetItRideRules)
    if rules.deck != FULL_DECK:
        raise OptionError("simulate --log deals Let It Ride from a full deck")
    counts = session.counts(rules)
    assert isinstance(counts, HoldingCounts)
    pays = [getattr(rules.model.pays.main, c.value) for c in PAYING]
    sol = solve(counts, pays, rules.ride_on_zero)
    class3, class4 = suit_class_index(3, FULL_DECK), suit_class_index(4, FULL_DECK)

    def rides(cards: IntArray) -> tuple[BoolArray, BoolArray]:
        n = len(cards)
        ride1, ride2 = np.ones(n, dtype=bool), np.ones(n, dtype=bool)  # a card dealt twice: ride (any choice does)
        ok3, ok4 = _distinct(cards[:, :3]), _distinct(cards[:, :4])
        ride1[ok3] = sol.ride1[class3[colex_indices(np.sort(cards[ok3, :3], axis=1))]]
        ride2[ok4] = sol.ride2[class4[colex_indices(np.sort(cards[ok4, :4], axis=1))]]
        return ride1, ride2

    return rides


def informed_rider(table: Table, model: Model) -> Rider:
    """A player who sees the first community card before bet 1: both bets ride by the exact EV on four cards."""
    tab = table.model
    assert isinstance(tab, LetItRideTable)
    shown = [(g.position, g.shows) for g in model.glimpses]
    if shown != [("community_1", "card")]:
        raise OptionError(f"--knows {model.id}: simulate reads a model that shows the first community card outright "
                          "(let-it-ride-flash-first-community)")
    pays = [Fraction(getattr(tab.pays.main, name)) for name in LIR_CLASSES]
    den = math.lcm(*(p.denominator for p in pays))
    values = np.array([int(p * den) for p in pays] + [-den], dtype=np.int64)
    four = RideDecisions(4, values, parse_rank(tab.rules.min_pair), tab.rules.ride_on_zero)

    def rides(cards: IntArray) -> tuple[BoolArray, BoolArray]:
        ride = np.ones(len(cards), dtype=bool)
        ok = _distinct(cards[:, :4])
        ride[ok] = four.ride(cards[ok, :4])
        return ride, ride.copy()

    return rides


class Settler:
    """What the three bets of a Let It Ride round pay together, in base bets, exact (the simulator's evaluator)."""

    def __init__(self, table: Table):
        tab = table.model
        assert isinstance(tab, LetItRideTable)
        self.min_rank = parse_rank(tab.rules.min_pair)
        self.units = [Fraction(getattr(tab.pays.main, name)) for name in LIR_CLASSES] + [Fraction(-1)]

    def settle(self, cards: IntArray, ride1: BoolArray, ride2: BoolArray) -> list[Fraction]:
        """Per round, the net units of the bets in play (bet 3 always plays)."""
        cls = lir_class(strength(cards), self.min_rank)
        bets = 1 + ride1.astype(np.int64) + ride2.astype(np.int64)
        return [self.units[c] * b for c, b in zip(cls.tolist(), bets.tolist())]


__all__ = ["Rider", "Settler", "informed_rider", "optimal_rider"]
