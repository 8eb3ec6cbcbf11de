"""Let It Ride settled: both pull-backs decided exactly from the counts, and the deals by bets in play."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.games.let_it_ride.count import CLASSES, HoldingCounts


@dataclass(frozen=True)
class Solution:
    """The solved decisions and the deals by (pay class, bets in play)."""

    ride1: np.ndarray  # (m3,) bool: bet 1 rides on this three-card class
    ride2: np.ndarray  # (m4,) bool, per four-card class
    s3: np.ndarray  # (m3,) S3 in units of 1/denominator (int64, or Python ints for huge pays)
    s4: np.ndarray  # (m4,)
    denominator: int
    tally: dict[tuple[int, int], int]  # (pay class, bets) -> deals


def solve(counts: HoldingCounts, pays: Sequence[Fraction], ride_on_zero: bool = False,
          rides: tuple[np.ndarray, np.ndarray] | None = None) -> Solution:
    """Decide both pull-backs exactly (or take ``rides``, a strategy card's decisions per three- and
    four-card class) and count every deal by final hand and bets in play."""
    den = math.lcm(*(p.denominator for p in pays))
    values = [int(p * den) for p in pays] + [-den]
    # int64 dot products are exact while the largest possible |S3| fits; past that, Python ints
    exact_int64 = max(abs(x) for x in values) * math.comb(counts.deck.size - 3, 2) < 2**62
    v = np.array(values, dtype=np.int64 if exact_int64 else object)
    c3 = counts.c3.astype(np.int64 if exact_int64 else object)
    c4 = counts.c4.astype(np.int64 if exact_int64 else object)
    s3, s4 = c3 @ v, c4 @ v
    if rides is not None:
        ride1, ride2 = rides
    else:
        ride1 = s3 >= 0 if ride_on_zero else s3 > 0
        ride2 = s4 >= 0 if ride_on_zero else s4 > 0
    bets = 1 + ride1[counts.sub3].astype(np.int64) + ride2[:, None].astype(np.int64)  # (m4, 4)
    ways = np.stack([(bets == b).sum(axis=1) for b in (1, 2, 3)], axis=1) * counts.weights4[:, None]
    by = counts.c4.astype(np.int64).T @ ways  # (10, 3)
    tally = {(k, b): int(by[k, b - 1]) for k in range(CLASSES) for b in (1, 2, 3)}
    return Solution(np.asarray(ride1, dtype=bool), np.asarray(ride2, dtype=bool), s3, s4, den, tally)


OPTIMAL = "optimal"
OPTIMAL_TITLE = "optimal: each bet rides iff its EV > 0"
