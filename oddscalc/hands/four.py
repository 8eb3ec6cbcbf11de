"""Four-card poker hands, and the best four of more cards, over a whole deck, exactly (Four Card Poker's ranking).

With four cards three of a kind (2,496 of the 270,725 hands of 52 cards) is rarer than a flush (2,808), and a
straight flush (44) rarer than four of a kind (13) is not, so Four Card Poker (Shuffle Master) ranks four of a kind
> straight flush > three of a kind > flush > straight > two pair > pair > high card. A-2-3-4 is the lowest
straight, A-K-Q-J the highest. The same order ranks the four cards the baccarat poker bets read
(``games.punto_banco.card_hands``), where a shoe can repeat a card: a set takes the first class of the order it
makes (9h 9h 5h 3h is a flush, not a pair), which on one deck is simply its class.

A hand's value is its class and its ranks ordered by how often they appear, then by rank, both from the top
(quads; trips then the kicker; the high pair, the low pair; a pair then its kickers; flushes and high cards by
their ranks; straights by the top card, A-2-3-4 as 4-high), packed into one integer
``(7 - class) * 13**4 + sum(rank[i] * 13**(3 - i))`` that orders hands as the game compares them; equal hands
(same ranks, suits not told apart) get equal values, so a tie is an equal value. The strength tables hold each
value's position among the values that occur on a full deck (a few thousand, so 16 bits), the same on every deck.

Counting argument for the best four of ``k`` cards (five for the player of Four Card Poker, six for its dealer):
a ``k``-set's best four is the best of its ``k`` subsets of ``k - 1`` cards, each a row of the ``k - 1`` table.
The ``C(n, k)`` sets are taken in colex order, block by block of their highest card ``t``: a set is a
``(k - 1)``-set ``S`` below ``t`` plus ``t``, whose ``(k - 1)``-subsets are ``S`` itself (row ``colex(S)``) and
``S`` without its ``j``-th card plus ``t`` (row ``C(t, k - 1) + colex(S - s_j)``), as
:mod:`oddscalc.hands.best` does for the best five of six; every set is ``k`` lookups and none is evaluated twice.

:func:`four_card_key` is the plain-Python reference the vectorised tables are tested against.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from math import comb

import numpy as np
from numpy.typing import NDArray

from oddscalc.cards import FULL_DECK, Deck, rank_of, suit_of
from oddscalc.hands.five import BINOM, colex_combos

__all__ = ["FOUR_CLASSES", "best_four_counts", "best_four_levels", "best_four_strength", "four_card_categories",
           "four_card_key", "four_card_values", "four_qualifier_value", "level_class", "level_of"]

# Best first: the pay keys of Four Card Poker's ante bonus and Aces Up bet, and the report rows.
FOUR_CLASSES: tuple[str, ...] = ("four_of_a_kind", "straight_flush", "three_of_a_kind", "flush", "straight",
                                 "two_pair", "pair", "high_card")
_QUADS, _SF, _TRIPS, _FLUSH, _STRAIGHT, _TWO_PAIR, _PAIR, _HIGH = range(8)
_STRIDE = 13**4
_WHEEL = (0, 1, 2, 12)  # A-2-3-4: rank indices 2, 3, 4 and the ace


def four_card_key(cards: Sequence[int]) -> tuple[str, int]:
    """The class (FOUR_CLASSES) and packed value of four distinct cards (higher value: better hand)."""
    if len(cards) != 4 or len(set(cards)) != 4:
        raise ValueError(f"need 4 distinct cards, got {list(cards)}")
    ranks = sorted(rank_of(c) for c in cards)
    flush = len({suit_of(c) for c in cards}) == 1
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [n for _, n in groups]
    straight = len(groups) == 4 and (ranks[3] - ranks[0] == 3 or tuple(ranks) == _WHEEL)
    if shape == [4]:
        cat = _QUADS
    elif straight:
        cat = _SF if flush else _STRAIGHT
    elif shape == [3, 1]:
        cat = _TRIPS
    elif flush:
        cat = _FLUSH
    else:
        cat = {(2, 2): _TWO_PAIR, (2, 1, 1): _PAIR}.get(tuple(shape), _HIGH)
    digits = [r for r, n in groups for _ in range(n)]
    if straight:
        digits = [2 if tuple(ranks) == _WHEEL else ranks[3], 0, 0, 0]
    return FOUR_CLASSES[cat], (7 - cat) * _STRIDE + sum(d * 13 ** (3 - i) for i, d in enumerate(digits))


def four_card_categories(ranks: NDArray[np.int64], suits: NDArray[np.int64]) -> NDArray[np.int64]:
    """(rows,) the index into FOUR_CLASSES of each row of four (rank, suit) indices; a row may repeat a card (a
    shoe): it takes the first class of the order it makes."""
    out: NDArray[np.int64] = 7 - four_card_values(ranks, suits) // _STRIDE
    return out


def four_card_values(ranks: NDArray[np.int64], suits: NDArray[np.int64]) -> NDArray[np.int64]:
    """(rows,) the packed value of each row of four (rank, suit) indices (see the module's docstring)."""
    r = np.sort(np.asarray(ranks, dtype=np.int64), axis=1)
    s = np.asarray(suits, dtype=np.int64)
    flush = (s == s[:, :1]).all(axis=1)
    mult = (r[:, :, None] == r[:, None, :]).sum(axis=2)  # how often each card's rank appears in its row
    most = mult.max(axis=1)
    distinct = 1 + (np.diff(r, axis=1) != 0).sum(axis=1)
    wheel = (r == np.array(_WHEEL)).all(axis=1)
    straight = (distinct == 4) & ((r[:, 3] - r[:, 0] == 3) | wheel)
    cat = np.select([most == 4, straight & flush, most == 3, flush, straight, (most == 2) & (distinct == 2),
                     most == 2], [_QUADS, _SF, _TRIPS, _FLUSH, _STRAIGHT, _TWO_PAIR, _PAIR], _HIGH)
    order = np.argsort(-(mult * 16 + r), axis=1, kind="stable")  # by multiplicity, then rank, from the top
    digits = np.take_along_axis(r, order, axis=1)
    top = np.where(wheel, 2, r[:, 3])
    digits = np.where(straight[:, None], np.stack([top, 0 * top, 0 * top, 0 * top], axis=1), digits)
    packed = digits @ np.array([13**3, 13**2, 13, 1], dtype=np.int64)
    out: NDArray[np.int64] = (7 - cat) * _STRIDE + packed
    return out


def four_qualifier_value(category: str, ranks: Sequence[int] = ()) -> int:
    """The smallest packed value of a hand of ``category`` (a FOUR_CLASSES name) whose leading ranks are at least
    ``ranks`` (missing ranks lowest): ``value >= four_qualifier_value("pair", (A,))`` is "a pair of aces or
    better"."""
    padded = [*ranks, 0, 0, 0, 0][:4]
    if any(not 0 <= r <= 12 for r in padded):
        raise ValueError(f"ranks must be 0..12, got {tuple(ranks)}")
    if category == "pair" and ranks:  # the pair's rank is held twice: "pair of aces" is A-A-x-x
        padded = [ranks[0], ranks[0], 0, 0]
    return int((7 - FOUR_CLASSES.index(category)) * _STRIDE + sum(d * 13 ** (3 - i) for i, d in enumerate(padded)))


@functools.cache
def _full_levels() -> NDArray[np.int64]:
    """Every packed value a four-card hand of the full deck has, ascending (a strength is a position here)."""
    cards = np.array(FULL_DECK.cards, dtype=np.int64)[colex_combos(52, 4)]
    levels = np.unique(four_card_values(cards >> 2, cards & 3))
    levels.flags.writeable = False
    return levels


def level_of(value: int) -> int:
    """The strength of the weakest hand of packed value at least ``value`` (a qualifier as a strength)."""
    return int(np.searchsorted(_full_levels(), value))


def best_four_levels() -> NDArray[np.int64]:
    """(levels,) the packed value of each strength (ascending; read-only)."""
    return _full_levels()


def level_class() -> NDArray[np.int8]:
    """(levels,) the FOUR_CLASSES index of each strength."""
    out: NDArray[np.int8] = (7 - _full_levels() // _STRIDE).astype(np.int8)
    return out


def best_four_strength(deck: Deck, k: int) -> NDArray[np.int16]:
    """(C(n, k),) the strength of the best four of every ``k``-card set of ``deck`` (4 <= k <= 6), rows in colex
    order of deck positions; higher is better, equal is a tie (cached per deck; read-only)."""
    if not 4 <= k <= 6:
        raise ValueError(f"the best four of {k} cards is not tabled (4 to 6)")
    if deck.size < k:
        raise ValueError(f"{deck.describe()} has fewer than {k} cards")
    return _strength(deck, k)


@functools.cache
def _strength(deck: Deck, k: int) -> NDArray[np.int16]:
    n = deck.size
    if k == 4:
        cards = np.array(deck.cards, dtype=np.int64)[colex_combos(n, 4)]
        out = np.searchsorted(_full_levels(), four_card_values(cards >> 2, cards & 3)).astype(np.int16)
        out.flags.writeable = False
        return out
    below = _strength(deck, k - 1)
    m = k - 1  # the cards of S, a (k - 1)-set
    pos = colex_combos(n - 1, m) if n - 1 >= m else np.zeros((0, m), dtype=np.int8)  # S below the top card
    binom = BINOM.astype(np.int32)
    part = [binom[pos[:, i], i + 1] for i in range(m)]  # each card's term in S's colex rank
    drop = [binom[pos[:, i], i] for i in range(m)]  # its term once a card below it is dropped
    sub = np.empty((m, len(pos)), dtype=np.int32)  # colex rank of S minus its j-th card, among (k - 2)-sets
    for j in range(m):
        sub[j] = sum((part[i] for i in range(j)), np.zeros(len(pos), dtype=np.int32)) + \
            sum((drop[i] for i in range(j + 1, m)), np.zeros(len(pos), dtype=np.int32))
    del part, drop
    out = np.empty(comb(n, k), dtype=np.int16)
    for t in range(m, n):
        rows, start = comb(t, m), comb(t, k)
        with_t = below[rows:rows + comb(t, m - 1)]  # the (k - 1)-sets whose top card is t, by their other cards
        top = out[start:start + rows]
        np.copyto(top, below[:rows])
        for j in range(m):
            np.maximum(top, with_t.take(sub[j, :rows]), out=top)
    out.flags.writeable = False
    return out


def best_four_counts(deck: Deck, k: int) -> NDArray[np.int64]:
    """(8,) ``k``-card sets of ``deck`` by the FOUR_CLASSES class of their best four (four of a kind first)."""
    levels = np.bincount(best_four_strength(deck, k), minlength=len(_full_levels()))
    out = np.zeros(len(FOUR_CLASSES), dtype=np.int64)
    np.add.at(out, level_class().astype(np.int64), levels)  # integers throughout
    return out
