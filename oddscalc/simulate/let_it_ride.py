"""Let It Ride, simulated: the player's three cards, two community cards, and two chances to pull a bet back.

Each of bets 1 and 2 rides exactly when the EV of riding, given the cards seen, is positive (or
zero, with ``ride_on_zero``). The simulator finds that itself, by enumerating the unseen cards
with its own evaluator: C(49,2) = 1,176 completions after three cards, 48 after four. The sums are
computed once per suit-permutation class of the holding, then remembered per card set.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from oddscalc.cards import parse_rank
from oddscalc.games.let_it_ride.table import LetItRideTable
from oddscalc.hands import colex_indices
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, RunOptions
from oddscalc.simulate.arrays import BoolArray, IntArray
from oddscalc.simulate.dealing import deal, full_shoe
from oddscalc.simulate.evaluator import PAIR, STRAIGHT_FLUSH, category_of, strength, three_card_classes, top_rank_of
from oddscalc.simulate.plan import Outcome, Outcomes, Plan
from oddscalc.tables import Table

LIR_CLASSES = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
               "three_of_a_kind", "two_pair", "pair")
_LOSS = len(LIR_CLASSES)
_BY_CATEGORY = np.array([_LOSS, 8, 7, 6, 5, 4, 3, 2, 1], dtype=np.int64)  # high card .. straight flush
_BONUS_CLASSES = ("mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair")
_PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)  # the 24 relabellings of suits


def lir_class(s: IntArray, min_rank: int) -> IntArray:
    """Index into LIR_CLASSES of each final hand, or 9 for a losing hand (pairs below ``min_rank`` lose)."""
    cat = category_of(s)
    top = top_rank_of(s)
    out = _BY_CATEGORY[cat]
    out = np.where((cat == STRAIGHT_FLUSH) & (top == 12), 0, out)
    return np.where((cat == PAIR) & (top < min_rank), _LOSS, out)


def suit_class_keys(cards: IntArray) -> IntArray:
    """A key per row of (n, k) card ids, equal for two holdings exactly when a suit relabelling maps one
    onto the other: the smallest base-52 code of the sorted cards over the 24 relabellings."""
    relabelled = (cards >> 2)[None] * 4 + _PERMS[:, cards & 3]  # (24, n, k)
    relabelled.sort(axis=-1)
    codes = relabelled @ (52 ** np.arange(cards.shape[1], dtype=np.int64))
    return np.asarray(codes.min(axis=0), dtype=np.int64)


def _decode(keys: IntArray, k: int) -> IntArray:
    """The card ids of each suit-class key (a representative holding)."""
    return (keys[:, None] // 52 ** np.arange(k, dtype=np.int64)) % 52


class RideDecisions:
    """Whether a bet rides, per holding of k cards: exactly when the summed pay of every completion is
    positive (or zero, with ``ride_on_zero``). Sums are computed once per suit class, decisions are
    then remembered per card set (by its colex index) so a warm lookup is one array read."""

    def __init__(self, k: int, values: IntArray, min_rank: int, ride_on_zero: bool):
        self.k = k
        self.values = values  # integer pay per LIR class (scaled), losing hand last
        self.min_rank = min_rank
        self.ride_on_zero = ride_on_zero
        self.sums: dict[int, int] = {}  # suit-class key -> summed pay over the completions
        self.known = np.full(math.comb(52, k), -1, dtype=np.int8)  # per card set: -1 unknown, 0 pull, 1 ride
        self.completions = np.array(list(itertools.combinations(range(52 - k), 5 - k)), dtype=np.int64)

    def _compute(self, keys: IntArray) -> None:
        n_comp = len(self.completions)
        batch = max(1, 240_000 // n_comp)  # hands evaluated at once: bounds the memory
        for start in range(0, len(keys), batch):
            kk = keys[start:start + batch]
            reps = _decode(kk, self.k)
            m = len(reps)
            unseen = np.ones((m, 52), dtype=bool)
            unseen[np.arange(m)[:, None], reps] = False
            rest = np.nonzero(unseen)[1].reshape(m, 52 - self.k)
            hands = np.concatenate([np.broadcast_to(reps[:, None, :], (m, n_comp, self.k)),
                                    rest[:, self.completions]], axis=2)
            sums = self.values[lir_class(strength(hands), self.min_rank)].sum(axis=1)
            self.sums.update(zip(kk.tolist(), sums.tolist()))

    def _learn(self, cards: IntArray, index: IntArray) -> None:
        keys = suit_class_keys(cards)
        missing = np.array([u for u in np.unique(keys).tolist() if u not in self.sums], dtype=np.int64)
        if len(missing):
            self._compute(missing)
        sums = np.array([self.sums[u] for u in keys.tolist()], dtype=np.int64)
        self.known[index] = sums >= 0 if self.ride_on_zero else sums > 0

    def ride(self, cards: IntArray) -> BoolArray:
        """(n,) whether the bet rides on each row of (n, k) card ids."""
        ordered = np.sort(cards, axis=1)
        index = colex_indices(ordered)
        new = self.known[index] < 0
        if new.any():
            first, at = np.unique(index[new], return_index=True)
            self._learn(ordered[new][at], first)
        return np.asarray(self.known[index] == 1)


def plan(table: Table, options: RunOptions) -> tuple[Plan, Analysis | None]:
    """Deal five cards a round; ride by the simulator's own decisions; settle the main bet and the bonus."""
    model = table.model
    assert isinstance(model, LetItRideTable)
    if options.strategy not in (None, "optimal"):
        raise OptionError(f"unknown strategy {options.strategy!r} for let-it-ride; known: optimal")
    min_rank = parse_rank(model.rules.min_pair)
    pays = [getattr(model.pays.main, name) for name in LIR_CLASSES]
    den = math.lcm(*(p.denominator for p in pays))
    values = np.array([int(p * den) for p in pays] + [-den], dtype=np.int64)  # integers: a zero sum is exactly 0
    units = np.array([float(p) for p in [*pays, Fraction(-1)]], dtype=np.float64)
    bet1 = RideDecisions(3, values, min_rank, model.rules.ride_on_zero)
    bet2 = RideDecisions(4, values, min_rank, model.rules.ride_on_zero)
    bonus = model.pays.three_card_bonus
    deck = full_shoe(1)

    def play(rng: np.random.Generator, n: int) -> Outcomes:
        cards = deal(rng, deck, n, 5)  # three for the player, then the two community cards in order
        bets = 1 + bet1.ride(cards[:, :3]).astype(np.int64) + bet2.ride(cards[:, :4]).astype(np.int64)
        final = units[lir_class(strength(cards), min_rank)]
        out: Outcomes = {"main": Outcome(final * bets, stake=bets.astype(np.float64))}
        if bonus is not None:
            cls = three_card_classes(cards[:, :3])
            won = np.full(n, -1.0)
            for name in _BONUS_CLASSES:
                won[cls == name] = float(getattr(bonus, name))
            out["three_card_bonus"] = Outcome(won)
        return out

    strategy = ("optimal: each of bets 1 and 2 rides exactly when its EV given the cards seen is positive"
                + (" or zero" if model.rules.ride_on_zero else "")
                + " (found by enumerating the unseen cards with the simulator's own evaluator)")
    rules = {"min_pair": model.rules.min_pair, "ride_on_zero": model.rules.ride_on_zero}
    return Plan(play, strategy, RunOptions(), rules, chunk=50_000), None
