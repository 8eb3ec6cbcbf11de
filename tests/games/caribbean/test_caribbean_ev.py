"""What one Caribbean Stud hand is worth: each action's EV against a plain count over every dealer completion,
and the whole game's EV as the average over every deal of the best action (a second method: the engine's count)."""

from __future__ import annotations

import dataclasses
import itertools
import random
from fractions import Fraction

import pytest
from oracles import ev_brute

from oddscalc.analysis import Session
from oddscalc.cards import CardError, Deck, parse_card, parse_cards, reduced_deck
from oddscalc.games.caribbean.count import dealer_counts_of
from oddscalc.games.caribbean.ev import hand_ev
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.games.caribbean.settle import settle_counts
from oddscalc.games.caribbean.table import parse_qualifier
from oddscalc.games.caribbean.wagers import main_wager
from oddscalc.hands import HAND_CLASSES
from oddscalc.results import RunOptions


def rules_of(table: str, deck: Deck | None = None) -> CaribbeanRules:
    rules = Session("caribbean", RunOptions(deck=deck)).resolve(table)
    assert isinstance(rules, CaribbeanRules)
    return rules


def brute(rules: CaribbeanRules, hand: tuple[int, ...], up: int) -> tuple[int, Fraction, Fraction]:
    pays = {c.value: getattr(rules.model.pays.main, c.value) for c in HAND_CLASSES}
    return ev_brute.caribbean(rules.deck, hand, up, parse_qualifier(rules.qualifier), pays)


# the hand on the full deck in the suite; the other two full-deck hands (5 s of CPU each: 163,185 dealer
# completions dealt plainly) are deep checks: the suite's test_reduced_deck_sample_equals_a_plain_count deals the
# same path against the same brute force on both tables, up cards matching a rank held among them
@pytest.mark.parametrize("table,hand,up", [
    ("us", "As Kd Jh 8c 3s", "Qc"),  # the hand: ace-king, a close call
    pytest.param("spain", "7h 7d Kc 4s 2d", "Ac", marks=pytest.mark.deep),  # a pair against an ace, a Jackpot table
    pytest.param("us", "2h 5h 8h Jh Kh", "Kd", marks=pytest.mark.deep),  # a flush; the up card matches a rank held
])
def test_full_deck_hand_equals_a_plain_count(table: str, hand: str, up: str) -> None:
    rules = rules_of(table)
    cards, card = parse_cards(hand), parse_card(up)
    r = hand_ev(rules, cards, card)
    n, fold, raised = brute(rules, cards, card)
    assert (r.completions, r.fold, r.raised) == (n, fold, raised) == (163_185, fold, raised)
    assert r.best == ("raise" if raised > fold else "fold") and r.margin == abs(raised - fold)


@pytest.mark.parametrize("table,sample", [("us", 60), ("spain", 30)])
def test_reduced_deck_sample_equals_a_plain_count(table: str, sample: int) -> None:
    deck = reduced_deck("8", 2)
    rules = rules_of(table, deck)
    rng = random.Random(43)
    hands = list(itertools.combinations(deck.cards, 5))
    matched = 0
    for hand in rng.sample(hands, sample):
        up = rng.choice([c for c in deck.cards if c not in hand])
        matched += up >> 2 in {c >> 2 for c in hand}
        r = hand_ev(rules, hand, up)
        assert (r.completions, r.fold, r.raised) == brute(rules, hand, up)
    assert matched  # an up card matching a rank held, as the deep full-deck flush case


def test_the_game_is_the_average_of_the_best_action_over_every_deal() -> None:
    """The engine's optimal EV (its count and settlement) equals the mean over every hand and up card of the
    better of folding and raising here: two methods, one figure."""
    deck = reduced_deck("T", 2)  # 10 cards: 252 hands x 5 up cards
    rules = rules_of("us", deck)
    pays = rules.model.pays.main
    rt = dealer_counts_of(deck, rules.qualifier).table()
    engine = main_wager(rt, pays, settle_counts(rt, pays, closest=False)).expected_value
    total, n = Fraction(0), 0
    for hand in itertools.combinations(deck.cards, 5):
        for up in (c for c in deck.cards if c not in hand):
            r = hand_ev(rules, hand, up)
            total += max(r.fold, r.raised)
            n += 1
    assert total / n == engine


def test_jackpot_is_the_prize_of_the_hand() -> None:
    """The progressive table: a flush is paid an amount of 50 for a stake of 1, a royal flush the meter (its
    reset, 10,000, when no meter is shown); nothing else on this hand pays."""
    rules = rules_of("progressive")
    jp = rules.model.pays.jackpot
    assert jp is not None and jp.meter is not None and jp.stake == 1
    flush = hand_ev(rules, parse_cards("2h 5h 8h Jh Kh"), parse_card("Kd"))
    assert flush.jackpot_raise == flush.jackpot_fold == Fraction(50) - 1
    royal = hand_ev(rules, parse_cards("As Ks Qs Js Ts"), parse_card("2c"))
    assert royal.jackpot_raise == jp.meter.reset - 1 == 9999
    nothing = hand_ev(rules, parse_cards("As Kd Jh 8c 3s"), parse_card("Qc"))
    assert nothing.jackpot_raise == nothing.jackpot_fold == -1
    forfeit = dataclasses.replace(rules, jackpot_paid_on_fold=False)
    folded = hand_ev(forfeit, parse_cards("2h 5h 8h Jh Kh"), parse_card("Kd"))
    assert folded.jackpot_fold == -1 and folded.jackpot_raise == 49


def test_no_jackpot_on_a_table_without_one() -> None:
    r = hand_ev(rules_of("us"), parse_cards("As Kd Jh 8c 3s"), parse_card("Qc"))
    assert r.jackpot_raise is None and r.jackpot_fold is None


@pytest.mark.parametrize("hand,up,message", [
    ("As Kd Jh 8c", "Qc", "5 cards, not 4"),
    ("As Kd Jh 8c 3s", "As", "one of the player's cards"),
])
def test_bad_cards_are_refused(hand: str, up: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        hand_ev(rules_of("us"), parse_cards(hand), parse_card(up))


def test_a_card_outside_a_reduced_deck_is_refused() -> None:
    with pytest.raises(CardError, match="not in the deck"):
        hand_ev(rules_of("us", reduced_deck("8", 2)), parse_cards("As Kd Jh 8c 2s"), parse_card("Qc"))
