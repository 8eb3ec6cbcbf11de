"""Caribbean Stud's table file: the ``[rules]`` and ``[pays]`` a table may hold, validated at load."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import ClassVar

from pydantic import ConfigDict, Field, field_validator, model_validator

from oddscalc.cards import parse_rank
from oddscalc.games.caribbean.raise_table import STRATEGIES
from oddscalc.games.poker_side_bets import PokerSideBet, side_bet_ids
from oddscalc.games.poker_side_envy import Envy, check_envy_reads
from oddscalc.games.progressive import StakedPrizes
from oddscalc.hands import HandClass
from oddscalc.tables import HandPays, Prize, Ratio, Strict, TableModel


def parse_qualifier(text: str) -> tuple[HandClass, tuple[int, ...]]:
    """"ace-king" -> (high card, (A, K)); "pair of fours" / "pair-of-4s" -> (pair, (4,)); "ace-queen" ..."""
    t = text.strip().lower().replace("_", " ").replace("-", " ")
    m = re.fullmatch(r"(?:a )?pair of (\w+)", t) or re.fullmatch(r"pair (\w+)", t)
    if m:
        return HandClass.PAIR, (parse_rank(m.group(1)),)
    parts = t.split()
    if len(parts) == 2:
        hi, lo = parse_rank(parts[0]), parse_rank(parts[1])
        if hi > lo:
            return HandClass.HIGH_CARD, (hi, lo)
    if t in ("any", "none", "no qualifier"):
        return HandClass.HIGH_CARD, ()
    raise ValueError(f"not a qualifier: {text!r} (use e.g. 'ace-king', 'ace-queen', 'pair of fours')")


class TableRules(Strict):
    """The ``[rules]`` of a Caribbean Stud table."""

    dealer_qualifier: str = Field("ace-king", description='the lowest hand the dealer qualifies with: "ace-king", '
                                  '"ace-queen", "pair of fours", or "any"')
    strategy: str = Field("optimal", description="the player's strategy: one of " + ", ".join(STRATEGIES))
    jackpot_paid_on_fold: bool = True

    @field_validator("dealer_qualifier")
    @classmethod
    def _q(cls, v: str) -> str:
        parse_qualifier(v)
        return v

    @field_validator("strategy")
    @classmethod
    def _s(cls, v: str) -> str:
        if v not in STRATEGIES:
            raise ValueError(f"unknown strategy {v!r}; one of: {', '.join(STRATEGIES)}")
        return v


class RaisePays(HandPays):
    """What the raise (call) bet pays when the player beats a qualifying dealer, "to 1"."""

    high_card: Ratio  # only ace-king (or whatever beats a qualifying dealer) can win with it


class JackpotPays(StakedPrizes):
    """Prizes paid on the player's own five cards: amounts (2500, "0.50"; the stake is kept), odds ("50:1";
    the stake comes back) or shares of a progressive meter ("100% meter", with a ``meter`` block)."""

    royal_flush: Prize
    straight_flush: Prize | None = None
    four_of_a_kind: Prize | None = None
    full_house: Prize | None = None
    flush: Prize | None = None
    envy: Envy | None = Field(None, description="an envy bonus for other seats' five cards (poker_side_envy); "
                                                "needs jackpot_paid_on_fold = true")

    def prizes(self) -> dict[str, Fraction | None]:
        """Every prize field (hand class id -> prize, None when the hand wins nothing); the envy is no prize."""
        return {k: v for k, v in super().prizes().items() if k != "envy"}

    @model_validator(mode="after")
    def _envy(self) -> JackpotPays:
        if self.envy is not None:
            self.envy.check()
        return self


class CaribbeanSideBet(PokerSideBet):
    """A side bet over the cards of a Caribbean Stud deal (``oddscalc.games.poker_side_bets``): positions
    ``player`` (five cards), ``dealer_up``, ``dealer_hole`` (four cards), ``dealer`` (all five); an ``envy``
    block pays for other seats' hands (``oddscalc.games.poker_side_envy``)."""

    SLOTS = {"player": 5, "dealer_up": 1, "dealer_hole": 4}
    POSITIONS = {"player": ("player",), "dealer_up": ("dealer_up",), "dealer_hole": ("dealer_hole",),
                 "dealer": ("dealer_up", "dealer_hole")}
    envy: Envy | None = None

    @model_validator(mode="after")
    def _envy(self) -> CaribbeanSideBet:
        if self.envy is not None:
            self.envy.check()
            check_envy_reads(tuple(p for r in self.rules for c in r.cards_when for p in c.cards))
        return self


class Pays(Strict):
    """The ``[pays]`` of a Caribbean Stud table: the raise, the Jackpot, and side bets over the cards by name."""

    model_config = ConfigDict(extra="allow", frozen=True, arbitrary_types_allowed=True, strict=True)
    main: RaisePays
    jackpot: JackpotPays | None = None
    __pydantic_extra__: dict[str, CaribbeanSideBet] = Field(init=False)

    @model_validator(mode="after")
    def _ids(self) -> Pays:
        side_bet_ids(self.__pydantic_extra__ or {}, ("main", "jackpot"))
        return self


class CaribbeanTable(TableModel):
    """A Caribbean Stud table file."""

    GAME: ClassVar[str] = "caribbean"
    rules: TableRules = TableRules()
    pays: Pays

    @model_validator(mode="after")
    def _jackpot_envy(self) -> CaribbeanTable:
        # The envy figures pair the Jackpot's outcome with other seats' hands: it must read the player's five
        # cards alone, which it does only when a folded hand keeps its prize (else the fold reads the up card).
        if self.pays.jackpot is not None and self.pays.jackpot.envy is not None and not self.rules.jackpot_paid_on_fold:
            raise ValueError("pays.jackpot.envy: an envy on the Jackpot needs [rules] jackpot_paid_on_fold = true "
                             "(a Jackpot forfeited on a fold reads the dealer's up card through the decision, and the "
                             "envy figures pair the player's own five cards with each other seat's)")
        return self
