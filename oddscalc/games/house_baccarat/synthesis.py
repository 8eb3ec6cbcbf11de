"""House baccarat draw cards synthesised: the shortest draw-or-stand card within a bound of optimal, and the frontier.

Counting argument. A decision is your seat's two-card composition by point values (44 of them, naturals aside).
With the other seats playing the table's play (none on a one-seat table), your EV per unit staked is a sum over the
compositions of (pay x wins - losses) / total under the action taken there (``settle.seat_ev``), so drawing
rather than standing on (u, w) gains the difference of the count's two columns over (u, w) and (w, u): an exact
integer once scaled by the pay's denominator. Each composition is its own cell (every card feature reads the two
values), so a card's cost is the optimal gain less the gains of the compositions it draws on
(:mod:`oddscalc.games.card_synthesis`). On a one-seat table that is the report's figure for the card; with several
seats it is your seat's cost when you alone play the card (the report has every seat play it).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.datafile import TableError
from oddscalc.games.card_synthesis import (
    MOST_RULES,
    Condition,
    Placed,
    Problem,
    Synthesis,
    shipped_cards,
    synthesis_report,
)
from oddscalc.games.house_baccarat.card import COMPOSITIONS, draws, load_card
from oddscalc.games.house_baccarat.count import HouseBaccaratRules, SeatCounter
from oddscalc.games.house_baccarat.game import refuse_shown
from oddscalc.games.house_baccarat.settle import plays

if TYPE_CHECKING:
    from oddscalc.analysis import Session


def conditions() -> list[Condition]:
    """What a draw card can say: totals (one, or a run), a value held, two values held, a pair."""
    first = np.array([u for u, _ in COMPOSITIONS])
    second = np.array([w for _, w in COMPOSITIONS])
    total = (first + second) % 10
    out: list[Condition] = []

    def add(feature: str, value: object, mask: np.ndarray) -> None:
        if mask.any() and not mask.all():
            out.append(Condition(feature, value, np.asarray(mask)))

    for lo in range(8):
        for hi in range(lo, 8):
            add("total", list(range(lo, hi + 1)) if hi > lo else lo, (total >= lo) & (total <= hi))
    for v in range(10):
        add("holds_any", v, (first == v) | (second == v))
    for v in range(10):
        for x in range(v + 1, 10):
            add("holds_all", [v, x], ((first == v) & (second == x)) | ((first == x) & (second == v)))
    add("pair", True, first == second)
    add("pair", False, first != second)
    return out


def synthesis_sections(session: Session, table_ref: str | None, within: Fraction, command: str,
                       most_rules: int = MOST_RULES) -> Synthesis:
    """The ``card`` command for the house baccarat (the game's declaration names it)."""
    rules = session.resolve(table_ref)
    assert isinstance(rules, HouseBaccaratRules)
    refuse_shown(rules)
    counter = session.counts(rules)
    assert isinstance(counter, SeatCounter)
    _, played = plays(counter, rules)
    sc = played.counts
    pay = Fraction(rules.pay)
    den = pay.denominator
    ev = sc.ev(pay)
    gain = [int((ev[u, w, 1] + ev[w, u, 1] - ev[u, w, 0] - ev[w, u, 0]) * den) if u != w
            else int((ev[u, u, 1] - ev[u, u, 0]) * den) for u, w in COMPOSITIONS]
    scale = den * sc.total
    problem = Problem(gain, [max(g, 0) for g in gain], scale, conditions(), "draw", "stand")
    placed = []
    for path in shipped_cards("house-baccarat"):
        try:
            card = load_card(path)
            m = draws(card)
        except TableError:
            continue
        said = sum(g for g, (u, w) in zip(gain, COMPOSITIONS) if m[u, w])
        placed.append(Placed(f"card house-baccarat/{path.name}", len(card.model.rules),
                             Fraction(sum(max(g, 0) for g in gain) - said, scale), card.model.title))
    unit = "units per unit staked"
    return synthesis_report(problem, within, "house-baccarat", rules.table, command, unit, placed, most_rules)
