"""Caribbean Stud with three or four of the dealer's cards known, counted from the known set.

Counting argument. Suit permutations change no outcome, so the known dealer cards K are one
representative per suit class of k-card sets, weighted by the class's size. For each K every
player hand P of the n - k other cards is visited in colex order, smallest card innermost, so the
hand table is read almost in sequence. The dealer's 5 - k unknown cards come from the n - k - 5
cards left, and those completions weaker than a threshold x number

    k = 4:  c(x) - #{p in P : K + p < x},
    k = 3:  c2(x) - sum over p in P of c1(p, x) + #{p < p' in P : K + p + p' < x},

with c(x) the single cards and c2(x) the pairs of cards outside K completing a hand weaker than x,
and c1(p, x) the cards b != p with K + p + b weaker than x: prefix tables over strength built once
per K (inclusion-exclusion over the player's cards, which the dealer cannot hold). Three
thresholds settle (P, K): the qualifier, the player's strength, one above it. The player raises
exactly when raising beats folding over the completions (a tie folds, as with fewer cards seen),
and only the tally by the player's pay class is kept.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from oddscalc.cards import Deck
from oddscalc.hands import BINOM, colex_combos, hand_table
from oddscalc.interrupts import held
from oddscalc.progress import Progress
from oddscalc.protocol import OptionError
from oddscalc.symmetry import suit_classes

CHUNKS = 64  # known-set chunks: progress and Ctrl-C every few seconds on a full deck
PAY_CLASSES = 11  # caribbean.count.pay_classes: the nine made hands, ace-king, other high card


@numba.njit(cache=True)
def _index(a: int, b: int, c: int, d: int, e: int, binom: np.ndarray) -> int:
    """Colex index of five distinct deck positions, in any order."""
    t = np.empty(5, dtype=np.int64)
    t[0], t[1], t[2], t[3], t[4] = a, b, c, d, e
    for i in range(1, 5):  # insertion sort: five entries
        v = t[i]
        j = i - 1
        while j >= 0 and t[j] > v:
            t[j + 1] = t[j]
            j -= 1
        t[j + 1] = v
    return int(binom[t[0], 1] + binom[t[1], 2] + binom[t[2], 3] + binom[t[3], 4] + binom[t[4], 5])


@numba.njit(cache=True)
def _decide(cls: int, nq: int, win: int, push: int, comp: int, win_units: np.ndarray, den: int,
            tally: np.ndarray) -> None:
    """Add one (P, K) to ``tally`` [class][fold, not qualified, win, push, lose], raising when it pays."""
    lose = comp - nq - win - push
    if nq * den + win * win_units[cls] - 3 * lose * den > -comp * den:
        tally[cls, 1] += nq
        tally[cls, 2] += win
        tally[cls, 3] += push
        tally[cls, 4] += lose
    else:
        tally[cls, 0] += comp


@numba.njit(cache=True)
def _rest(n: int, known: np.ndarray) -> np.ndarray:
    """Deck positions not in ``known`` (ascending)."""
    out = np.empty(n - known.shape[0], dtype=np.int64)
    j = 0
    for c in range(n):
        hit = False
        for x in known:
            if x == c:
                hit = True
        if not hit:
            out[j] = c
            j += 1
    return out


@numba.njit(cache=True)
def _four_known(kn: np.ndarray, n: int, q: int, strength: np.ndarray, pay_class: np.ndarray, binom: np.ndarray,
                n_levels: int, win_units: np.ndarray, den: int, tally: np.ndarray) -> None:
    """Every player hand against the known set ``kn`` (four positions)."""
    rest = _rest(n, kn)
    m = rest.shape[0]
    d = np.empty(m, dtype=np.int64)  # the dealer's strength with each fifth card
    below = np.zeros(n_levels + 2, dtype=np.int64)  # below[x]: fifth cards with a hand weaker than x
    for i in range(m):
        d[i] = strength[_index(kn[0], kn[1], kn[2], kn[3], rest[i], binom)]
        below[d[i] + 1] += 1
    for x in range(1, n_levels + 2):
        below[x] += below[x - 1]
    comp = m - 5
    for i5 in range(4, m):
        b5 = binom[rest[i5], 5]
        for i4 in range(3, i5):
            b4 = b5 + binom[rest[i4], 4]
            for i3 in range(2, i4):
                b3 = b4 + binom[rest[i3], 3]
                for i2 in range(1, i3):
                    b2 = b3 + binom[rest[i2], 2]
                    for i1 in range(i2):
                        idx = b2 + rest[i1]
                        s = strength[idx]
                        cls = pay_class[idx]
                        p1, p2, p3, p4, p5 = d[i1], d[i2], d[i3], d[i4], d[i5]
                        nq = below[q] - _under(q, p1, p2, p3, p4, p5)
                        if s < q:
                            _decide(cls, nq, 0, 0, comp, win_units, den, tally)
                            continue
                        weaker = below[s] - _under(s, p1, p2, p3, p4, p5)
                        upto = below[s + 1] - _under(s + 1, p1, p2, p3, p4, p5)
                        _decide(cls, nq, weaker - nq, upto - weaker, comp, win_units, den, tally)


@numba.njit(cache=True)
def _under(x: int, a: int, b: int, c: int, d: int, e: int) -> int:
    """How many of five dealer strengths are below x."""
    return int(a < x) + int(b < x) + int(c < x) + int(d < x) + int(e < x)


@numba.njit(cache=True)
def _weaker(x: int, two: np.ndarray, one: np.ndarray, d: np.ndarray, p: tuple[int, int, int, int, int]) -> int:
    """Completions avoiding the player's cards ``p`` (rest indices) weaker than x: pairs, less those holding one
    of them, plus those holding two (counted twice over)."""
    t = two[x]
    for i in range(5):
        t -= one[p[i], x]
        for j in range(i + 1, 5):
            if d[p[i], p[j]] < x:
                t += 1
    return int(t)


@numba.njit(cache=True)
def _three_known(kn: np.ndarray, n: int, q: int, strength: np.ndarray, pay_class: np.ndarray, binom: np.ndarray,
                 n_levels: int, win_units: np.ndarray, den: int, tally: np.ndarray) -> None:
    """Every player hand against the known set ``kn`` (three positions)."""
    rest = _rest(n, kn)
    m = rest.shape[0]
    d = np.zeros((m, m), dtype=np.int64)  # the dealer's strength with each pair of unknown cards
    one = np.zeros((m, n_levels + 2), dtype=np.int16)  # one[p, x]: cards b != p with K + p + b weaker than x
    two = np.zeros(n_levels + 2, dtype=np.int64)  # two[x]: pairs completing a hand weaker than x
    for i in range(m):
        for j in range(i + 1, m):
            v = strength[_index(kn[0], kn[1], kn[2], rest[i], rest[j], binom)]
            d[i, j] = v
            d[j, i] = v
            one[i, v + 1] += 1
            one[j, v + 1] += 1
            two[v + 1] += 1
    for x in range(1, n_levels + 2):
        two[x] += two[x - 1]
        for i in range(m):
            one[i, x] += one[i, x - 1]
    comp = (m - 5) * (m - 6) // 2
    for i5 in range(4, m):
        b5 = binom[rest[i5], 5]
        for i4 in range(3, i5):
            b4 = b5 + binom[rest[i4], 4]
            for i3 in range(2, i4):
                b3 = b4 + binom[rest[i3], 3]
                for i2 in range(1, i3):
                    b2 = b3 + binom[rest[i2], 2]
                    for i1 in range(i2):
                        idx = b2 + rest[i1]
                        s = strength[idx]
                        cls = pay_class[idx]
                        p = (i1, i2, i3, i4, i5)
                        nq = _weaker(q, two, one, d, p)
                        if s < q:
                            _decide(cls, nq, 0, 0, comp, win_units, den, tally)
                            continue
                        weaker = _weaker(s, two, one, d, p)
                        upto = _weaker(s + 1, two, one, d, p)
                        _decide(cls, nq, weaker - nq, upto - weaker, comp, win_units, den, tally)


@numba.njit(cache=True, parallel=True)
def _chunk(known: np.ndarray, lo: int, hi: int, n: int, q: int, strength: np.ndarray, pay_class: np.ndarray,
           binom: np.ndarray, n_levels: int, win_units: np.ndarray, den: int, out: np.ndarray) -> None:
    """out[i] = the tally of known set i, for i in [lo, hi); each set belongs to one worker."""
    for i in numba.prange(lo, hi):
        if known.shape[1] == 4:
            _four_known(known[i], n, q, strength, pay_class, binom, n_levels, win_units, den, out[i])
        else:
            _three_known(known[i], n, q, strength, pay_class, binom, n_levels, win_units, den, out[i])


def tally_known(deck: Deck, k: int, qualifier: int, pay_class: np.ndarray, win_units: np.ndarray, den: int,
                progress: Progress) -> tuple[np.ndarray, np.ndarray]:
    """Per suit class of known sets of ``k`` (3 or 4) dealer cards: (classes, 11, 5) int64 deals by the
    player's pay class and [fold, not qualified, win, push, lose], playing optimally, and the class sizes.

    ``pay_class`` is every hand's pay class in the hand table's colex order; a win pays
    ``win_units[class] / den`` per ante (ante and raise together)."""
    if k not in (3, 4):
        raise ValueError(f"tally_known counts 3 or 4 known cards, not {k}")
    if deck.size < 10:
        raise OptionError("the player's five cards and the dealer's five need a deck of at least 10 cards")
    ht = hand_table(deck)
    reps, weights = suit_classes(k, deck)
    known = np.sort(ht.position[np.asarray(reps)].astype(np.int64), axis=1)
    strength = np.asarray(ht.strength, dtype=np.int64)
    classes = np.asarray(pay_class, dtype=np.int64)
    units = np.asarray(win_units, dtype=np.int64)
    out = np.zeros((len(known), PAY_CLASSES, 5), dtype=np.int64)
    bounds = np.linspace(0, len(known), min(CHUNKS, len(known)) + 1).astype(np.int64)
    for j in range(len(bounds) - 1):
        progress.step(j, len(bounds) - 1)
        with held():
            _chunk(known, int(bounds[j]), int(bounds[j + 1]), deck.size, qualifier, strength, classes, BINOM,
                   ht.n_levels, units, den, out)
    progress.finish()
    return out, np.asarray(weights, dtype=np.int64)


def every_pay_class(deck: Deck) -> np.ndarray:
    """(C(n, 5),) int8: every hand's pay class, in the hand table's colex order."""
    from oddscalc.games.caribbean.count import pay_classes  # the count's own classes

    ht = hand_table(deck)
    return pay_classes(deck, np.asarray(ht.cards[colex_combos(deck.size, 5)]))


def deals(n: int, k: int) -> int:
    """Deals counted with ``k`` dealer cards known: player hand, known set, unknown set, all unordered."""
    return math.comb(n, 5) * math.comb(n - 5, k) * math.comb(n - 5 - k, 5 - k)
