"""House baccarat strategy cards as data: ordered rules over a seat's two cards, draw or stand.

A casino's chart for the house game (the rule sheet lets every player choose) is a TOML file that
``seats --others PATH`` accepts, so that a regulator can ask what one seat gains by leaving it when every
other seat plays it::

    card = "house-baccarat"
    title = "Draw on 0 to 4; on 5 only with a picture or a ten"
    otherwise = "stand"

    [[rules]]
    label = "0 to 4"
    when = { total = [0, 1, 2, 3, 4] }
    action = "draw"

    [[rules]]
    when = { total = 5, holds_any = "0" }
    action = "draw"

A rule holds when all its conditions do (a list means any of its values); the first rule that holds
decides. Features (CARD_FEATURES): ``total`` (the two-card total, 0 to 7: a natural never draws),
``holds_any`` and ``holds_all`` (point values held, written 0 to 9, or as ranks: A, 2 to 9, and T, 10,
J, Q, K for 0), and ``pair`` (true or false). A decision is a two-card composition by point values (44
of them, naturals aside), which is what a strategy of this game is: the card is played over all 44, so
a card that leaves one undecided without an ``otherwise``, or has a rule no composition reaches, is
refused with its file, line and key.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BeforeValidator, model_validator

from oddscalc.games import strategy_card
from oddscalc.games.strategy_card import as_tuple
from oddscalc.tables import Strict

Action = Literal["draw", "stand"]
CARD_FEATURES = ("total", "holds_any", "holds_all", "pair")
_ZERO = ("T", "10", "J", "Q", "K")  # the cards worth 0 besides a 0 itself
# the decisions: two point values, lowest first, whose total is no natural (house_baccarat.COMPOSITIONS, which
# imports this module to read a card)
COMPOSITIONS = tuple((u, w) for u in range(10) for w in range(u, 10) if (u + w) % 10 < 8)


def _value(v: Any) -> int:
    """A point value as a card writes it: 0 to 9, or a rank."""
    if isinstance(v, bool):
        raise ValueError(f"{v!r} is not a card")
    text = str(v).upper()
    if text in _ZERO:
        return 0
    if text == "A":
        return 1
    if text.isdigit() and 0 <= int(text) <= 9:
        return int(text)
    raise ValueError(f"{v!r} is not a card: write a point value 0 to 9, or a rank (A, 2 to 9, T, J, Q, K)")


def _values(name: str, given: Any) -> tuple[object, ...]:
    values = tuple(given) if isinstance(given, list) else (given,)
    if not values:
        raise ValueError(f"{name}: an empty list matches nothing")
    if name == "pair":
        if len(values) != 1 or not isinstance(values[0], bool):
            raise ValueError("pair is true or false")
        return values
    if name == "total":
        if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9 for v in values):
            raise ValueError("total is a two-card total 0 to 7, or a list of them")
        if any(v >= 8 for v in values):
            raise ValueError("total: 8 and 9 are naturals, which never draw; a card decides 0 to 7")
        return values
    return tuple(_value(v) for v in values)


def parse_when(value: Any) -> dict[str, tuple[object, ...]]:
    """Conditions of a card rule, each checked against its feature's values."""
    return strategy_card.parse_when(value, CARD_FEATURES, _values, '{ total = 5, holds_any = "0" }')


class CardRule(Strict):
    """One line of a card: when its conditions hold (and no earlier line's did), draw or stand."""

    label: str = ""
    when: Annotated[dict[str, tuple[object, ...]], BeforeValidator(parse_when)]
    action: Action


class DrawCard(Strict):
    """A house baccarat strategy card."""

    card: Literal["house-baccarat"]
    title: str
    source: str = ""
    rules: Annotated[tuple[CardRule, ...], BeforeValidator(as_tuple)]
    otherwise: Action | None = None

    @model_validator(mode="after")
    def _some_rule(self) -> DrawCard:
        if not self.rules:
            raise ValueError("a card needs at least one rule ([[rules]] with when and action)")
        return self


Card = strategy_card.Card[DrawCard]


def load_card(path: Path) -> Card:
    """Read and validate a house baccarat strategy card file (TableError with file, line and key otherwise)."""
    return strategy_card.load(path, DrawCard)


def _holds(name: str, values: Sequence[object], first: np.ndarray, second: np.ndarray) -> np.ndarray:
    if name == "total":
        return np.isin((first + second) % 10, np.array(values, dtype=np.int64))
    if name == "pair":
        return np.asarray((first == second) == values[0])
    if name == "holds_any":
        wanted = np.array(values, dtype=np.int64)
        return np.isin(first, wanted) | np.isin(second, wanted)
    out = np.ones(len(first), dtype=bool)
    for v in set(values):  # holds_all: a value written twice asks for both cards
        out &= (first == v).astype(np.int64) + (second == v).astype(np.int64) >= list(values).count(v)
    return out


def draws(card: Card) -> np.ndarray:
    """(10, 10) bool, by the two cards' point values: where the card draws (a natural never does). TableError for
    a rule no composition reaches, or a composition no rule decides without an ``otherwise``."""
    first = np.array([u for u, _ in COMPOSITIONS], dtype=np.int64)
    second = np.array([w for _, w in COMPOSITIONS], dtype=np.int64)

    def holds(r: strategy_card.Rule) -> np.ndarray:
        held = np.ones(len(COMPOSITIONS), dtype=bool)
        for name, values in r.when.items():
            held &= _holds(name, values, first, second)
        return held

    def example(point: tuple[int, ...]) -> str:
        u, w = COMPOSITIONS[point[0]]
        return f"{u} and {w} (total {(u + w) % 10})"

    drawn, _ = strategy_card.first_match(card, card.model.rules, "rules", (len(COMPOSITIONS),), holds,
                                         card.model.otherwise, "draw", example)
    m = np.zeros((10, 10), dtype=bool)
    for i in np.nonzero(drawn)[0]:
        u, w = COMPOSITIONS[int(i)]
        m[u, w] = m[w, u] = True
    return m


def name(card: Card) -> str:
    """The card as a report names the strategy it plays."""
    return f"the card {card.path.name} ({card.model.title})"
