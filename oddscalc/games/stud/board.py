"""The stud engine's count with community cards beside a dealer (Casino Hold'em): per suit class of what the player
has seen at his decision, every completion by the player's final class and the dealer's outcome (pay-free).

Counting argument. A game file's stages, in any order, deal the player's own cards, community cards and the
dealer's hole cards; the player decides once, after one of them. What he knows then is a pair of sets: his ``P``
cards dealt so far and the ``B`` community cards shown so far. The rest is unseen: his ``P'`` later cards, the
``B'`` later community cards and the dealer's ``D`` cards, each a set. So a deal is the five sets in that order,
``C(n,P) x C(n-P,B) x C(f,P') x C(f-P',B') x C(f-P'-B',D)`` equally likely deals with ``f = n - P - B``
(Casino Hold'em: C(52,2) x C(50,3) x C(47,2) x C(45,2) = 27,813,810,024,000).

Permuting the suits changes no outcome, so the seen pairs are taken one per suit class with the class size
(:func:`pair_classes`: the player's sets one per class, then the board sets one per class of the permutations that
fix the player's set; 1,286,792 classes on 52 cards for two cards and a flop). For each class every completion is
dealt: the player's hand is his cards and the whole board, the dealer's his cards and the whole board, each the
best five (one read of a table of every hand of that size: :func:`best_table`); the completion is counted by the
player's final class and one of six outcomes (the dealer qualifies or not; the player beats, ties or loses to
him). Those ``classes x 6`` integers a state are all the decision and the pays need
(:mod:`oddscalc.games.stud.board_settle`; several decisions: :mod:`oddscalc.games.stud.board_levels`).

The classes are independent: the count runs in chunks of classes whose integer results are concatenated, here or
on a dask cluster (:func:`count_board`'s ``mapper``, :mod:`oddscalc.cluster`), identical whatever the chunking.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from oddscalc.cards import Deck, rank_of, suit_of
from oddscalc.hands import HAND_CLASSES, HandClass, colex_combos, hand_table
from oddscalc.symmetry import set_tuple_class_count, suit_classes

# the columns of a count: whether the dealer qualifies, and whether the player's hand beats, ties or loses to his
# (both matter: Ultimate Texas Hold'em settles the play and the blind against a dealer who does not qualify)
NQ_WIN, NQ_TIE, NQ_LOSE, WIN, TIE, LOSE = range(6)
OUTCOMES = 6
Mapper = Callable[[Callable[[Any], Any], Sequence[Any]], list[Any]]  # map in chunk order (cluster.mapper)
DEALS = 2_000_000  # completions a chunk deals at once (its arrays: a few tens of MB)
TABLED = 20_000_000  # hands of one size a best-five table holds at most; past it each hand's best is read apart
BINOM = np.array([[math.comb(x, k) for k in range(8)] for x in range(53)], dtype=np.int64)  # colex of up to 7 cards


@dataclass(frozen=True)
class Shape:
    """The cards of a game with community cards: seen at the decision (the player's, the board's), dealt after it
    (the player's, the board's), and the dealer's."""

    seen_player: int
    seen_board: int
    later_player: int
    later_board: int
    dealer: int

    @property
    def player_hand(self) -> int:
        """Cards the player's final hand is the best five of."""
        return self.seen_player + self.later_player + self.seen_board + self.later_board

    @property
    def dealer_hand(self) -> int:
        """Cards the dealer's final hand is the best five of."""
        return self.dealer + self.seen_board + self.later_board

    def completions(self, n: int) -> int:
        """The unseen sets' deals from one seen pair: C(f,P') x C(f-P',B') x C(f-P'-B',D)."""
        f = n - self.seen_player - self.seen_board
        return math.comb(f, self.later_player) * math.comb(f - self.later_player, self.later_board) * \
            math.comb(f - self.later_player - self.later_board, self.dealer)

    def total(self, n: int) -> int:
        """Every deal."""
        return math.comb(n, self.seen_player) * math.comb(n - self.seen_player, self.seen_board) * \
            self.completions(n)


def _relabel(cards: Sequence[int], perm: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(rank_of(c) * 4 + perm[suit_of(c)] for c in cards))


def pair_classes(deck: Deck, first: int, second: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One representative per suit class of pairs (a ``first``-card set, a ``second``-card set of the rest), and
    the class sizes (summing to C(n, first) x C(n - first, second)). The first sets are the suit classes of their
    size; for each, the second sets are grouped by the suit permutations that fix the first (its stabiliser): a
    pair's class is the first's class times the second's orbit under them."""
    perms = list(itertools.permutations(range(deck.n_suits)))
    if first:
        reps, weights = suit_classes(first, deck)
        firsts = [(tuple(sorted(r.tolist())), int(w)) for r, w in zip(reps, weights)]
    else:
        firsts = [((), 1)]
    holes: list[tuple[int, ...]] = []
    boards: list[tuple[int, ...]] = []
    sizes: list[int] = []
    for mine, w in firsts:
        fixing = [p for p in perms if _relabel(mine, p) == mine]
        rest = [c for c in deck.cards if c not in mine]
        orbits: Counter[tuple[int, ...]] = Counter(
            min(_relabel(b, p) for p in fixing) for b in itertools.combinations(rest, second))
        for b, k in orbits.items():
            holes.append(mine)
            boards.append(b)
            sizes.append(w * k)
    return (np.array(holes, dtype=np.int8).reshape(len(holes), first),
            np.array(boards, dtype=np.int8).reshape(len(boards), second), np.array(sizes, dtype=np.int64))


def pair_class_count(deck: Deck, first: int, second: int) -> int:
    """How many suit classes of such pairs there are, without listing them (Burnside, in :mod:`oddscalc.symmetry`)."""
    return set_tuple_class_count(deck, (first, second))


@dataclass(frozen=True)
class Best:
    """The best five of every ``k``-card hand of a deck: the hands as bit masks of their deck positions (ascending)
    with the strength of each (higher better), the class of each strength, and the qualifier as a strength."""

    k: int
    masks: np.ndarray | None  # (C(n, k),) int64 ascending; None: too many hands to table, each read apart
    strength: np.ndarray | None  # (C(n, k),) int16, the strength of the hand ``masks`` holds at the same place
    level_class: np.ndarray  # (levels,) int8 index into HAND_CLASSES
    qualifies_from: int


@functools.cache
def best_table(deck: Deck, k: int, qualifier: tuple[str, tuple[int, ...]], limit: int = TABLED) -> Best:
    """The best-five table of ``k``-card hands (cached per deck); past ``limit`` hands, none (read apart)."""
    ht = hand_table(deck)
    levels = np.zeros(ht.n_levels, dtype=np.int8)
    levels[ht.strength] = ht.hand_class
    q = ht.strength_at_least(HandClass(qualifier[0]), qualifier[1])
    if math.comb(deck.size, k) > limit:
        return Best(k, None, None, levels, q)
    pos = colex_combos(deck.size, k).astype(np.int64)
    masks = np.left_shift(np.int64(1), pos).sum(axis=1)
    order = np.argsort(masks)
    return Best(k, masks[order], _best_of(deck, pos)[order], levels, q)


def _best_of(deck: Deck, pos: np.ndarray) -> np.ndarray:
    """The best five's strength of each row of sorted deck positions ``(..., k)``."""
    strength = hand_table(deck).strength
    out = np.full(pos.shape[:-1], -1, dtype=np.int16)
    for sub in itertools.combinations(range(pos.shape[-1]), 5):  # a subset of sorted positions stays sorted
        np.maximum(out, strength[BINOM[pos[..., list(sub)], np.arange(1, 6)].sum(axis=-1)], out=out)
    return out


def hand_strengths(deck: Deck, best: Best, pos: np.ndarray) -> np.ndarray:
    """The best five's strength of each hand (rows of deck positions, any order)."""
    if best.masks is None or best.strength is None:
        return _best_of(deck, np.sort(pos, axis=-1))
    found: np.ndarray = best.strength[np.searchsorted(best.masks, np.left_shift(np.int64(1), pos).sum(axis=-1))]
    return found


@dataclass(frozen=True)
class Chunk:
    """One chunk of the count: the seen pairs' deck positions and the rules (it pickles small to a cluster)."""

    deck: Deck
    shape: Shape
    qualifier: tuple[str, tuple[int, ...]]
    seen: np.ndarray  # (rows, P + B) deck positions: the player's seen cards, then the board's
    free: np.ndarray  # (rows, f) deck positions of the cards not seen, ascending


@functools.cache
def _patterns(f: int, later_player: int, later_board: int, dealer: int) -> tuple[np.ndarray, np.ndarray]:
    """Every completion as indices into the ``f`` unseen cards: the (player's later set, board's later set) pairs
    ``(n1, P' + B')``, and for each the dealer's sets from the cards they leave ``(n1, n2, D)``."""
    later, dealt = [], []
    for mine in itertools.combinations(range(f), later_player):
        left = [i for i in range(f) if i not in mine]
        for board in itertools.combinations(left, later_board):
            rest = [i for i in left if i not in board]
            later.append((*mine, *board))
            dealt.append(list(itertools.combinations(rest, dealer)))
    n1, n2 = len(later), len(dealt[0]) if dealt else 0
    return (np.array(later, dtype=np.int64).reshape(n1, later_player + later_board),
            np.array(dealt, dtype=np.int64).reshape(n1, n2, dealer))


def count_chunk(chunk: Chunk) -> np.ndarray:
    """(rows, classes, 6) int64: each seen pair's completions by the player's final class and the outcome."""
    s, deck = chunk.shape, chunk.deck
    player = best_table(deck, s.player_hand, chunk.qualifier)
    dealer = best_table(deck, s.dealer_hand, chunk.qualifier)
    later, dealt = _patterns(chunk.free.shape[1], s.later_player, s.later_board, s.dealer)
    n1, n2 = dealt.shape[0], dealt.shape[1]
    out = np.zeros((len(chunk.seen), len(HAND_CLASSES), OUTCOMES), dtype=np.int64)
    step = max(1, DEALS // max(1, n1 * n2))
    for start in range(0, len(chunk.seen), step):
        seen, free = chunk.seen[start:start + step], chunk.free[start:start + step]
        rows = len(seen)
        more = free[:, later]  # (rows, n1, P' + B'): the cards dealt after the decision but the dealer's
        board = np.concatenate([np.broadcast_to(seen[:, None, s.seen_player:], (rows, n1, s.seen_board)),
                                more[..., s.later_player:]], axis=-1)  # the whole board
        mine = np.concatenate([np.broadcast_to(seen[:, None, :s.seen_player], (rows, n1, s.seen_player)),
                               more[..., :s.later_player], board], axis=-1)
        x = hand_strengths(deck, player, mine)[:, :, None]  # the player's hand does not depend on the dealer's cards
        his = np.concatenate([free[:, dealt], np.broadcast_to(board[:, :, None, :], (rows, n1, n2, board.shape[-1]))],
                             axis=-1)
        y = hand_strengths(deck, dealer, his)
        outcome = (y >= dealer.qualifies_from) * 3 + (y >= x) + (y > x)  # NQ_WIN ... LOSE
        cls = np.broadcast_to(player.level_class[x].astype(np.int64), outcome.shape)
        cell = (np.arange(rows)[:, None, None] * len(HAND_CLASSES) + cls) * OUTCOMES + outcome
        out[start:start + rows] = np.bincount(cell.ravel(), minlength=rows * len(HAND_CLASSES) * OUTCOMES).reshape(
            rows, len(HAND_CLASSES), OUTCOMES)
    return out


def chunks_of(deck: Deck, shape: Shape, qualifier: tuple[str, tuple[int, ...]], hole: np.ndarray,
              board: np.ndarray, size: int) -> list[Chunk]:
    """The count's chunks: ``size`` seen pairs each, in order."""
    position = np.full(52, -1, dtype=np.int64)
    position[list(deck.cards)] = np.arange(deck.size)
    seen = position[np.concatenate([hole, board], axis=1).astype(np.int64)]
    held = np.zeros((len(seen), deck.size), dtype=bool)
    np.put_along_axis(held, seen, True, axis=1)
    free = np.nonzero(~held)[1].reshape(len(seen), deck.size - seen.shape[1]).astype(np.int64)
    return [Chunk(deck, shape, qualifier, seen[i:i + size], free[i:i + size]) for i in range(0, len(seen), size)]


def count_board(deck: Deck, shape: Shape, qualifier: tuple[str, tuple[int, ...]], mapper: Mapper | None = None,
                size: int = 4096) -> dict[str, np.ndarray]:
    """The counts of the seen pairs' classes (``hole``, ``board``, ``weights``, ``outcomes``), chunk by chunk: here,
    or by ``mapper`` (a cluster's map, results in chunk order); the same integers whatever ``size`` and wherever
    they run."""
    hole, board, weights = pair_classes(deck, shape.seen_player, shape.seen_board)
    parts = (mapper or _here)(count_chunk, chunks_of(deck, shape, qualifier, hole, board, size))
    outcomes = np.concatenate(parts) if parts else np.zeros((0, len(HAND_CLASSES), OUTCOMES), dtype=np.int64)
    return {"hole": hole, "board": board, "weights": weights, "outcomes": outcomes}


def _here(fn: Callable[[Chunk], np.ndarray], chunks: Sequence[Chunk]) -> list[np.ndarray]:
    return [fn(c) for c in chunks]
