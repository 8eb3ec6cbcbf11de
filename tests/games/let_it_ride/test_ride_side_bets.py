"""Side bets over the cards of a Let It Ride deal, declared as data: random rule lists equal a plain brute force over
every deal of a reduced deck; the three-card bonus declared as data equals the fixed block's count; bad conditions
are refused."""

from __future__ import annotations

import functools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.poker_side_brute import LET_IT_RIDE, brute, let_it_ride_deals, side_bet_data
from pydantic import ValidationError

from oddscalc.cards import FULL_DECK, Deck, reduced_deck
from oddscalc.games.let_it_ride.count import BONUS_EVENTS, count_holdings
from oddscalc.games.let_it_ride.table import LetItRideSideBet
from oddscalc.games.poker_side_count import count_side_bet, total_deals

SIZES = {"player": 3, "community1": 1, "community2": 1, "community": 2}
DECKS = (reduced_deck("T", 2), reduced_deck("Q", 3))  # 10 cards (5,040 deals), 9 cards in 3 suits (2,520)
# Michael Shackleford, Three Card Poker Appendix 1 (https://wizardofodds.com/games/three-card-poker/appendix/1/)
THREE_CARD_HANDS = {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720, "flush": 1096, "pair": 3744,
                    "lose": 16440}


@functools.cache
def _deals(deck: Deck) -> list[dict[str, tuple[int, ...]]]:
    return list(let_it_ride_deals(deck))


def _engine(data: dict[str, Any], deck: Deck) -> Counter[str]:
    bet = LetItRideSideBet.model_validate(data)
    sc = count_side_bet(bet, deck)
    assert sum(sc.counts) == sc.total == total_deals(bet, deck)
    return Counter({e: n for e, n in zip(sc.events, sc.counts, strict=True) if n})


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(DECKS))
def test_random_rule_lists_equal_the_brute_force(data: st.DataObject, deck: Deck) -> None:
    bet = data.draw(st.composite(lambda draw: side_bet_data(draw, SIZES, deck))())
    assert _engine(bet, deck) == brute(bet["rules"], "nothing", LET_IT_RIDE, _deals(deck))


@pytest.mark.parametrize("same", ["colour", "suit", "rank"])
def test_cards_of_the_same_colour_are_counted_without_permuting_the_suits(same: str) -> None:
    """Found by the random test: on three suits (one black, two red) a suit permutation may turn a red pair into a
    mixed one, so "the same colour" is counted over every set of cards, as a named suit is."""
    deck = reduced_deck("Q", 3)
    rules: list[dict[str, Any]] = [{"event": "e0", "cards_when": [{"cards": ["community"], "same": same}],
                                    "pays": "2:1"}]
    bet = {"title": "same", "rules": rules, "otherwise": {"event": "nothing"}}
    assert _engine(bet, deck) == brute(rules, "nothing", LET_IT_RIDE, _deals(deck))


def test_four_card_and_community_conditions_equal_the_brute_force() -> None:
    """Three and four cards' classes, the community cards apart and together, suits named (no symmetry)."""
    deck = reduced_deck("T", 3)  # 15 cards in 3 suits: 60,060 deals
    rules: list[dict[str, Any]] = [
        {"event": "four_straight_flush", "cards_when": {"cards": ["player", "community1"], "hand": "straight_flush"},
         "pays": "100:1"},
        {"event": "four_two_pair", "cards_when": {"cards": ["player", "community1"], "hand": ["two_pair", "flush"]},
         "pays": "5:1"},
        {"event": "wheel_ish", "cards_when": {"cards": "player", "hand": "straight"}, "pays": "3:1"},
        {"event": "community_pair", "cards_when": {"cards": "community", "same": "rank"}, "pays": "2:1"},
        {"event": "spade_last", "cards_when": [{"cards": "community2", "suits": "spades"},
                                         {"cards": ["player", "community"], "hand_at_least": "pair of kings"}],
         "pays": 3}]
    bet = {"title": "t", "rules": rules}
    assert _engine(bet, deck) == brute(rules, "lose", LET_IT_RIDE, _deals(deck))


def test_the_three_card_bonus_as_data_equals_the_fixed_block() -> None:
    """The same bet counted two ways: the fixed ``three_card_bonus`` block's count and the rules read as data."""
    bet = LetItRideSideBet.model_validate({"title": "t", "rules": [
        {"event": e, "cards_when": {"cards": "player", "hand": h}, "pays": "1:1"} for e, h in (
            ("mini_royal", "royal_flush"), ("straight_flush", "straight_flush"),
            ("three_of_a_kind", "three_of_a_kind"), ("straight", "straight"), ("flush", "flush"), ("pair", "pair"))]})
    for deck in (reduced_deck("8", 2), reduced_deck("T", 3)):  # the full deck's: the next test
        sc = count_side_bet(bet, deck)
        fixed = count_holdings(deck, 8).bonus
        per_hand = sc.total // sum(int(x) for x in fixed)
        assert sc.events == (*BONUS_EVENTS, "lose")
        assert sc.counts == tuple(int(x) * per_hand for x in fixed)


def test_the_shipped_3_card_bonus_has_the_published_three_card_counts() -> None:
    from oddscalc.catalog import resolve_table
    from oddscalc.games.poker_side_count import side_bets

    (name, bet), = side_bets(resolve_table("let-it-ride", "three-card-bonus-live").model.pays)  # type: ignore[attr-defined]
    sc = count_side_bet(bet, FULL_DECK)
    assert name == "three_card_bonus_40"
    got = {e: Fraction(n, sc.total) for e, n in zip(sc.events, sc.counts, strict=True)}
    assert got == {e: Fraction(n, 22_100) for e, n in THREE_CARD_HANDS.items()}


@pytest.mark.parametrize(("when", "message"), [
    ({"cards": ["dealer_up"], "ranks": "A"}, "unknown position 'dealer_up'"),
    ({"cards": ["community"], "hand": "pair"}, "hand needs at least three cards"),
    ({"cards": ["player"], "hand": "full_house"}, "3 cards are never a full_house"),
    ({"cards": ["player", "community1"], "hand_at_least": "flush"}, "hand_at_least reads the best five cards"),
    ({"cards": ["community1"], "same": "rank"}, "same needs at least two cards"),
    ({"cards": ["player"], "colours": "green"}, "not a colour"),
])
def test_bad_conditions_are_refused(when: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        LetItRideSideBet.model_validate({"title": "t", "rules": [{"event": "x", "cards_when": when, "pays": "1:1"}]})
