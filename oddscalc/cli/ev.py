"""The ``ev`` command: what a hand is worth, each action's exact EV in one situation. Each game's declaration
(``Capabilities.ev``) names the code that answers and the inputs it takes; nothing here knows a game. Registered
on the group in ``cli.main`` (:data:`COMMANDS`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from oddscalc.cli.options import (
    Whole,
    declared,
    echo_sections,
    game_for,
    open_session,
    refuse_unless,
    sections_format,
    table_option,
)
from oddscalc.protocol import Capabilities, load

# the command's inputs, by parameter name, as the option a user types
INPUTS = {"hand": "--hand", "up": "--up", "shoe": "--shoe", "removed": "--removed", "players": "--players",
          "others": "--others", "stake": "--stake"}
MOST_STAKE = 10_000  # antes in play: no table's decisions add up to more (a hundred antes a bet at most)


def _takes(name: str) -> Callable[[Capabilities], bool]:
    """Whether a game's ``ev`` takes the input ``name``."""
    return lambda c: c.ev is not None and name in c.ev.inputs


@click.command()
@game_for("ev")
@table_option
@click.option("--hand", metavar="CARDS",
              help="The player's cards, e.g. \"As Kd Jh 8c 3s\" (caribbean: 5; let-it-ride: 3, or 4 with the first "
                   "community card last; house-baccarat: the seat's 2; a game file: the cards held at a decision).")
@click.option("--up", metavar="CARD", help="caribbean, or a game file whose dealer shows cards: the dealer's up card, "
                                          "e.g. Qc.")
@click.option("--shoe", metavar="COUNTS",
              help="punto-banco: the shoe as cards left per point value, 0 (tens and faces) to 9: ten counts, e.g. "
                   "\"128 32 32 32 32 32 32 32 32 32\" (answers the wagers that read no pair or suit).")
@click.option("--removed", metavar="CARDS",
              help="punto-banco: cards removed from the table's full shoe, rank and suit (e.g. \"5s 5h Kd\"; repeat a "
                   "card for each copy).")
@click.option("--players", type=Whole(1, 7), help="house-baccarat: seats filled (the seat asked about among them).")
@click.option("--others", metavar="PLAY",
              help="house-baccarat: what the other seats play: optimal (the equilibrium), optimal-total or "
                   "draw-A-B, e.g. draw-0-5 (default: the table's).")
@click.option("--stake", type=Whole(1, MOST_STAKE), metavar="ANTES",
              help="A game file without a dealer: the antes in play at the decision, the ante included (default: "
                   "the one stake possible there, e.g. 1 at the first decision).")
@sections_format
def ev(game: str, table_ref: str | None, hand: str | None, up: str | None, shoe: str | None, removed: str | None,
       players: int | None, others: str | None, stake: int | None, fmt: str) -> None:
    """What a hand is worth at GAME: each action's exact EV, the best and by how much."""
    plan = declared(game).ev
    assert plan is not None  # the GAME argument admits only the games that declare it
    given: dict[str, Any] = {"hand": hand, "up": up, "shoe": shoe, "removed": removed, "players": players,
                             "others": others, "stake": stake}
    for name, value in given.items():
        if value is not None:
            refuse_unless(INPUTS[name], name in plan.inputs, _takes(name), game)
    session = open_session(game)
    sections = load(plan.run)(session, table_ref, **{name: given[name] for name in plan.inputs})
    echo_sections(sections, fmt, "What the hand is worth", game, session.resolve(table_ref).table)


COMMANDS = (ev,)
