"""Let It Ride cards synthesised: the fewest rules over both decisions within a bound of optimal, and the frontier.

Counting argument. Each decision is independent of the other (the bets are paid on the same final hand), and the
count gives, per holding class of three cards (bet 1) and of four (bet 2), the exact sum S of the final hand's
units over the deals that complete it, scaled by ``denominator``: riding rather than pulling there gains weight x
S over C(n,k) x C(n-k,5-k) x denominator base bets per base bet, the figure the report's card cost splits by rule
(``card.cost_section``). Every card feature is read on the holding class, so the classes are the cells: the
floor is 0 (the optimal strategy is a card of enough rules). Each decision's frontier is synthesised alone, and
the card is the split of rules between the two with the fewest in all whose summed cost is within the bound.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.datafile import TableError
from oddscalc.games.card_report import Placed, Synthesis, decisions_report, shipped_cards
from oddscalc.games.card_synthesis import MOST_RULES, Condition, Problem
from oddscalc.games.let_it_ride import holdings as ride_holdings
from oddscalc.games.let_it_ride.card import feature, load_card, play
from oddscalc.games.let_it_ride.count import PAYING, HoldingCounts
from oddscalc.games.let_it_ride.game import LetItRideRules
from oddscalc.games.let_it_ride.holdings import HANDS
from oddscalc.games.let_it_ride.settle import solve
from oddscalc.games.strategy_card import RANKS

if TYPE_CHECKING:
    from oddscalc.analysis import Session


def conditions(s: ride_holdings.Shapes, ranks: list[int]) -> list[Condition]:
    """What a ride card can say on these holdings: hand classes (each, and each with those above it), the shape
    flags, counts (each value, and each value or more), top and pair ranks (each or higher), a rank held."""
    out: list[Condition] = []

    def add(name: str, value: object, mask: np.ndarray, words: str = "") -> None:
        if mask.any() and not mask.all():
            out.append(Condition(name, value, np.asarray(mask), words))

    for i, h in enumerate(HANDS):
        add("hand", h, s.hand == i, f"hand {h}")
        if i:
            add("hand", list(HANDS[:i + 1]), s.hand <= i, f"{h} or better")
    for name in ("suited", "to_royal", "to_straight", "outside"):
        column = feature(name, s)
        add(name, True, column)
        add(name, False, ~column)
    for name, most in (("windows", 10), ("spread", 5), ("high_cards", 4)):
        column = feature(name, s)
        for v in range(most + 1):
            add(name, v, column == v)
            add(name, list(range(v, most + 1)), column >= v)
    for name in ("top_rank", "pair_rank"):
        column = feature(name, s)
        for r in ranks:
            add(name, [RANKS[x] for x in ranks if x >= r], column >= r, f"{name} {RANKS[r]} or higher")
    for r in ranks:
        add("holds_any", RANKS[r], (s.bits >> r) & 1 == 1, f"holds a {RANKS[r]}")
    return out


def synthesis_sections(session: Session, table_ref: str | None, within: Fraction, command: str,
                       most_rules: int = MOST_RULES) -> Synthesis:
    """The ``card`` command for Let It Ride (the game's declaration names it)."""
    rules = session.resolve(table_ref)
    assert isinstance(rules, LetItRideRules)
    counts: HoldingCounts = session.counts(rules)
    pays = [getattr(rules.model.pays.main, c.value) for c in PAYING]
    sol = solve(counts, pays, rules.ride_on_zero)
    n = counts.deck.size
    ranks = sorted(set(counts.deck.ranks))
    problems = []
    shapes = {}
    for bet, k, reps, weights, sums in (("bet1", 3, counts.reps3, counts.weights3, sol.s3),
                                        ("bet2", 4, counts.reps4, counts.weights4, sol.s4)):
        shapes[bet] = ride_holdings.shapes(reps, counts.deck, rules.min_rank)
        gain = [int(w) * int(x) for w, x in zip(weights.tolist(), sums.tolist())]
        scale = sol.denominator * math.comb(n, k) * math.comb(n - k, 5 - k)
        problems.append((bet, Problem(gain, [max(g, 0) for g in gain], scale, conditions(shapes[bet], ranks),
                                      "ride", "pull")))
    placed = []
    for path in shipped_cards("let-it-ride"):
        try:
            card = load_card(path)
            rides = {bet: play(card, bet, shapes[bet], r).ride for bet, r in (("bet1", counts.reps3),
                                                                                ("bet2", counts.reps4))}
        except TableError:
            continue
        cost = sum((Fraction(sum(p.positive) - sum(g for g, yes in zip(p.gain, rides[bet].tolist()) if yes),
                             p.scale) for bet, p in problems), Fraction(0))
        placed.append(Placed(f"card let-it-ride/{path.name}", len(card.model.bet1.rules) + len(card.model.bet2.rules),
                             cost, card.model.title))
    return decisions_report(problems, within, "let-it-ride", rules.table, command, "base bets per base bet", placed,
                            most_rules)
