"""Poker hand rankings, one family a module: every hand of a deck evaluated exactly.

- :mod:`oddscalc.hands.five`: five-card hands (and the best five of more cards), the ten ``HandClass`` classes;
  what Caribbean Stud, Let It Ride and the stud family's five-card games are paid and compared on.
- :mod:`oddscalc.hands.three`: three-card hands, where a straight beats a flush (three-card poker's ranking); what
  Let It Ride's three-card bonus, and Three Card Poker's ante, pair plus and dealer comparison use.
- :mod:`oddscalc.hands.four`: four-card hands, where three of a kind beats a flush and four of a kind a straight
  flush (Four Card Poker's ranking), and the best four of five or six cards; what Four Card Poker's hands and the
  baccarat bets' four-card ``hand`` conditions are ranked by.

The five-card names are re-exported here, so ``from oddscalc.hands import hand_table`` keeps working.
"""

from __future__ import annotations

from oddscalc.hands.five import (
    BINOM,
    HAND_CLASSES,
    HandClass,
    HandTable,
    colex_blocks,
    colex_combos,
    colex_index,
    colex_indices,
    compare_hands,
    hand_table,
    hand_value,
)

__all__ = [
    "BINOM",
    "HAND_CLASSES",
    "HandClass",
    "HandTable",
    "colex_blocks",
    "colex_combos",
    "colex_index",
    "colex_indices",
    "compare_hands",
    "hand_table",
    "hand_value",
]
