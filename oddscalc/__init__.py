"""oddscalc: exact combinatorial odds for casino table card games.

``analyze(game, table=None, strategy=None, decks=None, players=None)`` returns the exact
:class:`~oddscalc.results.Analysis` of a table; see :func:`oddscalc.analysis.analyze`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from oddscalc.results import Analysis
    from oddscalc.tables import Table

__version__ = "0.3.0"


def analyze(game: str, table: str | Table | None = None, *, strategy: str | None = None, decks: int | None = None,
            players: int | None = None, pays: Mapping[str, Any] | None = None, brief: bool = False,
            progress: bool = False, fresh: bool = False) -> Analysis:
    """The exact analysis of one table of ``game`` (a shipped id, a path, or None for the default); ``pays``
    changes pays without a file (:func:`oddscalc.catalog.with_pays`)."""
    from oddscalc.analysis import analyze as run

    return run(game, table, strategy=strategy, decks=decks, players=players, pays=pays, brief=brief,
               progress=progress, fresh=fresh)


__all__ = ["__version__", "analyze"]
