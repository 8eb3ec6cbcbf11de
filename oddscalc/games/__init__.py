"""The registered games: each declared once, in ``<game>/capabilities.py``, and listed here, the one place a game
is registered. A game missing from :data:`DECLARED` does not exist, and a module that fails to import fails loudly.

This module and the declarations are light (no numpy, numba or pydantic): the command line parses its arguments,
offers and refuses commands, and the report store answers a repeated report, from the declarations alone. A
game's code is imported the first time the game is asked for (:data:`GAMES`), so a command about one game does not
build the table models and tables of the other three (tens of milliseconds of every cold run); the class is then
checked against its declaration.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from oddscalc.games.caribbean.capabilities import CAPABILITIES as CARIBBEAN
from oddscalc.games.house_baccarat.capabilities import CAPABILITIES as HOUSE_BACCARAT
from oddscalc.games.let_it_ride.capabilities import CAPABILITIES as LET_IT_RIDE
from oddscalc.games.punto_banco.capabilities import CAPABILITIES as PUNTO_BANCO
from oddscalc.games.stud.capabilities import declared as stud_games
from oddscalc.protocol import Capabilities, Game, load

if TYPE_CHECKING:
    from oddscalc.tables import TableModel

_CODED = (LET_IT_RIDE, CARIBBEAN, PUNTO_BANCO, HOUSE_BACCARAT)
# the games declared in game files (the stud family): a folder of game files is a game, with no code
DECLARED: dict[str, Capabilities] = {c.key: c for c in (*_CODED, *stud_games(frozenset(c.key for c in _CODED)))}
GAME_KEYS: tuple[str, ...] = tuple(DECLARED)
DEFAULT_TABLES: dict[str, str] = {key: c.default_table for key, c in DECLARED.items()}


def supporting(analysis: str) -> tuple[str, ...]:
    """The games whose declaration supports ``analysis`` (a field of :class:`Capabilities`: counting, ...)."""
    return tuple(key for key, c in DECLARED.items() if c.supports(analysis))


def disagreement(game: Any, declared: Capabilities) -> list[str]:
    """What a game's class says otherwise than its declaration (nothing, for a registered game)."""
    fields = ("key", "title", "default_table", "options")
    off = [f for f in fields if getattr(game, f, None) != getattr(declared, f)]
    if getattr(game, "capabilities", None) is not declared:
        off.append("capabilities")
    return off


class _Games(Mapping[str, "Game[Any, Any]"]):
    """The registered games by key, each built on first use and checked against its declaration."""

    def __init__(self) -> None:
        self._built: dict[str, Game[Any, Any]] = {}

    def __getitem__(self, key: str) -> Game[Any, Any]:
        if key not in self._built:
            declared = DECLARED[key]
            game = load(declared.game)()
            off = disagreement(game, declared)
            if off:
                raise RuntimeError(f"{declared.game} does not match its declaration as {key!r}: {', '.join(off)}")
            self._built[key] = game
        return self._built[key]

    def __iter__(self) -> Iterator[str]:
        return iter(DECLARED)

    def __len__(self) -> int:
        return len(DECLARED)


class _TableModels(Mapping[str, "type[TableModel]"]):
    """Each game's table model, by game key (importing only the game asked for)."""

    def __getitem__(self, key: str) -> type[TableModel]:
        return GAMES[key].table_model

    def __iter__(self) -> Iterator[str]:
        return iter(DECLARED)

    def __len__(self) -> int:
        return len(DECLARED)


GAMES: Mapping[str, Game[Any, Any]] = _Games()
TABLE_MODELS: Mapping[str, type[TableModel]] = _TableModels()

__all__ = ["DECLARED", "DEFAULT_TABLES", "GAMES", "GAME_KEYS", "TABLE_MODELS", "disagreement", "supporting"]
