"""What every game's strategy card file shares: loading it, rank values, and playing its ordered
rules over an array of decision points (first match wins).

A card is data, as a table is: a TOML file validated against a pydantic model, never evaluated.
Each game (``raise_card`` for Caribbean Stud, ``ride_card`` for Let It Ride) names its features
and how a condition on one reads; this module holds the loop every card plays the same way, with
the two checks a card must pass on every deck it is played on: each rule decides something no
earlier rule did, and every decision point is decided (by a rule or by ``otherwise``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
from pydantic import BaseModel

from oddscalc.cards import RANK_CHARS
from oddscalc.datafile import Problem, TableError, key_lines, line_for, load_model_file, read_text

RANKS = tuple(RANK_CHARS)  # "2".."A", index = rank


def rank_value(v: Any) -> int:
    """A rank as a card writes it ("T" or "10", "J" ..) as its index; ValueError otherwise."""
    text = "T" if v in ("10", 10) else str(v).upper()
    if text not in RANKS:
        raise ValueError(f"{v!r} is not a rank (2-9, T or 10, J, Q, K, A)")
    return RANKS.index(text)


def as_tuple(value: Any) -> Any:
    """A TOML array as a tuple (so a frozen model keeps it), anything else as it is."""
    return tuple(value) if isinstance(value, list) else value


def parse_when(value: Any, features: Sequence[str], parse: Callable[[str, Any], tuple[object, ...]],
               example: str) -> dict[str, tuple[object, ...]]:
    """A rule's conditions (``when``): each a known feature and its values as ``parse`` reads them."""
    if not isinstance(value, dict) or not value:
        raise ValueError(f"write the conditions as a table, e.g. when = {example}")
    out = {}
    for name, given in value.items():
        if name not in features:
            raise ValueError(f"unknown feature {name!r}; features: {', '.join(features)}")
        out[name] = parse(name, given)
    return out


class Rule(Protocol):
    """A card rule as the player reads it: its conditions and what it does."""

    @property
    def label(self) -> str:
        """What the card calls the rule ("" for none)."""

    @property
    def when(self) -> Mapping[str, tuple[object, ...]]:
        """Each condition's feature and the values it accepts."""

    @property
    def action(self) -> str:
        """What the rule does when it decides."""


def rule_title(rules: Sequence[Rule], i: int) -> str:
    """A rule's label, or its number."""
    return rules[i].label or f"rule {i + 1}"


ModelT = TypeVar("ModelT", bound=BaseModel)


@dataclass(frozen=True)
class Card(Generic[ModelT]):
    """A loaded card: its model, where it came from (for errors) and its digest."""

    model: ModelT
    path: Path
    sha256: str
    lines: Mapping[tuple[str, ...], int]

    def problem(self, key: str, message: str) -> TableError:
        """An error at one key of the card file (the nearest enclosing key that has a line)."""
        return TableError([Problem(str(self.path), line_for(self.lines, tuple(key.split("."))), key, message)],
                          "strategy card")


def load(path: Path, model: type[ModelT]) -> Card[ModelT]:
    """Read and validate a strategy card file (TableError with file, line and key otherwise)."""
    validated, digest = load_model_file(path, model, "strategy card")
    return Card(validated, path, digest, key_lines(read_text(path)[0]))


def first_match(card: Card[Any], rules: Sequence[Rule], key: str, shape: tuple[int, ...],
                holds: Callable[[Rule], np.ndarray], otherwise: str | None, yes: str,
                example: Callable[[tuple[int, ...]], str]) -> tuple[np.ndarray, np.ndarray]:
    """Play ``rules`` (found at ``key`` in the card) over decision points of ``shape``.

    ``holds(rule)`` is a boolean array, broadcastable to ``shape``, of where the rule's conditions
    hold. Returns where the action is ``yes`` and which rule decided (``len(rules)`` for
    ``otherwise``). TableError for a rule that decides nothing, or a point no rule decides without
    an ``otherwise`` (``example`` names that point's holding).
    """
    free = np.ones(shape, dtype=bool)
    chosen = np.zeros(shape, dtype=bool)
    rule = np.full(shape, len(rules), dtype=np.int32)  # a card may list more rules than an int8 counts
    for i, r in enumerate(rules):
        take = np.broadcast_to(holds(r), shape) & free
        if not take.any():
            raise card.problem(f"{key}.{i}", f"{rule_title(rules, i)} is never reached: nothing that an earlier "
                                             "rule leaves undecided matches it on this deck")
        chosen[take] = r.action == yes
        rule[take] = i
        free &= ~take
    if free.any():
        if otherwise is None:
            point = tuple(int(x[0]) for x in np.nonzero(free))
            raise card.problem(key, f"no rule decides some holdings, e.g. {example(point)}; add an otherwise "
                                    "or a rule")
        chosen[free] = otherwise == yes
    return chosen, rule
