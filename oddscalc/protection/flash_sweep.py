"""Caribbean Stud with two dealer cards known (the up card and one hole card seen), by a strength sweep.

Counting argument. As in ``dealer_sweep``, the dealer hands that hold the two known cards K = {u1, u2},
avoid the player's hand P and are weaker than a threshold x number

    L(P, K, x) = sum over S subset of P, |S| <= 3, of (-1)^|S| * g(S + K, x),

with g(T, x) the five-card hands holding T weaker than x: a counter while the dealer's hands are
swept in ascending strength (a five-card T is a hand, compared with x directly). A copy of the
counters taken at the qualifier gives the hands that do not qualify; the counters just before and
after the player's own strength give the weaker and the weaker-or-equal ones. Each (P, K) is then
decided on the spot, raise exactly when it beats folding over its C(n-7, 3) completions, and only
the tally by outcome is kept: 26 counter reads per threshold, three thresholds, C(n-5, 2) known
pairs per player hand, one sweep.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from oddscalc.cards import Deck
from oddscalc.games.caribbean.dealer_sweep import count_level, levels
from oddscalc.hands import BINOM
from oddscalc.interrupts import held
from oddscalc.progress import Progress

CHUNKS = 64  # strength-level chunks: Ctrl-C and progress every couple of seconds on a full deck

_SMALL = np.array([m for m in range(32) if bin(m).count("1") <= 3], dtype=np.int64)  # |S| <= 3
_SMALL_SIGN = np.array([-1 if bin(m).count("1") % 2 else 1 for m in _SMALL], dtype=np.int64)


@numba.njit(cache=True)
def _below(p: np.ndarray, u1: int, u2: int, x: int, cnt: np.ndarray, off: np.ndarray, strength: np.ndarray,
           binom: np.ndarray, masks: np.ndarray, signs: np.ndarray) -> int:
    """L(P, {u1, u2}, x) from counters at x."""
    total = 0
    t = np.empty(5, dtype=np.int64)
    for mi in range(masks.shape[0]):
        mask = masks[mi]
        k = 0
        used1 = False
        used2 = False
        for j in range(5):  # merge P's chosen cards with u1 < u2, ascending
            if mask >> j & 1:
                while not used1 and u1 < p[j]:
                    t[k] = u1
                    k += 1
                    used1 = True
                while used1 and not used2 and u2 < p[j]:
                    t[k] = u2
                    k += 1
                    used2 = True
                t[k] = p[j]
                k += 1
        if not used1:
            t[k] = u1
            k += 1
        if not used2:
            t[k] = u2
            k += 1
        idx = 0
        for i in range(k):
            idx += binom[t[i], i + 1]
        if k == 5:
            total += signs[mi] * (1 if strength[idx] < x else 0)
        else:
            total += signs[mi] * cnt[off[k] + idx]
    return total


@numba.njit(cache=True)
def _settle(p: np.ndarray, n: int, mode: int, lev: int, q: int, c: np.ndarray, cq: np.ndarray, before: np.ndarray,
            off: np.ndarray, strength: np.ndarray, binom: np.ndarray, masks: np.ndarray, signs: np.ndarray,
            win_units: int, den: int, completions: int, tally: np.ndarray) -> None:
    """Decide every known pair of one player hand and add its deals to ``tally`` [fold, nq, win, push, lose].

    mode 0: the hand is below the qualifier (it never wins); mode 1: store the weaker counts in ``before``;
    mode 2: the counters are past the hand's level: settle with ``before``."""
    pi = 0
    slot = 0
    for u1 in range(n):
        if pi < 5 and p[pi] == u1:
            pi += 1
            continue
        pj = pi
        for u2 in range(u1 + 1, n):
            while pj < 5 and p[pj] < u2:
                pj += 1
            if pj < 5 and p[pj] == u2:
                continue
            if mode == 1:
                before[slot] = _below(p, u1, u2, lev, c, off, strength, binom, masks, signs)
                slot += 1
                continue
            nq = _below(p, u1, u2, q, cq, off, strength, binom, masks, signs)
            if mode == 0:
                win = 0
                push = 0
                lose = completions - nq
            else:
                after = _below(p, u1, u2, lev + 1, c, off, strength, binom, masks, signs)
                win = before[slot] - nq
                push = after - before[slot]
                lose = completions - after
            slot += 1
            gain = nq * den + win * win_units - 3 * lose * den
            if gain > -completions * den:
                tally[1] += nq
                tally[2] += win
                tally[3] += push
                tally[4] += lose
            else:
                tally[0] += completions


@numba.njit(cache=True, parallel=True)
def _sweep(  # noqa: C901 - the count's one loop, kept whole for numba
        lev_lo: int, lev_hi: int, q: int, hand_pos: np.ndarray, order: np.ndarray, level_start: np.ndarray,
        reps_pos: np.ndarray, rep_order: np.ndarray, rep_start: np.ndarray, strength: np.ndarray, binom: np.ndarray,
        off: np.ndarray, cnt: np.ndarray, snap: np.ndarray, win_units: np.ndarray, den: int, n: int, npairs: int,
        masks: np.ndarray, signs: np.ndarray, tally: np.ndarray) -> None:
    """Sweep strength levels [lev_lo, lev_hi): answer the player hands there (and, at the qualifier, those
    below it), count the levels' dealer hands; each player hand belongs to one worker."""
    workers = cnt.shape[0]
    n_levels = level_start.shape[0] - 1
    completions = (n - 7) * (n - 8) * (n - 9) // 6
    for w in numba.prange(workers):
        c = cnt[w]
        cq = snap[w]
        widest = 0
        for lev in range(lev_lo, lev_hi):
            widest = max(widest, rep_start[lev + 1] - rep_start[lev])
        before = np.zeros((max(widest, 1), npairs), dtype=np.int64)
        for lev in range(lev_lo, lev_hi):
            if lev == q:
                cq[:] = c  # the hands below the qualifier are settled from this copy afterwards (_below_qualifier)
            lo, hi = rep_start[lev], rep_start[lev + 1]
            if lev >= q:
                for j in range(lo, hi):
                    ri = rep_order[j]
                    if ri % workers == w:
                        _settle(reps_pos[ri], n, 1, lev, q, c, cq, before[j - lo], off, strength, binom, masks,
                                signs, win_units[ri], den, completions, tally[ri])
            if lev < n_levels:
                count_level(order[level_start[lev]:level_start[lev + 1]], hand_pos, binom, off, c)
            if lev >= q:
                for j in range(lo, hi):
                    ri = rep_order[j]
                    if ri % workers == w:
                        _settle(reps_pos[ri], n, 2, lev, q, c, cq, before[j - lo], off, strength, binom, masks,
                                signs, win_units[ri], den, completions, tally[ri])


@numba.njit(cache=True, parallel=True)
def _below_qualifier(lo: int, hi: int, q: int, reps_pos: np.ndarray, rep_order: np.ndarray, strength: np.ndarray,
                     binom: np.ndarray, off: np.ndarray, snap: np.ndarray, win_units: np.ndarray, den: int, n: int,
                     npairs: int, masks: np.ndarray, signs: np.ndarray, tally: np.ndarray) -> None:
    """Settle the player hands rep_order[lo:hi], all below the qualifier, from the counters copied at it (every
    worker counted every dealer hand, so any copy will do)."""
    completions = (n - 7) * (n - 8) * (n - 9) // 6
    cq = snap[0]
    for j in numba.prange(lo, hi):
        ri = rep_order[j]
        before = np.zeros(npairs, dtype=np.int64)
        _settle(reps_pos[ri], n, 0, q, q, cq, cq, before, off, strength, binom, masks, signs, win_units[ri], den,
                completions, tally[ri])


def tally_two_known(deck: Deck, qualifier: int, hands: np.ndarray, win_units: np.ndarray, den: int,
                    progress: Progress) -> np.ndarray:
    """(rows, 5) int64 deals by [fold, not qualified, win, push, lose] of each player hand over every
    unordered pair of known dealer cards and the completions, playing each optimally."""
    lv = levels(deck, hands)
    n = deck.size
    workers = max(1, numba.get_num_threads())
    cnt = np.zeros((workers, lv.size), dtype=np.int64)
    snap = np.zeros((workers, lv.size), dtype=np.int64)
    tally = np.zeros((len(hands), 5), dtype=np.int64)
    hand_pos, strength = lv.hand_pos.astype(np.int64), lv.strength.astype(np.int64)
    units = np.asarray(win_units, dtype=np.int64)
    # progress, and Ctrl-C answered, between chunks; the counters and the qualifier's snapshot carry
    # over, so the tally is the same whatever the chunking
    chunks = lv.chunks(CHUNKS)
    below = np.linspace(lv.rep_start[0], lv.rep_start[qualifier], CHUNKS // 4 + 1).astype(np.int64)
    steps = len(chunks) + len(below) - 1
    for k, (lo, hi) in enumerate(chunks):
        progress.step(k, steps)
        with held():
            _sweep(lo, hi, qualifier, hand_pos, lv.order, lv.level_start, lv.reps_pos, lv.rep_order, lv.rep_start,
                   strength, BINOM, lv.off, cnt, snap, units, den, n, math.comb(n - 5, 2), _SMALL, _SMALL_SIGN,
                   tally)
    for k in range(len(below) - 1):  # the copy taken at the qualifier is final: the weak hands in slices
        progress.step(len(chunks) + k, steps)
        with held():
            _below_qualifier(int(below[k]), int(below[k + 1]), qualifier, lv.reps_pos, lv.rep_order, strength, BINOM,
                             lv.off, snap, units, den, n, math.comb(n - 5, 2), _SMALL, _SMALL_SIGN, tally)
    progress.finish()
    return tally
