"""The command line's shared parts: exit codes, errors, the options several commands take, and helpers.

Every command module builds on this one; ``cli`` maps errors to exit codes in one place.
"""

from __future__ import annotations

import errno
import math
import os
import stat
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from oddscalc.cards import MAX_DECKS
from oddscalc.files import read_here, real_path, write_atomic
from oddscalc.games import DECLARED, DEFAULT_TABLES, GAME_KEYS, supporting
from oddscalc.protocol import Capabilities, OptionError

EXIT_TABLE = 3
EXIT_INPUT = 4
EXIT_MISMATCH = 5
EXIT_CHECK = 6
EXIT_INTERRUPTED = 130

F = TypeVar("F", bound=Callable[..., Any])


class Failure(Exception):
    """A command's own failure with its exit code (a verification mismatch, a bad output path)."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


# --- numbers in options ---------------------------------------------------------------------------------

def _ascii(kind: Any, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> None:
    # Python reads any script's digits ("\u0663" is 3); a file refuses them, and so does an option
    if isinstance(value, str) and not value.isascii():
        kind.fail(f"{value!r} is not a number written in the digits 0-9", param, ctx)


class Whole(click.IntRange):
    """An integer option within bounds (both required: no option takes an unbounded count), in ASCII digits."""

    def __init__(self, low: int, high: int):
        super().__init__(low, high)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The integer, or a usage error (exit 2) for another script's digits or a value out of bounds."""
        _ascii(self, value, param, ctx)
        return super().convert(value, param, ctx)


class Real(click.types.FloatParamType):
    """A finite decimal option in ASCII digits: nan and the infinities are no figure a study can reach."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The float, or a usage error (exit 2)."""
        _ascii(self, value, param, ctx)
        x = super().convert(value, param, ctx)
        if not math.isfinite(x):
            self.fail(f"{value} is not a finite number", param, ctx)
        return x


SEED = Whole(0, 2**63 - 1)  # a random generator's seed: numpy's SeedSequence takes any non-negative integer


# --- options shared by several commands ---------------------------------------------------------------

class GameChoice(click.Choice):  # type: ignore[type-arg]
    """A game key; with ``analysis`` (a field of the games' declarations: counting, collusion, flash, seats) only a
    game that declares it: any other registered game is refused as a usage error naming those that do."""

    def __init__(self, analysis: str | None = None, command: str | None = None):
        self.analysis, self.command = analysis, command or analysis
        super().__init__(supporting(analysis) if analysis else GAME_KEYS)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The game key, or a usage error (exit 2) saying which games the command applies to."""
        if self.analysis is not None and value not in self.choices:
            said = "does not apply to" if value in GAME_KEYS else "is for a game; not a game:"
            guess = "" if value in GAME_KEYS else _guess(value, self.choices)
            self.fail(f"{self.command} {said} {value!r}{guess}; it applies to {', '.join(self.choices)}", param, ctx)
        if isinstance(value, str) and value not in GAME_KEYS:
            games = ", ".join(self.choices)
            self.fail(f"{value!r} is not a game{_guess(value, GAME_KEYS)}; the games: {games}", param, ctx)
        return super().convert(value, param, ctx)


def _guess(value: Any, keys: Sequence[str]) -> str:
    """" (did you mean 'house-baccarat'?)" for a name close to one of ``keys`` (nothing for a name close to none)."""
    import difflib

    close = difflib.get_close_matches(str(value).lower(), list(keys), n=2, cutoff=0.5)
    return f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""


game_argument = click.argument("game", type=GameChoice(), metavar="GAME")


def game_for(analysis: str, command: str | None = None) -> Callable[[F], F]:
    """The GAME argument of a command that only the games declaring ``analysis`` support."""
    return click.argument("game", type=GameChoice(analysis, command), metavar="GAME")


def declared(game: str) -> Capabilities:
    """What applies to ``game``: its declaration."""
    return DECLARED[game]


def refuse_unless(option: str, applies: bool, to: Callable[[Capabilities], bool], game: str) -> None:
    """Refuse ``option`` given for ``game`` when it does not apply to it (not ``applies``), naming the games whose
    declarations ``to`` accepts."""
    if not applies:
        which = [key for key, c in DECLARED.items() if to(c)]
        raise OptionError(f"{option} does not apply to {game}; it applies to {', '.join(which) or 'no game'}")


def table_path(game: str, ref: str | None) -> Path:
    """The file a table reference names (whether or not it exists: reading it reports that)."""
    from oddscalc.catalog import tables_dir
    from oddscalc.files import is_path

    ident = ref if ref is not None else DEFAULT_TABLES[game]
    return Path(ident) if is_path(ident) else tables_dir() / game / f"{ident}.toml"


def _ids_then_files(files: Sequence[Path], incomplete: str) -> list[Any]:
    """Completions: the ids (file stems) that begin with ``incomplete``, then the shell's own file completion."""
    from click.shell_completion import CompletionItem

    ids = sorted({p.stem for p in files if p.stem.startswith(incomplete)})
    return [CompletionItem(i) for i in ids] + [CompletionItem(incomplete, type="file")]


def complete_tables(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of --table: the shipped ids of the game given (every game's before one is), then files."""
    from oddscalc.catalog import shipped_tables

    game = ctx.params.get("game")
    return _ids_then_files(shipped_tables(game if game in GAME_KEYS else None), incomplete)


def complete_profiles(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of --profile: the shipped profiles' ids, then files."""
    from oddscalc.catalog import profiles_dir

    return _ids_then_files(sorted(profiles_dir().glob("*.toml")), incomplete)


def table_option(f: F) -> F:
    """--table ID|PATH."""
    return click.option("--table", "table_ref", metavar="ID|PATH", shell_complete=complete_tables,
                        help="Shipped table id, or a path to a table file (contains a / or ends in .toml); "
                             "default: the game's default table.")(f)


def strategy_option(f: F) -> F:
    """--strategy NAME."""
    return click.option("--strategy", help="Named strategy, or a strategy card file (a path: caribbean, "
                                           "let-it-ride, house-baccarat); overrides the table's.")(f)


def decks_option(f: F) -> F:
    """--decks N."""
    return click.option("--decks", type=Whole(1, MAX_DECKS),
                        help="Number of decks in the shoe (baccarat games).")(f)


def players_option(f: F) -> F:
    """--players N."""
    return click.option("--players", type=Whole(1, 7), help="Players at the table (house-baccarat).")(f)


def profile_option(f: F) -> F:
    """--profile ID|PATH (repeatable)."""
    return click.option("--profile", "profile_refs", multiple=True, metavar="ID|PATH",
                        shell_complete=complete_profiles,
                        help="Compliance profile: a shipped id (oddscalc profiles) or a file; repeat for more. "
                             "Exit 6 when a rule fails.")(f)


def load_profiles(refs: tuple[str, ...]) -> list[Any]:
    """The compliance profiles that --profile names (shipped ids or files)."""
    if not refs:  # a replayed report never loads the profile machinery
        return []
    from oddscalc.catalog import profile_path
    from oddscalc.filing.compliance import load_profile

    out = []
    for ref in refs:
        try:
            path = profile_path(ref)
        except ValueError as e:
            raise OptionError(f"--profile: {e}") from None
        if not path.exists() and not Path(ref).exists():
            from oddscalc.catalog import profiles_dir

            known = ", ".join(sorted(p.stem for p in profiles_dir().glob("*.toml")))
            raise OptionError(f"--profile {ref!r}: no such profile file or shipped id; shipped: {known}")
        out.append(load_profile(path))
    return out


def pay_warnings(analysis: Any) -> str:
    """The warnings of pays that do not rise with their hand's rarity (``filing.paytools.out_of_order``), one line
    each naming the table file and the key, for standard error ("" when there are none)."""
    from oddscalc.filing.paytools import out_of_order

    return "".join(f"warning: {analysis.table.path}: {line}\n" for line in out_of_order(analysis))


def warn(text: str) -> None:
    """Print warnings on standard error: they change no exit code."""
    if text:
        click.echo(text, err=True, nl=False)


def with_checks(analysis: Any, profiles: list[Any]) -> tuple[Any, int]:
    """The analysis with each profile's section, and how many checks fail."""
    if not profiles:  # most runs: the compliance module (tens of milliseconds to import) is not needed
        return analysis, 0
    from oddscalc.filing.compliance import FAIL, with_profile

    failed = 0
    for p in profiles:
        analysis, _ = with_profile(analysis, p)
        failed += sum(1 for r in analysis.sections[-1].records() if r["verdict"] == FAIL)
    return analysis, failed


def scheduler_option(f: F) -> F:
    """--scheduler ADDRESS|local and --workers N."""
    f = click.option("--workers", type=Whole(1, 1024),
                     help="Workers of a local cluster (--scheduler local); default: one per core.")(f)
    return scheduler_only(f)


def scheduler_only(f: F) -> F:
    """--scheduler ADDRESS|local alone, for a command whose --workers means more than a local cluster's."""
    return click.option("--scheduler", metavar="ADDRESS|local",
                        help="Run on a dask.distributed cluster: a scheduler address, or 'local' for a LocalCluster "
                             "here (default: ODDSCALC_SCHEDULER, else in this process).")(f)


def fresh_option(f: F) -> F:
    """--no-cache (or --fresh)."""
    return click.option("--no-cache", "--fresh", "fresh", is_flag=True,
                        help="Count everything from nothing; read nothing from the on-disk store.")(f)


def show_progress() -> bool:
    """Progress bars go to stderr only when it is a terminal."""
    return sys.stderr.isatty()


def parse_reduced_deck(text: str | None, game: str) -> Any:
    """--reduced-deck RANK:SUITS as a deck (None: the full deck), for a game whose collusion plays one."""
    if text is None:
        return None
    from oddscalc.cards import RANK_CHARS, reduced_deck

    collusion = declared(game).collusion
    refuse_unless("--reduced-deck", collusion is not None and collusion.reduced_decks,
                  lambda c: c.collusion is not None and c.collusion.reduced_decks, game)
    rank, _, suits = text.partition(":")
    if rank.upper() not in RANK_CHARS[:-1] or suits not in ("1", "2", "3", "4"):
        raise OptionError(f"--reduced-deck {text!r}: give the lowest rank (2-K) and the suits (1-4), e.g. T:3")
    return reduced_deck(rank, int(suits))


def open_session(game: str, strategy: str | None = None, decks: int | None = None, players: int | None = None,
             brief: bool = True, fresh: bool = False, deck: Any = None) -> Any:
    """An analysis session for ``game`` with the command's options, on the default store."""
    from oddscalc.analysis import Session
    from oddscalc.cache import Store
    from oddscalc.results import RunOptions

    options = RunOptions(strategy=strategy, decks=decks, players=players, progress=show_progress(), brief=brief,
                         deck=deck)
    return Session(game, options, Store.default(fresh=fresh))


def write_output(output: Path, text: str | bytes, protect: tuple[Path, ...] = ()) -> None:
    """Write a report: a file atomically, through a symbolic link to the file it names (the link stays); a
    terminal, /dev/null or a pipe by writing to it, never by putting a file in its place; never over a file the
    command reads (its table, strategy card, profiles, or ``protect``), whatever the option that names it."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        mode = os.stat(output).st_mode  # through links
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise Failure(f"cannot write {output}: {e.strerror or e}", EXIT_INPUT) from None
    if mode is not None and not stat.S_ISREG(mode):
        if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
            raise Failure(f"cannot write {output}: not a file, a terminal or a pipe", EXIT_INPUT)
        _write_stream(output, data, stat.S_ISFIFO(mode))
        return
    target = real_path(output)
    if read_here(target) or any(target == real_path(p) for p in protect):
        raise Failure(f"{output} is a file this command reads (a table, a strategy card, a profile); write the "
                      "output elsewhere", EXIT_INPUT)
    try:
        write_atomic(target, data, mode=stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
    except OSError as e:
        raise Failure(f"cannot write {output}: {e.strerror or e}", EXIT_INPUT) from None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write_stream(output: Path, data: bytes, pipe: bool) -> None:
    """Write to a device or a pipe; a pipe nobody reads is refused rather than waited on."""
    try:
        fd = os.open(output, os.O_WRONLY | (os.O_NONBLOCK if pipe else 0))
    except OSError as e:
        why = "a pipe with no reader" if pipe and e.errno == errno.ENXIO else e.strerror or str(e)
        raise Failure(f"cannot write {output}: {why}", EXIT_INPUT) from None
    try:
        os.set_blocking(fd, True)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    except OSError as e:
        raise Failure(f"cannot write {output}: {e.strerror or e}", EXIT_INPUT) from None


sections_format = click.option("--format", "fmt", type=click.Choice(["md", "csv", "json"]), default="md",
                               show_default=True, help="Markdown, CSV (a line per cell) or JSON (exact values).")
# the same formats for a command whose readable output is plain text (verify's verdict table, solve's steps)
text_format = click.option("--format", "fmt", type=click.Choice(["md", "csv", "json"]), default="md",
                           show_default=True, help="md: the text the command prints (plain text); CSV (a line per "
                                                   "cell) or JSON (exact values): its figures as data.")


def output_option(f: F) -> F:
    """-o/--output FILE."""
    return click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
                        help="Write here instead of standard output (never over a file the command reads).")(f)


def emit(text: str, output: Path | None, protect: tuple[Path, ...] = ()) -> None:
    """Text on standard output, or written to ``output`` (``write_output``: never over an input, nor ``protect``)."""
    if output is None:
        click.echo(text, nl=False)
    else:
        write_output(output, text, protect)


def table_meta(game: str, table: Any) -> dict[str, str]:
    """The fields naming a table in a question's CSV and JSON: the report's own (``game``, ``table``,
    ``table_sha256``)."""
    return {"game": game, "table": table.id, "table_sha256": table.sha256}


def echo_sections(sections: list[Any], fmt: str, heading: str, game: str, table: Any, output: Path | None = None,
                  protect: tuple[Path, ...] = ()) -> None:
    """A question's sections on stdout (or in ``output``) as Markdown, CSV or JSON."""
    from oddscalc.report.sections import render_sections

    emit(render_sections(sections, fmt, f"{heading}: {table.title} ({game}/{table.id})", table_meta(game, table)),
         output, protect)


