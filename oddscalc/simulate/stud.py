"""Games of the stud family declared in a game file, simulated: the games without a dealer (Mississippi Stud,
Double Down Stud, any file of that shape). Five cards a round, the first ones together and the rest one at a time;
before each card the player folds, checks or bets as the file allows; every bet still up is paid by the final hand.

The decisions are the simulator's own: backward induction over every card set the player can hold (all C(52, k) of
them, by colex index), each four-card set's completions evaluated with the simulator's evaluator (once per suit
pattern), in integers; between equal values the smaller stake, a fold first (the project's rule). Nothing is read
from the exact engine but the validated file (its pays and stages). A game with a dealer is played by
:mod:`oddscalc.simulate.stud_dealer` (the exact analysis's decisions, read as data).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from oddscalc.cards import parse_rank
from oddscalc.games.stud.table import StudTable
from oddscalc.hands import colex_indices
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, RunOptions
from oddscalc.simulate import stud_dealer
from oddscalc.simulate.arrays import IntArray
from oddscalc.simulate.dealing import deal, full_shoe
from oddscalc.simulate.evaluator import PAIR, STRAIGHT_FLUSH, category_of, strength, top_rank_of
from oddscalc.simulate.let_it_ride import suit_class_keys
from oddscalc.simulate.plan import Outcome, Outcomes, Plan
from oddscalc.tables import Table

FOLD = -1
# the simulator's categories (high card .. straight flush) by the file's class names; a royal flush apart
_NAMES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind",
          "straight_flush")
_BATCH = 40_000  # card sets relabelled or completed at once: bounds the memory


def net_of(s: IntArray, hand: dict[str, Fraction], pair_min: int | None, push_min: int | None) -> list[Fraction]:
    """Net antes per ante bet of each five-card strength in ``s`` (distinct ones: a loop): its class's pay, a pair
    by its rank (paid from ``pair_min``, pushed from ``push_min``), anything not paid -1."""
    out = []
    for cat, top in zip(category_of(s).tolist(), top_rank_of(s).tolist(), strict=True):
        name = "royal_flush" if cat == STRAIGHT_FLUSH and top == 12 else _NAMES[cat]
        if cat == PAIR and pair_min is not None and top < pair_min:
            out.append(Fraction(0) if push_min is not None and top >= push_min else Fraction(-1))
        else:
            out.append(hand.get(name, Fraction(-1)))
    return out


def _sets(k: int) -> IntArray:
    """Every k-card set, row i the set whose colex index is i."""
    rows = np.array(list(itertools.combinations(range(52), k)), dtype=np.int64).reshape(-1, k)
    out = np.empty_like(rows)
    out[colex_indices(rows)] = rows
    return out


def _children(sets: IntArray) -> IntArray:
    """(m, 52 - k) colex indices of each set with each card it does not hold."""
    m, k = sets.shape
    free = np.ones((m, 52), dtype=bool)
    free[np.arange(m)[:, None], sets] = False
    other = np.nonzero(free)[1].reshape(m, 52 - k)
    both = np.concatenate([np.broadcast_to(sets[:, None, :], (m, 52 - k, k)), other[..., None]], axis=2)
    both.sort(axis=2)
    return colex_indices(both.reshape(-1, k + 1)).reshape(m, 52 - k)


def by_strength(s: IntArray, value: Callable[[IntArray], IntArray]) -> IntArray:
    """``value`` of every strength in ``s`` (any shape), computed once per distinct strength."""
    unique, back = np.unique(s, return_inverse=True)
    return np.asarray(value(unique)[back.reshape(s.shape)])


def four_card_sums(value: Callable[[IntArray], IntArray]) -> IntArray:
    """(C(52,4),) each four-card set's net (scaled integers: ``value`` of each strength) summed over its 48
    fifth cards, evaluated once per suit pattern."""
    sets = _sets(4)
    keys = np.concatenate([suit_class_keys(sets[i:i + _BATCH]) for i in range(0, len(sets), _BATCH)])
    unique, back = np.unique(keys, return_inverse=True)
    reps = (unique[:, None] // 52 ** np.arange(4, dtype=np.int64)) % 52  # a set of each pattern (its key's digits)
    free = np.ones((len(reps), 52), dtype=bool)
    free[np.arange(len(reps))[:, None], reps] = False
    fifth = np.nonzero(free)[1].reshape(len(reps), 48)
    hands = np.concatenate([np.broadcast_to(reps[:, None, :], (len(reps), 48, 4)), fifth[..., None]], axis=2)
    return np.asarray(by_strength(strength(hands), value).sum(axis=1)[back], dtype=np.int64)


def solve(first: int, sizes: dict[int, list[int]], folds: set[int], sums4: IntArray, scale: int) -> dict[int, IntArray]:
    """The action (FOLD, else the bet, 0 a check) of every k-card set (by colex index) at every stake; the pays
    scaled by ``scale`` in ``sums4``."""
    most = 1 + sum(max(v) for v in sizes.values())
    value: dict[int, IntArray] = {}
    actions: dict[int, IntArray] = {}
    for k in range(4, first - 1, -1):
        ways = math.prod(range(48, 53 - k))  # the cards to come, in order
        options = sorted(sizes.get(k, [0]))
        children = _children(_sets(k)) if k < 4 else None
        m = math.comb(52, k)
        v = np.zeros((m, most + 1), dtype=np.int64)
        act = np.zeros((m, most + 1), dtype=np.int64)
        for stake in range(1, most + 1 - options[-1]):
            best = np.full(m, -stake * ways * scale, dtype=np.int64) if k in folds else None
            chosen = np.full(m, FOLD, dtype=np.int64)
            for b in options:
                bet = sums4 * (stake + b) if children is None else value[k + 1][children, stake + b].sum(axis=1)
                if best is None:
                    best, chosen = bet, np.full(m, b, dtype=np.int64)
                    continue
                better = bet > best
                best, chosen = np.where(better, bet, best), np.where(better, b, chosen)
            assert best is not None
            v[:, stake], act[:, stake] = best, chosen
        value[k], actions[k] = v, act
    return actions


def plan(table: Table, options: RunOptions) -> tuple[Plan, Analysis | None]:
    """Deal five cards a round; decide by the simulator's own backward induction; settle every bet."""
    model = table.model
    assert isinstance(model, StudTable)
    r, main = model.rules, model.pays.main
    if options.strategy not in (None, "optimal"):
        raise OptionError(f"unknown strategy {options.strategy!r} for {table.game}; known: optimal")
    if r.dealer_qualifier is not None or main.hand is None:
        return stud_dealer.plan(table, options)
    if model.pays.model_extra:
        raise OptionError(f"simulate does not play a game file's side bets yet ({', '.join(model.pays.model_extra)})")
    hand = main.hand.pays()
    pair_min = parse_rank(main.pair_minimum) if main.pair_minimum else None
    push_min = parse_rank(main.push_pair_minimum) if main.push_pair_minimum else None
    first, sizes, folds, held = r.stages[0].dealt(), {}, set(), 0
    for stage in r.stages:
        held += stage.dealt()
        if stage.decision is not None:
            sizes[held] = list(stage.decision.bets)
            folds |= {held} if stage.decision.fold else set()
    scale = math.lcm(*(x.denominator for x in hand.values()))

    def scaled(s: IntArray) -> IntArray:
        return np.array([int(x * scale) for x in net_of(s, hand, pair_min, push_min)], dtype=np.int64)

    def units(s: IntArray) -> IntArray:
        return np.array([float(x) for x in net_of(s, hand, pair_min, push_min)], dtype=np.float64)

    actions = solve(first, sizes, folds, four_card_sums(scaled), scale)
    deck = full_shoe(1)

    def play(rng: np.random.Generator, n: int) -> Outcomes:
        cards = deal(rng, deck, n, 5)  # the first cards, then one at a time in the order shown
        stake = np.ones(n, dtype=np.int64)
        live = np.ones(n, dtype=bool)
        for k in range(first, 5):
            move = actions[k][colex_indices(np.sort(cards[:, :k], axis=1)), stake]
            folded = live & (move == FOLD)
            live &= ~folded
            stake = np.where(live, stake + np.maximum(move, 0), stake)
        won = np.where(live, by_strength(strength(cards), units) * stake, -stake.astype(np.float64))
        return {"main": Outcome(won, stake=stake.astype(np.float64))}

    strategy = ("optimal: each decision by the simulator's own backward induction over the cards held and the "
                "stake (its own evaluator), the smaller stake on ties")
    shown = {"stages": "; ".join(f"{k} cards: {', '.join('check' if b == 0 else f'{b}x' for b in v)}"
                                 f"{', fold' if k in folds else ''}" for k, v in sizes.items())}
    return Plan(play, strategy, RunOptions(), shown, chunk=50_000), None
