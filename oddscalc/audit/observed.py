"""One decision as a hand log records it: what the player saw, what was dealt that they did not see, what they did.

This is the one record the log reader hands to the evidence engine, so that the evidence does not depend on the
log's file format (which is versioned on its own), and a test can build decisions without writing a log.

>>> from oddscalc.cards import parse_cards
>>> d = Observed(line=7, game="caribbean", seen=parse_cards("As Kd Jh 8c 3s Qc"),
...              hidden=parse_cards("2c 2d 9h 9s"), action="raise", won=Fraction(-3))
>>> d.seen_count, d.hidden_count
(6, 4)
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple


class Observed(NamedTuple):
    """One decision of one seat in one round (immutable; a named tuple, not a frozen dataclass, because a log makes
    one per decision: a million of them took twice as long to make as dataclasses).

    ``seen`` holds, in dealing order, the card ids the player saw honestly when deciding: for Caribbean Stud their
    five cards then the dealer's up card; for Let It Ride their three cards, then the first community card at the
    second decision; for punto banco nothing (the bet is placed before the coup). ``hidden`` holds, in dealing
    order, the cards dealt in the round that an honest player had not seen when deciding: the dealer's four hole
    cards; the community cards still down; the coup's cards in the order they left the shoe (player, banker,
    player, banker, then the third cards). An information model names positions in ``hidden`` (the first two
    hole cards, the first card's group), so the evidence reads what a player who knew more would have known.
    ``action`` is the action's id in the game's public vocabulary (``raise``/``fold``, ``ride``/``pull``,
    ``player``/``banker``/``tie``/``none``); ``won`` is what the seat's wagers in the round won, in units of the
    base wager (the ante, or one unit for punto banco), as settled by the log.
    """

    line: int
    game: str
    seen: tuple[int, ...]
    hidden: tuple[int, ...]
    action: str
    won: Fraction

    @property
    def seen_count(self) -> int:
        """How many cards the player saw honestly."""
        return len(self.seen)

    @property
    def hidden_count(self) -> int:
        """How many dealt cards the player had not seen."""
        return len(self.hidden)
