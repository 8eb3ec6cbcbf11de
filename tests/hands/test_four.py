"""The four-card ranking (Four Card Poker's order) and the best four of five and six cards, every hand of a deck.

The four-card classes of 52 cards are checked by their closed forms; the vectorised tables against the plain
``four_card_key`` and against the brute force's own ranking (tests/oracles/four_card_brute.py), every set of
reduced decks; the best four of five of the full deck (2,598,960 sets, what Aces Up pays) by the brute force, deep.
"""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest
from oracles.four_card_brute import best, four

from oddscalc.cards import FULL_DECK, Deck, parse_card, reduced_deck
from oddscalc.games.punto_banco.card_hands import ORDER, hand_classes
from oddscalc.hands.five import colex_combos
from oddscalc.hands.four import (
    FOUR_CLASSES,
    best_four_counts,
    best_four_levels,
    best_four_strength,
    four_card_categories,
    four_card_key,
    four_qualifier_value,
    level_class,
    level_of,
)

# the best four of five cards of one deck, by class: what the Aces Up pay table is paid on (the brute force's own
# ranking agrees, deep); four of a kind is 13 x 48 = 624
BEST_OF_FIVE = {"four_of_a_kind": 624, "straight_flush": 2_072, "three_of_a_kind": 58_656, "flush": 114_616,
                "straight": 101_808, "two_pair": 123_552, "pair": 1_047_552, "high_card": 1_150_080}
# 12 cards: flushes and straights (9 to ace, two suits), A-2-3-4 (two suits), straight flushes and three of a kind
# (jack to ace, three suits), four of a kind and two pair (queen to ace, four suits)
DECKS = [reduced_deck("9", 2), Deck((0, 1, 2, 3, 11, 12), 2), reduced_deck("J", 3), reduced_deck("Q", 4)]


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def test_four_card_classes_of_a_deck_are_their_closed_forms() -> None:
    counts = dict(zip(FOUR_CLASSES, best_four_counts(FULL_DECK, 4).tolist()))
    assert counts == {
        "four_of_a_kind": 13,
        "straight_flush": 11 * 4,  # A-2-3-4 to J-Q-K-A in each suit
        "three_of_a_kind": 13 * 4 * 48,
        "flush": 4 * comb(13, 4) - 44,
        "straight": 11 * 4**4 - 44,
        "two_pair": comb(13, 2) * 6 * 6,
        "pair": 13 * 6 * comb(12, 2) * 16,
        "high_card": (comb(13, 4) - 11) * (4**4 - 4),
    }
    assert sum(counts.values()) == comb(52, 4)


def test_the_order_is_four_card_pokers() -> None:
    # three of a kind (2,496) is rarer than a flush (2,816) or a straight (2,772): it ranks above both
    beat = [("Ah Ad Ac As", "Kh Qh Jh Th"), ("4c 3c 2c Ac", "Kh Kd Ks 2c"), ("2h 2d 2s 3c", "Ah Qh 9h 4h"),
            ("9h 7h 5h 3h", "Ac Kd Qs Jh"), ("5c 4d 3s 2h", "Ac Ad Kd Ks"), ("3c 3d 2c 2d", "Ac Ad Kh Qs"),
            ("2c 2d 3s 4h", "Ac Kd Qs 9h"), ("5c 4d 3s Ah", "Kc Qd Js 9h")]
    for hi, lo in beat:
        assert four_card_key(cards(hi))[1] > four_card_key(cards(lo))[1], (hi, lo)
    assert four_card_key(cards("As 2s 3s 4s"))[0] == "straight_flush"
    assert four_card_key(cards("Ks As 2s 3s"))[0] == "flush"  # no wrap-around straight
    assert four_card_key(cards("Ah Kh 2c 3c"))[1] == four_card_key(cards("Ad Kd 2s 3h"))[1]  # a tie


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: d.describe())
def test_the_tables_equal_the_plain_ranking_and_the_brute_force(deck: Deck) -> None:
    for k in (4, 5, 6):
        strength = best_four_strength(deck, k)
        value = best_four_levels()[strength]
        sets = [tuple(deck.cards[i] for i in row) for row in colex_combos(deck.size, k).tolist()]
        assert len(sets) == len(strength)
        if k < 6:  # the six-card sets are the brute force's alone (its keys below): a fast test
            plain = [max(four_card_key(h)[1] for h in itertools.combinations(s, 4)) for s in sets]
            assert value.tolist() == plain
        keys = [best(frozenset(s)) for s in sets]
        assert Counter(FOUR_CLASSES[c] for c in level_class()[strength].tolist()) == Counter(n for n, _ in keys)
        # the same order as the brute force's keys: equal exactly when equal, greater when greater
        order = sorted(range(len(sets)), key=lambda i: keys[i][1])
        ranked = [int(strength[i]) for i in order]
        assert ranked == sorted(ranked)
        assert all((keys[a][1] == keys[b][1]) == (strength[a] == strength[b]) for a, b in zip(order, order[1:]))


def test_the_qualifier_and_the_pair_threshold() -> None:
    assert level_of(four_qualifier_value("high_card")) == 0  # "any": every hand qualifies
    aces = four_qualifier_value("pair", (12,))
    assert four_card_key(cards("Ah Ad 2c 3s"))[1] >= aces > four_card_key(cards("Kh Kd Ac Qs"))[1]
    assert four_card_key(cards("2h 2d 3c 3s"))[1] >= aces  # two pair is better than a pair of aces


def test_the_vectorised_classes_take_a_shoes_repeated_cards_as_the_baccarat_bets_do() -> None:
    # a shoe repeats cards: the first class of the order a set makes
    rows = [cards(t) for t in ("9h 9h 5h 3h", "9h 9h 9h 9h", "9h 9h 9h 3h", "2c 3c 4c 5c", "Ac Kc Qc Jc")]
    r = np.array(rows) >> 2
    s = np.array(rows) & 3
    assert [FOUR_CLASSES[c] for c in four_card_categories(r, s).tolist()] == [
        "flush", "four_of_a_kind", "three_of_a_kind", "straight_flush", "straight_flush"]
    assert [ORDER[4][c].value for c in hand_classes(r, s).tolist()] == [
        "flush", "four_of_a_kind", "three_of_a_kind", "straight_flush", "royal_flush"]


def test_the_best_four_of_five_on_a_full_deck() -> None:
    assert dict(zip(FOUR_CLASSES, best_four_counts(FULL_DECK, 5).tolist())) == BEST_OF_FIVE
    assert sum(BEST_OF_FIVE.values()) == comb(52, 5)


@pytest.mark.deep
def test_the_best_four_of_five_on_a_full_deck_by_the_brute_force() -> None:
    counts = Counter(four_card_best_class(s) for s in itertools.combinations(FULL_DECK.cards, 5))
    assert dict(counts) == BEST_OF_FIVE


def four_card_best_class(hand: tuple[int, ...]) -> str:
    return max((four(h) for h in itertools.combinations(hand, 4)), key=lambda ck: ck[1])[0]
