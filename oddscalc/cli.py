"""Command line: parse, call analyze(), render, write. User errors never show a traceback.

Exit codes: 0 ok · 1 internal error (a bug: traceback shown) · 2 usage (click) ·
3 bad table file · 4 bad option or input · 5 verification mismatch.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import __version__
from .cards import CardError

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
def report(game: str, table_ref: str | None, fmt: str, output: Path | None, strategy: str | None,
           decks: int | None, players: int | None) -> None:
    """Exact pay-table report for GAME."""
    from .games import GAMES, OptionError, RunOptions
    from .report import RENDERERS
    from .tables import TableError, resolve_table

    g = GAMES[game]
    given = {"strategy": strategy, "decks": decks, "players": players}
    for name, value in given.items():
        if value is not None and name not in g.options:
            _fail(f"--{name} does not apply to {game}", EXIT_INPUT)
    try:
        table = resolve_table(game, table_ref)
        opts = RunOptions(strategy=strategy, decks=decks, players=players, progress=sys.stderr.isatty())
        analysis = g.analyze(table, opts)
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


if __name__ == "__main__":  # pragma: no cover
    main()
