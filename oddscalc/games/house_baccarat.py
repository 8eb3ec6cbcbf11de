"""House baccarat: the rule sheet's main game, each player's own hand against the house.

Rules (``shared/rules/baccarat.es.txt``). Every player and the house get two cards. A player with
a natural (8 or 9) shows it and competes at once against the house's two cards; every other player
sits out the round (a push). Otherwise each player, seeing only their own two cards, draws one card
or stands. The house then draws by the sheet's table, indexed by the highest third card (by point
value: 10/J/Q/K count 0) among the players who drew; if nobody drew the house stands (literal
reading; the switch ``house_draws_when_all_stand = "on-0-5"`` makes it draw on 0-5). Higher total
wins 1:1, equal totals push. The table is data; so is the players' strategy, which may be fixed
(``draw_on``) or solved exactly.

Counting argument. With N players a round uses at most 3N + 3 cards: two per player, two for the
house, a third card per player and one for the house. Every round is counted as an ordered
sequence of 3N + 3 cards (for one player, 416P6 for 8 decks: the punto banco convention); cards the
round leaves undealt count once for every way they can lie. Seats are exchangeable, so "you" hold
the first seat; the others matter only through a class: one of them has a natural, or nobody else
drew, or the highest third card they drew is z. Then

    combinations(you, outcome) = sum over multisets m of your six slots (your two cards, the house's
    two, your third card, the house's third) of
        [value orderings of m with that outcome, for each class]   (shoe-free, small integers)
      x [falling product of m] x [card sequences of the others, by class, from the shoe minus m].

The first factor is enumerated once with numpy: the 10**4 orderings of the four slots after your
two cards, for every two-card total of yours, both actions and every class. The last is a
recursion over the other seats, level by level over every multiset of cards removed so far (a slight
superset of those reachable), where a seat's unused third card is moved to the end of the sequence
(exchangeability) so it costs a factor, not a branch. The recursion keeps its counts as int64 limbs
of a fixed width sized so no product overflows, and big integers meet small ones only in limb
products, so everything stays exact. The state space grows with every seat: a finite shoe is exact
up to ``FINITE_EXACT_MAX_PLAYERS`` players, the most for which every report stays within a minute
(benchmarks/bench_baccarat.py); beyond that the report is exact on an infinite shoe (cards with
replacement, 13 ** (3N + 3) sequences, where the other seats are independent) and the finite shoe
is estimated by simulation with a 95% confidence interval.

Strategy. For each of your two-card compositions the exact combinations of win, push, loss and
sitting out are known for both drawing and standing, so the best play is read off exactly: by
composition (``optimal``) and by total only (``optimal-total``). With other seats playing the same
strategy, the optimum is the fixed point of best responses: a strategy that is a best response when
every other seat plays it too (a symmetric equilibrium). Some common strategy may give every seat
more (the others' third cards make the house draw), but then each seat gains by deviating from it.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field, model_validator

from ..exact import Row, WagerResult, frac_str, percent_str
from ..tables import Strict, Table, TableModel, ratio_text
from . import Analysis, Decisions, OptionError, RunOptions, Section
from .shoe import (
    VALUE_KEYS,
    VALUES,
    Multisets,
    Shoe,
    Tableau,
    Totals,
    WinPay,
    falling,
    from_limbs,
    limb_bits,
    multiset_keys,
    tableau_array,
    tableau_markdown,
    to_limbs,
    value_grid,
)

SHEET_TABLEAU = (
    "DDDDDDDDDD",  # 0
    "DDDDDDDDDD",  # 1
    "DDDDDDDDDD",  # 2
    "DDDDDDDDSD",  # 3: 0-7 and 9
    "DDDDDDDDSS",  # 4: 0-7
    "SSSSDDDDSS",  # 5: 4-7
    "SSSSSSDDSS",  # 6: 6-7
    "SSSSSSSSSS",  # 7: never
)
FINITE_EXACT_MAX_PLAYERS = 5  # measured: see benchmarks/bench_baccarat.py
SIMULATION_ROUNDS = 2_000_000
SIMULATION_SEED = 20240917
_STRATEGY = re.compile(r"^(optimal|optimal-total|draw-([0-7])-([0-7]))$")


def _check_strategy(name: str) -> str:
    m = _STRATEGY.match(name)
    if not m or (m.group(2) is not None and int(m.group(2)) > int(m.group(3))):
        raise ValueError(f"unknown strategy {name!r}; use optimal, optimal-total or draw-A-B (e.g. draw-0-5)")
    return name


class HouseRules(Strict):
    decks: int = Field(8, ge=1)
    players: int = Field(1, ge=1, le=7)
    strategy: str | None = None  # optimal | optimal-total | draw-A-B; default optimal
    draw_on: Totals | None = None  # fixes every player's play by two-card total
    house_tableau: Tableau = SHEET_TABLEAU
    house_draws_when_all_stand: Literal["never", "on-0-5"] = "never"

    @model_validator(mode="after")
    def _one_strategy(self) -> HouseRules:
        if self.strategy is not None:
            _check_strategy(self.strategy)
            if self.draw_on is not None:
                raise ValueError("give either strategy or draw_on, not both")
        return self


class HousePays(Strict):
    main: WinPay


class HouseBaccaratTable(TableModel):
    rules: HouseRules
    pays: HousePays

    GAME: ClassVar[str] = "house-baccarat"


# --- strategies ------------------------------------------------------------------------------

_NATURAL = np.add.outer(np.arange(VALUES), np.arange(VALUES)) % 10 >= 8
_TOTAL = np.add.outer(np.arange(VALUES), np.arange(VALUES)) % 10


@dataclass(frozen=True)
class Strategy:
    """Draw or stand for every two-card composition (by point values; naturals never draw)."""

    name: str
    draws: tuple[tuple[bool, ...], ...]  # [first card][second card], symmetric

    @staticmethod
    def of(name: str, matrix: np.ndarray) -> Strategy:
        m = np.asarray(matrix, dtype=bool) & ~_NATURAL
        if not np.array_equal(m, m.T):
            raise ValueError("a strategy cannot depend on the order of the two cards")
        return Strategy(name, tuple(tuple(bool(x) for x in row) for row in m))

    @staticmethod
    def by_totals(name: str, totals: Sequence[int]) -> Strategy:
        return Strategy.of(name, np.isin(_TOTAL, list(totals)))

    @property
    def matrix(self) -> np.ndarray:
        return np.array(self.draws, dtype=bool)

    def totals(self) -> list[int] | None:
        """The totals it draws on, when it depends on the total only."""
        m = self.matrix
        out = []
        for t in range(8):
            cells = {bool(m[u, w]) for u in range(VALUES) for w in range(VALUES) if _TOTAL[u, w] == t}
            if len(cells) > 1:
                return None
            if cells == {True}:
                out.append(t)
        return out


# --- stage 1: your six slots, shoe-free -------------------------------------------------------

WIN, PUSH, LOSS, SIT_OUT = range(4)
NAT_CLASS, NONE_CLASS = 0, 1  # others' class: 0 some other natural, 1 nobody else drew, 2 + z highest third z
CLASSES = 12


@cache
def _slot_orderings(tableau: tuple[str, ...], all_stand: str) -> np.ndarray:
    """(4 outcomes, 10 your totals, 2 actions, 715 four-card multisets, 12 classes) int64.

    Value orderings of the house's two cards, your third slot and the house's third slot with each
    multiset that give each outcome, for your two-card total, your action (0 stand, 1 draw) and
    the others' class.
    """
    t = np.arange(VALUES).reshape(VALUES, 1, 1, 1, 1, 1, 1)
    act = np.arange(2).reshape(1, 2, 1, 1, 1, 1, 1)
    cls = np.arange(CLASSES).reshape(1, 1, CLASSES, 1, 1, 1, 1)
    h1, h2, x, y = (g.reshape((1, 1, 1) + g.shape) for g in value_grid(4))
    h = (h1 + h2) % 10
    you_natural = t >= 8
    you_draw = (act == 1) & ~you_natural
    others_max = np.where(cls >= 2, cls - 2, -1)  # -1: no other seat drew
    highest = np.where(you_draw, np.maximum(x, others_max), others_max)
    stand_mask = np.arange(VALUES) <= 5 if all_stand == "on-0-5" else np.zeros(VALUES, dtype=bool)
    house_draws = np.where(highest >= 0, tableau_array(tableau)[h, np.maximum(highest, 0)], stand_mask[h])
    yours = np.where(you_draw, (t + x) % 10, t)
    house = np.where(house_draws & ~you_natural, (h + y) % 10, h)
    sign = np.sign(yours - house)
    outcome = np.where(sign > 0, WIN, np.where(sign < 0, LOSS, PUSH))
    outcome = np.where(~you_natural & (cls == NAT_CLASS), SIT_OUT, outcome)
    four = Multisets.of_size(4)
    a4 = four.index(multiset_keys((h1, h2, x, y)))
    shape = np.broadcast_shapes(outcome.shape, a4.shape)
    lead = (((t * 2 + act) * CLASSES + cls) * len(four) + a4) * 4
    cells = np.broadcast_to(lead + outcome, shape).ravel()
    counts = np.bincount(cells, minlength=VALUES * 2 * CLASSES * len(four) * 4)
    return counts.reshape(VALUES, 2, CLASSES, len(four), 4).transpose(4, 0, 1, 3, 2).copy()


@cache
def _six_index() -> np.ndarray:
    """(10, 10, 715): multiset index of (your two cards + the four other slots)."""
    p1, p2 = value_grid(2)
    base = multiset_keys((p1, p2))[..., None] + Multisets.of_size(4).keys
    return Multisets.of_size(6).index(base)


# --- the other seats ---------------------------------------------------------------------------

NAT, STAND, DRAW = range(3)


def _compositions(draws: np.ndarray) -> list[tuple[int, int, int]]:
    out = []
    for u in range(VALUES):
        for w in range(u, VALUES):
            kind = NAT if _NATURAL[u, w] else DRAW if draws[u, w] else STAND
            out.append((u, w, kind))
    return out


_AT_MOST = np.tril(np.ones((VALUES, VALUES), dtype=np.int64))  # [z, m]: m <= z
_BELOW = np.triu(np.ones((VALUES, VALUES), dtype=np.int64), 1)  # [z, m]: z < m
_CHUNK = 16384  # states per block: bounds the memory of the (states, 10, 12, limbs) temporaries
_WORKERS = min(8, os.cpu_count() or 1)


def _decode(keys: np.ndarray) -> np.ndarray:
    """Packed multiset keys back to (M, 10) count vectors."""
    return (keys[:, None] >> (5 * np.arange(VALUES, dtype=np.int64))) & 31


def _merge(runs: np.ndarray) -> np.ndarray:
    """Sorted distinct values of a flat array made of sorted runs."""
    runs.sort(kind="stable")  # timsort: linear-ish on a few sorted runs, unlike np.unique's hashing
    keep = np.empty(len(runs), dtype=bool)
    keep[:1] = True
    np.not_equal(runs[1:], runs[:-1], out=keep[1:])
    return runs[keep]


def _grow(keys: np.ndarray) -> np.ndarray:
    """Sorted keys of every multiset with one more card than one of the sorted ``keys``."""
    return _merge((VALUE_KEYS[:, None] + keys[None, :]).ravel())


def _in_blocks(rows: int, work: Callable[[slice], None]) -> None:
    """Run ``work`` on blocks of rows, on every core: numpy releases the GIL in these kernels and each
    block writes only its own rows, so the integer results are the same in any order."""
    blocks = [slice(start, start + _CHUNK) for start in range(0, rows, _CHUNK)]
    if len(blocks) < 2 or _WORKERS < 2:
        for b in blocks:
            work(b)
        return
    with ThreadPoolExecutor(_WORKERS) as pool:
        for _ in pool.map(work, blocks):
            pass


def _third_card(limbs: np.ndarray, states: np.ndarray, keys: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """(M, 12, L): a seat that has its two cards (shoe minus ``keys``) draws a third card z, then the
    seats below deal: sum over z of (cards z left) x the class below, moved by z."""
    out = np.zeros((len(keys), CLASSES, limbs.shape[-1]), dtype=np.int64)

    def work(part: slice) -> None:
        kk = keys[part]
        left = np.maximum(counts - _decode(kk), 0)
        g = limbs[np.searchsorted(states, kk[:, None] + VALUE_KEYS)] * left[:, :, None, None]  # (m, z, class, L)
        high = g[:, :, 2:]
        o = out[part]
        o[:, NAT_CLASS] = g[:, :, NAT_CLASS].sum(axis=1)
        # z turns "nobody drew" and every highest card m <= z into z; a higher m stays
        o[:, 2:] = g[:, :, NONE_CLASS] + np.einsum("mzkl,zk->mzl", high, _AT_MOST)
        o[:, 2:] += np.einsum("mzkl,zk->mkl", high, _BELOW)

    _in_blocks(len(keys), work)
    return out


def _carry(parts: np.ndarray, bits: int) -> None:
    """In place: carry non-negative limb sums (last axis, each below 2**62) into limbs below 2**bits.
    The caller sized the last axis for the value, so nothing is left over."""
    mask = (1 << bits) - 1
    for j in range(parts.shape[-1] - 1):
        parts[..., j + 1] += parts[..., j] >> bits
        parts[..., j] &= mask


def _width(value: int, bits: int) -> int:
    """Limbs of ``bits`` bits that hold ``value``."""
    return max(1, -(-value.bit_length() // bits))


def others_finite(counts: Sequence[int], seats: int, draws: np.ndarray, removed: np.ndarray) -> np.ndarray:
    """(M, 12): card sequences of ``seats`` other players (3 slots each) by class, per removed multiset.

    Row i counts ordered sequences of 3 * seats cards from the shoe minus ``removed[i]``, weighted by
    card multiplicities, split by the class they put the table in. Rows sum to (n) P (3 * seats).
    Returns int64 when that total fits, else Python ints (object).
    """
    c = np.asarray(counts, dtype=np.int64)
    removed = np.asarray(removed, dtype=np.int64)
    n_top = max(int(c.sum()) - int(removed.sum(axis=1).min(initial=0)), 1)
    # one limb width for every level. A seat's weights (ordered two-card deals times the third card or
    # the unused slot) add up to at most n**3, and each weight meets at most 11 limbs of one output
    # entry (the classes a third card folds together), so an entry stays below 12 n**3 2**bits < 2**62.
    # The deepest states have the fewest cards left.
    bits = 62 - (12 * n_top**3).bit_length()
    if bits < 8:
        raise ValueError("shoe too large for the exact finite-shoe recursion")
    limbs = _others_limbs(c, seats, draws, removed @ VALUE_KEYS, bits, n_top)
    return from_limbs(limbs, bits, falling(n_top, 3 * seats) < 2**63)


def _others_limbs(c: np.ndarray, seats: int, draws: np.ndarray, keys: np.ndarray, bits: int,
                  n_top: int) -> np.ndarray:
    """:func:`others_finite` for packed multiset keys, as base-2**bits limbs (M, 12, L), all int64."""
    rows = len(keys)
    if seats == 0:
        none = np.zeros((rows, CLASSES, 1), dtype=np.int64)
        none[:, NONE_CLASS] = 1
        return none
    comps = _compositions(draws)
    cu = np.array([u for u, _, _ in comps])
    cw = np.array([w for _, w, _ in comps])
    kind = np.array([k for _, _, k in comps])
    order = np.where(cu == cw, 1, 2)  # ordered deals of the two values
    natural = _NATURAL.astype(np.int64)
    drawing = (draws & ~_NATURAL).astype(np.int64)

    def pairs(rr: np.ndarray, a: np.ndarray) -> np.ndarray:
        """Ordered two-card deals (u, w) with a[u, w] set: sum of r_u (r_w - [u = w])."""
        out: np.ndarray = (rr * (rr @ a - np.diag(a))).sum(axis=1)
        return out

    if seats == 1:
        out1 = np.zeros((rows, CLASSES, _width(n_top**3, bits)), dtype=np.int64)
        standing = 1 - natural - drawing

        def work1(part: slice) -> None:
            rr = np.maximum(c - _decode(keys[part]), 0)
            nn = rr.sum(axis=1)
            o = out1[part, :, 0]
            o[:, NAT_CLASS] = pairs(rr, natural) * (nn - 2)
            o[:, NONE_CLASS] = pairs(rr, standing) * (nn - 2)
            # the third card is any card left but the seat's own two
            own = 2 * rr * (rr @ drawing - np.diag(drawing))
            o[:, 2:] = pairs(rr, drawing)[:, None] * rr - own
            _carry(out1[part], bits)

        _in_blocks(rows, work1)
        return out1

    # every multiset with two or three more cards: a slight superset of the states the seat can reach,
    # grown one card at a time because that is far cheaper than enumerating (state, composition) pairs
    plus2 = _grow(_grow(np.sort(keys)))
    states = _merge(np.concatenate([plus2, _grow(plus2)]))
    below = _others_limbs(c, seats - 1, draws, states, bits, n_top)  # (states, 12, L)
    stand = np.flatnonzero(kind == STAND)
    drawn = np.flatnonzero(kind == DRAW)
    after_third = _third_card(below, states, plus2, c)  # (plus2, 12, L)
    ck = VALUE_KEYS[cu] + VALUE_KEYS[cw]
    width = max(below.shape[-1] + 1, _width(falling(n_top, 3 * seats), bits))
    out_l = np.zeros((rows, CLASSES, width), dtype=np.int64)
    used = below.shape[-1]

    def work(part: slice) -> None:
        kk = keys[part]
        rr = np.maximum(c - _decode(kk), 0)
        nn = rr.sum(axis=1)
        m = rr[:, cu] * (rr[:, cw] - (cu == cw)) * order  # (m, compositions): ordered deals of each
        o = out_l[part]
        if len(stand):
            # the seat's unused third card moves to the end of the sequence: a factor, not a branch
            ws = m[:, stand] * (nn - 2 - 3 * (seats - 1))[:, None]
            o[..., :used] += np.einsum("mc,mckl->mkl", ws, below[np.searchsorted(states, kk[:, None] + ck[stand])])
        if len(drawn):
            idx = np.searchsorted(plus2, kk[:, None] + ck[drawn])
            o[..., :used] += np.einsum("mc,mckl->mkl", m[:, drawn], after_third[idx])
        _carry(o, bits)
        # a seat with a natural ends the deal: the other 3 * seats - 2 slots are any cards left
        nat = np.zeros((len(kk), width), dtype=np.int64)
        nat[:, 0] = pairs(rr, natural)
        _carry(nat, bits)
        for i in range(3 * seats - 2):
            nat *= np.maximum(nn - 2 - i, 0)[:, None]
            _carry(nat, bits)
        o[:, NAT_CLASS] += nat
        _carry(o, bits)

    _in_blocks(rows, work)
    return out_l


def others_infinite(reduced: Sequence[int], seats: int, draws: np.ndarray) -> list[int]:
    """(12,) like :func:`others_finite` for cards drawn with replacement (seats independent)."""
    total = sum(reduced)
    q = [0] * CLASSES
    for u in range(VALUES):
        for w in range(VALUES):
            pair = reduced[u] * reduced[w]
            if _NATURAL[u, w]:
                q[NAT_CLASS] += pair * total
            elif draws[u, w]:
                for z in range(VALUES):
                    q[2 + z] += pair * reduced[z]
            else:
                q[NONE_CLASS] += pair * total
    out = [0] * CLASSES
    below = q[NONE_CLASS] ** seats  # no natural, nobody drew
    out[NONE_CLASS] = below
    running = q[NONE_CLASS]
    for z in range(VALUES):
        running += q[2 + z]
        at_most = running**seats
        out[2 + z] = at_most - below
        below = at_most
    out[NAT_CLASS] = total ** (3 * seats) - below
    return out


# --- stage 2: your seat ----------------------------------------------------------------------


@dataclass(frozen=True)
class SeatCounts:
    """Exact combinations for your seat: [outcome, first card, second card, action]."""

    counts: np.ndarray  # object (4, 10, 10, 2)
    total: int
    others: Strategy | None  # what the other seats play (None: no other seat)


def seat_counts(shoe: Shoe, players: int, others: Strategy, rules: HouseRules, infinite: bool) -> SeatCounts:
    """Your seat's exact outcome counts for both actions of every hand, the others playing ``others``."""
    six = Multisets.of_size(6)
    seats = players - 1
    draws = others.matrix
    weight = six.weights(shoe, infinite)
    if infinite:
        red, size = shoe.reduced()
        cls = np.array(others_infinite(red, seats, draws), dtype=object)
        v = weight[:, None] * cls[None, :]
        total = size ** (3 * players + 3)
    else:
        cls_rows = others_finite(shoe.counts, seats, draws, six.counts)
        v = weight[:, None] * cls_rows.astype(object)
        total = shoe.ordered(3 * players + 3)
    u = _slot_orderings(rules.house_tableau, rules.house_draws_when_all_stand)  # (4, 10, 2, 715, 12)
    four = u.shape[3]
    bits = limb_bits(four * CLASSES, int(u.max()))
    limbs = to_limbs(v, bits)  # (5005, 12, L)
    gathered = limbs[_six_index().reshape(-1)]  # (100, 715, 12, L)
    gathered = gathered.reshape(VALUES * VALUES, four * CLASSES, -1)
    per_total = u[:, _TOTAL.reshape(-1)]  # (4, 100, 2, 715, 12)
    lhs = per_total.transpose(1, 0, 2, 3, 4).reshape(VALUES * VALUES, 4 * 2, four * CLASSES)
    sums = np.matmul(lhs, gathered)  # (100, 8, L)
    exact = from_limbs(sums, bits, False).reshape(VALUES, VALUES, 4, 2).transpose(2, 0, 1, 3)
    for a in range(2):
        if sum(exact[:, :, :, a].ravel()) != total:
            raise AssertionError("seat counts do not add up to the total")
    return SeatCounts(exact, total, others if seats else None)


# --- strategy from exact counts ------------------------------------------------------------------


def _ev_num(sc: SeatCounts, pay: Fraction) -> np.ndarray:
    """(10, 10, 2) object: pay x wins - losses, in combinations."""
    ev: np.ndarray = sc.counts[WIN] * pay - sc.counts[LOSS]
    return ev


def best_by_composition(sc: SeatCounts, pay: Fraction, name: str = "optimal") -> Strategy:
    ev = _ev_num(sc, pay)
    m = np.zeros((VALUES, VALUES), dtype=bool)
    for u in range(VALUES):
        for w in range(u, VALUES):
            if not _NATURAL[u, w]:
                d = ev[u, w, 1] + ev[w, u, 1] - ev[u, w, 0] - ev[w, u, 0]
                m[u, w] = m[w, u] = d > 0
    return Strategy.of(name, m)


def best_by_total(sc: SeatCounts, pay: Fraction, name: str = "optimal-total") -> Strategy:
    ev = _ev_num(sc, pay)
    totals = [t for t in range(8) if sum(ev[_TOTAL == t, 1]) > sum(ev[_TOTAL == t, 0])]
    return Strategy.by_totals(name, totals)


def seat_ev(sc: SeatCounts, you: Strategy, pay: Fraction) -> Fraction:
    ev = _ev_num(sc, pay)
    m = you.matrix
    return Fraction(sum(ev[u, w, int(m[u, w])] for u in range(VALUES) for w in range(VALUES)), sc.total)


@dataclass(frozen=True)
class Solved:
    strategy: Strategy
    counts: SeatCounts  # the others play ``strategy`` too
    iterations: int


def solve(shoe: Shoe, players: int, rules: HouseRules, pay: Fraction, kind: str, infinite: bool,
          fixed: Strategy | None = None) -> Solved:
    """Everyone plays one strategy: ``fixed``, or the best response to itself (``kind``)."""
    if fixed is not None:
        return Solved(fixed, seat_counts(shoe, players, fixed, rules, infinite), 0)
    respond = best_by_composition if kind == "optimal" else best_by_total
    if players == 1:  # nobody else at the table: one evaluation gives the best play
        sc = seat_counts(shoe, 1, Strategy.by_totals("draw-0-5", range(6)), rules, infinite)
        return Solved(respond(sc, pay, kind), sc, 1)
    # start from the optimum with one seat fewer, cheap next to this one and usually already the answer
    current = solve(shoe, players - 1, rules, pay, kind, infinite).strategy
    seen: list[tuple[tuple[bool, ...], ...]] = []
    for i in range(1, 20):
        sc = seat_counts(shoe, players, current, rules, infinite)
        nxt = respond(sc, pay, kind)
        if nxt.draws == current.draws:
            return Solved(nxt, sc, i)
        if nxt.draws in seen:
            raise RuntimeError("best responses cycle: no strategy is a best response to itself")
        seen.append(current.draws)
        current = nxt
    raise RuntimeError("best responses did not settle")


# --- settling the wager ----------------------------------------------------------------------------


def main_wager(sc: SeatCounts, you: Strategy, pay: Fraction, strategy_text: str, notes: Sequence[str]) -> WagerResult:
    m = you.matrix
    agg = np.zeros((3, 4), dtype=object)  # [natural, stood, drew] x outcome
    for u in range(VALUES):
        for w in range(VALUES):
            row = 0 if _NATURAL[u, w] else 2 if m[u, w] else 1
            agg[row] += sc.counts[:, u, w, int(m[u, w])]
    p = ratio_text(pay)
    rows = [
        Row("natural_win", "Your natural beats the house's two cards", p, pay, int(agg[0, WIN])),
        Row("natural_push", "Your natural ties the house's two cards", "push", Fraction(0), int(agg[0, PUSH])),
        Row("natural_loss", "Your natural loses to a higher house natural", "", Fraction(-1), int(agg[0, LOSS])),
    ]
    sit = int(agg[1, SIT_OUT] + agg[2, SIT_OUT])
    if sit:
        rows.append(Row("sit_out", "Another player shows a natural: you sit out", "push", Fraction(0), sit))
    for r, word in ((1, "stand"), (2, "draw")):
        verb = "You stand" if r == 1 else "You draw"
        for o, ev_id, text, units, shown in ((WIN, "win", "and win", pay, p), (PUSH, "push", "and tie", Fraction(0), "push"),
                                             (LOSS, "loss", "and lose", Fraction(-1), "")):
            if agg[r, o]:
                rows.append(Row(f"{word}_{ev_id}", f"{verb} {text}", shown, units, int(agg[r, o])))
    return WagerResult("main", "Your hand against the house", strategy_text, sc.total, tuple(rows), "unit staked",
                       notes=tuple(notes))


# --- simulation (finite shoe beyond the exact limit) ------------------------------------------------


@dataclass(frozen=True)
class Simulation:
    rounds: int
    seed: int
    mean: float  # plain estimate of the finite-shoe EV
    half_width: float  # 95% half width of the plain estimate
    paired: float  # exact infinite-shoe EV + simulated mean of (finite - infinite) on common cards
    paired_half_width: float


def simulate(shoe: Shoe, players: int, strategy: Strategy, rules: HouseRules, pay: Fraction,
             exact_infinite: Fraction, rounds: int | None = None, seed: int = SIMULATION_SEED,
             chunk: int = 250_000) -> Simulation:
    """Deal ``rounds`` rounds from a freshly shuffled finite shoe, and the same uniforms from an infinite one.

    The difference of the two payoffs on common random numbers has a far smaller variance than either,
    so the paired estimate (exact infinite-shoe EV plus the mean difference) is the sharper one.
    """
    rounds = SIMULATION_ROUNDS if rounds is None else rounds
    rng = np.random.default_rng(seed)
    counts = np.array(shoe.counts, dtype=np.int64)
    red, red_size = shoe.reduced()
    red_cum = np.cumsum(red)
    slots = 3 * players + 3
    draws = strategy.matrix
    tab = tableau_array(rules.house_tableau)
    stand_mask = np.arange(VALUES) <= 5 if rules.house_draws_when_all_stand == "on-0-5" else np.zeros(VALUES, bool)
    w = float(pay)
    s1 = s2 = d1 = d2 = 0.0
    done = 0
    while done < rounds:
        n = min(chunk, rounds - done)
        u = rng.random((n, slots))
        left = np.tile(counts, (n, 1))
        finite = np.empty((n, slots), dtype=np.int64)
        for i in range(slots):
            pick = np.floor(u[:, i] * (shoe.size - i)).astype(np.int64)
            v = (np.cumsum(left, axis=1) <= pick[:, None]).sum(axis=1)
            finite[:, i] = v
            left[np.arange(n), v] -= 1
        infinite = (red_cum[None, None, :] <= np.floor(u * red_size)[:, :, None]).sum(axis=2)
        pf = _play(finite, players, draws, tab, stand_mask, w)
        pi = _play(infinite, players, draws, tab, stand_mask, w)
        s1 += pf.sum()
        s2 += (pf * pf).sum()
        diff = pf - pi
        d1 += diff.sum()
        d2 += (diff * diff).sum()
        done += n
    mean = s1 / rounds
    var = max(s2 / rounds - mean * mean, 0.0)
    dm = d1 / rounds
    dvar = max(d2 / rounds - dm * dm, 0.0)
    z = 1.959963984540054
    return Simulation(rounds, seed, mean, z * math.sqrt(var / rounds), float(exact_infinite) + dm,
                      z * math.sqrt(dvar / rounds))


def _play(v: np.ndarray, players: int, draws: np.ndarray, tab: np.ndarray, stand_mask: np.ndarray,
          pay: float) -> np.ndarray:
    """Your payoff in each dealt round: slots 0-1 yours, 2-3 the house's, 4 your third, 5 the house's
    third, then three per other seat."""
    t = (v[:, 0] + v[:, 1]) % 10
    h = (v[:, 2] + v[:, 3]) % 10
    you_nat = t >= 8
    other_nat = np.zeros(len(v), dtype=bool)
    other_max = np.full(len(v), -1)
    for j in range(players - 1):
        a, b, z = v[:, 6 + 3 * j], v[:, 7 + 3 * j], v[:, 8 + 3 * j]
        nat = (a + b) % 10 >= 8
        other_nat |= nat
        other_max = np.where(~nat & draws[a, b], np.maximum(other_max, z), other_max)
    anyone = you_nat | other_nat
    you_draw = ~anyone & draws[v[:, 0], v[:, 1]]
    highest = np.where(you_draw, np.maximum(other_max, v[:, 4]), other_max)
    house_draws = ~anyone & np.where(highest >= 0, tab[h, np.maximum(highest, 0)], stand_mask[h])
    yours = np.where(you_draw, (t + v[:, 4]) % 10, t)
    house = np.where(house_draws, (h + v[:, 5]) % 10, h)
    sign = np.sign(yours - house)
    out = np.where(sign > 0, pay, np.where(sign < 0, -1.0, 0.0))
    return np.where(~you_nat & other_nat, 0.0, out)


# --- the report --------------------------------------------------------------------------------------

_CARD = ["0 (10/J/Q/K)", "1 (A)", "2", "3", "4", "5", "6", "7", "8", "9"]


def _strategy_text(s: Strategy) -> str:
    totals = s.totals()
    if totals is not None:
        return f"{s.name}: draw on {', '.join(map(str, totals)) or 'no total'}, stand otherwise"
    return f"{s.name}: by two-card composition (see the appendix)"


def _hand_ev(sc: SeatCounts, pay: Fraction, cells: Sequence[tuple[int, int]]) -> tuple[Fraction, Fraction]:
    ev = _ev_num(sc, pay)
    weight = sum(sum(sc.counts[:, u, w, 0]) for u, w in cells)
    return (Fraction(sum(ev[u, w, 1] for u, w in cells), weight),
            Fraction(sum(ev[u, w, 0] for u, w in cells), weight))


def _pct(x: Fraction) -> str:
    return ("+" if x > 0 else "") + percent_str(x, 4)


def strategy_sections(sc: SeatCounts, pay: Fraction, played: Strategy, label: str, others: bool) -> list[Section]:
    comp = best_by_composition(sc, pay)
    tot = best_by_total(sc, pay)
    tot_rows = []
    md = [label, "", "| Your total | Best play | EV if you draw | EV if you stand | Draw − stand |", "|---:|---|---:|---:|---:|"]
    for t in range(8):
        hands = [(u, w) for u in range(VALUES) for w in range(VALUES) if _TOTAL[u, w] == t]
        ev_d, ev_s = _hand_ev(sc, pay, hands)
        best = "draw" if t in (tot.totals() or []) else "stand"
        tot_rows.append({"total": t, "best": best, "ev_draw": ev_d, "ev_stand": ev_s})
        md.append(f"| {t} | {best} | {_pct(ev_d)} | {_pct(ev_s)} | {_pct(ev_d - ev_s)} |")
    md += ["", "EV is per unit staked, given that hand" + (" (counting the rounds in which you sit out)." if others else "."),
           (f"Best play by total: draw on {', '.join(map(str, tot.totals() or [])) or 'no total'}; "
           f"EV {_pct(seat_ev(sc, tot, pay))} per unit staked.")]
    by_total = Section("Best play by two-card total", "\n".join(md), tot_rows)

    cm = comp.matrix
    grid = ["| First card \\ second | " + " | ".join(str(v) for v in range(VALUES)) + " |", "|---|" + "---|" * VALUES]
    for u in range(VALUES):
        cells = ["nat" if _NATURAL[u, w] else ("**D**" if cm[u, w] else "S") for w in range(VALUES)]
        grid.append(f"| {_CARD[u]} | " + " | ".join(cells) + " |")
    comp_rows = []
    differ = []
    tot_draws = set(tot.totals() or [])
    for u in range(VALUES):
        for w in range(u, VALUES):
            if _NATURAL[u, w]:
                continue
            ev_d, ev_s = _hand_ev(sc, pay, [(u, w), (w, u)] if u != w else [(u, w)])
            best = "draw" if cm[u, w] else "stand"
            by_tot = "draw" if _TOTAL[u, w] in tot_draws else "stand"
            comp_rows.append({"cards": [u, w], "total": int(_TOTAL[u, w]), "best": best, "ev_draw": ev_d,
                              "ev_stand": ev_s, "best_by_total": by_tot})
            if best != by_tot:
                differ.append(f"| {u}+{w} | {_TOTAL[u, w]} | {best} | {by_tot} | {_pct(ev_d)} | {_pct(ev_s)} |")
    md2 = [label, "", "D = draw, S = stand, nat = natural (shown at once).", "", *grid, "",
           f"Best play by composition: EV {_pct(seat_ev(sc, comp, pay))} per unit staked."]
    if differ:
        md2 += ["", "Compositions where the best play differs from the best play for their total:", "",
                "| Cards | Total | Best for these cards | Best for the total | EV if you draw | EV if you stand |",
                "|---|---:|---|---|---:|---:|", *differ]
    else:
        md2 += ["", "The best play depends on the total only: no composition differs from its total."]
    by_comp = Section("Best play by two-card composition", "\n".join(md2),
                      {"compositions": comp_rows, "differ": [r for r in comp_rows if r["best"] != r["best_by_total"]]})

    compare = [("optimal (by composition)", comp), ("optimal-total (by total)", tot),
               ("draw-0-5", Strategy.by_totals("draw-0-5", range(6))), ("never draw", Strategy.by_totals("stand", [])),
               ("draw-0-2", Strategy.by_totals("draw-0-2", range(3)))]
    if all(played.draws != s.draws for _, s in compare):
        compare.append((f"this report's ({played.name})", played))
    md3 = [label, "", "| Your play | EV per unit staked | House edge |", "|---|---:|---:|"]
    data3 = []
    for text, s in compare:
        ev = seat_ev(sc, s, pay)
        md3.append(f"| {text} | {_pct(ev)} | {_pct(-ev)} |")
        data3.append({"strategy": text, "expected_value": ev})
    compared = Section("Your play compared", "\n".join(md3), data3)
    return [by_total, by_comp, compared]


class HouseBaccarat:
    key = "house-baccarat"
    title = "House baccarat (rule sheet)"
    default_table = "seed"
    options: frozenset[str] = frozenset({"decks", "players", "strategy"})

    @property
    def table_model(self) -> type[TableModel]:
        return HouseBaccaratTable

    def analyze(self, table: Table, options: RunOptions) -> Analysis:
        model = table.model
        if not isinstance(model, HouseBaccaratTable):
            raise OptionError(f"{table.path}: not a house-baccarat table")
        rules = model.rules
        decks = options.decks if options.decks is not None else rules.decks
        players = options.players if options.players is not None else rules.players
        if decks < 1:
            raise OptionError("--decks must be at least 1")
        if not 1 <= players <= 7:
            raise OptionError("--players must be 1 to 7")
        fixed: Strategy | None = None
        kind = "optimal"
        if options.strategy is not None:
            try:
                name = _check_strategy(options.strategy)
            except ValueError as e:
                raise OptionError(str(e)) from None
        elif rules.draw_on is not None:
            name = "table"
            fixed = Strategy.by_totals("draw_on (table)", rules.draw_on)
        else:
            name = rules.strategy or "optimal"
        if name in ("optimal", "optimal-total"):
            kind = name
        elif fixed is None:
            lo, hi = (int(x) for x in name.split("-")[1:])
            fixed = Strategy.by_totals(name, range(lo, hi + 1))
        shoe = Shoe.of_decks(decks)
        pay = model.pays.main.win
        exact_finite = players <= FINITE_EXACT_MAX_PLAYERS
        infinite = not exact_finite
        if exact_finite and players > 1 and 12 * shoe.size**3 >= 2**54:
            raise OptionError(f"--decks {decks} is too large for the exact multi-player recursion (at most 2,000 decks)")

        optimum = solve(shoe, players, rules, pay, "optimal", infinite)
        if fixed is None and (kind == "optimal" or optimum.strategy.totals() is not None):
            # an optimum that depends on the total only is also the best strategy by total
            played = Solved(optimum.strategy if kind == "optimal" else Strategy(kind, optimum.strategy.draws),
                            optimum.counts, optimum.iterations)
        else:
            played = solve(shoe, players, rules, pay, kind, infinite, fixed)
        ev_opt = seat_ev(optimum.counts, optimum.strategy, pay)
        ev_played = seat_ev(played.counts, played.strategy, pay)

        sim: Simulation | None = None
        if infinite and not options.brief:  # verify, solve and compare need only the exact figures
            sim = simulate(shoe, players, played.strategy, rules, pay, ev_played)

        shoe_text = (f"finite shoe of {shoe.label}, exact" if exact_finite else
                     f"INFINITE shoe (cards drawn with replacement), exact; the finite shoe of {shoe.label} "
                     f"is estimated by simulation (exact finite-shoe enumeration stops at "
                     f"{FINITE_EXACT_MAX_PLAYERS} players)")
        when_none = ("the house stands (literal reading of the sheet)" if rules.house_draws_when_all_stand == "never"
                     else "the house draws on 0-5, as banca does in punto banco (a reading: the sheet says it stands)")
        reading = ("the house stands when no player drew (literal reading of the sheet)"
                   if rules.house_draws_when_all_stand == "never" else
                   "the house draws on 0-5 when every player stood (as in punto banco)")
        headline = [_favours(ev_opt, players, exact_finite)]
        if played.strategy.draws != optimum.strategy.draws:
            line = (f"With the play of this report ({_strategy_text(played.strategy)}) a player's EV is "
                    f"{_pct(ev_played)} per unit staked (exact {frac_str(ev_played)}).")
            if ev_played > ev_opt:
                reply = best_by_composition(played.counts, pay, "best reply")
                line += (" That is more than under optimal play only because every seat plays it (their third "
                         "cards make the house draw more): against such seats your own best play "
                         f"({_strategy_text(reply).removeprefix('best reply: ')}) earns "
                         f"{_pct(seat_ev(played.counts, reply, pay))}.")
            headline.append(line)
        if sim is not None:
            headline.append(
                f"On the finite shoe of {shoe.label}, estimated by simulation ({sim.rounds:,} rounds, seed {sim.seed}): "
                f"EV {_pct(Fraction(sim.paired))} ± {percent_str(Fraction(sim.paired_half_width), 4)} "
                f"(95% confidence; paired with the exact infinite-shoe figure), "
                f"plain estimate {_pct(Fraction(sim.mean))} ± {percent_str(Fraction(sim.half_width), 4)}.")
        headline.append(f"Reading: {reading}; {players} player{'s' if players > 1 else ''} at the table"
                        + ("" if players == 1 else ", every seat playing the same strategy") + f"; {shoe_text}.")

        notes = [f"Shoe: {shoe_text}."]
        if players > 1:
            notes.append("The other seats play the same strategy; their naturals make you sit out and their third "
                         "cards steer the house's draw.")
        if fixed is None and players > 1:
            notes.append(f"Strategy: fixed point of best responses, reached after {played.iterations} evaluation(s).")
        strategy_text = _strategy_text(played.strategy)
        wager = main_wager(played.counts, played.strategy, pay, strategy_text, notes)
        extras: dict[str, Fraction | int] = {"expected_value_optimal_play": ev_opt}
        wager = WagerResult(wager.wager, wager.title, wager.strategy, wager.total_combinations, wager.rows,
                            wager.unit, extras=extras, notes=wager.notes)

        label = (("Exact on a " if exact_finite else "Exact on an ") + (f"finite shoe of {shoe.label}" if exact_finite
                 else "infinite shoe") + (f", {players} players; the other seats play this report's strategy."
                                          if players > 1 else ", one player."))
        sections = strategy_sections(played.counts, pay, played.strategy, label, players > 1)
        sections.append(Section("House drawing rules", "\n".join([
            ("The house stands on 7 or more. Below that its draw depends on the highest third card dealt to "
            "the players who drew (by point value: 10/J/Q/K count 0):"), "",
            tableau_markdown(rules.house_tableau, "house", "highest third card"), "",
            f"When no player drew: {when_none}.",
        ]), {"house_tableau": list(rules.house_tableau),
             "house_draws_when_all_stand": rules.house_draws_when_all_stand}))
        if sim is not None:
            sections.append(Section("Finite shoe by simulation", "\n".join([
                (f"Exact finite-shoe enumeration is limited to {FINITE_EXACT_MAX_PLAYERS} players (each extra seat "
                "multiplies the card multisets to track; see benchmarks/bench_baccarat.py). Every figure above is "
                "exact for an infinite shoe."), "",
                f"- Rounds simulated from a shuffled {shoe.label}: {sim.rounds:,} (seed {sim.seed})",
                f"- Plain estimate: {_pct(Fraction(sim.mean))} ± {percent_str(Fraction(sim.half_width), 4)} (95%)",
                (f"- Paired estimate (exact infinite-shoe EV {_pct(ev_played)} plus the mean finite − infinite "
                f"difference on common cards): {_pct(Fraction(sim.paired))} ± "
                f"{percent_str(Fraction(sim.paired_half_width), 4)} (95%)"),
            ]), {"rounds": sim.rounds, "seed": sim.seed, "mean": sim.mean, "half_width_95": sim.half_width,
                 "paired_mean": sim.paired, "paired_half_width_95": sim.paired_half_width,
                 "exact_infinite_shoe": ev_played}))

        resolved: dict[str, Any] = {
            "decks": decks,
            "players": players,
            "strategy": played.strategy.name,
            "shoe": "finite (exact)" if exact_finite else "infinite (exact); finite by simulation",
            "highest_third_card": "by point value (10/J/Q/K = 0)",
            "house_draws_when_all_stand": rules.house_draws_when_all_stand,
            "house_tableau": list(rules.house_tableau),
        }
        if exact_finite:
            convention = (
                f"one combination is one ordered sequence of the {3 * players + 3} cards a round with {players} "
                f"player{'s' if players > 1 else ''} can use at most (two per player, two for the house, a third "
                f"card per player and one for the house), from a shoe of {shoe.label}: "
                f"{shoe.size}P{3 * players + 3} = {wager.total_combinations:,}; cards a round leaves undealt "
                "count once for every way they can lie"
                + (" (for one player this is the punto banco convention)" if players == 1 else ""))
        else:
            red, size = shoe.reduced()
            convention = (
                f"INFINITE SHOE: one combination is one ordered sequence of {3 * players + 3} cards drawn with "
                f"replacement from {size} equally likely cards ({red[0]} of value 0, one of each other value), "
                f"{size}^{3 * players + 3} = {wager.total_combinations:,}")
        assumptions = list(model.assumptions)
        return Analysis(self.key, table, resolved, convention, (wager,), headline=tuple(headline),
                        sections=tuple(sections), assumptions=tuple(assumptions),
                        decisions=(_decisions(played.counts, played.strategy),),
                        published_applies=options.decks is None and options.players is None
                        and options.strategy is None)


_COMPOSITIONS = [(u, w) for u in range(VALUES) for w in range(u, VALUES) if not _NATURAL[u, w]]


def _decisions(sc: SeatCounts, played: Strategy) -> Decisions:
    """Draw or stand for each two-card composition, with the combinations each hand stands for."""
    m = played.matrix
    weights = [sum(int(x) for x in sc.counts[:, u, w, 0]) + (sum(int(x) for x in sc.counts[:, w, u, 0]) if u != w else 0)
               for u, w in _COMPOSITIONS]
    return Decisions("draw", "draw (else stand), per two-card composition by point values",
                     np.array([bool(m[u, w]) for u, w in _COMPOSITIONS]), np.array(weights, dtype=object),
                     lambda i: f"{_COMPOSITIONS[i][0]}+{_COMPOSITIONS[i][1]} (total {sum(_COMPOSITIONS[i]) % 10})")


def _favours(ev: Fraction, players: int, exact_finite: bool) -> str:
    who = "the PLAYER" if ev > 0 else "the HOUSE" if ev < 0 else "neither side"
    shoe = "" if exact_finite else " (infinite shoe)"
    return (f"This game favours {who}: under optimal play a player's expected value is {_pct(ev)} per unit staked"
            f"{shoe}, a house edge of {_pct(-ev)} (exact EV {frac_str(ev)}).")


GAME = HouseBaccarat()
