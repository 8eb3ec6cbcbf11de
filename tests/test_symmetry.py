from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddscalc.cards import FULL_DECK, Deck, card, reduced_deck
from oddscalc.hands import hand_table
from oddscalc.symmetry import (
    canonical,
    canonical_hand_plus_card,
    hand_plus_card_classes,
    hand_plus_card_hand_index,
    suit_class_index,
    suit_classes,
)

SMALL_DECKS = [reduced_deck("T", 4), reduced_deck("9", 3), Deck((0, 1, 2, 3, 12), 2)]


@pytest.mark.parametrize(
    ("k", "n_classes"), [(1, 13), (2, 169), (3, 1_755), (4, 16_432), (5, 134_459)]
)
def test_full_deck_class_counts(k: int, n_classes: int) -> None:
    reps, weights = suit_classes(k)
    assert reps.shape == (n_classes, k) and reps.dtype == np.int8
    assert weights.dtype == np.int64
    assert int(weights.sum()) == comb(52, k)
    assert (np.diff(reps, axis=1) > 0).all()
    assert suit_classes(k, FULL_DECK)[0] is reps


def test_full_deck_hand_plus_card() -> None:
    reps, extra, weights = hand_plus_card_classes()
    assert len(reps) == len(extra) == len(weights) == 5_649_150
    assert int(weights.sum()) == comb(52, 5) * 47
    hand_reps, hand_weights = suit_classes(5)
    idx = hand_plus_card_hand_index()
    assert (hand_reps[idx] == reps).all()
    # Each hand class's extra-card weights add up to (hand class size) * 47.
    per_hand = np.bincount(idx, weights=weights.astype(np.float64), minlength=len(hand_reps))
    assert (per_hand == hand_weights * 47).all()
    assert not (reps == extra[:, None]).any()


@pytest.mark.parametrize("deck", [reduced_deck("J", 4), SMALL_DECKS[2]], ids=lambda d: d.describe())
def test_hand_plus_card_rows_name_their_hands_class(deck: Deck) -> None:
    # the fast tier's case of the full-deck test above: the same index and sums on small decks
    reps, extra, weights = hand_plus_card_classes(deck)
    hand_reps, hand_weights = suit_classes(5, deck)
    idx = hand_plus_card_hand_index(deck)
    assert (hand_reps[idx] == reps).all()
    per_hand = np.bincount(idx, weights=weights.astype(np.float64), minlength=len(hand_reps))
    assert (per_hand == hand_weights * (deck.size - 5)).all()
    assert not (reps == extra[:, None]).any()


@pytest.mark.parametrize("deck", SMALL_DECKS, ids=lambda d: d.describe())
@pytest.mark.parametrize("k", [2, 3, 5])
def test_brute_force_classes(deck: Deck, k: int) -> None:
    reps, weights = suit_classes(k, deck)
    expected = {tuple(int(c) for c in r): int(w) for r, w in zip(reps, weights)}
    assert len(expected) == len(reps)
    seen = Counter(canonical(h, deck.n_suits) for h in itertools.combinations(deck.cards, k))
    assert seen == expected
    assert sum(expected.values()) == comb(deck.size, k)


# four suits on 16 cards and three on 15 in the suite; the 20- and 18-card decks (15,504 and 8,568 hands, each with
# every card left, in Python) are deep
@pytest.mark.parametrize("deck", [reduced_deck("J", 4), reduced_deck("T", 3), SMALL_DECKS[2],
                                  *(pytest.param(d, marks=pytest.mark.deep) for d in SMALL_DECKS[:2])],
                         ids=lambda d: d.describe())
def test_brute_force_hand_plus_card(deck: Deck) -> None:
    reps, extra, weights = hand_plus_card_classes(deck)
    expected = {(tuple(int(c) for c in r), int(x)): int(w) for r, x, w in zip(reps, extra, weights)}
    assert len(expected) == len(reps)
    seen: Counter[tuple[tuple[int, ...], int]] = Counter()
    for hand in itertools.combinations(deck.cards, 5):
        for x in deck.cards:
            if x not in hand:
                seen[canonical_hand_plus_card(hand, x, deck.n_suits)] += 1
    assert seen == expected
    assert sum(expected.values()) == comb(deck.size, 5) * (deck.size - 5)


@pytest.mark.parametrize("deck", [*SMALL_DECKS, FULL_DECK], ids=lambda d: d.describe())
def test_class_index_matches_hand_table(deck: Deck) -> None:
    reps, _ = suit_classes(5, deck)
    idx = suit_class_index(5, deck)
    combos = hand_table(deck).combos
    assert len(idx) == len(combos)
    rows = np.random.default_rng(7).choice(len(combos), min(500, len(combos)), replace=False)
    for row in rows:
        assert tuple(reps[idx[row]]) == canonical(combos[row].tolist(), deck.n_suits)


def test_canonical_examples() -> None:
    # Suits ordered by (cards held, rank mask) descending: the flush suit becomes clubs.
    assert canonical([card(12, 3), card(11, 3)]) == (card(11, 0), card(12, 0))
    assert canonical([card(0, 2), card(12, 1)]) == (card(0, 1), card(12, 0))
    hand, x = canonical_hand_plus_card([card(5, 3)], card(7, 2))
    assert hand == (card(5, 0),) and x == card(7, 1)
    with pytest.raises(ValueError):
        canonical([card(0, 3)], n_suits=2)
    with pytest.raises(ValueError):
        canonical_hand_plus_card([1, 2, 3, 4, 5], 5)


hands_k = st.integers(1, 7).flatmap(
    lambda k: st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True)
)


def _invariant(hand: list[int], perm: list[int]) -> None:
    moved = [card(c >> 2, perm[c & 3]) for c in hand]
    rep = canonical(hand)
    assert canonical(moved) == rep
    assert canonical(rep) == rep
    assert sorted(c >> 2 for c in rep) == sorted(c >> 2 for c in hand)


@settings(max_examples=300, deadline=None)
@given(hands_k, st.permutations(range(4)))
def test_canonical_invariant_under_suit_permutation(hand: list[int], perm: list[int]) -> None:
    _invariant(hand, perm)


@settings(max_examples=40, deadline=None)
@given(hands_k, st.permutations(range(4)))
def test_canonical_invariant_under_suit_permutation_in_few_examples(hand: list[int], perm: list[int]) -> None:
    # the fast tier's run of the property above (its 300 examples are deep)
    _invariant(hand, perm)


def _pair_invariant(hand: list[int], x: int, perm: list[int]) -> None:
    if x in hand:
        return
    moved = [card(c >> 2, perm[c & 3]) for c in hand]
    rep = canonical_hand_plus_card(hand, x)
    assert canonical_hand_plus_card(moved, card(x >> 2, perm[x & 3])) == rep
    assert rep[0] == canonical(hand)


@settings(max_examples=300, deadline=None)
@given(hands_k, st.integers(0, 51), st.permutations(range(4)))
def test_canonical_pair_invariant(hand: list[int], x: int, perm: list[int]) -> None:
    _pair_invariant(hand, x, perm)


@settings(max_examples=40, deadline=None)
@given(hands_k, st.integers(0, 51), st.permutations(range(4)))
def test_canonical_pair_invariant_in_few_examples(hand: list[int], x: int, perm: list[int]) -> None:
    # the fast tier's run of the property above (its 300 examples are deep)
    _pair_invariant(hand, x, perm)
