"""The other seats' card sequences when third cards are shown: by the class each seat starts from and leaves.

Counting argument. Take seat k's point of view. Its six slots (its two cards and third slot, the
house's three) form a multiset m, as in the hidden game, and the other seats' card sequences are
counted from the shoe minus m, seat by seat, with the running class (a natural, nobody drew, the
highest third card z) as the state: a seat's draw depends on the class it starts from, and its
third card moves it. A seat that stands leaves its third slot to the end of the sequence (a factor,
not a branch), as in ``seats``. Seat k needs

    R[m][c][sigma][f] = sum over the sequences of the seats before k that end in class c of
                        T[m + their cards][sigma][f],

with T the sequences of the seats after k from a start class sigma, by final class f. Seat k's own
play turns (c, its action, its third card) into sigma: c when it stands, max(c, its card) when it
draws. When at most one seat sits before k, that seat is counted first and the class it leaves is
written out as c (``_place``); when at most one sits after, that seat is counted first from every
start sigma and the seats before below it. Both keep every table at two classes per card multiset
(three at the top level only). With two seats or more on each side (seat 3 of five), the seats after
k are counted first, from every sigma, with f written out at the last of them, and the seats before
k below them as a chain from 'nobody drew': the two chains meet only through the cards they take, so
c rides down the seats after k as a trail (``stacked``). That puts three classes per multiset on one
level below the top: about 50 s and 9 GB for seat 3 of five on 8 decks. With six or seven seats they
come lower still (seat 3 of six: about 100 GB on 8 decks), so the sights c and final classes f can be
kept to a few at a time: ``shown_passes`` counts them in passes that fit in memory.

A level whose sequences fit int64 is counted exactly (all terms are non-negative, so no partial sum
exceeds the total). Past that, the level is counted modulo primes below 2**28 and the caller
rebuilds the integers by the Chinese remainder theorem (``rebuild``): there are enough primes for
their product to exceed every count.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from oddscalc.games.house_baccarat.others import CHUNK, CLASSES, NAT_CLASS, NATURAL, NONE_CLASS, decode, grow, merge
from oddscalc.games.shoe import VALUE_KEYS, VALUES, Multisets, Shoe, falling
from oddscalc.protocol import OptionError

MAX_PLAYERS = 7
_PRIME_BITS = 28
_EXACT_BELOW = 2**63  # a level counts exactly in int64 below this many sequences

_CU, _CW = (np.array(x) for x in zip(*[(u, w) for u in range(VALUES) for w in range(u, VALUES)], strict=True))
ALL = tuple(range(CLASSES))
_ORDER = np.where(_CU == _CW, 1, 2)  # ordered deals of the two values
_NAT_COMP = NATURAL[_CU, _CW]
_CK = VALUE_KEYS[_CU] + VALUE_KEYS[_CW]
_OWN = (_CU[:, None] == np.arange(VALUES)).astype(np.int64) + (_CW[:, None] == np.arange(VALUES))  # (55, 10)
CLS = np.arange(CLASSES)
# the class after a third card z is shown, from class s: a natural stays, otherwise the highest card
AFTER = np.where(CLS[:, None] == NAT_CLASS, NAT_CLASS, np.maximum(CLS[:, None], 2 + np.arange(VALUES)))


@cache
def _primes(count: int) -> tuple[int, ...]:
    """The ``count`` largest primes below 2**28."""
    from sympy import prevprime

    out = [int(prevprime(1 << _PRIME_BITS))]
    while len(out) < count:
        out.append(int(prevprime(out[-1])))
    return tuple(out)


def moduli(bound: int) -> tuple[int, ...]:
    """Primes below 2**28 whose product exceeds ``bound``."""
    count = 1
    while math.prod(_primes(count)) <= bound:
        count += 1
    return _primes(count)


def _draws(play: np.ndarray) -> np.ndarray:
    """(55, 12) bool: a play (12, 10, 10) draws on this composition from class s (never on a natural, never
    after one)."""
    draw: np.ndarray = (play[:, _CU, _CW] & ~_NAT_COMP).T.copy()
    draw[:, NAT_CLASS] = False
    return draw


def _pairs(rr: np.ndarray) -> np.ndarray:
    """(m, 55): ordered two-card deals of each composition from the cards left ``rr`` (m, 10)."""
    out: np.ndarray = rr[:, _CU] * (rr[:, _CW] - (_CU == _CW)) * _ORDER
    return out


def _on(starts: Sequence[int]) -> np.ndarray:
    """(12,) bool: the classes of ``starts``."""
    on = np.zeros(CLASSES, dtype=bool)
    on[list(starts)] = True
    return on


@dataclass(frozen=True)
class _Moves:
    """One seat's moves from a block of states (cards removed so far), for a play by class."""

    pairs: np.ndarray  # (m, 55): ordered deals of each two-card composition
    stand: np.ndarray  # (m, 55, 12): weight of standing (a natural, or no draw) from class s
    draw: np.ndarray  # (55, 12) bool: the play draws on this composition from class s
    thirds: np.ndarray  # (m, 55, 10): cards z left for the third card

    @staticmethod
    def of(counts: np.ndarray, play: np.ndarray, keys: np.ndarray, after: int) -> _Moves:
        rr = np.maximum(counts - decode(keys), 0)
        pairs, draw = _pairs(rr), _draws(play)
        unused = np.maximum(rr.sum(axis=1) - 2 - after, 0)  # the unused third slot: any card left at the end
        stand = (pairs * unused[:, None])[:, :, None] * ~draw
        return _Moves(pairs, stand, draw, rr[:, None, :] - _OWN)


def _stand_class() -> np.ndarray:
    """(55, 12): the class a standing seat leaves: a natural's, or the one it found."""
    return np.where(_NAT_COMP[:, None] | (CLS == NAT_CLASS), NAT_CLASS, CLS)


def _blocks(rows: int, width: int) -> list[slice]:
    """Blocks of states whose temporaries stay near 2**23 entries."""
    step = max(16, min(CHUNK, (1 << 23) // max(width, 1)))
    return [slice(a, a + step) for a in range(0, rows, step)]


Mods = Sequence[int | None]  # a level's moduli: [None] when its counts fit int64 exactly, else the primes


def _mod(x: np.ndarray, p: int | None) -> np.ndarray:
    return x if p is None else x % p


def _level_mods(n_top: int, seats: int, primes: Sequence[int]) -> list[int | None]:
    """Exact int64 when ``seats`` seats' sequences fit (all terms are non-negative and add up to at most
    that many, so no partial sum overflows either); modulo ``primes`` otherwise."""
    return [None] if falling(n_top, 3 * seats) < _EXACT_BELOW else list(primes)


def as_moduli(arrays: Sequence[np.ndarray], have: Mods, want: Mods) -> list[np.ndarray]:
    """Arrays under moduli ``have`` as arrays under ``want`` (exact counts reduced, or kept)."""
    if list(have) == list(want):
        return list(arrays)
    if list(have) != [None]:
        raise AssertionError("residues cannot be turned into other residues")
    return [_mod(arrays[0], p) for p in want]


def _over(run: Callable[[list[np.ndarray], Mods], list[np.ndarray]], below: list[np.ndarray], have: Mods,
          want: Mods, n_top: int) -> list[np.ndarray]:
    """One seat's level ``run`` over ``below`` (counted under ``have``), under the moduli ``want``.

    Exact counts below a level that needs residues are split at bit k into two halves, each run
    exactly, and joined modulo each prime: two passes instead of one per prime. A level is linear in
    what lies below it and one seat's weights add up to at most n**3 (n the cards left), so a half
    below 2**k gives at most n**3 2**k, kept in int64 by the choice of k."""
    if list(have) == list(want):
        return run(below, want)
    seat = falling(n_top, 3).bit_length()
    if list(have) != [None] or 2 * seat + 1 > 62:  # a shoe of over a thousand cards: one pass per prime
        return run(as_moduli(below, have, want), want)
    k = 62 - seat
    (low,), (high,) = run([below[0] & ((1 << k) - 1)], [None]), run([below[0] >> k], [None])
    from oddscalc.seats.shown.sums import join

    primes = np.array([p for p in want if p is not None], dtype=np.int64)
    if not ((primes > 1 << (_PRIME_BITS - 1)) & (primes < 1 << _PRIME_BITS)).all():
        raise AssertionError("the join's reduction is exact for primes between 2^27 and 2^28 only")
    joined = join(high.ravel(), low.ravel(), primes, np.array([pow(2, k, int(p)) for p in primes], dtype=np.int64))
    return [j.reshape(high.shape) for j in joined]


def _gather(counts: np.ndarray, play: np.ndarray, keys: np.ndarray, plus2: np.ndarray, states: np.ndarray,
            below: Sequence[np.ndarray], after: int, mods: Mods, starts: Sequence[int]) -> list[np.ndarray]:
    """(len(keys), 12, *T) per modulus: one seat from every start class, then ``below`` ((states, 12, *T),
    what the seats after it give from each state and class; ``plus2, states`` from ``_reach``)."""
    from oddscalc.seats.shown.sums import seat_sums, third_sums

    trail = below[0].shape[2:]
    flat = [b.reshape(len(states), CLASSES, -1) for b in below]
    left = np.maximum(counts - decode(plus2), 0)  # (plus2, 10): the third card
    nxt3 = _at(states, plus2[:, None] + VALUE_KEYS)
    on = _on(starts)
    drawing = np.flatnonzero((_draws(play) & on).any(axis=1))
    # (plus2, 12, T): sum over z of the cards z left x below at (state + z, class moved by z)
    third = [third_sums(b, nxt3, left, AFTER, p or 0) if len(drawing) else
             np.zeros((len(plus2), CLASSES, b.shape[2]), dtype=np.int64) for b, p in zip(flat, mods, strict=True)]
    stand_cls = _stand_class()
    out = [np.zeros((len(keys), CLASSES, b.shape[2]), dtype=np.int64) for b in flat]
    for part in _blocks(len(keys), 55 * CLASSES * VALUES):
        kk = keys[part]
        mv = _Moves.of(counts, play, kk, after)
        at2 = _at(states, kk[:, None] + _CK)
        at2p = _at(plus2, kk[:, None] + _CK[drawing])
        for o, b, a, p in zip(out, flat, third, mods, strict=True):
            ws = _mod(mv.stand, p) * on
            wd = _mod(mv.pairs[:, drawing, None], p) * (mv.draw[drawing] & on)
            o[part] = seat_sums(ws, at2, stand_cls, b, wd, at2p, a, p or 0)
    return [o.reshape(len(keys), CLASSES, *trail) for o in out]


def _place(counts: np.ndarray, play: np.ndarray, keys: np.ndarray, states: np.ndarray, below: Sequence[np.ndarray],
           after: int, mods: Mods, starts: Sequence[int], finals: Sequence[int] = ALL) -> list[np.ndarray]:
    """(len(keys), len(starts), len(finals), *X) per modulus: one seat from each of ``starts``, the class it
    leaves written out when it is one of ``finals``, times ``below`` ((states, *X): what the seats counted after
    it give)."""
    from oddscalc.seats.shown.sums import place_sums

    trail = below[0].shape[1:]
    flat = [b.reshape(len(states), -1) for b in below]
    stand_cls = _stand_class()
    slot = _slots(finals)
    out = [np.zeros((len(keys), len(starts), len(finals), b.shape[1]), dtype=np.int64) for b in flat]
    drawing = np.flatnonzero(_draws(play)[:, list(starts)].any(axis=1))
    begin = np.array(starts, dtype=np.int64)
    for part in _blocks(len(keys), 55 * VALUES * CLASSES):
        kk = keys[part]
        mv = _Moves.of(counts, play, kk, after)
        weights3 = mv.pairs[:, drawing, None] * mv.thirds[:, drawing]  # (m, drawing, 10)
        at2 = _at(states, kk[:, None] + _CK)
        at3 = _at(states, kk[:, None, None] + _CK[drawing, None] + VALUE_KEYS)
        for o, b, p in zip(out, flat, mods, strict=True):
            o[part] = place_sums(_mod(mv.stand, p), at2, stand_cls, _mod(weights3, p), mv.draw[drawing], at3, AFTER,
                                 begin, slot, b, p or 0)
    return [o.reshape(len(keys), len(starts), len(finals), *trail) for o in out]


def _slots(finals: Sequence[int]) -> np.ndarray:
    """(12,) int64: each class's place among ``finals``, -1 for a class left out."""
    slot = np.full(CLASSES, -1, dtype=np.int64)
    slot[list(finals)] = np.arange(len(finals))
    return slot


def _last(counts: np.ndarray, play: np.ndarray, keys: np.ndarray, starts: Sequence[int],
          finals: Sequence[int] = ALL) -> np.ndarray:
    """(len(keys), 12 start, len(finals)) int64, exact: the last seat of a chain (``_place`` with nothing below),
    by the final classes ``finals``."""
    from oddscalc.seats.shown.sums import last_sums

    return last_sums(np.ascontiguousarray(keys), counts, _CU, _CW, _draws(play), _stand_class(), AFTER, _slots(finals),
                     _on(starts), len(finals))


def _chain(counts: np.ndarray, plays: Sequence[np.ndarray], keys: np.ndarray, primes: Sequence[int],
           starts: Sequence[int], n_top: int, finals: Sequence[int] = ALL) -> tuple[Mods, list[np.ndarray]]:
    """(len(keys), 12 start, len(finals)) per modulus: the card sequences of ``plays``' seats, in order, from
    every start class to each of the final classes ``finals`` (``n_top`` bounds the cards left at ``keys``)."""
    after = 3 * (len(plays) - 1)
    mods = _level_mods(n_top, len(plays), primes)
    if len(plays) == 1:
        return mods, [_mod(last, p) for last in [_last(counts, plays[0], keys, starts, finals)] for p in mods]
    plus2, states = _reach(keys, counts)
    have, below = _chain(counts, plays[1:], states, primes, range(CLASSES), n_top, finals)
    return mods, _over(lambda b, m: _gather(counts, plays[0], keys, plus2, states, b, after, m, starts), below, have,
                       mods, n_top)


def _reach(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted keys with two more cards than one of ``keys``, and with two or three more: a slight superset of
    where a seat leads, kept to multisets the shoe holds."""
    def held(k: np.ndarray) -> np.ndarray:
        out = grow(k)
        return out[(decode(out) <= counts).all(axis=1)]

    plus2 = held(held(np.sort(keys)))
    return plus2, merge(np.concatenate([plus2, held(plus2)]))


def _at(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Row of each key in ``sorted_keys``; a key the shoe cannot hold only ever meets a weight of 0, so any row
    will do for it."""
    return np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)


def class_rows(shoe: Shoe, plays: Sequence[np.ndarray], k: int, primes: Sequence[int], sights: Sequence[int] = ALL,
               finals: Sequence[int] = ALL) -> tuple[Mods, list[np.ndarray]]:
    """(5005, len(sights) c, 12 start sigma, len(finals) f) per modulus: the other seats' sequences for seat
    ``k`` (0-based) of ``plays`` (each (12, 10, 10) bool), for every multiset of its six slots, the sight c
    and final class f kept to ``sights`` and ``finals`` (a pass of ``shown_passes``)."""
    counts = np.asarray(shoe.counts, dtype=np.int64)
    six = Multisets.of_size(6)
    held = (six.counts <= counts).all(axis=1)  # the other rows meet a weight of 0
    mods, rows = _rows(counts, six.keys[held], shoe.size - 6, plays, k, primes, sights, finals)
    full = [np.zeros((len(six), *r.shape[1:]), dtype=np.int64) for r in rows]
    for f, r in zip(full, rows, strict=True):
        f[held] = r
    return mods, full


def _rows(counts: np.ndarray, keys: np.ndarray, n_top: int, plays: Sequence[np.ndarray], k: int,
          primes: Sequence[int], cs: Sequence[int], fs: Sequence[int]) -> tuple[Mods, list[np.ndarray]]:
    if len(plays) > MAX_PLAYERS:
        raise OptionError(f"third cards shown: the count is exact up to {MAX_PLAYERS} seats")
    before, later = list(plays[:k]), list(plays[k + 1:])
    mods = _level_mods(n_top, len(plays) - 1, primes)
    if not later:  # R = [f = sigma] x the seats before, by class
        have, rows = _chain(counts, before, keys, primes, [NONE_CLASS], n_top, cs)
        eye = np.eye(CLASSES, dtype=np.int64)[:, list(fs)]
        return have, [r[:, NONE_CLASS, :, None, None] * eye for r in rows]
    if not before:
        have, rows = _chain(counts, later, keys, primes, range(CLASSES), n_top, fs)
        return have, [_only(t, cs) for t in rows]
    _, states = _reach(keys, counts)
    if len(before) == 1:  # the seat before first, the class it leaves written out
        have, tail = _chain(counts, later, states, primes, range(CLASSES), n_top, fs)
        flat = [t.reshape(len(states), -1) for t in tail]
        out = _over(lambda b, m: _place(counts, before[0], keys, states, b, 3 * len(later), m, [NONE_CLASS], cs),
                    flat, have, mods, n_top)
        return mods, [o[:, 0].reshape(len(keys), len(cs), CLASSES, len(fs)) for o in out]
    if len(later) == 1:  # the seat after first, from every start; the seats before below it
        have, head = _chain(counts, before, states, primes, [NONE_CLASS], n_top, cs)
        out = _over(lambda b, m: _place(counts, later[0], keys, states, b, 3 * len(before), m, range(CLASSES), fs),
                    [h[:, NONE_CLASS] for h in head], have, mods, n_top)
        return mods, [o.transpose(0, 3, 1, 2).copy() for o in out]
    return stacked(counts, keys, n_top, before, later, primes, cs, fs)


def stacked(counts: np.ndarray, keys: np.ndarray, n_top: int, before: Sequence[np.ndarray],
            later: Sequence[np.ndarray], primes: Sequence[int], cs: Sequence[int] = ALL,
            fs: Sequence[int] = ALL) -> tuple[Mods, list[np.ndarray]]:
    """(len(keys), len(cs) c, 12 sigma, len(fs) f) per modulus, with seats on both sides of seat k: the seats
    after it counted first, from every start sigma, with the final class f written out at the last of them;
    below them the seats before it as a chain from 'nobody drew', by the class c they leave.

    The two chains meet only through the cards they take, so c rides down the seats after k as a trail:
    three classes per multiset at the level of the last seat after k, and at most one below it."""
    def below(states: np.ndarray) -> tuple[Mods, list[np.ndarray]]:
        have, head = _chain(counts, before, states, primes, [NONE_CLASS], n_top, cs)
        return have, [h[:, NONE_CLASS] for h in head]

    have, out = _after(counts, later, keys, below, len(before), primes, n_top, fs)
    return have, [o.transpose(0, 3, 1, 2).copy() for o in out]


def _after(counts: np.ndarray, plays: Sequence[np.ndarray], keys: np.ndarray,
           below: Callable[[np.ndarray], tuple[Mods, list[np.ndarray]]], under: int, primes: Sequence[int],
           n_top: int, fs: Sequence[int]) -> tuple[Mods, list[np.ndarray]]:
    """(len(keys), 12 start, len(fs) final, *X) per modulus: ``plays``' seats in order from every start, the final
    class written out when it is one of ``fs``, over ``below(states)`` ((states, *X): the ``under`` seats counted
    beneath them)."""
    mods = _level_mods(n_top, len(plays) + under, primes)
    plus2, states = _reach(keys, counts)
    after = 3 * (len(plays) - 1 + under)
    if len(plays) == 1:
        have, tail = below(states)
        return mods, _over(lambda b, m: _place(counts, plays[0], keys, states, b, after, m, range(CLASSES), fs),
                           tail, have, mods, n_top)
    have, tail = _after(counts, plays[1:], states, below, under, primes, n_top, fs)
    return mods, _over(lambda b, m: _gather(counts, plays[0], keys, plus2, states, b, after, m, range(CLASSES)),
                       tail, have, mods, n_top)


def _only(t: np.ndarray, cs: Sequence[int]) -> np.ndarray:
    """(M, len(cs), 12, F) with the sight 'nobody drew' carrying ``t`` (no seat before: that is all it sees)."""
    out = np.zeros((len(t), len(cs), *t.shape[1:]), dtype=np.int64)
    if NONE_CLASS in cs:
        out[:, list(cs).index(NONE_CLASS)] = t
    return out


def rebuild(residues: Sequence[np.ndarray], primes: Sequence[int]) -> np.ndarray:
    """The integers in [0, product of ``primes``) with these residues (Garner's method), as Python ints."""
    x = residues[0].astype(object)
    mod = primes[0]
    for r, p in zip(residues[1:], primes[1:], strict=True):
        t = ((r.astype(object) - x) * pow(mod, -1, p)) % p
        x, mod = x + mod * t, mod * p
    return x
