"""Five-card poker hand evaluation over a whole deck, exactly (the family of best-five-card games).

Counting argument: a deck of ``n`` cards has ``C(n, 5)`` five-card hands (2,598,960 for 52
cards). Each hand is identified by its sorted deck positions ``p0 < p1 < ... < p4`` and
stored at row ``sum C(p_i, i + 1)`` (the colex rank), which is a bijection onto
``0 .. C(n, 5) - 1``; so every hand is evaluated exactly once and any per-hand count is a
plain sum over rows.

A hand's value is its class plus a tiebreak tuple of ranks (groups ordered by size then
rank, straights by their top card with the wheel as 5-high). Values are packed into one
integer ``(9 - class code) * 13**5 + sum(tiebreak[i] * 13**(4 - i))`` which orders hands
exactly as poker does (within one class the tiebreak length is fixed, so padding cannot
collide). The dense strength is the rank of that key among the keys that actually occur
in the deck, so equal hands share a strength and ``n_levels`` is 7,462 on 52 cards.

A hand's value depends only on its rank multiset and whether all five cards share a suit.
There are ``C(17, 5) = 6188`` multisets of 5 ranks; they are evaluated once, vectorised
(sorted ranks: the pattern of equal neighbours fixes the group structure and the tiebreak
positions). Which values occur in a deck follows from counting the ways to deal each
multiset: ``prod C(suits of rank r, copies of r)``, of which ``n_suits`` are suited when
the ranks are distinct. Each hand then needs one table lookup, driven by a small per-subset
state carried through the colex enumeration. ``hand_value`` is the independent
plain-Python oracle used by the tests.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from math import comb

import numpy as np
from numpy.typing import NDArray

from oddscalc.cards import FULL_DECK, Deck, rank_of, suit_of

__all__ = [
    "BINOM",
    "HAND_CLASSES",
    "HandClass",
    "HandTable",
    "colex_blocks",
    "colex_combos",
    "colex_index",
    "colex_indices",
    "compare_hands",
    "hand_table",
    "hand_value",
]


class HandClass(StrEnum):
    """The ten five-card poker classes, best first; the value is the table files' key."""

    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    PAIR = "pair"
    HIGH_CARD = "high_card"

    @property
    def label(self) -> str:
        """The class in words: "Royal flush"."""
        return self.value.replace("_", " ").capitalize()

    @property
    def code(self) -> int:
        """Index into ``HAND_CLASSES`` (0 = royal flush ... 9 = high card)."""
        return HAND_CLASSES.index(self)


HAND_CLASSES: tuple[HandClass, ...] = tuple(HandClass)

_RF, _SF, _QUADS, _FH, _FLUSH, _STRAIGHT, _TRIPS, _TWO_PAIR, _PAIR, _HIGH = range(10)

_MAX_DECK = 52
_MAX_K = 5
BINOM: NDArray[np.int64] = np.array(
    [[comb(n, k) for k in range(_MAX_K + 1)] for n in range(_MAX_DECK + 1)], dtype=np.int64
)
BINOM.flags.writeable = False
# C(n, k) for any small n, k (zero when k > n): counts ways to pick suits of one rank.
_BINOM_SMALL: NDArray[np.int64] = np.array(
    [[comb(n, k) for k in range(6)] for n in range(6)], dtype=np.int64
)


def colex_index(positions: NDArray[np.integer]) -> int:
    """Colex rank ``sum C(p_i, i + 1)`` of sorted deck positions ``p0 < p1 < ...`` (k <= 5)."""
    return sum(int(BINOM[int(p), i + 1]) for i, p in enumerate(positions))


def colex_indices(positions: NDArray[np.integer]) -> NDArray[np.int64]:
    """Vectorised colex rank of each row of an ``(m, k)`` array of sorted positions."""
    pos = np.asarray(positions, dtype=np.intp)
    k = pos.shape[-1]
    out: NDArray[np.int64] = BINOM[pos, np.arange(1, k + 1)].sum(axis=-1)
    return out


def colex_combos(n: int, k: int) -> NDArray[np.int8]:
    """All ``k``-subsets of ``range(n)`` as ascending rows, row ``i`` having colex rank ``i``."""
    if not 1 <= k <= n or n > 127:
        raise ValueError(f"need 1 <= k <= n <= 127, got n={n}, k={k}")
    combos = np.arange(n, dtype=np.int8)[:, None]
    for j in range(2, k + 1):
        nxt = np.empty((comb(n, j), j), dtype=np.int8)
        # Colex order lists the subsets of {0..t-1} first, so the rows with top element t
        # are the first C(t, j-1) rows of the (j-1)-subsets with t appended: block copies.
        for t, start, cnt in colex_blocks(n, j):
            nxt[start : start + cnt, : j - 1] = combos[:cnt]
            nxt[start : start + cnt, j - 1] = t
        combos = nxt
    return combos


def colex_blocks(n: int, k: int) -> list[tuple[int, int, int]]:
    """``(top, first row, row count)`` of each block of ``k``-subsets sharing a top element."""
    blocks = []
    start = 0
    for t in range(k - 1, n):
        cnt = comb(t, k - 1)
        blocks.append((t, start, cnt))
        start += cnt
    return blocks


def hand_value(cards: Sequence[int]) -> tuple[HandClass, tuple[int, ...]]:  # noqa: C901 - the rules, one case each
    """Class and tiebreak ranks of exactly five cards (plain-Python reference evaluator)."""
    if len(cards) != 5 or len(set(cards)) != 5:
        raise ValueError(f"need 5 distinct cards, got {list(cards)}")
    ranks = sorted((rank_of(c) for c in cards), reverse=True)
    flush = len({suit_of(c) for c in cards}) == 1
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    sizes = [n for _, n in groups]
    tiebreak = tuple(r for r, _ in groups)

    straight_high: int | None = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_high = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_high = 3

    if straight_high is not None and flush:
        cls = HandClass.ROYAL_FLUSH if straight_high == 12 else HandClass.STRAIGHT_FLUSH
        return cls, (straight_high,)
    if sizes == [4, 1]:
        return HandClass.FOUR_OF_A_KIND, tiebreak
    if sizes == [3, 2]:
        return HandClass.FULL_HOUSE, tiebreak
    if flush:
        return HandClass.FLUSH, tuple(ranks)
    if straight_high is not None:
        return HandClass.STRAIGHT, (straight_high,)
    if sizes == [3, 1, 1]:
        return HandClass.THREE_OF_A_KIND, tiebreak
    if sizes == [2, 2, 1]:
        return HandClass.TWO_PAIR, tiebreak
    if sizes == [2, 1, 1, 1]:
        return HandClass.PAIR, tiebreak
    return HandClass.HIGH_CARD, tuple(ranks)


def compare_hands(a: Sequence[int], b: Sequence[int]) -> int:
    """-1 if hand ``a`` loses to ``b``, 0 on a tie, +1 if ``a`` wins."""
    ca, ta = hand_value(a)
    cb, tb = hand_value(b)
    ka = (-HAND_CLASSES.index(ca), ta)
    kb = (-HAND_CLASSES.index(cb), tb)
    return (ka > kb) - (ka < kb)


_POW13 = np.array([13**4, 13**3, 13**2, 13, 1], dtype=np.int32)
_CLASS_STRIDE = 13**5


def _value_key(code: int, ranks: Sequence[int]) -> int:
    if len(ranks) > 5 or any(not 0 <= r <= 12 for r in ranks):
        raise ValueError(f"tiebreak must be at most 5 ranks in 0..12, got {tuple(ranks)}")
    return (9 - code) * _CLASS_STRIDE + sum(int(r) * int(p) for r, p in zip(ranks, _POW13))


def _pattern_tables() -> tuple[NDArray[np.intp], NDArray[np.int32], NDArray[np.int8]]:
    """Per equal-neighbour pattern: tiebreak positions, their weights, and the class code."""
    positions = np.zeros((16, 5), dtype=np.intp)
    weights = np.zeros((16, 5), dtype=np.int32)
    classes = np.full(16, _HIGH, dtype=np.int8)
    by_sizes = {
        (4, 1): _QUADS,
        (3, 2): _FH,
        (3, 1, 1): _TRIPS,
        (2, 2, 1): _TWO_PAIR,
        (2, 1, 1, 1): _PAIR,
        (1, 1, 1, 1, 1): _HIGH,
    }
    for pattern in range(16):
        groups: list[list[int]] = [[0]]
        for i in range(4):
            if pattern >> i & 1:
                groups[-1].append(i + 1)
            else:
                groups.append([i + 1])
        # Ranks ascend with position, so "higher rank" is "later position".
        groups.sort(key=lambda g: (len(g), g[0]), reverse=True)
        sizes = tuple(len(g) for g in groups)
        if sizes not in by_sizes:  # five of a kind: never dealt, its key is never used
            continue
        classes[pattern] = by_sizes[sizes]
        for i, g in enumerate(groups):
            positions[pattern, i] = g[0]
            weights[pattern, i] = _POW13[i]
    return positions, weights, classes


def _multiset_values() -> tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.int32]]:
    """Sorted ranks, class codes and value keys of every 5-rank multiset, without/with flush.

    Multiset ``a0 <= .. <= a4`` has index ``sum C(a_i + i, i + 1)`` (colex rank of the
    strictly increasing ``a_i + i`` in ``range(17)``). Returns ranks ``(6188, 5)`` and
    codes/keys ``(6188, 2)`` where column 1 assumes all five cards share a suit.
    """
    r = (colex_combos(17, 5) - np.arange(5, dtype=np.int8)).astype(np.int8)
    eq = r[:, 1:] == r[:, :-1]
    pattern = (eq * (1 << np.arange(4))).sum(axis=1)
    pos_t, w_t, cls_t = _pattern_tables()
    tb_ranks = np.take_along_axis(r, pos_t[pattern], axis=1).astype(np.int32)
    tb_key = (tb_ranks * w_t[pattern]).sum(axis=1, dtype=np.int32)
    plain = cls_t[pattern]

    no_pair = pattern == 0
    wheel = no_pair & (r[:, 4] == 12) & (r[:, 3] == 3)
    straight = (no_pair & (r[:, 4] - r[:, 0] == 4)) | wheel
    top = np.where(wheel, 3, r[:, 4]).astype(np.int32)
    plain = np.where(straight, np.int8(_STRAIGHT), plain)
    flushed = np.where(straight, np.int8(_SF), np.int8(_FLUSH))
    flushed = np.where(straight & (top == 12), np.int8(_RF), flushed)
    # Paired multisets cannot be suited; their flush column is never looked up.
    flushed = np.where(no_pair, flushed, plain)
    tb_key = np.where(straight, top * _POW13[0], tb_key)

    codes = np.stack([plain, flushed], axis=1).astype(np.int8)
    keys = (9 - codes.astype(np.int32)) * _CLASS_STRIDE + tb_key[:, None]
    return r, codes, keys


@dataclass(frozen=True, eq=False)
class HandTable:
    """Every 5-card hand of ``deck`` with its class and dense strength, rows in colex order."""

    deck: Deck
    # (n,) card ids of the deck, ascending
    cards: NDArray[np.int8] = field(repr=False)
    # (N,) dense strength: 0 = weakest value occurring in this deck, equal hands equal
    strength: NDArray[np.int16] = field(repr=False)
    # (N,) code into HAND_CLASSES
    hand_class: NDArray[np.int8] = field(repr=False)
    n_levels: int
    # (52,) deck position of each card id, -1 if not in the deck
    position: NDArray[np.int8] = field(repr=False)
    # (n_levels,) ascending packed value key of each strength
    level_keys: NDArray[np.int64] = field(repr=False)

    @functools.cached_property
    def combos(self) -> NDArray[np.int8]:
        """(N, 5) card ids, each row ascending; rows in colex order of deck positions (built when first asked)."""
        combos = self.cards[colex_combos(len(self.cards), 5)]
        combos.flags.writeable = False
        return combos

    def _positions(self, cards: Sequence[int]) -> list[int]:
        if len(cards) != 5 or len(set(cards)) != 5:
            raise ValueError(f"need 5 distinct cards, got {list(cards)}")
        pos = sorted(int(self.position[c]) if 0 <= c < 52 else -1 for c in cards)
        if pos[0] < 0:
            raise ValueError(f"cards {list(cards)} not all in {self.deck.describe()}")
        return pos

    def index(self, cards: Sequence[int]) -> int:
        """Row of a 5-card hand (cards in any order)."""
        return sum(int(BINOM[p, i + 1]) for i, p in enumerate(self._positions(cards)))

    def strength_of(self, cards: Sequence[int]) -> int:
        """Dense strength of one five-card hand."""
        return int(self.strength[self.index(cards)])

    def class_of(self, cards: Sequence[int]) -> HandClass:
        """The class of one five-card hand."""
        return HAND_CLASSES[int(self.hand_class[self.index(cards)])]

    def class_counts(self) -> dict[HandClass, int]:
        """How many hands of the deck fall in each class."""
        counts = np.bincount(self.hand_class, minlength=len(HAND_CLASSES))
        return {c: int(n) for c, n in zip(HAND_CLASSES, counts)}

    def strength_at_least(self, cls: HandClass, ranks: tuple[int, ...] = ()) -> int:
        """Smallest strength of a hand of ``cls`` with tiebreak >= ``ranks`` (lexicographic).

        Missing trailing ranks count as lowest. If no such hand of ``cls`` exists in this
        deck, the strength of the next better occurring hand is returned (``n_levels`` if
        none), so ``strength >= strength_at_least(...)`` is always the qualifier test.
        """
        key = _value_key(HAND_CLASSES.index(cls), ranks)
        return int(np.searchsorted(self.level_keys, key, side="left"))


def hand_table(deck: Deck = FULL_DECK) -> HandTable:
    """Evaluate every 5-card hand of ``deck`` (cached per deck; arrays are read-only)."""
    return _hand_table(deck)


@functools.cache
def _hand_table(deck: Deck) -> HandTable:
    """Build the table.

    A hand's value depends only on its rank multiset and whether it is suited, so the 6188
    multisets are evaluated once and every hand is a table lookup. Hands are built in
    colex order card by card; since a later card never has a lower rank, appending rank
    ``r`` as the ``i``-th card just adds ``C(r + i, i + 1)`` to the multiset index, and a
    per-subset state (multiset index, common suit or mixed) is carried block by block.
    """
    cards = np.array(deck.cards, dtype=np.int8)
    n = len(cards)
    if n < 5:
        raise ValueError(f"{deck.describe()} has fewer than 5 cards")
    position = np.full(52, -1, dtype=np.int8)
    position[cards] = np.arange(n, dtype=np.int8)
    ranks = (cards >> 2).astype(np.int64)
    suits = (cards & 3).astype(np.int64)
    mixed = 4

    ms_ranks, codes, keys = _multiset_values()
    # Which (multiset, suited) values can be dealt from this deck decides the dense levels.
    cells = (np.arange(len(ms_ranks))[:, None] * 13 + ms_ranks).ravel()
    counts = np.bincount(cells, minlength=len(ms_ranks) * 13).reshape(len(ms_ranks), 13)
    per_rank = np.bincount(ranks, minlength=13)  # suits held of each rank
    ways = np.ones(len(ms_ranks), dtype=np.int64)
    for rk in range(13):
        ways *= _BINOM_SMALL[per_rank[rk], counts[:, rk]]
    distinct = (counts <= 1).all(axis=1)
    suited_ways = np.where(distinct & (ways > 0), deck.n_suits, 0)
    dealt = np.stack([ways - suited_ways, suited_ways], axis=1) > 0
    level_keys = np.unique(keys[dealt]).astype(np.int64)
    level_of = np.searchsorted(level_keys, keys).astype(np.int16)

    # state = multiset index * 5 + (common suit, or 4 when mixed); built for 1..4 cards.
    state = (ranks * 5 + suits).astype(np.int16)
    for k in range(2, 5):
        nxt = np.empty(comb(n, k), dtype=np.int16)
        old_ms, old_suit = np.divmod(np.arange(comb(13 + k - 2, k - 1) * 5), 5)
        for t, start, cnt in colex_blocks(n, k):
            new_ms = old_ms + comb(int(ranks[t]) + k - 1, k)
            new_suit = np.where(old_suit == suits[t], suits[t], mixed)
            trans = (new_ms * 5 + new_suit).astype(np.int16)
            nxt[start : start + cnt] = trans[state[:cnt]]
        state = nxt

    n_states4 = comb(16, 4) * 5
    old_ms, old_suit = np.divmod(np.arange(n_states4), 5)
    strength = np.empty(comb(n, 5), dtype=np.int16)
    index = state.astype(np.intp)
    for t, start, cnt in colex_blocks(n, 5):
        new_ms = np.minimum(old_ms + comb(int(ranks[t]) + 4, 5), len(ms_ranks) - 1)  # unreachable states overshoot
        np.take(level_of[new_ms, (old_suit == suits[t]).astype(np.intp)], index[:cnt], out=strength[start:start + cnt])
    # a level is one value, so it has one class: one gather from a 7,462-entry table, not a second pass
    class_of_level = np.zeros(len(level_keys), dtype=np.int8)
    class_of_level[level_of[dealt]] = codes[dealt]
    hand_class = class_of_level[strength]

    for arr in (cards, position, strength, hand_class, level_keys):
        arr.flags.writeable = False
    return HandTable(
        deck=deck,
        cards=cards,
        strength=strength,
        hand_class=hand_class,
        n_levels=len(level_keys),
        position=position,
        level_keys=level_keys,
    )
