from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddscalc.cards import FULL_DECK, Deck, card, parse_cards, reduced_deck
from oddscalc.hands import (
    BINOM,
    HAND_CLASSES,
    HandClass,
    colex_combos,
    colex_index,
    colex_indices,
    compare_hands,
    hand_table,
    hand_value,
)

PUBLISHED = {
    HandClass.ROYAL_FLUSH: 4,
    HandClass.STRAIGHT_FLUSH: 36,
    HandClass.FOUR_OF_A_KIND: 624,
    HandClass.FULL_HOUSE: 3_744,
    HandClass.FLUSH: 5_108,
    HandClass.STRAIGHT: 10_200,
    HandClass.THREE_OF_A_KIND: 54_912,
    HandClass.TWO_PAIR: 123_552,
    HandClass.PAIR: 1_098_240,
    HandClass.HIGH_CARD: 1_302_540,
}

REDUCED_DECKS = [
    reduced_deck("8", 2),
    Deck((0, 1, 2, 3, 12), 4),  # wheel possible
    Deck((0, 1, 2, 3, 4, 11, 12), 3),  # wheel and 6-high straight, no broadway
    reduced_deck("9", 4),
]

five_cards = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


def value_key(cards: tuple[int, ...] | list[int]) -> tuple[int, tuple[int, ...]]:
    cls, tb = hand_value(cards)
    return (-HAND_CLASSES.index(cls), tb)


def test_class_order_and_labels() -> None:
    assert HAND_CLASSES[0] is HandClass.ROYAL_FLUSH
    assert HAND_CLASSES[-1] is HandClass.HIGH_CARD
    assert HandClass.FOUR_OF_A_KIND.label == "Four of a kind"
    assert HandClass.ROYAL_FLUSH.label == "Royal flush"
    assert HandClass.TWO_PAIR.value == "two_pair"


def test_hand_value_examples() -> None:
    assert hand_value(parse_cards("As Ks Qs Js Ts")) == (HandClass.ROYAL_FLUSH, (12,))
    assert hand_value(parse_cards("5d 4d 3d 2d Ad")) == (HandClass.STRAIGHT_FLUSH, (3,))
    assert hand_value(parse_cards("5d 4c 3d 2d Ad")) == (HandClass.STRAIGHT, (3,))
    assert hand_value(parse_cards("Kd Kc Kh 2d 2s")) == (HandClass.FULL_HOUSE, (11, 0))
    assert hand_value(parse_cards("9d 9c 4h 4d Ks")) == (HandClass.TWO_PAIR, (7, 2, 11))
    assert hand_value(parse_cards("Ad Kc 4h 3d 2s")) == (HandClass.HIGH_CARD, (12, 11, 2, 1, 0))
    assert compare_hands(parse_cards("6d 5c 4h 3d 2s"), parse_cards("5d 4c 3h 2d As")) == 1
    assert compare_hands(parse_cards("Ad Ac 4h 3d 2s"), parse_cards("Ah As 4c 3c 2c")) == 0
    with pytest.raises(ValueError):
        hand_value([1, 2, 3, 4])


def test_colex_order_and_index() -> None:
    combos = colex_combos(9, 4)
    assert len(combos) == comb(9, 4)
    expected = sorted(itertools.combinations(range(9), 4), key=lambda c: c[::-1])
    assert [tuple(r) for r in combos] == expected
    assert (colex_indices(combos) == np.arange(len(combos))).all()
    assert colex_index(combos[100]) == 100
    assert BINOM.shape == (53, 6) and BINOM[52, 5] == comb(52, 5)


def test_full_deck_counts() -> None:
    table = hand_table()
    assert table is hand_table(FULL_DECK)
    assert table.combos.shape == (comb(52, 5), 5)
    assert table.class_counts() == PUBLISHED
    assert table.n_levels == 7_462
    assert int(table.strength.min()) == 0 and int(table.strength.max()) == 7_461

    ak = table.strength_at_least(HandClass.HIGH_CARD, (12, 11))
    high = table.hand_class == HAND_CLASSES.index(HandClass.HIGH_CARD)
    assert int((high & (table.strength >= ak)).sum()) == 167_280

    tens = table.strength_at_least(HandClass.PAIR, (8,))
    pair = table.hand_class == HAND_CLASSES.index(HandClass.PAIR)
    assert int((pair & (table.strength >= tens)).sum()) == 422_400
    better_than_pair = sum(PUBLISHED[c] for c in HAND_CLASSES[: HAND_CLASSES.index(HandClass.PAIR)])
    assert int((table.strength >= tens).sum()) == 422_400 + better_than_pair


def test_lookups() -> None:
    table = hand_table()
    hand = parse_cards("Ts Js Qs Ks As")
    assert table.class_of(hand) is HandClass.ROYAL_FLUSH
    assert table.strength_of(hand) == table.n_levels - 1
    assert table.strength_of(parse_cards("7c 5d 4h 3s 2c")) == 0
    row = table.index(hand[::-1])
    assert tuple(table.combos[row]) == tuple(sorted(hand))
    assert table.strength_at_least(HandClass.HIGH_CARD) == 0
    assert table.strength_at_least(HandClass.ROYAL_FLUSH) == table.n_levels - 1
    with pytest.raises(ValueError):
        table.index([0, 1, 2, 3])


def test_qualifier_falls_through_to_next_class() -> None:
    # Ranks 8..A in 2 suits: no pair of 2s exists, so the threshold is the weakest pair.
    table = hand_table(reduced_deck("8", 2))
    weakest_pair = table.strength_at_least(HandClass.PAIR)
    assert table.strength_at_least(HandClass.PAIR, (0,)) == weakest_pair
    assert table.class_counts()[HandClass.FOUR_OF_A_KIND] == 0
    assert table.strength_at_least(HandClass.FOUR_OF_A_KIND) == table.strength_at_least(
        HandClass.STRAIGHT_FLUSH
    )


@pytest.mark.parametrize("deck", REDUCED_DECKS, ids=lambda d: d.describe())
def test_reduced_deck_matches_reference_on_every_hand(deck: Deck) -> None:
    table = hand_table(deck)
    hands = [tuple(int(c) for c in row) for row in table.combos]
    assert hands == sorted(itertools.combinations(deck.cards, 5), key=lambda c: c[::-1])
    keys = [value_key(h) for h in hands]
    levels = {k: i for i, k in enumerate(sorted(set(keys)))}
    assert table.n_levels == len(levels)
    assert [levels[k] for k in keys] == table.strength.tolist()
    codes = [HAND_CLASSES.index(hand_value(h)[0]) for h in hands]
    assert codes == table.hand_class.tolist()
    for i in range(0, len(hands), 97):
        assert table.index(hands[i]) == i


def test_wheel_only_with_low_ranks() -> None:
    table = hand_table(Deck((0, 1, 2, 3, 12), 4))
    counts = table.class_counts()
    assert counts[HandClass.STRAIGHT_FLUSH] == 4
    assert counts[HandClass.STRAIGHT] == 4**5 - 4
    assert counts[HandClass.ROYAL_FLUSH] == 0


def test_full_deck_random_sample_matches_reference() -> None:
    table = hand_table()
    rng = np.random.default_rng(20240601)
    rows = rng.choice(len(table.combos), 3_000, replace=False)
    by_key: dict[tuple[int, tuple[int, ...]], int] = {}
    for row in rows:
        hand = table.combos[row].tolist()
        cls, _ = hand_value(hand)
        assert table.hand_class[row] == HAND_CLASSES.index(cls)
        assert by_key.setdefault(value_key(hand), int(table.strength[row])) == table.strength[row]
    ordered = sorted(by_key.items())
    strengths = [s for _, s in ordered]
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)


@settings(max_examples=300, deadline=None)
@given(five_cards, five_cards)
def test_strength_order_agrees_with_compare_hands(a: list[int], b: list[int]) -> None:
    table = hand_table()
    sa, sb = table.strength_of(a), table.strength_of(b)
    assert compare_hands(a, b) == (sa > sb) - (sa < sb)


@settings(max_examples=200, deadline=None)
@given(five_cards, st.permutations(range(4)))
def test_suit_permutation_invariance(hand: list[int], perm: list[int]) -> None:
    table = hand_table()
    moved = [card(c >> 2, perm[c & 3]) for c in hand]
    assert hand_value(moved) == hand_value(hand)
    assert table.strength_of(moved) == table.strength_of(hand)
    assert table.class_of(moved) is table.class_of(hand)


# --- the three-card family (oddscalc.hands.three) and the best five of six (oddscalc.hands.best) ----------------

# threecardpoker.org/odds/ and i-online-casinos.com/games/three-card-poker-odds.php: of 22,100 hands, straight flush
# 48 (4 of them A-K-Q suited), three of a kind 52, straight 720, flush 1,096, pair 3,744, high card the rest
THREE_PUBLISHED = {"mini_royal": 4, "straight_flush": 44, "three_of_a_kind": 52, "straight": 720, "flush": 1_096,
                   "pair": 3_744, "high_card": 16_440}


def test_three_card_counts_equal_the_published_ones() -> None:
    from oddscalc.hands.three import three_card_table

    assert three_card_table().class_counts() == THREE_PUBLISHED


@pytest.mark.parametrize("deck", [*REDUCED_DECKS, FULL_DECK], ids=lambda d: d.describe())
def test_three_card_table_equals_the_plain_evaluator(deck: Deck) -> None:
    from oddscalc.hands.three import THREE_CLASSES, three_card_key, three_card_table

    table = three_card_table(deck)
    plain = [three_card_key(row.tolist(), deck) for row in table.cards]
    assert [THREE_CLASSES[c] for c in table.hand_class.tolist()] == [name for name, _ in plain]
    assert table.value.tolist() == [value for _, value in plain]


def three_order(cards: list[int]) -> tuple[int, ...]:
    """A third spelling of the three-card order, by the rules in words: category, then ranks as poker reads them."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    suited = len({c & 3 for c in cards}) == 1
    straight = ranks[0] - ranks[2] == 2 and len(set(ranks)) == 3
    wheel = ranks == [12, 1, 0]
    if straight or wheel:
        return (5 if suited else 3, 1 if wheel else ranks[0])
    if len(set(ranks)) == 1:
        return (4, ranks[0])
    if len(set(ranks)) == 2:
        pair = max(set(ranks), key=ranks.count)
        return (1, pair, min(set(ranks), key=ranks.count))
    return (2 if suited else 0, *ranks)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True))
def test_three_card_values_order_hands_as_the_rules_say(cards: list[int]) -> None:
    from oddscalc.hands.three import three_card_key

    a, b = cards[:3], cards[3:]
    va, vb = three_card_key(a)[1], three_card_key(b)[1]
    assert (va > vb) - (va < vb) == (three_order(a) > three_order(b)) - (three_order(a) < three_order(b))


def test_three_card_examples() -> None:
    from oddscalc.hands.three import qualifier_value, three_card_class, three_card_key

    assert three_card_class(parse_cards("As Ks Qs")) == "mini_royal"
    assert three_card_class(parse_cards("As 2s 3s")) == "straight_flush"
    assert three_card_class(parse_cards("As 2d 3s")) == "straight"
    assert three_card_key(parse_cards("As 2d 3s"))[1] < three_card_key(parse_cards("2s 3d 4s"))[1]  # A-2-3 lowest
    assert three_card_key(parse_cards("2s 3d 4s"))[1] > three_card_key(parse_cards("As Ks 9s"))[1]  # beats a flush
    q = qualifier_value("high_card", (10,))  # queen-high
    assert three_card_key(parse_cards("Qs 3d 2s"))[1] >= q > three_card_key(parse_cards("Js Td 8s"))[1]
    assert three_card_class(parse_cards("As 2d 3s"), Deck((1, 2, 3, 12), 2)) == "high_card"  # no 2 in the deck


@pytest.mark.parametrize("deck", [reduced_deck("8", 2), Deck((0, 1, 2, 3, 4, 12), 2), Deck((0, 1, 2, 3, 12), 3)],
                         ids=lambda d: d.describe())
def test_best_five_of_six_equals_every_five_evaluated(deck: Deck) -> None:
    from collections import Counter

    from oddscalc.hands.best import best_five_of_six_counts

    plain: Counter[HandClass] = Counter()
    for six in itertools.combinations(deck.cards, 6):
        plain[max((value_key(h), hand_value(h)[0]) for h in itertools.combinations(six, 5))[1]] += 1
    assert best_five_of_six_counts(deck).tolist() == [plain[c] for c in HAND_CLASSES]
