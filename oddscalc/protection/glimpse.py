"""What a player knows before a decision, as plain values: the shape an information model file is read into.

An information model (``tables/information/<id>.toml``, read by ``protection.information``) lists glimpses.
Each glimpse names one card by its position in the deal and how much of it is seen: the card itself, its rank,
its suit, its colour, or its group under a partition of the ranks. Every game that answers information models
(``Capabilities.information``) takes a :class:`Model` and counts, exactly, what the best use of it is worth.

>>> hole = Glimpse("dealer_hole_1", "group", (frozenset("AK"), frozenset("23456789TJQ")))
>>> hole.sees("A") == hole.sees("K") != hole.sees("Q")
True
>>> Glimpse("player_1", "card").shows
'card'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Shows = Literal["card", "rank", "suit", "colour", "group"]
"""How much of a card is seen: all of it, its rank, its suit, its colour (hearts and diamonds red), or its group."""

RANKS = "23456789TJQKA"
"""Rank symbols as the model files and ``groups`` write them (T is the ten)."""


@dataclass(frozen=True)
class Glimpse:
    """One card seen before ``before``: its position (a game's own vocabulary, e.g. ``player_1`` for punto banco's
    first card out, ``dealer_hole_1`` for Caribbean Stud, ``community_1`` for Let It Ride), what is seen, and for
    ``group`` the partition of the ranks (every rank in exactly one group)."""

    position: str
    shows: Shows
    groups: tuple[frozenset[str], ...] = ()
    before: str = ""  # the decision it precedes, in the game's vocabulary ("" = the first decision)

    def sees(self, rank: str) -> int:
        """The group index a rank falls in (for ``group``); -1 when the glimpse is not by group."""
        for index, group in enumerate(self.groups):
            if rank in group:
                return index
        return -1


@dataclass(frozen=True)
class Model:
    """An information model: its id and title, the game it applies to, the glimpses, and (for a game where the
    player may choose which bet to make once he has seen, like punto banco) the bets he may choose between;
    ``"none"`` means he may sit the coup out."""

    id: str
    title: str
    game: str
    glimpses: tuple[Glimpse, ...]
    choices: tuple[str, ...] = ()
    source: str = ""  # a public analysis of the case, when there is one
