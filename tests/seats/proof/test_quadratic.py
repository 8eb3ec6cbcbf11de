"""The most a quadratic in 0/1 variables takes, with each variable held either way: exact when every point
is visited (or the floor asked for, where they do not beat it), and an upper bound of the exact maxima
when some variables are bounded instead."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from oddscalc.seats.proof import quadratic


def _every_point(linear: np.ndarray, pair: np.ndarray) -> np.ndarray:
    n = len(linear)
    out = np.full((n, 2), np.iinfo(np.int64).min, dtype=np.int64)
    for point in product((0, 1), repeat=n):
        z = np.array(point, dtype=np.int64)
        q = int(linear @ z + (z @ pair @ z) // 2)
        for i in range(n):
            out[i, z[i]] = max(out[i, z[i]], q)
    return out


def _random(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    linear = rng.integers(-50, 50, n)
    pair = np.triu(rng.integers(-30, 30, (n, n)), 1)
    return linear, pair + pair.T


def test_every_point_visited_gives_the_maxima() -> None:
    rng = np.random.default_rng(3)
    for n in (1, 2, 5, 8):
        linear, pair = _random(rng, n)
        exact = _every_point(linear, pair)
        assert (quadratic.most(linear, pair) == exact).all()
        floor = int(np.median(exact))  # what does not beat it is given as it
        assert (quadratic.most(linear, pair, floor) == np.maximum(exact, floor)).all()


def test_variables_past_the_visited_ones_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(4)
    loose = 0
    for visited in (0, 2, 5):
        monkeypatch.setattr(quadratic, "VISITED", visited)
        for _ in range(4):
            linear, pair = _random(rng, 8)
            got, exact = quadratic.most(linear, pair), _every_point(linear, pair)
            assert (got >= exact).all()
            loose += int((got > exact).any())
    assert loose  # the bound is not the maximum everywhere: the test sees the relaxation at work


def test_a_pair_matrix_that_is_not_symmetric_is_refused() -> None:
    with pytest.raises(ValueError, match="symmetric"):
        quadratic.most(np.zeros(2, dtype=np.int64), np.array([[0, 1], [2, 0]]))
