"""A seven-card game's count measured before it is built: Casino Hold'em's inner loop on one core (bench_stud.py).

What the player knows at his one decision is his two hole cards and the flop: 1,286,792 suit classes of that pair
of sets (Burnside's count over the 24 suit permutations, :func:`classes`). Each class is counted over the turn and
the river (C(47,2) = 1,081) and the dealer's two cards (C(45,2) = 990): the player's class at the end, and the
dealer's hand against a pair of fours and against the player. Two inner loops are timed over a sample of boards of
one class: the dealer's best five of seven by lookups in the five-card table (15 a hand: five from the four-of-the-
board table of each card, ten of three board cards and his two), and by one lookup in a table of every seven-card
set (133,784,560 entries; a stand-in of random strengths of that size times the memory access, which is the cost:
filling the real table is a one-off of every seven-card set).
"""

from __future__ import annotations

import itertools
import math
import time

import numba
import numpy as np

from oddscalc.cards import FULL_DECK
from oddscalc.hands import BINOM, HandClass, hand_table
from oddscalc.symmetry import set_tuple_class_count

HOLE = np.array([48, 45], dtype=np.int64)  # ace and king (card id: rank * 4 + suit)
FLOP = np.array([20, 33, 6], dtype=np.int64)


@numba.njit(cache=False)
def _idx5(x: np.ndarray, binom: np.ndarray) -> int:
    """The colex index of five cards, sorted in place (no allocation: this is the inner loop)."""
    for i in range(1, 5):
        v, j = x[i], i
        while j > 0 and x[j - 1] > v:
            x[j] = x[j - 1]
            j -= 1
        x[j] = v
    return int(binom[x[0], 1] + binom[x[1], 2] + binom[x[2], 3] + binom[x[3], 4] + binom[x[4], 5])


@numba.njit(cache=False)
def _by_five(  # noqa: C901 - a timed prototype, kept whole
    rest: np.ndarray, boards: np.ndarray, strength: np.ndarray, binom: np.ndarray, q: int, tally: np.ndarray,
) -> None:
    x = np.empty(5, dtype=np.int64)
    one = np.empty(rest.shape[0], dtype=np.int64)
    for bi in range(boards.shape[0]):
        t, r = boards[bi, 0], boards[bi, 1]
        board = np.array([FLOP[0], FLOP[1], FLOP[2], rest[t], rest[r]])
        seven = np.array([HOLE[0], HOLE[1], board[0], board[1], board[2], board[3], board[4]])
        s = -1
        for i in range(7):
            for j in range(i + 1, 7):
                k = 0
                for z in range(7):
                    if z != i and z != j:
                        x[k] = seven[z]
                        k += 1
                s = max(s, strength[_idx5(x, binom)])
        x[:] = board
        b5 = strength[_idx5(x, binom)]
        for ci in range(rest.shape[0]):
            m = b5
            for drop in range(5):
                k = 0
                for z in range(5):
                    if z != drop:
                        x[k] = board[z]
                        k += 1
                x[4] = rest[ci]
                m = max(m, strength[_idx5(x, binom)])
            one[ci] = m
        for c1 in range(rest.shape[0]):
            for c2 in range(c1 + 1, rest.shape[0]):
                if c1 == t or c1 == r or c2 == t or c2 == r:
                    continue
                m = max(one[c1], one[c2])
                for i in range(5):
                    for j in range(i + 1, 5):
                        for k in range(j + 1, 5):
                            x[0], x[1], x[2], x[3], x[4] = board[i], board[j], board[k], rest[c1], rest[c2]
                            m = max(m, strength[_idx5(x, binom)])
                tally[0 if m < q else 1 if m < s else 2 if m == s else 3] += 1


@numba.njit(cache=False)
def _by_seven(rest: np.ndarray, boards: np.ndarray, table7: np.ndarray, binom: np.ndarray, q: int,
              tally: np.ndarray) -> None:
    z = np.empty(7, dtype=np.int64)
    for bi in range(boards.shape[0]):
        t, r = boards[bi, 0], boards[bi, 1]
        y = np.sort(np.array([FLOP[0], FLOP[1], FLOP[2], rest[t], rest[r], HOLE[0], HOLE[1]]))
        s = table7[binom[y[0], 1] + binom[y[1], 2] + binom[y[2], 3] + binom[y[3], 4] + binom[y[4], 5]
                   + binom[y[5], 6] + binom[y[6], 7]]
        b = np.sort(np.array([FLOP[0], FLOP[1], FLOP[2], rest[t], rest[r]]))
        for c1 in range(rest.shape[0]):
            for c2 in range(c1 + 1, rest.shape[0]):
                if c1 == t or c1 == r or c2 == t or c2 == r:
                    continue
                i, j = 0, 0
                for k in range(7):  # the dealer's two cards merged into the sorted board
                    if i < 5 and (j == 2 or b[i] < (rest[c1] if j == 0 else rest[c2])):
                        z[k] = b[i]
                        i += 1
                    else:
                        z[k] = rest[c1] if j == 0 else rest[c2]
                        j += 1
                m = table7[binom[z[0], 1] + binom[z[1], 2] + binom[z[2], 3] + binom[z[3], 4] + binom[z[4], 5]
                           + binom[z[5], 6] + binom[z[6], 7]]
                tally[0 if m < q else 1 if m < s else 2 if m == s else 3] += 1


def plan(sample: int = 48) -> None:
    """Time both inner loops on ``sample`` boards of one class; print the size of the count and the plan."""
    numba.set_num_threads(1)
    n_classes = set_tuple_class_count(FULL_DECK, (2, 3))
    per = math.comb(47, 2) * math.comb(45, 2)
    print(f"Casino Hold'em: {n_classes:,} (hole, flop) classes x {per:,} completions; "
          f"{math.comb(52, 2) * math.comb(50, 3) * per:,} deals")
    rest = np.array([c for c in range(52) if c not in {*HOLE.tolist(), *FLOP.tolist()}], dtype=np.int64)
    pairs = np.array(list(itertools.combinations(range(47), 2)), dtype=np.int64)
    boards = pairs[np.random.default_rng(7).choice(len(pairs), sample, replace=False)]
    ht = hand_table(FULL_DECK)
    q = ht.strength_at_least(HandClass.PAIR, (2,))  # a pair of fours
    binom7 = np.array([[math.comb(x, k) for k in range(8)] for x in range(53)], dtype=np.int64)
    table7 = np.random.default_rng(1).integers(0, ht.n_levels, math.comb(52, 7), dtype=np.int16)
    for name, run, table in (("five-card table lookups", _by_five, np.asarray(ht.strength, dtype=np.int64)),
                             ("one seven-card table lookup (268 MB)", _by_seven, table7)):
        tally = np.zeros(4, dtype=np.int64)
        binom = np.asarray(BINOM) if run is _by_five else binom7
        run(rest, boards[:1], table, binom, q, tally)  # compiled
        start = time.process_time()
        run(rest, boards, table, binom, q, tally)
        one = (time.process_time() - start) / sample * len(pairs)
        total = one * n_classes
        print(f"{name}: one class {one:.3f} s of one core; chunk of 512 classes {512 * one / 60:.1f} min; whole "
              f"count {total / 3600:,.1f} h one core, {total / 7200:,.1f} h two, {total / 64 / 3600:,.2f} h on 64 "
              f"workers, {total / 512 / 60:,.1f} min on 512")
