"""Plain deal of every ordered sequence of a small shoe for the house game with third cards shown as dealt,
and the random later plays it is tried on. Shares no code with the engine beyond the sheet's tableau (read as
an array) and the plays' draw arrays."""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import numpy as np

from oddscalc.games.house_baccarat.table import SHEET_TABLEAU
from oddscalc.games.shoe import Shoe, tableau_array
from oddscalc.seats import turn_order as to


def random_late(seed: int) -> to.Late:
    """A play drawing at random on each (sight, composition), symmetric in the two cards."""
    m = np.random.default_rng(seed).random((12, 10, 10)) < 0.5
    return to.Late.of(f"random {seed}", m | m.transpose(0, 2, 1))


@functools.cache
def sequences(shoe: Shoe, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Every sequence of ``length`` point values the shoe can deal, and its number of card sequences."""
    values = [v for v in range(10) if shoe.counts[v]]
    seqs = np.array(list(itertools.product(values, repeat=length)), dtype=np.int64)
    weight = np.ones(len(seqs), dtype=object)
    for v in values:
        k = (seqs == v).sum(axis=1)
        weight = weight * np.array([math.perm(shoe.counts[v], j) for j in range(length + 1)], dtype=object)[k]
    keep = weight != 0
    return seqs[keep], weight[keep]


def brute_shown(shoe: Shoe, plays: list[to.Late]) -> list[Fraction]:
    """Each seat's EV at even money over every ordered deal: first cards to the seats and the house in turn,
    then second cards; then each seat in order draws face up or stands, on its two cards and the highest
    third card shown before it; then the house plays by the sheet's table on the highest third card."""
    n = len(plays)
    v, weight = sequences(shoe, 3 * n + 3)
    rows = np.arange(len(v))
    first, second = v[:, :n], v[:, n + 1:2 * n + 1]
    totals = (first + second) % 10
    house = (v[:, n] + v[:, 2 * n + 1]) % 10
    natural = (totals >= 8).any(axis=1)
    pos = np.full(len(v), 2 * n + 2)
    highest = np.full(len(v), -1)
    final = totals.copy()
    for k, play in enumerate(plays):
        sight = np.where(highest >= 0, 2 + highest, 1)
        draws = play.draws[sight, first[:, k], second[:, k]] & ~natural
        third = v[rows, np.minimum(pos, 3 * n + 2)]
        final[:, k] = np.where(draws, (totals[:, k] + third) % 10, totals[:, k])
        highest = np.where(draws, np.maximum(highest, third), highest)
        pos = pos + draws
    house_draws = (highest >= 0) & (house < 7) & tableau_array(SHEET_TABLEAU)[house, np.maximum(highest, 0)]
    house_draws &= ~natural
    house_final = np.where(house_draws, (house + v[rows, np.minimum(pos, 3 * n + 2)]) % 10, house)
    total = sum(weight)
    out = []
    for k in range(n):
        sign = np.sign(final[:, k] - house_final)
        sign = np.where(natural & (totals[:, k] < 8), 0, sign)  # another seat's natural: this one sits out
        out.append(Fraction(sum(weight * sign), total))
    return out
