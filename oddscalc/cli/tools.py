"""The command line's tools around a report: the tables (tables, validate, verify), the pay table's design (compare,
solve), a filing's figures (check, hold, profiles) and the Monte Carlo check (simulate). Registered on the group in
``cli.main`` (:data:`COMMANDS`)."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from oddscalc.cards import CardError
from oddscalc.cli.options import (
    EXIT_CHECK,
    EXIT_INPUT,
    EXIT_MISMATCH,
    EXIT_TABLE,
    SEED,
    Failure,
    GameChoice,
    Whole,
    complete_profiles,
    decks_option,
    emit,
    fresh_option,
    game_argument,
    load_profiles,
    open_session,
    output_option,
    pay_warnings,
    players_option,
    sections_format,
    show_progress,
    strategy_option,
    table_meta,
    table_option,
    table_path,
    text_format,
    warn,
    with_checks,
    write_output,
)
from oddscalc.protocol import OptionError

if TYPE_CHECKING:
    from oddscalc.filing.paytools import Solution
    from oddscalc.results import Check, Section


@click.command()
@game_argument
@table_option
@click.option("--profile", "profile_refs", multiple=True, required=True, metavar="ID|PATH",
              shell_complete=complete_profiles,
              help="Compliance profile: a shipped id (oddscalc profiles) or a file; repeat for more.")
@strategy_option
@decks_option
@players_option
@sections_format
@output_option
@fresh_option
def check(game: str, table_ref: str | None, profile_refs: tuple[str, ...], strategy: str | None, decks: int | None,
          players: int | None, fmt: str, output: Path | None, fresh: bool) -> None:
    """Check a table against compliance profiles: each rule, its exact figure, pass or FAIL (exit 6 on a FAIL,
    whatever the format)."""
    from oddscalc.report.markdown import literal, section_markdown
    from oddscalc.report.sections import render_sections

    profiles = load_profiles(profile_refs)
    analysis = open_session(game, strategy, decks, players, fresh=fresh).analyze(table_ref)
    checked, failed = with_checks(analysis, profiles)
    found = checked.sections[len(analysis.sections):]
    where = f"({game}/{analysis.table.id})"
    text = (f"# {literal(analysis.table.title)} {where}\n\n" + "".join(f"{section_markdown(s)}\n" for s in found)
            if fmt == "md" else render_sections(found, fmt, f"{analysis.table.title} {where}",
                                                table_meta(game, analysis.table)))
    emit(text, output, _inputs(game, table_ref, strategy))
    if failed:
        raise Failure(f"{failed} compliance check(s) fail", EXIT_CHECK)


@click.command()
@game_argument
@table_option
@click.option("--stake", "stakes", multiple=True, metavar="WAGER=AMOUNT",
              help="A seat's stake on a wager, in money (e.g. main=5 jackpot=0.50); two wagers a seat plays "
                   "together add a row for the seat's combined stake.")
@strategy_option
@decks_option
@players_option
@sections_format
@output_option
@fresh_option
def hold(game: str, table_ref: str | None, stakes: tuple[str, ...], strategy: str | None, decks: int | None,
         players: int | None, fmt: str, output: Path | None, fresh: bool) -> None:
    """Expected hold and its 95% and 99% bands after 10^3 .. 10^8 rounds, per wager and per seat."""
    from oddscalc.exact import parse_fraction
    from oddscalc.filing import hold as holds
    from oddscalc.report.markdown import section_markdown
    from oddscalc.report.sections import render_sections

    analysis = open_session(game, strategy, decks, players, fresh=fresh).analyze(table_ref)
    money: dict[str, Any] = {}
    for item in stakes:
        name, _, amount = item.partition("=")
        try:
            value = parse_fraction(amount)
        except ValueError:
            value = Fraction(0)
        if name not in [w.wager for w in analysis.wagers] or value <= 0:
            raise OptionError(f"--stake {item!r}: write WAGER=AMOUNT with a wager of this table "
                              f"({', '.join(w.wager for w in analysis.wagers)}) and an amount above 0")
        if name in money:
            raise OptionError(f"--stake {item!r}: the stake on {name} is given twice; give each wager's once")
        money[name] = value
    seats = [(a, b, money[a], money[b]) for a, b in analysis.joint if a in money and b in money]
    if money and not seats:
        pairs = ", ".join(f"{a} and {b}" for a, b in analysis.joint) or "none"
        raise OptionError(f"--stake: no two of these wagers are played together by a seat; joint wagers: {pairs}")
    section = holds.section(holds.subjects_of(analysis, seats))
    text = section_markdown(section) if fmt == "md" else render_sections(
        [section], fmt, f"Hold: {analysis.table.title} ({game}/{analysis.table.id})", table_meta(game, analysis.table))
    emit(text, output, _inputs(game, table_ref, strategy))


def _inputs(game: str, table_ref: str | None, strategy: str | None) -> tuple[Path, ...]:
    """The files a command on one table reads beside its profiles (which ``write_output`` knows): the table, and
    the strategy card when ``strategy`` names a file."""
    from oddscalc.files import is_path

    return (table_path(game, table_ref), *((Path(strategy),) if strategy and is_path(strategy) else ()))


@click.command()
def profiles() -> None:
    """The shipped compliance profiles: id, title, source."""
    from oddscalc.catalog import profiles_dir
    from oddscalc.filing.compliance import load_profile

    for path in sorted(profiles_dir().glob("*.toml")):
        p = load_profile(path)
        click.echo(f"{p.id}\t{p.model.title}\t{p.model.source}")


@click.command()
@click.argument("args", nargs=-1, metavar="[GAME] | copy [GAME/]ID FILE")
@click.pass_context
def tables(ctx: click.Context, args: tuple[str, ...]) -> None:
    """List the shipped tables (game, id, title), or make a new table file from one: `tables copy us
    my-casino.toml` copies it without its [published] and [claimed] figures (they describe the shipped table),
    and never over an existing file."""
    from oddscalc.catalog import load_table, shipped_tables
    from oddscalc.datafile import TableError

    if args[:1] == ("copy",):
        if len(args) != 3:
            raise OptionError("write: oddscalc tables copy ID FILE (e.g. oddscalc tables copy us my-casino.toml)")
        _copy_table(args[1], Path(args[2]))
        return
    if len(args) > 1:
        raise OptionError(f"one game at most, not {' '.join(args)!r} (or: oddscalc tables copy ID FILE)")
    game = GameChoice().convert(args[0], None, ctx) if args else None
    for path in shipped_tables(game):
        try:
            t = load_table(path)
            click.echo(f"{t.game:<15} {t.id:<20} {t.title}")
        except TableError as e:
            click.echo(f"{path.parent.name:<15} {path.stem:<20} (invalid: {len(e.problems)} problem(s))")


def _copy_table(ref: str, dest: Path) -> None:
    """Copy the shipped table ``ref`` (an id, or game/id when two games have it) to ``dest`` without its figures."""
    import os

    from oddscalc.catalog import load_table, shipped_tables
    from oddscalc.tables import rules_and_pays_sha256, without_figures

    game, _, ident = ref.rpartition("/")
    found = [p for p in shipped_tables() if p.stem == ident and game in ("", p.parent.name)]
    if len(found) != 1:
        known = ", ".join(f"{p.parent.name}/{p.stem}" for p in (found or shipped_tables()))
        raise OptionError(f"{'ambiguous' if found else 'no shipped'} table {ref!r}; "
                          f"{'say which' if found else 'shipped'}: {known}")
    source = load_table(found[0])
    text = (f"# Made by oddscalc tables copy from the shipped table {found[0].parent.name}/{ident} (sha256 "
            f"{source.sha256}),\n# without its published figures: they describe that table.\n"
            + without_figures(found[0].read_text(encoding="utf-8")))
    try:
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # never over a file, even one made just now
    except FileExistsError:
        raise OptionError(f"{dest} exists: oddscalc tables copy never overwrites a file; name another") from None
    except OSError as e:
        raise OptionError(f"cannot write {dest}: {e.strerror or e}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    copy = load_table(dest)  # what was written is the same table, figures left out
    assert rules_and_pays_sha256(copy.model) == rules_and_pays_sha256(source.model)
    assert copy.model.published is None and copy.model.claimed is None
    click.echo(f"{dest}: a copy of {found[0].parent.name}/{ident} without its published figures; change its pays "
               f"and title, then: oddscalc validate {dest}")


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
def validate(paths: tuple[Path, ...]) -> None:
    """Check table files and explain every problem.

    A file with [published] or [claimed] figures is also analysed, so that a figure no wager, event, section or
    cell of the analysis has is refused here, with its line and key, and never later by verify or report.
    """
    from oddscalc.catalog import load_table
    from oddscalc.datafile import TableError
    from oddscalc.verify import blocks, figure_problems

    bad = 0
    for p in paths:
        try:
            t = load_table(p)
            # analysed (brief) for the figures' names and for the pays' order against their hands' rarity
            analysis = open_session(t.game).analyze(t)
            if blocks(t):
                problems = figure_problems(t, analysis.checks)
                if problems:
                    raise TableError(problems)
            click.echo(f"{p}: ok ({t.game}, {t.title})")
            warn(pay_warnings(analysis))
        except TableError as e:
            bad += 1
            click.echo(str(e), err=True)
    if bad:
        raise Failure(f"{bad} of {len(paths)} table file(s) invalid", EXIT_TABLE)


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@text_format
@output_option
@fresh_option
def verify(paths: tuple[Path, ...], fmt: str, output: Path | None, fresh: bool) -> None:
    """Check the [published] and [claimed] figures of table files against the exact analysis.

    PATHS are table files or folders of them (default: every shipped table). Exits 5 when a
    figure does not hold or cannot be checked, 3 when a table file is invalid, whatever the format.
    """
    from oddscalc.catalog import load_table, shipped_tables, table_label
    from oddscalc.datafile import TableError
    from oddscalc.verify import blocks, describe_failure, render_checks, table_paths

    try:
        # by default the tables of every game: not the information models shipped beside them (tables/information)
        files = table_paths(list(paths) or shipped_tables())
    except ValueError as e:
        raise Failure(str(e), EXIT_INPUT) from None
    if not files:
        raise Failure("no table files to verify", EXIT_INPUT)
    sessions: dict[str, Any] = {}
    verified: list[tuple[str, Any, list[Check] | None]] = []  # each file: its label, table and checks (None: invalid)
    bad_tables: list[str] = []
    without: list[str] = []
    for path in files:
        try:
            table = load_table(path)
            if not blocks(table):
                without.append(table_label(table))
                verified.append((table_label(table), table, []))
                continue
            if table.game not in sessions:
                sessions[table.game] = open_session(table.game, fresh=fresh)
            verified.append((table_label(table), table, list(sessions[table.game].analyze(table).checks)))
        except TableError as e:
            bad_tables.append(str(path))
            verified.append((str(path), None, None))
            click.echo(str(e), err=True)
        except (OptionError, CardError) as e:
            bad_tables.append(str(path))
            verified.append((str(path), None, None))
            click.echo(f"{path}: {e}", err=True)
    checks = [c for _, _, found in verified for c in found or ()]
    failed = [c for c in checks if not c.ok]
    if fmt == "md":  # the verdict table as it always was
        text = (render_checks(checks, summary=True) if checks else "") + \
            (f"no [published] or [claimed] figures: {', '.join(without)}\n" if without else "")
    else:
        from oddscalc.report.sections import render_sections

        text = render_sections(_verified_sections(verified), fmt, "Published and claimed figures", {})
    emit(text, output, tuple(files))
    if bad_tables:
        raise Failure(f"{len(bad_tables)} table file(s) invalid: {', '.join(bad_tables)}", EXIT_TABLE)
    if failed:
        raise Failure(f"{len(failed)} figure(s) do not hold:\n" + "\n".join(describe_failure(c) for c in failed),
                      EXIT_MISMATCH)


def _verified_sections(verified: list[tuple[str, Any, list[Check] | None]]) -> list[Section]:
    """What verify found as data: each figure checked, in the words of the report's ``published_checks`` (block,
    wager, figure, stated, computed, verdict, note) beside the table's ``game``, ``table`` and ``table_sha256``
    and ``file`` (game/id when shipped, else its path); and each table file, with its figures and how many hold."""
    from oddscalc.results import NOT_COMPARED, Column, Section

    named = (Column("file", "Table file"), Column("game", "Game"), Column("table", "Table"),
             Column("table_sha256", "sha256"))
    figures = tuple(Column(c, c.replace("_", " ").capitalize()) for c in
                    ("block", "wager", "figure", "stated", "computed", "verdict", "note"))
    rows, files = [], []
    for label, table, found in verified:
        table_of = (label, None, None, None) if table is None else (label, table.game, table.id, table.sha256)
        rows += [(*table_of, c.block, c.wager, c.figure, c.expected, c.computed, c.verdict, c.message or None)
                 for c in found or ()]
        compared = [c for c in found or () if c.verdict != NOT_COMPARED]
        held = sum(c.ok for c in compared)
        verdict = ("invalid" if found is None else "no figures" if not found else "not compared" if not compared
                   else "all hold" if held == len(compared) else f"{len(compared) - held} do not hold")
        files.append((*table_of, len(compared), held, verdict))
    compared = [c for _, _, found in verified for c in found or () if c.verdict != NOT_COMPARED]
    return [Section("published_checks", "Published and claimed figures", (*named, *figures), tuple(rows),
                    notes=(f"{sum(c.ok for c in compared)} of {len(compared)} figure(s) hold",)),
            Section("tables_verified", "Table files", (*named, Column("figures", "Figures compared", "int"),
                                                       Column("hold", "Figures that hold", "int"),
                                                       Column("verdict", "Verdict")), tuple(files))]


@click.command()
@game_argument
@click.argument("tables", nargs=-1, required=True, metavar="TABLE TABLE...")
@click.option("--format", "fmt", type=click.Choice(["md", "csv", "json", "html", "xlsx", "pdf"]), default="md",
              show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write here instead of standard output.")
@strategy_option
@fresh_option
def compare(game: str, tables: tuple[str, ...], fmt: str, output: Path | None, strategy: str | None,
            fresh: bool) -> None:
    """Tables of GAME side by side (two or more): rule and pay differences, figures, changed rows, flipped
    decisions, against the first."""
    from oddscalc.filing.comparison import compare as compare_tables
    from oddscalc.report.tools import render_comparison

    if len(tables) < 2:
        raise OptionError("compare needs at least two tables")
    if output is None and fmt in ("xlsx", "pdf") and sys.stdout.isatty():
        raise Failure(f"--format {fmt} is a binary file: write it with -o FILE (or redirect standard output)",
                      EXIT_INPUT)
    session = open_session(game, strategy, fresh=fresh)
    data = render_comparison(compare_tables([session.analyze(t) for t in tables]), fmt)
    if output is not None:
        write_output(output, data, protect=tuple(table_path(game, t) for t in tables))
    elif isinstance(data, str):
        click.echo(data, nl=False)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()


@click.command()
@game_argument
@table_option
@click.option("--pay", "pay_name", required=True, help="The pay to solve for: 'royal_flush' or 'main.royal_flush'.")
@click.option("--edge", "edge_text", required=True,
              help="Target house edge: a fraction (1/20), decimal (0.05) or percent (5%).")
@strategy_option
@text_format
@output_option
@fresh_option
def solve(game: str, table_ref: str | None, pay_name: str, edge_text: str, strategy: str | None, fmt: str,
          output: Path | None, fresh: bool) -> None:
    """The exact pay that gives a house edge, re-solving the strategy until it is stable."""
    from oddscalc.exact import parse_fraction
    from oddscalc.filing.paytools import resolve_pay, solve_pay
    from oddscalc.report.tools import solution_text

    try:
        edge = parse_fraction(edge_text)
    except ValueError:
        raise OptionError(f"--edge: not a number: {edge_text!r} (use e.g. 1/20, 0.05 or 5%)") from None
    session = open_session(game, strategy, fresh=fresh)
    table = session.resolve(table_ref).table
    ref = resolve_pay(table.model, pay_name)
    solution = solve_pay(session.analyze, table, ref, edge)
    if fmt == "md":
        text = solution_text(solution)
    else:
        from oddscalc.report.sections import render_sections

        text = render_sections(_solution_sections(solution), fmt, f"Solve: {table.title} ({game}/{table.id})",
                               table_meta(game, table))
    emit(text, output, _inputs(game, table_ref, strategy))


def _solution_sections(s: Solution) -> list[Section]:
    """A solved pay as data (``filing.paytools.Solution``): the exact pay (``units``, to 1, as in a report's rows),
    the printable pays around it (``pays`` as a table writes them) with their ``house_edge`` and on which side of
    the target each lands, and the steps that found it."""
    from oddscalc.results import Column, Section
    from oddscalc.tables import ratio_text

    edge, units = Column("house_edge", "House edge", "percent", 6), Column("units", "Pays (to 1)", "decimal", 6)
    return [
        Section("solved_pay", "Solved pay", (Column("pay", "Pay"), Column("wager", "Wager"),
                                           Column("target_house_edge", "Target house edge", "percent", 6), units),
                ((s.ref, s.wager, s.target, s.pay),)),
        Section("printable_pays", "Printable pays",
                (Column("pays", "Pays"), units, edge, Column("side", "Against the target")),
                tuple((ratio_text(pay), pay, he, "exactly" if he == s.target else "above" if he > s.target else "below")
                      for pay, he in s.printable)),
        Section("solve_steps", "Steps", (Column("step", "Step", "int"), units, edge,
                                   Column("changes", "Strategy changes from the step before")),
                tuple((i, st.pay, st.house_edge, ", ".join(
                    f"{f.name}: {f.points:,} decision points ({f.combinations:,} combinations)"
                    for f in st.flips if f.points) or "none") for i, st in enumerate(s.steps, 1))),
    ]


@click.command()
@game_argument
@table_option
@click.option("-n", "--rounds", type=Whole(1, 10**10),
              help="Rounds to simulate (default: per game, see oddscalc.simulate.DEFAULT_ROUNDS).")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Seed of the numpy PCG64 generator.")
@click.option("--strategy", help="Named strategy (caribbean default: rules-of-thumb; house-baccarat: the table's).")
@decks_option
@players_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the rounds as a hand log (docs/hand-log.md) instead of comparing: caribbean, let-it-ride, "
                   "punto-banco (default 10,000 rounds). --strategy: caribbean optimal or a named one; let-it-ride "
                   "optimal; punto-banco the bet.")
@click.option("--knows", metavar="ID|PATH",
              help="With --log: the player acts by exact EV on what this information model shows "
                   "(e.g. caribbean-flash-1-hole, edge-sort-first-card, let-it-ride-flash-first-community).")
@click.option("--damage", multiple=True, metavar="missing:CARD|doubled:CARD",
              help="With --log: a card taken out of the deck or shoe, or put in twice (repeatable).")
@click.option("--mispay", default="0", show_default=True, metavar="RATE",
              help="With --log: the share of rounds whose main wager is overpaid by one stake (0.001, 0.1%).")
def simulate(game: str, table_ref: str | None, rounds: int | None, seed: int, strategy: str | None,
             decks: int | None, players: int | None, fmt: str, log_path: Path | None, knows: str | None,
             damage: tuple[str, ...], mispay: str) -> None:
    """Monte Carlo check of GAME: deal shuffled cards, play the rules, compare with the exact values.

    Prints each figure with its 99% confidence interval and whether the exact value lies inside.
    Exits 0 either way (a value outside now and then is statistics); the last line sums it up.
    With --log, writes the rounds as a hand log for ``oddscalc audit`` instead.
    """
    if log_path is not None:
        from oddscalc.simulate.log import write_log

        if decks is not None or players is not None:
            raise OptionError("--log deals the table's own deck or shoe to one seat: no --decks or --players")
        done = write_log(game, log_path, table_ref, rounds or 10_000, seed, strategy, knows, damage, mispay,
                         show_progress())
        if fmt == "json":
            import json

            click.echo(json.dumps({"log": str(done.path), "game": game, "rounds": done.rounds,
                                   "mispaid": done.mispaid, "strategy": done.strategy}, ensure_ascii=False))
        else:
            click.echo(f"{done.rounds:,} rounds written to {done.path} ({done.strategy}; {done.mispaid:,} mispaid)")
        return
    if knows is not None or damage or mispay != "0":
        raise OptionError("--knows, --damage and --mispay shape a hand log: give --log FILE")
    from oddscalc.simulate import run
    from oddscalc.simulate.render import RENDERERS

    sim = run(game, table_ref, rounds, seed, strategy, decks, players, progress=show_progress())
    click.echo(RENDERERS[fmt](sim), nl=False)
    click.echo(f"oddscalc simulate: {sim.rounds:,} rounds in {sim.seconds_simulating:.1f} s "
               f"({sim.rounds_per_second:,.0f} rounds/s); exact analysis {sim.seconds_exact:.1f} s", err=True)


COMMANDS = (check, hold, profiles, tables, validate, verify, compare, solve, simulate)
