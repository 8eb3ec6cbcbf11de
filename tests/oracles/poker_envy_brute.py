"""Plain brute force for a Caribbean Stud side bet with an envy bonus: every deal of the player's five cards and
the other seats' five cards each, dealt in turn from a reduced deck (each seat's hand a set), every outcome tallied
as a Fraction: the bet's own result from its rules (their plain data, read by ``poker_side_brute.holds``) plus the
envy amount for each other seat's hand class. The EV and variance are the tally's moments. The dealer's cards are
read by nothing here: leaving them out is a constant factor on every deal. Shares no code with the engine beyond
the card ids and the plain five-card evaluator."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from oddscalc.cards import Deck
from oddscalc.hands import hand_value
from oracles.poker_side_brute import holds


def _event(rules: Sequence[Mapping[str, Any]], otherwise: str, hand: tuple[int, ...]) -> str:
    for rule in rules:
        conds = rule["cards_when"] if isinstance(rule["cards_when"], list) else [rule["cards_when"]]
        if all(holds(c, hand) for c in conds):  # a bet with envy reads the player's cards only
            return str(rule["event"])
    return otherwise


def envy_moments(rules: Sequence[Mapping[str, Any]], otherwise: str, values: Mapping[str, Fraction],
                 envy: Mapping[str, Fraction], deck: Deck,
                 seats: Sequence[int]) -> dict[int, tuple[Fraction, Fraction]]:
    """(EV, variance) per stake for each number of other seats in ``seats``: ``values`` the net stakes the bet wins
    on each event, ``envy`` the stakes paid for each other seat of a class (by class id).

    Every deal is enumerated: a deal is a list of disjoint hands (the player's, then each seat's) held as bit
    masks over the deck's cards, dealt seat by seat (each state followed by every five of the cards it leaves);
    a smaller number of seats reads the first seats of each deal (every first part of a deal is completed by the
    same number of deals). Sums are whole numbers (the pays times a common denominator) until the end."""
    if deck.size > 20:
        raise ValueError("the brute force keeps a value per subset of the deck: 20 cards at most")
    scale = math.lcm(*(x.denominator for x in (*values.values(), *envy.values())))
    own = np.zeros(1 << deck.size, dtype=np.int64)
    extra = np.zeros(1 << deck.size, dtype=np.int64)
    for combo in itertools.combinations(range(deck.size), 5):
        hand = tuple(deck.cards[i] for i in combo)
        mask = sum(1 << i for i in combo)
        own[mask] = int(values[_event(rules, otherwise, hand)] * scale)
        extra[mask] = int(envy.get(hand_value(hand)[0].value, Fraction(0)) * scale)
    left = np.array([(1 << deck.size) - 1], dtype=np.int64)  # the cards not yet dealt, per state
    sums = np.zeros((1, 0), dtype=np.int64)  # the running result after the player and each seat, per state
    for level in range(max(seats) + 1):
        held = (left[:, None] >> np.arange(deck.size)) & 1
        bits = np.nonzero(held)[1].reshape(len(left), -1)  # the positions of the cards left, per state
        picks = np.array(list(itertools.combinations(range(bits.shape[1]), 5)), dtype=np.int64)
        hand = (np.int64(1) << bits[:, picks]).sum(axis=2)  # (states, ways): each five of the cards left
        got = (own if level == 0 else extra)[hand]
        before = sums[:, -1:] if level else np.zeros((len(sums), 1), dtype=np.int64)
        sums = np.concatenate([np.repeat(sums, hand.shape[1], axis=0), (before + got).reshape(-1, 1)], axis=1)
        left = (left[:, None] ^ hand).reshape(-1)
    total = len(sums)
    out = {}
    for n in seats:
        x = sums[:, n]
        mean = Fraction(int(x.sum()), total * scale)
        assert int(np.abs(x).max()) < 1 << 20 and total < 1 << 22  # so the sum of squares stays below 2^63
        out[n] = (mean, Fraction(int((x * x).sum()), total * scale * scale) - mean * mean)
    return out
