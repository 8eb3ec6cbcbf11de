"""Dealing: the top cards of freshly, uniformly shuffled decks or shoes, many rounds at once."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from oddscalc.simulate.arrays import IntArray


def full_shoe(decks: int) -> npt.NDArray[np.int8]:
    """Every card id 0..51, ``decks`` times."""
    return np.tile(np.arange(52, dtype=np.int8), decks)


def deal(rng: np.random.Generator, shoe: npt.NDArray[np.int8], rounds: int, k: int) -> IntArray:
    """(rounds, k) card ids: the top k cards of ``rounds`` independently shuffled copies of ``shoe``.

    Position i receives a uniformly chosen card among those not yet placed, exactly the first k
    steps of a Fisher-Yates shuffle, so each row is the top of a uniformly shuffled shoe.
    """
    size = len(shoe)
    if not 0 < k <= size:
        raise ValueError(f"cannot deal {k} cards from {size}")
    cards = np.tile(shoe, (rounds, 1))
    rows = np.arange(rounds)
    for i in range(k):
        j = rng.integers(i, size, size=rounds)
        picked = cards[rows, j]
        cards[rows, j] = cards[:, i]
        cards[:, i] = picked
    return cards[:, :k].astype(np.int64)


def deal_paired(rng: np.random.Generator, counts: Sequence[int], rounds: int, k: int) -> tuple[IntArray, IntArray]:
    """(rounds, k) kinds of card dealt twice from the same uniforms: from a finite shoe holding
    ``counts[v]`` cards of kind v, and from the infinite shoe (kind v with probability
    ``counts[v] / size`` at every position, with replacement).

    Position i of both takes the kind whose slice of [0, 1) holds the round's i-th uniform, the
    slices cut in proportion to the cards left (finite) or to ``counts`` (infinite). Early in the
    round the two shoes barely differ, so the two deals mostly agree: common random numbers, which
    make the difference of anything computed from them far less variable than either.
    """
    size = sum(counts)
    if not 0 < k <= size:
        raise ValueError(f"cannot deal {k} cards from {size}")
    u = rng.random((rounds, k))
    rows = np.arange(rounds)
    left = np.tile(np.asarray(counts, dtype=np.int64), (rounds, 1))
    finite = np.empty((rounds, k), dtype=np.int64)
    for i in range(k):
        pick = np.floor(u[:, i] * (size - i)).astype(np.int64)  # the pick-th card left, in kind order
        kind = (np.cumsum(left, axis=1) <= pick[:, None]).sum(axis=1)
        finite[:, i] = kind
        left[rows, kind] -= 1
    infinite = np.searchsorted(np.cumsum(counts), np.floor(u * size), side="right")
    return finite, np.asarray(infinite, dtype=np.int64)
