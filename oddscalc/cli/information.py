"""``oddscalc glimpse``: what a glimpse of the cards declared in an information model is worth. The game's declaration
(``Capabilities.information``) says whether it applies and which code answers it: nothing here knows a game.
Registered on the group in ``cli.main`` (:data:`COMMANDS`)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import click

from oddscalc.cli.options import (
    Whole,
    declared,
    echo_sections,
    fresh_option,
    game_for,
    open_session,
    output_option,
    sections_format,
    show_progress,
    table_option,
    table_path,
)
from oddscalc.protocol import OptionError, load

MOST_SORTS = 4095  # the most sorts listed: every two-group partition of the thirteen ranks (--sort-ranks)


def _complete_models(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of --model: the shipped models' ids, then files."""
    from click.shell_completion import CompletionItem

    from oddscalc.protection.information import shipped_models

    return [CompletionItem(i) for i in shipped_models() if i.startswith(incomplete)] + \
        [CompletionItem(incomplete, type="file")]


@click.command()
@game_for("information", "glimpse")
@click.option("--model", "model_ref", required=True, metavar="ID|PATH", shell_complete=_complete_models,
              help="Information model: a shipped id (tables/information/<id>.toml, e.g. edge-sort-first-four) or a "
                   "path to a model file (contains a / or ends in .toml).")
@table_option
@click.option("--search-sorts", "search", type=Whole(1, MOST_SORTS),
              help="Also search every two-group sort of the ten values at the model's positions and list the best "
                   "N (punto-banco).")
@click.option("--sort-ranks", "ranks", is_flag=True,
              help="With --search-sorts: search the 4,095 sorts of the thirteen ranks (T J Q K split too), not only "
                   "the sorts of the ten values.")
@sections_format
@output_option
@fresh_option
def glimpse(game: str, model_ref: str, table_ref: str | None, search: int | None, ranks: bool, fmt: str,
            output: Path | None, fresh: bool) -> None:
    """What seeing cards before a decision is worth at GAME, exact: the model says which cards and how much of
    each (the card, its rank, suit, colour or group), and the player makes the best use of it."""
    from oddscalc.progress import Progress
    from oddscalc.protection.information import load_model, model_path

    plan = declared(game).information
    assert plan is not None  # the GAME argument admits only the games that declare it
    model, _ = load_model(model_ref, game)
    run = load(plan.run)
    if search is not None and "search" not in inspect.signature(run).parameters:
        raise OptionError(f"--search-sorts does not apply to {game}")
    if ranks and search is None:
        raise OptionError("--sort-ranks widens --search-sorts N to the sorts of the thirteen ranks: give "
                          "--search-sorts")
    session = open_session(game, fresh=fresh)
    table = session.resolve(table_ref).table
    bar = Progress(show_progress(), f"{game}: {model.id}")
    found = run(session, table_ref, model, bar, **({"search": search} if search is not None else {}),
                **({"ranks": True} if ranks else {}))
    echo_sections(found, fmt, "Information", game, table, output,
                  protect=(table_path(game, table_ref), model_path(model_ref)))


COMMANDS = (glimpse,)
