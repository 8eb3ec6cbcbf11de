"""The honest reading counted once per state (``evidence_count.outcome_counts_by_state``) is the count made
decision by decision, on the full deck and on decks whose suits differ (a short deck of two or three suits, where
the state must also hold the suit), and decisions of one state do repeat (the point of counting by state)."""

from __future__ import annotations

import numpy as np
import pytest
from oracles.evidence_deals import caribbean_deals

from oddscalc.audit.evidence_count import outcome_counts, outcome_counts_by_state, states
from oddscalc.cards import FULL_DECK, Deck, reduced_deck
from oddscalc.games.caribbean.count import qualifier_strength
from oddscalc.hands import colex_indices, hand_table


@pytest.mark.parametrize("deck", [FULL_DECK, reduced_deck("8", 2), reduced_deck("5", 3)],
                         ids=["52 cards", "2 suits", "3 suits"])
@pytest.mark.parametrize("known", [(), (0,), (0, 1)])
def test_by_state_is_decision_by_decision(deck: Deck, known: tuple[int, ...]) -> None:
    d = caribbean_deals(deck, 3000, seed=11)
    ht = hand_table(deck)
    mine = ht.strength[colex_indices(np.sort(ht.position[d.players].astype(np.int64), axis=1))].astype(np.int64)
    seen = np.concatenate([d.up[:, None], d.holes[:, list(known)]], axis=1)
    q = qualifier_strength(deck, "ace-king")
    one_by_one = outcome_counts(deck, d.players, seen, mine, q)
    assert np.array_equal(outcome_counts_by_state(deck, d.players, seen, mine, q), one_by_one)
    if not known and deck.size < 52:  # few cards: the states repeat, and the count by state is not vacuous
        assert len(np.unique(states(deck, d.players, seen))) < len(d.players)
