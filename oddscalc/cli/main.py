"""Command line: parse, call the analysis, render, write. User errors never show a traceback.

Exit codes: 0 ok · 1 internal error (a bug: traceback shown) · 2 usage (click) ·
3 bad table, strategy card or profile file · 4 bad option or input · 5 verification mismatch ·
6 a compliance check fails · 130 interrupted.
Errors become exit codes in one place (:class:`Commands`); options shared by several commands are defined once,
in ``cli.options``. This module holds the group and ``report``; the other commands live by concern and are
registered here, each module listing its ``COMMANDS``: ``cli.tools`` (tables, validate, verify, compare, solve,
check, hold, profiles, simulate), ``cli.protection`` (exposure, counting, collusion, flash) and ``cli.seats``
(seats, proof). What a command offers or refuses for a game comes from the game's declaration
(``oddscalc/games/<game>/capabilities.py``), never from its key.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from oddscalc import __version__
from oddscalc.cards import CardError
from oddscalc.cli import ev, protection, seats, serve, tools
from oddscalc.cli.options import (
    EXIT_CHECK,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_MISMATCH,
    EXIT_TABLE,
    Failure,
    decks_option,
    fresh_option,
    game_argument,
    load_profiles,
    open_session,
    pay_warnings,
    players_option,
    profile_option,
    show_progress,
    strategy_option,
    table_option,
    table_path,
    warn,
    with_checks,
    write_output,
)
from oddscalc.files import forget_reads
from oddscalc.protocol import OptionError

__all__ = ["EXIT_CHECK", "EXIT_INPUT", "EXIT_INTERRUPTED", "EXIT_MISMATCH", "EXIT_TABLE", "Commands", "Failure", "main"]


def _fail(message: str, code: int) -> None:
    click.echo(f"oddscalc: {message}", err=True)
    sys.exit(code)


def _showable_streams() -> None:
    """Standard output and error print what their encoding cannot hold as a backslash escape (``\\u20ac`` for a
    euro sign under an ISO-8859-1 locale), never a UnicodeEncodeError: a table's title or currency is any text.
    Files written with ``-o`` are UTF-8 whatever the locale (``write_output``)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # a text stream: not one a caller swapped for another
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


class Commands(click.Group):
    """The oddscalc group: every user error of every command becomes its exit code here."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line, its output streams set up first (so usage errors and help are covered too)."""
        _showable_streams()
        return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command, mapping user errors to exit codes."""
        forget_reads()  # what an earlier command in this process read is not this one's input
        try:
            return super().invoke(ctx)
        except (OptionError, CardError) as e:
            _fail(str(e), EXIT_INPUT)
        except Failure as e:
            _fail(str(e), e.code)
        except KeyboardInterrupt:
            click.echo("Aborted!", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except Exception as e:
            from oddscalc.datafile import TableError  # loaded already if a table was read: the fast paths never need it

            if isinstance(e, TableError):
                _fail(f"bad {e.what}:\n{e}", EXIT_TABLE)
            raise


@click.group(cls=Commands)
@click.version_option(__version__, prog_name="oddscalc")
def main() -> None:
    """Exact combinatorial odds for casino table card games."""


@main.command()
@game_argument
@table_option
@click.option("--format", "fmt", type=click.Choice(["md", "csv", "json", "html", "xlsx", "pdf"]), default="md",
              show_default=True, help="md, csv and json are text; html, xlsx and pdf are documents for a filing.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write here instead of standard output.")
@strategy_option
@decks_option
@players_option
@click.option("--symbolic", is_flag=True,
              help="Add each wager's EV as an exact expression in its pays, and each pay's sensitivity.")
@profile_option
@fresh_option
def report(game: str, table_ref: str | None, fmt: str, output: Path | None, strategy: str | None,
           decks: int | None, players: int | None, symbolic: bool, profile_refs: tuple[str, ...], fresh: bool) -> None:
    """Exact pay-table report for GAME."""
    from oddscalc import replay
    from oddscalc.files import is_path

    profiles = load_profiles(profile_refs)
    if fmt in DOCUMENTS:
        _document(game, table_ref, fmt, output, strategy, decks, players, symbolic, profiles, fresh)
        return
    request = {"format": fmt, "strategy": strategy, "decks": decks, "players": players, "symbolic": symbolic}
    card = (Path(strategy),) if strategy and is_path(strategy) else ()
    # a profile's verdict sets the exit code, so a run with one is always settled, never replayed
    key = None if fresh or profiles else replay.key(game, table_path(game, table_ref), request, card)
    text = replay.lookup(key) if key is not None else None
    failed = 0
    if text is None:
        from oddscalc.report import RENDERERS

        analysis = open_session(game, strategy, decks, players, brief=False, fresh=fresh).analyze(table_ref)
        if symbolic:
            from oddscalc.filing.paytools import with_symbolic

            analysis = with_symbolic(analysis)
        analysis, failed = with_checks(analysis, profiles)
        text = RENDERERS[fmt](analysis)
        warnings = pay_warnings(analysis)
        warn(warnings)
        if key is not None and not warnings:  # a report that warns is settled every time, so it warns every time
            replay.keep(key, text)
    if output is None:
        click.echo(text, nl=False)
    else:
        write_output(output, text, protect=(table_path(game, table_ref),))
    if failed:
        raise Failure(f"{failed} compliance check(s) fail (see the report's compliance section)", EXIT_CHECK)


DOCUMENTS = ("html", "xlsx", "pdf")


def _document(game: str, table_ref: str | None, fmt: str, output: Path | None, strategy: str | None,
              decks: int | None, players: int | None, symbolic: bool, profiles: list[Any], fresh: bool) -> None:
    """A report as a filing document: HTML and PDF with the game's charts, or an xlsx workbook."""
    if output is None and fmt != "html" and sys.stdout.isatty():
        raise Failure(f"--format {fmt} is a binary file: write it with -o FILE (or redirect standard output)",
                      EXIT_INPUT)
    from oddscalc.filing import document

    session = open_session(game, strategy, decks, players, brief=False, fresh=fresh)
    analysis = session.analyze(table_ref)
    warn(pay_warnings(analysis))
    if symbolic:
        from oddscalc.filing.paytools import with_symbolic

        analysis = with_symbolic(analysis)
    analysis, failed = with_checks(analysis, profiles)
    analysis = document.compose(session, analysis, table_ref, show_progress())
    data: str | bytes
    if fmt == "xlsx":
        from oddscalc.report.xlsx import render_xlsx

        data = render_xlsx(analysis)
    elif fmt == "html":
        from oddscalc.report.html import render_html

        data = render_html(analysis, document.charts(session, analysis))
    else:
        from oddscalc.report.pdf import render_pdf

        data = render_pdf(analysis, document.charts(session, analysis))
    if output is not None:
        write_output(output, data, protect=(table_path(game, table_ref),))
    elif isinstance(data, str):
        click.echo(data, nl=False)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    if failed:
        raise Failure(f"{failed} compliance check(s) fail (see the report's compliance section)", EXIT_CHECK)


for _command in (*tools.COMMANDS, *protection.COMMANDS, *seats.COMMANDS, *ev.COMMANDS, *serve.COMMANDS):
    main.add_command(_command)


if __name__ == "__main__":  # pragma: no cover
    main()
