"""Seeded synthetic decisions for the evidence engine's tests and benchmark: deals of our own (a numpy generator,
not the simulator), played honestly or by a player who knows more, with an error rate of our choosing.

The players decide by the EVs the engine reads (``assess``): they are the players the models describe; that those
EVs are right is checked on its own, against brute forces over the remaining cards (``evidence_brute``).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from oddscalc.audit import evidence_let_it_ride as lir
from oddscalc.audit.evidence import Assessed
from oddscalc.audit.evidence_caribbean import ACTIONS, Deals, assess
from oddscalc.audit.observed import Observed
from oddscalc.cards import Deck
from oddscalc.games.caribbean.game import CaribbeanRules


def caribbean_deals(deck: Deck, rounds: int, seed: int) -> Deals:
    """``rounds`` deals of ten cards (the player's five, the up card, four hole cards), shuffled by ``seed``."""
    rng = np.random.default_rng(seed)
    cards = np.array(deck.cards, dtype=np.int64)
    order = np.argsort(rng.random((rounds, len(cards))), axis=1)[:, :10]
    dealt = cards[order]
    return Deals(np.arange(1, rounds + 1, dtype=np.int64), dealt[:, :5], dealt[:, 5], dealt[:, 6:],
                 ("fold",) * rounds)


def play(reading: Assessed, error: float, seed: int, vocabulary: tuple[str, ...] = ACTIONS) -> tuple[str, ...]:
    """The best action of each decision under ``reading``, each replaced by another action of the vocabulary with
    probability ``error`` (drawn by ``seed``)."""
    rng = np.random.default_rng(seed)
    best = reading.best
    wrong = rng.random(len(best)) < error
    other = (best + rng.integers(1, len(vocabulary), len(best))) % len(vocabulary)
    return tuple(vocabulary[int(a)] for a in np.where(wrong, other, best))


def caribbean_log(rules: CaribbeanRules, rounds: int, seed: int, knows: tuple[int, ...] = (),
                  error: float = 0.0) -> list[Observed]:
    """A log of ``rounds`` decisions by a player who knows the hole cards ``knows`` (0-based; none: honest) and
    plays the best action under it, erring with probability ``error``."""
    d = caribbean_deals(rules.deck, rounds, seed)
    actions = play(assess(rules, d, knows), error, seed + 1)
    return [Observed(int(d.lines[i]), "caribbean", (*map(int, d.players[i]), int(d.up[i])),
                     tuple(map(int, d.holes[i])), actions[i], Fraction(0)) for i in range(rounds)]


def coups(rounds: int, seed: int, decks: int = 8) -> list[tuple[int, ...]]:
    """``rounds`` coups' first six cards (card ids), each from a fresh shoe of ``decks`` decks shuffled by ``seed``
    (as the information count reads a coup: from the full shoe)."""
    rng = np.random.default_rng(seed)
    shoe = np.repeat(np.arange(52, dtype=np.int64), decks)
    keys = rng.random((rounds, len(shoe)))
    first = np.argpartition(keys, 6, axis=1)[:, :6]  # the six cards with the smallest keys, in the keys' order
    picked = np.take_along_axis(first, np.argsort(np.take_along_axis(keys, first, axis=1), axis=1), axis=1)
    return [tuple(int(c) for c in row) for row in shoe[picked]]


def punto_banco_log(cards: list[tuple[int, ...]], actions: tuple[str, ...]) -> list[Observed]:
    """The coups as decisions with the given bets (nothing seen; the log's winnings left at 0)."""
    return [Observed(i + 1, "punto-banco", (), c, a, Fraction(0)) for i, (c, a) in enumerate(zip(cards, actions))]


def let_it_ride_deals(deck: Deck, rounds: int, seed: int) -> lir.Deals:
    """``rounds`` deals of five cards (the player's three, then the two community cards), shuffled by ``seed``, as
    the round's two decisions: bet 1 seeing three cards, bet 2 seeing four (both on the round's line; the actions
    left to the caller)."""
    rng = np.random.default_rng(seed)
    cards = np.array(deck.cards, dtype=np.int64)
    dealt = cards[np.argsort(rng.random((rounds, len(cards))), axis=1)[:, :5]]
    return lir.Deals(np.repeat(np.arange(1, rounds + 1, dtype=np.int64), 2), np.repeat(dealt, 2, axis=0),
                     np.tile(np.array([3, 4], dtype=np.int64), rounds), ("pull",) * (2 * rounds))
