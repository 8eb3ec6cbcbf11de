"""The house game's seat counter built as the seats command builds it, on whole decks or on a shoe of a few
ranks (the small shoes whose every strategy or every deal the seat and proof tests enumerate)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields
from itertools import combinations

import numpy as np

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.games.house_baccarat.count import HouseBaccaratRules, SeatCounter, SeatCounts
from oddscalc.games.house_baccarat.game import HouseBaccarat
from oddscalc.games.shoe import Shoe
from oddscalc.protocol import Rules
from oddscalc.results import RunOptions
from oddscalc.seats.search import Draws, strategy_of
from oddscalc.seats.two_seats import dealt_here
from oracles.shared import shared


@dataclass(frozen=True)
class SmallShoe(HouseBaccaratRules):
    """The house game's rules on a shoe of a few ranks (tables only name whole decks)."""

    small: Shoe | None = None

    @property
    def shoe(self) -> Shoe:
        """The small shoe in place of the table's decks."""
        assert self.small is not None
        return self.small


def on_shoe(rules: Rules, shoe: Shoe) -> SmallShoe:
    """The house game's ``rules`` (resolved from a table) with ``shoe`` in place of the table's decks."""
    assert isinstance(rules, HouseBaccaratRules)
    return SmallShoe(**{f.name: getattr(rules, f.name) for f in fields(rules)}, small=shoe)


def seat_counter(decks: int, players: int, shoe: Shoe | None = None) -> SeatCounter:
    """The seed table's seat counter for ``players`` seats on ``decks`` decks, or on ``shoe`` when given; it
    stores nothing (each test counts afresh)."""
    session = Session("house-baccarat", RunOptions(decks=decks, players=players), Store(None))
    rules = session.resolve("seed")
    assert isinstance(rules, HouseBaccaratRules)
    if shoe is not None:
        rules = on_shoe(rules, shoe)
    game = session.game
    assert isinstance(game, HouseBaccarat)
    return SeatCounter(rules, Store(None), game)


@functools.cache
def every_seat(players: int, ranks: tuple[tuple[str, int], ...]) -> dict[Draws, SeatCounts]:
    """Your seat's plain counts (``SeatCounter.seat``) with every seat playing each strategy over the compositions
    a small shoe deals: the oracle of the tests that try every strategy of a small shoe (their values, which are
    equilibria), counted once for the run's workers (32 three-seat counts for five compositions, seconds)."""
    counts = shared(f"every_seat {players} {ranks}", lambda: _every_seat(players, ranks))
    return {d: SeatCounts(c, total, strategy_of(d, "tried")) for d, (c, total) in counts.items()}


def _every_seat(players: int, ranks: tuple[tuple[str, int], ...]) -> dict[Draws, tuple[np.ndarray, int]]:
    counter = seat_counter(1, players, Shoe.from_ranks(dict(ranks)))
    dealt = sorted(dealt_here(counter))
    out: dict[Draws, tuple[np.ndarray, int]] = {}
    for k in range(len(dealt) + 1):
        for drawn in combinations(dealt, k):
            sc = counter.seat(players, strategy_of(frozenset(drawn), "tried"))
            out[frozenset(drawn)] = (sc.counts, sc.total)
    return out
