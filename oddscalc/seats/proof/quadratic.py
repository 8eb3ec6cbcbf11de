"""The most a quadratic in 0/1 variables takes, overall and with each variable held at 0 or at 1.

Q(z) = sum_i a_i z_i + sum_{i<j} w_ij z_i z_j over z in {0, 1}^n. Up to ``VISITED`` variables every point
is visited once, in Gray-code order: each step flips one variable, which changes Q by that variable's
field (its linear term plus its pairs with the variables set), and the flip moves every other field by
one pair term; 2^n n additions in int64, exactly. Past that the variables with the least pair terms are
not visited but bounded: since z_i z_j <= (z_i + z_j) / 2, a pair of them adds at most
max(w_ij, 0) / 2 to each one's field, after which each takes its best value alone, given the visited
ones. So the result is the maximum, or from ``VISITED`` variables on, an upper bound of it.
``common_search`` bounds a box of strategies by such a quadratic (a composition per variable) and drops
either side of a variable that cannot beat the best strategy met.
"""

from __future__ import annotations

import numba
import numpy as np

VISITED = 22  # 2^22 points x the variables: a tenth of a second for 22, a second for 44


@numba.njit(cache=True, inline="always")
def _visit(z: np.ndarray, field: np.ndarray, pair: np.ndarray, t: int) -> int:
    """Step ``t`` of the Gray code: flip its variable, move the fields by ``twice`` the pair terms; the change
    of 2Q."""
    k = 0
    while not (t >> k) & 1:
        k += 1
    sign = 1 - 2 * z[k]
    change = sign * field[k]
    z[k] = 1 - z[k]
    row = pair[k]  # twice the pair terms, by symmetry a row; its own entry is 0
    for j in range(len(z)):
        field[j] += sign * row[j]
    return int(change)


@numba.njit(cache=True)
def _most(linear: np.ndarray, pair: np.ndarray, visited: int, floor: int) -> np.ndarray:
    """Twice the maxima (twice, so that the halves of the bounded pairs stay integers), or ``floor`` where they
    are no more: the points no higher are passed over."""
    n = len(linear)
    z = np.zeros(n, dtype=np.int64)
    field = 2 * linear  # visited: the change of 2Q when the variable flips; bounded: its own part of 2Q
    for i in range(visited, n):
        for j in range(visited, n):
            if j != i:
                field[i] += max(pair[i, j], 0)
    twice = 2 * pair
    out = np.full((n, 2), floor, dtype=np.int64)
    q = 0  # 2Q over the visited variables
    for t in range(1 << visited):
        if t > 0:
            q += _visit(z, field, twice, t)
        total = q
        for i in range(visited, n):
            total += max(field[i], 0)
        if total <= floor:
            continue
        for i in range(visited):
            out[i, z[i]] = max(out[i, z[i]], total)
        for i in range(visited, n):
            rest = total - max(field[i], 0)
            out[i, 0] = max(out[i, 0], rest)
            out[i, 1] = max(out[i, 1], rest + field[i])
    return out


def most(linear: np.ndarray, pair: np.ndarray, floor: int | None = None) -> np.ndarray:
    """(n, 2) int64: the most Q takes with variable i at 0 (column 0) and at 1 (column 1), or past
    ``VISITED`` variables no less; where that is no more than ``floor``, ``floor`` (a caller that only asks
    what beats it skips the points that do not). ``linear`` (n,) and the symmetric ``pair`` (n, n, zero
    diagonal) int64, small enough that four times the sum of their magnitudes fits in int64."""
    linear = np.ascontiguousarray(linear, dtype=np.int64)
    pair = np.ascontiguousarray(pair, dtype=np.int64)
    n = len(linear)
    if pair.shape != (n, n) or (pair != pair.T).any() or pair.diagonal().any():
        raise ValueError("the pair terms must be a symmetric matrix with a zero diagonal")
    if n == 0:
        return np.zeros((0, 2), dtype=np.int64)
    order = np.argsort(-np.abs(pair).sum(axis=1), kind="stable")  # the most coupled are visited
    lowest = -(1 << 61)  # below any 2Q of such terms
    twice = _most(linear[order], pair[np.ix_(order, order)], min(n, VISITED),
                  lowest if floor is None else max(lowest, min(2 * floor, 1 << 61)))
    out = np.empty_like(twice)
    out[order] = -(-twice // 2)
    return out if floor is None else np.maximum(out, floor)
