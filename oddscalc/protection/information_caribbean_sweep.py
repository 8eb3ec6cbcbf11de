"""Caribbean Stud's count split by a two-group sort of the cards: for each player hand, up card and number j of
the dealer's four hole cards in the first group, the hole sets that do not qualify, lose and tie.

Counting argument. As in ``games.caribbean.dealer_sweep``, the dealer hands holding the up card u, avoiding the
player's hand P and weaker than a threshold x number

    L(P, u, x) = sum over S subset of P, |S| <= 4, of (-1)^|S| * g(S + {u}, x),

by inclusion and exclusion over the player's cards (the indicator that a dealer hand D misses P is the sum over
S inside both of (-1)^|S|). That identity holds for any property of D, so splitting every counter g(T, x) by
a(D), the number of D's five cards in the first group, splits L the same way: the hands with j first-group hole
cards are those with a(D) = j + [u in the first group]. The sweep keeps six counters per 1- to 4-card set T
(one per a, side by side, so a read of T's six is one cache line), and answers each (P, u) for the five j at
once: 31 x 5 reads a threshold instead of 31.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from oddscalc.cards import Deck
from oddscalc.games.caribbean.dealer_sweep import POPCOUNT, SIGN, levels, rep_table
from oddscalc.hands import BINOM
from oddscalc.interrupts import held
from oddscalc.progress import Progress

CHUNKS = 16
SPLIT = 6  # a(D): 0..5 of the dealer's cards in the first group
HOLES = 5  # j: 0..4 of the hole cards in the first group


@numba.njit(cache=True)
def _split_below(p: np.ndarray, x: int, table: np.ndarray, cnt: np.ndarray, off: np.ndarray, strength: np.ndarray,
                 binom: np.ndarray, popcount: np.ndarray, sign: np.ndarray, first: np.ndarray,
                 dest: np.ndarray) -> None:
    """dest[ui, j] = dealer hands holding up card u (ascending over the cards not in P), avoiding P, weaker than
    x, with j hole cards in the first group (the counters are at x)."""
    rep_table(p, binom, table)
    ui = 0
    ins = 0
    for u in range(dest.shape[0] + 5):
        if ins < 5 and p[ins] == u:
            ins += 1
            continue
        fu = first[u]
        for j in range(HOLES):
            dest[ui, j] = 0
        for mask in range(31):
            k = popcount[mask] + 1
            below_u = 0
            for b in range(ins):
                if mask >> b & 1:
                    below_u += 1
            idx = table[ins, mask] + binom[u, below_u + 1]
            if k == 5:  # S + {u} is a whole hand: its own split, compared with x directly
                if strength[idx] < x:
                    a = fu
                    for b in range(5):
                        if mask >> b & 1:
                            a += first[p[b]]
                    dest[ui, a - fu] += sign[mask]
            else:
                base = (off[k] + idx) * SPLIT + fu
                for j in range(HOLES):
                    dest[ui, j] += sign[mask] * cnt[base + j]
        ui += 1


@numba.njit(cache=True)
def _count_split_level(hands: np.ndarray, hand_pos: np.ndarray, binom: np.ndarray, off: np.ndarray,
                       first: np.ndarray, c: np.ndarray) -> None:
    """Add the ``hands`` (one strength level) to the counters of their 1- to 4-card sets, under their split."""
    for h in hands:
        p = hand_pos[h]
        a = first[p[0]] + first[p[1]] + first[p[2]] + first[p[3]] + first[p[4]]
        for mask in range(1, 31):
            idx = 0
            r = 0
            for i in range(5):
                if mask >> i & 1:
                    idx += binom[p[i], r + 1]
                    r += 1
            c[(off[r] + idx) * SPLIT + a] += 1


@numba.njit(cache=True, parallel=True)
def _sweep(  # noqa: C901 - the count's one loop, kept whole for numba
    lev_lo: int, lev_hi: int, q: int, hand_pos: np.ndarray, order: np.ndarray, level_start: np.ndarray,
    reps_pos: np.ndarray, rep_order: np.ndarray, rep_start: np.ndarray, strength: np.ndarray, binom: np.ndarray,
    off: np.ndarray, cnt: np.ndarray, out: np.ndarray, popcount: np.ndarray, sign: np.ndarray, first: np.ndarray,
) -> None:
    """Sweep strength levels [lev_lo, lev_hi) as ``dealer_sweep`` does, with split counters; out[ri, ui, j] holds
    (not qualifying, player wins, push). Each player hand belongs to one worker."""
    workers = cnt.shape[0]
    m, nu = out.shape[0], out.shape[1]
    n_levels = level_start.shape[0] - 1
    for w in numba.prange(workers):
        c = cnt[w]
        table = np.empty((6, 32), dtype=np.int64)
        widest = 0
        for lev in range(lev_lo, min(lev_hi, n_levels + 1)):
            widest = max(widest, rep_start[lev + 1] - rep_start[lev])
        before = np.empty((max(widest, 1), nu, HOLES), dtype=np.int64)
        after = np.empty((nu, HOLES), dtype=np.int64)
        here = np.empty((nu, HOLES), dtype=np.int64)
        for lev in range(lev_lo, lev_hi):
            if lev == q:
                for ri in range(w, m, workers):
                    _split_below(reps_pos[ri], q, table, c, off, strength, binom, popcount, sign, first, here)
                    for ui in range(nu):
                        for j in range(HOLES):
                            out[ri, ui, j, 0] = here[ui, j]
            lo, hi = rep_start[lev], rep_start[lev + 1]
            if lev >= q:
                for jj in range(lo, hi):
                    if rep_order[jj] % workers == w:
                        _split_below(reps_pos[rep_order[jj]], lev, table, c, off, strength, binom, popcount, sign,
                                     first, before[jj - lo])
            if lev < n_levels:
                _count_split_level(order[level_start[lev]:level_start[lev + 1]], hand_pos, binom, off, first, c)
            if lev >= q:
                for jj in range(lo, hi):
                    ri = rep_order[jj]
                    if ri % workers != w:
                        continue
                    _split_below(reps_pos[ri], lev + 1, table, c, off, strength, binom, popcount, sign, first, after)
                    for ui in range(nu):
                        for j in range(HOLES):
                            out[ri, ui, j, 1] = before[jj - lo, ui, j] - out[ri, ui, j, 0]
                            out[ri, ui, j, 2] = after[ui, j] - before[jj - lo, ui, j]


def count_split(deck: Deck, qualifier: int, hands: np.ndarray, first: np.ndarray, progress: Progress) -> np.ndarray:
    """(rows, n - 5, 5, 3) int32 for every row of ``hands`` (card ids), up card (ascending, not in the hand) and
    j = 0..4 hole cards in the first group: hole sets not qualifying, player wins, push. ``first[pos]`` is 1 for
    the deck positions in the first group."""
    lv = levels(deck, hands)
    n = deck.size
    workers = max(1, numba.get_num_threads())
    cnt = np.zeros((workers, lv.size * SPLIT), dtype=np.int32)
    out = np.zeros((len(hands), n - 5, HOLES, 3), dtype=np.int32)
    fst = np.asarray(first, dtype=np.int64)
    chunks = lv.chunks(CHUNKS)
    for k, (lo, hi) in enumerate(chunks):
        progress.step(k, len(chunks))
        with held():
            _sweep(lo, hi, qualifier, lv.hand_pos, lv.order, lv.level_start, lv.reps_pos, lv.rep_order, lv.rep_start,
                   lv.strength.astype(np.int64), BINOM, lv.off, cnt, out, POPCOUNT, SIGN, fst)
    progress.finish()
    if math.comb(n - 6, 4) >= 2**31:
        raise AssertionError("hole-set counts beyond int32")
    return out
