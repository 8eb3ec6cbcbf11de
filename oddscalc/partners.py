"""Collusion at Caribbean Stud: a player who sees the five cards of each of n partners, estimated from
an unbiased sample of situations, each settled exactly.

A situation is the player's five cards, the partners' five each and the dealer's up card, drawn
uniformly. In it the player's EV is exact: the dealer's four hole cards range over every set of the
cards left, C(47 - 5n, 4) of them, each dealer hand's strength read from the hand table; the player
raises exactly when raising beats folding on those completions. Beside it, in the same situation and
on the same completions, the ordinary player's result: he decides on his own cards and the up card
alone (every C(46, 4) hole set), then plays out the completions the partners' cards leave. Dealing
partners' cards unseen changes nothing, so that second figure is an unbiased estimate of the
ordinary game's exact EV, and the paired difference measures what seeing the partners is worth,
with far less noise than either figure alone. Intervals are 95% (normal approximation).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import combinations

import numpy as np

from . import paired
from .cards import Deck
from .games.caribbean import RaisePays, pay_list, qualifier_strength
from .hands import BINOM, hand_table
from .paired import Sample
from .results import Section


@cache
def _holes(k: int) -> np.ndarray:
    return np.array(list(combinations(range(k), 4)), dtype=np.int64).reshape(-1, 4)


class _Table:
    def __init__(self, deck: Deck, qualifier: str, pays: RaisePays):
        ht = hand_table(deck)
        self.strength = np.asarray(ht.strength, dtype=np.int64)
        self.cls = np.asarray(ht.hand_class, dtype=np.int64)
        self.position = np.asarray(ht.position, dtype=np.int64)
        self.q = qualifier_strength(deck, qualifier)
        self.pays = pay_list(pays)

    def strengths(self, cards: np.ndarray) -> np.ndarray:
        """(rows,) strengths of rows of five card ids."""
        pos = np.sort(self.position[cards], axis=1)
        out: np.ndarray = self.strength[(BINOM[pos, np.arange(1, 6)]).sum(axis=1)]
        return out

    def outcome(self, player: np.ndarray, up: int, pool: np.ndarray) -> tuple[Fraction, Fraction]:
        """(raise EV, fold EV) in antes over every four hole cards from ``pool``, exactly."""
        holes = pool[_holes(len(pool))]
        dealer = np.concatenate([np.full((len(holes), 1), up), holes], axis=1)
        d = self.strengths(dealer)
        s = int(self.strengths(player[None, :])[0])
        qualified = d >= self.q
        nq = int((~qualified).sum())
        win = int((qualified & (d < s)).sum())
        lose = int((qualified & (d > s)).sum())
        n = len(d)
        pay = self._pay(player)
        raised = Fraction(nq) + win * (1 + 2 * pay) - 3 * lose
        return raised / n, Fraction(-1)

    def _pay(self, player: np.ndarray) -> Fraction:
        """The raise pay of the player's hand class (a high card wins only as ace-king: high_card)."""
        pos = np.sort(self.position[player])
        return self.pays[min(int(self.cls[int((BINOM[pos, np.arange(1, 6)]).sum())]), 9)]


def sample(deck: Deck, qualifier: str, pays: RaisePays, partners: int, situations: int, seed: int,
           progress: Callable[[int, int], None] | None = None) -> Sample:
    """Draw ``situations`` situations with ``partners`` partners and settle each exactly both ways."""
    if not 1 <= partners <= 6:
        raise ValueError("partners: 1 to 6 (a table seats 7)")
    t = _Table(deck, qualifier, pays)
    cards = np.array(deck.cards, dtype=np.int64)
    if len(cards) < 5 * (partners + 2) + 1:
        raise ValueError("the deck is too small for that many hands")
    rng = np.random.default_rng(seed)
    seen = np.empty(situations)
    ordinary = np.empty(situations)
    for i in range(situations):
        order = rng.permutation(cards)
        player, up = order[:5], int(order[5])
        shown = order[6:6 + 5 * partners]
        pool = order[6 + 5 * partners:]  # the cards the dealer's holes come from, seeing the partners
        raise_seen, fold = t.outcome(player, up, pool)
        seen[i] = float(max(raise_seen, fold))
        raise_alone, _ = t.outcome(player, up, np.concatenate([shown, pool]))  # what he knows alone
        ordinary[i] = float(raise_seen if raise_alone > fold else fold)  # played out on the same cards
        if progress is not None and i % 16 == 0:
            progress(i + 1, situations)
    return Sample(partners, seen, ordinary, seed)


def section(sample_: Sample, exact_ordinary: Fraction) -> Section:
    """The estimates with their intervals, beside the ordinary game's exact EV."""
    return paired.section(
        "partners_seen", "Caribbean Stud with partners' cards seen (sampled situations, each exact)", sample_,
        exact_ordinary, "Each situation (the player's cards, the partners', the up card) is drawn uniformly and "
        "settled exactly over every set of the dealer's hole cards left; the ordinary player's figure plays the "
        "same cards deciding on his own hand and the up card alone.")
