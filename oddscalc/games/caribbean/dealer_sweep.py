"""Caribbean Stud's count by a strength sweep: every dealer hand visited once, weakest first.

Counting argument. As in the binary-search kernel it replaced (the tests' oracle ``dealer_search``), the dealer
hands that contain the up card u, avoid the player's hand P and are weaker than a threshold x number

    L(P, u, x) = sum over S subset of P, |S| <= 4, of (-1)^|S| * g(S + {u}, x),

with g(T, x) the five-card hands containing T weaker than x. Instead of searching sorted lists
for g, the dealer's C(n,5) hands are swept in ascending strength while a counter for every 1- to
4-card set T holds how many hands seen so far contain it (about 1.2 MB for 52 cards: it stays in
cache). When the sweep reaches strength x, g(T, x) is that counter, so each L is 31 counter reads
(a five-card T is a hand: compared with x directly). A player hand of strength s asks at three
moments: at the qualifier Q (hands that do not qualify), and just before and after the hands of
strength s (weaker, and weaker or equal). The colex index of S + {u} is a per-hand table entry
(indexed by where u falls among P's cards and by S) plus C(u, rank of u in S + {u}), so a read costs
two table lookups.

The sweep runs in chunks of strength levels (progress and Ctrl-C between them), each worker with
its own counters taking a share of the player hands; the counts are the same whatever the chunking
and the number of workers.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numba
import numpy as np

from oddscalc.cards import Deck
from oddscalc.hands import BINOM, colex_combos, hand_table
from oddscalc.interrupts import held
from oddscalc.progress import Progress

CHUNKS = 16

_MASKS = np.arange(32)
POPCOUNT = np.array([bin(m).count("1") for m in range(32)], dtype=np.int64)
SIGN = np.where(POPCOUNT % 2 == 1, -1, 1).astype(np.int64)
# BELOW[ins, mask]: members of S (by mask over P's five cards) below an up card inserted at ``ins``
BELOW = np.array([[bin(m & ((1 << ins) - 1)).count("1") for m in range(32)] for ins in range(6)], dtype=np.int64)


@numba.njit(cache=True)
def rep_table(p: np.ndarray, binom: np.ndarray, table: np.ndarray) -> None:
    """table[ins, mask] = colex weight of the cards of P in S when u sits at position ``ins`` of P."""
    for ins in range(6):
        for mask in range(31):
            idx = 0
            r = 0
            for j in range(5):
                if mask >> j & 1:
                    idx += binom[p[j], r + 1 + (1 if j >= ins else 0)]
                    r += 1
            table[ins, mask] = idx


@numba.njit(cache=True)
def _below(table: np.ndarray, ins: int, u: int, x: int, cnt: np.ndarray, off: np.ndarray, strength: np.ndarray,
           binom: np.ndarray, popcount: np.ndarray, sign: np.ndarray, below: np.ndarray) -> int:
    """L(P, u, x): dealer hands holding u, avoiding P, weaker than x (the counters are at x)."""
    total = 0
    for mask in range(31):
        k = popcount[mask] + 1
        idx = table[ins, mask] + binom[u, below[ins, mask] + 1]
        if k == 5:
            total += sign[mask] * (1 if strength[idx] < x else 0)
        else:
            total += sign[mask] * cnt[off[k] + idx]
    return total


@numba.njit(cache=True)
def _below_each_up(p: np.ndarray, x: int, table: np.ndarray, cnt: np.ndarray, off: np.ndarray, strength: np.ndarray,
                   binom: np.ndarray, popcount: np.ndarray, sign: np.ndarray, below: np.ndarray,
                   dest: np.ndarray) -> None:
    """dest[ui] = L(P, u, x) for every up card u not in P, ascending (the counters are at x)."""
    rep_table(p, binom, table)
    ui = 0
    ins = 0
    for u in range(dest.shape[0] + 5):  # deck positions: the five in P are skipped
        if ins < 5 and p[ins] == u:
            ins += 1
            continue
        dest[ui] = _below(table, ins, u, x, cnt, off, strength, binom, popcount, sign, below)
        ui += 1


@numba.njit(cache=True)
def count_level(hands: np.ndarray, hand_pos: np.ndarray, binom: np.ndarray, off: np.ndarray, c: np.ndarray) -> None:
    """Add the ``hands`` (one strength level) to the counters: each of their 1- to 4-card sets, one more."""
    for h in hands:
        p = hand_pos[h]
        for mask in range(1, 31):
            idx = 0
            r = 0
            for i in range(5):
                if mask >> i & 1:
                    idx += binom[p[i], r + 1]
                    r += 1
            c[off[r] + idx] += 1


@numba.njit(cache=True, parallel=True)
def _sweep(  # noqa: C901 - the count's one loop, kept whole for numba
    lev_lo: int, lev_hi: int, q: int, hand_pos: np.ndarray, order: np.ndarray, level_start: np.ndarray,
    reps_pos: np.ndarray, rep_order: np.ndarray, rep_start: np.ndarray, strength: np.ndarray, binom: np.ndarray,
    off: np.ndarray, cnt: np.ndarray, out: np.ndarray, popcount: np.ndarray, sign: np.ndarray, below: np.ndarray,
) -> None:
    """Sweep strength levels [lev_lo, lev_hi): answer the player hands' questions, then count the level's hands.

    Each player hand belongs to one worker (row number modulo the workers), which answers all three
    of its questions, so no worker reads what another writes.
    """
    workers = cnt.shape[0]
    m, nu = out.shape[0], out.shape[1]
    n_levels = level_start.shape[0] - 1
    for w in numba.prange(workers):
        c = cnt[w]
        table = np.empty((6, 32), dtype=np.int64)
        widest = 0
        for lev in range(lev_lo, min(lev_hi, n_levels + 1)):
            widest = max(widest, rep_start[lev + 1] - rep_start[lev])
        before = np.empty((widest, nu), dtype=np.int64)  # per player hand of the level: weaker dealer hands
        after = np.empty(nu, dtype=np.int64)
        for lev in range(lev_lo, lev_hi):
            if lev == q:  # every player hand: dealer hands that do not qualify
                for ri in range(w, m, workers):
                    _below_each_up(reps_pos[ri], q, table, c, off, strength, binom, popcount, sign, below,
                                   out[ri, :, 0])
            lo, hi = rep_start[lev], rep_start[lev + 1]
            if lev >= q:  # player hands of this strength: dealer hands weaker, before this level is counted
                for j in range(lo, hi):
                    if rep_order[j] % workers == w:
                        _below_each_up(reps_pos[rep_order[j]], lev, table, c, off, strength, binom, popcount, sign,
                                       below, before[j - lo])
            if lev < n_levels:
                count_level(order[level_start[lev]:level_start[lev + 1]], hand_pos, binom, off, c)
            if lev >= q:  # ... and after: weaker or equal; the difference ties
                for j in range(lo, hi):
                    ri = rep_order[j]
                    if ri % workers != w:
                        continue
                    _below_each_up(reps_pos[ri], lev + 1, table, c, off, strength, binom, popcount, sign, below,
                                   after)
                    for ui in range(nu):
                        out[ri, ui, 1] = before[j - lo, ui] - out[ri, ui, 0]
                        out[ri, ui, 2] = after[ui] - before[j - lo, ui]


@dataclass(frozen=True)
class Levels:
    """What a sweep needs: every hand's positions and strength in sweep order, the player hands grouped by
    strength, and where each size of card set starts in the counters."""

    strength: np.ndarray  # (C(n,5),) per hand, colex order
    hand_pos: np.ndarray  # (C(n,5), 5) deck positions of every hand: the hand table's rows
    order: np.ndarray  # hands by ascending strength
    level_start: np.ndarray  # where each strength level starts in ``order``
    reps_pos: np.ndarray  # (rows, 5) sorted deck positions of the player hands
    rep_order: np.ndarray  # player hands by ascending strength
    rep_start: np.ndarray  # where each strength level starts in ``rep_order`` (n_levels + 2 entries)
    off: np.ndarray  # counter offset of the k-card sets, k = 1..4
    size: int  # counters: every 1- to 4-card set

    def chunks(self, count: int) -> list[tuple[int, int]]:
        """About ``count`` ranges [lo, hi) of strength levels holding similar numbers of hands, in order,
        covering every level and the one past the strongest (where the strongest player hands ask last)."""
        n_levels = len(self.level_start) - 1
        bounds = np.searchsorted(self.level_start, np.linspace(0, self.level_start[-1], count + 1)).tolist()
        bounds[0], bounds[-1] = 0, n_levels + 1
        return [(int(lo), int(hi)) for lo, hi in itertools.pairwise(bounds) if hi > lo]


def levels(deck: Deck, hands: np.ndarray) -> Levels:
    """The sweep's arrays for ``deck`` and the player ``hands`` (card ids)."""
    ht = hand_table(deck)
    n = deck.size
    strength = np.asarray(ht.strength)
    hand_pos = colex_combos(n, 5)
    order = np.argsort(strength, kind="stable").astype(np.int64)
    level_start = np.concatenate([[0], np.cumsum(np.bincount(strength, minlength=ht.n_levels))]).astype(np.int64)
    reps_pos = np.sort(ht.position[np.asarray(hands)], axis=1).astype(np.int64)
    rep_strength = strength[(BINOM[reps_pos, np.arange(1, 6)]).sum(axis=1)].astype(np.int64)
    rep_order = np.argsort(rep_strength, kind="stable").astype(np.int64)
    rep_start = np.concatenate([[0], np.cumsum(np.bincount(rep_strength, minlength=ht.n_levels + 1))])
    rep_start = rep_start[: ht.n_levels + 2].astype(np.int64)
    if len(rep_start) < ht.n_levels + 2:
        rep_start = np.concatenate([rep_start, np.full(ht.n_levels + 2 - len(rep_start), rep_start[-1])])
    off = np.array([0, 0] + [sum(math.comb(n, j) for j in range(1, k)) for k in range(2, 5)], dtype=np.int64)
    return Levels(strength, hand_pos, order, level_start, reps_pos, rep_order, rep_start, off,
                  sum(math.comb(n, k) for k in range(1, 5)))


def count_all(deck: Deck, qualifier: int, hands: np.ndarray, progress: Progress) -> np.ndarray:
    """(rows, n - 5, 3) int32 for every row of ``hands`` (card ids): not qualifying, player wins, push,
    for the up cards not in the hand in ascending order."""
    lv = levels(deck, hands)
    strength, hand_pos, order, level_start = lv.strength, lv.hand_pos, lv.order, lv.level_start
    reps_pos, rep_order, rep_start, off, size = lv.reps_pos, lv.rep_order, lv.rep_start, lv.off, lv.size
    n = deck.size
    workers = max(1, numba.get_num_threads())
    cnt = np.zeros((workers, size), dtype=np.int32)
    out = np.zeros((len(hands), n - 5, 3), dtype=np.int32)
    chunks = lv.chunks(CHUNKS)
    for k, (lo, hi) in enumerate(chunks):
        progress.step(k, len(chunks))
        with held():
            _sweep(lo, hi, qualifier, hand_pos, order, level_start, reps_pos, rep_order, rep_start, strength, BINOM,
                   off, cnt, out, POPCOUNT, SIGN, BELOW)
    progress.finish()
    return out


@numba.njit(cache=True, parallel=True)
def raise_rows(  # noqa: C901 - one pass per hand, kept whole for numba
    counts: np.ndarray, up_ranks: np.ndarray, pay_class: np.ndarray, bits: np.ndarray, fourth: np.ndarray,
    akj83: np.ndarray, holes: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per player hand (see ``raise_table``): its up cards sorted by raise key, cumulative counts in that
    order, and for the six pay-free strategies (``raise_table.FIXED``, in order) the deals by outcome
    and the raised up cards by rank."""
    m, nu = counts.shape[0], counts.shape[1]
    keys = np.empty((m, nu), dtype=np.float64)
    perm = np.empty((m, nu), dtype=np.int8)
    prefix = np.zeros((m, nu + 1, 3), dtype=np.int32)
    fixed = np.zeros((m, 6, 5), dtype=np.int32)  # [strategy][fold, not qualified, win, push, lose], unweighted
    by_rank = np.zeros((m, 7, 13), dtype=np.uint8)  # up cards raised by rank: 6 strategies, then every up card
    for r in numba.prange(m):
        c = pay_class[r]
        made = c <= 8
        ak = c == 9
        has_q = (bits[r] >> 10) & 1 == 1
        has_qj = has_q or (bits[r] >> 9) & 1 == 1
        order = np.empty(nu, dtype=np.int64)
        row_keys = np.empty(nu, dtype=np.float64)
        for ui in range(nu):
            nq, win, push = counts[r, ui, 0], counts[r, ui, 1], counts[r, ui, 2]
            base = 4 * nq + 4 * win + 3 * push - 2 * holes
            if win > 0:
                k = -base / (2.0 * win)
            elif base > 0:
                k = -np.inf
            else:
                k = np.inf
            j = ui  # insertion sort: 47 entries, already nearly in order within a hand's suit pattern
            while j > 0 and row_keys[j - 1] > k:
                row_keys[j] = row_keys[j - 1]
                order[j] = order[j - 1]
                j -= 1
            row_keys[j] = k
            order[j] = ui
            u = up_ranks[r, ui]
            matches = (bits[r] >> u) & 1 == 1
            thumb = (u <= 10 and matches) or (u >= 11 and has_qj) or (not matches and has_q and u < fourth[r])
            lose = holes - nq - win - push
            by_rank[r, 6, u] += 1
            for s in range(6):
                if s == 0:
                    raised = made
                elif s == 1:
                    raised = made or ak
                elif s == 2:
                    raised = True
                elif s == 3:
                    raised = made or (ak and thumb)
                elif s == 4:
                    raised = made or akj83[r]
                else:
                    raised = made or (ak and matches)
                if raised:
                    fixed[r, s, 1] += nq
                    fixed[r, s, 2] += win
                    fixed[r, s, 3] += push
                    fixed[r, s, 4] += lose
                    by_rank[r, s, u] += 1
                else:
                    fixed[r, s, 0] += holes
        for j in range(nu):
            ui = order[j]
            keys[r, j] = row_keys[j]
            perm[r, j] = ui
            for t in range(3):
                prefix[r, j + 1, t] = prefix[r, j, t] + counts[r, ui, t]
    return keys, perm, prefix, fixed, by_rank
