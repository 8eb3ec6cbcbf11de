"""What one Let It Ride holding is worth: each bet's EV riding against a plain average over its completions, bet 2
played best after the fourth card, the side bets on the hand, and the engine's optimal EV as the mean over every
three-card hand of the better of pulling and riding bet 1 (a second method)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from oracles.lir_brute import ev_of

from oddscalc.analysis import Session
from oddscalc.cards import CardError, Deck, parse_cards, reduced_deck
from oddscalc.games.let_it_ride.count import PAYING, count_holdings
from oddscalc.games.let_it_ride.ev import hand_ev
from oddscalc.games.let_it_ride.game import LetItRideRules
from oddscalc.games.let_it_ride.settle import solve
from oddscalc.games.let_it_ride.wagers import main_wager
from oddscalc.hands import HandClass, hand_value
from oddscalc.results import RunOptions


def rules_of(table: str, deck: Deck | None = None) -> LetItRideRules:
    rules = Session("let-it-ride", RunOptions(deck=deck)).resolve(table)
    assert isinstance(rules, LetItRideRules)
    return rules


def pays_of(rules: LetItRideRules) -> dict[HandClass, Fraction]:
    return {c: getattr(rules.model.pays.main, c.value) for c in PAYING}


@pytest.mark.parametrize("hand", ["Th Jh 4c", "Qs Qd 7c", "9h Th Jh", "2c 7d Kh"])
def test_three_cards_equal_a_plain_average(hand: str) -> None:
    rules = rules_of("standard")
    cards = parse_cards(hand)
    r = hand_ev(rules, cards)
    pays = pays_of(rules)
    assert r.completions == 1176 and r.ride == ev_of(cards, rules.deck, pays, rules.min_rank)
    later = [max(ev_of(cards + (c,), rules.deck, pays, rules.min_rank), Fraction(0))
             for c in rules.deck.cards if c not in cards]
    assert r.later == Fraction(sum(later), len(later))
    assert r.hand_total(True) == 2 * r.ride + r.later and r.hand_total(False) == r.ride + r.later


@pytest.mark.parametrize("hand", ["Th Jh 4c Qh", "5s 6s 7s 8s", "Ac Ad 2h 3s"])
def test_four_cards_equal_a_plain_average(hand: str) -> None:
    rules = rules_of("standard")
    cards = parse_cards(hand)
    r = hand_ev(rules, cards)
    assert r.completions == 48 and r.ride == ev_of(cards, rules.deck, pays_of(rules), rules.min_rank)
    assert r.later == 0 and r.hand_total(True, True) == 3 * r.ride and r.hand_total(False, False) == r.ride


def test_the_game_is_the_average_of_the_best_play_over_every_hand() -> None:
    """The engine's optimal EV (its holding counts, solved) equals the mean over every three-card hand of the
    better of pulling and riding bet 1 here: two methods, one figure."""
    deck = reduced_deck("8", 2)
    rules = rules_of("standard", deck)
    pays = [getattr(rules.model.pays.main, c.value) for c in PAYING]
    counts = count_holdings(deck, rules.min_rank)
    engine = main_wager(counts, solve(counts, pays), pays, rules.min_rank, rules.ride_on_zero).expected_value
    best = [max(hand_ev(rules, h).hand_total(True), hand_ev(rules, h).hand_total(False))
            for h in itertools.combinations(deck.cards, 3)]
    assert Fraction(sum(best), len(best)) == engine


def test_side_bets_on_the_hand() -> None:
    standard = hand_ev(rules_of("standard"), parse_cards("Qs Qd 7c"))
    assert standard.three_card_bonus == 1 and standard.five_card_bonus is None  # a pair pays 1:1
    rules = rules_of("bonus")
    bonus = rules.model.pays.five_card_bonus
    assert bonus is not None and bonus.stake == 1
    cards = parse_cards("Qs Qd 7c")
    total, n = Fraction(0), 0
    for more in itertools.combinations([c for c in rules.deck.cards if c not in cards], 2):
        prize = getattr(bonus, hand_value(cards + more)[0].value, None)
        total += -1 if prize is None else prize - 1  # an amount: all the player gets back, the stake kept
        n += 1
    assert hand_ev(rules, cards).five_card_bonus == total / n


@pytest.mark.parametrize("hand,message", [("Th Jh", "not 2"), ("Th Jh 4c 5c 6c", "not 5")])
def test_wrong_count_refused(hand: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        hand_ev(rules_of("standard"), parse_cards(hand))
