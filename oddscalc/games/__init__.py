"""The registered games. Each is one class following :class:`~oddscalc.protocol.Game`, listed here by hand:
a game missing from this list does not exist, and a module that fails to import fails loudly.

A game's module is imported the first time the game is asked for, so a command about one game does
not build the table models and tables of the other three (tens of milliseconds of every cold run).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from oddscalc.keys import DEFAULT_TABLES
from oddscalc.protocol import Game
from oddscalc.tables import TableModel

# game key -> (module in this package, class)
REGISTERED: dict[str, tuple[str, str]] = {
    "let-it-ride": ("let_it_ride.game", "LetItRide"),
    "caribbean": ("caribbean.game", "Caribbean"),
    "punto-banco": ("punto_banco.game", "PuntoBanco"),
    "house-baccarat": ("house_baccarat.game", "HouseBaccarat"),
}
if tuple(REGISTERED) != tuple(DEFAULT_TABLES):
    raise RuntimeError("oddscalc.keys.DEFAULT_TABLES does not list the registered games")


class _Games(Mapping[str, "Game[Any, Any]"]):
    """The registered games by key, each built on first use and checked against its registration."""

    def __init__(self) -> None:
        self._built: dict[str, Game[Any, Any]] = {}

    def __getitem__(self, key: str) -> Game[Any, Any]:
        if key not in self._built:
            module, name = REGISTERED[key]
            game = getattr(importlib.import_module(f".{module}", __name__), name)()
            if game.key != key or game.default_table != DEFAULT_TABLES[key]:
                raise RuntimeError(f"{name} does not match its registration as {key!r}")
            self._built[key] = game
        return self._built[key]

    def __iter__(self) -> Iterator[str]:
        return iter(REGISTERED)

    def __len__(self) -> int:
        return len(REGISTERED)


class _TableModels(Mapping[str, type[TableModel]]):
    """Each game's table model, by game key (importing only the game asked for)."""

    def __getitem__(self, key: str) -> type[TableModel]:
        return GAMES[key].table_model

    def __iter__(self) -> Iterator[str]:
        return iter(REGISTERED)

    def __len__(self) -> int:
        return len(REGISTERED)


GAMES: Mapping[str, Game[Any, Any]] = _Games()
TABLE_MODELS: Mapping[str, type[TableModel]] = _TableModels()
GAME_KEYS: tuple[str, ...] = tuple(REGISTERED)

__all__ = ["GAMES", "GAME_KEYS", "REGISTERED", "TABLE_MODELS"]
