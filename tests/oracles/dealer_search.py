"""An oracle for Caribbean Stud's count: the binary-search kernel the strength sweep (``dealer_sweep``) replaced.

A second method of counting the dealer hands that do not qualify, lose or tie, per player hand and up card,
kept for the tests to hold the sweep to (two methods, one answer) and for ``benchmarks/bench_caribbean.py``.

Counting argument. For a player hand P, up card u and a strength threshold x, the number of
dealer hands that contain u, avoid P and are weaker than x is, by inclusion and exclusion over
the cards of P that a hand might share,

    L(P, u, x) = sum over S subset of P of (-1)^|S| * g(S + {u}, x),

where g(T, x) counts the five-card hands containing T that are weaker than x: a sorted list of
the strengths of the C(n-k, 5-k) hands containing each k-card set T (k = 1..4) is searched, and a
five-card T is looked up directly. Three thresholds give everything: L(Q) hands do not qualify,
L(s) - L(Q) lose to the player, L(s+1) - L(s) tie, the rest win (Q = the qualifier's strength,
s = the player's). The work is split into independent chunks of player hands whose counts are
concatenated, the same whatever the chunking.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numba
import numpy as np

from oddscalc.cards import Deck
from oddscalc.games.caribbean.count import DealerCounts, pay_classes, player_hands, qualifier_strength
from oddscalc.hands import BINOM, hand_table
from oddscalc.interrupts import held
from oddscalc.progress import Progress

CHUNKS = 16  # independent slices of the player hands: progress between them


@numba.njit(cache=True)
def _colex(pos: np.ndarray, k: int, binom: np.ndarray) -> int:
    idx = 0
    for i in range(k):
        idx += binom[pos[i], i + 1]
    return idx


@numba.njit(cache=True)
def _build_lists(  # noqa: C901 - one numba loop; helpers would cost a call per hand
    combos_pos: np.ndarray, strength: np.ndarray, order: np.ndarray, n: int, n_levels: int, binom: np.ndarray,
    lens: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What g(T, x) needs, for every k-set T.

    k = 1, 2: cumulative tables cum[t, x] = hands containing t weaker than x (direct lookup);
    k = 3, 4: the ascending strengths of the hands containing t (binary search), which come out
    sorted because hands are visited in ascending strength.
    """
    cum1 = np.zeros((binom[n, 1], n_levels + 1), dtype=np.int32)
    cum2 = np.zeros((binom[n, 2], n_levels + 1), dtype=np.int32)
    l3 = np.empty(binom[n, 3] * lens[2], dtype=np.int16)
    l4 = np.empty(binom[n, 4] * lens[3], dtype=np.int16)
    f3 = np.zeros(binom[n, 3], dtype=np.int64)
    f4 = np.zeros(binom[n, 4], dtype=np.int64)
    sub = np.empty(5, dtype=np.int64)
    for oi in range(order.shape[0]):
        h = order[oi]
        s = strength[h]
        for mask in range(1, 31):
            k = 0
            for i in range(5):
                if mask >> i & 1:
                    sub[k] = combos_pos[h, i]
                    k += 1
            if k == 5:
                continue
            t = _colex(sub, k, binom)
            if k == 1:
                cum1[t, s + 1] += 1
            elif k == 2:
                cum2[t, s + 1] += 1
            elif k == 3:
                l3[t * lens[2] + f3[t]] = s
                f3[t] += 1
            else:
                l4[t * lens[3] + f4[t]] = s
                f4[t] += 1
    for t in range(cum1.shape[0]):
        for x in range(1, n_levels + 1):
            cum1[t, x] += cum1[t, x - 1]
    for t in range(cum2.shape[0]):
        for x in range(1, n_levels + 1):
            cum2[t, x] += cum2[t, x - 1]
    return cum1, cum2, l3, l4


@numba.njit(cache=True)
def _count_below(lst: np.ndarray, start: int, length: int, x: int) -> int:
    lo = start
    hi = start + length
    while lo < hi:
        mid = (lo + hi) >> 1
        if lst[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo - start


@numba.njit(cache=True)
def _below_each(lst: np.ndarray, length: int, x: int) -> np.ndarray:
    """For every k-set's list, how many of its hands are weaker than x."""
    m = lst.shape[0] // length
    out = np.empty(m, dtype=np.int32)
    for t in range(m):
        out[t] = _count_below(lst, t * length, length, x)
    return out


@numba.njit(cache=True)
def _count_below_and_equal(lst: np.ndarray, start: int, length: int, x: int) -> tuple[int, int]:
    lo = _count_below(lst, start, length, x)
    eq = 0
    while lo + eq < length and lst[start + lo + eq] == x:
        eq += 1
    return lo, eq


@numba.njit(cache=True, parallel=True)
def _dealer_counts(  # noqa: C901 - the hot loop, kept whole for numba
    reps_pos: np.ndarray, n: int, q: int, strength: np.ndarray, binom: np.ndarray, lens: np.ndarray,
    cum1: np.ndarray, cum2: np.ndarray, l3: np.ndarray, l4: np.ndarray, q3: np.ndarray, q4: np.ndarray,
) -> np.ndarray:
    """(m, n-5, 3) int32: dealer hands that do not qualify / lose to the player / tie, per up card.

    Up cards are the deck positions not in the player's hand, in ascending order. ``qk[t]`` is
    g(t, Q) precomputed for every k-set; only hands that reach the qualifier need the two
    searches at the player's own strength.
    """
    m = reps_pos.shape[0]
    out = np.zeros((m, n - 5, 3), dtype=np.int32)
    for i in numba.prange(m):
        p = reps_pos[i]
        sp = strength[_colex(p, 5, binom)]
        need = sp >= q
        merged = np.empty(6, dtype=np.int64)
        sub = np.empty(5, dtype=np.int64)
        ui = 0
        for u in range(n):
            inp = False
            for j in range(5):
                if p[j] == u:
                    inp = True
            if inp:
                continue
            ins = 0
            while ins < 5 and p[ins] < u:
                ins += 1
            for a in range(6):
                merged[a] = u if a == ins else (p[a] if a < ins else p[a - 1])
            cq = 0
            cs = 0
            ce = 0
            for mask in range(31):  # S = cards of P picked by mask; all five plus u is six cards: none
                k = 0
                bits = 0
                for a in range(6):
                    if a == ins:
                        sub[k] = merged[a]
                        k += 1
                    else:
                        j = a if a < ins else a - 1
                        if mask >> j & 1:
                            sub[k] = merged[a]
                            k += 1
                            bits += 1
                sign = -1 if bits & 1 else 1
                t = _colex(sub, k, binom)
                if k == 5:
                    s = strength[t]
                    cq += sign * (s < q)
                    cs += sign * (s < sp)
                    ce += sign * (s == sp)
                    continue
                if k <= 2:
                    cum = cum1 if k == 1 else cum2
                    cq += sign * cum[t, q]
                    if need:
                        cs += sign * cum[t, sp]
                        ce += sign * (cum[t, sp + 1] - cum[t, sp])
                    continue
                cq += sign * (q3[t] if k == 3 else q4[t])
                if need:
                    lst = l3 if k == 3 else l4
                    ln = lens[k - 1]
                    lo, eq = _count_below_and_equal(lst, t * ln, ln, sp)
                    cs += sign * lo
                    ce += sign * eq
            out[i, ui, 0] = cq
            if need:
                out[i, ui, 1] = cs - cq
                out[i, ui, 2] = ce
            ui += 1
    return out


def counter(deck: Deck, qualifier: int) -> Callable[[np.ndarray], np.ndarray]:
    """Build g's lookup tables once; return stage 1 for rows of player-hand card ids.

    ``qualifier`` is the weakest dealer strength that qualifies. The result has shape
    (rows, n - 5, 3): not qualifying, player wins, push, for the up cards not in the hand in
    ascending order.
    """
    ht = hand_table(deck)
    lens = np.array([math.comb(deck.size - k, 5 - k) for k in range(1, 5)], dtype=np.int64)
    order = np.argsort(ht.strength, kind="stable")  # hands in ascending strength: every list comes out sorted
    with held():
        lists = _build_lists(ht.position[ht.combos], ht.strength, order, deck.size, ht.n_levels, BINOM, lens)
        below_q = tuple(_below_each(lst, int(ln), qualifier) for lst, ln in zip(lists[2:], lens[2:]))

    def count(hands: np.ndarray) -> np.ndarray:
        reps_pos = np.sort(ht.position[np.asarray(hands)], axis=1).astype(np.int64)
        with held():
            out: np.ndarray = _dealer_counts(reps_pos, deck.size, qualifier, ht.strength, BINOM, lens, *lists,
                                             *below_q)
        return out

    return count


def count_all(deck: Deck, qualifier: int, hands: np.ndarray, progress: Progress) -> np.ndarray:
    """Stage 1 for every row of ``hands``, in CHUNKS independent pieces."""
    progress.say("indexing dealer hands ...")
    count = counter(deck, qualifier)
    parts = []
    chunks = np.array_split(np.arange(len(hands)), CHUNKS)
    for c, idx in enumerate(chunks):
        progress.step(c, len(chunks))
        parts.append(count(hands[idx]))
    progress.finish()
    return np.concatenate(parts)


def dealer_counts_search(deck: Deck, qualifier: str, symmetry: bool = True) -> DealerCounts:
    """``count.dealer_counts_of`` by this kernel: the same counts, by binary search instead of one sweep."""
    reps, weights = player_hands(deck, symmetry)
    counts = count_all(deck, qualifier_strength(deck, qualifier), reps, Progress(False, ""))
    return DealerCounts(deck, reps, weights, counts, pay_classes(deck, reps))


def warm() -> None:
    """Compile this oracle's kernels into numba's cache (``make setup``), so that no test run pays for them.

    Numba keys a compiled kernel by its argument types, which every deck gives alike: the smallest deck will do.
    """
    dealer_counts_search(Deck((0, 1, 2, 3, 11, 12), 4), "any")
