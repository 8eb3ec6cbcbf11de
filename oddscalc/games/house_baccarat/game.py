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
two cards, for every two-card total of yours, both actions and every class. The last is the
other-seat recursion of ``seats`` (by rank in ``seat_levels`` from two other seats). Its state
space grows with every seat; the finite shoe is exact up to ``FINITE_EXACT_MAX_PLAYERS`` players,
now every table size (a full table's report takes about 25 s and 4.5 GB, benchmarks/bench_baccarat.py).
Beyond that limit, were it lowered, the report is exact on an infinite shoe (cards with replacement,
13 ** (3N + 3) sequences, where the other seats are independent), and ``oddscalc simulate``
estimates the finite shoe. The counts carry no pays and depend on the
others' strategy only, so they are stored per (shoe, seats, house rules, others' strategy).

Strategy. For each of your two-card compositions the exact combinations of win, push, loss and
sitting out are known for both drawing and standing, so the best play is read off exactly: by
composition (``optimal``) and by total only (``optimal-total``). With other seats playing the same
strategy, the optimum is the fixed point of best responses: a strategy that is a best response when
every other seat plays it too (a symmetric equilibrium). Some common strategy may give every seat
more (the others' third cards make the house draw), but then each seat gains by deviating from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field, model_validator

from oddscalc.cache import Store
from oddscalc.exact import frac_str, percent_str
from oddscalc.files import is_path
from oddscalc.games.house_baccarat.others import CLASSES, NAT_CLASS, NATURAL, others_finite, others_infinite
from oddscalc.games.shoe import (
    VALUES,
    Multisets,
    Shoe,
    Tableau,
    Totals,
    WinPay,
    from_limbs,
    limb_bits,
    multiset_keys,
    tableau_array,
    tableau_section,
    to_limbs,
    value_grid,
)
from oddscalc.keys import DEFAULT_TABLES
from oddscalc.protocol import OptionError, Rules, count_key
from oddscalc.results import Analysis, Cell, Chart, Column, Decisions, Row, RunOptions, Section, WagerResult
from oddscalc.tables import Strict, Table, TableModel, ratio_text

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
FINITE_EXACT_MAX_PLAYERS = 7  # measured: see benchmarks/bench_baccarat.py
_STRATEGY = re.compile(r"^(optimal|optimal-total|draw-([0-7])-([0-7]))$")


def _check_strategy(name: str) -> str:
    m = _STRATEGY.match(name)
    if not m or (m.group(2) is not None and int(m.group(2)) > int(m.group(3))):
        raise ValueError(f"unknown strategy {name!r}; use optimal, optimal-total, draw-A-B (e.g. draw-0-5) or a "
                         "strategy card file (a path)")
    return name


class TableRules(Strict):
    """The ``[rules]`` of a house baccarat table."""

    decks: int = Field(8, ge=1)
    players: int = Field(1, ge=1, le=7)
    strategy: str | None = None  # optimal | optimal-total | draw-A-B; default optimal
    draw_on: Totals | None = None  # fixes every player's play by two-card total
    house_tableau: Tableau = SHEET_TABLEAU
    house_draws_when_all_stand: Literal["never", "on-0-5"] = "never"
    third_cards: Literal["hidden", "shown"] = "hidden"  # shown: face up in seat order (turn_order, shown_seats)

    @model_validator(mode="after")
    def _one_strategy(self) -> TableRules:
        if self.strategy is not None:
            _check_strategy(self.strategy)
            if self.draw_on is not None:
                raise ValueError("give either strategy or draw_on, not both")
        return self


class HousePays(Strict):
    """The ``[pays]`` of a house baccarat table."""

    main: WinPay


class HouseBaccaratTable(TableModel):
    """A house baccarat table file."""

    rules: TableRules
    pays: HousePays

    GAME: ClassVar[str] = "house-baccarat"


# --- strategies ------------------------------------------------------------------------------

_TOTAL = np.add.outer(np.arange(VALUES), np.arange(VALUES)) % 10


@dataclass(frozen=True)
class Strategy:
    """Draw or stand for every two-card composition (by point values; naturals never draw)."""

    name: str
    draws: tuple[tuple[bool, ...], ...]  # [first card][second card], symmetric

    @staticmethod
    def of(name: str, matrix: np.ndarray) -> Strategy:
        """From a (10, 10) draw matrix by the two cards' point values."""
        m = np.asarray(matrix, dtype=bool) & ~NATURAL
        if not np.array_equal(m, m.T):
            raise ValueError("a strategy cannot depend on the order of the two cards")
        return Strategy(name, tuple(tuple(bool(x) for x in row) for row in m))

    @staticmethod
    def by_totals(name: str, totals: Sequence[int]) -> Strategy:
        """Draw on these two-card totals, stand on the others."""
        return Strategy.of(name, np.isin(_TOTAL, list(totals)))

    @property
    def matrix(self) -> np.ndarray:
        """(10, 10) bool: draws, by the two cards' point values."""
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


@cache
def _slot_orderings(tableau: tuple[str, ...], all_stand: str) -> np.ndarray:
    """(4 outcomes, 10 your totals, 2 actions, 715 four-card multisets, 12 classes) int64.

    Value orderings of the house's two cards, your third slot and the house's third slot with each
    multiset that give each outcome, for your two-card total, your action (0 stand, 1 draw) and
    the others' class. The house's two cards count in either order, so each unordered pair of values
    is played once with weight 2 (1 for equal values).
    """
    return _orderings(tableau, all_stand, False)


@cache
def slot_orderings_by_third(tableau: tuple[str, ...], all_stand: str) -> np.ndarray:
    """``_slot_orderings`` split by the value in your third slot (a last axis of 10), for a seat whose third
    card the others see."""
    return _orderings(tableau, all_stand, True)


def _orderings(tableau: tuple[str, ...], all_stand: str, by_third: bool) -> np.ndarray:
    first, second = np.triu_indices(VALUES)
    twice = np.where(first == second, 1, 2)
    t = np.arange(VALUES).reshape(VALUES, 1, 1, 1, 1, 1)
    act = np.arange(2).reshape(1, 2, 1, 1, 1, 1)
    cls = np.arange(CLASSES).reshape(1, 1, CLASSES, 1, 1, 1)
    pair = np.arange(len(first)).reshape(1, 1, 1, -1, 1, 1)
    x = np.arange(VALUES).reshape(1, 1, 1, 1, VALUES, 1)
    y = np.arange(VALUES).reshape(1, 1, 1, 1, 1, VALUES)
    h1, h2 = first[pair], second[pair]
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
    thirds = VALUES if by_third else 1
    lead = ((((t * 2 + act) * CLASSES + cls) * len(four) + a4) * 4 + outcome) * thirds + (x if by_third else 0)
    cells = np.broadcast_to(lead, shape).ravel()
    ways = np.broadcast_to(twice[pair], shape).ravel()
    counts = np.bincount(cells, weights=ways, minlength=VALUES * 2 * CLASSES * len(four) * 4 * thirds)
    out = counts.astype(np.int64).reshape(VALUES, 2, CLASSES, len(four), 4, thirds).transpose(4, 0, 1, 3, 2, 5)
    return out.copy() if by_third else out[..., 0].copy()


@cache
def _six_index() -> np.ndarray:
    """(10, 10, 715): multiset index of (your two cards + the four other slots)."""
    p1, p2 = value_grid(2)
    base = multiset_keys((p1, p2))[..., None] + Multisets.of_size(4).keys
    return Multisets.of_size(6).index(base)


# --- stage 2: your seat ----------------------------------------------------------------------


@dataclass(frozen=True)
class SeatCounts:
    """Exact combinations for your seat: [outcome, first card, second card, action]."""

    counts: np.ndarray  # object (4, 10, 10, 2)
    total: int
    others: Strategy | None  # what the other seats play (None: no other seat)
    # pay x wins - losses by pay, read by every section of a report: an object-array product each time otherwise
    _evs: dict[Fraction, np.ndarray] = field(default_factory=dict, compare=False, repr=False)


def round_total(shoe: Shoe, players: int, infinite: bool) -> int:
    """Every combination of a round: the 3 x players + 3 cards it can use, ordered (with replacement on an
    infinite shoe)."""
    return shoe.reduced()[1] ** (3 * players + 3) if infinite else shoe.ordered(3 * players + 3)


def class_rows(shoe: Shoe, players: int, others: Strategy, infinite: bool) -> np.ndarray:
    """(5005, 12) object: card sequences of the other seats by class, for each multiset of your six slots
    (on an infinite shoe the same row for every multiset)."""
    six = Multisets.of_size(6)
    seats = players - 1
    if infinite:
        red, _ = shoe.reduced()
        cls = np.array(others_infinite(red, seats, others.matrix), dtype=object)
        return np.broadcast_to(cls, (len(six), CLASSES))
    return others_finite(shoe.counts, seats, others.matrix, six.counts).astype(object)


def seat_counts(shoe: Shoe, players: int, others: Strategy, tableau: tuple[str, ...], all_stand: str,
                infinite: bool, rows: np.ndarray | None = None) -> SeatCounts:
    """Your seat's exact outcome counts for both actions of every hand, the others playing ``others``
    (their ``class_rows``, when the caller has them)."""
    six = Multisets.of_size(6)
    weight = six.weights(shoe, infinite)
    cls_rows = class_rows(shoe, players, others, infinite) if rows is None else rows
    v = weight[:, None] * cls_rows
    total = round_total(shoe, players, infinite)
    u = _slot_orderings(tableau, all_stand)  # (4, 10, 2, 715, 12)
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
    return SeatCounts(exact, total, others if players > 1 else None)


# --- strategy from exact counts ------------------------------------------------------------------


def _ev_num(sc: SeatCounts, pay: Fraction) -> np.ndarray:
    """(10, 10, 2) object: pay x wins - losses, in combinations (kept with ``sc``: not to be written to)."""
    ev = sc._evs.get(pay)
    if ev is None:
        ev = sc._evs[pay] = sc.counts[WIN] * pay - sc.counts[LOSS]
    return ev


def best_by_composition(sc: SeatCounts, pay: Fraction, name: str = "optimal") -> Strategy:
    """The best play for each two-card composition against ``sc``'s other seats."""
    ev = _ev_num(sc, pay)
    m = np.zeros((VALUES, VALUES), dtype=bool)
    for u in range(VALUES):
        for w in range(u, VALUES):
            if not NATURAL[u, w]:
                d = ev[u, w, 1] + ev[w, u, 1] - ev[u, w, 0] - ev[w, u, 0]
                m[u, w] = m[w, u] = d > 0
    return Strategy.of(name, m)


def best_by_total(sc: SeatCounts, pay: Fraction, name: str = "optimal-total") -> Strategy:
    """The best play by two-card total only."""
    ev = _ev_num(sc, pay)
    totals = [t for t in range(8) if sum(ev[_TOTAL == t, 1]) > sum(ev[_TOTAL == t, 0])]
    return Strategy.by_totals(name, totals)


def seat_ev(sc: SeatCounts, you: Strategy, pay: Fraction) -> Fraction:
    """Your EV per unit staked playing ``you`` against ``sc``'s other seats."""
    ev = _ev_num(sc, pay)
    m = you.matrix
    return Fraction(sum(ev[u, w, int(m[u, w])] for u in range(VALUES) for w in range(VALUES)), sc.total)


@dataclass(frozen=True)
class Solved:
    """A strategy every seat plays, with your seat's counts against it."""

    strategy: Strategy
    counts: SeatCounts  # the others play ``strategy`` too
    iterations: int


def solve(seats: SeatCounter, players: int, pay: Fraction, kind: str, fixed: Strategy | None = None) -> Solved:
    """Everyone plays one strategy: ``fixed``, or the best response to itself (``kind``)."""
    if fixed is not None:
        return Solved(fixed, seats.seat(players, fixed), 0)
    respond = best_by_composition if kind == "optimal" else best_by_total
    if players == 1:  # nobody else at the table: one evaluation gives the best play
        sc = seats.seat(1, None)
        return Solved(respond(sc, pay, kind), sc, 1)
    # start from the optimum with one seat fewer, cheap next to this one and usually already the answer
    current = solve(seats, players - 1, pay, kind).strategy
    seen: list[tuple[tuple[bool, ...], ...]] = []
    for i in range(1, 20):
        sc = seats.seat(players, current)
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
    """Your hand against the house, per unit staked."""
    m = you.matrix
    agg = np.zeros((3, 4), dtype=object)  # [natural, stood, drew] x outcome
    for u in range(VALUES):
        for w in range(VALUES):
            row = 0 if NATURAL[u, w] else 2 if m[u, w] else 1
            agg[row] += sc.counts[:, u, w, int(m[u, w])]
    p = ratio_text(pay)
    rows = [
        Row("win_natural", "Your natural beats the house's two cards", p, pay, int(agg[0, WIN]),
            pay_ref="main.win", pay_coef=Fraction(1)),
        Row("push_natural", "Your natural ties the house's two cards", "push", Fraction(0), int(agg[0, PUSH])),
        Row("lose_natural", "Your natural loses to a higher house natural", "", Fraction(-1), int(agg[0, LOSS])),
    ]
    sit = int(agg[1, SIT_OUT] + agg[2, SIT_OUT])
    if sit:
        rows.append(Row("push_sit_out", "Another player shows a natural: you sit out", "push", Fraction(0), sit))
    for r, word in ((1, "stand"), (2, "draw")):
        verb = "You stand" if r == 1 else "You draw"
        for o, ev_id, text, units, shown in ((WIN, "win", "and win", pay, p),
                                             (PUSH, "push", "and tie", Fraction(0), "push"),
                                             (LOSS, "lose", "and lose", Fraction(-1), "")):
            if agg[r, o]:
                ref, coef = ("main.win", Fraction(1)) if o == WIN else ("", Fraction(0))
                rows.append(Row(f"{ev_id}_{word}", f"{verb} {text}", shown, units, int(agg[r, o]), pay_ref=ref,
                                pay_coef=coef))
    return WagerResult("main", "Your hand against the house", strategy_text, sc.total, tuple(rows), "unit staked",
                       notes=tuple(notes))


# --- the counts: your seat against every strategy the others may play ---------------------------


def _code(s: Strategy) -> str:
    """A strategy as the store keys it: D or S for every (first, second) cell."""
    return "".join("D" if x else "S" for row in s.draws for x in row)


@dataclass
class SeatCounter:
    """Your seat's counts for a shoe and house rules, for any number of players and others' strategy.

    Each (players, others' strategy) is counted once through the store and kept here for the life
    of this object, since the equilibrium search asks for the same few again.
    """

    rules: HouseBaccaratRules
    store: Store
    game: HouseBaccarat
    kept: dict[tuple[int, Any], SeatCounts] = field(default_factory=dict)
    rows_kept: dict[tuple[int, Any], np.ndarray] = field(default_factory=dict)

    def rows(self, players: int, others: Strategy) -> np.ndarray:
        """The other seats' ``class_rows`` when they play ``others``, through the store, and kept for this
        object's life: a search that bounds with them then asks for the seat counts of the same strategy."""
        kept = (players, others.draws)
        if kept not in self.rows_kept:
            r = self.rules
            key = count_key(self.game, r, players=players, others=_code(others), part="class rows")
            stored = self.store.get(key, lambda: {"rows": class_rows(r.shoe, players, others, r.infinite)})
            self.rows_kept[kept] = np.asarray(stored["rows"], dtype=object)
        return self.rows_kept[kept]

    def seat(self, players: int, others: Strategy | None) -> SeatCounts:
        """Your seat's counts with ``players`` at the table, the others playing ``others``."""
        r = self.rules
        if players == 1:
            others = None  # nobody else: the others' strategy cannot matter
        draws = others.draws if others is not None else None
        if (players, draws) in self.kept:
            return self.kept[(players, draws)]
        played = others if others is not None else Strategy.by_totals("stand", [])
        key = count_key(self.game, r, players=players, others=_code(played) if others is not None else None)

        def build() -> dict[str, np.ndarray]:
            rows = self.rows_kept.get((players, played.draws))  # a search's, when it has them
            sc = seat_counts(r.shoe, players, played, r.house_tableau, r.all_stand, r.infinite, rows)
            return {"counts": sc.counts}

        counts = np.asarray(self.store.get(key, build)["counts"], dtype=object)
        shoe = r.shoe
        total = round_total(shoe, players, r.infinite)
        for a in range(2):
            if sum(counts[:, :, :, a].ravel()) != total:
                raise AssertionError("seat counts do not add up to the total")
        sc = SeatCounts(counts, total, others)
        self.kept[(players, draws)] = sc
        return sc


# --- the report --------------------------------------------------------------------------------------

_CARD = ["0 (10/J/Q/K)", "1 (A)", "2", "3", "4", "5", "6", "7", "8", "9"]


def _strategy_text(s: Strategy) -> str:
    totals = s.totals()
    if totals is not None:
        return f"{s.name}: draw on {', '.join(map(str, totals)) or 'no total'}, stand otherwise"
    return f"{s.name}: by two-card composition (see the appendix)"


def _hand_ev(sc: SeatCounts, pay: Fraction, cells: Sequence[tuple[int, int]]) -> tuple[Fraction, Fraction] | None:
    """EV if these hands draw and if they stand, per unit staked on them; None when the shoe deals none of them
    (a small shoe may not hold two cards of a value)."""
    ev = _ev_num(sc, pay)
    weight = sum(sum(sc.counts[:, u, w, 0]) for u, w in cells)
    if not weight:
        return None
    return (Fraction(sum(ev[u, w, 1] for u, w in cells), weight),
            Fraction(sum(ev[u, w, 0] for u, w in cells), weight))


def _pct(x: Fraction) -> str:
    return ("+" if x > 0 else "") + percent_str(x, 4)


def strategy_sections(sc: SeatCounts, pay: Fraction, played: Strategy, label: str, others: bool) -> list[Section]:
    """Best play by total and by composition, where they differ, and named plays compared."""
    comp = best_by_composition(sc, pay)
    tot = best_by_total(sc, pay)
    tot_draws = set(tot.totals() or [])
    rows: list[tuple[Cell, ...]] = []
    for t in range(8):
        evs = _hand_ev(sc, pay, [(u, w) for u in range(VALUES) for w in range(VALUES) if _TOTAL[u, w] == t])
        if evs is None:
            rows.append((t, "never dealt", None, None, None))
            continue
        ev_d, ev_s = evs
        rows.append((t, "draw" if t in tot_draws else "stand", ev_d, ev_s, ev_d - ev_s))
    by_total = Section(
        "best_by_total", "Best play by two-card total",
        (Column("total", "Your total", "int"), Column("best", "Best play"),
         Column("ev_draw", "EV if you draw", "signed_percent"), Column("ev_stand", "EV if you stand", "signed_percent"),
         Column("draw_minus_stand", "Draw - stand", "signed_percent")),
        tuple(rows), intro=(label,),
        notes=("EV is per unit staked, given that hand"
               + (" (counting the rounds in which you sit out)." if others else "."),
               f"Best play by total: draw on {', '.join(map(str, sorted(tot_draws))) or 'no total'}; "
               f"EV {_pct(seat_ev(sc, tot, pay))} per unit staked."))

    cm = comp.matrix
    grid: list[tuple[Cell, ...]] = [
        (_CARD[u], *("nat" if NATURAL[u, w] else "D" if cm[u, w] else "S" for w in range(VALUES)))
        for u in range(VALUES)]
    by_comp = Section(
        "best_by_composition", "Best play by two-card composition",
        (Column("first", "First card \\ second"), *(Column(f"second_{w}", str(w)) for w in range(VALUES))),
        tuple(grid), intro=(label, "D = draw, S = stand, nat = natural (shown at once)."),
        notes=(f"Best play by composition: EV {_pct(seat_ev(sc, comp, pay))} per unit staked.",))

    differ: list[tuple[Cell, ...]] = []
    for u, w in COMPOSITIONS:
        evs = _hand_ev(sc, pay, [(u, w), (w, u)] if u != w else [(u, w)])
        best = "draw" if cm[u, w] else "stand"
        by_tot = "draw" if _TOTAL[u, w] in tot_draws else "stand"
        if best != by_tot and evs is not None:  # a composition never dealt has no play to differ
            differ.append((f"{u}+{w}", int(_TOTAL[u, w]), best, by_tot, *evs))
    differs = Section(
        "composition_differs", "Compositions played differently from their total",
        (Column("cards", "Cards"), Column("total", "Total", "int"), Column("best", "Best for these cards"),
         Column("best_by_total", "Best for the total"), Column("ev_draw", "EV if you draw", "signed_percent"),
         Column("ev_stand", "EV if you stand", "signed_percent")),
        tuple(differ), intro=(label,),
        notes=() if differ else ("The best play depends on the total only: no composition differs from its total.",))

    compare = [("optimal (by composition)", comp), ("optimal-total (by total)", tot),
               ("draw-0-5", Strategy.by_totals("draw-0-5", range(6))), ("never draw", Strategy.by_totals("stand", [])),
               ("draw-0-2", Strategy.by_totals("draw-0-2", range(3)))]
    if all(played.draws != s.draws for _, s in compare):
        compare.append((f"this report's ({played.name})", played))
    compared = Section(
        "play_compared", "Your play compared",
        (Column("strategy", "Your play"), Column("expected_value", "EV per unit staked", "signed_percent"),
         Column("house_edge", "House edge", "signed_percent")),
        tuple((text, seat_ev(sc, s, pay), -seat_ev(sc, s, pay)) for text, s in compare), intro=(label,))
    return [by_total, by_comp, differs, compared]


COMPOSITIONS = tuple((u, w) for u in range(VALUES) for w in range(u, VALUES) if not NATURAL[u, w])


def _decisions(sc: SeatCounts, played: Strategy) -> Decisions:
    """Draw or stand for each two-card composition, with the combinations each hand stands for."""
    m = played.matrix
    weights = [sum(int(x) for x in sc.counts[:, u, w, 0])
               + (sum(int(x) for x in sc.counts[:, w, u, 0]) if u != w else 0) for u, w in COMPOSITIONS]
    return Decisions("draw", "draw (else stand), per two-card composition by point values",
                     np.array([bool(m[u, w]) for u, w in COMPOSITIONS]), np.array(weights, dtype=object),
                     lambda i: f"{COMPOSITIONS[i][0]}+{COMPOSITIONS[i][1]} (total {sum(COMPOSITIONS[i]) % 10})",
                     keys=COMPOSITIONS)


def _favours(ev: Fraction, exact_finite: bool, players: int) -> str:
    who = "the PLAYER" if ev > 0 else "the HOUSE" if ev < 0 else "neither side"
    shoe = "" if exact_finite else " (infinite shoe)"
    # with several seats "optimal" has no single meaning: the seats play a game, and this is one equilibrium of it
    concept = "optimal play" if players == 1 else \
        "the symmetric equilibrium reached by best replies (every seat plays it; it need not be the only one)"
    return (f"This game favours {who}: under {concept} a player's expected value is {_pct(ev)} per unit staked"
            f"{shoe}, a house edge of {_pct(-ev)} (exact EV {frac_str(ev)}).")


# --- the game -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HouseBaccaratRules(Rules):
    """A house baccarat table resolved for a run."""

    decks: int
    players: int
    house_tableau: tuple[str, ...]
    all_stand: str  # house_draws_when_all_stand
    kind: str  # "optimal", "optimal-total" or "fixed"
    fixed: Strategy | None
    infinite: bool  # beyond FINITE_EXACT_MAX_PLAYERS: exact on an infinite shoe
    pay: Fraction
    third_cards: str = "hidden"  # "shown": later seats see earlier third cards (games.turn_order, shown_seats)

    @property
    def shoe(self) -> Shoe:
        """The shoe of ``decks`` standard decks."""
        return Shoe.of_decks(self.decks)

    def count_key(self) -> dict[str, Any]:
        """The shoe, the shoe model and the house's drawing rules (players and the others' play are per entry)."""
        return {"shoe": list(self.shoe.counts), "infinite": self.infinite, "house_tableau": list(self.house_tableau),
                "house_draws_when_all_stand": self.all_stand}

    def shown(self) -> dict[str, Any]:
        """The rules as the report states them (the strategy is added once solved)."""
        return {"decks": self.decks, "players": self.players,
                "shoe": "infinite (exact); finite: see oddscalc simulate" if self.infinite else "finite (exact)",
                "highest_third_card": "by point value (10/J/Q/K = 0)",
                "house_draws_when_all_stand": self.all_stand, "house_tableau": list(self.house_tableau),
                "third_cards": self.third_cards}


class HouseBaccarat:
    """The rule sheet's house-banked baccarat: each player draws or stands, then the house plays."""

    key: ClassVar[str] = "house-baccarat"
    title: ClassVar[str] = "House baccarat (rule sheet)"
    default_table: ClassVar[str] = DEFAULT_TABLES["house-baccarat"]
    options: ClassVar[frozenset[str]] = frozenset({"decks", "players", "strategy"})
    engine_version: ClassVar[int] = 1
    table_model: ClassVar[type[TableModel]] = HouseBaccaratTable

    def resolve(self, table: Table, options: RunOptions) -> HouseBaccaratRules:
        """The table's rules with ``--decks``, ``--players`` and ``--strategy`` (a name or a strategy card file,
        ``draw_card``) applied."""
        model = table.model
        assert isinstance(model, HouseBaccaratTable)
        rules = model.rules
        decks = options.decks if options.decks is not None else rules.decks
        players = options.players if options.players is not None else rules.players
        if decks < 1:
            raise OptionError("--decks must be at least 1")
        if not 1 <= players <= 7:
            raise OptionError("--players must be 1 to 7")
        fixed: Strategy | None = None
        if options.strategy is not None and is_path(options.strategy):
            from oddscalc.games.house_baccarat import card as draw_card

            card = draw_card.load_card(Path(options.strategy))
            fixed = Strategy.of(draw_card.name(card), draw_card.draws(card))
            name = fixed.name
        elif options.strategy is not None:
            try:
                name = _check_strategy(options.strategy)
            except ValueError as e:
                raise OptionError(str(e)) from None
        elif rules.draw_on is not None:
            name = "table"
            fixed = Strategy.by_totals("draw_on (table)", rules.draw_on)
        else:
            name = rules.strategy or "optimal"
        kind = name if name in ("optimal", "optimal-total") else "fixed"
        if kind == "fixed" and fixed is None:
            lo, hi = (int(x) for x in name.split("-")[1:])
            fixed = Strategy.by_totals(name, range(lo, hi + 1))
        infinite = players > FINITE_EXACT_MAX_PLAYERS
        shoe = Shoe.of_decks(decks)
        if not infinite and players > 1 and 12 * shoe.size**3 >= 2**54:
            raise OptionError(f"--decks {decks} is too large for the exact multi-player recursion "
                              "(at most 2,000 decks)")
        return HouseBaccaratRules(
            table=table, options=options, strategy=name,
            published_applies=options.decks is None and options.players is None and options.strategy is None,
            decks=decks, players=players, house_tableau=rules.house_tableau, all_stand=rules.house_draws_when_all_stand,
            kind=kind, fixed=fixed, infinite=infinite, pay=model.pays.main.win, third_cards=rules.third_cards)

    def count(self, rules: HouseBaccaratRules, store: Store) -> SeatCounter:
        """A counter of your seat's outcomes, through the store, for whatever the other seats play."""
        return SeatCounter(rules, store, self)

    def settle(self, counts: SeatCounter, rules: HouseBaccaratRules) -> Analysis:
        """The optimal strategy (a symmetric equilibrium with several seats), the played one, and the wager."""
        model = rules.table.model
        assert isinstance(model, HouseBaccaratTable)
        players, pay, shoe = rules.players, rules.pay, rules.shoe
        if rules.third_cards == "shown" and players > 1:
            from oddscalc.seats.shown.chain import MAX_PLAYERS

            raise OptionError("third_cards = \"shown\": a later seat decides on earlier third cards, which this report "
                              "does not model; oddscalc seats house-baccarat "
                              f"--players {min(players, MAX_PLAYERS)} gives 2 to {MAX_PLAYERS} seats exactly")
        exact_finite = not rules.infinite
        optimum = solve(counts, players, pay, "optimal")
        if rules.fixed is None and (rules.kind == "optimal" or optimum.strategy.totals() is not None):
            # an optimum that depends on the total only is also the best strategy by total
            same = optimum.strategy if rules.kind == "optimal" else Strategy(rules.kind, optimum.strategy.draws)
            played = Solved(same, optimum.counts, optimum.iterations)
        else:
            played = solve(counts, players, pay, rules.kind, rules.fixed)
        ev_opt = seat_ev(optimum.counts, optimum.strategy, pay)
        ev_played = seat_ev(played.counts, played.strategy, pay)

        shoe_text = (f"finite shoe of {shoe.label}, exact" if exact_finite else
                     f"INFINITE shoe (cards drawn with replacement), exact; the finite shoe of {shoe.label} is not "
                     f"enumerated beyond {FINITE_EXACT_MAX_PLAYERS} players (oddscalc simulate house-baccarat "
                     f"--players {players} estimates it)")
        reading = ("the house stands when no player drew (literal reading of the sheet)"
                   if rules.all_stand == "never" else
                   "the house draws on 0-5 when every player stood (as in punto banco)")
        headline = [_favours(ev_opt, exact_finite, players)]
        if played.strategy.draws != optimum.strategy.draws:
            line = (f"With the play of this report ({_strategy_text(played.strategy)}) a player's EV is "
                    f"{_pct(ev_played)} per unit staked (exact {frac_str(ev_played)}).")
            if ev_played > ev_opt:
                reply = best_by_composition(played.counts, pay, "best reply")
                line += (" That is more than under the equilibrium only because every seat plays it (their third "
                         "cards make the house draw more): against such seats your own best play "
                         f"({_strategy_text(reply).removeprefix('best reply: ')}) earns "
                         f"{_pct(seat_ev(played.counts, reply, pay))}.")
            headline.append(line)
        headline.append(f"Reading: {reading}; {players} player{'s' if players > 1 else ''} at the table"
                        + ("" if players == 1 else ", every seat playing the same strategy") + f"; {shoe_text}.")
        headline.append("The house's edge depends on how many seats are filled, and with several seats the players' "
                        "choices are a game among them: oddscalc seats house-baccarat --players N gives the edge by "
                        "seats filled, every symmetric equilibrium, the best common "
                        "strategy the seats could agree on, and one seat's best reply to the others.")

        notes = [f"Shoe: {shoe_text}."]
        if players > 1:
            notes.append("The other seats play the same strategy; their naturals make you sit out and their third "
                         "cards steer the house's draw.")
        if rules.fixed is None and players > 1:
            notes.append(f"Strategy: fixed point of best responses, reached after {played.iterations} evaluation(s).")
        wager = main_wager(played.counts, played.strategy, pay, _strategy_text(played.strategy), notes)
        # the strategy's id (a name, "table", or the card's file name without .toml), its words beside
        given = rules.options.strategy
        sid = Path(given).stem if given is not None and is_path(given) else rules.strategy
        wager = WagerResult(wager.wager, wager.title, sid, wager.total_combinations, wager.rows,
                            wager.unit, extras={"expected_value_optimal_play": ev_opt}, notes=wager.notes,
                            strategy_title=wager.strategy)

        label = (("Exact on a " if exact_finite else "Exact on an ") + (f"finite shoe of {shoe.label}" if exact_finite
                 else "infinite shoe") + (f", {players} players; the other seats play this report's strategy."
                                          if players > 1 else ", one player."))
        sections = strategy_sections(played.counts, pay, played.strategy, label, players > 1)
        when_none = ("the house stands (literal reading of the sheet)" if rules.all_stand == "never"
                     else "the house draws on 0-5, as banca does in punto banco (a reading: the sheet says it stands)")
        sections.append(tableau_section(
            "house_drawing_rules", "House drawing rules", rules.house_tableau, "House total", "highest third card",
            intro=("The house stands on 7 or more. Below that its draw depends on the highest third card dealt to "
                   "the players who drew (by point value: 10/J/Q/K count 0):",),
            notes=(f"When no player drew: {when_none}.",)))

        resolved = {**rules.shown(), "strategy": played.strategy.name}
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
        return Analysis(self.key, rules.table, resolved, convention, (wager,), headline=tuple(headline),
                        sections=tuple(sections), assumptions=tuple(model.assumptions),
                        decisions=(_decisions(played.counts, played.strategy),),
                        published_applies=rules.published_applies)

    def charts(self, analysis: Analysis, rerun: Callable[[RunOptions], Analysis]) -> tuple[Chart, ...]:
        """No chart: the tables say it all."""
        return ()
