"""Caribbean Stud's count: for each player-hand suit class and up card, the dealer hands that do not qualify,
lose or tie (pay-free, stored as the raise table).

One sweep over the dealer's hands in ascending strength (``dealer_sweep``) counts every class at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from oddscalc.cards import Deck
from oddscalc.games.caribbean import raise_table
from oddscalc.games.caribbean.raise_table import AK, RaiseTable
from oddscalc.games.caribbean.table import parse_qualifier
from oddscalc.hands import BINOM, hand_table
from oddscalc.progress import Progress
from oddscalc.symmetry import suit_classes

RAISE_TABLE_ARRAYS = ("reps", "weights", "pay_class", "keys", "perm", "prefix", "fixed_tally", "fixed_ak", "ak_total",
                      "shortlist")
OTHER_HIGH = 10


@dataclass(frozen=True)
class DealerCounts:
    """For each player-hand suit class and up card, the dealer-hand counts (pay-free)."""

    deck: Deck
    reps: np.ndarray  # (m, 5) int8 card ids
    weights: np.ndarray  # (m,) int64
    counts: np.ndarray  # (m, n-5, 3) int32: not qualifying, player wins, push; up cards ascending
    pay_class: np.ndarray  # (m,) int8: 0..8 royal flush..pair, 9 ace-king, 10 other high card

    def table(self) -> RaiseTable:
        """The counts in the form settling wants."""
        return raise_table.build(self.deck, self.reps, self.weights, self.pay_class, self.counts)


def pay_classes(deck: Deck, reps: np.ndarray) -> np.ndarray:
    """(m,) int8: the pay class of each five-card hand: 0..8 royal flush..pair, ``AK`` ace-king, ``OTHER_HIGH``
    any other high card."""
    ht = hand_table(deck)
    pos = np.sort(ht.position[reps].astype(np.int64), axis=1)
    idx = sum(BINOM[pos[:, i], i + 1] for i in range(5))
    cls = ht.hand_class[idx].astype(np.int64)
    srt = np.sort(reps.astype(np.int64) >> 2, axis=1)
    ak = (srt[:, 4] == 12) & (srt[:, 3] == 11)
    return np.where(cls <= 8, cls, np.where(ak, AK, OTHER_HIGH)).astype(np.int8)


def qualifier_strength(deck: Deck, qualifier: str) -> int:
    """The weakest dealer strength that qualifies, in ``deck``'s dense strengths."""
    cls, ranks = parse_qualifier(qualifier)
    return hand_table(deck).strength_at_least(cls, ranks)


def dealer_counts_of(deck: Deck, qualifier: str, symmetry: bool = True,
                     progress: Progress | None = None) -> DealerCounts:
    """Count over the suit classes of player hands (or, with ``symmetry=False``, every hand), unstored: one sweep
    over the dealer hands in ascending strength (``dealer_sweep``)."""
    from oddscalc.games.caribbean.dealer_sweep import count_all  # numba: loaded when a count is made

    reps, weights = player_hands(deck, symmetry)
    counts = count_all(deck, qualifier_strength(deck, qualifier), reps, progress or Progress(False, ""))
    return DealerCounts(deck, reps, weights, counts, pay_classes(deck, reps))


def player_hands(deck: Deck, symmetry: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The player hands counted, with their weights: one per suit class (or every hand, weight 1)."""
    if symmetry:
        reps, weights = suit_classes(5, deck)
        return np.asarray(reps), np.asarray(weights)
    return hand_table(deck).combos, np.ones(math.comb(deck.size, 5), dtype=np.int64)
