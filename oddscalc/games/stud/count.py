"""The stud engine's count: per suit class of the player's hand, the dealer's hands by outcome (pay-free).

Counting argument (a game with one decision after the player's ``P`` cards, the dealer's ``D`` cards unseen):
a deal is the player's ``P`` cards (a set) and the dealer's ``D`` (a set) from the rest, ``C(n, P) * C(n - P, D)``
equally likely deals (407,170,400 for Three Card Poker). Permuting the suits changes no outcome, so the player's
hands are taken one per suit class (1,755 of three cards on 52), with the class size. For each, every dealer
hand of the other ``n - P`` cards is looked up in the ranking's table: it does not qualify, or qualifies and loses
to, ties or beats the player. Those four counts, the player's hand class, and the class sizes are all the main bet
needs: the pays and the decision are applied in settle.

A side bet paid on ``k`` of the cards (the player's own, or the player's and the dealer's) only needs how many
``k``-card sets of the deck fall in each class of its ranking: every ``k``-set is held by equally many deals
(``C(n, P) * C(n - P, D) / C(n, k)``), whatever the player decides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from oddscalc.cards import Deck
from oddscalc.hands import HAND_CLASSES, colex_indices, hand_table
from oddscalc.hands.best import best_five_of_six_counts
from oddscalc.hands.four import (
    FOUR_CLASSES,
    best_four_counts,
    best_four_levels,
    best_four_strength,
    four_qualifier_value,
)
from oddscalc.hands.three import THREE_CLASSES, qualifier_value, three_card_table
from oddscalc.symmetry import suit_classes

MAIN_ARRAYS = ("reps", "weights", "player_class", "outcomes")
NOT_QUALIFIED, WIN, TIE, LOSE = range(4)  # the columns of ``outcomes``
CHUNK = 64  # player classes compared at once: a (64, C(n, 3)) block of booleans stays small


@dataclass(frozen=True)
class MainCounts:
    """Per suit class of the player's hand: its class and the dealer's hands by outcome."""

    deck: Deck
    player_cards: int
    dealer_cards: int
    reps: np.ndarray  # (m, P) int8 card ids of each class's representative
    weights: np.ndarray  # (m,) int64 class sizes
    player_class: np.ndarray  # (m,) int8 index into the ranking's classes
    outcomes: np.ndarray  # (m, 4) int64 dealer hands: not qualified, player wins, tie, player loses

    @property
    def dealer_hands(self) -> int:
        """The dealer's hands from the cards the player does not hold."""
        return math.comb(self.deck.size - self.player_cards, self.dealer_cards)

    @property
    def total(self) -> int:
        """Every deal: C(n, P) x C(n - P, D)."""
        return math.comb(self.deck.size, self.player_cards) * self.dealer_hands


def count_three_card(deck: Deck, qualifier: tuple[str, tuple[int, ...]]) -> dict[str, np.ndarray]:
    """The main counts of a three-card game (player three, dealer three), as the store keeps them."""
    table = three_card_table(deck)
    position = np.full(52, -1, dtype=np.int64)
    position[list(deck.cards)] = np.arange(deck.size)
    pos = position[table.cards.astype(np.int64)]
    masks = np.bitwise_or.reduce(np.left_shift(np.uint64(1), pos.astype(np.uint64)), axis=1)
    value = table.value
    qualifies = value >= qualifier_value(*qualifier)
    reps, weights = suit_classes(3, deck)
    rows = colex_indices(np.sort(position[reps.astype(np.int64)], axis=1))
    outcomes = np.zeros((len(reps), 4), dtype=np.int64)
    for start in range(0, len(reps), CHUNK):
        mine = rows[start:start + CHUNK]
        free = (masks[None, :] & masks[mine][:, None]) == 0  # dealer hands sharing no card with the player's
        held = free & qualifies
        player = value[mine][:, None]
        outcomes[start:start + CHUNK] = np.stack([
            (free & ~qualifies).sum(axis=1), (held & (value < player)).sum(axis=1),
            (held & (value == player)).sum(axis=1), (held & (value > player)).sum(axis=1)], axis=1)
    return {"reps": np.asarray(reps), "weights": np.asarray(weights, dtype=np.int64),
            "player_class": np.asarray(table.hand_class[rows]), "outcomes": outcomes}


def class_counts(deck: Deck, k: int, ranking: str, pair_minimum: int | None = None) -> np.ndarray:
    """(classes,) ``k``-card sets of ``deck`` by class of ``ranking`` (five-card: the best five of them; four-card:
    the best four); with ``pair_minimum`` (a rank, four-card only) the pair class holds only the pairs of that rank
    or higher, the lower pairs counted with the high cards (a bet that pays "a pair of aces or better")."""
    if ranking == "four-card" and 4 <= k <= 6:
        counts = best_four_counts(deck, k)
        if pair_minimum is not None:
            value = best_four_levels()[best_four_strength(deck, k)]
            pair, high = FOUR_CLASSES.index("pair"), FOUR_CLASSES.index("high_card")
            low = int(((value >= four_qualifier_value("pair")) &
                       (value < four_qualifier_value("pair", (pair_minimum,)))).sum())
            counts[pair] -= low
            counts[high] += low
        return counts
    if ranking == "three-card" and k == 3:
        return np.bincount(three_card_table(deck).hand_class, minlength=len(THREE_CLASSES)).astype(np.int64)
    if ranking == "five-card" and k == 5:
        return np.bincount(hand_table(deck).hand_class, minlength=len(HAND_CLASSES)).astype(np.int64)
    if ranking == "five-card" and k == 6:
        return np.array(best_five_of_six_counts(deck), dtype=np.int64)
    raise ValueError(f"a side bet on {k} cards ranked {ranking} is not counted by this engine version")

