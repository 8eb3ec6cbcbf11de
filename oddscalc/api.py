"""The public functions beside :func:`oddscalc.analyze`: what there is (games, tables, strategies, compliance
profiles), a report of an analysis as text, tables compared, a pay solved for an edge, a table checked against a
profile. Each is read from the package (``oddscalc.render``), which loads this module the first time one is asked
for (see ``oddscalc/__init__.py`` for why).

The examples run in the tests; they use punto banco, whose exact count takes a fraction of a second:

>>> a = analyze("punto-banco", table="standard")
>>> a.wager("banker").house_edge
Fraction(114753351728, 10847218479825)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from oddscalc.analysis import Session, analyze, game_of
from oddscalc.cache import Store
from oddscalc.catalog import load_table, profile_path, profiles_dir, shipped_tables
from oddscalc.exact import parse_fraction
from oddscalc.filing.comparison import Comparison
from oddscalc.filing.comparison import compare as compare_analyses
from oddscalc.filing.compliance import findings, load_profile, section
from oddscalc.filing.paytools import Solution, resolve_pay, solve_pay
from oddscalc.games import DECLARED
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, RunOptions, Section
from oddscalc.tables import Table

__all__ = ["analyze", "check", "compare", "list_games", "list_profiles", "list_strategies", "list_tables", "render",
           "solve"]

FORMATS = ("md", "json", "csv", "html")


def list_games() -> dict[str, str]:
    """The games, each key (what ``analyze`` takes) with its title.

    >>> list_games()["punto-banco"]
    'Punto banco'
    >>> list(list_games())  # doctest: +NORMALIZE_WHITESPACE
    ['let-it-ride', 'caribbean', 'punto-banco', 'house-baccarat', 'double-down-stud', 'mississippi-stud',
     'three-card-poker']
    """
    return {key: c.title for key, c in DECLARED.items()}


def list_tables(game: str) -> dict[str, str]:
    """The shipped tables of ``game``, each id (what ``analyze(game, table=...)`` takes) with its title, by id.

    >>> list_tables("caribbean")["us"]
    'Caribbean Stud Poker, US raise table (straight flush 50)'
    """
    key = game_of(game).key
    return {t.id: t.title for t in (load_table(path, expect_game=key) for path in shipped_tables(key))}


def list_strategies(game: str) -> tuple[str, ...]:
    """The named strategies ``analyze(game, strategy=...)`` takes (a strategy card file, a path, is taken too);
    none for a game where nobody makes a choice.

    >>> list_strategies("caribbean")[:3]
    ('optimal', 'raise-pair-plus', 'raise-ak-plus')
    >>> list_strategies("punto-banco")
    ()
    """
    return game_of(game).strategies


def list_profiles() -> dict[str, str]:
    """The shipped compliance profiles, each id (what :func:`check` takes) with its title.

    >>> sorted(list_profiles())
    ['gli-11', 'nevada-minimum-return', 'new-jersey-slots']
    """
    return {p.id: p.model.title for p in (load_profile(path) for path in sorted(profiles_dir().glob("*.toml")))}


def render(analysis: Analysis, fmt: str = "md") -> str:
    """The report of an analysis as text, as ``oddscalc report --format FMT`` writes it: ``"md"`` (Markdown),
    ``"json"`` (the stable JSON contract), ``"csv"`` (the rows, exact and decimal) or ``"html"`` (the printable
    document, without the charts; it needs the ``filing`` extra). A PDF or a workbook is a file: write it with
    ``oddscalc report --format pdf -o FILE``.

    >>> import json
    >>> a = analyze("punto-banco", table="standard")
    >>> data = json.loads(render(a, "json"))
    >>> data["table"], data["wagers"][0]["wager"], data["wagers"][0]["house_edge"]
    ('standard', 'banker', '114753351728/10847218479825')
    >>> render(a).splitlines()[0]
    '# Punto banco, 8 decks, 5% commission'
    """
    if fmt == "html":
        from oddscalc.report.html import render_html

        return render_html(analysis)
    from oddscalc.report import RENDERERS

    if fmt not in RENDERERS:
        raise OptionError(f"unknown format {fmt!r}; one of: {', '.join(FORMATS)} (a PDF or a workbook: oddscalc "
                          "report --format pdf|xlsx -o FILE)")
    return RENDERERS[fmt](analysis)


def compare(game: str, tables: Sequence[str | Table], *, strategy: str | None = None,
            fresh: bool = False) -> Comparison:
    """Two or more tables of ``game`` side by side, as ``oddscalc compare``: the rules and pays they differ in,
    each wager's figures, the rows whose counts change and the decisions that flip, against the first. Each
    table is an id, a path or a loaded table; they share one count. ``sections()`` gives the tables (each shows as
    a table in a notebook, and gives ``records()`` and ``to_frame()``).

    >>> c = compare("punto-banco", ["standard", "super-6"])
    >>> c.differences[0][0]  # the key of the first difference; then how each table writes it
    'pays.banker.commission'
    >>> [f"{float(a.wager('banker').house_edge):.4%}" for a in c.analyses]  # as both tables' sources publish
    ['1.0579%', '1.4581%']
    >>> [s.id for s in c.sections()][:2]
    ['tables', 'differences']
    """
    session = Session(game, RunOptions(strategy=strategy, brief=True), Store.default(fresh=fresh))
    return compare_analyses([session.analyze(t) for t in tables])


def solve(game: str, pay: str, edge: str | Fraction, *, table: str | Table | None = None,
          strategy: str | None = None, fresh: bool = False) -> Solution:
    """The exact pay that gives its wager a house edge of ``edge`` (``"5%"``, ``"0.05"``, ``"1/20"`` or a
    Fraction), as ``oddscalc solve``: ``pay`` names it as the rows do (``"main.royal_flush"``, or ``"royal_flush"``
    when one wager has it); the strategy is solved again at each step until it holds. ``printable`` lists the
    pays a casino could print on either side, with their edges.

    >>> s = solve("punto-banco", "tie.win", "5%", table="standard")
    >>> s.pay, float(s.pay)
    (Fraction(22254431954453, 2477226179548), 8.98360...)
    >>> tie = Fraction(475627426473216, 4998398275503360)  # a tie's probability, as sources publish it
    >>> s.pay == (Fraction(19, 20) - tie) / tie  # tie * pay - (1 - tie) = -5%
    True
    >>> [(str(p), f"{float(edge):.4%}") for p, edge in s.printable]
    [('8', '14.3596%'), ('9', '4.8440%')]
    """
    try:
        target = edge if isinstance(edge, Fraction) else parse_fraction(edge)
    except ValueError:
        raise OptionError(f"edge: not a number: {edge!r} (use e.g. 1/20, 0.05 or 5%)") from None
    session = Session(game, RunOptions(strategy=strategy, brief=True), Store.default(fresh=fresh))
    t = session.resolve(table).table
    return solve_pay(session.analyze, t, resolve_pay(t.model, pay), target)


def check(analysis: Analysis, profile: str | Path) -> Section:
    """The analysis against a compliance profile (a shipped id, see :func:`list_profiles`, or a file), as
    ``oddscalc check``: one row per rule and wager (or award), with the exact figure, the limit and the verdict
    (``pass`` or ``FAIL``). The section shows as a table in a notebook and gives ``records()``.

    >>> a = analyze("punto-banco", table="standard")
    >>> s = check(a, "nevada-minimum-return")
    >>> [(r["wager"], r["figure"], r["verdict"]) for r in s.records()][:2]
    [('banker', '98.9421%', 'pass'), ('player', '98.7649%', 'pass')]
    """
    path = Path(profile) if isinstance(profile, Path) else _profile_file(profile)
    p = load_profile(path)
    return section(p, findings(p, analysis))


def _profile_file(ref: str) -> Path:
    try:
        path = profile_path(ref)
    except ValueError as e:
        raise OptionError(f"profile: {e}") from None
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in profiles_dir().glob("*.toml")))
        raise OptionError(f"no profile file or shipped profile {ref!r}; shipped: {known}")
    return path
