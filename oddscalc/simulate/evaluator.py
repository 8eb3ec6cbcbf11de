"""The simulator's own poker evaluator: five-card strengths and three-card classes, vectorised.

It is written apart from the exact engine's (``oddscalc.hands``) on purpose: a Monte Carlo check
that reused the engine's evaluation would repeat any mistake in it. Card ids are ``rank * 4 + suit``
with ranks 0..12 for 2..A (``oddscalc.cards``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from oddscalc.cards import N_RANKS
from oddscalc.simulate.arrays import BoolArray, IntArray

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
                  "four_of_a_kind", "straight_flush")
_B = N_RANKS  # tie-break ranks are digits in base 13
_CATEGORY_UNIT = _B**5
_TOP_UNIT = _B**4
_DIGITS = _B ** np.arange(4, -1, -1, dtype=np.int64)


def _runs() -> tuple[IntArray, IntArray]:
    """For each pattern of equal neighbours among five sorted ranks (bit i: rank i == rank i + 1):
    the positions in tie-break order (larger groups first, higher ranks first) and the category
    the multiplicities make (ignoring flushes and straights)."""
    order = np.zeros((16, 5), dtype=np.int64)
    category = np.zeros(16, dtype=np.int64)
    by_sizes = {(1, 1, 1, 1, 1): HIGH_CARD, (2, 1, 1, 1): PAIR, (2, 2, 1): TWO_PAIR, (3, 1, 1): TRIPS,
                (3, 2): FULL_HOUSE, (4, 1): QUADS, (5,): QUADS}  # five of a kind cannot be dealt from one deck
    for pattern in range(16):
        groups = [[0]]
        for i in range(4):
            if not pattern >> i & 1:
                groups.append([])
            groups[-1].append(i + 1)
        groups.sort(key=lambda g: (len(g), g[-1]), reverse=True)  # later position = higher rank
        order[pattern] = [i for g in groups for i in g]
        category[pattern] = by_sizes[tuple(len(g) for g in groups)]
    return order, category


_ORDER, _RUN_CATEGORY = _runs()
_BITS = np.array([1, 2, 4, 8], dtype=np.int64)


def strength(cards: npt.ArrayLike) -> IntArray:
    """Poker strength of five-card hands, shape (..., 5) of card ids: higher beats lower, equal ties.

    strength = category * 13**5 + tie-break, the tie-break being the ranks ordered by (how many of
    the rank, rank) as base-13 digits (for a straight only its top card; the wheel A-2-3-4-5 is 5-high).
    The ranks are sorted once; which neighbours are equal (16 patterns) says how they group.
    """
    c = np.asarray(cards).astype(np.int8)  # small integers all the way: memory traffic is the cost here
    ranks = np.sort(c >> 2, axis=-1)
    suits = c & 3
    flush = np.all(suits == suits[..., :1], axis=-1)
    pattern = (ranks[..., 1:] == ranks[..., :-1]) @ _BITS
    ordered = np.take_along_axis(ranks, _ORDER[pattern], axis=-1).astype(np.int64)
    plain = _RUN_CATEGORY[pattern]
    distinct = pattern == 0
    wheel = distinct & (ranks[..., 4] == 12) & (ranks[..., 3] == 3)
    straight = distinct & ((ranks[..., 4] - ranks[..., 0] == 4) | wheel)
    category = np.select([straight & flush, plain >= FULL_HOUSE, flush, straight],
                         [STRAIGHT_FLUSH, plain, FLUSH, STRAIGHT], plain)
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


# three-card categories (the three-card ranking: a straight beats a flush), worst first as in ``strength``
THREE_HIGH, THREE_PAIR, THREE_FLUSH, THREE_STRAIGHT, THREE_TRIPS, THREE_STRAIGHT_FLUSH = range(6)
THREE_NAMES = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")
_THREE_UNIT = _B**3


def three_card_strength(cards: npt.ArrayLike) -> IntArray:
    """Three-card strength of (..., 3) card ids: higher beats lower, equal ties (suits never break a tie).

    strength = category * 13**3 + tie-break: the ranks from the top for a high card or a flush; the pair's rank
    then the kicker; the rank of trips; a straight's top card, A-2-3 the lowest straight (3-high)."""
    c = np.asarray(cards, dtype=np.int64)
    r = np.sort(c >> 2, axis=-1)
    lo, mid, hi = r[..., 0], r[..., 1], r[..., 2]
    suits = c & 3
    flush = np.all(suits == suits[..., :1], axis=-1)
    trips = lo == hi
    pair = ~trips & ((lo == mid) | (mid == hi))
    a23 = (lo == 0) & (mid == 1) & (hi == 12)
    straight = ~trips & ~pair & ((hi - lo == 2) | a23)
    category = np.select([straight & flush, trips, straight, flush, pair],
                         [THREE_STRAIGHT_FLUSH, THREE_TRIPS, THREE_STRAIGHT, THREE_FLUSH, THREE_PAIR], THREE_HIGH)
    kicker = np.where(lo == mid, hi, lo)  # the card the pair (always the middle rank) leaves
    tiebreak = np.select([straight, trips, pair],
                         [np.where(a23, 1, hi) * _B**2, mid * _B**2, mid * _B**2 + kicker * _B],
                         hi * _B**2 + mid * _B + lo)
    return np.asarray(category * _THREE_UNIT + tiebreak, dtype=np.int64)


def three_card_floor(category: int, leading: Sequence[int]) -> int:
    """The weakest three-card strength of ``category`` whose tie-break starts with ``leading`` (queen-high:
    ``(THREE_HIGH, (10,))``)."""
    if len(leading) > 3 or not all(0 <= r < _B for r in leading):
        raise ValueError(f"not a three-card tie-break: {leading!r}")
    return int(category * _THREE_UNIT + sum(r * _B ** (2 - i) for i, r in enumerate(leading)))


def three_card_category(s: npt.ArrayLike) -> IntArray:
    """THREE_HIGH .. THREE_STRAIGHT_FLUSH of each three-card strength."""
    return np.asarray(s, dtype=np.int64) // _THREE_UNIT


def three_card_top(s: npt.ArrayLike) -> IntArray:
    """The first tie-break rank of each three-card strength (a straight flush's top card: 12 a mini royal)."""
    return (np.asarray(s, dtype=np.int64) // _B**2) % _B


_THREE_CLASSES = np.array(["loss", "pair", "flush", "straight", "three_of_a_kind", "straight_flush"])


def three_card_classes(cards: npt.ArrayLike) -> npt.NDArray[np.str_]:
    """Three-card poker class of (..., 3) card ids: mini_royal (suited A-K-Q) > straight_flush >
    three_of_a_kind > straight > flush > pair > loss; A-2-3 is a straight (from ``three_card_strength``)."""
    s = three_card_strength(cards)
    category = three_card_category(s)
    mini_royal = (category == THREE_STRAIGHT_FLUSH) & (three_card_top(s) == 12)
    return np.asarray(np.where(mini_royal, "mini_royal", _THREE_CLASSES[category]))
