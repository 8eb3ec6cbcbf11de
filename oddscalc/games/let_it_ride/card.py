"""Let It Ride strategy cards as data: ordered rules over the holding, one list per decision.

A casino's or a book's card is a TOML file that ``--strategy PATH`` accepts::

    card = "let-it-ride"
    title = "Ride paying hands and royal draws only"

    [bet1]                      # after the player's three cards
    otherwise = "pull"
    [[bet1.rules]]
    label = "Any paying hand"
    when = { hand = ["three_of_a_kind", "paying_pair"] }
    action = "ride"

    [bet2]                      # after the first community card
    otherwise = "pull"
    [[bet2.rules]]
    when = { suited = true }
    action = "ride"

A rule holds when all its conditions do (a list means any of its values); the first rule that
holds decides, else ``otherwise``. Features (CARD_FEATURES), read on the three or four cards held (see
``ride_holdings``): ``hand`` (four_of_a_kind, three_of_a_kind, two_pair, paying_pair, low_pair,
no_pair), ``pair_rank``, ``suited``, ``to_royal`` (suited, every card ten or above, on a deck that holds
ten to ace), ``to_straight``, ``windows`` (straights the holding lies in; for four cards the ranks that
complete one), ``outside`` (four cards, open-ended), ``spread``, ``high_cards`` (at or above the minimum
paying pair), ``top_rank``, ``holds_any`` and ``holds_all`` (ranks). A rule no holding reaches, or a holding
no rule decides without an ``otherwise``, is refused with the card's file, line and key.

The card is played over every holding class of the exact count, so its edge is exact. Each bet's
decision is independent of the other (the bets are paid on the same final hand), so the card's
cost against the optimal strategy splits exactly by decision and rule: over the holdings a rule
decides unlike optimal, the EV the optimal choice gains there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BeforeValidator, model_validator

from oddscalc.cards import Deck, cards_str
from oddscalc.games import strategy_card
from oddscalc.games.let_it_ride.holdings import HANDS, Shapes
from oddscalc.games.strategy_card import as_tuple, rank_value, rule_title
from oddscalc.results import Cell, Column, Section
from oddscalc.tables import Strict

Action = Literal["ride", "pull"]
BOOLEAN = ("suited", "to_royal", "to_straight", "outside")
COUNTED = {"windows": 10, "spread": 5, "high_cards": 4}  # feature: largest value
RANKED = ("pair_rank", "top_rank", "holds_any", "holds_all")
CARD_FEATURES = ("hand", *BOOLEAN, *COUNTED, *RANKED)


def _values(name: str, given: Any) -> tuple[object, ...]:
    values = tuple(given) if isinstance(given, list) else (given,)
    if not values:
        raise ValueError(f"{name}: an empty list matches nothing")
    if name in BOOLEAN:
        if len(values) != 1 or not isinstance(values[0], bool):
            raise ValueError(f"{name} is true or false")
        return values
    if name == "hand":
        bad = [v for v in values if v not in HANDS]
        if bad:
            raise ValueError(f"hand {bad[0]!r} is not a holding; holdings: {', '.join(HANDS)}")
        return tuple(HANDS.index(str(v)) for v in values)
    if name in COUNTED:
        bad = [v for v in values if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= COUNTED[name]]
        if bad:
            raise ValueError(f"{name} is a whole number from 0 to {COUNTED[name]} (or a list of them), not {bad[0]!r}")
        return values
    return tuple(rank_value(v) for v in values)


def parse_when(value: Any) -> dict[str, tuple[object, ...]]:
    """Conditions of a card rule, each checked against its feature's values."""
    return strategy_card.parse_when(value, CARD_FEATURES, _values, '{ hand = "paying_pair" }')


class RideRule(Strict):
    """One line of a card: when its conditions hold (and no earlier line's did), ride or pull back."""

    label: str = ""
    when: Annotated[dict[str, tuple[object, ...]], BeforeValidator(parse_when)]
    action: Action


class Decision(Strict):
    """The rules of one decision, first match wins, and what happens when none holds."""

    rules: Annotated[tuple[RideRule, ...], BeforeValidator(as_tuple)] = ()
    otherwise: Action | None = None

    @model_validator(mode="after")
    def _decides(self) -> Decision:
        if not self.rules and self.otherwise is None:
            raise ValueError("a decision needs rules ([[betN.rules]] with when and action) or an otherwise")
        return self


class RideCard(Strict):
    """A Let It Ride strategy card: bet 1 on three cards, bet 2 on four."""

    card: Literal["let-it-ride"]
    title: str
    source: str = ""
    bet1: Decision
    bet2: Decision


Card = strategy_card.Card[RideCard]
BETS = ("bet1", "bet2")


def load_card(path: Path) -> Card:
    """Read and validate a Let It Ride strategy card file (TableError with file, line and key otherwise)."""
    return strategy_card.load(path, RideCard)


# --- playing a card over the count ---------------------------------------------------------------------


def feature(name: str, s: Shapes) -> np.ndarray:
    """(m,) values of a feature on each holding class."""
    if name == "to_royal":
        return s.to_royal
    if name == "outside":
        return s.outside
    if name == "to_straight":
        return np.asarray(s.windows > 0)
    return np.asarray(getattr(s, name))


def _holds(name: str, values: tuple[object, ...], s: Shapes) -> np.ndarray:
    if name in ("holds_any", "holds_all"):
        have = [(s.bits >> int(r)) & 1 == 1 for r in values]  # type: ignore[call-overload]
        return np.asarray(np.logical_or.reduce(have) if name == "holds_any" else np.logical_and.reduce(have))
    column = feature(name, s)
    if column.dtype == bool:
        return np.asarray(column == values[0])
    return np.isin(column, np.array(values, dtype=np.int64))


@dataclass(frozen=True)
class Played:
    """One decision of a card played over every holding class."""

    ride: np.ndarray  # (m,) bool
    rule: np.ndarray  # (m,) int32: the rule that decided (len(rules) for otherwise)


def play(card: Card, bet: str, s: Shapes, reps: np.ndarray) -> Played:
    """Each class's decision for ``bet`` ("bet1" or "bet2") and the rule that made it; TableError for a rule
    never reached or a holding no rule decides (when there is no otherwise)."""
    decision: Decision = getattr(card.model, bet)

    def holds(r: strategy_card.Rule) -> np.ndarray:
        held = np.ones(len(s.hand), dtype=bool)
        for name, values in r.when.items():
            held &= _holds(name, values, s)
        return held

    def example(point: tuple[int, ...]) -> str:
        return cards_str(sorted(reps[point[0]].tolist(), reverse=True))

    ride, rule = strategy_card.first_match(card, decision.rules, f"{bet}.rules", (len(s.hand),), holds,
                                           decision.otherwise, "ride", example)
    return Played(ride, rule)


def cost_section(card: Card, played: dict[str, Played], weights: dict[str, np.ndarray], sums: dict[str, np.ndarray],
                 denominator: int, deck: Deck) -> tuple[Section, Fraction]:
    """Per decision and rule: the holdings it decides, how many of them it decides against their EV, and
    what that costs against the optimal strategy (base bets per base bet over every deal); and the whole
    cost, which the caller checks against the two EVs.

    A holding whose EV is exactly 0 costs nothing either way and is not counted as decided against it.
    """
    rows: list[tuple[Cell, ...]] = []
    whole = Fraction(0)
    for bet, n in zip(BETS, (3, 4)):
        decision: Decision = getattr(card.model, bet)
        p, w, s = played[bet], weights[bet].astype(object), sums[bet].astype(object)
        against = np.asarray(p.ride & (sums[bet] < 0)) | np.asarray(~p.ride & (sums[bet] > 0))
        scale = denominator * math.comb(deck.size, n) * math.comb(deck.size - n, 5 - n)
        names = [rule_title(decision.rules, i) for i in range(len(decision.rules))] + ["otherwise"]
        actions = [r.action for r in decision.rules] + [decision.otherwise or ""]
        for i, name in enumerate(names):
            mine = p.rule == i
            if not mine.any():
                continue
            wrong = mine & against
            cost = Fraction(int((w[wrong] * abs(s[wrong])).sum()), scale)
            whole += cost
            rows.append((bet, name, actions[i], int(w[mine].sum()), int(w[wrong].sum()), cost))
    section = Section(
        "strategy_card_cost", f"Strategy card: {card.model.title}",
        (Column("decision", "Decision"), Column("rule", "Rule"), Column("action", "Action"),
         Column("holdings", "Holdings it decides", "int"), Column("against_ev", "Decided against their EV", "int"),
         Column("cost", "Cost against optimal (base bets per base bet)", "decimal", 6)),
        tuple(rows),
        intro=(f"The card {card.path.name} (sha256 {card.sha256[:12]}), played over every three-card and four-card "
               "holding" + (f"; source: {card.model.source}" if card.model.source else "") + ".",
               "Each rule's holdings are those it decides first. Its cost is the expected value the optimal choice "
               "gains on the holdings the rule decides against their EV, per base bet over every deal; holdings "
               "whose EV is exactly zero cost nothing either way."))
    return section, whole
