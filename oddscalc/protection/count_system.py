"""Count system files: ``tables/counts/<id>.toml``, a published (or your own) way of counting one wager, read into
a :class:`CountSystem` for the counting study (``oddscalc counting GAME --count ID|FILE``).

A count file names the game and the wager it bets, a tag for every rank (A 2-9 T J Q K: a count may tell a king
from a ten), whether the count is balanced (the tags of a full deck add up to 0: the file says so and is checked),
and the betting rule: bet when the running count (from a stated start) is at least x, or when the true count is,
the running count divided by the decks (or half-decks) not seen. An optional ``[published]`` block holds the
source's figures and the convention it dealt its shoes by (decks, cards behind the cut card, burn): the study puts
its own figures beside them. The file is validated like a table (``datafile``): every problem at once, each with
file, line and key; exit code 3 on the command line. An id names a shipped file, a path (a / or .toml) a file.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from oddscalc.cards import RANK_CHARS
from oddscalc.datafile import Problem, TableError, line_for, parse_toml, validate_model
from oddscalc.exact import parse_fraction
from oddscalc.files import is_path

WHAT = "count system"
FOLDER = "counts"  # under the shipped tables' folder
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")  # as a count file writes them
PER = {"deck": 52, "half-deck": 26}  # the true count's divisor, in cards
_NUMBER = re.compile(r"^-?\d{1,6}(\.\d{1,6})?$")


def _number(value: int | str, what: str) -> Fraction:
    """A whole number, or a decimal written as a string ("0.52"): never a float."""
    if isinstance(value, int):
        return Fraction(value)
    if not _NUMBER.match(value.strip()):
        raise ValueError(f"{what}: a whole number or a decimal in quotes (\"0.52\"), not {value!r}")
    return parse_fraction(value)


class Tags(BaseModel):
    """The tag of every rank: the running count adds the tag of each card seen."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    A: int = Field(ge=-20, le=20)
    two: int = Field(alias="2", ge=-20, le=20)
    three: int = Field(alias="3", ge=-20, le=20)
    four: int = Field(alias="4", ge=-20, le=20)
    five: int = Field(alias="5", ge=-20, le=20)
    six: int = Field(alias="6", ge=-20, le=20)
    seven: int = Field(alias="7", ge=-20, le=20)
    eight: int = Field(alias="8", ge=-20, le=20)
    nine: int = Field(alias="9", ge=-20, le=20)
    T: int = Field(ge=-20, le=20)
    J: int = Field(ge=-20, le=20)
    Q: int = Field(ge=-20, le=20)
    K: int = Field(ge=-20, le=20)

    def per_rank(self) -> tuple[int, ...]:
        """The tags in the card classes' rank order (``cards.RANK_CHARS``: 2 .. K, A), as the study indexes them."""
        written = self.model_dump(by_alias=True)
        return tuple(written[r] for r in RANK_CHARS)


class Bet(BaseModel):
    """When the count bets one unit: the running count or the true count at least ``at_least``."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    when: Literal["running", "true"] = Field(description='"running": the running count; "true": the running count '
                                                         "per deck (or half-deck) not seen")
    at_least: int | str = Field(description="bet when the count is at least this (a whole number, or a decimal in "
                                            "quotes)")
    start: int = Field(0, ge=-10_000, le=10_000, description="when = \"running\" only: the running count at the "
                                                             "start of a shoe (an unbalanced count's initial count)")
    per: Literal["deck", "half-deck"] | None = Field(None, description='when = "true" only: the divisor, the decks '
                                                                       "or half-decks not seen (default deck)")

    @model_validator(mode="after")
    def _fits_its_kind(self) -> Bet:
        _number(self.at_least, "at_least")
        if self.when == "running" and self.per is not None:
            raise ValueError('per is for when = "true": a running count is not divided')
        if self.when == "true" and self.start:
            raise ValueError('start is for when = "running": a true count starts at 0')
        return self


class Published(BaseModel):
    """A source's own figures for the count and the convention its shoes were dealt by."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    source: str = Field(min_length=1, description="who published the figures, where and when")
    decks: int = Field(ge=1, le=100)
    cut_card: int = Field(ge=0, le=5_000, description="cards behind the cut card, as the source states it")
    burn: Literal["turn"] | int = Field(description='"turn" (the first card shown, as many burnt as it counts) or '
                                                    "a number of cards burnt face down")
    shoes: int = Field(0, ge=0, description="shoes the source simulated (0: not stated)")
    bets_per_shoe: str = Field("", description="the source's bets per shoe, a decimal in quotes")
    win_per_shoe: str = Field("", description="the source's units won per shoe, a decimal in quotes")
    bound_per_shoe: str = Field("", description="the source's units won per shoe betting whenever the wager's EV is "
                                                "positive (the most any count wins), a decimal in quotes")
    note: str = Field("", description="how the source's figures are read (what is assumed where it is silent)")

    @model_validator(mode="after")
    def _decimals(self) -> Published:
        for name in ("bets_per_shoe", "win_per_shoe", "bound_per_shoe"):
            text = getattr(self, name)
            if text:
                _number(text, name)
        return self


class CountFile(BaseModel):
    """A count system: the wager it bets, a tag per rank, and the rule it bets by (``--count``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    game: str
    title: str = Field(min_length=1)
    wager: str = Field(min_length=1, description="the wager the count bets (e.g. dragon_7)")
    balanced: bool = Field(description="whether the tags of a full deck add up to 0 (checked)")
    tags: Tags
    bet: Bet
    published: Published | None = None


@dataclass(frozen=True)
class CountSystem:
    """A count system as the study uses it."""

    id: str
    title: str
    game: str
    wager: str
    tags: tuple[int, ...]  # per rank in cards.RANK_CHARS order (2 .. K, A)
    balanced: bool
    when: str  # "running" or "true"
    at_least: Fraction
    start: int  # the running count at a shoe's start
    per: int  # cards per unit of the true count's divisor (52 a deck, 26 a half-deck)
    published: Published | None

    def bets(self, running: int, unseen: int) -> bool:
        """Whether the count bets, exactly: ``running`` the sum of the tags seen, ``unseen`` the cards not seen."""
        count = running + self.start
        if self.when == "running":
            return count >= self.at_least
        # true count = count / (unseen / per) >= at_least, with unseen > 0
        return count * self.per * self.at_least.denominator >= self.at_least.numerator * unseen

    def rule(self) -> str:
        """The betting rule as a report states it."""
        if self.when == "running":
            start = f" (starting each shoe at {self.start:+d})" if self.start else ""
            return f"bet when the running count{start} is at least {_show(self.at_least)}"
        unit = "deck" if self.per == 52 else "half-deck"
        return (f"bet when the true count (the running count per {unit} not seen: burnt cards are never seen) is at "
                f"least {_show(self.at_least)}")


def _show(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def count_path(ref: str) -> Path:
    """The file a count reference names: a path, or a shipped id (TableError listing the shipped ids otherwise)."""
    from oddscalc.catalog import data_path

    return data_path(ref, FOLDER, "count system", "count", WHAT)


def shipped_counts() -> list[str]:
    """The ids of the shipped count systems, sorted."""
    from oddscalc.catalog import shipped_data

    return shipped_data(FOLDER)


def load_count(ref: str, game: str | None = None) -> tuple[CountSystem, str]:
    """The count system a reference names and its file's sha256; ``game``: the game it must be for. Raises
    TableError with every problem (file, line, key)."""
    path = count_path(ref)
    name = str(path)
    try:
        data, lines, raw = parse_toml(path)
    except TableError as e:
        raise TableError(e.problems, WHAT) from None
    problems: list[Problem] = []
    found = validate_model(name, lines, CountFile, data, problems)

    def problem(loc: tuple[str, ...], message: str) -> None:
        problems.append(Problem(name, line_for(lines, loc), ".".join(loc), message))

    if isinstance(data.get("game"), str) and game is not None and data["game"] != game:
        problem(("game",), f"this count is for {data['game']}, not {game}")
    if found is None or problems:
        raise TableError(problems, WHAT)
    assert isinstance(found, CountFile)
    tags = found.tags.per_rank()
    deck = 4 * sum(tags)
    if found.balanced and deck:
        problem(("balanced",), f"the tags of a full deck add up to {deck:+d}, not 0: the count is not balanced")
    if not found.balanced and not deck:
        problem(("balanced",), "the tags of a full deck add up to 0: the count is balanced")
    if problems:
        raise TableError(problems, WHAT)
    bet = found.bet
    ident = path.stem if not is_path(ref) else str(path)
    system = CountSystem(ident, found.title, found.game, found.wager, tags, found.balanced, bet.when,
                         _number(bet.at_least, "at_least"), bet.start, PER[bet.per or "deck"], found.published)
    return system, hashlib.sha256(raw).hexdigest()


__all__ = ["CountFile", "CountSystem", "count_path", "load_count", "shipped_counts"]
