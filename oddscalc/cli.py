"""Command line: parse, call analyze(), render, write. User errors never show a traceback.

Exit codes: 0 ok · 1 internal error (a bug: traceback shown) · 2 usage (click) ·
3 bad table file · 4 bad option or input · 5 verification mismatch.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from . import __version__
from .cards import CardError

if TYPE_CHECKING:
    from .games import RunOptions

EXIT_TABLE = 3
EXIT_INPUT = 4
EXIT_MISMATCH = 5


def _fail(message: str, code: int) -> None:
    click.echo(f"oddscalc: {message}", err=True)
    sys.exit(code)


def _game_keys() -> list[str]:
    from .games import GAMES

    return list(GAMES)


@click.group()
@click.version_option(__version__, prog_name="oddscalc")
def main() -> None:
    """Exact combinatorial odds for casino table card games."""


@main.command()
@click.argument("game", type=click.Choice(_game_keys()))
@click.option("--table", "table_ref", metavar="ID|PATH", help="Shipped table id or a table file (default: the game's default table).")
@click.option("--format", "fmt", type=click.Choice(["md", "csv", "json"]), default="md", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write here instead of standard output.")
@click.option("--strategy", help="Named strategy (overrides the table's).")
@click.option("--decks", type=click.IntRange(min=1), help="Number of decks in the shoe (baccarat games).")
@click.option("--players", type=click.IntRange(1, 7), help="Players at the table (house-baccarat).")
@click.option("--symbolic", is_flag=True, help="Add each wager's EV as an exact expression in its pays, and each pay's sensitivity.")
def report(game: str, table_ref: str | None, fmt: str, output: Path | None, strategy: str | None,
           decks: int | None, players: int | None, symbolic: bool) -> None:
    """Exact pay-table report for GAME."""
    from .games import GAMES, OptionError
    from .report import RENDERERS
    from .tables import TableError, resolve_table

    opts = _options(game, strategy, decks, players, brief=False)
    try:
        table = resolve_table(game, table_ref)
        analysis = GAMES[game].analyze(table, opts)
        if symbolic:
            from .paytools import with_symbolic

            analysis = with_symbolic(analysis)
    except TableError as e:
        _fail(f"bad table:\n{e}", EXIT_TABLE)
    except (OptionError, CardError) as e:
        _fail(str(e), EXIT_INPUT)
    text = RENDERERS[fmt](analysis)
    if output is None:
        click.echo(text, nl=False)
    else:
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
            output.write_text(text)
        except OSError as e:
            _fail(f"cannot write {output}: {e.strerror or e}", EXIT_INPUT)


@main.command()
@click.argument("game", required=False, type=click.Choice(_game_keys()))
def tables(game: str | None) -> None:
    """List the shipped tables (game, id, title)."""
    from .tables import TableError, load_table_file, shipped_tables

    for path in shipped_tables(game):
        try:
            t = load_table_file(path)
            click.echo(f"{t.game:<15} {t.id:<20} {t.title}")
        except TableError as e:
            click.echo(f"{path.parent.name:<15} {path.stem:<20} (invalid: {len(e.problems)} problem(s))")


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
def validate(paths: tuple[Path, ...]) -> None:
    """Check table files and explain every problem."""
    from .tables import TableError, load_table_file

    bad = 0
    for p in paths:
        try:
            t = load_table_file(p)
            click.echo(f"{p}: ok ({t.game}, {t.title})")
        except TableError as e:
            bad += 1
            click.echo(str(e), err=True)
    if bad:
        _fail(f"{bad} of {len(paths)} table file(s) invalid", EXIT_TABLE)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
def verify(paths: tuple[Path, ...]) -> None:
    """Check the [published] and [claimed] figures of table files against the exact analysis.

    PATHS are table files or folders of them (default: every shipped table). Exits 5 when a
    figure does not hold or cannot be checked, 3 when a table file is invalid.
    """
    from .games import OptionError
    from .tables import TABLES_DIR, TableError, load_table_file
    from .verify import Check, describe_failure, render_checks, table_label, table_paths, verify_table

    files = table_paths(list(paths) or [TABLES_DIR])
    if not files:
        _fail("no table files to verify", EXIT_INPUT)
    checks: list[Check] = []
    bad_tables: list[str] = []
    without: list[str] = []
    for path in files:
        try:
            table = load_table_file(path)
            found = verify_table(table)
        except TableError as e:
            bad_tables.append(str(path))
            click.echo(str(e), err=True)
            continue
        except (OptionError, CardError) as e:
            bad_tables.append(str(path))
            click.echo(f"{path}: {e}", err=True)
            continue
        if found:
            checks.extend(found)
        else:
            without.append(table_label(table))
    failed = [c for c in checks if not c.ok]
    if checks:
        click.echo(render_checks(checks), nl=False)
        n_tables = len({c.table for c in checks})
        click.echo(f"{len(checks) - len(failed)} of {len(checks)} figure(s) hold in {n_tables} table(s)")
    if without:
        click.echo(f"no [published] or [claimed] figures: {', '.join(without)}")
    if bad_tables:
        _fail(f"{len(bad_tables)} table file(s) invalid: {', '.join(bad_tables)}", EXIT_TABLE)
    if failed:
        _fail(f"{len(failed)} figure(s) do not hold:\n" + "\n".join(describe_failure(c) for c in failed),
              EXIT_MISMATCH)


def _options(game: str, strategy: str | None, decks: int | None = None, players: int | None = None,
             brief: bool = True) -> RunOptions:
    from .games import GAMES, RunOptions

    g = GAMES[game]
    for name, value in {"strategy": strategy, "decks": decks, "players": players}.items():
        if value is not None and name not in g.options:
            _fail(f"--{name} does not apply to {game}", EXIT_INPUT)
    return RunOptions(strategy=strategy, decks=decks, players=players, progress=sys.stderr.isatty(), brief=brief)


@main.command()
@click.argument("game", type=click.Choice(_game_keys()))
@click.argument("table_a", metavar="A")
@click.argument("table_b", metavar="B")
@click.option("--strategy", help="Named strategy for both (default: each table's own).")
def compare(game: str, table_a: str, table_b: str, strategy: str | None) -> None:
    """Two tables of GAME side by side: rule and pay differences, figures, changed rows, flipped decisions."""
    from .games import GAMES, OptionError
    from .paytools import compare_text
    from .tables import TableError, resolve_table

    opts = _options(game, strategy)
    try:
        a = GAMES[game].analyze(resolve_table(game, table_a), opts)
        b = GAMES[game].analyze(resolve_table(game, table_b), opts)
    except TableError as e:
        _fail(f"bad table:\n{e}", EXIT_TABLE)
    except (OptionError, CardError) as e:
        _fail(str(e), EXIT_INPUT)
    click.echo(compare_text(a, b), nl=False)


@main.command()
@click.argument("game", type=click.Choice(_game_keys()))
@click.option("--table", "table_ref", metavar="ID|PATH", help="Shipped table id or a table file.")
@click.option("--pay", "pay_name", required=True, help="The pay to solve for: 'royal_flush' or 'main.royal_flush'.")
@click.option("--edge", "edge_text", required=True, help="Target house edge: a fraction (1/20), decimal (0.05) or percent (5%).")
@click.option("--strategy", help="Named strategy (default: the table's).")
def solve(game: str, table_ref: str | None, pay_name: str, edge_text: str, strategy: str | None) -> None:
    """The exact pay that gives a house edge, re-solving the strategy until it is stable."""
    from .exact import parse_fraction
    from .games import GAMES, OptionError
    from .paytools import resolve_pay, solution_text, solve_pay
    from .tables import TableError, resolve_table

    opts = _options(game, strategy)
    try:
        edge = parse_fraction(edge_text)
    except ValueError:
        _fail(f"--edge: not a number: {edge_text!r} (use e.g. 1/20, 0.05 or 5%)", EXIT_INPUT)
    try:
        table = resolve_table(game, table_ref)
        ref = resolve_pay(table.model, pay_name)
        g = GAMES[game]
        result = solve_pay(lambda t: g.analyze(t, opts), table, ref, edge)
    except TableError as e:
        _fail(f"bad table:\n{e}", EXIT_TABLE)
    except (OptionError, CardError) as e:
        _fail(str(e), EXIT_INPUT)
    click.echo(solution_text(result), nl=False)


@main.command()
@click.argument("game", type=click.Choice(_game_keys()))
@click.option("--table", "table_ref", metavar="ID|PATH", help="Shipped table id or a table file (default: the game's default table).")
@click.option("-n", "--rounds", type=int, help="Rounds to simulate (default: per game, see oddscalc.simulate.DEFAULT_ROUNDS).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the numpy PCG64 generator.")
@click.option("--strategy", help="Named strategy (caribbean default: rules-of-thumb; house-baccarat: the table's).")
@click.option("--decks", type=int, help="Number of decks in the shoe (baccarat games).")
@click.option("--players", type=int, help="Players at the table (house-baccarat).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def simulate(game: str, table_ref: str | None, rounds: int | None, seed: int, strategy: str | None,
             decks: int | None, players: int | None, fmt: str) -> None:
    """Monte Carlo check of GAME: deal shuffled cards, play the rules, compare with the exact values.

    Prints each figure with its 99% confidence interval and whether the exact value lies inside.
    Exits 0 either way (a value outside now and then is statistics); the last line sums it up.
    """
    from .games import OptionError
    from .simulate import RENDERERS, run
    from .tables import TableError

    try:
        sim = run(game, table_ref, rounds, seed, strategy, decks, players, progress=sys.stderr.isatty())
    except TableError as e:
        _fail(f"bad table:\n{e}", EXIT_TABLE)
    except (OptionError, CardError) as e:
        _fail(str(e), EXIT_INPUT)
    click.echo(RENDERERS[fmt](sim), nl=False)
    click.echo(f"oddscalc simulate: {sim.rounds:,} rounds in {sim.seconds_simulating:.1f} s "
               f"({sim.rounds_per_second:,.0f} rounds/s); exact analysis {sim.seconds_exact:.1f} s", err=True)


if __name__ == "__main__":  # pragma: no cover
    main()
