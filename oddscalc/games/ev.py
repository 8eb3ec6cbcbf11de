"""What a hand is worth, the shared part: the sections every game's ``ev`` answers with.

Each game's own ``ev`` module (``oddscalc/games/<game>/ev.py``) counts the exact expected value of each action
open to the player in one situation (a hand, a seat's cards, a shoe) and hands the figures here to be shown: one
row per action or wager, its EV exact ("p/q") and as a decimal, and the best action with its margin over the
next best. A decimal is text rounded exactly (``exact.decimal_str``): a section's cells hold no float.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from oddscalc.exact import decimal_str
from oddscalc.results import Cell, Column, Section

PLACES = 6  # decimals shown beside each exact figure


@dataclass(frozen=True)
class Choice:
    """One action (or wager) and its exact EV, per ``unit`` (an ante, a bet, a stake)."""

    action: str  # an id: fold, raise, ride, pull, draw, stand, banker ...
    label: str
    ev: Fraction


def best_of(choices: Sequence[Choice]) -> tuple[Choice, Fraction]:
    """The best choice and its margin over the next best; a tie goes to the first listed (the cheaper action:
    each game lists the action with the lower stake first)."""
    best = choices[0]
    for c in choices[1:]:
        if c.ev > best.ev:
            best = c
    others = [c.ev for c in choices if c is not best]
    return best, (best.ev - max(others)) if others else Fraction(0)


def decimal(x: Fraction) -> str:
    """An exact figure as a decimal, rounded exactly to :data:`PLACES` places."""
    return decimal_str(x, PLACES)


def actions_section(section_id: str, title: str, choices: Sequence[Choice], unit: str,
                    intro: tuple[str, ...] = (), notes: tuple[str, ...] = (), decide: bool = True) -> Section:
    """One row per choice: its id, words, EV exact and as a decimal, and (``decide``) which is best and by how
    much (the margin over the next best, on the best row)."""
    columns = [Column("action", "Action"), Column("label", "In words"),
               Column("ev_exact", f"EV per {unit} (exact)", "fraction"),
               Column("ev_decimal", f"EV per {unit}")]
    rows: list[tuple[Cell, ...]] = []
    best, margin = best_of(choices) if decide else (None, Fraction(0))
    if decide:
        columns += [Column("best", "Best"), Column("margin_exact", "Better by (exact)", "fraction"),
                    Column("margin_decimal", "Better by")]
    for c in choices:
        row: tuple[Cell, ...] = (c.action, c.label, c.ev, decimal(c.ev))
        if decide:
            top = c is best
            row += (top, margin if top else None, decimal(margin) if top else None)
        rows.append(row)
    return Section(section_id, title, tuple(columns), tuple(rows), intro=intro, notes=notes)


def counts_section(section_id: str, title: str, counts: Sequence[tuple[str, str, int]], intro: tuple[str, ...] = (),
                   notes: tuple[str, ...] = ()) -> Section:
    """Outcomes counted: id, words, count, and probability exact and as a decimal."""
    total = sum(n for _, _, n in counts)
    rows = tuple((event, label, n, Fraction(n, total), decimal(Fraction(n, total))) for event, label, n in counts)
    return Section(section_id, title,
                   (Column("event", "Event"), Column("label", "In words"), Column("count", "Count", "int"),
                    Column("probability_exact", "Probability (exact)", "fraction"),
                    Column("probability_decimal", "Probability")),
                   rows, intro=intro, notes=notes)
