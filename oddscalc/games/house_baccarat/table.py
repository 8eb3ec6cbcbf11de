"""House baccarat's table file: the ``[rules]`` and ``[pays]`` a table may hold, validated at load."""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from pydantic import Field, model_validator

from oddscalc.cards import MAX_DECKS
from oddscalc.games.shoe import Tableau, Totals, WinPay
from oddscalc.tables import Strict, TableModel

SHEET_TABLEAU = (
    "DDDDDDDDDD",  # 0
    "DDDDDDDDDD",  # 1
    "DDDDDDDDDD",  # 2
    "DDDDDDDDSD",  # 3: 0-7 and 9
    "DDDDDDDDSS",  # 4: 0-7
    "SSSSDDDDSS",  # 5: 4-7
    "SSSSSSDDSS",  # 6: 6-7
    "SSSSSSSSSS",  # 7: never
)
STRATEGY_NAMES = re.compile(r"^(optimal|optimal-total|draw-([0-7])-([0-7]))$")


def check_strategy(name: str) -> str:
    """``name`` if it names a strategy (optimal, optimal-total, draw-A-B with A <= B); else ValueError."""
    m = STRATEGY_NAMES.match(name)
    if not m or (m.group(2) is not None and int(m.group(2)) > int(m.group(3))):
        raise ValueError(f"unknown strategy {name!r}; use optimal, optimal-total, draw-A-B (e.g. draw-0-5) or a "
                         "strategy card file (a path)")
    return name


class TableRules(Strict):
    """The ``[rules]`` of a house baccarat table."""

    decks: int = Field(8, ge=1, le=MAX_DECKS)
    players: int = Field(1, ge=1, le=7)
    strategy: str | None = Field(None, description="the players' strategy: optimal (the default), optimal-total, "
                                 "draw-A-B (e.g. draw-0-5), or a strategy card file's path")
    draw_on: Totals | None = None  # fixes every player's play by two-card total
    house_tableau: Tableau = SHEET_TABLEAU
    house_draws_when_all_stand: Literal["never", "on-0-5"] = "never"
    third_cards: Literal["hidden", "shown"] = "hidden"  # shown: face up in seat order (turn_order, shown_seats)

    @model_validator(mode="after")
    def _one_strategy(self) -> TableRules:
        if self.strategy is not None:
            check_strategy(self.strategy)
            if self.draw_on is not None:
                raise ValueError("give either strategy or draw_on, not both")
        return self


class HousePays(Strict):
    """The ``[pays]`` of a house baccarat table."""

    main: WinPay


class HouseBaccaratTable(TableModel):
    """A house baccarat table file."""

    rules: TableRules
    pays: HousePays

    GAME: ClassVar[str] = "house-baccarat"
