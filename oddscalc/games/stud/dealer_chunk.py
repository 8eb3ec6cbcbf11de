"""What both of the stud engine's counts against a dealer read: the ranking's table of every dealer hand, and a
chunk of player hands (:mod:`oddscalc.games.stud.dealer`, the plain count; :mod:`oddscalc.games.stud.sieve`, by
inclusion-exclusion)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from oddscalc.cards import Deck
from oddscalc.hands import HandClass, hand_table
from oddscalc.hands.four import best_four_strength, four_qualifier_value, level_class, level_of
from oddscalc.hands.three import qualifier_value, three_card_table


@dataclass(frozen=True)
class Ranking:
    """One ranking's table of every ``k``-card hand of a deck: strength (higher better, equal a tie) and class,
    indexed by the colex index of the hand's deck positions."""

    strength: np.ndarray  # (C(n, k),) int
    hand_class: np.ndarray  # (C(n, k),) int8 index into the ranking's classes
    qualifies_from: int  # the weakest strength that qualifies


def ranking_table(deck: Deck, ranking: str, qualifier: tuple[str, tuple[int, ...]], cards: int = 0) -> Ranking:
    """The ranking's table on ``deck`` with the qualifier (``table.parse_qualifier``) as a strength; a ranking of
    the best of more cards (four-card) tables the hands of ``cards`` cards by their best four."""
    cls, ranks = qualifier
    if ranking == "four-card":
        strength = best_four_strength(deck, cards)
        return Ranking(strength, level_class()[strength], level_of(four_qualifier_value(cls, ranks)))
    if ranking == "five-card":
        ht = hand_table(deck)
        return Ranking(_compact(ht.strength), np.asarray(ht.hand_class),
                       ht.strength_at_least(HandClass(cls), ranks))
    if ranking == "three-card":
        tt = three_card_table(deck)
        return Ranking(_compact(tt.value), np.asarray(tt.hand_class), qualifier_value(cls, ranks))
    raise ValueError(f"no table of the {ranking} ranking")


def _compact(values: np.ndarray) -> np.ndarray:
    """The strengths in 16 bits when they fit (both rankings' do): half the memory the count reads."""
    fits = values.size == 0 or (int(values.min()) >= -(2**15) and int(values.max()) < 2**15)
    return np.asarray(values, dtype=np.int16 if fits else np.int32)


@dataclass(frozen=True)
class Chunk:
    """One chunk of the count: plain arrays and the rules (it pickles small to a cluster; each worker builds the
    ranking's table once, cached)."""

    deck: Deck
    ranking: str
    qualifier: tuple[str, tuple[int, ...]]
    free: np.ndarray  # (rows, n - P) deck positions the player does not hold, ascending
    strength: np.ndarray  # (rows,) the player's strength
    dealer_cards: int
    up_cards: int
    sieve: bool = False  # counted by inclusion-exclusion (:mod:`oddscalc.games.stud.sieve`): the same integers
