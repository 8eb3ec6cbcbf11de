"""The stud engine's dealer kernel: for each player hand, every dealer hand of the cards left, by outcome and by
the dealer's up cards it holds (numba; the counting argument is in :mod:`oddscalc.games.stud.dealer`).

The dealer's ``D``-card hands are enumerated from the cards the player does not hold in colex order of those
cards, so their colex indices in the deck's strength table rise: the table is read front to back, which is what
keeps a full-deck player hand (C(47, 5) = 1,533,939 dealer hands) at a few milliseconds.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _one(  # noqa: C901 - the count's one loop, kept whole for numba
    free: np.ndarray, d: int, s: int, q: int, strength: np.ndarray, binom: np.ndarray, subs: np.ndarray,
    out: np.ndarray,
) -> None:
    """out[up, outcome] += 1 for each ``d``-card dealer hand of the ``free`` deck positions and each ``U``-subset
    of it (its up cards: ``subs`` rows of indices into the hand, ascending), ``up`` the subset's colex index among
    the free cards. Outcomes: 0 the dealer does not qualify (strength below ``q``), 1 the player (strength ``s``)
    wins, 2 tie, 3 the dealer wins.

    The lowest card of the hand moves fastest (colex order): for the hands that share their other cards, the
    index of the hand in the table is a base plus the lowest card's position, and an up set without the lowest
    card is the same for all of them, so those are tallied by outcome and added once."""
    f = free.shape[0]
    if f < d:
        return  # no dealer hand: the deck is too small
    n_sub, u = subs.shape[0], subs.shape[1]
    low = 0  # ``subs`` lists first the up sets that hold the hand's lowest card (see ``count_rows``)
    while low < n_sub and u > 0 and subs[low, 0] == 0:
        low += 1
    c = np.arange(d)
    inner = np.zeros(4, dtype=np.int64)
    rest = np.empty(n_sub, dtype=np.int64)  # each up set's index without the lowest card's share
    while True:
        base = 0
        for i in range(1, d):
            base += binom[free[c[i]], i + 1]
        for t in range(n_sub):
            r = 0
            for k in range(u):
                if subs[t, k] != 0:
                    r += binom[c[subs[t, k]], k + 1]
            rest[t] = r
        inner[:] = 0
        top = c[1] if d > 1 else f
        for c0 in range(top):
            x = strength[base + free[c0]]
            o = (x >= q) * (1 + (x >= s) + (x > s))  # branch-free: 0 not qualified, 1 win, 2 tie, 3 lose
            inner[o] += 1
            for t in range(low):  # the up sets holding the lowest card: binom[c0, 1] = c0
                out[rest[t] + c0, o] += 1
        for t in range(low, n_sub):
            for o in range(4):
                out[rest[t], o] += inner[o]
        # the next set of the other cards in colex order: raise the lowest that can rise, reset those below it
        if d == 1:
            return
        i = 1
        while i < d - 1 and c[i] + 1 == c[i + 1]:
            i += 1
        if i == d - 1 and c[i] + 1 == f:
            return
        c[i] += 1
        for j in range(1, i):
            c[j] = j
        c[0] = 0


@numba.njit(cache=True, parallel=True)
def count_rows(free: np.ndarray, d: int, s: np.ndarray, q: int, strength: np.ndarray, binom: np.ndarray,
               subs: np.ndarray, out: np.ndarray) -> None:
    """For each player hand ``r`` (its free deck positions ``free[r]``, its strength ``s[r]``), ``out[r]`` as
    :func:`_one` counts it for dealer hands of ``d`` cards."""
    for r in numba.prange(free.shape[0]):
        _one(free[r], d, s[r], q, strength, binom, subs, out[r])
