"""The stud engine's sieve kernels (numba): the dealer's hands by strength that hold a given set of cards, built
once from the table of every dealer hand, and the inclusion-exclusion read of them per player hand (the counting
argument is in :mod:`oddscalc.games.stud.sieve`).

Strengths here are dense ranks (0 the weakest dealer strength present), so a "how many hands hold ``T`` with
strength below ``x``" is one read of a cumulative histogram (a set with many supersets) or a binary search in
the sorted ranks of its supersets (a set with few).
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _add_subsets(cards: np.ndarray, k: int, binom: np.ndarray, sub: np.ndarray, rows: np.ndarray) -> int:
    """rows[:m] = the colex ranks of the ``k``-subsets of ``cards`` (ascending positions); returns ``m``."""
    d = cards.shape[0]
    for j in range(k):
        sub[j] = j
    m = 0
    while True:
        x = 0
        for j in range(k):
            x += binom[cards[sub[j]], j + 1]
        rows[m] = x
        m += 1
        j = k - 1
        while j >= 0 and sub[j] == d - k + j:
            j -= 1
        if j < 0:
            return m
        sub[j] += 1
        for t in range(j + 1, k):
            sub[t] = sub[t - 1] + 1


@numba.njit(cache=True)
def fill_histograms(rank: np.ndarray, combos: np.ndarray, k: int, binom: np.ndarray, hist: np.ndarray) -> None:
    """hist[colex(T), rank + 1] += 1 for every dealer hand (``combos[i]``, its dense rank ``rank[i]``) and each
    ``k``-subset ``T`` of it; the caller's cumulative sum along the ranks then reads "below ``x``" at column
    ``x``."""
    d = combos.shape[1]
    sub = np.empty(max(k, 1), dtype=np.int64)
    rows = np.empty(binom[d, k] if k else 1, dtype=np.int64)
    for i in range(rank.shape[0]):
        m = _add_subsets(combos[i], k, binom, sub, rows)
        r = rank[i] + 1
        for j in range(m):
            hist[rows[j], r] += 1


@numba.njit(cache=True)
def fill_segments(order: np.ndarray, rank: np.ndarray, combos: np.ndarray, k: int, binom: np.ndarray, width: int,
                  seg: np.ndarray) -> None:
    """seg[colex(T) * width + j]: the dense ranks of the dealer hands holding the ``k``-set ``T``, ascending
    (``order`` visits the hands by rank, so each segment fills in order); ``width`` = C(n - k, d - k)."""
    fill = np.zeros(seg.shape[0] // width, dtype=np.int64)
    d = combos.shape[1]
    sub = np.empty(max(k, 1), dtype=np.int64)
    rows = np.empty(binom[d, k] if k else 1, dtype=np.int64)
    for i in order:
        m = _add_subsets(combos[i], k, binom, sub, rows)
        for j in range(m):
            x = rows[j]
            seg[x * width + fill[x]] = rank[i]
            fill[x] += 1


@numba.njit(cache=True)
def _below(k: int, x: int, v: int, hist: np.ndarray, seg: np.ndarray, at: np.ndarray, kind: np.ndarray,
           width: np.ndarray, stride: int) -> int:
    """How many dealer hands hold the ``k``-set of colex rank ``x`` with dense rank below ``v``: a read of its
    cumulative histogram, or a binary search in its sorted ranks."""
    if kind[k] == 0:
        return int(hist[at[k] + x * stride + v])
    lo = at[k] + x * width[k]
    hi = lo + width[k]
    start = lo
    while lo < hi:
        mid = (lo + hi) >> 1
        if seg[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return int(lo - start)


@numba.njit(cache=True, parallel=True)
def sieve_rows(held: np.ndarray, free: np.ndarray, thresholds: np.ndarray, up: int, d: int, binom: np.ndarray,
               hist: np.ndarray, seg: np.ndarray, at: np.ndarray, kind: np.ndarray, width: np.ndarray,
               stride: int, out: np.ndarray) -> None:
    """out[r, i, o]: the dealer hands of player hand ``r`` by outcome ``o`` (as :mod:`dealer_kernel` orders them),
    ``i`` the up card's index among the free positions (``up`` = 1), or 0 (``up`` = 0: no up card).

    For each set ``S`` of the player's cards (``held[r]``), with the up card, the hands holding them are counted
    below three dense ranks (``thresholds[r]``: the qualifier's, the player's, just above the player's) and added
    with the sign ``(-1)^|S|``: what is left is the hands holding none of the player's cards. The tables are flat:
    set size ``k``'s starts at ``at[k]``, a histogram row ``stride`` long or a segment ``width[k]`` long."""
    p = held.shape[1]
    n_up = free.shape[1] if up == 1 else 1
    for r in numba.prange(held.shape[0]):
        t = np.empty(p + 1, dtype=np.int64)
        q, s0, s1 = thresholds[r, 0], thresholds[r, 1], thresholds[r, 2]
        for i in range(n_up):
            a = 0
            b = 0
            c = 0
            tot = 0
            for mask in range(1 << p):
                k = 0
                placed = up == 0
                for j in range(p):
                    if mask >> j & 1:
                        h = held[r, j]
                        if not placed and free[r, i] < h:
                            t[k] = free[r, i]
                            k += 1
                            placed = True
                        t[k] = h
                        k += 1
                if not placed:
                    t[k] = free[r, i]
                    k += 1
                if k > d:
                    continue
                x = 0
                for j in range(k):
                    x += binom[t[j], j + 1]
                sign = 1 - 2 * (k - up & 1)
                if q > 0:
                    a += sign * _below(k, x, q, hist, seg, at, kind, width, stride)
                b += sign * _below(k, x, s0, hist, seg, at, kind, width, stride)
                c += sign * _below(k, x, s1, hist, seg, at, kind, width, stride)
                tot += sign * width[k]
            out[r, i, 0] = a
            out[r, i, 1] = b - a
            out[r, i, 2] = c - b
            out[r, i, 3] = tot - c
