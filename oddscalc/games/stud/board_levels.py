"""The stud engine's count with community cards beside a dealer, at every decision (Ultimate Texas Hold'em: before
the flop, on the flop, on the river): the classes of what the player has seen at each, and how each grows into the
next (pay-free).

Counting argument. At decision ``t`` the player has seen a pair of sets ``(P_t, B_t)`` (his cards, the board so far);
a state is a suit class of that pair (:func:`oddscalc.games.stud.board.pair_classes`). The last decision's states are
counted over their completions by final class and outcome (:func:`oddscalc.games.stud.board.count_board`). An
earlier state grows into the next decision's by the cards dealt between them (``C(f_t, dP) x C(f_t - dP, dB)``
extensions, each a set); its counts are the sum of its extensions' counts (the completions of a state are its
extensions' completions), so the counts and the values of every level come from the last one and the map of each
state's extensions to the next level's classes. That map needs the class of a pair: its canonical key
(:func:`canonical_keys`), the least over the suit permutations of (the player's set, the board's set) as bit masks of
deck positions, in one 64-bit word (decks of at most 31 cards; past that the count is refused anyway by its size).
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from oddscalc.cards import Deck
from oddscalc.games.stud.board import Mapper, Shape, count_board, pair_classes

MAX_CARDS = 31  # a pair of sets' two masks fit one signed 64-bit word


def canonical_keys(deck: Deck, player: np.ndarray, board: np.ndarray) -> np.ndarray:
    """(N,) int64: the class key of each pair (rows of deck positions ``player`` (N, p) and ``board`` (N, b)): the
    least, over the suit permutations, of ``mask(player) << n | mask(board)``."""
    n = deck.size
    if n > MAX_CARDS:
        raise ValueError(f"class keys of pairs of sets are for decks of at most {MAX_CARDS} cards")
    cards = np.array(deck.cards, dtype=np.int64)
    position = np.full(52, -1, dtype=np.int64)
    position[cards] = np.arange(n)
    best = np.full(len(player), np.iinfo(np.int64).max, dtype=np.int64)
    for perm in itertools.permutations(range(deck.n_suits)):
        moved = position[cards // 4 * 4 + np.array(perm, dtype=np.int64)[cards % 4]]  # each position's image
        key = (np.left_shift(np.int64(1), moved[player]).sum(axis=1) << n) | \
            np.left_shift(np.int64(1), moved[board]).sum(axis=1)
        np.minimum(best, key, out=best)
    return best


@dataclass(frozen=True)
class Level:
    """The states of one decision: the classes' cards, sizes and (but at the last) each one's extensions as
    indices into the next decision's classes."""

    hole: np.ndarray  # (m, P_t) int8 card ids
    board: np.ndarray  # (m, B_t) int8 card ids
    weights: np.ndarray  # (m,) int64 class sizes
    next: np.ndarray | None  # (m, extensions) int64 into the next level; None at the last decision


@dataclass(frozen=True)
class BoardCounts:
    """Every decision's states and the last one's completions by final class and outcome."""

    deck: Deck
    shape: Shape  # at the last decision
    levels: tuple[Level, ...]
    outcomes: np.ndarray  # (m_T, classes, 6) int64 (``board.NQ_WIN`` ... ``board.LOSE``)
    _counts: dict[int, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    def counts(self, t: int) -> np.ndarray:
        """(m_t, classes, 6): the completions of each state of decision ``t`` by final class and outcome."""
        if t == len(self.levels) - 1:
            return self.outcomes
        if t not in self._counts:
            nxt = self.levels[t].next
            assert nxt is not None
            self._counts[t] = self.counts(t + 1)[nxt].sum(axis=1)
        return self._counts[t]

    def completions(self, t: int) -> int:
        """The deals that complete one state of decision ``t``."""
        out = self.shape.completions(self.deck.size)
        for level in self.levels[t:-1]:
            assert level.next is not None
            out *= level.next.shape[1]
        return out

    @property
    def total(self) -> int:
        """Every deal."""
        first = self.levels[0]
        n, p, b = self.deck.size, first.hole.shape[1], first.board.shape[1]
        return math.comb(n, p) * math.comb(n - p, b) * self.completions(0)


@functools.cache
def _extensions(f: int, more_player: int, more_board: int) -> np.ndarray:
    """Every (player's set, board's set) dealt between two decisions, as indices into the ``f`` cards not seen."""
    rows = []
    for mine in itertools.combinations(range(f), more_player):
        left = [i for i in range(f) if i not in mine]
        rows += [(*mine, *board) for board in itertools.combinations(left, more_board)]
    return np.array(rows, dtype=np.int64).reshape(len(rows), more_player + more_board)


def _positions(deck: Deck, cards: np.ndarray) -> np.ndarray:
    position = np.full(52, -1, dtype=np.int64)
    position[list(deck.cards)] = np.arange(deck.size)
    return position[np.asarray(cards, dtype=np.int64)]


def count_levels(deck: Deck, points: list[tuple[int, int]], shape: Shape, qualifier: tuple[str, tuple[int, ...]],
                 mapper: Mapper | None = None, size: int = 4096) -> dict[str, np.ndarray]:
    """The arrays the store keeps: ``outcomes`` (the last decision's count, chunked as :func:`count_board`) and, per
    decision ``t``, ``hole<t>``, ``board<t>``, ``weights<t>`` and (but the last) ``next<t>``. ``points``: the
    player's and the board's cards seen at each decision."""
    last = count_board(deck, shape, qualifier, mapper, size)
    out = {"outcomes": last["outcomes"]}
    t_last = len(points) - 1
    out |= {f"hole{t_last}": last["hole"], f"board{t_last}": last["board"], f"weights{t_last}": last["weights"]}
    for t in range(t_last - 1, -1, -1):
        p, b = points[t]
        hole, board, weights = pair_classes(deck, p, b)
        out |= {f"hole{t}": hole, f"board{t}": board, f"weights{t}": weights}
        nxt_p, nxt_b = points[t + 1]
        later_hole, later_board = _positions(deck, out[f"hole{t + 1}"]), _positions(deck, out[f"board{t + 1}"])
        keys = canonical_keys(deck, later_hole, later_board)
        order = np.argsort(keys)
        seen = np.concatenate([_positions(deck, hole), _positions(deck, board)], axis=1)
        held = np.zeros((len(seen), deck.size), dtype=bool)
        np.put_along_axis(held, seen, True, axis=1)
        free = np.nonzero(~held)[1].reshape(len(seen), deck.size - p - b)
        ext = free[:, _extensions(deck.size - p - b, nxt_p - p, nxt_b - b)]  # (m, e, dP + dB)
        m, e = ext.shape[0], ext.shape[1]
        grown_hole = np.concatenate([np.broadcast_to(seen[:, None, :p], (m, e, p)), ext[..., :nxt_p - p]], axis=-1)
        grown_board = np.concatenate([np.broadcast_to(seen[:, None, p:], (m, e, b)), ext[..., nxt_p - p:]], axis=-1)
        found = canonical_keys(deck, grown_hole.reshape(m * e, nxt_p), grown_board.reshape(m * e, nxt_b))
        at = np.searchsorted(keys[order], found)
        assert (keys[order][np.minimum(at, len(keys) - 1)] == found).all()  # every extension is a class of the next
        out[f"next{t}"] = order[at].reshape(m, e)
    return out


def levels_of(deck: Deck, shape: Shape, arrays: dict[str, np.ndarray], decisions: int) -> BoardCounts:
    """The counts from the store's arrays."""
    levels = tuple(Level(arrays[f"hole{t}"], arrays[f"board{t}"], arrays[f"weights{t}"],
                         arrays[f"next{t}"] if t < decisions - 1 else None) for t in range(decisions))
    return BoardCounts(deck, shape, levels, arrays["outcomes"])
