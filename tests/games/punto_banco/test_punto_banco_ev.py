"""Each punto banco wager's EV from a given shoe: against a plain brute force over every ordered deal of a small
shoe, the table's shoe less cards removed, and a shoe by point value against the same shoe by card."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from oracles.baccarat_brute import Card, coups, settle_by_hand

from oddscalc.analysis import Session
from oddscalc.cards import CardError
from oddscalc.games.punto_banco.coup_features import Cards
from oddscalc.games.punto_banco.ev import by_value, parse_removed, shoe_ev, value_wagers, without
from oddscalc.games.punto_banco.game import PuntoBancoRules
from oddscalc.protocol import OptionError
from oddscalc.results import RunOptions


def rules_of(table: str, decks: int | None = None) -> PuntoBancoRules:
    rules = Session("punto-banco", RunOptions(decks=decks)).resolve(table)
    assert isinstance(rules, PuntoBancoRules)
    return rules


SMALL: list[Card] = [("A", 0), ("A", 0), ("3", 1), ("5", 0), ("5", 2), ("6", 3), ("9", 1), ("K", 0), ("Q", 0)]


@pytest.mark.parametrize("table", ["pairs", "ez-baccarat"])
def test_small_shoe_equals_brute_force(table: str) -> None:
    rules = rules_of(table)
    by_hand = settle_by_hand(coups(SMALL, rules.drawing), rules.model.pays)
    got = {w.wager: w.expected_value for w in shoe_ev(rules, Cards.from_cards(dict(Counter(SMALL))))}
    assert got == {k: Fraction(sum(u * n for u, n in c.items()), sum(c.values())) for k, c in by_hand.items()}


def test_the_tables_full_shoe_is_the_report() -> None:
    rules = rules_of("standard")
    session = Session("punto-banco")
    report = {w.wager: w.expected_value for w in session.analyze("standard").wagers}
    assert {w.wager: w.expected_value for w in shoe_ev(rules, rules.cards)} == report


def test_removed_cards_leave_the_shoe() -> None:
    rules = rules_of("standard", decks=2)
    five, king = parse_removed("5s Kd")
    cards = without(rules, parse_removed("5s 5s,Kd"))
    assert sum(cards.copies) == 101 and (cards.copies[five], cards.copies[king]) == (0, 1)
    with pytest.raises(CardError, match="more 5s than the shoe holds"):
        without(rules, parse_removed("5s 5s 5s"))


def test_a_shoe_by_value_settles_the_value_wagers_as_the_cards_do() -> None:
    """One deck by value (16 tens and faces, 4 of every other value) against the deck itself: the same EV for
    every wager on values; the pair bets are not answered from values."""
    rules = rules_of("pairs", decks=1)
    keep, unsettled = value_wagers(rules)
    assert {"banker", "player", "tie"} <= keep and "player_pair" in unsettled
    one = {w.wager: w.expected_value for w in shoe_ev(rules, rules.cards)}
    values = {w.wager: w.expected_value for w in shoe_ev(rules, by_value("16 4 4 4 4 4 4 4 4 4"))}
    assert {k: values[k] for k in keep} == {k: one[k] for k in keep}


@pytest.mark.parametrize("text", ["1 2 3", "a b c d e f g h i j", "-1 4 4 4 4 4 4 4 4 4"])
def test_a_bad_shoe_is_refused(text: str) -> None:
    with pytest.raises(OptionError, match="--shoe"):
        by_value(text)


def test_too_few_cards_for_a_coup() -> None:
    with pytest.raises(OptionError, match="cannot deal a coup"):
        shoe_ev(rules_of("standard"), by_value("1 1 1 0 0 0 0 0 0 0"))
