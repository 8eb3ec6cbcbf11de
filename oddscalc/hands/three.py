"""Three-card poker hands over a whole deck, exactly: the ranking where a straight beats a flush.

With three cards a flush (1,096 of the 22,100 hands of 52 cards) is commoner than a straight (720), so three-card
games rank straight flush > three of a kind > straight > flush > pair > high card. A-2-3 is the lowest straight
(when the deck holds those ranks); A-K-Q suited, the best straight flush, is a ``mini_royal`` for the pay tables
that pay it apart (it is still a straight flush when hands are compared).

Counting argument: a deck of ``n`` cards has ``C(n, 3)`` hands, each stored at its colex row (as
:mod:`oddscalc.hands.five` does for five cards), so every hand is evaluated once. A hand's value is its class and
a tiebreak (trips and straights by one rank, the straight's top card with A-2-3 as 3-high; a pair by the pair's
rank then the kicker; flushes and high cards by their ranks from the top), packed into one integer
``(5 - class) * 13**3 + sum(tiebreak[i] * 13**(2 - i))`` that orders hands as the game does; equal hands (same
ranks, different suits, no flush told apart) get equal values, so a tie is an equal value.

:func:`three_card_class` is the plain-Python reference the vectorised table is tested against.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from oddscalc.cards import FULL_DECK, Deck, rank_of, suit_of
from oddscalc.hands.five import colex_combos

__all__ = ["THREE_CLASSES", "ThreeTable", "qualifier_value", "three_card_class", "three_card_key", "three_card_table"]

# Best first; ``mini_royal`` is the ace-high straight flush, named apart for the pay tables.
THREE_CLASSES: tuple[str, ...] = ("mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair",
                                  "high_card")
_SF, _TRIPS, _STRAIGHT, _FLUSH, _PAIR, _HIGH = range(6)  # ranking categories, best first (mini royal is _SF)
_STRIDE = 13**3


def _straight_top(ranks: Sequence[int], deck: Deck) -> int | None:
    """The top rank of three distinct ascending ranks that make a straight, else None (A-2-3 is 3-high)."""
    if ranks[2] - ranks[0] == 2:
        return ranks[2]
    if list(ranks) == [0, 1, 12] and {0, 1, 12} <= set(deck.ranks):
        return 1
    return None


def three_card_key(cards: Sequence[int], deck: Deck = FULL_DECK) -> tuple[str, int]:
    """The class (THREE_CLASSES) and packed value of three distinct cards (higher value: better hand)."""
    if len(cards) != 3 or len(set(cards)) != 3:
        raise ValueError(f"need 3 distinct cards, got {list(cards)}")
    ranks = sorted(rank_of(c) for c in cards)
    flush = len({suit_of(c) for c in cards}) == 1
    distinct = len(set(ranks))
    if distinct == 1:
        return "three_of_a_kind", (5 - _TRIPS) * _STRIDE + ranks[0] * 169
    if distinct == 2:
        pair = ranks[1]  # the middle card of three sorted ranks is always the pair's
        kicker = ranks[0] if ranks[0] != pair else ranks[2]
        return "pair", (5 - _PAIR) * _STRIDE + pair * 169 + kicker * 13
    top = _straight_top(ranks, deck)
    if top is not None:
        cat, name = (_SF, "straight_flush") if flush else (_STRAIGHT, "straight")
        if flush and ranks == [10, 11, 12]:
            name = "mini_royal"
        return name, (5 - cat) * _STRIDE + top * 169
    cat, name = (_FLUSH, "flush") if flush else (_HIGH, "high_card")
    return name, (5 - cat) * _STRIDE + ranks[2] * 169 + ranks[1] * 13 + ranks[0]


def three_card_class(cards: Sequence[int], deck: Deck = FULL_DECK) -> str:
    """The class of three cards in the THREE_CLASSES vocabulary ("mini_royal" .. "high_card")."""
    return three_card_key(cards, deck)[0]


def qualifier_value(category: str, ranks: Sequence[int] = ()) -> int:
    """The smallest packed value of a hand of ``category`` (a THREE_CLASSES name) whose tiebreak is at least
    ``ranks`` (missing ranks lowest): ``value >= qualifier_value("high_card", (Q,))`` is "queen-high or better"."""
    cat = {"mini_royal": _SF, "straight_flush": _SF, "three_of_a_kind": _TRIPS, "straight": _STRAIGHT,
           "flush": _FLUSH, "pair": _PAIR, "high_card": _HIGH}[category]
    padded = [*ranks, 0, 0, 0][:3]
    if any(not 0 <= r <= 12 for r in padded):
        raise ValueError(f"ranks must be 0..12, got {tuple(ranks)}")
    return (5 - cat) * _STRIDE + padded[0] * 169 + padded[1] * 13 + padded[2]


@dataclass(frozen=True, eq=False)
class ThreeTable:
    """Every three-card hand of ``deck``: its class code (into THREE_CLASSES) and value, rows in colex order."""

    deck: Deck
    cards: NDArray[np.int8] = field(repr=False)  # (N, 3) card ids of each row, ascending
    hand_class: NDArray[np.int8] = field(repr=False)  # (N,) index into THREE_CLASSES
    value: NDArray[np.int32] = field(repr=False)  # (N,) packed value: higher is better, equal is a tie

    def class_counts(self) -> dict[str, int]:
        """How many hands of the deck fall in each class."""
        counts = np.bincount(self.hand_class, minlength=len(THREE_CLASSES))
        return {c: int(n) for c, n in zip(THREE_CLASSES, counts)}


def three_card_table(deck: Deck = FULL_DECK) -> ThreeTable:
    """Evaluate every three-card hand of ``deck`` (cached per deck; arrays are read-only)."""
    return _three_card_table(deck)


@functools.cache
def _three_card_table(deck: Deck) -> ThreeTable:
    cards = np.array(deck.cards, dtype=np.int8)[colex_combos(deck.size, 3)]
    c = cards.astype(np.int64)
    r, s = np.sort(c >> 2, axis=1), c & 3
    flush = (s == s[:, :1]).all(axis=1)
    trips = r[:, 0] == r[:, 2]
    pair = ~trips & ((r[:, 0] == r[:, 1]) | (r[:, 1] == r[:, 2]))
    distinct = ~trips & ~pair
    wheel = distinct & (r[:, 0] == 0) & (r[:, 1] == 1) & (r[:, 2] == 12) & {0, 1, 12}.issubset(deck.ranks)
    straight = distinct & ((r[:, 2] - r[:, 0] == 2) | wheel)
    top = np.where(wheel, 1, r[:, 2])
    kicker = np.where(r[:, 0] == r[:, 1], r[:, 2], r[:, 0])
    cat = np.select([straight & flush, trips, straight, flush & distinct, pair], [_SF, _TRIPS, _STRAIGHT, _FLUSH,
                                                                                  _PAIR], _HIGH)
    tiebreak = np.select([straight, trips, pair], [top * 169, r[:, 0] * 169, r[:, 1] * 169 + kicker * 13],
                         r[:, 2] * 169 + r[:, 1] * 13 + r[:, 0])
    value = ((5 - cat) * _STRIDE + tiebreak).astype(np.int32)
    code = np.where(cat == _SF, np.where(r[:, 0] == 10, 0, 1), cat + 1).astype(np.int8)
    for arr in (cards, code, value):
        arr.flags.writeable = False
    return ThreeTable(deck, cards, code, value)
