"""oddscalc: exact combinatorial odds for casino table card games.

The Python API is this package's ``__all__``: :func:`analyze` a table, then read its figures (every one an exact
``Fraction``), show it (a short repr, a table in a notebook), render its report, compare tables, solve a pay for
an edge, check it against a compliance profile, and list what there is to analyse:

>>> import oddscalc
>>> oddscalc.list_games()
{'let-it-ride': 'Let It Ride', 'caribbean': 'Caribbean Stud Poker', 'punto-banco': 'Punto banco', ...}
>>> oddscalc.list_tables("punto-banco")["standard"]
'Punto banco, 8 decks, 5% commission'
>>> a = oddscalc.analyze("punto-banco", table="standard")
>>> a.wager("tie")
<WagerResult tie 'Tie': house edge 14.3596% of the unit staked; 3 events over 4,998,398,275,503,360 combinations>
>>> frame = a.wager("tie").to_frame(floats=True)  # float columns; to_frame() keeps the exact Fractions
>>> frame.loc[frame["event"] == "win", "probability"].item() == 475627426473216 / 4998398275503360
True
>>> oddscalc.render(a, "md").splitlines()[0]
'# Punto banco, 8 decks, 5% commission'

``analyze`` is defined here; the other functions live in :mod:`oddscalc.api` and are loaded the first time one is
asked for (``oddscalc.render``, ``from oddscalc import render``). Why not import them: ``import oddscalc`` runs
first for every command and module of the package, so it stays light (the command line reads ``__version__`` from
here), and the digests that key stored reports and proofs (``replay.closure``) follow what a module imports,
this ``__init__`` included, so what it imported would count as a dependency of everything (a renderer's edit
would make the seat proofs' code another). A type checker sees them through ``__getattr__`` as ``Any``: import
them from :mod:`oddscalc.api` where their types matter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from oddscalc.results import Analysis
    from oddscalc.tables import Table

__version__ = "0.3.0"

API = "oddscalc.api"  # the module of the public functions beside analyze, imported by name on first use
LAZY = ("check", "compare", "list_games", "list_profiles", "list_strategies", "list_tables", "render", "solve")


def analyze(game: str, table: str | Table | None = None, *, strategy: str | None = None, decks: int | None = None,
            players: int | None = None, pays: Mapping[str, Any] | None = None, brief: bool = False,
            progress: bool = False, fresh: bool = False) -> Analysis:
    """The exact analysis of one table of a game: every figure a ``Fraction`` derived from integer counts.

    Parameters:
        game: the game's key, ``"caribbean"``, ``"let-it-ride"``, ``"punto-banco"`` or ``"house-baccarat"``
            (:func:`~oddscalc.api.list_games`).
        table: a shipped table's id (``"us"``; :func:`~oddscalc.api.list_tables`), a path to a table file (one
            that contains a ``/`` or ends in ``.toml``: the two are never guessed between), a loaded
            :class:`~oddscalc.tables.Table`, or None for the game's default table.
        strategy: a named strategy (:func:`~oddscalc.api.list_strategies`) or a strategy card file (a path),
            instead of the table's; only for a game that takes one.
        decks: decks in the shoe, instead of the table's (the baccarats).
        players: seats filled, instead of the table's (house baccarat).
        pays: pays changed without a file, ``{"main.straight_flush": "40:1"}``: each key names a pay as the rows
            do (``"<wager>.<key>"``), each value is written as a table file writes it, and both are checked as
            the file's own are (:func:`oddscalc.catalog.with_pays`). The result's table id and sha256 say that the
            table is not the file's, and the file's published figures are reported as not compared.
        brief: leave out the sections only a reader needs (``verify``, ``solve`` and ``compare`` do).
        progress: show the counting's progress on standard error.
        fresh: count from nothing instead of reading the on-disk store of counts.

    An option that overrides the table (``strategy``, ``decks``, ``players``) leaves the table's published
    figures uncompared: they describe the table as written. Raises ``TableError`` (:mod:`oddscalc.datafile`) for
    a bad table, or a bad key or value of ``pays``, naming the file, line and key of every problem, and
    ``OptionError`` (:mod:`oddscalc.protocol`) for an unknown game or an option that does not apply.

    >>> from fractions import Fraction
    >>> a = analyze("punto-banco", table="standard", pays={"tie.win": "9:1"})
    >>> a.table.id
    'standard[tie.win=9:1]'
    >>> tie = Fraction(475627426473216, 4998398275503360)  # a tie's probability, as sources publish it
    >>> a.wager("tie").house_edge == 1 - 10 * tie  # 9 won with a tie, 1 lost otherwise
    True
    >>> print(a.checks[0].verdict, "-", a.checks[0].message)
    not compared - this table differs from the one these figures describe in pays.tie.win (they describe ...)
    >>> analyze("punto-banco", table="standard", pays={"tie.wins": "9:1"})
    Traceback (most recent call last):
    oddscalc.datafile.TableError: punto-banco/standard with pays=: pays.tie.wins: unknown key: no pay 'tie.wins' ...
    """
    from oddscalc.analysis import analyze as run

    return run(game, table, strategy=strategy, decks=decks, players=players, pays=pays, brief=brief,
               progress=progress, fresh=fresh)


def __getattr__(name: str) -> Any:
    """The public functions of :mod:`oddscalc.api`, imported the first time one is asked for."""
    if name in LAZY:
        import importlib

        return getattr(importlib.import_module(API), name)
    raise AttributeError(f"module 'oddscalc' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *LAZY})


__all__ = ["__version__", "analyze", *LAZY]
