"""Command line: parse, call the analysis, render, write. User errors never show a traceback.

Exit codes: 0 ok · 1 internal error (a bug: traceback shown) · 2 usage (click) ·
3 bad table, strategy card or profile file · 4 bad option or input · 5 verification mismatch ·
6 a compliance check fails · 130 interrupted.
Errors become exit codes in one place (:class:`Commands`); options shared by several commands
are defined once, below.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import click

from . import __version__
from .cards import CardError
from .files import write_atomic
from .keys import DEFAULT_TABLES, GAME_KEYS
from .protocol import OptionError

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


def _fail(message: str, code: int) -> None:
    click.echo(f"oddscalc: {message}", err=True)
    sys.exit(code)


class Commands(click.Group):
    """The oddscalc group: every user error of every command becomes its exit code here."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command, mapping user errors to exit codes."""
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
            from .tables import TableError  # loaded already if a table was read: the fast paths never need it

            if isinstance(e, TableError):
                _fail(f"bad {e.what}:\n{e}", EXIT_TABLE)
            raise


# --- options shared by several commands ---------------------------------------------------------------

game_argument = click.argument("game", type=click.Choice(GAME_KEYS))


def table_option(f: F) -> F:
    """--table ID|PATH."""
    return click.option("--table", "table_ref", metavar="ID|PATH",
                        help="Shipped table id, or a path to a table file (contains a / or ends in .toml); "
                             "default: the game's default table.")(f)


def strategy_option(f: F) -> F:
    """--strategy NAME."""
    return click.option("--strategy", help="Named strategy, or a strategy card file (a path: caribbean); "
                                           "overrides the table's.")(f)


def decks_option(f: F) -> F:
    """--decks N."""
    return click.option("--decks", type=click.IntRange(1, 10_000),
                        help="Number of decks in the shoe (baccarat games).")(f)


def players_option(f: F) -> F:
    """--players N."""
    return click.option("--players", type=click.IntRange(1, 7), help="Players at the table (house-baccarat).")(f)


def profile_option(f: F) -> F:
    """--profile ID|PATH (repeatable)."""
    return click.option("--profile", "profile_refs", multiple=True, metavar="ID|PATH",
                        help="Compliance profile: a shipped id (oddscalc profiles) or a file; repeat for more. "
                             "Exit 6 when a rule fails.")(f)


def _profiles(refs: tuple[str, ...]) -> list[Any]:
    if not refs:  # a replayed report never loads the profile machinery
        return []
    from .catalog import profile_path
    from .compliance import load_profile

    out = []
    for ref in refs:
        try:
            path = profile_path(ref)
        except ValueError as e:
            raise OptionError(f"--profile: {e}") from None
        if not path.exists() and not Path(ref).exists():
            from .catalog import profiles_dir

            known = ", ".join(sorted(p.stem for p in profiles_dir().glob("*.toml")))
            raise OptionError(f"--profile {ref!r}: no such profile file or shipped id; shipped: {known}")
        out.append(load_profile(path))
    return out


def _checked(analysis: Any, profiles: list[Any]) -> tuple[Any, int]:
    """The analysis with each profile's section, and how many checks fail."""
    from .compliance import FAIL, with_profile

    failed = 0
    for p in profiles:
        analysis, _ = with_profile(analysis, p)
        failed += sum(1 for r in analysis.sections[-1].records() if r["verdict"] == FAIL)
    return analysis, failed


def scheduler_option(f: F) -> F:
    """--scheduler ADDRESS|local and --workers N."""
    f = click.option("--workers", type=click.IntRange(1, 1024),
                     help="Workers of a local cluster (--scheduler local); default: one per core.")(f)
    return click.option("--scheduler", metavar="ADDRESS|local",
                        help="Run on a dask.distributed cluster: a scheduler address, or 'local' for a LocalCluster "
                             "here (default: ODDSCALC_SCHEDULER, else in this process).")(f)


def fresh_option(f: F) -> F:
    """--no-cache (or --fresh)."""
    return click.option("--no-cache", "--fresh", "fresh", is_flag=True,
                        help="Count everything from nothing; read nothing from the on-disk store.")(f)


def _progress() -> bool:
    return sys.stderr.isatty()


def _reduced_deck(text: str | None, game: str) -> Any:
    """--reduced-deck RANK:SUITS as a deck (None: the full deck)."""
    if text is None:
        return None
    from .cards import RANK_CHARS, reduced_deck

    if game != "caribbean":
        raise OptionError("--reduced-deck is for caribbean")
    rank, _, suits = text.partition(":")
    if rank.upper() not in RANK_CHARS[:-1] or suits not in ("1", "2", "3", "4"):
        raise OptionError(f"--reduced-deck {text!r}: give the lowest rank (2-K) and the suits (1-4), e.g. T:3")
    return reduced_deck(rank, int(suits))


def _session(game: str, strategy: str | None = None, decks: int | None = None, players: int | None = None,
             brief: bool = True, fresh: bool = False, deck: Any = None) -> Any:
    from .analysis import Session
    from .cache import Store
    from .results import RunOptions

    options = RunOptions(strategy=strategy, decks=decks, players=players, progress=_progress(), brief=brief,
                         deck=deck)
    return Session(game, options, Store.default(fresh=fresh))


def _write(output: Path, text: str | bytes, protect: tuple[Path, ...] = ()) -> None:
    """Write a report atomically; never over a table file the run reads."""
    target = output.resolve()
    if any(target == p.resolve() for p in protect):
        raise Failure(f"-o {output} is the table file this report reads; write the report elsewhere", EXIT_INPUT)
    try:
        write_atomic(output, text.encode("utf-8") if isinstance(text, str) else text)
    except OSError as e:
        raise Failure(f"cannot write {output}: {e.strerror or e}", EXIT_INPUT) from None


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
    from . import replay
    from .files import is_path

    profiles = _profiles(profile_refs)
    if fmt in DOCUMENTS:
        _document(game, table_ref, fmt, output, strategy, decks, players, symbolic, profiles, fresh)
        return
    request = {"format": fmt, "strategy": strategy, "decks": decks, "players": players, "symbolic": symbolic}
    card = (Path(strategy),) if strategy and is_path(strategy) else ()
    # a profile's verdict sets the exit code, so a run with one is always settled, never replayed
    key = None if fresh or profiles else replay.key(game, _table_path(game, table_ref), request, card)
    text = replay.lookup(key) if key is not None else None
    failed = 0
    if text is None:
        from .report import RENDERERS

        analysis = _session(game, strategy, decks, players, brief=False, fresh=fresh).analyze(table_ref)
        if symbolic:
            from .paytools import with_symbolic

            analysis = with_symbolic(analysis)
        analysis, failed = _checked(analysis, profiles)
        text = RENDERERS[fmt](analysis)
        if key is not None:
            replay.keep(key, text)
    if output is None:
        click.echo(text, nl=False)
    else:
        _write(output, text, protect=(_table_path(game, table_ref),))
    if failed:
        raise Failure(f"{failed} compliance check(s) fail (see the report's compliance section)", EXIT_CHECK)


DOCUMENTS = ("html", "xlsx", "pdf")


def _filing(analysis: Any) -> Any:
    """What a filing adds to the report: the petition's odds sheet and the hold tolerance."""
    import dataclasses

    from . import exposure, hold, odds_sheet

    exposed = exposure.section(analysis)
    extra = (odds_sheet.section(analysis), hold.section(hold.subjects_of(analysis)), *([exposed] if exposed else []))
    return dataclasses.replace(analysis, sections=(*analysis.sections, *extra))


def _document(game: str, table_ref: str | None, fmt: str, output: Path | None, strategy: str | None,
              decks: int | None, players: int | None, symbolic: bool, profiles: list[Any], fresh: bool) -> None:
    """A report as a document: HTML and PDF with the game's charts, or an xlsx workbook."""
    if output is None and fmt != "html" and sys.stdout.isatty():
        raise Failure(f"--format {fmt} is a binary file: write it with -o FILE (or redirect standard output)",
                      EXIT_INPUT)
    from .games import GAMES

    session = _session(game, strategy, decks, players, brief=False, fresh=fresh)
    analysis = session.analyze(table_ref)
    if symbolic:
        from .paytools import with_symbolic

        analysis = with_symbolic(analysis)
    analysis, failed = _checked(analysis, profiles)
    analysis = _filing(analysis)
    data: str | bytes
    if fmt == "xlsx":
        from .report.xlsx import render_xlsx

        data = render_xlsx(analysis)
    else:
        from . import hold

        charts = (*GAMES[game].charts(analysis, session.rerun(analysis.table)),
                  hold.chart(hold.of_wager(analysis.wagers[0]), f"{game}-hold"))
        if fmt == "html":
            from .report.html import render_html

            data = render_html(analysis, charts)
        else:
            from .report.pdf import render_pdf

            data = render_pdf(analysis, charts)
    if output is not None:
        _write(output, data, protect=(_table_path(game, table_ref),))
    elif isinstance(data, str):
        click.echo(data, nl=False)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    if failed:
        raise Failure(f"{failed} compliance check(s) fail (see the report's compliance section)", EXIT_CHECK)


@main.command()
@game_argument
@table_option
@click.option("--profile", "profile_refs", multiple=True, required=True, metavar="ID|PATH",
              help="Compliance profile: a shipped id (oddscalc profiles) or a file; repeat for more.")
@strategy_option
@decks_option
@players_option
@fresh_option
def check(game: str, table_ref: str | None, profile_refs: tuple[str, ...], strategy: str | None, decks: int | None,
          players: int | None, fresh: bool) -> None:
    """Check a table against compliance profiles: each rule, its exact figure, pass or FAIL (exit 6 on a FAIL)."""
    from .report.markdown import section_markdown

    profiles = _profiles(profile_refs)
    analysis = _session(game, strategy, decks, players, fresh=fresh).analyze(table_ref)
    checked, failed = _checked(analysis, profiles)
    click.echo(f"# {analysis.table.title} ({game}/{analysis.table.id})\n")
    for section in checked.sections[len(analysis.sections):]:
        click.echo(section_markdown(section))
    if failed:
        raise Failure(f"{failed} compliance check(s) fail", EXIT_CHECK)


@main.command()
@game_argument
@table_option
@click.option("--stake", "stakes", multiple=True, metavar="WAGER=AMOUNT",
              help="A seat's stake on a wager, in money (e.g. main=5 jackpot=0.50); two wagers a seat plays "
                   "together add a row for the seat's combined stake.")
@strategy_option
@decks_option
@players_option
@fresh_option
def hold(game: str, table_ref: str | None, stakes: tuple[str, ...], strategy: str | None, decks: int | None,
         players: int | None, fresh: bool) -> None:
    """Expected hold and its 95% and 99% bands after 10^3 .. 10^8 rounds, per wager and per seat."""
    from . import hold as holds
    from .exact import parse_fraction
    from .report.markdown import section_markdown

    analysis = _session(game, strategy, decks, players, fresh=fresh).analyze(table_ref)
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
        money[name] = value
    seats = [(a, b, money[a], money[b]) for a, b in analysis.joint if a in money and b in money]
    if money and not seats:
        pairs = ", ".join(f"{a} and {b}" for a, b in analysis.joint) or "none"
        raise OptionError(f"--stake: no two of these wagers are played together by a seat; joint wagers: {pairs}")
    click.echo(section_markdown(holds.section(holds.subjects_of(analysis, seats))), nl=False)


sections_format = click.option("--format", "fmt", type=click.Choice(["md", "csv", "json"]), default="md",
                               show_default=True, help="Markdown, CSV (a line per cell) or JSON (exact values).")


def _sections(sections: list[Any], fmt: str, heading: str, game: str, table: Any) -> None:
    from .report.sections import render_sections

    click.echo(render_sections(sections, fmt, f"{heading}: {table.title} ({game}/{table.id})",
                               {"game": game, "table": table.id, "table_sha256": table.sha256}), nl=False)


@main.command()
@game_argument
@table_option
@strategy_option
@sections_format
@fresh_option
def exposure(game: str, table_ref: str | None, strategy: str | None, fmt: str, fresh: bool) -> None:
    """The most the house pays in one round at the table's [limits], and the house edge under its cap."""
    from . import exposure as exposures

    analysis = _session(game, strategy, fresh=fresh).analyze(table_ref)
    section = exposures.section(analysis)
    if section is None:
        raise Failure(f"table {analysis.table.id} states no [limits]: add [limits.bets] with each wager's min and max",
                      EXIT_INPUT)
    _sections([section], fmt, "Exposure", game, analysis.table)


@main.command()
@click.argument("game", type=click.Choice(["punto-banco", "house-baccarat"]))
@table_option
@click.option("--wager", help="Also run a counting study of this wager (e.g. dragon_7; house_game for the house game).")
@click.option("--shoes", type=click.IntRange(1, 10**6), default=200, show_default=True,
              help="Shoes the study deals.")
@click.option("--penetration", default="0.8", show_default=True, help="Share of each shoe dealt (0 to 1).")
@click.option("--trigger", type=float, help="Bet at this true count or above (default: where the EV turns positive).")
@click.option("--seed", type=int, default=20261201, show_default=True)
@click.option("--decks", type=click.IntRange(1, 10_000), help="Decks in the shoe.")
@sections_format
@scheduler_option
@fresh_option
def counting(game: str, table_ref: str | None, wager: str | None, shoes: int, penetration: str, trigger: float | None,
             seed: int, decks: int | None, fmt: str, scheduler: str | None, workers: int | None, fresh: bool) -> None:
    """Card counting on GAME: exact removal effects of every rank on every wager, a balanced count per
    wager, and with --wager a counting study that knows the exact EV at every coup."""
    from . import counting as cnt
    from . import study as studies
    from .exact import parse_fraction
    from .progress import Progress

    session = _session(game, decks=decks, fresh=fresh)
    rules = session.resolve(table_ref)
    if game == "house-baccarat":
        if wager not in (None, "house_game"):
            raise OptionError(f"the house game has one wager to count: --wager house_game, not {wager!r}")
        fx = cnt.house_effects(rules)
        sections = [cnt.effects_section(fx, rules.shoe.label), cnt.tags_section(fx)]
    else:
        fx = cnt.removal_effects(rules)
        sections = [cnt.effects_section(fx, rules.cards.shoe.label), cnt.tags_section(fx)]
    if wager is not None:
        try:
            share = parse_fraction(penetration)
        except ValueError:
            raise OptionError(f"--penetration: not a number: {penetration!r}") from None
        from . import cluster

        bar = Progress(_progress(), f"counting study: {shoes} shoes")
        where = cluster.address(scheduler)
        with contextlib.ExitStack() as stack:
            runner = None if where is None else cluster.mapper(stack.enter_context(cluster.client(where, workers)),
                                                               bar.step)
            if game == "house-baccarat":
                from . import house_study

                st = house_study.run(rules, fx, shoes, share, seed, trigger, runner)
            else:
                st = studies.run(rules, cnt.coup_ev(rules), fx, wager, shoes, share, seed, trigger, runner)
        bar.finish()
        sections.append(studies.section(st))
    _sections(sections, fmt, "Counting", game, rules.table)


@main.command()
@click.argument("game", type=click.Choice(["let-it-ride", "caribbean"]))
@table_option
@click.option("--partners", type=click.IntRange(1, 6), default=1, show_default=True,
              help="Partners whose cards the player sees (let-it-ride: 1 exact over every deal, 2 to 6 sampled; "
                   "caribbean: 1 to 6 sampled); sampled situations are each settled exactly.")
@click.option("--situations", type=click.IntRange(2, 10**7),
              help="Situations sampled (caribbean, and let-it-ride with 2 or more partners); default 200 and 5000.")
@click.option("--seed", type=int, default=20261201, show_default=True, help="caribbean: the sample's seed.")
@click.option("--exact", "exact_count", is_flag=True,
              help="caribbean: count every situation instead (reduced decks; a cluster for larger ones).")
@click.option("--reduced-deck", "reduced", metavar="RANK:SUITS",
              help="caribbean: play a reduced deck, ranks RANK to ace in SUITS suits (e.g. T:3, 15 cards).")
@sections_format
@scheduler_option
@fresh_option
def collusion(game: str, table_ref: str | None, partners: int, situations: int | None, seed: int,
              exact_count: bool, reduced: str | None, fmt: str, scheduler: str | None, workers: int | None,
              fresh: bool) -> None:
    """What seeing partners' cards is worth: the player plays knowing them."""
    from . import cluster
    from .progress import Progress

    session = _session(game, fresh=fresh, deck=_reduced_deck(reduced, game))
    rules = session.resolve(table_ref)
    bar = Progress(_progress(), f"{game}: partners' cards seen")
    if game == "caribbean":
        from . import partners as ptn

        model = rules.model
        exact = session.analyze(table_ref).wager("main").expected_value
        if exact_count:
            deals, core_seconds, cells = ptn.plan(rules.deck, partners)
            where = cluster.address(scheduler)
            if cells > ptn.CHUNK_CELLS:
                raise OptionError(f"--exact on {rules.deck.describe()}: one chunk would hold {cells:,} cells (at most "
                                  f"{ptn.CHUNK_CELLS:,}); the count is for reduced decks (sample instead)")
            if where is None and core_seconds > 600:
                raise OptionError(f"--exact: {deals:,} situations, about {core_seconds / 3600:,.1f} core-hours; run "
                                  "it on a cluster (--scheduler) or sample")
            with contextlib.ExitStack() as stack:
                runner = None if where is None else cluster.mapper(stack.enter_context(cluster.client(where, workers)),
                                                                   bar.step)
                got_exact = ptn.exact(rules.deck, rules.qualifier, model.pays.main, partners, runner)
            bar.finish()
            _sections([ptn.exact_section(got_exact, exact)], fmt, "Collusion", game, rules.table)
            return
        got = ptn.sample(rules.deck, rules.qualifier, model.pays.main, partners, situations or 200, seed, bar.step)
        bar.finish()
        _sections([ptn.section(got, exact)], fmt, "Collusion", game, rules.table)
        return
    from . import collusion as col
    from .games.let_it_ride import PAYING

    counts = session.counts(rules)
    pays = [getattr(rules.model.pays.main, c.value) for c in PAYING]
    if partners > 1:  # beyond one partner: sampled situations, each settled exactly
        sampled = col.sample_partners(rules.deck, rules.min_rank, pays, partners, situations or 5000, seed)
        exact = session.analyze(table_ref).wager("main").expected_value
        _sections([col.sampled_section(sampled, exact)], fmt, "Collusion", game, rules.table)
        return
    where = cluster.address(scheduler)
    if where is None:
        result = col.partner_seen(counts, pays, rules.min_rank)
    else:
        with cluster.client(where, workers) as c:
            result = col.partner_seen(counts, pays, rules.min_rank, cluster.mapper(c, bar.step), chunk_size=256)
    bar.finish()
    early = col.community_card_early(counts, pays, rules.min_rank)
    _sections([col.section(result, early)], fmt, "Collusion", game, rules.table)


@main.command()
@click.argument("game", type=click.Choice(["caribbean"]))
@table_option
@click.option("--dealer-cards", "dealer_cards", type=click.Choice(["1", "2", "3", "4", "5"]), multiple=True,
              help="Dealer cards seen: 1 (the game as dealt) to 5; 2, 3 and 4 take about 150, 20 and 80 s on two "
                   "cores. Repeat for several (default: 1 and 5).")
@sections_format
@click.option("--chart", "chart_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the chart of EV against the cards seen here (SVG).")
@fresh_option
def flash(game: str, table_ref: str | None, dealer_cards: tuple[str, ...], fmt: str, chart_path: Path | None,
          fresh: bool) -> None:
    """What seeing the dealer's cards is worth at GAME, exact: the up card alone, hole cards too, all five."""
    from . import flash as flashes
    from .games.caribbean import settle_counts
    from .progress import Progress
    from .report.svg import render_chart

    session = _session(game, fresh=fresh)
    rules = session.resolve(table_ref)
    rt = session.counts(rules)
    pays = rules.model.pays.main
    st = settle_counts(rt, pays, closest=False)
    seen = []
    for k in sorted({int(k) for k in dealer_cards} or {1, 5}):
        if k == 1:
            seen.append(flashes.one_card(rt, st, pays))
        elif k == 5:
            seen.append(flashes.all_cards(rt, st, pays))
        else:
            bar = Progress(_progress(), f"caribbean: {k} dealer cards seen")
            seen.append(flashes.two_cards(rules.deck, rules.qualifier, pays, bar) if k == 2 else
                        flashes.known_cards(rules.deck, rules.qualifier, pays, k, bar))
    published = rules.table.id == "us" and rules.deck.is_full
    if chart_path is not None:
        _write(chart_path, render_chart(flashes.chart(seen, published)))
    _sections(flashes.sections(seen, published), fmt, "Dealer cards seen", game, rules.table)


@main.command()
@click.argument("game", type=click.Choice(["house-baccarat"]))
@table_option
@click.option("--players", type=click.IntRange(2, 7), default=2, show_default=True, help="Seats filled.")
@decks_option
@click.option("--exhaustive", is_flag=True, help="Search every strategy by two-card total (256), not 9 thresholds.")
@click.option("--edge-to", "edge_to", type=click.IntRange(1, 7), default=None,
              help="Give the edge by seats filled up to this many (default: --players; 6 and 7 on an infinite shoe).")
@click.option("--third-cards", "third_cards", type=click.Choice(["hidden", "shown"]),
              help="Third cards hidden until the house plays, or shown as dealt in seat order (two seats); "
                   "default: the table's third_cards.")
@fresh_option
def seats(game: str, table_ref: str | None, players: int, decks: int | None, exhaustive: bool, edge_to: int | None,
          third_cards: str | None, fresh: bool) -> None:
    """The game among the seats: edge by seats filled, symmetric equilibria, the best common strategy, and
    one seat's best reply to the others; with third cards shown, the two seats' sequential game."""
    from .games.house_baccarat import FINITE_EXACT_MAX_PLAYERS, solve
    from .games.seat_game import sections, thresholds
    from .report.markdown import section_markdown

    if players > FINITE_EXACT_MAX_PLAYERS:
        raise OptionError(f"--players {players}: the seat game is exact on the finite shoe up to "
                          f"{FINITE_EXACT_MAX_PLAYERS} seats (report --players {players} gives the infinite shoe)")
    session = _session(game, decks=decks, players=players, fresh=fresh)
    rules = session.resolve(table_ref)
    if (third_cards or rules.third_cards) == "shown":
        from .games import turn_order

        if players != 2:
            raise OptionError("third cards shown: the sequential game is exact for two seats (--players 2)")
        hidden = solve(session.counts(rules), 2, rules.pay, "optimal").strategy
        found = turn_order.sections(rules.shoe, rules.house_tableau, rules.all_stand, rules.pay, hidden, thresholds())
    else:
        found = sections(session.counts(rules), players, rules.pay, exhaustive, edge_to or players)
    click.echo(f"# The seats of {rules.table.title} ({game}/{rules.table.id}), {rules.shoe.label}\n")
    click.echo("\n".join(section_markdown(s) for s in found), nl=False)


@main.command()
def profiles() -> None:
    """The shipped compliance profiles: id, title, source."""
    from .catalog import profiles_dir
    from .compliance import load_profile

    for path in sorted(profiles_dir().glob("*.toml")):
        p = load_profile(path)
        click.echo(f"{p.id}\t{p.model.title}\t{p.model.source}")


def _table_path(game: str, ref: str | None) -> Path:
    """The file a table reference names (whether or not it exists: reading it reports that)."""
    from .catalog import tables_dir
    from .files import is_path

    ident = ref if ref is not None else DEFAULT_TABLES[game]
    return Path(ident) if is_path(ident) else tables_dir() / game / f"{ident}.toml"


@main.command()
@click.argument("game", required=False, type=click.Choice(GAME_KEYS))
def tables(game: str | None) -> None:
    """List the shipped tables (game, id, title)."""
    from .catalog import load_table, shipped_tables
    from .tables import TableError

    for path in shipped_tables(game):
        try:
            t = load_table(path)
            click.echo(f"{t.game:<15} {t.id:<20} {t.title}")
        except TableError as e:
            click.echo(f"{path.parent.name:<15} {path.stem:<20} (invalid: {len(e.problems)} problem(s))")


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
def validate(paths: tuple[Path, ...]) -> None:
    """Check table files and explain every problem."""
    from .catalog import load_table
    from .tables import TableError

    bad = 0
    for p in paths:
        try:
            t = load_table(p)
            click.echo(f"{p}: ok ({t.game}, {t.title})")
        except TableError as e:
            bad += 1
            click.echo(str(e), err=True)
    if bad:
        raise Failure(f"{bad} of {len(paths)} table file(s) invalid", EXIT_TABLE)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@fresh_option
def verify(paths: tuple[Path, ...], fresh: bool) -> None:
    """Check the [published] and [claimed] figures of table files against the exact analysis.

    PATHS are table files or folders of them (default: every shipped table). Exits 5 when a
    figure does not hold or cannot be checked, 3 when a table file is invalid.
    """
    from .catalog import load_table, table_label, tables_dir
    from .results import Check
    from .tables import TableError
    from .verify import blocks, describe_failure, render_checks, table_paths

    files = table_paths(list(paths) or [tables_dir()])
    if not files:
        raise Failure("no table files to verify", EXIT_INPUT)
    sessions: dict[str, Any] = {}
    checks: list[Check] = []
    bad_tables: list[str] = []
    without: list[str] = []
    for path in files:
        try:
            table = load_table(path)
            if not blocks(table):
                without.append(table_label(table))
                continue
            if table.game not in sessions:
                sessions[table.game] = _session(table.game, fresh=fresh)
            found = list(sessions[table.game].analyze(table).checks)
        except TableError as e:
            bad_tables.append(str(path))
            click.echo(str(e), err=True)
            continue
        except (OptionError, CardError) as e:
            bad_tables.append(str(path))
            click.echo(f"{path}: {e}", err=True)
            continue
        checks.extend(found)
    failed = [c for c in checks if not c.ok]
    if checks:
        click.echo(render_checks(checks), nl=False)
        n_tables = len({c.table for c in checks})
        click.echo(f"{len(checks) - len(failed)} of {len(checks)} figure(s) hold in {n_tables} table(s)")
    if without:
        click.echo(f"no [published] or [claimed] figures: {', '.join(without)}")
    if bad_tables:
        raise Failure(f"{len(bad_tables)} table file(s) invalid: {', '.join(bad_tables)}", EXIT_TABLE)
    if failed:
        raise Failure(f"{len(failed)} figure(s) do not hold:\n" + "\n".join(describe_failure(c) for c in failed),
                      EXIT_MISMATCH)


@main.command()
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
    from .comparison import compare as compare_tables
    from .report.tools import render_comparison

    if len(tables) < 2:
        raise OptionError("compare needs at least two tables")
    if output is None and fmt in ("xlsx", "pdf") and sys.stdout.isatty():
        raise Failure(f"--format {fmt} is a binary file: write it with -o FILE (or redirect standard output)",
                      EXIT_INPUT)
    session = _session(game, strategy, fresh=fresh)
    data = render_comparison(compare_tables([session.analyze(t) for t in tables]), fmt)
    if output is not None:
        _write(output, data, protect=tuple(_table_path(game, t) for t in tables))
    elif isinstance(data, str):
        click.echo(data, nl=False)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()


@main.command()
@game_argument
@table_option
@click.option("--pay", "pay_name", required=True, help="The pay to solve for: 'royal_flush' or 'main.royal_flush'.")
@click.option("--edge", "edge_text", required=True,
              help="Target house edge: a fraction (1/20), decimal (0.05) or percent (5%).")
@strategy_option
@fresh_option
def solve(game: str, table_ref: str | None, pay_name: str, edge_text: str, strategy: str | None, fresh: bool) -> None:
    """The exact pay that gives a house edge, re-solving the strategy until it is stable."""
    from .exact import parse_fraction
    from .paytools import resolve_pay, solve_pay
    from .report.tools import solution_text

    try:
        edge = parse_fraction(edge_text)
    except ValueError:
        raise OptionError(f"--edge: not a number: {edge_text!r} (use e.g. 1/20, 0.05 or 5%)") from None
    session = _session(game, strategy, fresh=fresh)
    table = session.resolve(table_ref).table
    ref = resolve_pay(table.model, pay_name)
    click.echo(solution_text(solve_pay(session.analyze, table, ref, edge)), nl=False)


@main.command()
@game_argument
@table_option
@click.option("-n", "--rounds", type=click.IntRange(1, 10**10),
              help="Rounds to simulate (default: per game, see oddscalc.simulate.DEFAULT_ROUNDS).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True,
              help="Seed of the numpy PCG64 generator.")
@click.option("--strategy", help="Named strategy (caribbean default: rules-of-thumb; house-baccarat: the table's).")
@decks_option
@players_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def simulate(game: str, table_ref: str | None, rounds: int | None, seed: int, strategy: str | None,
             decks: int | None, players: int | None, fmt: str) -> None:
    """Monte Carlo check of GAME: deal shuffled cards, play the rules, compare with the exact values.

    Prints each figure with its 99% confidence interval and whether the exact value lies inside.
    Exits 0 either way (a value outside now and then is statistics); the last line sums it up.
    """
    from .simulate import RENDERERS, run

    sim = run(game, table_ref, rounds, seed, strategy, decks, players, progress=_progress())
    click.echo(RENDERERS[fmt](sim), nl=False)
    click.echo(f"oddscalc simulate: {sim.rounds:,} rounds in {sim.seconds_simulating:.1f} s "
               f"({sim.rounds_per_second:,.0f} rounds/s); exact analysis {sim.seconds_exact:.1f} s", err=True)


if __name__ == "__main__":  # pragma: no cover
    main()
