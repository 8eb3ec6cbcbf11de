"""The simulator's own poker evaluator: five-card strengths and three-card classes, vectorised.

It is written apart from the exact engine's (``oddscalc.hands``) on purpose: a Monte Carlo check
that reused the engine's evaluation would repeat any mistake in it. Card ids are ``rank * 4 + suit``
with ranks 0..12 for 2..A (``oddscalc.cards``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..cards import N_RANKS
from .arrays import BoolArray, IntArray

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
                  "four_of_a_kind", "straight_flush")
_B = N_RANKS  # tie-break ranks are digits in base 13
_CATEGORY_UNIT = _B**5
_TOP_UNIT = _B**4
_DIGITS = _B ** np.arange(4, -1, -1, dtype=np.int64)


def strength(cards: npt.ArrayLike) -> IntArray:
    """Poker strength of five-card hands, shape (..., 5) of card ids: higher beats lower, equal ties.

    strength = category * 13**5 + tie-break, the tie-break being the ranks ordered by (how many of
    the rank, rank) as base-13 digits (for a straight only its top card; the wheel A-2-3-4-5 is 5-high).
    """
    c = np.asarray(cards, dtype=np.int64)
    ranks = c >> 2
    suits = c & 3
    flush = np.all(suits == suits[..., :1], axis=-1)
    count = (ranks[..., :, None] == ranks[..., None, :]).sum(axis=-1)
    key = np.sort(count * 16 + ranks, axis=-1)[..., ::-1]
    ordered = key & 15
    shape = key >> 4  # multiplicities, largest first: 4 4 4 4 1, 3 3 3 2 2, 2 2 2 2 1, ...
    distinct = shape[..., 0] == 1
    wheel = distinct & (ordered[..., 0] == 12) & (ordered[..., 1] == 3)
    straight = distinct & ((ordered[..., 0] - ordered[..., 4] == 4) | wheel)
    category = np.select(
        [straight & flush, shape[..., 0] == 4, (shape[..., 0] == 3) & (shape[..., 3] == 2), flush, straight,
         shape[..., 0] == 3, (shape[..., 0] == 2) & (shape[..., 2] == 2), shape[..., 0] == 2],
        [STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS, TWO_PAIR, PAIR], HIGH_CARD)
    tiebreak = ordered @ _DIGITS
    top = np.where(wheel, 3, ordered[..., 0])
    tiebreak = np.where(straight, top * _TOP_UNIT, tiebreak)
    return np.asarray(category * _CATEGORY_UNIT + tiebreak, dtype=np.int64)


def strength_floor(category: int, leading: Sequence[int]) -> int:
    """The weakest strength of ``category`` whose tie-break starts with the ranks ``leading``
    (e.g. ``(PAIR, (2, 2))`` for the weakest pair of fours, ``(HIGH_CARD, (12, 11))`` for ace-king)."""
    if len(leading) > 5 or not all(0 <= r < _B for r in leading):
        raise ValueError(f"not a tie-break: {leading!r}")
    return int(category * _CATEGORY_UNIT + sum(r * _B ** (4 - i) for i, r in enumerate(leading)))


def category_of(s: npt.ArrayLike) -> IntArray:
    """HIGH_CARD .. STRAIGHT_FLUSH of each strength."""
    return np.asarray(s, dtype=np.int64) // _CATEGORY_UNIT


def top_rank_of(s: npt.ArrayLike) -> IntArray:
    """The first tie-break rank: a straight's top card, the rank of a pair, trips or quads, the high card."""
    return (np.asarray(s, dtype=np.int64) // _TOP_UNIT) % _B


def is_royal(s: npt.ArrayLike) -> BoolArray:
    """Whether each strength is an ace-high straight flush."""
    return np.asarray((category_of(s) == STRAIGHT_FLUSH) & (top_rank_of(s) == 12))


def hand_name(cards: Sequence[int]) -> str:
    """One hand's class in the table files' vocabulary ("royal_flush", "two_pair", ...)."""
    s = strength(np.array([list(cards)]))
    return "royal_flush" if bool(is_royal(s)[0]) else CATEGORY_NAMES[int(category_of(s)[0])]


def three_card_classes(cards: npt.ArrayLike) -> npt.NDArray[np.str_]:
    """Three-card poker class of (..., 3) card ids: mini_royal (suited A-K-Q) > straight_flush >
    three_of_a_kind > straight > flush > pair > loss; A-2-3 is a straight."""
    c = np.asarray(cards, dtype=np.int64)
    r = np.sort(c >> 2, axis=-1)
    s = c & 3
    flush = np.all(s == s[..., :1], axis=-1)
    trips = (r[..., 0] == r[..., 2])
    pair = ~trips & ((r[..., 0] == r[..., 1]) | (r[..., 1] == r[..., 2]))
    distinct = ~trips & ~pair
    straight = distinct & ((r[..., 2] - r[..., 0] == 2) | ((r[..., 0] == 0) & (r[..., 1] == 1) & (r[..., 2] == 12)))
    mini_royal = straight & flush & (r[..., 0] == 10)
    return np.select([mini_royal, straight & flush, trips, straight, flush, pair],
                     ["mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair"], "loss")
