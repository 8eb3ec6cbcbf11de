"""The other seats' recursion (``seats``) counted by rank: every level on every multiset of its sizes.

Counting argument. With one other seat left to deal, its class counts from the cards left r are a
closed form (``seats``, one seat): ordered two-card deals of each kind times the third slot. With j
left, the first of them deals its pair and either draws a third card z (folded into the classes:
z turns "nobody drew" and every highest card up to z into z) or leaves an unused slot, moved to the
end of the sequence as a factor; the j - 1 seats below are the level under it, at the removed
multiset plus those cards. Every level is built bottom up on every multiset of the sizes the level
above asks for, each found by the colex rank of its stars-and-bars code (the positions of the nine
bars among the cards), so no state is searched for. The lowest level is held in int32 (at most n**3
sequences), the third-card fold under it in int64, and the two-seat level (at most nP6) is summed in
int64 and split into limbs as it is written; above it counts are limbs sized, as in ``seats``, so that
no sum overflows. Kernels walk the multisets in blocks, each with its own scratch arrays: one
allocation per block, not per multiset, which halved the time of the widest levels.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numba
import numpy as np

from oddscalc.games.shoe import VALUES

CLASSES = 12
NAT_CLASS, NONE_CLASS = 0, 1
NAT, STAND, DRAW = range(3)
# COMB[p, i] = C(p, i): the binomials of a multiset's colex rank (``ranks_of``), handed to every kernel that ranks
COMB = np.array([[math.comb(p, i) for i in range(VALUES)] for p in range(64)], dtype=np.int64)


def fits(n: int) -> bool:
    """Whether these levels' int64 (and the lowest level's int32) counts hold for a shoe of ``n`` cards."""
    return math.perm(n, 6) * n < 2**62 and n**3 < 2**31


BLOCKS = 1024  # blocks of multisets per level: enough to balance the threads, few enough that scratch is free


@numba.njit(cache=True)
def _block(b: int, rows: int) -> tuple[int, int]:
    """The ranks of block b of ``BLOCKS``."""
    return b * rows // BLOCKS, (b + 1) * rows // BLOCKS


@numba.njit(cache=True)
def _scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One block's scratch: a multiset, its bars, the cards left, and its rank prefixes (``_prefixes``)."""
    return (np.empty(VALUES, dtype=np.int64), np.empty(VALUES, dtype=np.int64), np.empty(VALUES, dtype=np.int64),
            np.empty((3, VALUES), dtype=np.int64))


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
def _prefixes(cnt: np.ndarray, binom: np.ndarray, pre: np.ndarray) -> None:
    """Into ``pre`` (3, 10): pre[k, a] sums the rank's terms of bars 1..a with k cards added below each bar.

    A card of value u adds one card below every bar after u, so the ranks of ``cnt`` plus one or two cards
    are sums of three prefixes (``_rank1``, ``_rank2``): one pass per multiset instead of one per card added."""
    p = 0
    pre[:, 0] = 0
    for i in range(1, VALUES):
        p += cnt[i - 1]
        for k in range(3):
            pre[k, i] = pre[k, i - 1] + binom[p + k + i - 1, i]


@numba.njit(cache=True)
def _rank1(pre: np.ndarray, z: int) -> int:
    """The rank of the multiset of ``pre`` with one card of value z added."""
    return int(pre[0, z] + pre[1, VALUES - 1] - pre[1, z])


@numba.njit(cache=True)
def _rank2(pre: np.ndarray, u: int, w: int) -> int:
    """The rank of the multiset of ``pre`` with cards of values u <= w added."""
    return int(pre[0, u] + pre[1, w] - pre[1, u] + pre[2, VALUES - 1] - pre[2, w])


@numba.njit(cache=True)
def two_card_deals(rr: np.ndarray, u: int, w: int) -> int:
    """Ordered two-card deals of values u and w from ``rr`` cards left per value."""
    return int(rr[u] * (rr[w] - (1 if u == w else 0)) * (1 if u == w else 2))


@numba.njit(cache=True)
def _unrank(r: int, size: int, binom: np.ndarray, cnt: np.ndarray, bars: np.ndarray) -> None:
    """The multiset of ``size`` cards with colex rank ``r``, into ``cnt`` (``bars``: scratch)."""
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
def _left(c: np.ndarray, cnt: np.ndarray, rr: np.ndarray) -> None:
    """The cards left per value once ``cnt`` is removed, into ``rr``."""
    for v in range(VALUES):
        rr[v] = max(c[v] - cnt[v], 0)


@numba.njit(cache=True)
def _partners(rr: np.ndarray, a: np.ndarray, u: int) -> int:
    """Cards left that make a set pair a[u, w] with one card u (not that card itself)."""
    s = 0
    for w in range(VALUES):
        if a[u, w]:
            s += rr[w]
    return s - 1 if a[u, u] else s


@numba.njit(cache=True)
def _pairs(rr: np.ndarray, a: np.ndarray) -> int:
    """Ordered two-card deals (u, w) with a[u, w] set from the cards left."""
    t = 0
    for u in range(VALUES):
        t += rr[u] * _partners(rr, a, u)
    return t


@numba.njit(cache=True, parallel=True)
def one_seat(size: int, c: np.ndarray, natural: np.ndarray, standing: np.ndarray, drawing: np.ndarray,
             binom: np.ndarray, todo: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Into ``out`` (C(size + 9, 9), 12) int32: one seat's card sequences by class, per removed multiset of
    ``size`` cards, at the ranks ``todo`` (the other rows are left as they are)."""
    for b in numba.prange(BLOCKS):
        cnt, bars, rr, _ = _scratch()
        lo, hi = _block(b, len(todo))
        for ix in range(lo, hi):
            r = todo[ix]
            _unrank(r, size, binom, cnt, bars)
            _left(c, cnt, rr)
            nn = rr.sum()
            out[r, NAT_CLASS] = _pairs(rr, natural) * (nn - 2)
            out[r, NONE_CLASS] = _pairs(rr, standing) * (nn - 2)
            pd = _pairs(rr, drawing)
            for z in range(VALUES):  # the third card is none of the seat's own two
                out[r, 2 + z] = pd * rr[z] - 2 * rr[z] * _partners(rr, drawing, z)
    return out


@numba.njit(cache=True, parallel=True)
def third_card(size: int, c: np.ndarray, below: np.ndarray, binom: np.ndarray, todo: np.ndarray,
               out: np.ndarray) -> np.ndarray:
    """Into ``out`` (C(size + 9, 9), 12), zeros at the ranks ``todo``: a seat that holds its two cards draws a
    third card z, then the seat below (``below``: ``one_seat`` at size + 1) deals; z turns "nobody drew" and
    every highest card up to z into z."""
    for b in numba.prange(BLOCKS):
        cnt, bars, _, pre = _scratch()
        lo, hi = _block(b, len(todo))
        for ix in range(lo, hi):
            r = todo[ix]
            _unrank(r, size, binom, cnt, bars)
            _prefixes(cnt, binom, pre)
            for z in range(VALUES):
                left = c[z] - cnt[z]
                if left <= 0:
                    continue
                g = below[_rank1(pre, z)]
                out[r, NAT_CLASS] += left * g[NAT_CLASS]
                out[r, 2 + z] += left * g[NONE_CLASS]
                for k in range(VALUES):
                    out[r, 2 + max(k, z)] += left * g[2 + k]
    return out


@numba.njit(cache=True, parallel=True)
def two_seats(size: int, c: np.ndarray, kinds: np.ndarray, natural: np.ndarray, stand_below: np.ndarray,
              draw_below: np.ndarray, bits: int, binom: np.ndarray, todo: np.ndarray,
              out: np.ndarray) -> np.ndarray:
    """Into ``out`` (C(size + 9, 9), 12, width) limbs of ``bits`` bits, at the ranks ``todo``: two seats' card
    sequences by class, per removed multiset of ``size`` cards (each count fits int64 by :func:`fits`, and is
    split into limbs as it is made).

    ``stand_below`` is ``one_seat`` and ``draw_below`` is ``third_card``, both at size + 2; a standing
    seat's unused third slot moves to the end of the sequence, a factor of the cards then left."""
    width = out.shape[2]
    mask = (1 << bits) - 1
    for b in numba.prange(BLOCKS):
        cnt, bars, rr, pre = _scratch()
        acc = np.empty(CLASSES, dtype=np.int64)
        lo, hi = _block(b, len(todo))
        for ix in range(lo, hi):
            q = todo[ix]
            _two_seats_row(q, size, c, kinds, natural, stand_below, draw_below, binom, cnt, bars, rr, acc, pre)
            for k in range(CLASSES):
                v = acc[k]
                for j in range(width):
                    out[q, k, j] = v & mask
                    v >>= bits
    return out


@numba.njit(cache=True)
def _two_seats_row(q: int, size: int, c: np.ndarray, kinds: np.ndarray, natural: np.ndarray, stand_below: np.ndarray,
                   draw_below: np.ndarray, binom: np.ndarray, cnt: np.ndarray, bars: np.ndarray, rr: np.ndarray,
                   acc: np.ndarray, pre: np.ndarray) -> None:
    """One row of ``two_seats``, in int64, into ``acc`` (the other arrays: scratch)."""
    _unrank(q, size, binom, cnt, bars)
    _prefixes(cnt, binom, pre)
    _left(c, cnt, rr)
    nn = rr.sum()
    acc[:] = 0
    for u in range(VALUES):
        for w in range(u, VALUES):
            kind = kinds[u, w]
            if kind == NAT:
                continue
            m = two_card_deals(rr, u, w)
            if m <= 0:
                continue
            i = _rank2(pre, u, w)
            if kind == STAND:
                f = m * (nn - 5)
                for k in range(CLASSES):
                    acc[k] += f * stand_below[i, k]
            else:
                for k in range(CLASSES):
                    acc[k] += m * draw_below[i, k]
    nat = _pairs(rr, natural)
    for j in range(4):  # a natural ends the deal: the other four slots are any cards left
        nat *= max(nn - 2 - j, 0)
    acc[NAT_CLASS] += nat


@numba.njit(cache=True)
def _carry(acc: np.ndarray, bits: int) -> None:
    """Carry non-negative limb sums (last axis) into limbs below 2**bits; the last limb keeps the rest."""
    mask = (1 << bits) - 1
    for k in range(acc.shape[0]):
        for j in range(acc.shape[1] - 1):
            acc[k, j + 1] += acc[k, j] >> bits
            acc[k, j] &= mask


@numba.njit(cache=True, parallel=True)
def third_card_limbs(size: int, c: np.ndarray, below: np.ndarray, bits: int, binom: np.ndarray, todo: np.ndarray,
                     out: np.ndarray) -> np.ndarray:
    """``third_card`` on limbs: into ``out`` (C(size + 9, 9), 12, L + 1), zeros at the ranks ``todo``, from
    ``below`` (C(size + 10, 9), 12, L)."""
    width = below.shape[2] + 1
    for b in numba.prange(BLOCKS):
        cnt, bars, _, pre = _scratch()
        lo, hi = _block(b, len(todo))
        for ix in range(lo, hi):
            r = todo[ix]
            _unrank(r, size, binom, cnt, bars)
            _prefixes(cnt, binom, pre)
            acc = out[r]
            for z in range(VALUES):
                left = c[z] - cnt[z]
                if left <= 0:
                    continue
                i = _rank1(pre, z)
                for j in range(width - 1):
                    acc[NAT_CLASS, j] += left * below[i, NAT_CLASS, j]
                    acc[2 + z, j] += left * below[i, NONE_CLASS, j]
                    for k in range(VALUES):
                        acc[2 + max(k, z), j] += left * below[i, 2 + k, j]
            _carry(acc, bits)
    return out


@numba.njit(cache=True)
def _natural_limbs(rr: np.ndarray, nn: int, seats: int, natural: np.ndarray, bits: int, nat: np.ndarray) -> None:
    """Into ``nat`` (1, width) limbs: a seat with a natural ends the deal, the other 3 x seats - 2 slots any cards
    left."""
    width = nat.shape[1]
    nat[0, :] = 0
    nat[0, 0] = _pairs(rr, natural)
    _carry(nat, bits)
    for j in range(3 * seats - 2):
        for t in range(width):
            nat[0, t] *= max(nn - 2 - j, 0)
        _carry(nat, bits)


@numba.njit(cache=True)
def _add(acc: np.ndarray, f: int, below: np.ndarray) -> None:
    """acc[:, :L] += f * below (limbs)."""
    for k in range(below.shape[0]):
        for j in range(below.shape[1]):
            acc[k, j] += f * below[k, j]


@numba.njit(cache=True, parallel=True)
def seats_limbs(size: int, seats: int, c: np.ndarray, kinds: np.ndarray, natural: np.ndarray, stand_below: np.ndarray,
                draw_below: np.ndarray, bits: int, binom: np.ndarray, todo: np.ndarray,
                out: np.ndarray) -> np.ndarray:
    """Into ``out`` (C(size + 9, 9), 12, width) limbs, zeros at the ranks ``todo``: ``seats`` seats' sequences by
    class per removed multiset of ``size`` cards, from the level below at size + 2 (``stand_below``) and its
    third-card fold (``draw_below``)."""
    width = out.shape[2]
    for b in numba.prange(BLOCKS):
        cnt, bars, rr, pre = _scratch()
        nat = np.empty((1, width), dtype=np.int64)
        lo, hi = _block(b, len(todo))
        for ix in range(lo, hi):
            r = todo[ix]
            _unrank(r, size, binom, cnt, bars)
            _prefixes(cnt, binom, pre)
            _left(c, cnt, rr)
            nn = rr.sum()
            acc = out[r]
            for u in range(VALUES):
                for w in range(u, VALUES):
                    m = two_card_deals(rr, u, w)
                    if kinds[u, w] == NAT or m <= 0:
                        continue
                    i = _rank2(pre, u, w)
                    if kinds[u, w] == STAND:  # the unused third slot moves to the end: a factor of the cards left
                        _add(acc, m * (nn - 2 - 3 * (seats - 1)), stand_below[i])
                    else:
                        _add(acc, m, draw_below[i])
            _carry(acc, bits)
            _natural_limbs(rr, nn, seats, natural, bits, nat)
            for t in range(width):
                acc[NAT_CLASS, t] += nat[0, t]
            _carry(acc, bits)
    return out


@numba.njit(cache=True)
def ranks_of(rows: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """The colex rank of each row's multiset among those of its size."""
    out = np.empty(rows.shape[0], dtype=np.int64)
    for q in range(rows.shape[0]):
        out[q] = _rank(rows[q], binom)
    return out


@numba.njit(cache=True)
def _clamped(size: int, c: np.ndarray, binom: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every multiset X of ``size`` cards, by rank: the size and the rank of min(X, c), which the shoe holds."""
    rows = binom[size + VALUES - 1, VALUES - 1]
    sizes = np.empty(rows, dtype=np.int64)
    ranks = np.empty(rows, dtype=np.int64)
    cnt, bars, _, _ = _scratch()
    for r in range(rows):
        _unrank(r, size, binom, cnt, bars)
        for v in range(VALUES):
            cnt[v] = min(cnt[v], c[v])
        sizes[r] = cnt.sum()
        ranks[r] = _rank(cnt, binom)
    return sizes, ranks


def _every_rank(size: int, c: np.ndarray, level: dict[int, np.ndarray]) -> np.ndarray:
    """A level on every multiset of ``size`` cards, by rank, from ``level`` counted on those the shoe holds at
    every size up to it: a multiset's counts are those of min(X, c) (``all_seats``)."""
    sizes, ranks = _clamped(size, c, COMB)
    top = level[size]
    out = np.zeros((len(sizes), *top.shape[1:]), dtype=top.dtype)
    for t in np.unique(sizes).tolist():
        pick = np.flatnonzero(sizes == t)
        out[pick] = level[t][ranks[pick]]
    return out


# sub-multisets of the shoe up to which only those are counted (a small shoe's few thousand, not every multiset)
DEALT_LIMIT = 300_000


def dealt(c: np.ndarray) -> dict[int, np.ndarray] | None:
    """The ranks, by size, of every multiset the shoe ``c`` holds, when it holds at most ``DEALT_LIMIT``."""
    return _dealt(tuple(int(x) for x in c))


@functools.lru_cache(maxsize=8)
def _dealt(c: tuple[int, ...]) -> dict[int, np.ndarray] | None:
    # a search asks for the same shoe's levels again and again
    if math.prod(x + 1 for x in c) > DEALT_LIMIT:
        return None
    grid = np.ascontiguousarray(np.indices(tuple(x + 1 for x in c)).reshape(VALUES, -1).T, dtype=np.int64)
    size = grid.sum(axis=1)
    ranks = ranks_of(grid, COMB)
    order = np.lexsort((ranks, size))
    ranks, size = ranks[order], size[order]
    cuts = np.flatnonzero(np.diff(size)) + 1
    return {int(part[0]): r for part, r in zip(np.split(size, cuts), np.split(ranks, cuts))}


class _Sweeps:
    """Which ranks of each size a level is counted at (``held``: those of ``dealt``; None: all), and the arrays."""

    def __init__(self, held: dict[int, np.ndarray] | None) -> None:
        self.held = held

    def todo(self, t: int) -> np.ndarray:
        """The ranks of size t to count."""
        if self.held is None:
            return np.arange(math.comb(t + VALUES - 1, VALUES - 1))
        return self.held.get(t, np.zeros(0, dtype=np.int64))

    def room(self, t: int, *tail: int, dtype: type = np.int64, empty: bool = False) -> np.ndarray:
        """A level's array at size t: uninitialised when ``empty`` and every row is written, else zeros."""
        # on the held ranks alone the rows not written are never read, and calloc's zeros cost no memory until
        # touched
        shape = (math.comb(t + VALUES - 1, VALUES - 1), CLASSES, *tail)
        return np.empty(shape, dtype=dtype) if empty and self.held is None else np.zeros(shape, dtype=dtype)


def _sizes(seats: int, top: set[int], every: dict[int, int]) -> dict[int, set[int]]:
    """The sizes each level is counted at, from the rows' ``top``; level j at every size up to every[j] too."""
    sizes: dict[int, set[int]] = {seats: top}
    for j in range(seats, 1, -1):  # j seats at size s need j - 1 at s + 2 (a stand) and s + 3 (a draw)
        if j in every:  # every size up to the kept one, for the multisets clamped to the shoe
            sizes[j] |= set(range(every[j] + 1))
        sizes[j - 1] = {t for s in sizes[j] for t in (s + 2, s + 3)}
    return sizes


def all_seats(c: np.ndarray, seats: int, rows: np.ndarray, kinds: np.ndarray, natural: np.ndarray,
              standing: np.ndarray, drawing: np.ndarray, bits: int, needed: Callable[[int], int],
              kept: dict[int, np.ndarray] | None = None, sweep: bool | None = None) -> np.ndarray:
    """(len(rows), 12, L) limbs of ``bits`` bits: ``seats`` (2 or more) other seats' sequences by class per
    removed multiset, every level counted by rank, bottom up, each kept until the one above is built.
    ``needed(j)``: the limbs that j seats' counts take. ``kept``: for each key r in it (1 <= r < seats), the
    level of seats - r seats on every multiset of the rows' size + 3r, by rank, is put there as limbs
    (``anchors`` reads what r seats drawing take from the others off them).

    Unless ``sweep`` is True, a shoe of few sub-multisets (``dealt``) is counted on those alone: every count
    depends on the cards left, max(c - removed, 0), alone (a kernel reads the level below only at cards it can
    deal), so a row no shoe holds is counted at min(removed, c), which it holds, and the multisets the shoe
    holds read only each other; a kept level is counted so at every size up to its own, then read on every
    multiset of its size at min(X, c)."""
    top = int(rows.sum(axis=1).max(initial=0))
    want = {seats - r: top + 3 * r for r in (kept or {}) if 1 <= r < seats}
    sweeps = _Sweeps(None if sweep else dealt(c))
    if sweeps.held is not None:
        rows = np.minimum(rows, c)
    todo, room = sweeps.todo, sweeps.room

    def keep(j: int, levels: dict[int, np.ndarray]) -> None:
        if kept is not None and j in want:
            arr = levels[want[j]] if sweeps.held is None else _every_rank(want[j], c, levels)
            kept[seats - j] = arr if arr.ndim == 3 else arr[:, :, None].astype(np.int64)

    sizes = _sizes(seats, set(rows.sum(axis=1).tolist()), want if sweeps.held is not None else {})
    one: dict[int, np.ndarray] = {}  # the lowest level, two sizes at a time: it holds the most states

    def seat(t: int) -> np.ndarray:
        if t not in one:
            one[t] = one_seat(t, c, natural, standing, drawing, COMB, todo(t), room(t, dtype=np.int32, empty=True))
        return one[t]

    level: dict[int, np.ndarray] = {}
    for s in sorted(sizes[2]):
        for t in [t for t in one if t < s + 2]:
            del one[t]
        drawn = third_card(s + 2, c, seat(s + 3), COMB, todo(s + 2), room(s + 2))
        level[s] = two_seats(s, c, kinds, natural, seat(s + 2), drawn, bits, COMB, todo(s),
                             room(s, needed(2), empty=True))
        del drawn
    if sweeps.held is not None and 1 in want:  # the one-seat level at every size up to the kept one
        one = {t: seat(t) for t in range(want[1] + 1)}
    keep(1, one)  # the last two-seat size asked for the one-seat level at the top size + 3 (seats - 1)
    keep(2, level)
    one.clear()
    for j in range(3, seats + 1):
        # levels of one size may be narrower than others: the kernels read each at its own width
        width = max(max(a.shape[2] for a in level.values()) + 2, needed(j))
        above: dict[int, np.ndarray] = {}
        for s in sorted(sizes[j]):
            drawn = third_card_limbs(s + 2, c, level[s + 3], bits, COMB, todo(s + 2),
                                     room(s + 2, level[s + 3].shape[2] + 1))
            above[s] = seats_limbs(s, j, c, kinds, natural, level[s + 2], drawn, bits, COMB, todo(s), room(s, width))
            del drawn
        level = above
        keep(j, level)
    width = max(a.shape[2] for a in level.values())
    out = np.zeros((len(rows), CLASSES, width), dtype=np.int64)
    sz = rows.sum(axis=1)
    for s, arr in level.items():
        pick = np.flatnonzero(sz == s)
        out[pick, :, :arr.shape[2]] = arr[ranks_of(np.ascontiguousarray(rows[pick], dtype=np.int64), COMB)]
    return out
