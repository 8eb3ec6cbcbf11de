"""The two deepest levels of the other seats' recursion (``seats``), in int64 on every multiset of a size.

Counting argument. With one other seat left to deal, its class counts from the cards left r are a
closed form (``seats``, one seat): ordered two-card deals of each kind times the third slot. With
two left, the first of them deals its pair (and its third card, or an unused slot moved to the end)
and the second is that closed form at the cards then left. Both levels are computed here for every
multiset of removed cards of the sizes asked, each found by the colex rank of its stars-and-bars code
(the positions of the nine bars among the cards), so no state is searched for. Their counts are at
most nP6 and fit int64 for any shoe of up to 1,400 cards; above that ``seats`` keeps its limbs.
These two levels hold the most states: for seven players they are every multiset of 17 to 21
removed cards, 2 to 14 million each.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .shoe import VALUES

CLASSES = 12
NAT_CLASS, NONE_CLASS = 0, 1
NAT, STAND, DRAW = range(3)
_C = np.array([[math.comb(p, i) for i in range(VALUES)] for p in range(64)], dtype=np.int64)


def fits(n: int) -> bool:
    """Whether these levels' int64 counts hold for a shoe of ``n`` cards."""
    return math.perm(n, 6) * n < 2**62


def count(size: int) -> int:
    """Multisets of ``size`` removed cards over the ten point values."""
    return math.comb(size + VALUES - 1, VALUES - 1)


@numba.njit(cache=True)
def _rank(cnt: np.ndarray, binom: np.ndarray) -> int:
    """Colex rank of a multiset among all of its size (bar i sits after the cards of values below i)."""
    r = 0
    p = 0
    for i in range(1, VALUES):
        p += cnt[i - 1]
        r += binom[p + i - 1, i]
    return r


@numba.njit(cache=True)
def _unrank(r: int, size: int, binom: np.ndarray, cnt: np.ndarray) -> None:
    """The multiset of ``size`` cards with colex rank ``r``, into ``cnt``."""
    bars = np.empty(VALUES, dtype=np.int64)
    top = size + VALUES - 2
    for i in range(VALUES - 1, 0, -1):
        p = top
        while binom[p, i] > r:
            p -= 1
        bars[i] = p
        r -= binom[p, i]
        top = p - 1
    prev = -1
    for i in range(1, VALUES):
        cnt[i - 1] = bars[i] - prev - 1
        prev = bars[i]
    cnt[VALUES - 1] = size + VALUES - 2 - prev


@numba.njit(cache=True)
def _pairs(rr: np.ndarray, a: np.ndarray) -> int:
    """Ordered two-card deals (u, w) with a[u, w] set from the cards left."""
    t = 0
    for u in range(VALUES):
        s = 0
        for w in range(VALUES):
            if a[u, w]:
                s += rr[w]
        if a[u, u]:
            s -= 1
        t += rr[u] * s
    return t


@numba.njit(cache=True, parallel=True)
def one_seat(size: int, c: np.ndarray, natural: np.ndarray, standing: np.ndarray, drawing: np.ndarray,
             binom: np.ndarray) -> np.ndarray:
    """(count(size), 12): one seat's card sequences by class, per removed multiset of ``size`` cards."""
    out = np.zeros((binom[size + VALUES - 1, VALUES - 1], CLASSES), dtype=np.int64)
    for r in numba.prange(out.shape[0]):
        cnt = np.empty(VALUES, dtype=np.int64)
        _unrank(r, size, binom, cnt)
        rr = np.maximum(c - cnt, 0)
        nn = rr.sum()
        out[r, NAT_CLASS] = _pairs(rr, natural) * (nn - 2)
        out[r, NONE_CLASS] = _pairs(rr, standing) * (nn - 2)
        pd = _pairs(rr, drawing)
        for z in range(VALUES):
            s = 0
            for w in range(VALUES):
                if drawing[z, w]:
                    s += rr[w]
            if drawing[z, z]:
                s -= 1
            out[r, 2 + z] = pd * rr[z] - 2 * rr[z] * s  # the third card is none of the seat's own two
    return out


@numba.njit(cache=True, parallel=True)
def third_card(size: int, c: np.ndarray, below: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """(count(size), 12): a seat that holds its two cards draws a third card z, then the seat below (``below``:
    ``one_seat`` at size + 1) deals; z turns "nobody drew" and every highest card up to z into z."""
    out = np.zeros((binom[size + VALUES - 1, VALUES - 1], CLASSES), dtype=np.int64)
    for r in numba.prange(out.shape[0]):
        cnt = np.empty(VALUES, dtype=np.int64)
        _unrank(r, size, binom, cnt)
        for z in range(VALUES):
            left = c[z] - cnt[z]
            if left <= 0:
                continue
            cnt[z] += 1
            g = below[_rank(cnt, binom)]
            cnt[z] -= 1
            out[r, NAT_CLASS] += left * g[NAT_CLASS]
            out[r, 2 + z] += left * g[NONE_CLASS]
            for k in range(VALUES):
                out[r, 2 + max(k, z)] += left * g[2 + k]
    return out


@numba.njit(cache=True, parallel=True)
def two_seats(rows: np.ndarray, c: np.ndarray, kinds: np.ndarray, natural: np.ndarray, stand_below: np.ndarray,
              draw_below: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """(len(rows), 12): two seats' card sequences by class, per removed multiset (rows of one size s).

    ``stand_below`` is ``one_seat`` and ``draw_below`` is ``third_card``, both at size s + 2; a standing
    seat's unused third slot moves to the end of the sequence, a factor of the cards then left."""
    out = np.zeros((rows.shape[0], CLASSES), dtype=np.int64)
    for q in numba.prange(rows.shape[0]):
        cnt = rows[q].copy()
        rr = np.maximum(c - cnt, 0)
        nn = rr.sum()
        for u in range(VALUES):
            for w in range(u, VALUES):
                kind = kinds[u, w]
                if kind == NAT:
                    continue
                m = rr[u] * (rr[w] - (1 if u == w else 0)) * (1 if u == w else 2)
                if m <= 0:
                    continue
                cnt[u] += 1
                cnt[w] += 1
                i = _rank(cnt, binom)
                cnt[u] -= 1
                cnt[w] -= 1
                if kind == STAND:
                    f = m * (nn - 5)
                    for k in range(CLASSES):
                        out[q, k] += f * stand_below[i, k]
                else:
                    for k in range(CLASSES):
                        out[q, k] += m * draw_below[i, k]
        nat = _pairs(rr, natural)
        for j in range(4):  # a natural ends the deal: the other four slots are any cards left
            nat *= max(nn - 2 - j, 0)
        out[q, NAT_CLASS] += nat
    return out


def two_seats_at(c: np.ndarray, rows: np.ndarray, kinds: np.ndarray, natural: np.ndarray, standing: np.ndarray,
                 drawing: np.ndarray) -> np.ndarray:
    """(len(rows), 12) int64: two other seats' sequences by class for each removed multiset (any sizes)."""
    out = np.zeros((len(rows), CLASSES), dtype=np.int64)
    sizes = rows.sum(axis=1)
    below: dict[int, np.ndarray] = {}

    def seat(size: int) -> np.ndarray:
        if size not in below:
            below[size] = one_seat(size, c, natural, standing, drawing, _C)
        return below[size]

    for s in np.unique(sizes).tolist():
        pick = np.flatnonzero(sizes == s)
        drawn = third_card(s + 2, c, seat(s + 3), _C)
        out[pick] = two_seats(np.ascontiguousarray(rows[pick]), c, kinds, natural, seat(s + 2), drawn, _C)
        del drawn
    return out
