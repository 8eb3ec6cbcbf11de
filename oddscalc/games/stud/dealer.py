"""The stud engine's count against a dealer with up cards: per suit class of the player's hand and per set of the
dealer's up cards, the dealer's hands by outcome (pay-free; any deck, P, D, U, qualifier and ranking).

Counting argument. A deal is the player's ``P`` cards (a set), the dealer's ``U`` up cards (a set from the rest,
seen before the decision) and his ``D - U`` hole cards (a set from what is left):
``C(n, P) x C(n - P, U) x C(n - P - U, D - U)`` equally likely deals (Caribbean Stud: C(52,5) x 47 x C(46,4) =
19,933,230,517,200, the published convention, the up card told apart from the hole cards). Permuting the suits
changes no outcome, so the player's hands are taken one per suit class (134,459 of five cards on 52), with the
class size. For each, every ``D``-card hand of the ``n - P`` other cards is ranked (one read of the ranking's
table of every ``D``-card hand of the deck) and put in one of four outcomes: the dealer does not qualify, or
qualifies and loses to, ties or beats the player; and it is counted once for each ``U``-subset of it, as the up
cards it would show (each such (up set, hole set) split is one deal). So for each (player class, up set) the four
counts of the hole completions are the dealer's hands by outcome, which with the class's hand and the pays are
all the decision and the main bet need (settled in :mod:`oddscalc.games.stud.dealer_settle`).

The ranking's table is of ``D``-card hands; for the four-card ranking it holds the best four of each (the player's
``P`` cards and the dealer's ``D`` may differ: Four Card Poker's five and six), the same strengths on both sides.

This is the plain count: it visits every dealer hand for every player class (C(47,5) = 1,533,939 hands a class on
the full deck), with none of the shipped Caribbean count's inclusion-exclusion, which the files check (they agree
to the unit). The player classes are independent, so they run in chunks whose integer results are concatenated:
in this process, or on a dask cluster (:func:`count_dealer`'s ``mapper``), identical whatever the chunking.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from oddscalc.cards import Deck
from oddscalc.games.stud.dealer_chunk import Chunk, ranking_table
from oddscalc.hands import colex_indices
from oddscalc.progress import Progress
from oddscalc.symmetry import suit_classes

DEALER_ARRAYS = ("reps", "weights", "player_class", "outcomes")
Mapper = Callable[[Callable[[Any], Any], Sequence[Any]], list[Any]]  # map in chunk order (cluster.mapper)
CHUNK = 512  # player classes a chunk: a full-deck chunk is a few seconds of one core


@dataclass(frozen=True)
class DealerCounts:
    """Per suit class of the player's hand: its class, and per set of up cards the dealer's hands by outcome."""

    deck: Deck
    player_cards: int
    dealer_cards: int
    up_cards: int
    reps: np.ndarray  # (m, P) int8 card ids of each class's representative
    weights: np.ndarray  # (m,) int64 class sizes
    player_class: np.ndarray  # (m,) int8 index into the ranking's classes
    outcomes: np.ndarray  # (m, C(n - P, U), 4) int64: not qualified, player wins, tie, player loses

    @property
    def holes(self) -> int:
        """The dealer's hole completions of one up set: C(n - P - U, D - U)."""
        return math.comb(self.deck.size - self.player_cards - self.up_cards, self.dealer_cards - self.up_cards)

    @property
    def total(self) -> int:
        """Every deal: C(n, P) x C(n - P, U) x C(n - P - U, D - U)."""
        n, p = self.deck.size, self.player_cards
        return math.comb(n, p) * math.comb(n - p, self.up_cards) * self.holes

    def up_set(self, row: int, up: int) -> tuple[int, ...]:
        """The card ids of up set ``up`` (its colex index among the cards the player does not hold) of row ``row``."""
        free = [c for c in self.deck.cards if c not in set(self.reps[row].tolist())]
        return next(tuple(free[i] for i in s) for k, s in enumerate(_colex_subsets(len(free), self.up_cards))
                    if k == up)


def _colex_subsets(n: int, k: int) -> list[tuple[int, ...]]:
    return sorted(itertools.combinations(range(n), k), key=lambda s: sum(math.comb(x, i + 1) for i, x in
                                                                         enumerate(s)))


def count_chunk(chunk: Chunk) -> np.ndarray:
    """(rows, C(n - P, U), 4) int64: the chunk's dealer hands by up set and outcome."""
    if chunk.sieve:
        from oddscalc.games.stud.sieve import sieve_chunk

        return sieve_chunk(chunk)
    return plain_chunk(chunk)


def plain_chunk(chunk: Chunk) -> np.ndarray:
    """:func:`count_chunk` by the plain count: every dealer hand of each player hand visited."""
    from oddscalc.games.stud.dealer_kernel import count_rows  # numba: loaded when a count is made

    table = ranking_table(chunk.deck, chunk.ranking, chunk.qualifier, chunk.dealer_cards)
    f = chunk.free.shape[1]
    # C(x, k) for every deck position x (the dealer hand's index in the table) and every free-card index (the up
    # set's index among the free cards)
    binom = np.array([[math.comb(x, k) for k in range(chunk.dealer_cards + 1)] for x in range(53)], dtype=np.int64)
    # the up sets as indices into the dealer's hand, those holding its lowest card first (the kernel's order)
    ups = sorted(itertools.combinations(range(chunk.dealer_cards), chunk.up_cards), key=lambda s: not (s and s[0] == 0))
    subs = np.array(ups, dtype=np.int64).reshape(len(ups), chunk.up_cards)
    out = np.zeros((chunk.free.shape[0], math.comb(f, chunk.up_cards), 4), dtype=np.int64)
    count_rows(chunk.free, chunk.dealer_cards, chunk.strength, table.qualifies_from, table.strength, binom, subs,
               out)
    return out


def chunks_of(deck: Deck, ranking: str, qualifier: tuple[str, tuple[int, ...]], player_cards: int,
              dealer_cards: int, up_cards: int, reps: np.ndarray, size: int = CHUNK,
              sieve: bool = False) -> list[Chunk]:
    """The count's chunks: ``size`` player classes each, in order (``sieve``: counted by inclusion-exclusion)."""
    table = ranking_table(deck, ranking, qualifier, player_cards)  # the player's hands: his strengths
    pos = _positions(deck, reps)
    held = np.zeros((len(pos), deck.size), dtype=bool)
    np.put_along_axis(held, pos, True, axis=1)
    free = np.nonzero(~held)[1].reshape(len(pos), deck.size - player_cards).astype(np.int64)
    strength = table.strength[colex_indices(pos)].astype(np.int64)
    return [Chunk(deck, ranking, qualifier, free[i:i + size], strength[i:i + size], dealer_cards, up_cards, sieve)
            for i in range(0, len(pos), size)]


def _positions(deck: Deck, cards: np.ndarray) -> np.ndarray:
    """Each row's deck positions, ascending."""
    position = np.full(52, -1, dtype=np.int64)
    position[list(deck.cards)] = np.arange(deck.size)
    return np.sort(position[np.asarray(cards, dtype=np.int64)], axis=1)


def count_dealer(deck: Deck, ranking: str, player_cards: int, dealer_cards: int, up_cards: int,
                 qualifier: tuple[str, tuple[int, ...]], mapper: Mapper | None = None,
                 size: int = CHUNK, sieve: bool | None = None,
                 progress: Progress | None = None) -> dict[str, np.ndarray]:
    """The counts (``DEALER_ARRAYS``, as the store keeps them), chunk by chunk: here, or by ``mapper`` (a
    cluster's map, results in chunk order); the same integers whatever ``size`` and wherever they run, and by
    whichever count (``sieve``: inclusion-exclusion or plain; left out, the cheaper by :func:`cost`); ``progress``
    shows the chunks done here."""
    if player_cards != dealer_cards and ranking != "four-card":
        raise ValueError("the player's and the dealer's hands are compared on the same number of cards (a ranking "
                         "of the best four compares the best four of any number)")
    reps, weights = suit_classes(player_cards, deck)
    if sieve is None:
        sieve = cost(deck, player_cards, dealer_cards, up_cards).sieve
    chunks = chunks_of(deck, ranking, qualifier, player_cards, dealer_cards, up_cards, reps, size, sieve)
    parts = mapper(count_chunk, chunks) if mapper else _here(count_chunk, chunks, progress or Progress(False, ""))
    rows = colex_indices(_positions(deck, reps))
    return {"reps": np.asarray(reps), "weights": np.asarray(weights, dtype=np.int64),
            "player_class": np.asarray(ranking_table(deck, ranking, qualifier, player_cards).hand_class[rows],
                                       dtype=np.int8),
            "outcomes": np.concatenate(parts) if parts else np.zeros((0, 1, 4), dtype=np.int64)}


@dataclass(frozen=True)
class Cost:
    """What a count against a dealer costs on one core of this machine, estimated before it runs."""

    classes: int  # the player's suit classes
    hands: int  # the dealer's hands of the cards a player hand leaves: C(n - P, D)
    plain_seconds: float
    sieve_seconds: float | None  # None: the sieve does not count it (more than one up card, or tables too big)

    @property
    def sieve(self) -> bool:
        """Whether the sieve is the cheaper count."""
        return self.sieve_seconds is not None and self.sieve_seconds < self.plain_seconds

    @property
    def seconds(self) -> float:
        """The cheaper count's estimate."""
        return min(self.plain_seconds, self.sieve_seconds if self.sieve_seconds is not None else math.inf)


# Rates of one core here, measured by benchmarks/four_card_plan.py on Four Card Poker's full deck (the machine
# loaded): the plain count's dealer hands visited a second; the sieve's table entries built and reads a second
PLAIN_RATE, BUILD_RATE, READ_RATE = 7.6e7, 4e7, 2e6


def cost(deck: Deck, player_cards: int, dealer_cards: int, up_cards: int, levels: int = 8000) -> Cost:
    """The plain count's and the sieve's estimated seconds of one core (``levels``: an upper bound on the
    distinct dealer strengths, which size the sieve's tables)."""
    from oddscalc.games.stud.sieve import TABLE_BUDGET, table_bytes

    n, p, d = deck.size, player_cards, dealer_cards
    classes, hands = len(suit_classes(p, deck)[1]), math.comb(n - p, d)
    plain = classes * hands / PLAIN_RATE
    sieve = None
    if up_cards <= 1 and table_bytes(n, d, levels) <= TABLE_BUDGET:
        entries = math.comb(n, d) * 2**d
        sieve = entries / BUILD_RATE + classes * (n - p) ** up_cards * 2**p / READ_RATE
    return Cost(classes, hands, plain, sieve)


def _here(fn: Callable[[Chunk], np.ndarray], chunks: Sequence[Chunk], progress: Progress) -> list[np.ndarray]:
    out = []
    for k, c in enumerate(chunks):
        out.append(fn(c))
        progress.step(k + 1, len(chunks))
    progress.finish()
    return out

