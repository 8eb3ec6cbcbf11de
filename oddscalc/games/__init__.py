"""The games and the protocol they share.

A game module exposes one object satisfying :class:`Game`: its key, its table model,
and ``analyze(table, options) -> Analysis``. The CLI, the renderers and the docs build
only talk to this protocol.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..exact import WagerResult
    from ..tables import Table, TableModel


class OptionError(ValueError):
    """A run option that does not apply or has a bad value (user error)."""


@dataclass(frozen=True)
class RunOptions:
    strategy: str | None = None
    decks: int | None = None
    players: int | None = None
    progress: bool = False  # show progress on stderr
    brief: bool = False  # skip appendices that only a reader needs (verify, solve, compare use it)


@dataclass(frozen=True)
class Section:
    """A titled block of Markdown for the report (strategy appendix, charts, notes)."""

    title: str
    markdown: str
    data: Any = None  # the same content as plain JSON-able data, for the JSON report


@dataclass(frozen=True)
class Decisions:
    """One kind of decision the strategy makes, at every decision point.

    Points are in the same order for every table of a game (same deck and rules that shape
    the enumeration), so two analyses can be compared point by point.
    """

    name: str
    description: str
    values: Any  # numpy bool array, one per point
    weights: Any  # numpy int array: combinations each point stands for
    describe: Callable[[int], str]  # a point in words


@dataclass(frozen=True)
class Analysis:
    game: str
    table: Table
    rules: Mapping[str, Any]  # as resolved (after --decks, --strategy, ...)
    convention: str  # what one combination is
    wagers: tuple[WagerResult, ...]
    headline: tuple[str, ...] = ()  # first lines of a report (e.g. who the game favours)
    sections: tuple[Section, ...] = ()
    assumptions: tuple[str, ...] = ()
    decisions: tuple[Decisions, ...] = ()
    published_applies: bool = True  # False when options override the table (decks, players, strategy)

    def wager(self, name: str) -> WagerResult:
        for w in self.wagers:
            if w.wager == name:
                return w
        raise KeyError(name)


class Game(Protocol):
    key: str
    title: str
    default_table: str
    options: frozenset[str]  # which RunOptions fields apply

    @property
    def table_model(self) -> type[TableModel]: ...

    def analyze(self, table: Table, options: RunOptions) -> Analysis: ...


_MODULES = {
    "let-it-ride": "let_it_ride",
    "caribbean": "caribbean",
    "punto-banco": "punto_banco",
    "house-baccarat": "house_baccarat",
}


GAME_KEYS: tuple[str, ...] = tuple(_MODULES)


class _Registry(Mapping[str, Game]):
    """Game key -> game object, importing each game module only when first asked for."""

    def __init__(self) -> None:
        self._loaded: dict[str, Game] = {}
        self._keys = [k for k in _MODULES if importlib.util.find_spec(f"{__name__}.{_MODULES[k]}")]

    def __getitem__(self, key: str) -> Game:
        if key not in self._keys:
            raise KeyError(key)
        if key not in self._loaded:
            mod = importlib.import_module(f"{__name__}.{_MODULES[key]}")
            self._loaded[key] = mod.GAME
        return self._loaded[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


GAMES: Mapping[str, Game] = _Registry()
