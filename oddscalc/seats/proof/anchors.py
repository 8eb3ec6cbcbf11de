"""What every seat drawing on one more composition takes from the other seats, bounded from one evaluation.

Counting argument. The other n - 1 seats hold three slots each (a standing seat's third slot is unused),
so A_k(S; m), the cumulative count ``common_search`` reads, counts the ordered sequences of 3(n - 1)
cards from the shoe less your six slots m in which no seat has a natural and every seat drawing under S
(its two cards a composition of S) draws at most k - 2, for k = 1..10. For a composition i outside S,

    d_i(S) = A(S + i) - A(S) = -U_i(S),

U_i(S) counting the sequences that pass at S in which some seat holding i draws above k - 2. Seats are
exchangeable, so let P_r(S) be C(n - 1, r) times the sequences in which r given seats hold i and draw
above k - 2 and the other n - 1 - r pass at S. Bonferroni's inequalities give, for every R,

    P_1 - P_2 + ... +- P_R:   >= U_i(S) for odd R,   <= U_i(S) for even R,   = U_i(S) at R = n - 1.

P_r(S) sums, over the r seats' cards (r copies of i's two values, and r third cards above k - 2), their
ordered deals from the cards left times the level of n - 1 - r seats at S on m plus those 3r cards: a
level the evaluation of S counted on its way up (``seat_levels.all_seats``). And for a composition i of
a strategy H, sorting the sequences that pass at H - i by which seats hold i and draw above k - 2 (those
pass at H - i; the others pass at H - i exactly when they pass at H) gives A(H - i) = the sum of P_r(H)
over r = 0..n - 1, every term non-negative, so

    d_i(H - i) = A(H) - A(H - i) <= -(P_1(H) + ... + P_R(H)).

So the two evaluations at a box's ends bound every free composition's d_i on the whole box (the lemma
of ``common_search``: d_i(L) <= d_i(S) <= d_i(H - i) for L <= S <= H - i), where exact anchors cost two
evaluations per free composition.

The sums P_r are taken in float64, with a margin: an entry of P_r sums at most a few hundred
products of at most twenty non-negative factors, each factor within a relative 2^-50 of its integer,
so every P_r is within a relative 1e-12 of its exact value. A margin of 1e-9 of the sum of all the
P_r of an entry (which also covers the cancellation in the alternating sum), plus one, keeps every
bound on its side of the exact integer it bounds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

import numba
import numpy as np

from oddscalc.games.house_baccarat.levels import COMB, ranks_of
from oddscalc.games.house_baccarat.others import CLASSES, limb_bits, others_finite
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS
from oddscalc.games.shoe import VALUES, Multisets, to_limbs

# R of the module docstring: three seats drawing on one composition at once is the last term kept by
# default (four would hold the level of n - 5 seats on multisets of 18 cards, 4.7 million rows)
TERMS = 3
_MARGIN = 1e-9


def _third_cards(terms: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every multiset Z of 1..``terms`` third cards: its counts (Z, 10), its size r, its lowest card, and its
    orderings among r seats r! / prod(multiplicities!)."""
    zs, size, low, orders = [], [], [], []
    for r in range(1, terms + 1):
        for combo in combinations_with_replacement(range(VALUES), r):
            cnt = np.bincount(combo, minlength=VALUES)
            zs.append(cnt)
            size.append(r)
            low.append(combo[0])
            orders.append(math.factorial(r) // math.prod(math.factorial(int(x)) for x in cnt))
    return (np.array(zs, dtype=np.int64), np.array(size, dtype=np.int64), np.array(low, dtype=np.int64),
            np.array(orders, dtype=np.float64))


@numba.njit(cache=True)
def _falls(c: np.ndarray, removed: np.ndarray, deepest: int) -> np.ndarray:
    """(10, deepest): the ordered ways to take t cards of value v from those left once ``removed`` is out."""
    out = np.ones((VALUES, deepest))
    for v in range(VALUES):
        left = max(c[v] - removed[v], 0)  # as the levels count a multiset no shoe holds
        for t in range(1, deepest):
            out[v, t] = out[v, t - 1] * max(left - t + 1, 0)
    return out


@numba.njit(cache=True)
def _deal(fall: np.ndarray, removed: np.ndarray, z: np.ndarray, r: int, a: int, b: int,
          binom: np.ndarray) -> tuple[float, int]:
    """The ordered deals of r seats' cards (r of a, r of b, and the third cards ``z``) from the cards left (as
    ``fall``), in one value ordering, and the colex rank of ``removed`` plus those cards."""
    ways = 1.0
    rank = 0
    p = 0
    for v in range(VALUES):
        e = z[v] + r * ((a == v) + (b == v))
        if e:
            ways *= fall[v, e]
        if v:
            rank += binom[p + v - 1, v]
        p += removed[v] + e
    return ways, rank


_BLOCK = 512  # six-slot multisets per parallel task: its rows of the lower levels are read in rank order


@numba.njit(cache=True, parallel=True)
def _sums(c: np.ndarray, six: np.ndarray, comps: np.ndarray, cum: np.ndarray, offset: np.ndarray,
          zs: np.ndarray, size: np.ndarray, low: np.ndarray, orders: np.ndarray, terms: int,
          binom: np.ndarray) -> np.ndarray:
    """(terms + 1, compositions, len(six), 11) float64: P_r / C(n - 1, r) of the module docstring at k = 1..10
    (index 0 unused), for r = 1..terms. ``cum`` holds the lower levels' passing counts by rank from row
    ``offset[r]`` (-1: no seat left, one empty sequence).

    The lower levels (a million rows and more for three terms on 8 decks) are read at the rank of a six-slot
    multiset plus the cards added; ``six`` is in rank order, so sweeping a block of it for one composition
    and one set of third cards reads them in order: three times faster on 8 decks than reading each
    multiset's rows for every composition in turn. Each entry sums the same terms in the same order."""
    n = six.shape[0]
    out = np.zeros((terms + 1, comps.shape[0], n, 11))
    for block in numba.prange((n + _BLOCK - 1) // _BLOCK):
        first, end = block * _BLOCK, min(n, (block + 1) * _BLOCK)
        falls = np.empty((end - first, VALUES, 3 * terms + 1))
        for q in range(first, end):
            falls[q - first] = _falls(c, six[q], 3 * terms + 1)
        for ci in range(comps.shape[0]):
            a, b = comps[ci, 0], comps[ci, 1]
            for zi in range(zs.shape[0]):
                r = size[zi]
                if r > terms:
                    continue
                top = min(low[zi] + 1, 10)  # every third card above k - 2
                for q in range(first, end):
                    ways, rank = _deal(falls[q - first], six[q], zs[zi], r, a, b, binom)
                    coef = ways * orders[zi] * (1.0 if a == b else 2.0) ** r
                    if offset[r] < 0:
                        out[r, ci, q, 1:top + 1] += coef
                    else:
                        for k in range(1, top + 1):
                            out[r, ci, q, k] += coef * cum[offset[r] + rank, k]
    return out


def _passing(limbs: np.ndarray, bits: int) -> np.ndarray:
    """(rows, 11) float64: a level's sequences with no natural and every third card at most k - 2, k = 1..10."""
    scale = np.ldexp(1.0, bits * np.arange(limbs.shape[2]))
    per_class = (limbs.astype(np.float64) * scale).sum(axis=2)
    out = np.zeros((len(limbs), 11))
    out[:, 1:] = np.cumsum(per_class[:, 1:11], axis=1)
    return out


@dataclass(frozen=True)
class Taken:
    """One evaluation's bounds on what a composition takes from the others, for the compositions asked for.

    :meth:`most` <= d_i(S) <= :meth:`least` <= 0 for i outside S, and d_i(S - i) <= :meth:`beyond` <= 0 for i
    in S: (5005, 12) float64 arrays, in the units and row order of ``class_rows``, that bound the exact
    integers as real numbers (their margin is in them)."""

    outside: dict[int, np.ndarray]  # (2, 5005, 11): at least U_i(S), at most U_i(S)
    inside: dict[int, np.ndarray]  # (5005, 11): at most A(S - i) - A(S)
    pairs: Pairs | None = None  # what two compositions drawn together take (``pair_taken``)

    @property
    def compositions(self) -> frozenset[int]:
        """The compositions bounded."""
        return frozenset(self.outside) | frozenset(self.inside)

    def most(self, i: int) -> np.ndarray:
        """At most d_i(S), for i outside S."""
        return _full(-self.outside[i][0])

    def least(self, i: int) -> np.ndarray:
        """At least d_i(S), and at most 0, for i outside S."""
        return _full(-self.outside[i][1])

    def beyond(self, i: int) -> np.ndarray:
        """At least d_i(S - i), and at most 0, for i in S."""
        return _full(-self.inside[i])


def _dealable(counts: Sequence[int], ms: np.ndarray) -> np.ndarray:
    """Which of the multisets ``ms`` (rows of value counts) the shoe ``counts`` holds."""
    out: np.ndarray = np.all(ms <= np.asarray(counts, dtype=np.int64), axis=1)
    return out


def rows_and_taken(counts: Sequence[int], seats: int, drawn: frozenset[int], asked: frozenset[int],
                   terms: int = TERMS, sweep: np.ndarray | None = None) -> tuple[np.ndarray, Taken]:
    """The class rows of ``seats`` other seats drawing on the compositions ``drawn`` (indices of
    ``COMPOSITIONS``), as ``others_finite`` on the six-slot multisets, and :class:`Taken` for ``asked``.

    The sums are taken on the six-slot multisets the shoe can deal (``sweep``: these indices instead, as the
    tests compare with every one); on the others, where every weight the search puts on a bound is 0, the
    bounds are the plain ones (U_i(S) at most A(S), and 0)."""
    six = Multisets.of_size(6).counts
    draws = np.zeros((VALUES, VALUES), dtype=bool)
    for i in drawn:
        u, w = COMPOSITIONS[i]
        draws[u, w] = draws[w, u] = True
    terms = min(terms, seats)
    wanted: dict[int, np.ndarray] = {r: np.empty(0) for r in range(1, terms + 1) if r < seats}
    rows = others_finite(counts, seats, draws, six, kept=wanted)
    bits = limb_bits(counts, six)
    levels = []
    offset = np.full(terms + 1, -1, dtype=np.int64)
    start = 0
    for r in range(1, terms + 1):
        if r == seats:
            continue  # nobody left below: the level is one empty sequence
        limbs = wanted[r]
        if limbs.size == 0:  # counted by search, not by rank: count the level alone, in rank order
            limbs = _by_rank(counts, seats - r, draws, 6 + 3 * r, bits)
        levels.append(_passing(limbs, bits))
        offset[r] = start
        start += len(limbs)
    which = sorted(asked)
    cum = np.concatenate(levels) if levels else np.zeros((1, 11))
    comps = np.array([COMPOSITIONS[i] for i in which], dtype=np.int64).reshape(-1, 2)
    zs, size, low, orders = _third_cards(terms)
    # only the six-slot multisets the shoe can deal: a small shoe deals a few dozen of the 5005, and each entry
    # of the sums reads its own multiset alone, so the rows swept are the same numbers swept with the rest
    swept = np.flatnonzero(_dealable(counts, six)) if sweep is None else sweep
    p = np.zeros((terms + 1, len(comps), len(six), 11))
    p[:, :, swept] = _sums(np.asarray(counts, dtype=np.int64), six[swept], comps, cum, offset, zs, size, low,
                           orders, terms, COMB)
    for r in range(1, terms + 1):
        p[r] *= math.comb(seats, r)
    slack = _MARGIN * p[1:].sum(axis=0) + 1
    exact = terms == seats  # every term of the inclusion-exclusion is there
    odd = terms if terms % 2 or exact else terms - 1
    even = terms if terms % 2 == 0 or exact else terms - 1
    signed = [(-1) ** (r + 1) * p[r] for r in range(1, terms + 1)]
    upper_u = sum(signed[:odd], slack)  # at least U_i(S)
    lower_u = np.maximum(sum(signed[:even], -slack), 0.0)  # at most U_i(S), and U_i(S) >= 0
    below_h = np.maximum(p[1:].sum(axis=0) - slack, 0.0)  # at most A(S - i) - A(S)
    unswept = np.ones(len(six), dtype=bool)
    unswept[swept] = False
    if unswept.any():  # a multiset no deal gives (weight 0 wherever the search reads a bound): U_i(S) <= A(S),
        # as the seats passing at S + i pass at S; lower_u and below_h are 0 there already, and hold
        level = np.cumsum(np.asarray(rows[unswept][:, 1:11], dtype=np.float64), axis=1)
        upper_u[:, unswept, 1:] = level * (1 + _MARGIN) + 1
    outside = {i: np.stack([upper_u[j], lower_u[j]]) for j, i in enumerate(which) if i not in drawn}
    inside = {i: below_h[j] for j, i in enumerate(which) if i in drawn}
    pairs = None  # two seats drawing at once need two other seats, and the level of the rest (r = 2)
    if seats == 2:
        pairs = Pairs(np.asarray(counts, dtype=np.int64), seats, None)
    elif seats > 2 and terms >= 2:
        level = cum[offset[2]:offset[2] + len(Multisets.of_size(12))].copy()
        pairs = Pairs(np.asarray(counts, dtype=np.int64), seats, level)
    return rows, Taken(outside, inside, pairs)


@dataclass(frozen=True)
class Pairs:
    """An evaluation's level of the other seats but two (``None``: no seat left), for :func:`pair_taken`."""

    counts: np.ndarray
    seats: int
    level: np.ndarray | None


@numba.njit(cache=True, parallel=True)
def _pair_sums(c: np.ndarray, six: np.ndarray, use: np.ndarray, starts: np.ndarray, pairs: np.ndarray,
               level: np.ndarray, empty: bool, weight: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """(len(pairs),): sum over six-slot multisets q and k = 1..10 of ``weight[q, k]`` times the sequences in which
    seat 1 holds the composition pairs[p, :2] and draws above k - 2, seat 2 holds pairs[p, 2:] and draws above
    k - 2, and the other seats pass (``level``, by the rank of q plus the six cards; ``empty``: nobody left).

    Only the multisets ``use`` (in rank order) are swept, those of block b at use[starts[b]:starts[b + 1]]: the
    others' terms are 0 (no weight), and leaving them out of the same blocks sums the same terms in the same
    order."""
    blocks = starts.shape[0] - 1
    partial = np.zeros((blocks, pairs.shape[0]))
    for block in numba.prange(blocks):
        first, end = starts[block], starts[block + 1]
        falls = np.empty((end - first, VALUES, 7))
        for j in range(first, end):
            falls[j - first] = _falls(c, six[use[j]], 7)
        e = np.zeros(VALUES, dtype=np.int64)
        for p in range(pairs.shape[0]):
            a, b, a2, b2 = pairs[p, 0], pairs[p, 1], pairs[p, 2], pairs[p, 3]
            orders = (1.0 if a == b else 2.0) * (1.0 if a2 == b2 else 2.0)
            for z1 in range(VALUES):
                top = min(z1 + 1, 10)  # both third cards above k - 2: the lower one, z1
                for z2 in range(z1, VALUES):
                    for v in range(VALUES):
                        e[v] = (z1 == v) + (z2 == v) + (a == v) + (b == v) + (a2 == v) + (b2 == v)
                    mult = orders * (1.0 if z1 == z2 else 2.0)  # which seat has which third card
                    partial[block, p] += mult * _pair_block(falls, six, use, first, end, e, top, weight, level,
                                                            empty, binom)
    out: np.ndarray = partial.sum(axis=0)
    return out


@numba.njit(cache=True, inline="always")
def _pair_block(falls: np.ndarray, six: np.ndarray, use: np.ndarray, first: int, end: int, e: np.ndarray, top: int,
                weight: np.ndarray, level: np.ndarray, empty: bool, binom: np.ndarray) -> float:
    """``_pair_sums``' sum over the block's multisets for one pair and its two third cards (``e`` by value)."""
    total = 0.0
    for j in range(first, end):
        q = use[j]
        ways = 1.0
        rank = 0
        at = 0
        for v in range(VALUES):
            if e[v]:
                ways *= falls[j - first, v, e[v]]
            if v:
                rank += binom[at + v - 1, v]
            at += six[q, v] + e[v]
        if ways == 0.0:
            continue
        s = 0.0
        for k in range(1, top + 1):
            s += weight[q, k] * (1.0 if empty else level[rank, k])
        total += ways * s
    return total


def _blocks(use: np.ndarray, n: int) -> np.ndarray:
    """Where each block of ``_BLOCK`` of the ``n`` multisets starts in the sorted indices ``use``."""
    out: np.ndarray = np.searchsorted(use, np.arange((n + _BLOCK - 1) // _BLOCK + 1) * _BLOCK)
    return out


def pair_taken(pairs: Pairs, compositions: Sequence[tuple[int, int]], weight: np.ndarray,
               sweep: np.ndarray | None = None) -> np.ndarray:
    """For every pair (i, j) of ``compositions`` (indices of ``COMPOSITIONS``), a number no less than the sum of
    ``weight`` (5005, 12) >= 0 times e_ij(S) = d_i(S + j) - d_i(S) >= 0, entry by entry, for S the evaluated
    strategy (i, j outside it): e_ij(S) counts the sequences passing at S in which one seat holding i and
    another holding j both draw above k - 2, no more than the ordered pairs of seats times the sequences in
    which two given seats do so and the rest pass at S. All its terms are non-negative; the margin is
    ``anchors``'. The sums sweep the multisets with a weight (``sweep``: these sorted indices instead)."""
    out = np.zeros(len(compositions))
    if pairs.seats < 2 or not compositions:
        return out
    cards = np.array([[*COMPOSITIONS[i], *COMPOSITIONS[j]] for i, j in compositions], dtype=np.int64)
    level = pairs.level if pairs.level is not None else np.zeros((1, 11))
    weights = np.ascontiguousarray(weight[:, :11], dtype=np.float64)
    # the multisets with a weight: on a small shoe the few dozen it deals (K(L) is 0 on the others)
    use = np.flatnonzero((weights[:, 1:] != 0).any(axis=1)) if sweep is None else sweep
    six = Multisets.of_size(6).counts
    sums = _pair_sums(pairs.counts, six, use.astype(np.int64), _blocks(use, len(six)), cards, level,
                      pairs.level is None, weights, COMB)
    sums *= pairs.seats * (pairs.seats - 1)
    return sums * (1 + _MARGIN) + 1


def _full(k_values: np.ndarray) -> np.ndarray:
    """(5005, 11) bounds at k = 0..10 (k = 0 unused) to the (5005, 12) of ``class_rows``: naturals (k = 0) and
    every non-natural sequence (k = 11) do not depend on the strategy."""
    out = np.zeros((k_values.shape[0], CLASSES))
    out[:, 1:11] = k_values[:, 1:11]
    return out


def _by_rank(counts: Sequence[int], seats: int, draws: np.ndarray, size: int, bits: int) -> np.ndarray:
    """``seats`` seats on every multiset of ``size`` cards, in colex rank order, as limbs of ``bits`` bits (for a
    shoe whose levels are searched, not counted by rank)."""
    ms = Multisets.of_size(size).counts
    rows = np.asarray(others_finite(counts, seats, draws, ms), dtype=object)
    out = np.empty_like(rows)
    out[ranks_of(np.ascontiguousarray(ms, dtype=np.int64), COMB)] = rows
    return to_limbs(out, bits)
