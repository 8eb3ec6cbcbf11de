"""The ``midcoup`` command: each outcome's exact probability and each wager's exact EV once part of a coup is seen
(the tables late-bet and squeeze games are priced from). A game's declaration (``Capabilities.midcoup``) names the
code that answers; nothing here knows a game. Registered on the group in ``cli.main`` (:data:`COMMANDS`)."""

from __future__ import annotations

from pathlib import Path

import click

from oddscalc.cli.options import (
    decks_option,
    declared,
    echo_sections,
    game_for,
    open_session,
    output_option,
    sections_format,
    table_option,
    table_path,
)
from oddscalc.protocol import load


@click.command()
@game_for("midcoup")
@table_option
@click.option("--after", type=click.Choice(["player", "banker", "four"]), default="player", show_default=True,
              help="What is seen: the player's two cards, the banker's two cards, or all four (both totals).")
@decks_option
@click.option("--shoe", metavar="COUNTS",
              help="The shoe as cards left per point value, 0 (tens and faces) to 9: ten counts, e.g. "
                   "\"128 32 32 32 32 32 32 32 32 32\" (answers the wagers that read no pair or suit).")
@click.option("--removed", metavar="CARDS",
              help="Cards removed from the table's full shoe, rank and suit (e.g. \"5s 5h Kd\"; repeat a card for "
                   "each copy).")
@sections_format
@output_option
def midcoup(game: str, table_ref: str | None, after: str, decks: int | None, shoe: str | None, removed: str | None,
            fmt: str, output: Path | None) -> None:
    """Mid-coup tables at GAME: each outcome's exact probability and each wager's exact EV given the totals seen."""
    plan = declared(game).midcoup
    assert plan is not None  # the GAME argument admits only the games that declare it
    session = open_session(game, decks=decks)
    sections = load(plan)(session, table_ref, after, shoe, removed)
    echo_sections(sections, fmt, "Mid-coup", game, session.resolve(table_ref).table, output,
                  protect=(table_path(game, table_ref),))


COMMANDS = (midcoup,)
