"""The hand log: a versioned JSON Lines file, one header line then one round per line (docs/hand-log.md).

A log is read line by line and each line is validated on its own (pydantic, unknown keys refused), so a log of
millions of rounds is checked in bounded memory, and a problem is reported with the file, the LINE and the key
(``hand.log:17: cards.player.2: not a card``), as a table file's problems are. Amounts (stakes and what was paid)
are exact: JSON integers or strings holding an integer, a decimal or a ratio ("-15", "2.5", "19/20"), never floats,
so a commission of 5% is "19/20" of the stake and stays exact.

>>> header = Header.model_validate({"format": FORMAT, "version": 1, "game": "caribbean", "table": "standard",
...                                 "table_sha256": "0" * 64, "seats": 1})
>>> header.version, amount("19/20"), amount("-2.5"), amount(3)
(1, Fraction(19, 20), Fraction(-5, 2), Fraction(3, 1))
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from oddscalc.cards import RANK_CHARS, SUIT_CHARS, parse_card

FORMAT = "oddscalc-hand-log"
VERSION = 1
WHAT = "hand log"  # the kind of file in error messages (a TableError's ``what``): exit code 3 like a bad table
MOST_LINE = 64 * 1024  # bytes of one line: a round is a few hundred; anything far longer is not a round
MOST_CARDS = 64  # cards in one list of a round (a baccarat coup has six, a stud round ten)

AMOUNT = re.compile(r"^[+-]?(\d{1,30}(\.\d{1,30})?|\d{1,30}/[1-9]\d{0,29})$")
Sha256 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
Id = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,99}$")]
Amount = int | Annotated[str, StringConstraints(pattern=AMOUNT.pattern)]


@functools.lru_cache(maxsize=4096)
def amount(value: int | str) -> Fraction:
    """An amount of the log as an exact Fraction (an int, or a string: integer, decimal or ratio); a log holds few
    distinct amounts, so they are kept once made."""
    return Fraction(value)


CARD_IDS = {RANK_CHARS[r] + SUIT_CHARS[s]: r * 4 + s for r in range(13) for s in range(4)}  # "As" -> 51


def card_id(text: str) -> int:
    """A card of the log as its id: "As" read at once, any other spelling by ``cards.parse_card``."""
    found = CARD_IDS.get(text)
    return parse_card(text) if found is None else found


def card_ids(cards: Sequence[str]) -> tuple[int, ...]:
    """The ids of a list of cards of the log (:func:`card_id`): the usual spellings read in one pass."""
    try:
        return tuple([CARD_IDS[c] for c in cards])
    except KeyError:
        return tuple(card_id(c) for c in cards)


class _Block(BaseModel):
    """A block of a log line: unknown keys are errors; JSON integers stay integers (no float, no coercion)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# a card as ``cards.parse_card`` reads it (rank then suit, any case, 10 for the ten), checked in pydantic's core
Card = Annotated[str, StringConstraints(pattern=r"^(10|[2-9TJQKAtjqka])[shdcSHDC]$")]
CardList = Annotated[tuple[Card, ...], Field(max_length=MOST_CARDS)]


class Cards(_Block):
    """The cards dealt in a round, each list in dealing order. Caribbean Stud: ``player`` (five), ``dealer`` (the
    up card first, then the four hole cards). Let It Ride: ``player`` (three), ``community`` (two). Punto banco:
    ``shoe``, the coup's cards in the order they left the shoe (player, banker, player, banker, then the third
    cards drawn). A damaged deck may deal a card twice, so a list may repeat a card: the audit finds it."""

    player: CardList = ()
    dealer: CardList = ()
    community: CardList = ()
    shoe: CardList = ()


class Decision(_Block):
    """One decision: which (``raise``, ``ride_1``, ``bet``), the action taken (``raise``/``fold``,
    ``ride``/``pull``, ``player``/``banker``/``tie``/``none``), and the cards the player saw when deciding."""

    decision: Id
    action: Id
    seen: CardList = ()


class Round(_Block):
    """One round of one seat: its number, the seat, the cards, the decisions, and per wager the base stake (the
    ante, or the bet) and the net amount paid (won positive, lost negative), in the same money."""

    round: int = Field(ge=1, le=10**15)
    seat: int = Field(ge=1, le=1000)
    cards: Cards
    decisions: tuple[Decision, ...] = Field(default=(), max_length=16)
    stakes: dict[Id, Amount] = Field(default_factory=dict, max_length=64)
    paid: dict[Id, Amount] = Field(default_factory=dict, max_length=64)

    @field_validator("stakes")
    @classmethod
    def _positive(cls, v: dict[str, Any]) -> dict[str, Any]:
        for wager, value in v.items():
            if not _positive_amount(value):
                raise ValueError(f"the stake on {wager!r} must be positive, not {value!r}")
        return v


@functools.lru_cache(maxsize=4096)
def _positive_amount(value: int | str) -> bool:
    """Whether a stake as written is positive: decided once per distinct stake (a log has few; this check was a
    tenth of validating a round)."""
    if isinstance(value, int):
        return value > 0
    return value[0] != "-" and value.split("/")[0].strip("+0.") != ""  # the pattern allows no zero denominator


class Generator(_Block):
    """How a simulated log was made (``oddscalc simulate --log``): absent from a table's own log."""

    tool: str = Field(max_length=200)
    seed: int = Field(ge=0)
    strategy: str = Field(default="", max_length=500)
    knows: str = Field(default="", max_length=500)
    damage: tuple[str, ...] = Field(default=(), max_length=52)
    mispay: str = Field(default="0", max_length=60)


class Header(_Block):
    """The first line: the format and its version, the game, the table (id and the sha256 of its file) and the
    seats."""

    format: Literal["oddscalc-hand-log"]
    version: Literal[1]
    game: Id
    table: str = Field(min_length=1, max_length=500)
    table_sha256: Sha256
    seats: int = Field(ge=1, le=1000)
    generator: Generator | None = None


__all__ = ["CARD_IDS", "FORMAT", "MOST_LINE", "VERSION", "WHAT", "Cards", "Decision", "Generator", "Header", "Round",
           "amount", "card_id", "card_ids"]
