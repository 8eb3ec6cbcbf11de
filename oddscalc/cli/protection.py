"""Commands for game protection: what a breach is worth (exposure, counting, collusion, flash). Registered on the
group in ``cli``."""

from __future__ import annotations

import contextlib
from pathlib import Path

import click

from oddscalc.cli.options import (
    EXIT_INPUT,
    Failure,
    echo_sections,
    fresh_option,
    game_argument,
    open_session,
    parse_reduced_deck,
    scheduler_option,
    sections_format,
    show_progress,
    strategy_option,
    table_option,
    write_output,
)
from oddscalc.protocol import OptionError


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
    from oddscalc.exact import parse_fraction
    from oddscalc.progress import Progress
    from oddscalc.protection import counting as cnt
    from oddscalc.protection import study as studies

    session = open_session(game, decks=decks, fresh=fresh)
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
        from oddscalc import cluster

        bar = Progress(show_progress(), f"counting study: {shoes} shoes")
        where = cluster.address(scheduler)
        with contextlib.ExitStack() as stack:
            runner = None if where is None else cluster.mapper(stack.enter_context(cluster.client(where, workers)),
                                                               bar.step)
            if game == "house-baccarat":
                from oddscalc.protection import house_study

                st = house_study.run(rules, fx, shoes, share, seed, trigger, runner)
            else:
                st = studies.run(rules, cnt.coup_ev(rules), fx, wager, shoes, share, seed, trigger, runner)
        bar.finish()
        sections.append(studies.section(st))
    echo_sections(sections, fmt, "Counting", game, rules.table)


@click.command()
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
    from oddscalc import cluster
    from oddscalc.progress import Progress

    session = open_session(game, fresh=fresh, deck=parse_reduced_deck(reduced, game))
    rules = session.resolve(table_ref)
    bar = Progress(show_progress(), f"{game}: partners' cards seen")
    if game == "caribbean":
        from oddscalc.protection.collusion import caribbean as ptn

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
            echo_sections([ptn.exact_section(got_exact, exact)], fmt, "Collusion", game, rules.table)
            return
        got = ptn.sample(rules.deck, rules.qualifier, model.pays.main, partners, situations or 200, seed, bar.step)
        bar.finish()
        echo_sections([ptn.section(got, exact)], fmt, "Collusion", game, rules.table)
        return
    from oddscalc.games.let_it_ride.count import PAYING
    from oddscalc.protection.collusion import let_it_ride as col

    counts = session.counts(rules)
    pays = [getattr(rules.model.pays.main, c.value) for c in PAYING]
    if partners > 1:  # beyond one partner: sampled situations, each settled exactly
        sampled = col.sample_partners(rules.deck, rules.min_rank, pays, partners, situations or 5000, seed)
        exact = session.analyze(table_ref).wager("main").expected_value
        echo_sections([col.sampled_section(sampled, exact)], fmt, "Collusion", game, rules.table)
        return
    where = cluster.address(scheduler)
    if where is None:
        result = col.partner_seen(counts, pays, rules.min_rank)
    else:
        with cluster.client(where, workers) as c:
            result = col.partner_seen(counts, pays, rules.min_rank, cluster.mapper(c, bar.step), chunk_size=256)
    bar.finish()
    early = col.community_card_early(counts, pays, rules.min_rank)
    echo_sections([col.section(result, early)], fmt, "Collusion", game, rules.table)


@click.command()
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
    from oddscalc.games.caribbean.settle import settle_counts
    from oddscalc.progress import Progress
    from oddscalc.protection import flash as flashes
    from oddscalc.report.svg import render_chart

    session = open_session(game, fresh=fresh)
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
            bar = Progress(show_progress(), f"caribbean: {k} dealer cards seen")
            seen.append(flashes.two_cards(rules.deck, rules.qualifier, pays, bar) if k == 2 else
                        flashes.known_cards(rules.deck, rules.qualifier, pays, k, bar))
    published = rules.table.id == "us" and rules.deck.is_full
    if chart_path is not None:
        write_output(chart_path, render_chart(flashes.chart(seen, published)))
    echo_sections(flashes.sections(seen, published), fmt, "Dealer cards seen", game, rules.table)
