"""The best five-card hand of six cards, over every six-card set of a deck, exactly.

Counting argument: a six-card set's best five is the best of its six five-card subsets. The ``C(n, 6)`` sets are
taken in colex order, block by block of their highest card ``t``: a set is a five-card set ``S`` below ``t`` plus
``t``, whose subsets are ``S`` itself (colex row ``S``) and ``S`` without its ``j``-th card plus ``t`` (row
``colex(S - s_j) + C(t, 5)``). So every set is six lookups in the five-card table of :mod:`oddscalc.hands.five`
and no hand is evaluated twice. (Seven cards, 133,784,560 sets on 52, would want a numba kernel: not needed yet.)
"""

from __future__ import annotations

import functools
from math import comb

import numpy as np
from numpy.typing import NDArray

from oddscalc.cards import FULL_DECK, Deck
from oddscalc.hands.five import BINOM, HAND_CLASSES, colex_combos, hand_table

__all__ = ["best_five_of_six_counts"]


def best_five_of_six_counts(deck: Deck = FULL_DECK) -> NDArray[np.int64]:
    """(10,) six-card sets of ``deck`` whose best five is of each HandClass (royal flush first); read-only."""
    return _counts(deck)


@functools.cache
def _counts(deck: Deck) -> NDArray[np.int64]:
    n = deck.size
    if n < 6:
        raise ValueError(f"{deck.describe()} has fewer than 6 cards")
    table = hand_table(deck)
    strength = table.strength
    class_of = np.zeros(table.n_levels, dtype=np.int64)  # a strength is one value, so one class
    class_of[table.strength] = table.hand_class
    pos = colex_combos(n, 5)  # (C(n,5), 5), row i has colex rank i
    binom = BINOM.astype(np.int32)  # C(52, 5) fits: int32 columns keep the tables small (52 MB at most)
    part = [binom[pos[:, i], i + 1] for i in range(5)]  # each card's term in its set's colex rank
    drop = [binom[pos[:, i], i] for i in range(5)]  # its term once a card below it is dropped (one place lower)
    # colex rank of S minus its j-th card: the terms below j unchanged, those above j shifted one place down
    sub4 = np.empty((5, len(pos)), dtype=np.int32)  # one contiguous row per dropped card: gathers stream
    for j in range(5):
        sub4[j] = sum((part[i] for i in range(j)), np.zeros(len(pos), dtype=np.int32)) + \
            sum((drop[i] for i in range(j + 1, 5)), np.zeros(len(pos), dtype=np.int32))
    del part, drop
    levels = np.zeros(table.n_levels, dtype=np.int64)  # six-card sets by the strength of their best five
    best = np.empty(comb(n - 1, 5), dtype=strength.dtype)
    for t in range(5, n):
        rows = comb(t, 5)
        # the hands holding t are contiguous rows: a small lookup table that stays in cache
        with_t = strength[rows:rows + comb(t, 4)]
        top = best[:rows]
        np.copyto(top, strength[:rows])
        for j in range(5):
            np.maximum(top, with_t.take(sub4[j, :rows]), out=top)
        levels += np.bincount(top, minlength=table.n_levels)
    out = np.zeros(len(HAND_CLASSES), dtype=np.int64)
    np.add.at(out, class_of, levels)  # integers throughout (bincount's weights would be floats)
    out.flags.writeable = False
    return out
