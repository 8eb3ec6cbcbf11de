"""Commands for game protection: what a breach is worth (exposure, counting, collusion, flash). Each game's
declaration says which apply to it and which code runs them: nothing here knows a game. Registered on the group in
``cli.main`` (:data:`COMMANDS`)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

import click

from oddscalc.cards import MAX_DECKS
from oddscalc.cli.options import (
    EXIT_INPUT,
    SEED,
    Failure,
    Real,
    Whole,
    declared,
    echo_sections,
    fresh_option,
    game_argument,
    game_for,
    open_session,
    parse_reduced_deck,
    refuse_unless,
    scheduler_option,
    sections_format,
    show_progress,
    strategy_option,
    table_option,
    write_output,
)
from oddscalc.protocol import Counting, OptionError, load

if TYPE_CHECKING:
    from oddscalc.protection.count_system import Published
    from oddscalc.protection.study import Procedure


@click.command()
@game_argument
@table_option
@strategy_option
@sections_format
@fresh_option
def exposure(game: str, table_ref: str | None, strategy: str | None, fmt: str, fresh: bool) -> None:
    """The most the house pays in one round at the table's [limits], and the house edge under its cap."""
    from oddscalc.filing import exposure as exposures

    analysis = open_session(game, strategy, fresh=fresh).analyze(table_ref)
    section = exposures.section(analysis)
    if section is None:
        raise Failure(f"table {analysis.table.id} states no [limits]: add [limits.bets] with each wager's min and max",
                      EXIT_INPUT)
    echo_sections([section], fmt, "Exposure", game, analysis.table)


@click.command()
@game_for("counting")
@table_option
@click.option("--wager", help="Also run a counting study of this wager (e.g. dragon_7; house_game for the house game).")
@click.option("--shoes", type=Whole(1, 10**6), default=200, show_default=True,
              help="Shoes the study deals.")
@click.option("--cut-card", "cut_card", type=Whole(0, 10**6), default=14, show_default=True,
              help="Cards behind the cut card: the coup in which it comes out is the last (but --after-cut).")
@click.option("--burn", default="turn", show_default=True,
              help="Cards burnt face down at the shoe's start, or 'turn': the first card turned face up and as many "
                   "burnt as its point value (a ten or face 10), the punto banco rule.")
@click.option("--after-cut", "after_cut", type=Whole(0, 3), default=0, show_default=True,
              help="Coups dealt after the one in which the cut card comes out.")
@click.option("--penetration",
              help="Deprecated (use --cut-card): the share of each shoe dealt (0 to 1), no burn, as before.")
@click.option("--bankroll", type=Whole(1, 10**9), default=1000, show_default=True,
              help="Bankroll in units (one unit a bet) for the study's risk of ruin.")
@click.option("--trigger", type=Real(),
              help="Bet at this true count or above (default: where the EV turns positive).")
@click.option("--count", "count_ref", metavar="ID|FILE",
              help="Bet by a count file (tables/counts/<id>.toml, or a path): its wager, tags and betting rule, in "
                   "place of the derived balanced count and --trigger.")
@click.option("--as-published", "as_published", is_flag=True,
              help="With --count: deal as the count file's [published] source did (its decks, cut card and burn).")
@click.option("--seed", type=SEED, default=20261201, show_default=True)
@click.option("--decks", type=Whole(1, MAX_DECKS), help="Decks in the shoe.")
@sections_format
@scheduler_option
@fresh_option
def counting(game: str, table_ref: str | None, wager: str | None, shoes: int, cut_card: int, burn: str,
             after_cut: int, penetration: str | None, bankroll: int, trigger: float | None, count_ref: str | None,
             as_published: bool, seed: int, decks: int | None, fmt: str, scheduler: str | None, workers: int | None,
             fresh: bool) -> None:
    """Card counting on GAME: exact removal effects of every rank on every wager, a balanced count per
    wager, and with --wager a counting study that knows the exact EV at every coup, dealt with a stated cut card
    and burn, with the metrics counters read (DI, SCORE, N0, risk of ruin)."""
    from oddscalc.progress import Progress
    from oddscalc.protection import counting as cnt
    from oddscalc.protection import study as studies

    plan = declared(game).counting
    assert isinstance(plan, Counting)  # the GAME argument admits only the games that declare it
    count = None
    if count_ref is not None:
        from oddscalc.protection.count_system import load_count

        count = load_count(count_ref, game)[0]
        if wager is not None and wager != count.wager:
            raise OptionError(f"--wager {wager} and --count {count_ref}: the count bets {count.wager}; give one")
        if trigger is not None:
            raise OptionError("--trigger and --count: a count file states its own betting rule; give one")
        wager = count.wager
    if as_published:
        if count is None or count.published is None:
            raise OptionError("--as-published deals as a count file's [published] source did: give --count with a "
                              "count file that has a [published] block")
        cut_card, burn, decks = _as_published(count.published, decks, penetration)
    if wager is not None and plan.wagers and wager not in plan.wagers:
        raise OptionError(f"the counting study of {game} counts {' or '.join(f'--wager {w}' for w in plan.wagers)}, "
                          f"not {wager!r}")
    # the study's procedure is read before anything is counted: a bad option is refused at once
    procedure = None if wager is None else _procedure(cut_card, burn, after_cut, penetration)
    session = open_session(game, decks=decks, fresh=fresh)
    rules = session.resolve(table_ref)
    fx, shoe = load(plan.effects)(rules)
    sections = [cnt.effects_section(fx, shoe), cnt.tags_section(fx), *cnt.left_out_sections(rules)]
    if procedure is not None:
        from oddscalc import cluster

        bar = Progress(show_progress(), f"counting study: {shoes} shoes")
        where = cluster.address(scheduler)
        with contextlib.ExitStack() as stack:
            runner = None if where is None else cluster.mapper(stack.enter_context(cluster.client(where, workers)),
                                                               bar.step)
            st = load(plan.study)(rules, fx, wager, shoes, procedure, seed, trigger, runner,
                                  **({"count": count} if count is not None else {}))
        bar.finish()
        sections += [studies.section(st), studies.metrics_section(st, bankroll)]
        if st.plays[0].expected is not None:
            from oddscalc.protection import study_figures

            sections.append(study_figures.expected_section(st))
            published = study_figures.published_section(st)
            if published is not None:
                sections.append(published)
    echo_sections(sections, fmt, "Counting", game, rules.table)


def _as_published(published: Published, decks: int | None, penetration: str | None) -> tuple[int, str, int]:
    """(cut card, burn, decks) of a count file's [published] convention; refused beside an option that states one
    of them, rather than one silently overriding the other."""
    ctx = click.get_current_context()
    stated = [f"--{n.replace('_', '-')}" for n in ("cut_card", "burn", "decks")
              if ctx.get_parameter_source(n) is not click.core.ParameterSource.DEFAULT]
    if penetration is not None:
        stated.append("--penetration")
    if stated:
        raise OptionError(f"--as-published and {stated[0]}: --as-published deals as the source did; give one")
    return published.cut_card, str(published.burn), published.decks


def _procedure(cut_card: int, burn: str, after_cut: int, penetration: str | None) -> Procedure:
    """The study's ``Procedure`` from the options: --penetration (deprecated) states the cut card alone, as before;
    given with --cut-card, --burn or --after-cut it is refused rather than one silently overriding the other."""
    from oddscalc.exact import parse_fraction
    from oddscalc.protection.study import TURN, Procedure

    ctx = click.get_current_context()
    stated = [f"--{n.replace('_', '-')}" for n in ("cut_card", "burn", "after_cut")
              if ctx.get_parameter_source(n) is not click.core.ParameterSource.DEFAULT]
    if penetration is not None:
        if stated:
            raise OptionError(f"--penetration and {stated[0]}: give one (--penetration, deprecated, is the share "
                              "dealt with no burn; --cut-card and --burn state the procedure)")
        try:
            share = parse_fraction(penetration)
        except ValueError:
            raise OptionError(f"--penetration: not a number: {penetration!r}") from None
        return Procedure.penetration(share)
    text = burn.strip().lower()
    if text == TURN:
        return Procedure(cut_card, None, after_cut)
    if not (text.isascii() and text.isdigit()) or int(text) > 10**6:
        raise OptionError(f"--burn: a whole number of cards (0 to 1,000,000) or {TURN!r}, not {burn!r}")
    return Procedure(cut_card, int(text), after_cut)


@click.command()
@game_for("collusion")
@table_option
@click.option("--partners", type=Whole(1, 6), default=1, show_default=True,
              help="Partners whose cards the player sees (let-it-ride: 1 exact over every deal, 2 to 6 sampled; "
                   "caribbean: 1 to 6 sampled); sampled situations are each settled exactly.")
@click.option("--situations", type=Whole(2, 10**7),
              help="Situations sampled (caribbean, and let-it-ride with 2 or more partners); default 200 and 5000.")
@click.option("--seed", type=SEED, default=20261201, show_default=True, help="The sample's seed.")
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
    from oddscalc.progress import Progress

    plan = declared(game).collusion
    assert plan is not None  # the GAME argument admits only the games that declare it
    if exact_count:
        refuse_unless("--exact", plan.exact_on_request, lambda c: c.collusion is not None and
                      c.collusion.exact_on_request, game)
    if partners > plan.most_partners:
        raise OptionError(f"--partners {partners}: {game} plays with at most {plan.most_partners} partners")
    session = open_session(game, fresh=fresh, deck=parse_reduced_deck(reduced, game))
    bar = Progress(show_progress(), f"{game}: partners' cards seen")
    found = load(plan.run)(session, table_ref, partners, situations, seed, exact_count, scheduler, workers, bar)
    echo_sections(found, fmt, "Collusion", game, session.resolve(table_ref).table)


@click.command()
@game_for("flash")
@table_option
@click.option("--dealer-cards", "dealer_cards", type=Whole(1, 5), multiple=True,
              help="Dealer cards seen: 1 (the game as dealt) to 5; 2, 3 and 4 take about 150, 20 and 80 s on two "
                   "cores. Repeat for several (default: 1 and 5).")
@sections_format
@click.option("--chart", "chart_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the chart of EV against the cards seen here (SVG).")
@fresh_option
def flash(game: str, table_ref: str | None, dealer_cards: tuple[int, ...], fmt: str, chart_path: Path | None,
          fresh: bool) -> None:
    """What seeing the dealer's cards is worth at GAME, exact: the up card alone, hole cards too, all five."""
    from oddscalc.report.svg import render_chart

    plan = declared(game).flash
    assert plan is not None  # the GAME argument admits only the games that declare it
    beyond = sorted(set(dealer_cards) - set(plan.dealer_cards))
    if beyond:
        raise OptionError(f"--dealer-cards {beyond[0]}: at {game} the cards seen are "
                          f"{', '.join(map(str, plan.dealer_cards))}")
    session = open_session(game, fresh=fresh)
    sections, chart = load(plan.run)(session, table_ref, dealer_cards or plan.default, show_progress())
    if chart_path is not None:
        write_output(chart_path, render_chart(chart))
    echo_sections(sections, fmt, "Dealer cards seen", game, session.resolve(table_ref).table)


COMMANDS = (exposure, counting, collusion, flash)
