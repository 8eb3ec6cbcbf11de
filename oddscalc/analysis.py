"""Running the protocol: resolve, count (through the store), settle, check the published figures.

:func:`analyze` is the public entry point (``from oddscalc import analyze``). A :class:`Session`
settles many tables of one game from one count: ``solve``, ``compare``, ``verify`` and the docs
build use one, so the counts a session holds are visible to its owner and gone with it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from oddscalc.cache import Store
from oddscalc.catalog import resolve_table, table_label, with_pays
from oddscalc.games import GAMES
from oddscalc.protocol import Game, OptionError, Rules
from oddscalc.results import Analysis, RunOptions
from oddscalc.tables import Table
from oddscalc.verify import BLOCKS, checks_for


def game_of(key: str) -> Game[Any, Any]:
    """The registered game with this key."""
    try:
        return GAMES[key]
    except KeyError:
        raise OptionError(f"unknown game {key!r}; one of: {', '.join(GAMES)}") from None


def check_options(game: Game[Any, Any], options: RunOptions) -> None:
    """Refuse a run option that does not apply to the game."""
    for name in ("strategy", "decks", "players"):
        if getattr(options, name) is not None and name not in game.options:
            raise OptionError(f"--{name} does not apply to {game.key}")


def settle(game: Game[Any, Any], counts: Any, rules: Rules) -> Analysis:
    """The game's settlement of ``rules`` from ``counts``, with the table's published figures checked."""
    a = game.settle(counts, rules)
    model = rules.table.model
    sources = tuple(f"{b}: {getattr(model, b).source}" for b in BLOCKS if getattr(model, b) is not None)
    checks = (tuple(checks_for(a.table, a.wagers, table_label(a.table), a.sections)) if rules.published_applies
              else ())
    return dataclasses.replace(a, published_applies=rules.published_applies, checks=checks, sources=sources)


class Session:
    """One game under one set of run options: tables resolved one by one, counts shared by count key."""

    def __init__(self, game: str | Game[Any, Any], options: RunOptions | None = None, store: Store | None = None):
        self.game = game_of(game) if isinstance(game, str) else game
        self.options = options if options is not None else RunOptions()
        check_options(self.game, self.options)
        self.store = store if store is not None else Store.default()
        self.counted: dict[str, Any] = {}  # count key (as text) -> counts, for this session only

    def resolve(self, table: Table | str | None = None, options: RunOptions | None = None) -> Rules:
        """The game's rules for a table (an id, a path, a loaded table or None for the default)."""
        t = table if isinstance(table, Table) else resolve_table(self.game.key, table)
        opts = self.options if options is None else options
        check_options(self.game, opts)
        rules: Rules = self.game.resolve(t, opts)
        return rules

    def counts(self, rules: Rules) -> Any:
        """The pay-free counts for ``rules``: counted once per session and count key."""
        key = repr(sorted(rules.count_key().items()))
        if key not in self.counted:
            self.counted[key] = self.game.count(rules, self.store)
        return self.counted[key]

    def analyze(self, table: Table | str | None = None, options: RunOptions | None = None) -> Analysis:
        """Resolve, count (or reuse the session's count), settle and check one table."""
        rules = self.resolve(table, options)
        return settle(self.game, self.counts(rules), rules)

    def rerun(self, table: Table) -> Callable[[RunOptions], Analysis]:
        """``table`` analysed under other options, sharing this session's counts."""
        return lambda options: self.analyze(table, options)


def analyze(game: str, table: str | Table | None = None, *, strategy: str | None = None, decks: int | None = None,
            players: int | None = None, pays: Mapping[str, Any] | None = None, brief: bool = False,
            progress: bool = False, fresh: bool = False) -> Analysis:
    """The exact analysis of one table of a game: the public ``oddscalc.analyze``, which documents each parameter.

    Raises ``TableError`` for a bad table or pay, ``OptionError`` for a bad option.
    """
    options = RunOptions(strategy=strategy, decks=decks, players=players, brief=brief, progress=progress)
    session = Session(game, options, Store.default(fresh=fresh))
    if pays:
        table = with_pays(table if isinstance(table, Table) else resolve_table(session.game.key, table), pays)
    return session.analyze(table)
