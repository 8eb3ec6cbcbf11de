"""Caribbean Stud rounds for a hand log: who raises (optimal, a named strategy, a card, a player with more
information), and what each wager pays.

Optimal play is the exact engine's: its raise decisions for the table's pays, read per (player hand suit class, up
card) from the raise table (``games.caribbean.raise_table``), each dealt hand mapped to its class by
``symmetry.canonical_hand_plus_card``. A player under an information model (``--knows``) sees, besides his hand and
the up card, what the model's glimpses show of the dealer's hole cards, and raises exactly when raising is worth
more than folding over every completion of the hole cards consistent with what he saw (integer counts, exact):
the up card and seen hole cards fixed, the other hole cards every set of the cards left.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np

from oddscalc.analysis import Session
from oddscalc.files import is_path
from oddscalc.games.caribbean.card import load_card
from oddscalc.games.caribbean.raise_table import optimal, up_cards
from oddscalc.games.caribbean.settle import pay_list
from oddscalc.games.caribbean.table import CaribbeanTable
from oddscalc.protection.glimpse import Glimpse, Model
from oddscalc.protection.information_common import card_class
from oddscalc.protocol import OptionError
from oddscalc.results import RunOptions
from oddscalc.simulate.arrays import BoolArray, IntArray
from oddscalc.simulate.caribbean import CARIBBEAN_STRATEGIES, card_raises, caribbean_raises, qualifier_strength
from oddscalc.simulate.evaluator import CATEGORY_NAMES, category_of, is_royal, strength
from oddscalc.symmetry import canonical_hand_plus_card
from oddscalc.tables import Table, prize_units

Raiser = Callable[[IntArray, IntArray, IntArray], BoolArray]  # (hands (n, 5), up (n,), dealer (n, 5)) -> raised
HOLES = ("dealer_hole_1", "dealer_hole_2", "dealer_hole_3", "dealer_hole_4")
MOST_COMPLETIONS = 200_000  # dealer completions weighed per decision under a model: a few milliseconds each


@functools.cache
def _combinations(n: int, k: int) -> IntArray:
    """(C(n, k), k) every k-set of range(n), each ascending."""
    return np.array(list(itertools.combinations(range(n), k)), dtype=np.int64).reshape(-1, k)


def optimal_raiser(table: Table) -> Raiser:
    """The exact engine's optimal decisions for the table's pays, looked up per dealt hand and up card."""
    model = table.model
    assert isinstance(model, CaribbeanTable)
    session = Session("caribbean", RunOptions(strategy="optimal"))
    rt = session.counts(session.resolve(table))
    nu = rt.keys.shape[1]
    by_sorted = optimal(rt, pay_list(model.pays.main)).sorted_raised(nu)
    by_slot = np.zeros_like(by_sorted)
    np.put_along_axis(by_slot, rt.perm.astype(np.int64), by_sorted, axis=1)
    row_of = {tuple(sorted(int(c) for c in rep)): i for i, rep in enumerate(rt.reps)}
    if up_cards(rt.deck, rt.reps[:1]).shape[1] != nu:
        raise AssertionError("the raise table's up-card slots are not the deck's cards left")

    def raises(hands: IntArray, up: IntArray, dealer: IntArray) -> BoolArray:
        out = np.zeros(len(up), dtype=bool)
        for i, (hand, u) in enumerate(zip(hands.tolist(), up.tolist())):
            if len(set(hand)) < 5 or u in hand:  # a damaged deck dealt a card twice: no class holds it; raise a
                out[i] = True  # made hand as the engine would never see it (any choice is the table's problem)
                continue
            canon, cu = canonical_hand_plus_card(hand, u)
            slot = cu - sum(c < cu for c in canon)
            out[i] = by_slot[row_of[tuple(sorted(canon))], slot]
        return out

    return raises


def named_raiser(chosen: str) -> Raiser:
    """A named strategy (``simulate``'s), or a strategy card file."""
    card = load_card(Path(chosen)).model if is_path(chosen) else None
    if card is None and chosen not in CARIBBEAN_STRATEGIES:
        raise OptionError(f"unknown strategy {chosen!r} for caribbean; one of: optimal, "
                          + ", ".join(CARIBBEAN_STRATEGIES) + ", or a strategy card file (a path)")

    def raises(hands: IntArray, up: IntArray, dealer: IntArray) -> BoolArray:
        s = strength(hands)
        return card_raises(card, hands, up, s) if card is not None else caribbean_raises(hands, up, s, chosen)

    return raises


def informed_raiser(table: Table, model: Model, deck: IntArray) -> Raiser:
    """A player who sees what ``model`` shows of the hole cards and raises by the exact EV given it."""
    tab = table.model
    assert isinstance(tab, CaribbeanTable)
    glimpses: dict[int, Glimpse] = {}
    for g in model.glimpses:
        if g.position in HOLES:
            glimpses[HOLES.index(g.position)] = g
        elif g.position != "dealer_up":
            raise OptionError(f"--knows {model.id}: simulate reads glimpses of the dealer's cards, not {g.position}")
    q = qualifier_strength(tab.rules.dealer_qualifier)
    pays = [Fraction(getattr(tab.pays.main, name)) for name in (*CATEGORY_NAMES, "royal_flush")]
    seen_at = sorted(glimpses)

    def raise_better(hand: list[int], up: int, holes: list[int]) -> bool:
        left = list(deck)
        for c in (*hand, up):
            left.remove(c)
        pools = [[c for c in left if card_class(glimpses[i], c) == card_class(glimpses[i], holes[i])]
                 for i in seen_at]
        rest = 4 - len(seen_at)
        total = math.comb(len(left) - len(seen_at), rest) * math.prod(len(p) for p in pools)
        if total > MOST_COMPLETIONS:
            raise OptionError(f"--knows {model.id}: {total:,} dealer completions per decision; at most "
                              f"{MOST_COMPLETIONS:,} (see more of each hole card)")
        sp = int(strength(np.array([hand]))[0])
        pay = pays[len(CATEGORY_NAMES) if bool(is_royal(np.array([sp]))[0]) else int(category_of(np.array([sp]))[0])]
        nq = win = push = lose = 0
        for fixed in itertools.product(*pools):
            if len(set(fixed)) < len(fixed):
                continue
            others = list(left)
            for c in fixed:
                others.remove(c)
            combos = np.array(others, dtype=np.int64)[_combinations(len(others), rest)]
            dealer = np.hstack([np.full((len(combos), 1), up), np.tile(np.array(fixed, dtype=np.int64),
                                                                       (len(combos), 1)), combos])
            sd = strength(dealer)
            qualified = sd >= q
            nq += int(np.count_nonzero(~qualified))
            win += int(np.count_nonzero(qualified & (sd < sp)))
            push += int(np.count_nonzero(qualified & (sd == sp)))
            lose += int(np.count_nonzero(qualified & (sd > sp)))
        n = nq + win + push + lose
        return nq + win * (1 + 2 * pay) - 3 * lose > -n  # an exact tie folds, as the engine's optimal strategy

    def raises(hands: IntArray, up: IntArray, dealer: IntArray) -> BoolArray:
        return np.array([raise_better(h, u, d[1:]) for h, u, d in zip(hands.tolist(), up.tolist(),
                                                                       dealer.tolist())], dtype=bool)

    return raises


class Settler:
    """What each wager of a Caribbean table pays on dealt rounds, per unit staked (the ante for ``main``), exact."""

    def __init__(self, table: Table):
        model = table.model
        assert isinstance(model, CaribbeanTable)
        self.qualifier = qualifier_strength(model.rules.dealer_qualifier)
        raise_pays = [Fraction(getattr(model.pays.main, name)) for name in (*CATEGORY_NAMES, "royal_flush")]
        # net units of the ante by [pay class, outcome]: fold, dealer not qualified, win, push, lose
        self.main_units = [[Fraction(-1), Fraction(1), 1 + 2 * pay, Fraction(0), Fraction(-3)] for pay in raise_pays]
        self.jackpot = model.pays.jackpot
        self.paid_on_fold = model.rules.jackpot_paid_on_fold
        self.jackpot_units: list[Fraction] = []
        jp = self.jackpot
        if jp is not None:
            for name in (*CATEGORY_NAMES, "royal_flush"):
                prize = getattr(jp, name, None) if name != "high_card" else None
                self.jackpot_units.append(Fraction(-1) if prize is None else
                                          prize_units(prize, jp.stake, jp.meter.shown if jp.meter else None)[1])

    def settle(self, hands: IntArray, dealer: IntArray, raised: BoolArray) -> list[tuple[Fraction, Fraction | None]]:
        """Per round, the net units of the ante and of the Jackpot stake (None: the table has none)."""
        sp, sd = strength(hands), strength(dealer)
        pay_class = np.where(is_royal(sp), len(CATEGORY_NAMES), category_of(sp))
        outcome = np.select([~raised, sd < self.qualifier, sp > sd, sp == sd], [0, 1, 2, 3], 4)
        out: list[tuple[Fraction, Fraction | None]] = []
        for c, o, r in zip(pay_class.tolist(), outcome.tolist(), raised.tolist()):
            jackpot = None
            if self.jackpot is not None:
                jackpot = Fraction(-1) if not r and not self.paid_on_fold else self.jackpot_units[c]
            out.append((self.main_units[c][o], jackpot))
        return out


__all__ = ["MOST_COMPLETIONS", "Raiser", "Settler", "informed_raiser", "named_raiser", "optimal_raiser"]
