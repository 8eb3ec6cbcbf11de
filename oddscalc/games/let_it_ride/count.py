"""Let It Ride's count: per suit class of three- and four-card holdings, the completions by final pay class
(pay-free, stored)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from oddscalc.cards import FULL_DECK, Deck
from oddscalc.hands import HAND_CLASSES, HandClass, colex_indices, hand_table
from oddscalc.hands.three import THREE_CLASSES, three_card_class, three_card_table
from oddscalc.symmetry import suit_class_index, suit_classes

HOLDING_ARRAYS = ("reps3", "weights3", "reps4", "weights4", "c3", "c4", "sub3", "bonus")
PAYING = HAND_CLASSES[:9]  # royal flush .. pair (high card never pays)
LOSS = 9  # pay-class code of a losing hand
CLASSES = 10
BONUS_EVENTS = THREE_CLASSES[:-1]  # the three-card ranking's classes; its high card is the bonus's loss


@dataclass(frozen=True)
class HoldingCounts:
    """Pay-free counts per suit class of three- and four-card holdings, by final pay class."""

    deck: Deck
    reps3: np.ndarray  # (m3, 3) int8 card ids of each three-card class
    weights3: np.ndarray  # (m3,) int64 class sizes
    reps4: np.ndarray  # (m4, 4)
    weights4: np.ndarray  # (m4,)
    c3: np.ndarray  # (m3, 10): completions of each three-card class (C(n-3,2) of them), by pay class
    c4: np.ndarray  # (m4, 10): completions of each four-card class (n-4 of them), by pay class
    sub3: np.ndarray  # (m4, 4): the three-card class of the four-card class without its j-th card
    bonus: np.ndarray  # (7,): three-card hands of each BONUS_EVENTS class, then the losers

    @property
    def total(self) -> int:
        """Every deal: C(n,3) x (n-3) x (n-4)."""
        n = self.deck.size
        return math.comb(n, 3) * (n - 3) * (n - 4)


def pay_classes(deck: Deck, min_rank: int) -> np.ndarray:
    """(C(n,5),) int8 pay class of every hand (colex): 0..8 as PAYING, 9 a loss (pairs below min_rank too)."""
    ht = hand_table(deck)
    threshold = ht.strength_at_least(HandClass.PAIR, (min_rank,))
    cls = ht.hand_class.astype(np.int8)
    low_pair = (cls == HandClass.PAIR.code) & (ht.strength < threshold)
    return np.where((cls == HandClass.HIGH_CARD.code) | low_pair, LOSS, cls).astype(np.int8)


def _extended(deck: Deck, reps: np.ndarray) -> np.ndarray:
    """(m, n - k, k + 1) sorted deck positions of each holding plus each card it does not hold."""
    position = np.full(52, -1, dtype=np.int64)
    position[list(deck.cards)] = np.arange(deck.size)
    pos = position[reps.astype(np.int64)]
    free = np.ones((len(reps), deck.size), dtype=bool)
    free[np.arange(len(reps))[:, None], pos] = False
    other = np.nonzero(free)[1].reshape(len(reps), deck.size - reps.shape[1])
    both = np.concatenate([np.broadcast_to(pos[:, None, :], other.shape + (reps.shape[1],)), other[..., None]], axis=2)
    both.sort(axis=2)
    return both


def count_holdings(deck: Deck, min_rank: int) -> HoldingCounts:
    """The pay-free counts (numpy only: a few hundred thousand hand lookups, no pays involved)."""
    cls = pay_classes(deck, min_rank)
    reps3, weights3 = suit_classes(3, deck)
    reps4, weights4 = suit_classes(4, deck)
    hands = colex_indices(_extended(deck, reps4))  # (m4, n-4): the completed hands of each class
    m4 = len(reps4)
    c4 = np.bincount((np.arange(m4)[:, None] * CLASSES + cls[hands]).ravel(),
                     minlength=m4 * CLASSES).reshape(m4, CLASSES)
    class4 = suit_class_index(4, deck)
    supersets = class4[colex_indices(_extended(deck, reps3))]  # (m3, n-3): class of t plus each other card
    c3 = c4[supersets].sum(axis=1) // 2
    position = np.full(52, -1, dtype=np.int64)
    position[list(deck.cards)] = np.arange(deck.size)
    pos4 = np.sort(position[reps4.astype(np.int64)], axis=1)
    class3 = suit_class_index(3, deck)
    sub3 = np.stack([class3[colex_indices(np.delete(pos4, j, axis=1))] for j in range(4)], axis=1)
    return HoldingCounts(deck, np.asarray(reps3), np.asarray(weights3), np.asarray(reps4), np.asarray(weights4),
                         c3.astype(np.int32), c4.astype(np.int32), sub3.astype(np.int32), _bonus_counts(deck))


def three_card_event(cards: Sequence[int], deck: Deck = FULL_DECK) -> str:
    """Three-card poker class (:mod:`oddscalc.hands.three`), a high card being the bonus's "loss"."""
    name = three_card_class(cards, deck)
    return "loss" if name == "high_card" else name


def _bonus_counts(deck: Deck) -> np.ndarray:
    """Three-card hands of each BONUS_EVENTS class, then the losers (the three-card ranking's class counts)."""
    return np.bincount(three_card_table(deck).hand_class, minlength=len(THREE_CLASSES)).astype(np.int64)
