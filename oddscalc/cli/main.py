"""Command line: parse, call the analysis, render, write. User errors never show a traceback.

Exit codes: 0 ok · 1 internal error (a bug: traceback shown) · 2 usage (click) ·
3 bad table, strategy card or profile file · 4 bad option or input · 5 verification mismatch ·
6 a compliance check fails · 130 interrupted.
Errors become exit codes in one place (:class:`Commands`); options shared by several commands are defined once,
in ``cli.options``. This module holds the group and ``report``; the other commands live by concern and are
registered here by name (:data:`LAZY`), each module listing its ``COMMANDS``: ``cli.tools`` (tables, validate,
verify, compare, solve, check, hold, profiles, simulate), ``cli.protection`` (exposure, counting, collusion, flash),
``cli.information`` (glimpse: what seeing cards is worth), ``cli.seats`` (seats, proof), ``cli.ev`` (ev: what a hand
is worth), ``cli.card`` (card: a strategy card synthesised), ``cli.midcoup`` (midcoup: mid-coup tables),
``cli.serve`` (serve: the web workbench), ``cli.housekeeping`` (cache) and ``cli.audit`` (audit: hand logs). A
command's module is imported only when that command runs or help lists it (click's lazy group), so a cold
``report`` does not import the other modules and what they import. What a command offers or refuses for a game
comes from the game's declaration (``oddscalc/games/<game>/capabilities.py``), never from its key.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from oddscalc import __version__
from oddscalc.cards import CardError
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

if TYPE_CHECKING:
    from oddscalc.report.document import Prepared

__all__ = ["EXIT_CHECK", "EXIT_INPUT", "EXIT_INTERRUPTED", "EXIT_MISMATCH", "EXIT_TABLE", "LAZY", "Commands", "Failure",
           "main"]

# Each command registered here by name with the module that defines it (in its ``COMMANDS``), imported the first time
# the command is asked for: importing every command module up front cost a cold ``report`` about a tenth of a second
# (the seats, audit, tools and protection commands and what they import). tests/cli/test_lazy.py holds this list to
# the modules' own ``COMMANDS``.
LAZY: dict[str, str] = {
    **dict.fromkeys(("check", "hold", "profiles", "tables", "validate", "verify", "compare", "solve", "simulate"),
                    "oddscalc.cli.tools"),
    **dict.fromkeys(("exposure", "counting", "collusion", "flash"), "oddscalc.cli.protection"),
    "glimpse": "oddscalc.cli.information",
    **dict.fromkeys(("seats", "proof"), "oddscalc.cli.seats"),
    "ev": "oddscalc.cli.ev",
    "card": "oddscalc.cli.card",
    "serve": "oddscalc.cli.serve",
    "cache": "oddscalc.cli.housekeeping",
    "midcoup": "oddscalc.cli.midcoup",
    "audit": "oddscalc.cli.audit",
}


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
    """The oddscalc group: every user error of every command becomes its exit code here. Commands named in
    :data:`LAZY` are loaded from their module when first asked for (click's documented lazy group)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, sorted as click sorts them, without importing any command module."""
        return sorted({*self.commands, *LAZY})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command named ``cmd_name`` (its module imported now if it is a lazy one), or None."""
        if cmd_name not in self.commands and cmd_name in LAZY:
            for command in importlib.import_module(LAZY[cmd_name]).COMMANDS:
                self.add_command(command)
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """The command ``args`` names; for a name that is none, click's usage error suggests the close ones among
        every command (click draws them from the loaded commands only: all are loaded first, on this error path)."""
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand:
            self.loaded()
            return super().resolve_command(ctx, args)

    def loaded(self) -> dict[str, click.Command]:
        """Every command by name, each lazy module imported (for a caller that walks them all: help, tests)."""
        ctx = click.Context(self)
        return {name: command for name in self.list_commands(ctx) if (command := self.get_command(ctx, name))}

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line, its output streams set up first (so usage errors and help are covered too)."""
        _showable_streams()
        given = kwargs.get("args", args[0] if args else None)
        # a NUL cannot come from a shell (argv is C strings), only from a caller in process (the API, a test); the
        # operating system refuses it in every file name, so refused here once rather than wherever a path is used
        if given is not None and any("\x00" in str(a) for a in given):
            _fail("an argument holds a NUL byte (\\x00), which no file name, id or value may hold", EXIT_INPUT)
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
@click.option("--prepared-by", metavar="TEXT",
              help="Who prepared the document (md, html, xlsx, pdf): printed with its date.")
@click.option("--prepared-for", metavar="TEXT", help="For whom the document was prepared (md, html, xlsx, pdf).")
def report(game: str, table_ref: str | None, fmt: str, output: Path | None, strategy: str | None,
           decks: int | None, players: int | None, symbolic: bool, profile_refs: tuple[str, ...], fresh: bool,
           prepared_by: str | None, prepared_for: str | None) -> None:
    """Exact pay-table report for GAME."""
    from oddscalc import replay
    from oddscalc.files import is_path

    prepared = _prepared(fmt, prepared_by, prepared_for)
    profiles = load_profiles(profile_refs)
    if fmt in DOCUMENTS:
        _document(game, table_ref, fmt, output, strategy, decks, players, symbolic, profiles, fresh, prepared)
        return
    request = {"format": fmt, "strategy": strategy, "decks": decks, "players": players, "symbolic": symbolic}
    card = (Path(strategy),) if strategy and is_path(strategy) else ()
    # a profile's verdict sets the exit code, so a run with one is always settled, never replayed; nor is a report
    # that carries its date; with the store off there is nothing to look up or keep, so no key (it digests every
    # source file of the package: tens of milliseconds of a cold run)
    stored = not (fresh or profiles or prepared) and replay.folder() is not None
    key = replay.key(game, table_path(game, table_ref), request, card) if stored else None
    text = replay.lookup(key) if key is not None else None
    failed = 0
    if text is None:
        from oddscalc.report import RENDERERS

        analysis = open_session(game, strategy, decks, players, brief=False, fresh=fresh).analyze(table_ref)
        if symbolic:
            from oddscalc.filing.paytools import with_symbolic

            analysis = with_symbolic(analysis)
        analysis, failed = with_checks(analysis, profiles)
        if prepared is not None:
            from oddscalc.report.markdown import render_markdown

            text = render_markdown(analysis, prepared)
        else:
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
PREPARED_FORMATS = ("md", "html", "xlsx", "pdf")  # the formats that print when, by and for whom a document was prepared
MOST_PREPARED = 300  # characters of --prepared-by or --prepared-for: a name or two, an organisation, an address
_SURROGATE = re.compile("[\ud800-\udfff]")  # bytes a file system's encoding could not decode, as click passes them


def _prepared(fmt: str, by: str | None, for_whom: str | None) -> Prepared | None:
    """When, by and for whom the document is prepared: always for HTML and PDF (a
    filing carries its date); for Markdown only when --prepared-by or --prepared-for is given (a Markdown report
    stays the same text from day to day otherwise); for the workbook, which is dated anyway, the block's people;
    never for CSV or JSON, which refuse the options."""
    given = {"--prepared-by": by, "--prepared-for": for_whom}
    said = [name for name, value in given.items() if value is not None]
    if said and fmt not in PREPARED_FORMATS:
        raise OptionError(f"{' and '.join(said)}: --format {fmt} carries no prepared-by block; use "
                          f"--format {', '.join(PREPARED_FORMATS[:-1])} or {PREPARED_FORMATS[-1]}")
    texts = {}
    for name, value in given.items():
        text = _SURROGATE.sub("\ufffd", value or "").strip()
        if len(text) > MOST_PREPARED:
            raise OptionError(f"{name}: {len(text):,} characters; at most {MOST_PREPARED} (a name, an organisation)")
        texts[name] = text
    if (fmt == "md" and not said) or fmt not in PREPARED_FORMATS:
        return None
    from oddscalc.report.dates import made_at
    from oddscalc.report.document import Prepared

    return Prepared(made_at(), texts["--prepared-by"], texts["--prepared-for"])


def _document(game: str, table_ref: str | None, fmt: str, output: Path | None, strategy: str | None,
              decks: int | None, players: int | None, symbolic: bool, profiles: list[Any], fresh: bool,
              prepared: Prepared | None = None) -> None:
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

        data = render_xlsx(analysis, prepared)
    elif fmt == "html":
        from oddscalc.report.html import render_html

        data = render_html(analysis, document.charts(session, analysis), prepared)
    else:
        from oddscalc.report.pdf import render_pdf

        data = render_pdf(analysis, document.charts(session, analysis), prepared)
    if output is not None:
        write_output(output, data, protect=(table_path(game, table_ref),))
    elif isinstance(data, str):
        click.echo(data, nl=False)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    if failed:
        raise Failure(f"{failed} compliance check(s) fail (see the report's compliance section)", EXIT_CHECK)


if __name__ == "__main__":  # pragma: no cover
    main()
