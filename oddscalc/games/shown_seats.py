"""House baccarat with two to four seats and third cards shown as dealt, in seat order.

The sheet speaks of turns ("cuando un jugador se planta o pide su tercera carta termina su turno").
Read with third cards dealt face up in seat order, a seat decides on its two cards and what it saw
of the seats before it. Here a seat's *sight* is the class the seats before it put the table in:
nobody drew, or the highest third card shown is z (a natural anywhere ends the deal before anyone
decides). That is what the house will play to so far. A play by sight does not use the card
removal of the lower cards shown; with two seats the sight is all the second seat sees, so there
this is the whole sequential game (``turn_order`` counts it another way, and the two agree).

Counting argument. Take seat k's point of view. Its six slots (its two cards and third slot, the
house's three) form a multiset m, as in the hidden game, and the other seats' card sequences are
counted from the shoe minus m, seat by seat, with the running class as the state: a seat's draw
depends on the class it starts from, and its third card moves it. A seat that stands leaves its
third slot to the end of the sequence (a factor, not a branch), as in ``seats``. Seat k needs

    R[m][c][sigma][f] = sum over the sequences of the seats before k that end in class c of
                        T[m + their cards][sigma][f],

with T the sequences of the seats after k from a start class sigma, by final class f. Seat k's own
play turns (c, its action, its third card) into sigma: c when it stands, max(c, its card) when it
draws. When at most one seat sits before k, that seat is counted first and the class it leaves is
written out as c; when at most one sits after, that seat is counted first from every start sigma
and the seats before below it. Both keep every table at two classes per state (three at the
top level only). With two seats or more on each side, either order needs three classes per state
at a deep level; that is why the count stops at four seats.

Counts outgrow int64, so every level is computed modulo primes below 2**28 and the integers are
rebuilt by the Chinese remainder theorem. There are enough primes for their product to exceed
the number of deals, and no count exceeds that number, so the rebuild is exact; the rebuilt counts
are checked to add up to every deal.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from ..protocol import OptionError
from ..results import Cell, Column, Section
from .house_baccarat import Strategy, _six_index, slot_orderings_by_third
from .seats import _CHUNK, CLASSES, NAT_CLASS, NATURAL, NONE_CLASS, _decode, _grow, _merge
from .shoe import VALUE_KEYS, VALUES, Multisets, Shoe, falling
from .turn_order import Late, _plays, late_ev, late_reply

MAX_PLAYERS = 4
_PRIME_BITS = 28
_EXACT_BELOW = 2**63  # a level counts exactly in int64 below this many sequences

_CU, _CW = (np.array(x) for x in zip(*[(u, w) for u in range(VALUES) for w in range(u, VALUES)], strict=True))
_ORDER = np.where(_CU == _CW, 1, 2)  # ordered deals of the two values
_NAT_COMP = NATURAL[_CU, _CW]
_CK = VALUE_KEYS[_CU] + VALUE_KEYS[_CW]
_OWN = (_CU[:, None] == np.arange(VALUES)).astype(np.int64) + (_CW[:, None] == np.arange(VALUES))  # (55, 10)
_CLS = np.arange(CLASSES)
# the class after a third card z is shown, from class s: a natural stays, otherwise the highest card
_AFTER = np.where(_CLS[:, None] == NAT_CLASS, NAT_CLASS, np.maximum(_CLS[:, None], 2 + np.arange(VALUES)))


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


@dataclass(frozen=True)
class _Moves:
    """One seat's moves from a block of states (cards removed so far), for a play by class."""

    pairs: np.ndarray  # (m, 55): ordered deals of each two-card composition
    stand: np.ndarray  # (m, 55, 12): weight of standing (a natural, or no draw) from class s
    draw: np.ndarray  # (55, 12) bool: the play draws on this composition from class s
    thirds: np.ndarray  # (m, 55, 10): cards z left for the third card

    @staticmethod
    def of(counts: np.ndarray, play: np.ndarray, keys: np.ndarray, after: int) -> _Moves:
        rr = np.maximum(counts - _decode(keys), 0)
        pairs = rr[:, _CU] * (rr[:, _CW] - (_CU == _CW)) * _ORDER
        draw = (play[:, _CU, _CW] & ~_NAT_COMP).T.copy()  # (55, 12)
        draw[:, NAT_CLASS] = False
        unused = np.maximum(rr.sum(axis=1) - 2 - after, 0)  # the unused third slot: any card left at the end
        stand = (pairs * unused[:, None])[:, :, None] * ~draw
        return _Moves(pairs, stand, draw, rr[:, None, :] - _OWN)


def _stand_class() -> np.ndarray:
    """(55, 12): the class a standing seat leaves: a natural's, or the one it found."""
    return np.where(_NAT_COMP[:, None] | (_CLS == NAT_CLASS), NAT_CLASS, _CLS)


def _blocks(rows: int, width: int) -> list[slice]:
    """Blocks of states whose temporaries stay near 2**23 entries."""
    step = max(16, min(_CHUNK, (1 << 23) // max(width, 1)))
    return [slice(a, a + step) for a in range(0, rows, step)]


Mods = Sequence[int | None]  # a level's moduli: [None] when its counts fit int64 exactly, else the primes


def _mod(x: np.ndarray, p: int | None) -> np.ndarray:
    return x if p is None else x % p


def _level_mods(n_top: int, seats: int, primes: Sequence[int]) -> list[int | None]:
    """Exact int64 when ``seats`` seats' sequences fit (all terms are non-negative and add up to at most
    that many, so no partial sum overflows either); modulo ``primes`` otherwise."""
    return [None] if falling(n_top, 3 * seats) < _EXACT_BELOW else list(primes)


def _as(arrays: Sequence[np.ndarray], have: Mods, want: Mods) -> list[np.ndarray]:
    """Arrays under moduli ``have`` as arrays under ``want`` (exact counts reduced, or kept)."""
    if list(have) == list(want):
        return list(arrays)
    if list(have) != [None]:
        raise AssertionError("residues cannot be turned into other residues")
    return [_mod(arrays[0], p) for p in want]


def _gather(counts: np.ndarray, play: np.ndarray, keys: np.ndarray, states: np.ndarray,
            below: Sequence[np.ndarray], after: int, mods: Mods, starts: Sequence[int]) -> list[np.ndarray]:
    """(len(keys), 12, *T) per modulus: one seat from every start class, then ``below`` ((states, 12, *T),
    what the seats after it give from each state and class)."""
    trail = below[0].shape[2:]
    width = int(np.prod(trail, dtype=np.int64))
    plus2, _ = _reach(keys, counts)
    left = np.maximum(counts - _decode(plus2), 0)  # (plus2, 10): the third card
    nxt3 = _at(states, plus2[:, None] + VALUE_KEYS)
    on = np.zeros(CLASSES, dtype=bool)
    on[list(starts)] = True
    drawing = np.flatnonzero((play[:, _CU, _CW] & ~_NAT_COMP & on[:, None])[NAT_CLASS + 1:].any(axis=0))
    third = []  # (plus2, 12, *T): sum over z of the cards z left x below at (state + z, class moved by z)
    for b, p in zip(below, mods, strict=True):
        a = np.zeros((len(plus2), CLASSES, *trail), dtype=np.int64)
        if len(drawing):
            for part in _blocks(len(plus2), VALUES * CLASSES * width):
                g = b[nxt3[part][:, :, None], _AFTER.T[None]]  # (m, z, s, *T)
                a[part] = _mod(np.einsum("mz,mzs...->ms...", left[part], g), p)
        third.append(a)
    stand_cls = _stand_class()
    out = [np.zeros((len(keys), CLASSES, *trail), dtype=np.int64) for _ in mods]
    for part in _blocks(len(keys), 55 * CLASSES * width):
        kk = keys[part]
        mv = _Moves.of(counts, play, kk, after)
        at2 = _at(states, kk[:, None] + _CK)
        at2p = _at(plus2, kk[:, None] + _CK[drawing])
        for o, b, a, p in zip(out, below, third, mods, strict=True):
            ws = _mod(mv.stand, p) * on
            wd = _mod(mv.pairs[:, drawing, None], p) * (mv.draw[drawing] & on)
            o[part] = _mod(_mod(np.einsum("mcs,mcs...->ms...", ws, b[at2[:, :, None], stand_cls[None]]), p)
                           + _mod(np.einsum("mcs,mcs...->ms...", wd, a[at2p]), p), p)
    return out


def _place(counts: np.ndarray, play: np.ndarray, keys: np.ndarray, states: np.ndarray | None,
           below: Sequence[np.ndarray] | None, after: int, mods: Mods, starts: Sequence[int]) -> list[np.ndarray]:
    """(len(keys), 12 start, 12 class left, *X) per modulus: one seat from every start class, the class it
    leaves written out, times ``below`` ((states, *X), or None for one: no seat after)."""
    trail = () if below is None else below[0].shape[1:]
    width = int(np.prod(trail, dtype=np.int64))
    stand_cls = _stand_class()
    out = [np.zeros((len(keys), CLASSES, CLASSES, *trail), dtype=np.int64) for _ in mods]
    drawing = np.flatnonzero((play[:, _CU, _CW] & ~_NAT_COMP)[list(starts)][:, :].any(axis=0))
    for part in _blocks(len(keys), 55 * VALUES * width):
        kk = keys[part]
        mv = _Moves.of(counts, play, kk, after)
        weights3 = mv.pairs[:, drawing, None] * mv.thirds[:, drawing]  # (m, drawing, 10)
        if below is not None and states is not None:
            at2 = _at(states, kk[:, None] + _CK)
            at3 = _at(states, kk[:, None, None] + _CK[drawing, None] + VALUE_KEYS)
        for j, p in enumerate(mods):
            o = out[j]
            ws, w3 = _mod(mv.stand, p), _mod(weights3, p)
            q2 = q3 = None
            if below is not None:
                q2 = below[j][at2]
                q3 = below[j][at3] if len(drawing) else None
            for s in starts:
                stay = ws[:, :, s] * (stand_cls[:, s] == s)
                nat = ws[:, :, s] * ((stand_cls[:, s] == NAT_CLASS) & (s != NAT_CLASS))
                drawn = w3 * mv.draw[None, drawing, s, None]
                if q2 is None:
                    o[part, s, s] += stay.sum(axis=1)
                    o[part, s, NAT_CLASS] += nat.sum(axis=1)
                    by_z = drawn.sum(axis=1)  # (m, 10)
                else:
                    o[part, s, s] += _mod(np.einsum("mc,mc...->m...", stay, q2), p)
                    o[part, s, NAT_CLASS] += _mod(np.einsum("mc,mc...->m...", nat, q2), p)
                    by_z = np.zeros((len(kk), VALUES, *trail), dtype=np.int64) if q3 is None else \
                        _mod(np.einsum("mcz,mcz...->mz...", drawn, q3), p)
                for z in range(VALUES):
                    o[part, s, _AFTER[s, z]] += by_z[:, z]
            o[part] = _mod(o[part], p)
    return out


def _last(counts: np.ndarray, play: np.ndarray, keys: np.ndarray, starts: Sequence[int]) -> np.ndarray:
    """(len(keys), 12 start, 12 final) int64, exact: the last seat of a chain (``_place`` with nothing below).

    Sums over compositions are matrix products of the pairs' deals (at most n**2) with 0/1 or 0/1/2
    matrices, exact in float64 (every partial sum is an integer below 2**53); a third card's count
    multiplies them in int64."""
    draw = (play[:, _CU, _CW] & ~_NAT_COMP).T.copy()  # (55, 12)
    draw[:, NAT_CLASS] = False
    stand_cls = _stand_class()
    stay = (~draw & (stand_cls == _CLS)).astype(np.float64)
    nat = (~draw & (stand_cls == NAT_CLASS) & (_CLS != NAT_CLASS)).astype(np.float64)
    own = (draw[:, :, None] * _OWN[:, None, :]).reshape(55, -1).astype(np.float64)  # (55, 12 x 10)
    on = np.zeros(CLASSES, dtype=bool)
    on[list(starts)] = True
    onehot = (_AFTER[:, :, None] == _CLS).astype(np.int64) * on[:, None, None]  # (12 s, 10 z, 12 f)
    out = np.zeros((len(keys), CLASSES, CLASSES), dtype=np.int64)
    for part in _blocks(len(keys), 4 * CLASSES * VALUES):
        rr = np.maximum(counts - _decode(keys[part]), 0)
        pairs = (rr[:, _CU] * (rr[:, _CW] - (_CU == _CW)) * _ORDER).astype(np.float64)  # (m, 55)
        unused = np.maximum(rr.sum(axis=1) - 2, 0)[:, None]  # the unused third slot: any card left
        o = out[part]
        diag = (pairs @ stay).astype(np.int64) * unused * on
        o[:, _CLS, _CLS] += diag
        o[:, :, NAT_CLASS] += (pairs @ nat).astype(np.int64) * unused * on
        drawn = (pairs @ draw.astype(np.float64)).astype(np.int64)  # (m, 12)
        by_z = drawn[:, :, None] * rr[:, None, :] - (pairs @ own).astype(np.int64).reshape(-1, CLASSES, VALUES)
        o += np.einsum("msz,szf->msf", by_z, onehot)
    return out


def _chain(counts: np.ndarray, plays: Sequence[np.ndarray], keys: np.ndarray, primes: Sequence[int],
           starts: Sequence[int], n_top: int) -> tuple[Mods, list[np.ndarray]]:
    """(len(keys), 12 start, 12 final) per modulus: the card sequences of ``plays``' seats, in order, from
    every start class to every final class (``n_top`` bounds the cards left at ``keys``)."""
    after = 3 * (len(plays) - 1)
    mods = _level_mods(n_top, len(plays), primes)
    if len(plays) == 1:
        return mods, [_mod(last, p) for last in [_last(counts, plays[0], keys, starts)] for p in mods]
    _, states = _reach(keys, counts)
    have, below = _chain(counts, plays[1:], states, primes, range(CLASSES), n_top)
    return mods, _gather(counts, plays[0], keys, states, _as(below, have, mods), after, mods, starts)


def _reach(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted keys with two more cards than one of ``keys``, and with two or three more: a slight superset of
    where a seat leads, kept to multisets the shoe holds."""
    def grow(k: np.ndarray) -> np.ndarray:
        out = _grow(k)
        return out[(_decode(out) <= counts).all(axis=1)]

    plus2 = grow(grow(np.sort(keys)))
    return plus2, _merge(np.concatenate([plus2, grow(plus2)]))


def _at(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Row of each key in ``sorted_keys``; a key the shoe cannot hold only ever meets a weight of 0, so any row
    will do for it."""
    return np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)


def class_rows(shoe: Shoe, plays: Sequence[np.ndarray], k: int, primes: Sequence[int]) -> tuple[Mods, list[np.ndarray]]:
    """(5005, 12 sight c, 12 start sigma, 12 final f) per modulus: the other seats' sequences for seat ``k``
    (0-based) of ``plays`` (each (12, 10, 10) bool), for every multiset of its six slots."""
    counts = np.asarray(shoe.counts, dtype=np.int64)
    six = Multisets.of_size(6)
    held = (six.counts <= counts).all(axis=1)  # the other rows meet a weight of 0
    mods, rows = _rows(counts, six.keys[held], shoe.size - 6, plays, k, primes)
    full = [np.zeros((len(six), *r.shape[1:]), dtype=np.int64) for r in rows]
    for f, r in zip(full, rows, strict=True):
        f[held] = r
    return mods, full


def _rows(counts: np.ndarray, keys: np.ndarray, n_top: int, plays: Sequence[np.ndarray], k: int,
          primes: Sequence[int]) -> tuple[Mods, list[np.ndarray]]:
    before, later = list(plays[:k]), list(plays[k + 1:])
    mods = _level_mods(n_top, len(plays) - 1, primes)
    if not later:  # R = [f = sigma] x the seats before, by class
        have, rows = _chain(counts, before, keys, primes, [NONE_CLASS], n_top)
        return have, [r[:, NONE_CLASS, :, None, None] * np.eye(CLASSES, dtype=np.int64) for r in rows]
    if not before:
        have, rows = _chain(counts, later, keys, primes, range(CLASSES), n_top)
        return have, [_only(t) for t in rows]
    _, states = _reach(keys, counts)
    if len(before) == 1:  # the seat before first, the class it leaves written out
        have, tail = _chain(counts, later, states, primes, range(CLASSES), n_top)
        flat = [t.reshape(len(states), -1) for t in _as(tail, have, mods)]
        out = _place(counts, before[0], keys, states, flat, 3 * len(later), mods, [NONE_CLASS])
        return mods, [o[:, NONE_CLASS].reshape(len(keys), CLASSES, CLASSES, CLASSES) for o in out]
    if len(later) == 1:  # the seat after first, from every start; the seats before below it
        have, head = _chain(counts, before, states, primes, [NONE_CLASS], n_top)
        out = _place(counts, later[0], keys, states, [h[:, NONE_CLASS] for h in _as(head, have, mods)],
                     3 * len(before), mods, range(CLASSES))
        return mods, [o.transpose(0, 3, 1, 2).copy() for o in out]
    raise OptionError(f"third cards shown: the count is exact up to {MAX_PLAYERS} seats")


def _only(t: np.ndarray) -> np.ndarray:
    """(M, 12, 12, 12) with the sight 'nobody drew' carrying ``t`` (no seat before: that is all it sees)."""
    out = np.zeros((len(t), CLASSES, CLASSES, CLASSES), dtype=np.int64)
    out[:, NONE_CLASS] = t
    return out


def _rebuild(residues: Sequence[np.ndarray], primes: Sequence[int]) -> np.ndarray:
    """The integers in [0, product of ``primes``) with these residues (Garner's method), as Python ints."""
    x = residues[0].astype(object)
    mod = primes[0]
    for r, p in zip(residues[1:], primes[1:], strict=True):
        t = ((r.astype(object) - x) * pow(mod, -1, p)) % p
        x, mod = x + mod * t, mod * p
    return x


def seat_counts(shoe: Shoe, plays: Sequence[Late], k: int, tableau: tuple[str, ...], all_stand: str) -> np.ndarray:
    """(4 outcomes, 10, 10, 12 sights, 2 actions) object: seat ``k``'s (0-based) exact counts, the other seats
    playing ``plays`` (seat k's own entry is not used)."""
    if not 2 <= len(plays) <= MAX_PLAYERS:
        raise OptionError(f"third cards shown: the count is exact for 2 to {MAX_PLAYERS} seats")
    total = shoe.ordered(3 * len(plays) + 3)
    primes = moduli(total)
    have, exact_or_residues = class_rows(shoe, [p.draws for p in plays], k, primes)
    rows = _as(exact_or_residues, have, primes)
    six = Multisets.of_size(6)
    u = slot_orderings_by_third(tableau, all_stand)  # (4, 10 totals, 2, 715, 12 final, 10 your third)
    stood, drew = u[:, :, 0].sum(axis=-1), u[:, :, 1]
    index = _six_index()
    if max(int(stood.max()) * stood[0, 0].size, int(drew.max()) * drew[0, 0].size) * primes[0] >= 2**53:
        raise AssertionError("the tableau's orderings are too many for an exact float64 sum")
    # float64 is exact here: every term is a non-negative integer and every partial sum is below 2**53
    stood = stood.reshape(4, VALUES, -1).astype(np.float64)  # (4, 10 totals, 715 x 12 f)
    drew = drew.reshape(4, VALUES, -1).astype(np.float64)  # (4, 10 totals, 715 x 12 f x 10 x)
    residues = []
    for r, p in zip(rows, primes, strict=True):
        weights = np.array([int(w) % p for w in six.weights(shoe)], dtype=np.int64)
        wr = ((r * weights[:, None, None, None]) % p).astype(np.float64)  # (5005, c, sigma, f)
        g0 = np.ascontiguousarray(wr[:, _CLS, _CLS].transpose(0, 2, 1))  # (5005, f, c): standing, sigma = c
        g1 = np.ascontiguousarray(wr[:, _CLS[:, None], _AFTER].transpose(0, 3, 2, 1))  # (5005, f, x, c): drawing
        res = np.zeros((4, VALUES, VALUES, CLASSES, 2), dtype=np.int64)
        for a in range(VALUES):
            for b in range(VALUES):
                if shoe.counts[a] * (shoe.counts[b] - (a == b)) <= 0:
                    continue  # no such two cards: every count is 0
                t, at = (a + b) % 10, index[a, b]
                res[:, a, b, :, 0] = (stood[:, t] @ g0[at].reshape(-1, CLASSES)).astype(np.int64) % p
                res[:, a, b, :, 1] = (drew[:, t] @ g1[at].reshape(-1, CLASSES)).astype(np.int64) % p
        residues.append(res)
    out = _rebuild(residues, primes)
    for act in range(2):
        if sum(out[..., act].ravel()) != total:
            raise AssertionError("shown-seat counts do not add up to every deal")
    return out


@dataclass(frozen=True)
class Profile:
    """Every seat's play (the first seat only ever sees 'nobody drew') and exact EV per unit."""

    plays: tuple[Late, ...]
    evs: tuple[Fraction, ...]
    how: str

    @property
    def mean(self) -> Fraction:
        """The EV per seat, over the seats."""
        return sum(self.evs, Fraction(0)) / len(self.evs)


def _key(plays: Sequence[Late], k: int) -> bytes:
    return b"".join(p.draws.tobytes() for j, p in enumerate(plays) if j != k) + bytes([k])


def equilibria(shoe: Shoe, players: int, tableau: tuple[str, ...], all_stand: str, pay: Fraction,
               starts: Sequence[Strategy], passes: int = 8,
               say: Callable[[str], None] = lambda _: None) -> list[Profile]:
    """Equilibria reached from every seat playing each of ``starts`` blind, by best replies seat after seat.

    A pass replies for every seat in turn, each against the others' latest plays; a pass that changes
    nothing ends it, and then every seat's play is a best reply, at every sight, to the others'."""
    total = shoe.ordered(3 * players + 3)
    memo: dict[bytes, np.ndarray] = {}

    def counts(plays: list[Late], k: int) -> np.ndarray:
        key = _key(plays, k)
        if key not in memo:
            say(f"{len(memo) + 1} evaluations (seat {k + 1})")
            memo[key] = seat_counts(shoe, plays, k, tableau, all_stand)
        return memo[key]

    found: dict[bytes, Profile] = {}
    for start in starts:
        plays = [Late.blind(start)] * players
        for n in range(passes):
            changed = False
            for k in range(players):
                reply = late_reply(counts(plays, k), pay, f"seat {k + 1}'s best reply")
                if not np.array_equal(reply.draws[_sights(k)], plays[k].draws[_sights(k)]):
                    plays[k], changed = reply, True
            if not changed:
                key = b"".join(p.draws[_sights(k)].tobytes() for k, p in enumerate(plays))
                if key not in found:
                    evs = tuple(late_ev(counts(plays, k), plays[k], pay, total) for k in range(players))
                    how = f"every seat playing {start.name} is an equilibrium" if n == 0 else \
                        f"{n} pass(es) of best replies from {start.name}"
                    found[key] = Profile(tuple(plays), evs, how)
                break
    return sorted(found.values(), key=lambda p: -p.mean)


def _sights(k: int) -> slice:
    """The sights seat ``k`` (0-based) can have: the first seat only 'nobody drew'."""
    return slice(NONE_CLASS, NONE_CLASS + 1) if k == 0 else slice(NONE_CLASS, CLASSES)


def _sight_text(c: int) -> str:
    return "nobody before drew" if c == NONE_CLASS else f"the highest third card before is {c - 2}"


def sections(shoe: Shoe, players: int, tableau: tuple[str, ...], all_stand: str, pay: Fraction, hidden: Strategy,
             starts: Sequence[Strategy], say: Callable[[str], None] = lambda _: None) -> list[Section]:
    """The equilibria with third cards shown among ``players`` seats, the hidden game's play beside, and the
    later seats' play by sight."""
    found = equilibria(shoe, players, tableau, all_stand, pay, starts, say=say)
    total = shoe.ordered(3 * players + 3)
    blind = [Late.blind(hidden)] * players
    blind_evs = [late_ev(seat_counts(shoe, blind, k, tableau, all_stand), blind[k], pay, total)
                 for k in range(players)]
    money = tuple(Column(f"ev_{k + 1}", f"EV seat {k + 1}", "signed_percent", 4) for k in range(players))
    rows: list[tuple[Cell, ...]] = [
        ("equilibrium", _plays(p.plays[0].draws[NONE_CLASS]), *p.evs, p.mean, p.how) for p in found]
    rows.append(("third cards hidden (today's reading)", _plays(hidden.matrix), *blind_evs,
                 sum(blind_evs, Fraction(0)) / players, "every seat plays the hidden game's equilibrium blind"))
    by_sight: list[tuple[Cell, ...]] = []
    if found:
        plays = found[0].plays
        by_sight = [(_sight_text(c), *(_plays(p.draws[c]) for p in plays[1:])) for c in range(NONE_CLASS, CLASSES)]
    return [
        Section("turn_order", f"{players} seats, third cards shown as dealt",
                (Column("concept", "Concept"), Column("first", "The first seat plays"), *money,
                 Column("ev_mean", "EV per seat", "signed_percent", 4), Column("how", "How found")), tuple(rows),
                intro=("Each seat in turn decides on its two cards and what it saw: nobody before it drew, or the "
                       "highest third card shown so far (a natural ends the deal before anyone decides). A play "
                       "by sight does not use the removal of the lower cards shown. Exact over every ordered "
                       f"deal of {3 * players + 3} cards.",
                       "An equilibrium here: every seat's play is a best reply, at every sight, to the others'. "
                       "Searched from the stated starts by best replies seat after seat, each verified; the "
                       "search does not prove there are no others.")),
        Section("later_seats_play", "The later seats' play by what they saw (first equilibrium)",
                (Column("sight", "It saw"), *(Column(f"seat_{k + 1}", f"Seat {k + 1} plays") for k in
                                              range(1, players))), tuple(by_sight)),
    ]
