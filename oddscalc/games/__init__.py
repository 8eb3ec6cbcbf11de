"""The registered games. Each is one class following :class:`~oddscalc.protocol.Game`, listed here by hand:
a game missing from this list does not exist, and a module that fails to import fails loudly."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..keys import DEFAULT_TABLES
from ..protocol import Game
from ..tables import TableModel
from .caribbean import Caribbean
from .house_baccarat import HouseBaccarat
from .let_it_ride import LetItRide
from .punto_banco import PuntoBanco

GAMES: Mapping[str, Game[Any, Any]] = {g.key: g for g in (LetItRide(), Caribbean(), PuntoBanco(), HouseBaccarat())}
TABLE_MODELS: Mapping[str, type[TableModel]] = {key: g.table_model for key, g in GAMES.items()}
GAME_KEYS: tuple[str, ...] = tuple(GAMES)
if {k: g.default_table for k, g in GAMES.items()} != DEFAULT_TABLES:
    raise RuntimeError("oddscalc.keys.DEFAULT_TABLES does not list the registered games")

__all__ = ["GAMES", "GAME_KEYS", "TABLE_MODELS"]
