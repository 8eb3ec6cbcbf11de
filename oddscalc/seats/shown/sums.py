"""Compiled sums of one seat's level in the shown chain (``shown_chain._gather``, ``_place``, ``_last``), and the
join of two exact halves modulo primes (``shown_chain._over``).

A level row is a weighted sum of rows of the level below, picked by the cards the seat takes and the
class it leaves. Written with numpy, each sum first gathers every picked row into one temporary
(rows x compositions x classes x the trail), which is most of a level's time; these loops add the
picked rows in place. The arithmetic is the caller's: with ``p`` = 0 the counts are exact (all terms
are non-negative and add up to at most the level's total, below 2**63); with a prime ``p`` below
2**28 every weight is below 2**28 too, so one composition's products stay below 2**56 and a row's
55 of them below 2**62 before the row is reduced.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from oddscalc.games.house_baccarat.levels import two_card_deals


@numba.njit(cache=True)
def _add(dst: np.ndarray, w: int, src: np.ndarray) -> None:
    for j in range(dst.size):
        dst[j] += w * src[j]


@numba.njit(cache=True)
def _modulo(block: np.ndarray, p: int) -> None:
    """``block`` (classes, width) reduced modulo ``p`` in place; nothing when the counts are exact (p = 0)."""
    if p > 0:
        for s in range(block.shape[0]):
            for j in range(block.shape[1]):
                block[s, j] %= p


def _third_sums(below: np.ndarray, nxt3: np.ndarray, left: np.ndarray, after: np.ndarray, p: int) -> np.ndarray:
    """(rows, classes, width): sum over third cards z of ``left[m, z]`` times ``below[nxt3[m, z], after[s, z]]``,
    for every start class s (``below`` (states, classes, width); ``left`` the cards z left, at most n)."""
    rows, classes, width = nxt3.shape[0], below.shape[1], below.shape[2]
    out = np.zeros((rows, classes, width), dtype=np.int64)
    for m in numba.prange(rows):
        for z in range(nxt3.shape[1]):
            if left[m, z]:
                for s in range(classes):
                    _add(out[m, s], left[m, z], below[nxt3[m, z], after[s, z]])
        _modulo(out[m], p)
    return out


def _seat_sums(stand: np.ndarray, at2: np.ndarray, stand_cls: np.ndarray, below: np.ndarray, draw: np.ndarray,
              at2p: np.ndarray, third: np.ndarray, p: int) -> np.ndarray:
    """(rows, classes, width): sum over compositions c of ``stand[m, c, s]`` times ``below[at2[m, c],
    stand_cls[c, s]]`` (the seat stands, or has a natural) and of ``draw[m, d, s]`` times
    ``third[at2p[m, d], s]`` (it draws on the d-th drawing composition), for every start class s."""
    rows, classes = stand.shape[0], stand.shape[2]
    out = np.zeros((rows, classes, below.shape[2]), dtype=np.int64)
    for m in numba.prange(rows):
        for c in range(stand.shape[1]):
            for s in range(classes):
                if stand[m, c, s]:
                    _add(out[m, s], stand[m, c, s], below[at2[m, c], stand_cls[c, s]])
        _modulo(out[m], p)
        for d in range(draw.shape[1]):
            for s in range(classes):
                if draw[m, d, s]:
                    _add(out[m, s], draw[m, d, s], third[at2p[m, d], s])
        _modulo(out[m], p)
    return out


def _place_sums(stand: np.ndarray, at2: np.ndarray, stand_cls: np.ndarray, thirds: np.ndarray, draws: np.ndarray,
               at3: np.ndarray, after: np.ndarray, starts: np.ndarray, slot: np.ndarray, below: np.ndarray,
               p: int) -> np.ndarray:
    """(rows, len(starts), kept classes, width): one seat from each start class s, by the class it leaves (at
    ``slot[class]``, left out where that is -1), times ``below`` (states, width): ``stand[m, c, s]`` to
    ``stand_cls[c, s]`` from ``below[at2[m, c]]``, and, where ``draws[d, s]``, ``thirds[m, d, z]`` to
    ``after[s, z]`` from ``below[at3[m, d, z]]``."""
    rows, width = stand.shape[0], below.shape[1]
    kept = 0
    for c in range(slot.size):
        kept = max(kept, slot[c] + 1)
    out = np.zeros((rows, len(starts), kept, width), dtype=np.int64)
    for m in numba.prange(rows):
        acc = np.zeros((1, width), dtype=np.int64)
        for i in range(len(starts)):
            s = starts[i]
            for c in range(stand.shape[1]):
                t = slot[stand_cls[c, s]]
                if stand[m, c, s] and t >= 0:
                    _add(out[m, i, t], stand[m, c, s], below[at2[m, c]])
            _modulo(out[m, i], p)
            for z in range(thirds.shape[2]):  # a third card's sums reduced before they join a class's
                t = slot[after[s, z]]
                if t < 0:
                    continue
                acc[:] = 0
                for d in range(thirds.shape[1]):
                    if thirds[m, d, z] and draws[d, s]:
                        _add(acc[0], thirds[m, d, z], below[at3[m, d, z]])
                _modulo(acc, p)
                _add(out[m, i, t], 1, acc[0])
            _modulo(out[m, i], p)
    return out


def _last_sums(keys: np.ndarray, counts: np.ndarray, cu: np.ndarray, cw: np.ndarray, draw: np.ndarray,
               stand_cls: np.ndarray, after: np.ndarray, slot: np.ndarray, on: np.ndarray, kept: int) -> np.ndarray:
    """(rows, classes, kept), exact: the last seat of a chain from each start class s where ``on[s]``, by the
    class it leaves (at ``slot[class]``, left out where that is -1), from the cards left at each packed key
    (five bits a value). Standing on a composition (cu, cw) it takes ``stand_cls`` with the unused slot any
    card left, drawing it a third card z of the rest. At most n**3 sequences a row: int64 holds them for any
    shoe."""
    rows, classes = keys.size, after.shape[0]
    out = np.zeros((rows, classes, kept), dtype=np.int64)
    for m in numba.prange(rows):
        rr = np.empty(counts.size, dtype=np.int64)
        byz = np.empty(counts.size, dtype=np.int64)
        left = 0
        for v in range(counts.size):
            rr[v] = max(counts[v] - ((keys[m] >> (5 * v)) & 31), 0)
            left += rr[v]
        unused = max(left - 2, 0)
        for s in range(classes):
            if not on[s]:
                continue
            drawn = 0
            byz[:] = 0
            for c in range(cu.size):
                u, w = cu[c], cw[c]
                deals = two_card_deals(rr, u, w)
                if deals <= 0:
                    continue
                if draw[c, s]:  # the cards z left once the seat holds its two: rr[z] less its own
                    drawn += deals
                    byz[u] += deals
                    byz[w] += deals
                elif slot[stand_cls[c, s]] >= 0:
                    out[m, s, slot[stand_cls[c, s]]] += deals * unused
            for z in range(counts.size):
                x = drawn * rr[z] - byz[z]
                if x > 0 and slot[after[s, z]] >= 0:
                    out[m, s, slot[after[s, z]]] += x
    return out


# parallel code takes seconds to compile in every new process (each test worker), so sums smaller than
# this run compiled serially; the sums of a full shoe's levels run in parallel
_PARALLEL_FROM = 1 << 22


def _twice(f: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """``f`` compiled serially and in parallel, the parallel code when an input has ``_PARALLEL_FROM`` entries or
    more. Both are cached: the serial code under a copy of ``f`` with its own name, since numba keys a cache's
    index by the function's name and two caches of one function would share it."""
    copy = types.FunctionType(f.__code__, f.__globals__, f.__name__ + "_serial", f.__defaults__, f.__closure__)
    copy.__qualname__ = f.__qualname__ + "_serial"
    serial, parallel = numba.njit(cache=True)(copy), numba.njit(cache=True, parallel=True)(f)

    def run(*args: Any) -> np.ndarray:
        big = max(a.size for a in args if isinstance(a, np.ndarray)) >= _PARALLEL_FROM
        out: np.ndarray = (parallel if big else serial)(*args)
        return out
    return run


third_sums, seat_sums, place_sums = _twice(_third_sums), _twice(_seat_sums), _twice(_place_sums)
last_sums = _twice(_last_sums)


@numba.njit(cache=True, inline="always")
def _reduce(x: int, p: int, inv: float) -> int:
    """x mod p for 0 <= x < 2**63 and 2**27 < p < 2**28: x / p < 2**36, so float64's quotient is within 2**-16
    of it and its truncation within one of the true quotient; one correction each way is enough."""
    r = x - int(x * inv) * p
    r = r + p if r < 0 else r
    return r - p if r >= p else r


@numba.njit(cache=True, parallel=True)
def join(high: np.ndarray, low: np.ndarray, primes: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """(len(primes), n): (high 2**k + low) mod each prime, for non-negative int64 ``high`` and ``low`` (flat) and
    ``shifts`` = 2**k mod each prime. numpy's int64 remainder costs five passes and most of a level's time."""
    out = np.empty((len(primes), high.size), dtype=np.int64)
    for q in range(len(primes)):
        p, shift = primes[q], shifts[q]
        inv = 1.0 / p
        for i in numba.prange(high.size):
            out[q, i] = _reduce(_reduce(high[i], p, inv) * shift + _reduce(low[i], p, inv), p, inv)
    return out
