"""The ``card`` command: the shortest strategy card within a bound of optimal, and the frontier of rules against
exact cost. Each game's declaration (``Capabilities.synthesis``) names the code that synthesises; nothing here
knows a game. Registered on the group in ``cli.main`` (:data:`COMMANDS`)."""

from __future__ import annotations

from pathlib import Path

import click

from oddscalc.cli.options import (
    EXIT_INPUT,
    Failure,
    Whole,
    declared,
    echo_sections,
    game_for,
    open_session,
    players_option,
    sections_format,
    table_option,
    table_path,
    write_output,
)
from oddscalc.protocol import OptionError, load

LARGEST_BOUND = 1  # a bound of a whole unit per unit: any card is within it
MOST_RULES = 12  # the longest card the search tries


@click.command()
@game_for("synthesis", "card")
@table_option
@click.option("--within", "within_text", required=True, metavar="COST",
              help="The most a card may cost against optimal, per unit wagered: a percent (0.05%), decimal or "
                   "fraction.")
@click.option("--most-rules", type=Whole(1, MOST_RULES), default=MOST_RULES, show_default=True,
              help="The longest card the search tries (the frontier's last length); a lower one is quicker but "
                   "may miss a short card that a longer search finds by dropping rules.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the synthesised card file here (it loads with --strategy).")
@players_option
@sections_format
def card(game: str, table_ref: str | None, within_text: str, most_rules: int, output: Path | None,
         players: int | None, fmt: str) -> None:
    """The shortest strategy card for GAME whose exact cost against optimal is within a bound, and the frontier.

    With several seats (house-baccarat --players N) the cost is against the symmetric equilibrium the other seats
    play; every output states its reference."""
    from oddscalc.exact import parse_fraction

    try:
        within = parse_fraction(within_text)
    except ValueError:
        raise OptionError(f"--within: not a number: {within_text!r} (use e.g. 0.05%, 0.0005 or 1/2000)") from None
    if not 0 <= within <= LARGEST_BOUND:
        raise OptionError(f"--within {within_text}: give a cost from 0 to 100%")
    plan = declared(game).synthesis
    assert plan is not None  # the GAME argument admits only the games that declare it
    session = open_session(game, players=players)
    table = session.resolve(table_ref).table
    seats = "" if players is None else f" --players {players}"
    command = f"oddscalc card {game} --table {table.id}{seats} --within {within_text}"
    result = load(plan)(session, table_ref, within, command, most_rules)
    echo_sections(result.sections, fmt, "Strategy card synthesised", game, table)
    if result.card_text is None:
        raise Failure(f"no card found within {within_text} of the reference (see the frontier)", EXIT_INPUT)
    if output is not None:
        write_output(output, result.card_text, protect=(table_path(game, table_ref),))


COMMANDS = (card,)
