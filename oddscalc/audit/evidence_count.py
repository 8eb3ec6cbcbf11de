"""Caribbean Stud completions counted by rank multiset: what each decision's dealer hand can still be, exact.

Counting argument. With the player's five cards and j of the dealer's cards known (the up card and k = j - 1 hole
cards), the dealer's other m = 5 - j cards are any m-set of the n - 5 - j cards left, C(n - 5 - j, m) completions.
A five-card hand's value is its rank multiset and whether it is suited, so the completions are counted by the
multiset of the m ranks drawn: with ``left[r]`` cards of rank r still in the deck, a multiset using rank r
``u_r`` times is drawn in ``prod_r C(left[r], u_r)`` ways. Of those, the suited ones (a flush or straight flush)
exist only when the j known cards share one suit s and the m ranks are distinct: exactly ``prod_r [card (r, s) is
left]`` of them (a rank the known cards already hold has its suit-s card gone, so the product is 0 there). Each
multiset's value with the known ranks is one read of a (known multiset x drawn multiset) table built from the
deck's own hand table (``hands.hand_table``), so the strengths are the engine's. Against the player's strength
and the qualifier's, every completion lands in one of: the dealer does not qualify, the player wins, a push, the
dealer wins; the four sum to C(n - 5 - j, m), which the caller checks.

At most C(16, 4) = 1,820 multisets a decision (the up card alone known) against 163,185 completions: the counts of
a million decisions take seconds. The kernel is numba, parallel over decisions (``prange``).
"""

from __future__ import annotations

import functools
import math

import numba
import numpy as np

from oddscalc.cards import Deck
from oddscalc.hands import BINOM, colex_combos, hand_table

MS5 = math.comb(17, 5)  # rank multisets of five cards (13 ranks, repeats allowed)
OUTCOMES = 4  # the dealer does not qualify, the player wins, push, the dealer wins
SMALL = np.array([[math.comb(n, k) for k in range(6)] for n in range(6)], dtype=np.int64)  # C(n, k), n, k <= 5


def multisets(size: int) -> np.ndarray:
    """(C(12 + size, size), size) int8: every multiset of ``size`` ranks as ascending rows, row i having multiset
    index i (``sum C(a_i + i, i + 1)``, the colex rank of ``a_i + i``); one empty row for size 0."""
    if size == 0:
        return np.zeros((1, 0), dtype=np.int8)
    return (colex_combos(12 + size, size) - np.arange(size, dtype=np.int8)).astype(np.int8)


def multiset_index(ranks: np.ndarray) -> np.ndarray:
    """The multiset index of each row of ascending ranks (as ``multisets`` numbers them)."""
    r = np.asarray(ranks, dtype=np.int64)
    if r.shape[-1] == 0:
        return np.zeros(r.shape[:-1], dtype=np.int64)
    return np.asarray(BINOM[r + np.arange(r.shape[-1]), np.arange(1, r.shape[-1] + 1)].sum(axis=-1))


@functools.cache
def five_rank_strengths(deck: Deck) -> np.ndarray:
    """(MS5, 2) int16: the deck's dense strength of each five-rank multiset unsuited (column 0) and suited
    (column 1), read off the deck's hand table; -1 where the deck deals no such hand."""
    ht = hand_table(deck)
    combos = ht.combos.astype(np.int64)  # each row ascending by card id, so by rank too
    suits = combos & 3
    suited = (suits == suits[:, :1]).all(axis=1).astype(np.int64)
    out = np.full((MS5, 2), -1, dtype=np.int16)
    out[multiset_index(combos >> 2), suited] = ht.strength
    out.flags.writeable = False
    return out


@functools.cache
def strength_tables(deck: Deck, known: int) -> tuple[np.ndarray, np.ndarray]:
    """The unsuited and suited strength of every (known multiset of ``known`` ranks, drawn multiset of 5 - known
    ranks): two (C(12 + known, known), C(17 - known, 5 - known)) int16 tables, -1 where the deck deals no such
    hand."""
    five = five_rank_strengths(deck)
    ks, ds = multisets(known), multisets(5 - known)
    both = np.concatenate([np.repeat(ks, len(ds), axis=0), np.tile(ds, (len(ks), 1))], axis=1)
    idx = multiset_index(np.sort(both, axis=1))
    plain = five[idx, 0].reshape(len(ks), len(ds))
    suited = five[idx, 1].reshape(len(ks), len(ds))
    for a in (plain, suited):
        a.flags.writeable = False
    return plain, suited


@numba.njit(cache=True)
def _add(out: np.ndarray, strength: int, ways: int, q: int, mine: int) -> None:
    """``ways`` dealer hands of ``strength``: below the qualifier (0), below the player (1), equal (2), above (3);
    the outcome computed, not branched on."""
    out[int(strength >= q) * (1 + int(strength >= mine) + int(strength > mine))] += ways


@numba.njit(cache=True)
def _step(active: bool, p: int, r: int, prev: int, run: int, w: int, base: int, ws: int, idx: int,
          left: np.ndarray, avail: np.ndarray) -> tuple[int, int, int, int, int]:
    """Draw rank ``r`` as the p-th card (ascending) after ``prev`` drawn ``run`` times in a row: the ways, the
    ways before this rank's run, the suited ways, the multiset index and the new run; an inactive level changes
    nothing. The ways are products of C(left, times drawn) read from ``SMALL`` (no division: it was most of the
    count's time)."""
    if not active:
        return w, base, ws, idx, run
    if r == prev:
        return base * SMALL[left[r], run + 1], base, 0, idx + BINOM[r + p, p + 1], run + 1
    return w * left[r], w, ws * avail[r], idx + BINOM[r + p, p + 1], 1


@numba.njit(cache=True)
def _one(  # noqa: C901 - the count's one loop nest, kept whole for numba
    player: np.ndarray, known: np.ndarray, mine: int, q: int, in_deck: np.ndarray, plain: np.ndarray,
    suited: np.ndarray, out: np.ndarray,
) -> None:
    """One decision's four outcome counts into ``out``: the drawn ranks as up to four nested ascending loops (a
    level past the m drawn runs once), the ways and the multiset index carried from level to level."""
    left = np.zeros(13, dtype=np.int64)
    for c in range(52):
        if in_deck[c]:
            left[c >> 2] += 1
    for c in player:
        left[c >> 2] -= 1
    for c in known:
        left[c >> 2] -= 1
    j = len(known)
    m = 5 - j
    suit = known[0] & 3
    same = 1
    for c in known:
        if c & 3 != suit:
            same = 0
    avail = np.zeros(13, dtype=np.int64)  # the card of this rank in the known cards' suit is left
    for r in range(13):
        c = (r << 2) | suit
        avail[r] = 1 if in_deck[c] else 0
    for c in player:
        if c & 3 == suit:
            avail[c >> 2] = 0
    for c in known:
        avail[c >> 2] = 0
    kr = np.sort(known >> 2)
    kidx = 0
    for i in range(j):
        kidx += BINOM[kr[i] + i, i + 1]
    for i in range(OUTCOMES):
        out[i] = 0
    a0, a1, a2, a3 = m > 0, m > 1, m > 2, m > 3
    for r0 in range(13 if a0 else 1):
        w0, b0, s0, i0, n0 = _step(a0, 0, r0, -1, 0, 1, 1, same, 0, left, avail)
        if w0 == 0:
            continue
        for r1 in range(r0 if a1 else 0, 13 if a1 else 1):
            w1, b1, s1, i1, n1 = _step(a1, 1, r1, r0, n0, w0, b0, s0, i0, left, avail)
            if w1 == 0:
                continue
            for r2 in range(r1 if a2 else 0, 13 if a2 else 1):
                w2, b2, s2, i2, n2 = _step(a2, 2, r2, r1, n1, w1, b1, s1, i1, left, avail)
                if w2 == 0:
                    continue
                for r3 in range(r2 if a3 else 0, 13 if a3 else 1):
                    w3, _, s3, i3, _ = _step(a3, 3, r3, r2, n2, w2, b2, s2, i2, left, avail)
                    if w3 == 0:
                        continue
                    if w3 > s3:
                        _add(out, plain[kidx, i3], w3 - s3, q, mine)
                    if s3:
                        _add(out, suited[kidx, i3], s3, q, mine)


@numba.njit(cache=True, parallel=True)
def _all(players: np.ndarray, known: np.ndarray, mine: np.ndarray, q: int, in_deck: np.ndarray, plain: np.ndarray,
         suited: np.ndarray, out: np.ndarray) -> None:
    for i in numba.prange(len(players)):
        _one(players[i], known[i], mine[i], q, in_deck, plain, suited, out[i])


def outcome_counts(deck: Deck, players: np.ndarray, known: np.ndarray, mine: np.ndarray, qualifier: int) -> np.ndarray:
    """(n, 4) int64: for each decision (the player's five cards, the j dealer cards known, the player's strength),
    the dealer completions that do not qualify, lose to the player, push, beat the player."""
    j = known.shape[1]
    if not 1 <= j <= 5:
        raise ValueError(f"between 1 and 5 dealer cards known, not {j}")
    plain, suited = strength_tables(deck, j)
    in_deck = np.zeros(52, dtype=np.bool_)
    in_deck[list(deck.cards)] = True
    out = np.zeros((len(players), OUTCOMES), dtype=np.int64)
    if len(players):
        _all(np.ascontiguousarray(players, dtype=np.int64), np.ascontiguousarray(known, dtype=np.int64),
             np.ascontiguousarray(mine, dtype=np.int64), qualifier, in_deck, plain.astype(np.int64),
             suited.astype(np.int64), out)
    expected = math.comb(deck.size - 5 - j, 5 - j)
    if len(out) and not (out.sum(axis=1) == expected).all():
        raise AssertionError(f"completions counted do not sum to C({deck.size - 5 - j}, {5 - j}) = {expected}")
    return out


def states(deck: Deck, players: np.ndarray, known: np.ndarray) -> np.ndarray:
    """(n,) int64: each decision's state, all that its four outcome counts depend on: the player's rank multiset
    and whether his cards are suited (his strength), the known dealer cards' rank multiset, whether they share a
    suit, and which ranks of that suit the player holds (the suited completions left); on a deck that is not the
    same in every suit, that suit too. Decisions of one state have the same counts (the kernel reads nothing else),
    and a hand class repeats: a log of a million decisions holds far fewer states."""
    p = np.asarray(players, dtype=np.int64)
    k = np.asarray(known, dtype=np.int64)
    suit = k[:, :1] & 3
    flush = ((p & 3) == (p[:, :1] & 3)).all(axis=1)
    same = ((k & 3) == suit).all(axis=1)
    mask = (((p & 3) == suit) << (p >> 2)).sum(axis=1)  # the player's ranks in the first known card's suit
    key = multiset_index(np.sort(p >> 2, axis=1)) * 2 + flush
    key = (key * math.comb(12 + k.shape[1], k.shape[1]) + multiset_index(np.sort(k >> 2, axis=1))) * 2 + same
    key = key * 8192 + mask
    if not _suit_symmetric(deck):
        key = key * 4 + suit[:, 0]
    return np.asarray(key, dtype=np.int64)


def _suit_symmetric(deck: Deck) -> bool:
    ranks = [sum(1 for c in deck.cards if c & 3 == s) for s in range(4)]
    return len(set(ranks)) == 1 and all(((c & ~3) | s) in deck.cards for c in deck.cards for s in range(4))


def outcome_counts_by_state(deck: Deck, players: np.ndarray, known: np.ndarray, mine: np.ndarray,
                            qualifier: int) -> np.ndarray:
    """:func:`outcome_counts`, counted once per state (:func:`states`) and read back for every decision: the same
    (n, 4) array."""
    if not len(players):
        return outcome_counts(deck, players, known, mine, qualifier)
    _, first, inverse = np.unique(states(deck, players, known), return_index=True, return_inverse=True)
    counts = outcome_counts(deck, players[first], known[first], mine[first], qualifier)
    return np.asarray(counts[inverse.reshape(-1)])


__all__ = ["MS5", "OUTCOMES", "five_rank_strengths", "multiset_index", "multisets", "outcome_counts",
           "outcome_counts_by_state", "states", "strength_tables"]
