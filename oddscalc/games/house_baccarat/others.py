"""House baccarat's other seats: card sequences of the seats besides yours, by the class they put the table in.

Counting argument. Seats are exchangeable, so "you" hold the first seat; the others matter to you
only through a class: one of them has a natural (you sit out), or nobody else drew, or the
highest third card they drew is z (the house draws on it). For every multiset of cards already
removed from the shoe, :func:`others_finite` counts the ordered sequences of 3 x seats cards of
the other seats (two cards and a third-card slot each) in each class. It recurses seat by seat,
level by level over every multiset of cards removed so far (a slight superset of those reachable);
a seat's unused third card is moved to the end of the sequence (exchangeability), so it costs a
factor, not a branch. Counts are kept as int64 limbs of a width sized so that no product
overflows, and big integers meet small ones only in limb products, so everything stays exact.
On an infinite shoe (cards with replacement) the seats are independent: :func:`others_infinite`.
From two other seats on, every level is counted on every multiset of its sizes, each found by rank
instead of searched (``seat_levels``); the counts are the same to the unit (a test compares both).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from oddscalc.games.shoe import VALUE_KEYS, VALUES, falling, from_limbs

NAT_CLASS, NONE_CLASS = 0, 1  # the others' class: 0 some other natural, 1 nobody else drew, 2 + z highest third z
CLASSES = 12
NATURAL = np.add.outer(np.arange(VALUES), np.arange(VALUES)) % 10 >= 8

NAT, STAND, DRAW = range(3)


def _compositions(draws: np.ndarray) -> list[tuple[int, int, int]]:
    out = []
    for u in range(VALUES):
        for w in range(u, VALUES):
            kind = NAT if NATURAL[u, w] else DRAW if draws[u, w] else STAND
            out.append((u, w, kind))
    return out


_AT_MOST = np.tril(np.ones((VALUES, VALUES), dtype=np.int64))  # [z, m]: m <= z
_BELOW = np.triu(np.ones((VALUES, VALUES), dtype=np.int64), 1)  # [z, m]: z < m
CHUNK = 16384  # states per block: bounds the memory of the (states, 10, 12, limbs) temporaries
_WORKERS = min(8, os.cpu_count() or 1)


def decode(keys: np.ndarray) -> np.ndarray:
    """Packed multiset keys back to (M, 10) count vectors."""
    return (keys[:, None] >> (5 * np.arange(VALUES, dtype=np.int64))) & 31


def merge(runs: np.ndarray) -> np.ndarray:
    """Sorted distinct values of a flat array made of sorted runs."""
    runs.sort(kind="stable")  # timsort: linear-ish on a few sorted runs, unlike np.unique's hashing
    keep = np.empty(len(runs), dtype=bool)
    keep[:1] = True
    np.not_equal(runs[1:], runs[:-1], out=keep[1:])
    return runs[keep]


def grow(keys: np.ndarray) -> np.ndarray:
    """Sorted keys of every multiset with one more card than one of the sorted ``keys``."""
    return merge((VALUE_KEYS[:, None] + keys[None, :]).ravel())


def _in_blocks(rows: int, work: Callable[[slice], None]) -> None:
    """Run ``work`` on blocks of rows, on every core: numpy releases the GIL in these kernels and each
    block writes only its own rows, so the integer results are the same in any order."""
    blocks = [slice(start, start + CHUNK) for start in range(0, rows, CHUNK)]
    if len(blocks) < 2 or _WORKERS < 2:
        for b in blocks:
            work(b)
        return
    with ThreadPoolExecutor(_WORKERS) as pool:
        for _ in pool.map(work, blocks):
            pass


def _third_card(limbs: np.ndarray, states: np.ndarray, keys: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """(M, 12, L): a seat that has its two cards (shoe minus ``keys``) draws a third card z, then the
    seats below deal: sum over z of (cards z left) x the class below, moved by z."""
    out = np.zeros((len(keys), CLASSES, limbs.shape[-1]), dtype=np.int64)

    def work(part: slice) -> None:
        kk = keys[part]
        left = np.maximum(counts - decode(kk), 0)
        g = limbs[np.searchsorted(states, kk[:, None] + VALUE_KEYS)] * left[:, :, None, None]  # (m, z, class, L)
        high = g[:, :, 2:]
        o = out[part]
        o[:, NAT_CLASS] = g[:, :, NAT_CLASS].sum(axis=1)
        # z turns "nobody drew" and every highest card m <= z into z; a higher m stays
        o[:, 2:] = g[:, :, NONE_CLASS] + np.einsum("mzkl,zk->mzl", high, _AT_MOST)
        o[:, 2:] += np.einsum("mzkl,zk->mkl", high, _BELOW)

    _in_blocks(len(keys), work)
    return out


def _carry(parts: np.ndarray, bits: int) -> None:
    """In place: carry non-negative limb sums (last axis, each below 2**62) into limbs below 2**bits.
    The caller sized the last axis for the value, so nothing is left over."""
    mask = (1 << bits) - 1
    for j in range(parts.shape[-1] - 1):
        parts[..., j + 1] += parts[..., j] >> bits
        parts[..., j] &= mask


def _width(value: int, bits: int) -> int:
    """Limbs of ``bits`` bits that hold ``value``."""
    return max(1, -(-value.bit_length() // bits))


# other seats from which every level is counted by rank (seat_levels): on 8 decks two other seats take
# 10 ms that way against 82 ms searched, three 100 ms against 576 ms
LEVELS_FROM = 2


def limb_bits(counts: Sequence[int], removed: np.ndarray) -> int:
    """The limb width of :func:`others_finite`'s levels for this shoe and these removed multisets.

    One width for every level. A seat's weights (ordered two-card deals times the third card or the
    unused slot) add up to at most n**3, and each weight meets at most 11 limbs of one output entry (the
    classes a third card folds together), so an entry stays below 12 n**3 2**bits < 2**62. The deepest
    states have the fewest cards left."""
    n_top = max(int(sum(counts)) - int(np.asarray(removed).sum(axis=1).min(initial=0)), 1)
    bits = 62 - (12 * n_top**3).bit_length()
    if bits < 8:
        raise ValueError("shoe too large for the exact finite-shoe recursion")
    return bits


def others_finite(counts: Sequence[int], seats: int, draws: np.ndarray, removed: np.ndarray,
                  levels: bool | None = None, kept: dict[int, np.ndarray] | None = None) -> np.ndarray:
    """(M, 12): card sequences of ``seats`` other players (3 slots each) by class, per removed multiset.

    Row i counts ordered sequences of 3 * seats cards from the shoe minus ``removed[i]``, weighted by
    card multiplicities, split by the class they put the table in. Rows sum to (n) P (3 * seats).
    Returns int64 when that total fits, else Python ints (object). ``kept``: when the levels are counted
    by rank, filled with lower levels in limbs of :func:`limb_bits` bits as ``seat_levels.all_seats`` says;
    otherwise left empty.
    """
    c = np.asarray(counts, dtype=np.int64)
    removed = np.asarray(removed, dtype=np.int64)
    if seats == 0:  # nobody else: one empty sequence, in the class "nobody else drew", whatever the shoe
        none = np.zeros((len(removed), CLASSES), dtype=np.int64)
        none[:, NONE_CLASS] = 1
        return none
    n_top = max(int(c.sum()) - int(removed.sum(axis=1).min(initial=0)), 1)
    bits = limb_bits(counts, removed)
    ranked = (seats >= LEVELS_FROM if levels is None else levels) and seats >= 2 and _ranked_fits(int(c.sum()))
    if ranked:
        from oddscalc.games.house_baccarat import levels as seat_levels

        natural = NATURAL.astype(np.int64)
        drawing = (draws & ~NATURAL).astype(np.int64)
        kinds = np.where(NATURAL, NAT, np.where(draws, DRAW, STAND)).astype(np.int64)
        limbs = seat_levels.all_seats(c, seats, removed, kinds, natural, 1 - natural - drawing, drawing, bits,
                                      lambda j: _width(falling(n_top, 3 * j), bits), kept)
    else:
        limbs = _others_limbs(c, seats, draws, removed @ VALUE_KEYS, bits, n_top)
    return from_limbs(limbs, bits, falling(n_top, 3 * seats) < 2**63)


def _ranked_fits(n: int) -> bool:
    from oddscalc.games.house_baccarat import (
        levels as seat_levels,  # numba: loaded only for the tables of several seats that use it
    )

    return seat_levels.fits(n)


def _others_limbs(c: np.ndarray, seats: int, draws: np.ndarray, keys: np.ndarray, bits: int,
                  n_top: int) -> np.ndarray:
    """:func:`others_finite` for packed multiset keys, as base-2**bits limbs (M, 12, L), all int64."""
    rows = len(keys)
    if seats == 0:
        none = np.zeros((rows, CLASSES, 1), dtype=np.int64)
        none[:, NONE_CLASS] = 1
        return none
    natural = NATURAL.astype(np.int64)
    drawing = (draws & ~NATURAL).astype(np.int64)
    comps = _compositions(draws)
    cu = np.array([u for u, _, _ in comps])
    cw = np.array([w for _, w, _ in comps])
    kind = np.array([k for _, _, k in comps])
    order = np.where(cu == cw, 1, 2)  # ordered deals of the two values

    def pairs(rr: np.ndarray, a: np.ndarray) -> np.ndarray:
        """Ordered two-card deals (u, w) with a[u, w] set: sum of r_u (r_w - [u = w])."""
        out: np.ndarray = (rr * (rr @ a - np.diag(a))).sum(axis=1)
        return out

    if seats == 1:
        out1 = np.zeros((rows, CLASSES, _width(n_top**3, bits)), dtype=np.int64)
        standing = 1 - natural - drawing

        def work1(part: slice) -> None:
            rr = np.maximum(c - decode(keys[part]), 0)
            nn = rr.sum(axis=1)
            o = out1[part, :, 0]
            o[:, NAT_CLASS] = pairs(rr, natural) * (nn - 2)
            o[:, NONE_CLASS] = pairs(rr, standing) * (nn - 2)
            # the third card is any card left but the seat's own two
            own = 2 * rr * (rr @ drawing - np.diag(drawing))
            o[:, 2:] = pairs(rr, drawing)[:, None] * rr - own
            _carry(out1[part], bits)

        _in_blocks(rows, work1)
        return out1

    # every multiset with two or three more cards: a slight superset of the states the seat can reach,
    # grown one card at a time because that is far cheaper than enumerating (state, composition) pairs
    plus2 = grow(grow(np.sort(keys)))
    states = merge(np.concatenate([plus2, grow(plus2)]))
    below = _others_limbs(c, seats - 1, draws, states, bits, n_top)  # (states, 12, L)
    stand = np.flatnonzero(kind == STAND)
    drawn = np.flatnonzero(kind == DRAW)
    after_third = _third_card(below, states, plus2, c)  # (plus2, 12, L)
    ck = VALUE_KEYS[cu] + VALUE_KEYS[cw]
    width = max(below.shape[-1] + 1, _width(falling(n_top, 3 * seats), bits))
    out_l = np.zeros((rows, CLASSES, width), dtype=np.int64)
    used = below.shape[-1]

    def work(part: slice) -> None:
        kk = keys[part]
        rr = np.maximum(c - decode(kk), 0)
        nn = rr.sum(axis=1)
        m = rr[:, cu] * (rr[:, cw] - (cu == cw)) * order  # (m, compositions): ordered deals of each
        o = out_l[part]
        if len(stand):
            # the seat's unused third card moves to the end of the sequence: a factor, not a branch
            ws = m[:, stand] * (nn - 2 - 3 * (seats - 1))[:, None]
            o[..., :used] += np.einsum("mc,mckl->mkl", ws, below[np.searchsorted(states, kk[:, None] + ck[stand])])
        if len(drawn):
            idx = np.searchsorted(plus2, kk[:, None] + ck[drawn])
            o[..., :used] += np.einsum("mc,mckl->mkl", m[:, drawn], after_third[idx])
        _carry(o, bits)
        # a seat with a natural ends the deal: the other 3 * seats - 2 slots are any cards left
        nat = np.zeros((len(kk), width), dtype=np.int64)
        nat[:, 0] = pairs(rr, natural)
        _carry(nat, bits)
        for i in range(3 * seats - 2):
            nat *= np.maximum(nn - 2 - i, 0)[:, None]
            _carry(nat, bits)
        o[:, NAT_CLASS] += nat
        _carry(o, bits)

    _in_blocks(rows, work)
    return out_l


def others_infinite(reduced: Sequence[int], seats: int, draws: np.ndarray) -> list[int]:
    """(12,) like :func:`others_finite` for cards drawn with replacement (seats independent)."""
    total = sum(reduced)
    q = [0] * CLASSES
    for u in range(VALUES):
        for w in range(VALUES):
            pair = reduced[u] * reduced[w]
            if NATURAL[u, w]:
                q[NAT_CLASS] += pair * total
            elif draws[u, w]:
                for z in range(VALUES):
                    q[2 + z] += pair * reduced[z]
            else:
                q[NONE_CLASS] += pair * total
    out = [0] * CLASSES
    below = q[NONE_CLASS] ** seats  # no natural, nobody drew
    out[NONE_CLASS] = below
    running = q[NONE_CLASS]
    for z in range(VALUES):
        running += q[2 + z]
        at_most = running**seats
        out[2 + z] = at_most - below
        below = at_most
    out[NAT_CLASS] = total ** (3 * seats) - below
    return out
