"""The house game's seat counter built as the seats command builds it, on whole decks or on a shoe of a few
ranks (the small shoes whose every strategy or every deal the seat and proof tests enumerate)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.games.house_baccarat.count import HouseBaccaratRules, SeatCounter
from oddscalc.games.house_baccarat.game import HouseBaccarat
from oddscalc.games.shoe import Shoe
from oddscalc.protocol import Rules
from oddscalc.results import RunOptions


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
