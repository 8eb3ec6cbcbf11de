"""House baccarat draw cards synthesised: the shortest draw-or-stand card within a bound of its reference, and the
frontier.

Counting argument. A decision is your seat's two-card composition by point values (44 of them, naturals aside).
With the other seats' play fixed, your EV per unit staked is a sum over the compositions of (pay x wins - losses)
/ total under the action taken there (``settle.seat_ev``), so drawing rather than standing on (u, w) gains the
difference of the count's two columns over (u, w) and (w, u): an exact integer once scaled by the pay's
denominator. Each composition is its own cell (every card feature reads the two values), so a card's cost is the
reference's gain less the gains of the compositions it draws on (:mod:`oddscalc.games.card_synthesis`).

The reference. On one seat it is optimal play, and a card's cost is the report's optimal EV less its EV with the
card (``report --strategy``). With several seats there is no single optimum: the seats play a game (the house draws
on the highest third card drawn), and the report's optimum is the symmetric equilibrium reached by best replies
(``settle.plays``). The other seats play it, and a card's cost is what your seat loses by playing the card instead:
the equilibrium is a best reply to itself, so it is what the seat would play, no card costs less than 0, and the
cost is additive over the compositions as above. Every seat playing the card (what ``report --players N --strategy``
shows) moves the others' third cards too: another question, whose answer is printed beside the card.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.datafile import TableError
from oddscalc.exact import frac_str, percent_str
from oddscalc.games.card_report import Placed, Synthesis, shipped_cards, synthesis_report
from oddscalc.games.card_synthesis import MOST_RULES, Condition, Problem
from oddscalc.games.card_synthesis import Card as SynthesisedCard
from oddscalc.games.house_baccarat.card import COMPOSITIONS, draws, load_card
from oddscalc.games.house_baccarat.count import HouseBaccaratRules, SeatCounter, SeatCounts
from oddscalc.games.house_baccarat.game import refuse_shown
from oddscalc.games.house_baccarat.sections import strategy_text
from oddscalc.games.house_baccarat.settle import Solved, plays, seat_ev
from oddscalc.games.house_baccarat.strategy import Strategy

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


def problem(sc: SeatCounts, pay: Fraction) -> Problem:
    """The draw decision against ``sc``'s other seats: each composition's exact gain of drawing over standing, in
    units of 1 / (the pay's denominator x the round's combinations)."""
    den = Fraction(pay).denominator
    ev = sc.ev(pay)
    gain = [int((ev[u, w, 1] + ev[w, u, 1] - ev[u, w, 0] - ev[w, u, 0]) * den) if u != w
            else int((ev[u, u, 1] - ev[u, u, 0]) * den) for u, w in COMPOSITIONS]
    return Problem(gain, [max(g, 0) for g in gain], den * sc.total, conditions(), "draw", "stand")


def card_cost(p: Problem, m: np.ndarray) -> Fraction:
    """The exact cost of drawing where ``m`` (10 x 10 bool, by point values) says, against the problem's reference."""
    said = sum(g for g, (u, w) in zip(p.gain, COMPOSITIONS) if m[u, w])
    return Fraction(sum(p.positive) - said, p.scale)


def reference_text(players: int, optimum: Solved) -> str:
    """What a card's cost is measured against (the report's optimum, as every output of ``card`` states it)."""
    if players == 1:
        return "optimal play of a lone seat (each two-card composition drawn or stood on by its exact EV)"
    others = "the other seat plays" if players == 2 else f"the other {players - 1} seats play"
    return (f"the symmetric equilibrium of {players} seats reached by best replies, the report's optimum "
            f"({strategy_text(optimum.strategy).split(': ', 1)[-1]}), which {others}; a card's cost is what your "
            "seat loses by playing the card instead (none costs less: the equilibrium is its own best reply)")


def _everyone(counter: SeatCounter, rules: HouseBaccaratRules, optimum: Solved, card: SynthesisedCard) -> str:
    """The other question, answered for the synthesised card: every seat playing it (as ``report --strategy`` has
    them)."""
    pay = Fraction(rules.pay)
    m = np.zeros((10, 10), dtype=bool)
    for (u, w), yes in zip(COMPOSITIONS, card.yes):
        m[u, w] = m[w, u] = yes
    you = Strategy.of("card", m)
    along = seat_ev(counter.seat(rules.players, you), you, pay)
    eq = seat_ev(optimum.counts, optimum.strategy, pay)
    than = ("the same as" if along == eq else
            f"{percent_str(abs(eq - along), 6)} {'less' if along < eq else 'more'} than")
    return (f"If every seat played this card (oddscalc report house-baccarat --players {rules.players} --strategy "
            f"THIS_FILE), each would earn {percent_str(along, 6)} per unit staked (exact {frac_str(along)}), {than} "
            f"every seat at the equilibrium ({percent_str(eq, 6)}): the others' third cards move with the card, so "
            f"that is another question. oddscalc seats house-baccarat --players {rules.players} lists every "
            "symmetric equilibrium and the best common strategy.")


def synthesis_sections(session: Session, table_ref: str | None, within: Fraction, command: str,
                       most_rules: int = MOST_RULES) -> Synthesis:
    """The ``card`` command for the house baccarat (the game's declaration names it)."""
    rules = session.resolve(table_ref)
    assert isinstance(rules, HouseBaccaratRules)
    refuse_shown(rules)
    counter = session.counts(rules)
    assert isinstance(counter, SeatCounter)
    optimum, _ = plays(counter, rules)  # the reference: the others play the optimum (an equilibrium of the seats)
    p = problem(optimum.counts, Fraction(rules.pay))
    placed = []
    for path in shipped_cards("house-baccarat"):
        try:
            card = load_card(path)
            m = draws(card)
        except TableError:
            continue
        placed.append(Placed(f"card house-baccarat/{path.name}", len(card.model.rules), card_cost(p, m),
                             card.model.title))
    unit = "units per unit staked"
    players = rules.players
    check = (f"oddscalc report house-baccarat --table {rules.table.id} --strategy THIS_FILE: the optimal EV less "
             "this card's EV" if players == 1 else
             f"oddscalc ev house-baccarat --table {rules.table.id} --players {players} --hand \"TWO CARDS\" gives any "
             "two cards' EV of drawing and of standing, the other seats at the equilibrium; a rule's cost is the sum, "
             "over the two-card hands it decides against the better action, of the difference weighted by how often "
             f"the hand is dealt (report --players {players} --strategy THIS_FILE has every seat play the card: "
             "another question)")
    result = synthesis_report(p, within, "house-baccarat", rules.table, command, unit, placed, most_rules,
                              reference=reference_text(players, optimum), check=check,
                              reference_name="optimal" if players == 1 else "equilibrium")
    if players == 1 or result.card is None:
        return result
    line = _everyone(counter, rules, optimum, result.card)
    first = result.sections[0]
    return dataclasses.replace(result, sections=[dataclasses.replace(first, intro=(*first.intro, line)),
                                                 *result.sections[1:]])
