"""The protocol every game follows: resolve, count once, settle many times.

- ``resolve(table, options) -> Rules``: the only place run options are validated; cheap.
- ``count(rules, store) -> Counts``: the expensive enumeration. It carries no pays, depends
  only on ``rules.count_key()`` (plus the game's engine version) and goes through the
  :class:`~oddscalc.cache.Store`, so a second run, or a second table with the same count key,
  never enumerates again.
- ``settle(counts, rules) -> Analysis``: the table's pays and the strategy applied to the counts
  (``rules`` carries the table, hence its pays, and the resolved strategy). Cheap, so solving,
  comparing and verifying settle many tables from one count.
- ``charts(analysis, rerun)``: the pictures worth drawing for a table (data, drawn by ``report``).

:mod:`oddscalc.analysis` runs the stages; games are registered explicitly in
:mod:`oddscalc.games`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

if TYPE_CHECKING:
    from oddscalc.cache import Store
    from oddscalc.results import Analysis, Chart, RunOptions
    from oddscalc.tables import Table, TableModel


class OptionError(ValueError):
    """A run option or input that does not apply or has a bad value (a user error)."""


@dataclass(frozen=True)
class Rules:
    """What a game resolved from a table and the run options: the input of count and settle.

    Each game subclasses it with its own fields; ``count_key`` names the few that change the
    pay-free counts, so that two tables differing only in pays share one count.
    """

    table: Table
    options: RunOptions
    strategy: str
    published_applies: bool  # False when an option overrides what the table's published figures assume

    def count_key(self) -> dict[str, Any]:
        """The rules the counts depend on (JSON-able), without pays."""
        raise NotImplementedError

    def shown(self) -> dict[str, Any]:
        """The rules as a report states them."""
        raise NotImplementedError


R = TypeVar("R", bound=Rules)
C = TypeVar("C")


class Game(Protocol[R, C]):
    """One game: its key, its table model and its three stages."""

    key: ClassVar[str]
    title: ClassVar[str]
    default_table: ClassVar[str]
    options: ClassVar[frozenset[str]]  # the RunOptions fields (strategy, decks, players) that apply
    engine_version: ClassVar[int]  # bump when count() changes what it computes
    table_model: ClassVar[type[TableModel]]

    def resolve(self, table: Table, options: RunOptions) -> R:
        """Validate the options against the table; raise OptionError for a bad one."""
        ...

    def count(self, rules: R, store: Store) -> C:
        """The pay-free counts (through ``store``)."""
        ...

    def settle(self, counts: C, rules: R) -> Analysis:
        """The table's pays and strategy applied to the counts."""
        ...

    def charts(self, analysis: Analysis, rerun: Callable[[RunOptions], Analysis]) -> tuple[Chart, ...]:
        """Charts for the docs (``rerun`` analyses the same table with other options)."""
        ...


def count_key(game: Game[Any, Any], rules: Rules, **more: Any) -> dict[str, Any]:
    """The store key of a game's counts: game, engine version, the rules that matter, and ``more``."""
    return {"game": game.key, "engine": game.engine_version, **rules.count_key(), **more}
