"""A play of house baccarat as data: draw or stand for every two-card composition."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from oddscalc.games.house_baccarat.others import NATURAL
from oddscalc.games.shoe import VALUES

# [first, second]: the two-card total of the two cards' point values
TOTAL = np.add.outer(np.arange(VALUES), np.arange(VALUES)) % 10


@dataclass(frozen=True)
class Strategy:
    """Draw or stand for every two-card composition (by point values; naturals never draw)."""

    name: str
    draws: tuple[tuple[bool, ...], ...]  # [first card][second card], symmetric

    @staticmethod
    def of(name: str, matrix: np.ndarray) -> Strategy:
        """From a (10, 10) draw matrix by the two cards' point values."""
        m = np.asarray(matrix, dtype=bool) & ~NATURAL
        if not np.array_equal(m, m.T):
            raise ValueError("a strategy cannot depend on the order of the two cards")
        return Strategy(name, tuple(tuple(bool(x) for x in row) for row in m))

    @staticmethod
    def by_totals(name: str, totals: Sequence[int]) -> Strategy:
        """Draw on these two-card totals, stand on the others."""
        return Strategy.of(name, np.isin(TOTAL, list(totals)))

    @property
    def matrix(self) -> np.ndarray:
        """(10, 10) bool: draws, by the two cards' point values."""
        return np.array(self.draws, dtype=bool)

    def totals(self) -> list[int] | None:
        """The totals it draws on, when it depends on the total only."""
        m = self.matrix
        out = []
        for t in range(8):
            cells = {bool(m[u, w]) for u in range(VALUES) for w in range(VALUES) if TOTAL[u, w] == t}
            if len(cells) > 1:
                return None
            if cells == {True}:
                out.append(t)
        return out


# the two-card compositions a player decides on (first <= second by point value; naturals never draw)
COMPOSITIONS = tuple((u, w) for u in range(VALUES) for w in range(u, VALUES) if not NATURAL[u, w])
