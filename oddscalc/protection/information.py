"""Information model files: ``tables/information/<id>.toml`` read into a :class:`~oddscalc.protection.glimpse.Model`.

A model file names its game and the glimpses, each a card position of that game (``player_1``, ``burn`` ...), how
much of the card is seen (``card``, ``rank``, ``suit``, ``colour`` or ``group``; a group glimpse lists the groups,
every rank A 2-9 T J Q K in exactly one), and optionally the decision it precedes (``before``). It is validated like
a table (``datafile``): every problem at once, each with its file, line and key, and exit code 3 on the command line.
The positions and decisions are checked against the game's declaration (``Capabilities.information``): an unknown
position is refused naming those the game has.

A reference is a shipped id or a path (it contains a / or ends in .toml): the two are never guessed between, as
with ``--table``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from oddscalc.datafile import Problem, TableError, line_for, parse_toml, validate_model
from oddscalc.files import is_path
from oddscalc.protection.glimpse import Glimpse, Model

WHAT = "information model"
FOLDER = "information"  # under the shipped tables' folder
MODEL_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")  # as a model file writes them
MOST_GLIMPSES = 16


def _rank_groups(value: object) -> object:
    """A list of groups, each a list of ranks written A, 2-9, T, J, Q, K; every rank in exactly one group."""
    if not isinstance(value, list) or not all(isinstance(g, list) for g in value):
        return value  # the type check names it
    seen: list[str] = [r for g in value for r in g if isinstance(r, str)]
    bad = sorted({r for r in seen if r not in MODEL_RANKS})
    if bad:
        raise ValueError(f"not a rank: {', '.join(map(repr, bad))}; ranks are written {' '.join(MODEL_RANKS)}")
    twice = sorted({r for r in seen if seen.count(r) > 1}, key=MODEL_RANKS.index)
    missing = [r for r in MODEL_RANKS if r not in seen]
    if twice or missing:
        raise ValueError("every rank in exactly one group: " + "; ".join(
            ([f"in two groups: {' '.join(twice)}"] if twice else []) + ([f"in none: {' '.join(missing)}"] if missing
                                                                        else [])))
    if any(not g for g in value) or len(value) < 2:
        raise ValueError("at least two groups, none of them empty")
    return value


class GlimpseBlock(BaseModel):
    """One card seen: its position in the game's deal, how much of it is seen, and the decision it precedes."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    position: str = Field(description="a card position of the game (punto-banco: player_1, banker_1, player_2, "
                                      "banker_2, burn)")
    shows: Literal["card", "rank", "suit", "colour", "group"]
    groups: Annotated[list[list[str]] | None, BeforeValidator(_rank_groups)] = Field(
        None, description="with shows = \"group\" only: the groups of ranks, every rank A 2-9 T J Q K in exactly one")
    before: str = Field("", description="the decision the glimpse precedes (punto-banco: bet); default the first")

    @model_validator(mode="after")
    def _groups_with_group(self) -> GlimpseBlock:
        if self.shows == "group" and self.groups is None:
            raise ValueError('shows = "group" needs groups = [[...], [...]]')
        if self.shows != "group" and self.groups is not None:
            raise ValueError(f'groups is for shows = "group", not shows = "{self.shows}"')
        return self


class InformationModel(BaseModel):
    """An information model: what the player sees of the cards before he decides (``--model``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    game: str
    title: str = Field(min_length=1)
    source: str = Field("", description="a public analysis of the case, when there is one")
    choices: list[str] = Field(default_factory=list, description="the bets the player may choose between once he "
                                                                 "has seen (punto-banco: player, banker, tie, none; "
                                                                 "none sits the coup out); default all of them")
    glimpse: list[GlimpseBlock] = Field(min_length=1, max_length=MOST_GLIMPSES)


def model_path(ref: str) -> Path:
    """The file a model reference names: a path, or a shipped id (TableError listing the shipped ids otherwise)."""
    from oddscalc.catalog import data_path

    return data_path(ref, FOLDER, "information model", "model", WHAT)


def shipped_models() -> list[str]:
    """The ids of the shipped information models, sorted."""
    from oddscalc.catalog import shipped_data

    return shipped_data(FOLDER)


def _check_glimpses(game: str, glimpses: object, positions: tuple[str, ...], decisions: tuple[str, ...],
                    problem: Callable[[tuple[str, ...], str], None]) -> None:
    """Each glimpse's position and decision against the game's: known, and one glimpse per position. Reads the
    file's data as parsed, so that a problem of shape elsewhere in the file does not hide these."""
    if not isinstance(glimpses, list):
        return
    taken: set[str] = set()
    for i, g in enumerate(glimpses):
        if not isinstance(g, dict):
            continue
        position, before = g.get("position"), g.get("before", "")
        if isinstance(position, str):
            if position not in positions:
                problem(("glimpse", str(i), "position"), f"{position!r} is no position of {game}; its "
                                                         f"positions: {', '.join(positions)}")
            elif position in taken:
                problem(("glimpse", str(i), "position"), f"{position!r} is seen twice: one glimpse per position")
            taken.add(position)
        if isinstance(before, str) and before and before not in decisions:
            problem(("glimpse", str(i), "before"), f"{before!r} is no decision of {game}; its "
                                                   f"decisions: {', '.join(decisions)}")


def load_model(ref: str, game: str | None = None) -> tuple[Model, str]:
    """The model a reference names and its file's sha256; ``game``: the game it must be for. Raises TableError with
    every problem (file, line, key), the positions and decisions checked against the game's declaration."""
    from oddscalc.games import DECLARED

    path = model_path(ref)
    name = str(path)
    try:
        data, lines, raw = parse_toml(path)
    except TableError as e:
        raise TableError(e.problems, WHAT) from None
    problems: list[Problem] = []
    found = validate_model(name, lines, InformationModel, data, problems)

    def problem(loc: tuple[str, ...], message: str) -> None:
        problems.append(Problem(name, line_for(lines, loc), ".".join(loc), message))

    # what the game's declaration decides is checked on the data as parsed, beside the shape's problems: one run
    # reports every problem of the file
    named = data.get("game")
    plan = DECLARED[named].information if isinstance(named, str) and named in DECLARED else None
    if isinstance(named, str):
        if plan is None:
            which = [k for k, c in DECLARED.items() if c.information is not None]
            problem(("game",), f"{named!r}: information models are for {', '.join(which) or 'no game'}")
        elif game is not None and named != game:
            problem(("game",), f"this model is for {named}, not {game}")
    if plan is not None and isinstance(named, str):
        _check_glimpses(named, data.get("glimpse"), plan.positions, plan.decisions, problem)
    choices = data.get("choices")
    if isinstance(choices, list) and len({repr(c) for c in choices}) != len(choices):
        problem(("choices",), "a choice is named twice")
    if found is None or problems:
        problems.sort(key=lambda p: (p.line or 0, p.key))
        raise TableError(problems, WHAT)
    assert isinstance(found, InformationModel)
    glimpses = tuple(Glimpse(g.position, g.shows, tuple(frozenset(grp) for grp in (g.groups or ())), g.before)
                     for g in found.glimpse)
    ident = path.stem if not is_path(ref) else str(path)
    return (Model(ident, found.title, found.game, glimpses, tuple(found.choices), found.source),
            hashlib.sha256(raw).hexdigest())


__all__ = ["GlimpseBlock", "InformationModel", "load_model", "model_path", "shipped_models"]
