"""Caribbean Stud strategy cards as data: ordered rules over the player's hand and the up card.

A casino's or a book's strategy card is a TOML file that ``--strategy PATH`` accepts::

    card = "caribbean"
    title = "Raise pairs; ace-king when the up card matches"
    otherwise = "fold"

    [[rules]]
    label = "Pair or better"
    when = { hand = ["royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
                     "straight", "three_of_a_kind", "two_pair", "pair"] }
    action = "raise"

    [[rules]]
    when = { hand = "ace_king", up_matches = true }
    action = "raise"

A rule holds when all its conditions do (a list means any of its values); the first rule that
holds decides. Features (CARD_FEATURES): ``hand`` (the hand class, ``ace_king`` for a no-pair
hand with an ace and a king, ``high_card`` for any other no-pair hand), ``up_rank``,
``up_matches`` (one of the player's cards has the up card's rank), ``holds_any`` and
``holds_all`` (ranks held), ``third_rank`` and ``fourth_rank`` (the player's third- and
fourth-highest cards), ``up_below_fourth``, and ``at_least`` (five ranks, e.g. "A K J 8 3": the
hand's ranks, high to low, at or above them). A card that leaves a (hand, up card) undecided
without an ``otherwise``, or has a rule no decision reaches, is refused with its file, line and key.

The card is played over every decision point of the exact count, so its edge is exact; its cost
against the optimal strategy is split by the rule that made each decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BeforeValidator, model_validator

from oddscalc.cards import cards_str
from oddscalc.games import strategy_card
from oddscalc.games.caribbean.raise_table import AK, RaiseTable, rank_features, up_cards
from oddscalc.games.strategy_card import as_tuple, rank_value, rule_title
from oddscalc.hands import HAND_CLASSES
from oddscalc.results import Cell, Column, Section
from oddscalc.tables import Strict

HANDS = (*[c.value for c in HAND_CLASSES[:9]], "ace_king", "high_card")  # index = pay class
Action = Literal["raise", "fold"]


def _values(name: str, given: Any) -> tuple[object, ...]:
    values = tuple(given) if isinstance(given, list) else (given,)
    if not values:
        raise ValueError(f"{name}: an empty list matches nothing")
    if name in ("up_matches", "up_below_fourth"):
        if len(values) != 1 or not isinstance(values[0], bool):
            raise ValueError(f"{name} is true or false")
        return values
    if name == "hand":
        bad = [v for v in values if v not in HANDS]
        if bad:
            raise ValueError(f"hand {bad[0]!r} is not a hand; hands: {', '.join(HANDS)}")
        return tuple(HANDS.index(str(v)) for v in values)
    if name == "at_least":
        if len(values) != 1 or not isinstance(values[0], str):
            raise ValueError('at_least is five ranks in one string, high to low, e.g. "A K J 8 3"')
        ranks = [rank_value(r) for r in values[0].replace(",", " ").split()]
        if len(ranks) != 5 or ranks != sorted(ranks, reverse=True):
            raise ValueError(f"at_least {values[0]!r}: write five ranks, high to low")
        return tuple(ranks)
    return tuple(rank_value(v) for v in values)


CARD_FEATURES = ("hand", "up_rank", "up_matches", "holds_any", "holds_all", "third_rank", "fourth_rank",
                 "up_below_fourth", "at_least")


def parse_when(value: Any) -> dict[str, tuple[object, ...]]:
    """Conditions of a card rule, each checked against its feature's values."""
    return strategy_card.parse_when(value, CARD_FEATURES, _values, '{ hand = "ace_king", up_matches = true }')


class CardRule(Strict):
    """One line of a card: when its conditions hold (and no earlier line's did), raise or fold."""

    label: str = ""
    when: Annotated[dict[str, tuple[object, ...]], BeforeValidator(parse_when)]
    action: Action


class RaiseCard(Strict):
    """A Caribbean Stud strategy card."""

    card: Literal["caribbean"]
    title: str
    source: str = ""
    rules: Annotated[tuple[CardRule, ...], BeforeValidator(as_tuple)]
    otherwise: Action | None = None

    @model_validator(mode="after")
    def _some_rule(self) -> RaiseCard:
        if not self.rules:
            raise ValueError("a card needs at least one rule ([[rules]] with when and action)")
        return self


Card = strategy_card.Card[RaiseCard]


def load_card(path: Path) -> Card:
    """Read and validate a Caribbean strategy card file (TableError with file, line and key otherwise)."""
    return strategy_card.load(path, RaiseCard)


# --- playing a card over the count --------------------------------------------------------------------


def _feature(name: str, rt: RaiseTable, ranks: np.ndarray, ups: np.ndarray) -> np.ndarray:
    """(m, nu) or (m, 1) values of a feature."""
    u = ups.astype(np.int64) >> 2
    bits, third, fourth = rank_features(rt.reps)
    if name == "hand":
        return rt.pay_class.astype(np.int64)[:, None]
    if name == "up_rank":
        return u
    if name == "up_matches":
        return np.asarray((bits[:, None] >> u) & 1 == 1)
    if name == "third_rank":
        return third[:, None]
    if name == "fourth_rank":
        return fourth[:, None]
    if name == "up_below_fourth":
        return np.asarray(u < fourth[:, None])
    raise KeyError(name)


def _holds(name: str, values: tuple[object, ...], rt: RaiseTable, ranks: np.ndarray, ups: np.ndarray) -> np.ndarray:
    if name == "at_least":
        digits = 13 ** np.arange(4, -1, -1)
        return np.asarray((ranks @ digits >= np.array(values) @ digits)[:, None])
    if name in ("holds_any", "holds_all"):
        bits, _, _ = rank_features(rt.reps)
        have = [((bits >> int(r)) & 1 == 1) for r in values]  # type: ignore[call-overload]
        held = np.logical_or.reduce(have) if name == "holds_any" else np.logical_and.reduce(have)
        return np.asarray(held)[:, None]
    column = _feature(name, rt, ranks, ups)
    if column.dtype == bool:
        return np.asarray(column == values[0])
    return np.isin(column, np.array(values, dtype=np.int64))


@dataclass(frozen=True)
class Played:
    """A card played over every (hand, up card) slot of the count."""

    raised: np.ndarray  # (m, nu) bool by up-card slot
    rule: np.ndarray  # (m, nu) int32: the rule that decided (len(rules) for otherwise)


def play(card: Card, rt: RaiseTable) -> Played:
    """Each slot's decision and the rule that made it; TableError for a rule never reached or a slot
    no rule decides (when there is no otherwise)."""
    ups = up_cards(rt.deck, rt.reps)
    ranks = np.sort(rt.reps.astype(np.int64) >> 2, axis=1)[:, ::-1]

    def holds(r: strategy_card.Rule) -> np.ndarray:
        held = np.ones(ups.shape, dtype=bool)
        for name, values in r.when.items():
            held &= _holds(name, values, rt, ranks, ups)
        return held

    def example(point: tuple[int, ...]) -> str:
        row, slot = point
        return (f"{cards_str(sorted(rt.reps[row].tolist(), reverse=True))} against up card "
                f"{cards_str([int(ups[row, slot])])}")

    raised, rule = strategy_card.first_match(card, card.model.rules, "rules", ups.shape, holds,
                                             card.model.otherwise, "raise", example)
    return Played(raised, rule)


def _slots(rt: RaiseTable) -> np.ndarray:
    """(m, nu, 3) int32: not qualified, win, push of each sorted position (per hand of the class)."""
    return np.diff(rt.prefix, axis=1)


def tally(rt: RaiseTable, raised: np.ndarray, n_pay: int) -> np.ndarray:
    """(N_PAY, 5) deals by [fold, not qualified, win, push, lose] when raising on ``raised`` slots."""
    sorted_raised = np.take_along_axis(raised, rt.perm.astype(np.int64), axis=1)
    m, nu = sorted_raised.shape
    sums = np.zeros((m, 3), dtype=np.int64)
    for j in range(nu):  # one position at a time: no (m, nu, 3) temporary
        sums += sorted_raised[:, j, None] * (rt.prefix[:, j + 1] - rt.prefix[:, j]).astype(np.int64)
    count = sorted_raised.sum(axis=1)
    w = rt.weights.astype(np.int64)
    out = np.zeros((n_pay, 5), dtype=np.int64)
    for c in np.unique(rt.pay_class).tolist():
        rows = rt.pay_class == c
        wc = w[rows]
        raised_sums = wc @ sums[rows]
        n = int(wc @ count[rows])
        every = int(wc.sum()) * nu
        out[c] = [rt.holes * (every - n), *raised_sums, rt.holes * n - int(raised_sums.sum())]
    return out


def cost_section(card: Card, rt: RaiseTable, played: Played, optimal_sorted: np.ndarray,
                 pays: Sequence[Fraction]) -> tuple[Section, Fraction]:
    """Per rule: the deals it decides, how many it decides unlike the optimal strategy, and what that costs
    (antes per ante over every deal); and the whole cost, which the caller checks against the two EVs."""
    perm = rt.perm.astype(np.int64)
    card_sorted = np.take_along_axis(played.raised, perm, axis=1)
    rule_sorted = np.take_along_axis(played.rule, perm, axis=1).astype(np.int64)
    n_rules = len(card.model.rules) + 1
    w = rt.weights.astype(np.float64)
    # float sums are exact: every one is a count of deals of one hand class, below 2e13 < 2**53 on 52 cards
    decided = np.bincount(rule_sorted.ravel(), weights=np.repeat(w, rule_sorted.shape[1]), minlength=n_rules)
    rows_i, cols_j = np.nonzero(card_sorted != optimal_sorted)
    raised_wrongly = card_sorted[rows_i, cols_j]  # the card raises where the optimal strategy folds
    cls = rt.pay_class.astype(np.int64)[rows_i]
    group = (rule_sorted[rows_i, cols_j] * len(pays) + cls) * 2 + raised_wrongly
    size = n_rules * len(pays) * 2
    slot = (rt.prefix[rows_i, cols_j + 1] - rt.prefix[rows_i, cols_j]).astype(np.float64)
    wt = w[rows_i]
    n = np.rint(np.bincount(group, weights=wt, minlength=size)).astype(np.int64)
    parts = [np.rint(np.bincount(group, weights=wt * slot[:, k], minlength=size)).astype(np.int64) for k in range(3)]
    holes = rt.holes
    names = [rule_title(card.model.rules, i) for i in range(len(card.model.rules))] + ["otherwise"]
    actions = [r.action for r in card.model.rules] + [card.model.otherwise or ""]
    rows: list[tuple[Cell, ...]] = []
    whole = Fraction(0)
    for i, name in enumerate(names):
        if not decided[i]:
            continue
        cost = Fraction(0)
        wrong = 0
        for c, pay in enumerate(pays):
            for raised_it in (0, 1):
                g = (i * len(pays) + c) * 2 + raised_it
                if not n[g]:
                    continue
                # raise minus fold over these slots, in antes: 4 nq + (4 + 2 pay) win + 3 push - 2 holes
                nq, win, push = (int(parts[k][g]) for k in range(3))
                gap = 4 * nq + (4 + 2 * pay) * win + 3 * push - 2 * holes * int(n[g])
                cost += -gap if raised_it else gap
                wrong += int(n[g]) * holes
        share = cost / rt.total
        whole += share
        deals = int(round(decided[i])) * holes
        rows.append((name, actions[i], deals, Fraction(deals, rt.total), wrong, share))
    section = Section(
        "strategy_card_cost", f"Strategy card: {card.model.title}",
        (Column("rule", "Rule"), Column("action", "Action"), Column("deals", "Deals it decides", "int"),
         Column("share", "Share of deals", "percent", 2), Column("unlike_optimal", "Decided unlike optimal", "int"),
         Column("cost", "Cost against optimal (antes per ante)", "decimal", 6)),
        tuple(rows),
        intro=(f"The card {card.path.name} (sha256 {card.sha256[:12]}), played over every hand and up card"
               + (f"; source: {card.model.source}" if card.model.source else "") + ".",
               "Each rule's deals are those it decides first. Its cost is the expected value the optimal strategy "
               "gains on the deals the rule decides the other way, per ante over every deal."))
    return section, whole


def ak_chart(rt: RaiseTable, raised: np.ndarray) -> np.ndarray:
    """(13, 13) ace-king deals raised by [third-highest rank, up rank]."""
    rows = np.nonzero(rt.pay_class == AK)[0]
    _, third, _ = rank_features(rt.reps[rows])
    up = up_cards(rt.deck, rt.reps[rows]).astype(np.int64) >> 2
    cell = third[:, None] * 13 + up
    deals = np.broadcast_to(rt.weights[rows].astype(np.int64)[:, None] * rt.holes, cell.shape)
    r = raised[rows]
    return np.bincount(cell[r], weights=deals[r], minlength=169).astype(np.int64).reshape(13, 13)
