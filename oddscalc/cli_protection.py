"""Command line, game protection: card counting, collusion, the dealer's cards seen, the seats' game.

Each command registers on :func:`oddscalc.cli.main` and maps its errors to exit codes there, like
every other command.
"""

from __future__ import annotations

import click

from .cli import _progress, _session, decks_option, fresh_option, main, scheduler_option, table_option
from .protocol import OptionError


@main.command()
@click.argument("game", type=click.Choice(["punto-banco", "house-baccarat"]))
@table_option
@click.option("--wager", help="Also run a counting study of this wager (e.g. dragon_7; punto-banco).")
@click.option("--shoes", type=click.IntRange(1, 10**6), default=200, show_default=True,
              help="Shoes the study deals.")
@click.option("--penetration", default="0.8", show_default=True, help="Share of each shoe dealt (0 to 1).")
@click.option("--trigger", type=float, help="Bet at this true count or above (default: where the EV turns positive).")
@click.option("--seed", type=int, default=20261201, show_default=True)
@click.option("--decks", type=click.IntRange(1, 10_000), help="Decks in the shoe.")
@click.option("--format", "fmt", type=click.Choice(["md", "json"]), default="md", show_default=True)
@scheduler_option
@fresh_option
def counting(game: str, table_ref: str | None, wager: str | None, shoes: int, penetration: str, trigger: float | None,
             seed: int, decks: int | None, fmt: str, scheduler: str | None, workers: int | None, fresh: bool) -> None:
    """Card counting on GAME: exact removal effects of every rank on every wager, a balanced count per
    wager, and with --wager a counting study that knows the exact EV at every coup."""
    import json

    from . import counting as cnt
    from . import study as studies
    from .exact import parse_fraction
    from .progress import Progress
    from .report.json import section_data
    from .report.markdown import section_markdown

    session = _session(game, decks=decks, fresh=fresh)
    rules = session.resolve(table_ref)
    if game == "house-baccarat":
        if wager is not None:
            raise OptionError("the counting study deals punto banco; the house game gets its removal effects only")
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
        if where is None:
            st = studies.run(rules, cnt.coup_ev(rules), fx, wager, shoes, share, seed, trigger)
        else:
            with cluster.client(where, workers) as c:
                st = studies.run(rules, cnt.coup_ev(rules), fx, wager, shoes, share, seed, trigger,
                                 cluster.mapper(c, bar.step))
        bar.finish()
        sections.append(studies.section(st))
    if fmt == "json":
        click.echo(json.dumps({"game": game, "table": rules.table.id, "table_sha256": rules.table.sha256,
                               "sections": {s.id: section_data(s) for s in sections}}, indent=2, ensure_ascii=False))
    else:
        click.echo(f"# Counting: {rules.table.title} ({game}/{rules.table.id})\n")
        click.echo("\n".join(section_markdown(s) for s in sections), nl=False)


@main.command()
@click.argument("game", type=click.Choice(["let-it-ride", "caribbean"]))
@table_option
@click.option("--partners", type=click.IntRange(1, 6), default=1, show_default=True,
              help="Partners whose cards the player sees (let-it-ride: 1 exact over every deal, 2 to 6 sampled; "
                   "caribbean: 1 to 6 sampled); sampled situations are each settled exactly.")
@click.option("--situations", type=click.IntRange(2, 10**7),
              help="Situations sampled (caribbean, and let-it-ride with 2 or more partners); default 200 and 5000.")
@click.option("--seed", type=int, default=20261201, show_default=True, help="caribbean: the sample's seed.")
@scheduler_option
@fresh_option
def collusion(game: str, table_ref: str | None, partners: int, situations: int | None, seed: int,
              scheduler: str | None, workers: int | None, fresh: bool) -> None:
    """What seeing partners' cards is worth: the player plays knowing them."""
    from . import cluster
    from .progress import Progress
    from .report.markdown import section_markdown

    session = _session(game, fresh=fresh)
    rules = session.resolve(table_ref)
    bar = Progress(_progress(), f"{game}: partners' cards seen")
    if game == "caribbean":
        from . import partners as ptn

        model = rules.model
        got = ptn.sample(rules.deck, rules.qualifier, model.pays.main, partners, situations or 200, seed, bar.step)
        bar.finish()
        exact = session.analyze(table_ref).wager("main").expected_value
        click.echo(f"# Collusion: {rules.table.title} ({game}/{rules.table.id})\n")
        click.echo(section_markdown(ptn.section([got], exact)), nl=False)
        return
    from . import collusion as col
    from .games.let_it_ride import PAYING

    counts = session.counts(rules)
    pays = [getattr(rules.model.pays.main, c.value) for c in PAYING]
    if partners > 1:  # beyond one partner: sampled situations, each settled exactly
        sampled = col.sample_partners(rules.deck, rules.min_rank, pays, partners, situations or 5000, seed)
        exact = session.analyze(table_ref).wager("main").expected_value
        click.echo(f"# Collusion: {rules.table.title} ({game}/{rules.table.id})\n")
        click.echo(section_markdown(col.sampled_section(sampled, exact)), nl=False)
        return
    where = cluster.address(scheduler)
    if where is None:
        result = col.partner_seen(counts, pays, rules.min_rank)
    else:
        with cluster.client(where, workers) as c:
            result = col.partner_seen(counts, pays, rules.min_rank, cluster.mapper(c, bar.step), chunk_size=256)
    bar.finish()
    early = col.community_card_early(counts, pays, rules.min_rank)
    click.echo(f"# Collusion: {rules.table.title} ({game}/{rules.table.id})\n")
    click.echo(section_markdown(col.section(result, early)), nl=False)


@main.command()
@click.argument("game", type=click.Choice(["caribbean"]))
@table_option
@click.option("--dealer-cards", "dealer_cards", type=click.Choice(["1", "2", "5"]), multiple=True,
              help="Dealer cards seen: 1 (the game as dealt), 2 (one hole card too: about 2 minutes on two cores), "
                   "5; repeat for several (default: 1 and 5).")
@fresh_option
def flash(game: str, table_ref: str | None, dealer_cards: tuple[str, ...], fresh: bool) -> None:
    """What seeing the dealer's cards is worth at GAME, exact: the up card alone, one hole card too, all five."""
    from . import flash as flashes
    from .games.caribbean import settle_counts
    from .progress import Progress
    from .report.markdown import section_markdown

    session = _session(game, fresh=fresh)
    rules = session.resolve(table_ref)
    rt = session.counts(rules)
    pays = rules.model.pays.main
    st = settle_counts(rt, pays, closest=False)
    wanted = sorted({int(k) for k in dealer_cards} or {1, 5})
    seen = []
    for k in wanted:
        if k == 1:
            seen.append(flashes.one_card(rt, st, pays))
        elif k == 2:
            bar = Progress(_progress(), "caribbean: two dealer cards seen")
            seen.append(flashes.two_cards(rules.deck, rules.qualifier, pays, bar))
        else:
            seen.append(flashes.all_cards(rt, st, pays))
    click.echo(f"# Dealer cards seen: {rules.table.title} ({game}/{rules.table.id})\n")
    published = rules.table.id == "us" and rules.deck.is_full
    click.echo(section_markdown(flashes.section(seen, st, published)), nl=False)


@main.command()
@click.argument("game", type=click.Choice(["house-baccarat"]))
@table_option
@click.option("--players", type=click.IntRange(2, 7), default=2, show_default=True, help="Seats filled.")
@decks_option
@click.option("--exhaustive", is_flag=True, help="Search every strategy by two-card total (256), not 9 thresholds.")
@click.option("--edge-to", "edge_to", type=click.IntRange(1, 7), default=None,
              help="Give the edge by seats filled up to this many (default: --players; 6 and 7 on an infinite shoe).")
@fresh_option
def seats(game: str, table_ref: str | None, players: int, decks: int | None, exhaustive: bool, edge_to: int | None,
          fresh: bool) -> None:
    """The game among the seats: edge by seats filled, symmetric equilibria, the best common strategy, and
    one seat's best reply to the others."""
    from .games.house_baccarat import FINITE_EXACT_MAX_PLAYERS
    from .games.seat_game import sections
    from .report.markdown import section_markdown

    if players > FINITE_EXACT_MAX_PLAYERS:
        raise OptionError(f"--players {players}: the seat game is exact on the finite shoe up to "
                          f"{FINITE_EXACT_MAX_PLAYERS} seats (report --players {players} gives the infinite shoe)")
    session = _session(game, decks=decks, players=players, fresh=fresh)
    rules = session.resolve(table_ref)
    found = sections(session.counts(rules), players, rules.pay, exhaustive, edge_to or players)
    click.echo(f"# The seats of {rules.table.title} ({game}/{rules.table.id}), {rules.shoe.label}\n")
    click.echo("\n".join(section_markdown(s) for s in found), nl=False)
