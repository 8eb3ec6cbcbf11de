"""Let It Ride's table file: the ``[rules]`` and ``[pays]`` a table may hold, validated at load."""

from __future__ import annotations

from typing import ClassVar

from pydantic import ConfigDict, Field, field_validator, model_validator

from oddscalc.cards import parse_rank
from oddscalc.games.poker_side_bets import PokerSideBet, side_bet_ids
from oddscalc.games.poker_side_envy import Envy, check_envy_reads
from oddscalc.games.progressive import StakedPrizes
from oddscalc.tables import HandPays, Prize, Ratio, Strict, TableModel


class TableRules(Strict):
    """The ``[rules]`` of a Let It Ride table."""

    min_pair: str = Field("tens", description='the lowest paying pair, a rank: "tens", "jacks", "6", ...')
    ride_on_zero: bool = False

    @field_validator("min_pair")
    @classmethod
    def _rank(cls, v: str) -> str:
        parse_rank(v)
        return v


class BonusPays(Strict):
    """The three-card bonus: pays on the player's own three cards."""

    mini_royal: Ratio
    straight_flush: Ratio
    three_of_a_kind: Ratio
    straight: Ratio
    flush: Ratio
    pair: Ratio


class FiveCardBonus(StakedPrizes):
    """A bonus with its own stake, paid on the final five-card hand: amounts, odds or meter shares
    (see ``tables.Prize``; a progressive has a ``meter`` block)."""

    royal_flush: Prize
    straight_flush: Prize | None = None
    four_of_a_kind: Prize | None = None
    full_house: Prize | None = None
    flush: Prize | None = None
    straight: Prize | None = None
    three_of_a_kind: Prize | None = None
    two_pair: Prize | None = None
    pair: Prize | None = None  # any pair: the bonus does not read the main bet's minimum


class LetItRideSideBet(PokerSideBet):
    """A side bet over the cards of a Let It Ride deal (``oddscalc.games.poker_side_bets``): positions ``player``
    (three cards), ``community1``, ``community2``, ``community`` (both); an ``envy`` block pays for other seats' own
    three cards (``oddscalc.games.poker_side_envy``) on a bet that reads the player's three alone."""

    SLOTS = {"player": 3, "community1": 1, "community2": 1}
    POSITIONS = {"player": ("player",), "community1": ("community1",), "community2": ("community2",),
                 "community": ("community1", "community2")}
    envy: Envy | None = None

    @model_validator(mode="after")
    def _envy(self) -> LetItRideSideBet:
        if self.envy is not None:
            self.envy.check(self.SLOTS["player"])
            check_envy_reads(tuple(p for r in self.rules for c in r.cards_when for p in c.cards))
        return self


class Pays(Strict):
    """The ``[pays]`` of a Let It Ride table: the main bets, the bonuses, and side bets over the cards by name."""

    model_config = ConfigDict(extra="allow", frozen=True, arbitrary_types_allowed=True, strict=True)
    main: HandPays  # the pair pays only from the table's min_pair up
    three_card_bonus: BonusPays | None = None
    five_card_bonus: FiveCardBonus | None = None
    __pydantic_extra__: dict[str, LetItRideSideBet] = Field(init=False)

    @model_validator(mode="after")
    def _ids(self) -> Pays:
        side_bet_ids(self.__pydantic_extra__ or {}, ("main", "three_card_bonus", "five_card_bonus"))
        return self


class LetItRideTable(TableModel):
    """A Let It Ride table file."""

    GAME: ClassVar[str] = "let-it-ride"
    rules: TableRules = TableRules()
    pays: Pays
