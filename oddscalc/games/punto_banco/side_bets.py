"""Wagers on a baccarat coup as data: ordered rules over the coup's features, first match wins.

A table declares each side bet as a list of rules, each a set of conditions on named features of
the coup (``coup_features.FEATURES``) and what it pays::

    [pays.dragon_7]
    title = "Dragon 7"
    otherwise = { event = "lose", label = "Anything else" }          # pays "lose" unless told

    [[pays.dragon_7.rules]]
    event = "dragon_7"
    label = "Banker wins with a three-card 7"
    when = { winner = "banker", banker_total = 7, banker_cards = 3 }
    pays = "40:1"                                                       # or "push" or "lose"

A condition holds when the feature has the value given, or one of the values of a list. A rule
holds when all its conditions do. The main bets (player, banker, tie) take the same rules as
exceptions, tried before their own win, tie and loss. Everything is checked when the table loads,
against every cell any shoe can produce: an unknown feature or value, a rule that can never hold,
a rule every coup of which an earlier rule takes, and rules without an ``otherwise`` that leave
some coup unpaid are errors naming the rule. Nothing in a table is ever evaluated as code.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Literal, TypeVar

import numpy as np
from pydantic import BeforeValidator, Field, PlainSerializer, field_validator, model_validator

from oddscalc.games.punto_banco.card_conditions import CardCondition, describe_cards
from oddscalc.games.punto_banco.card_count import check_size
from oddscalc.games.punto_banco.coup_features import FEATURES, Features, features
from oddscalc.tables import Strict, parse_ratio, ratio_text

PUSH: Literal["push"] = "push"
LOSE: Literal["lose"] = "lose"
_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def parse_outcome_pay(value: Any) -> Fraction | str:
    """A rule's pay: a ratio ("30:1"), "push" or "lose"."""
    if isinstance(value, str) and value.strip().lower() in (PUSH, LOSE):
        return value.strip().lower()
    try:
        return parse_ratio(value)
    except ValueError as e:
        raise ValueError(f'{e}; a rule pays a ratio such as "30:1", or "push", or "lose"') from None


def _ser_pay(x: Fraction | str) -> str:
    return x if isinstance(x, str) else ratio_text(x)


RulePay = Annotated[Fraction | str, BeforeValidator(parse_outcome_pay), PlainSerializer(_ser_pay)]


def pay_units(pay: Fraction | str) -> Fraction:
    """Net units won for one unit staked."""
    if pay == PUSH:
        return Fraction(0)
    if pay == LOSE:
        return Fraction(-1)
    assert isinstance(pay, Fraction)
    return pay


def parse_when(value: Any) -> dict[str, tuple[object, ...]]:
    """Conditions: feature -> one value or a list of values, each checked against the feature's domain."""
    if not isinstance(value, dict) or not value:
        raise ValueError('write the conditions as a table, e.g. when = { winner = "banker", banker_total = 7 }')
    out: dict[str, tuple[object, ...]] = {}
    for name, given in value.items():
        if name not in FEATURES:
            raise ValueError(f"unknown feature {name!r}; features: {', '.join(FEATURES)}")
        values = tuple(given) if isinstance(given, list) else (given,)
        if not values:
            raise ValueError(f"{name}: an empty list matches nothing")
        domain = FEATURES[name]
        boolean = isinstance(domain[0], bool)
        for v in values:
            ok = isinstance(v, bool) if boolean else (not isinstance(v, bool) and v in domain)
            if not ok:
                shown = "true or false" if boolean else ", ".join(repr(d) if isinstance(d, str) else str(d)
                                                                  for d in domain)
                raise ValueError(f"{name} = {v!r} is not a value it takes ({shown})")
        if boolean and len(values) > 1:
            raise ValueError(f"{name}: give true or false, not a list")
        out[name] = values
    return out


When = Annotated[dict[str, tuple[object, ...]], BeforeValidator(parse_when),
                 PlainSerializer(lambda w: {k: list(v) if len(v) > 1 else v[0] for k, v in w.items()})]


def describe(when: Mapping[str, tuple[object, ...]]) -> str:
    """A plain reading of conditions, for a rule without a label."""
    parts = []
    for name, values in when.items():
        words = name.replace("_", " ")
        if isinstance(values[0], bool):
            parts.append(words if values[0] else f"no {words}")
        else:
            parts.append(f"{words} {' or '.join(str(v) for v in values)}")
    return ", ".join(parts).capitalize()


def event_id(v: str) -> str:
    """A row id: lower case letters, digits and _, starting with a letter."""
    if not _ID.match(v):
        raise ValueError(f"an event id is lower case letters, digits and _, starting with a letter, not {v!r}")
    return v


def matches(when: Mapping[str, tuple[object, ...]], f: Features) -> np.ndarray:
    """(CELLS,) bool: the cells where every condition holds."""
    mask = np.ones(len(f.player_total), dtype=bool)
    for name, values in when.items():
        mask &= np.isin(f.value(name), np.array(values, dtype=object).astype(f.value(name).dtype))
    return mask


def as_tuple(value: Any) -> Any:
    """TOML lists as tuples (the models are frozen)."""
    return tuple(value) if isinstance(value, list) else value


class CoupRule(Strict):
    """One line of a wager: when its conditions hold (and no earlier rule's did), it pays."""

    event: str = Field(description="the outcome's id: lower case letters, digits and _, starting with a letter "
                                   "(rules sharing an event pay the same)")
    label: str = ""
    when: When
    pays: RulePay

    _event_id = field_validator("event")(lambda v: event_id(v))

    @model_validator(mode="after")
    def _possible(self) -> CoupRule:
        if not (matches(self.when, features()) & features().possible).any():
            raise ValueError(f"rule {self.event!r} can never hold: no coup has {describe(self.when).lower()}")
        return self

    @property
    def cards(self) -> tuple[CardCondition, ...]:
        """Its conditions on the cards (none: the main bets' exceptions read the coup's features only)."""
        return ()

    @property
    def title(self) -> str:
        """The label, or a reading of the conditions."""
        text = "; ".join(([describe(self.when)] if self.when else []) + [describe_cards(c) for c in self.cards])
        return self.label or text[:1].upper() + text[1:]


class Rule(CoupRule):
    """One line of a side bet: as a main bet's, and conditions on named cards (``cards_when``) that must hold too."""

    when: When = Field(default_factory=dict)
    cards_when: Annotated[tuple[CardCondition, ...] | None, BeforeValidator(as_tuple)] = None

    @model_validator(mode="after")
    def _some(self) -> Rule:
        if self.cards_when == ():
            raise ValueError("cards_when: an empty list holds always; leave it out")
        if not self.when and not self.cards_when:
            raise ValueError("a rule needs conditions: when (the coup's features), cards_when (the cards), or both")
        return self

    @property
    def cards(self) -> tuple[CardCondition, ...]:
        """Its conditions on the cards (``card_conditions``)."""
        return self.cards_when or ()


class Otherwise(Strict):
    """What a side bet does on every coup no rule takes."""

    event: str = Field(description="the outcome's id: lower case letters, digits and _, starting with a letter "
                                   "(rules sharing an event pay the same)")
    label: str = "Anything else"
    pays: RulePay = LOSE

    _event_id = field_validator("event")(lambda v: event_id(v))


def check_rules(rules: Sequence[CoupRule], covered: bool, reserved: Sequence[str] = ()) -> None:
    """Rules in order: each reaches some coup, an event shared by rules pays the same (its row joins
    them: "either side" bets), and (unless ``covered``) every coup is paid."""
    f = features()
    taken = ~f.possible
    pays: dict[str, Fraction | str] = {}
    for i, r in enumerate(rules, start=1):
        if r.event in reserved:
            raise ValueError(f"rule {i} ({r.event!r}): event {r.event!r} is taken by the wager's own rows")
        if r.event in pays and pays[r.event] != r.pays:
            raise ValueError(f"rule {i} ({r.event!r}): an event shared by rules is one row and pays the same "
                             f"({_ser_pay(pays[r.event])}, not {_ser_pay(r.pays)})")
        pays[r.event] = r.pays
        mask = matches(r.when, f)
        if not (mask & ~taken).any():
            raise ValueError(f"rule {i} ({r.event!r}) is never reached: every coup it matches is taken by an "
                             "earlier rule")
        if not r.cards:  # a rule on the cards takes some of its coups only: which, the count says
            taken = taken | mask
    if not covered and not taken.all():
        k = int(np.flatnonzero(~taken)[0])
        example = (f"winner {f.winner[k]}, player {f.player_total[k]} with {f.player_cards[k]} cards, banker "
                   f"{f.banker_total[k]} with {f.banker_cards[k]} cards")
        raise ValueError(f"no rule pays some coups (e.g. {example}); add an otherwise = {{ event = ..., "
                         "pays = \"lose\" } or a rule for them")


class SideBet(Strict):
    """A side bet: its rules in order, and what every other coup does (lose, unless told)."""

    title: str
    rules: Annotated[tuple[Rule, ...], BeforeValidator(as_tuple)]
    otherwise: Otherwise | None = None
    notes: Annotated[tuple[str, ...], BeforeValidator(as_tuple)] = ()

    @model_validator(mode="before")
    @classmethod
    def _hint(cls, data: Any) -> Any:
        if isinstance(data, dict) and "win" in data:
            raise ValueError("a side bet is a list of rules ([[pays.<wager>.rules]], each with when and pays); "
                             "'win' alone does not say when it wins")
        return data

    @model_validator(mode="after")
    def _reach(self) -> SideBet:
        if not self.rules:
            raise ValueError("a side bet needs at least one rule ([[pays.<wager>.rules]])")
        check_rules(self.rules, covered=self.otherwise is not None,
                    reserved=(self.otherwise.event,) if self.otherwise else ())
        if self.card_conditions():
            check_card_bet(self.rules)
        return self

    def card_conditions(self) -> tuple[CardCondition, ...]:
        """The distinct card conditions of the rules, in order (what the bet's own count is counted by)."""
        out: list[CardCondition] = []
        for r in self.rules:
            out += [c for c in r.cards if c not in out]
        return tuple(out)

    def pay_items(self) -> dict[str, Fraction]:
        """The ratio pays, by event (what ``solve`` and the symbolic EV vary)."""
        return {r.event: r.pays for r in self.rules if isinstance(r.pays, Fraction)}

    def with_pay(self, event: str, value: Fraction) -> SideBet:
        """The same bet with one rule's pay replaced."""
        return self.model_copy(update={"rules": replace_pay(self.rules, event, value)})


RELATIONS = ("player_pair", "banker_pair", "player_suited", "banker_suited")


def check_card_bet(rules: Sequence[Rule]) -> None:
    """A bet on the cards is counted by outcome and card conditions, not by the pair and suited relations:
    those are written as card conditions there (and the pass must be small enough to count)."""
    for i, r in enumerate(rules, start=1):
        used = [name for name in r.when if name in RELATIONS]
        if used:
            raise ValueError(f"rule {i} ({r.event!r}): in a bet with cards_when, write {used[0]} as a card "
                             'condition, e.g. { cards = ["player1", "player2"], same = "rank" } for a pair')
    conditions: list[CardCondition] = []
    for r in rules:
        conditions += [c for c in r.cards if c not in conditions]
    if len(conditions) > MAX_CONDITIONS:
        raise ValueError(f"a bet has at most {MAX_CONDITIONS} distinct card conditions, not {len(conditions)}")
    check_size(conditions)


MAX_CONDITIONS = 16


R = TypeVar("R", bound=CoupRule)


def replace_pay(rules: tuple[R, ...], event: str, value: Fraction) -> tuple[R, ...]:
    """The rules with the pay of the one whose event is ``event`` replaced."""
    if not any(r.event == event for r in rules):
        raise KeyError(event)
    return tuple(r.model_copy(update={"pays": value}) if r.event == event else r for r in rules)


@dataclass(frozen=True)
class Line:
    """One row a rule list settles to: its coups (as a mask over the cells) and its pay."""

    event: str
    label: str
    pays: Fraction | str
    mask: np.ndarray
    is_rule: bool  # a declared rule (its pay is the table's ``<wager>.<event>``)


def rule_lines(rules: Sequence[CoupRule], free: np.ndarray) -> tuple[list[Line], np.ndarray]:
    """The rules' lines over the cells still ``free``, first match wins, one line per event; and the cells left."""
    f = features()
    out: dict[str, Line] = {}
    for r in rules:
        mask = matches(r.when, f) & free
        line = out.get(r.event)
        out[r.event] = (Line(r.event, r.title, r.pays, mask, True) if line is None
                        else dataclasses.replace(line, mask=line.mask | mask))
        free = free & ~mask
    return list(out.values()), free


def card_rule_lines(bet: SideBet, counts: np.ndarray, patterns: np.ndarray) -> tuple[list[Line], np.ndarray]:
    """A bet on the cards settled from its own count (``card_count``: (OUTCOMES, P) by outcome and pattern of
    the conditions that hold), first match wins: its lines over the flattened count, and that count."""
    conditions = bet.card_conditions()
    per_outcome = features()  # the bet reads no pair or suited relation: every relation of an outcome agrees
    n_rel = len(per_outcome.player_total) // counts.shape[0]
    free = np.ones(counts.shape, dtype=bool)
    out: dict[str, Line] = {}
    for r in bet.rules:
        mask = np.repeat(matches(r.when, per_outcome)[::n_rel][:, None], counts.shape[1], axis=1) & free
        for c in r.cards:
            mask &= ((patterns >> conditions.index(c)) & 1 == 1)[None, :]
        line = out.get(r.event)
        out[r.event] = (Line(r.event, r.title, r.pays, mask.ravel(), True) if line is None
                        else dataclasses.replace(line, mask=line.mask | mask.ravel()))
        free &= ~mask
    lines = list(out.values())
    if bet.otherwise is not None:
        o = bet.otherwise
        lines.append(Line(o.event, o.label, o.pays, free.ravel(), False))
    elif any(counts[free]):
        raise AssertionError(f"{bet.title}: coups no rule pays (the table check should have refused it)")
    return lines, counts.ravel()
