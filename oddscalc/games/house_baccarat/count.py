"""House baccarat's counts: your seat's exact outcomes, pay-free, through the store.

Stage 1 (shoe-free, small integers): the value orderings of your six slots with each outcome, for
your two-card total, your action and the others' class (``slot_orderings``). Stage 2: times the
falling product of each six-card multiset and the other seats' card sequences by class
(``others``), summed exactly in int64 limbs (``seat_counts``). A :class:`SeatCounter` keeps the
counts of each (seats, others' play) for a shoe and house rules, through the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from oddscalc.cache import Store
from oddscalc.games.house_baccarat.others import CLASSES, NAT_CLASS, others_finite, others_infinite
from oddscalc.games.house_baccarat.strategy import TOTAL, Strategy
from oddscalc.games.shoe import (
    VALUES,
    Multisets,
    Shoe,
    from_limbs,
    limb_bits,
    multiset_keys,
    tableau_array,
    to_limbs,
    value_grid,
)
from oddscalc.protocol import Game, Rules, count_key

# --- stage 1: your six slots, shoe-free -------------------------------------------------------

WIN, PUSH, LOSS, SIT_OUT = range(4)


@cache
def slot_orderings(tableau: tuple[str, ...], all_stand: str) -> np.ndarray:
    """(4 outcomes, 10 your totals, 2 actions, 715 four-card multisets, 12 classes) int64.

    Value orderings of the house's two cards, your third slot and the house's third slot with each
    multiset that give each outcome, for your two-card total, your action (0 stand, 1 draw) and
    the others' class. The house's two cards count in either order, so each unordered pair of values
    is played once with weight 2 (1 for equal values).
    """
    return _orderings(tableau, all_stand, False)


@cache
def slot_orderings_by_third(tableau: tuple[str, ...], all_stand: str) -> np.ndarray:
    """``slot_orderings`` split by the value in your third slot (a last axis of 10), for a seat whose third
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
def per_hand(tableau: tuple[str, ...], all_stand: str) -> np.ndarray:
    """(100 your two cards, 4 outcomes x 2 actions, 715 x 12) int64: ``slot_orderings`` spread over your two cards
    (by their total), as ``seat_counts`` multiplies them; kept, as spreading them is half of a seat count's time."""
    u = slot_orderings(tableau, all_stand)  # (4, 10, 2, 715, 12)
    per_total = u[:, TOTAL.reshape(-1)]  # (4, 100, 2, 715, 12)
    lhs = per_total.transpose(1, 0, 2, 3, 4).reshape(VALUES * VALUES, 4 * 2, u.shape[3] * CLASSES)
    lhs.flags.writeable = False  # shared by every later count
    return lhs


@cache
def six_index() -> np.ndarray:
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

    def ev(self, pay: Fraction) -> np.ndarray:
        """(10, 10, 2) object: pay x wins - losses, in combinations, by your two cards and action (0 stand,
        1 draw); kept with these counts for the next reader, so not to be written to."""
        ev = self._evs.get(pay)
        if ev is None:
            ev = self._evs[pay] = self.counts[WIN] * pay - self.counts[LOSS]
        return ev


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
    u = slot_orderings(tableau, all_stand)  # (4, 10, 2, 715, 12)
    four = u.shape[3]
    bits = limb_bits(four * CLASSES, int(u.max()))
    limbs = to_limbs(v, bits)  # (5005, 12, L)
    gathered = limbs[six_index().reshape(-1)]  # (100, 715, 12, L)
    gathered = gathered.reshape(VALUES * VALUES, four * CLASSES, -1)
    lhs = per_hand(tableau, all_stand)  # (100, 8, 715 x 12)
    sums = np.matmul(lhs, gathered)  # (100, 8, L)
    exact = from_limbs(sums, bits, False).reshape(VALUES, VALUES, 4, 2).transpose(2, 0, 1, 3)
    for a in range(2):
        if sum(exact[:, :, :, a].ravel()) != total:
            raise AssertionError("seat counts do not add up to the total")
    return SeatCounts(exact, total, others if players > 1 else None)


# --- the rules the counts are of -----------------------------------------------------------------


@dataclass(frozen=True)
class HouseBaccaratRules(Rules):
    """A house baccarat table resolved for a run."""

    decks: int
    players: int
    house_tableau: tuple[str, ...]
    all_stand: str  # house_draws_when_all_stand
    kind: str  # "optimal", "optimal-total" or "fixed"
    fixed: Strategy | None
    infinite: bool  # beyond game.FINITE_EXACT_MAX_PLAYERS: exact on an infinite shoe
    pay: Fraction
    third_cards: str = "hidden"  # "shown": later seats see earlier third cards (seats.turn_order, seats.shown)

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


# --- the counts: your seat against every strategy the others may play ---------------------------


def strategy_code(s: Strategy) -> str:
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
    game: Game[Any, Any]  # the game whose key and engine version key the store
    kept: dict[tuple[int, Any], SeatCounts] = field(default_factory=dict)
    rows_kept: dict[tuple[int, Any], np.ndarray] = field(default_factory=dict)

    def rows(self, players: int, others: Strategy) -> np.ndarray:
        """The other seats' ``class_rows`` when they play ``others``, through the store, and kept for this
        object's life: a search that bounds with them then asks for the seat counts of the same strategy."""
        kept = (players, others.draws)
        if kept not in self.rows_kept:
            r = self.rules
            key = count_key(self.game, r, players=players, others=strategy_code(others), part="class rows")
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
        key = count_key(self.game, r, players=players, others=strategy_code(played) if others is not None else None)

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
