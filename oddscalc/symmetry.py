"""Suit-permutation classes of hands, with exact class sizes.

Counting argument: permuting the suits (a group of ``n_suits!`` elements) never changes any
game outcome, so a sum over all ``C(n, k)`` hands equals a sum over one representative per
class times the class size. A hand is determined by its per-suit rank sets ("suit masks",
13-bit integers); a suit permutation only permutes these masks. So the class of a hand is
the multiset of its masks, and the canonical representative orders the suits by (number of
cards, rank mask) descending and relabels them 0, 1, 2, ... in that order (equal masks are
interchangeable, so the result is well defined). The class size is the number of distinct hands
with the same masks, which the enumeration counts directly. On 52 cards this gives 169 / 1,755 / 16,432 / 134,459
classes for 2 / 3 / 4 / 5 cards.

A hand plus one distinguished extra card (a class of pairs ``(hand, extra)``) is canonised
by first canonising the hand; the suit permutations that fix the canonical hand are those
permuting suits with equal masks among themselves, and among those the extra card is sent
to the lowest suit of its block. So each class is ``(canonical hand, extra card whose suit
is the first of its equal-mask block)``, of size ``hand class size * block size``. On 52
cards that is 5,649,150 classes covering ``C(52, 5) * 47 = 122,151,120`` pairs.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Sequence
from math import comb

import numpy as np
from numpy.typing import NDArray

from oddscalc.cards import FULL_DECK, N_SUITS, Deck, rank_of, suit_of
from oddscalc.hands import colex_blocks

__all__ = [
    "canonical",
    "canonical_hand_plus_card",
    "hand_plus_card_classes",
    "hand_plus_card_hand_index",
    "suit_class_index",
    "suit_classes",
]


def _suit_masks(cards: Sequence[int], n_suits: int) -> list[int]:
    masks = [0] * n_suits
    for c in cards:
        if suit_of(c) >= n_suits:
            raise ValueError(f"card {c} has suit {suit_of(c)} but the deck has {n_suits} suits")
        masks[suit_of(c)] |= 1 << rank_of(c)
    return masks


def _relabel(cards: Sequence[int], order: Sequence[int]) -> tuple[int, ...]:
    """Send suit ``order[i]`` to suit ``i``."""
    new_suit = {old: new for new, old in enumerate(order)}
    return tuple(sorted(rank_of(c) * 4 + new_suit[suit_of(c)] for c in cards))


def canonical(cards: Sequence[int], n_suits: int = N_SUITS) -> tuple[int, ...]:
    """Canonical representative (sorted tuple) of the suit-permutation class of ``cards``."""
    masks = _suit_masks(cards, n_suits)
    order = sorted(range(n_suits), key=lambda s: (-masks[s].bit_count(), -masks[s]))
    return _relabel(cards, order)


def canonical_hand_plus_card(
    hand: Sequence[int], extra: int, n_suits: int = N_SUITS
) -> tuple[tuple[int, ...], int]:
    """Canonical ``(hand, extra)`` of a hand with one distinguished card not in it.

    The hand is canonised as by ``canonical``; among suits with equal masks the extra
    card's suit goes first, so it lands on the lowest suit of its block.
    """
    if extra in hand:
        raise ValueError(f"extra card {extra} is in the hand")
    masks = _suit_masks(hand, n_suits)
    xs = suit_of(extra)
    if xs >= n_suits:
        raise ValueError(f"card {extra} has suit {xs} but the deck has {n_suits} suits")
    order = sorted(range(n_suits), key=lambda s: (-masks[s].bit_count(), -masks[s], s != xs))
    relabelled = _relabel([*hand, extra], order)
    new_extra = rank_of(extra) * 4 + order.index(xs)
    return tuple(c for c in relabelled if c != new_extra), new_extra


_PC_SHIFT = 13  # suit value = popcount << 13 | rank mask; fits uint16 for up to 7 cards
_MAX_ROWS = 30_000_000


def _suit_values(k: int, deck: Deck) -> list[NDArray[np.uint16]]:
    """Per suit, the value ``popcount << 13 | rank mask`` of every ``k``-subset (colex order).

    Built block by block: the ``k``-subsets with top card ``t`` are a prefix of the
    ``(k-1)``-subsets plus ``t``, which adds one card to ``t``'s suit.
    """
    cards = deck.cards
    n = len(cards)
    vals = np.zeros((deck.n_suits, n), dtype=np.uint16)
    for i, c in enumerate(cards):
        vals[suit_of(c), i] = (1 << _PC_SHIFT) | (1 << rank_of(c))
    for j in range(2, k + 1):
        nxt = np.empty((deck.n_suits, comb(n, j)), dtype=np.uint16)
        for t, start, cnt in colex_blocks(n, j):
            nxt[:, start : start + cnt] = vals[:, :cnt]
            nxt[suit_of(cards[t]), start : start + cnt] += (1 << _PC_SHIFT) | (
                1 << rank_of(cards[t])
            )
        vals = nxt
    return list(vals)


def _sort_desc(cols: list[NDArray[np.uint16]]) -> list[NDArray[np.uint16]]:
    """Sort column-wise descending with an odd-even transposition network (rows are tiny)."""
    cols = [c.copy() for c in cols]
    tmp = np.empty_like(cols[0])
    n = len(cols)
    for rnd in range(n):
        for i in range(rnd % 2, n - 1, 2):
            np.maximum(cols[i], cols[i + 1], out=tmp)
            np.minimum(cols[i], cols[i + 1], out=cols[i + 1])
            cols[i], tmp = tmp, cols[i]
    return cols


def _pack(cols: list[NDArray[np.uint16]]) -> NDArray[np.uint64]:
    """One uint64 per row, first column most significant (so keys sort like the rows)."""
    key = cols[0].astype(np.uint64)
    for c in cols[1:]:
        key <<= np.uint64(16)
        key |= c
    return key


def _unpack(keys: NDArray[np.uint64], n_suits: int) -> NDArray[np.int64]:
    """Packed keys back to ``(m, n_suits)`` suit values."""
    shifts = np.array([16 * (n_suits - 1 - i) for i in range(n_suits)], dtype=np.uint64)
    vals: NDArray[np.int64] = ((keys[:, None] >> shifts[None, :]) & np.uint64(0xFFFF)).astype(
        np.int64
    )
    return vals


def _masks_to_cards(masks: NDArray[np.int64], k: int) -> NDArray[np.int8]:
    """Rows of suit rank masks to ascending rows of ``k`` card ids."""
    m, n_suits = masks.shape
    bits = (masks[:, None, :] >> np.arange(13)[None, :, None]) & 1  # (m, rank, suit)
    full = np.zeros((m, 13, 4), dtype=np.bool_)
    full[:, :, :n_suits] = bits.astype(np.bool_)
    _, cols = np.nonzero(full.reshape(m, 52))
    return cols.astype(np.int8).reshape(m, k)


def _check_k(k: int, deck: Deck) -> None:
    if not 1 <= k <= min(deck.size, 7) or comb(deck.size, k) > _MAX_ROWS:
        raise ValueError(f"suit classes of {k}-card hands of a {deck.describe()} not supported")


@functools.cache
def _suit_classes_full(
    k: int, deck: Deck
) -> tuple[NDArray[np.int8], NDArray[np.int64], NDArray[np.uint64], NDArray[np.int64]]:
    """reps, weights, sorted packed keys, sorted suit values ``(m, n_suits)``."""
    _check_k(k, deck)
    # each class has one hand whose suit values already fall from suit to suit, its canonical one: keep those
    # (134,459 of C(52, 5)) instead of sorting every hand's masks and every hand's key
    cols = _suit_values(k, deck)
    canon = np.ones(len(cols[0]), dtype=np.bool_)
    for high, low in itertools.pairwise(cols):
        canon &= high >= low
    cols = [c[canon] for c in cols]
    keys = _pack(cols)
    order = np.argsort(keys)
    keys = keys[order]
    vals = np.stack([c[order] for c in cols], axis=1).astype(np.int64)
    # the class's hands are the suits' arrangements of its masks: n_suits! over the orders of equal masks
    run = np.ones(len(keys), dtype=np.int64)
    orders = np.ones(len(keys), dtype=np.int64)
    for i in range(1, deck.n_suits):
        run = np.where(vals[:, i] == vals[:, i - 1], run + 1, 1)
        orders *= run
    weights = math.factorial(deck.n_suits) // orders
    reps = _masks_to_cards(vals & ((1 << _PC_SHIFT) - 1), k)
    for arr in (reps, weights, keys, vals):
        arr.flags.writeable = False
    return reps, weights, keys, vals


def suit_classes(k: int, deck: Deck = FULL_DECK) -> tuple[NDArray[np.int8], NDArray[np.int64]]:
    """One canonical representative per suit class of ``k``-card hands, and class sizes.

    ``reps`` is ``(m, k)`` int8 (rows ascending, each equal to ``canonical`` of its
    members), ``weights`` is ``(m,)`` int64 summing to ``C(deck.size, k)``. Rows are
    ordered by the packed sorted suit masks. Cached; arrays are read-only.
    """
    reps, weights, _, _ = _suit_classes_full(k, deck)
    return reps, weights


def suit_class_index(k: int, deck: Deck = FULL_DECK) -> NDArray[np.int32]:
    """For every ``k``-card hand in colex order of deck positions, its row in ``suit_classes``.

    Row ``i`` matches ``hand_table(deck).combos[i]`` when ``k == 5``. Cached, read-only.
    """
    return _suit_class_index(k, deck)


@functools.cache
def _suit_class_index(k: int, deck: Deck) -> NDArray[np.int32]:
    _check_k(k, deck)
    keys = _pack(_sort_desc(_suit_values(k, deck)))
    _, inverse = np.unique(keys, return_inverse=True)
    index = inverse.astype(np.int32)
    index.flags.writeable = False
    return index


@functools.cache
def _hand_plus_card(
    deck: Deck,
) -> tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.int64], NDArray[np.int32]]:
    reps, weights, _, vals = _suit_classes_full(5, deck)
    masks = (vals & ((1 << _PC_SHIFT) - 1)).astype(np.uint16)
    m, n_suits = masks.shape
    deck_ranks = sum(1 << r for r in deck.ranks)
    # Extra card candidates per suit: ranks in the deck not held in that suit, and only on
    # the first suit of an equal-mask block (the block's other suits give the same class).
    free = np.zeros((m, n_suits), dtype=np.uint16)
    block_size = np.zeros((m, n_suits), dtype=np.int8)
    for s in range(n_suits):
        first = np.ones(m, dtype=np.bool_) if s == 0 else masks[:, s] != masks[:, s - 1]
        free[:, s] = np.where(first, ~masks[:, s] & deck_ranks, 0)
        block_size[:, s] = (masks == masks[:, s : s + 1]).sum(axis=1)

    # Columns run over (rank, suit), i.e. ascending card id; boolean masking keeps row order.
    shifts = np.arange(13, dtype=np.uint16)[None, :, None]
    ok = ((free[:, None, :] >> shifts) & 1).astype(np.bool_).reshape(m, 13 * n_suits)
    col_rank, col_suit = np.divmod(np.arange(13 * n_suits), n_suits)
    col_card = (col_rank * 4 + col_suit).astype(np.int8)
    extra = np.broadcast_to(col_card, ok.shape)[ok]
    per_hand = ok.sum(axis=1)
    w: NDArray[np.int64] = np.repeat(weights, per_hand) * block_size[:, col_suit][ok]
    rows = np.repeat(np.arange(m, dtype=np.int32), per_hand)
    hands = np.repeat(reps, per_hand, axis=0)
    for arr in (hands, extra, w, rows):
        arr.flags.writeable = False
    return hands, extra, w, rows


def hand_plus_card_classes(
    deck: Deck = FULL_DECK,
) -> tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.int64]]:
    """Suit classes of (5-card hand, one extra card not in it): reps, extra cards, sizes.

    Each ``(reps[i], extra[i])`` equals ``canonical_hand_plus_card`` of every member of the
    class; ``weights`` sums to ``C(deck.size, 5) * (deck.size - 5)``. Rows are grouped by
    hand class in ``suit_classes(5, deck)`` order, extra cards ascending. Cached.
    """
    reps, extra, w, _ = _hand_plus_card(deck)
    return reps, extra, w


def hand_plus_card_hand_index(deck: Deck = FULL_DECK) -> NDArray[np.int32]:
    """Row in ``suit_classes(5, deck)`` of the hand of each ``hand_plus_card_classes`` row."""
    return _hand_plus_card(deck)[3]


def set_tuple_class_count(deck: Deck, sizes: Sequence[int]) -> int:
    """How many suit classes of tuples of disjoint card sets of ``sizes`` a deck has, without listing them
    (Burnside: the mean over the suit permutations of the tuples each fixes, a fixed tuple being made of whole card
    cycles of the permutation).

    >>> set_tuple_class_count(FULL_DECK, (5,)), set_tuple_class_count(FULL_DECK, (2, 3))
    (134459, 1286792)
    """
    total = 0
    for perm in itertools.permutations(range(deck.n_suits)):
        seen: set[int] = set()
        lengths = []
        for i in range(deck.n_suits):
            length, j = 0, i
            while j not in seen:
                seen.add(j)
                j, length = perm[j], length + 1
            if length:
                lengths.append(length)
        # the tuples fixed: each cycle of each rank is in none of the sets or wholly in one of them
        poly: Counter[tuple[int, ...]] = Counter({tuple(0 for _ in sizes): 1})
        for length in lengths * len(deck.ranks):
            grown: Counter[tuple[int, ...]] = Counter()
            for held, c in poly.items():
                grown[held] += c
                for b, size in enumerate(sizes):
                    if held[b] + length <= size:
                        grown[held[:b] + (held[b] + length,) + held[b + 1:]] += c
            poly = grown
        total += poly[tuple(sizes)]
    return total // math.factorial(deck.n_suits)

