"""Bounds of a box of common strategies as quadratics: float sums rounded outward, and the two sides blended.

The search (``branch``) bounds V on a box by a quadratic from each end, L and H. V(S) is at most both, so at
most any weighted mean of them: a mean's maximum bounds V on the box, and is lower than both sides' maxima where
each is loosest at the other's end.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

ROUNDING = 1e-9
# the quadratics from L and from H are blended weighted k : 8 - k. Seven seats on 8 decks, a box of 28 free: the
# better side bounds it 0.14 points of EV per seat above the best met, the blends 1.44 points below, so it is dropped;
# four seats' proof: 37 nodes and 97 evaluations to 29 and 79. Thirteen maxima cost a few seconds where two cost 0.3 s
BLENDS = 8
REFINED = 2  # then twice around the least, at 1/16 and 1/32: on the seven-seat box of 38 free, 1.14 to 0.75 points


def rounded_bound(terms: list[tuple[np.ndarray, np.ndarray]], up: bool) -> int:
    """The sum of the dot products of float64 ``terms``, as an integer no lower (``up``) or no higher than the
    sum of the reals the floats stand for."""
    value, size = 0.0, 0.0
    for x, y in terms:
        p = x * y
        value += float(p.sum())
        size += float(np.abs(p).sum())
    margin = ROUNDING * size + 1
    return math.ceil(value + margin) if up else math.floor(value - margin)


Sides = dict[int, tuple[int, int]]  # per free composition, a bound's maximum with it stood and with it drawn


def least(found: Sequence[Sides]) -> Sides:
    """Per free composition, the least of several bounds' maxima with it stood and with it drawn."""
    return {i: (min(s[i][0] for s in found), min(s[i][1] for s in found)) for i in found[0]}


Side = tuple[int, list[int], np.ndarray]  # a quadratic bound: its value at its end, linear terms, pair terms


Quad = tuple[int, list[int], np.ndarray, bool, int]  # a side, whether in y, the scale it is multiplied by


def in_x(side: Side) -> Side:
    """A quadratic in y = 1 - x written in x: y_i y_j = 1 - x_i - x_j + x_i x_j."""
    value, linear, w = side
    w = np.asarray(w, dtype=object)
    return (value + sum(int(a) for a in linear) + sum(int(x) for x in w.flat) // 2,
            [-int(linear[i]) - sum(int(x) for x in w[i]) for i in range(len(linear))], w)


def blend(low: Side, high: Side, k: int, n: int) -> Quad:
    """The mean of two quadratics in x weighted k : n - k, times n."""
    return (k * low[0] + (n - k) * high[0],
            [k * int(a) + (n - k) * int(b) for a, b in zip(low[1], high[1], strict=True)],
            k * np.asarray(low[2], dtype=object) + (n - k) * np.asarray(high[2], dtype=object), False, n)


def sides_and_means(sides: list[Side], blends: int) -> list[Quad]:
    """The two sides' quadratics, each in its own variables (from H, y = 1 - x), and the means of them in x weighted
    k : ``blends`` - k for k = 1..``blends`` - 1, times ``blends``.

    V(S) is at most both sides' quadratics at S, so at most any weighted mean of them: a mean's maximum bounds V
    on the box, and is lower than both sides' maxima where each is loosest at the other's end."""
    low, high = sides
    high_in_x = in_x(high)
    return [(*low, False, 1), (*high, True, 1), *(blend(low, high_in_x, k, blends) for k in range(1, blends))]
