"""The levels counted on the multisets a small shoe holds alone are the levels of the full sweep, bit for bit,
and so are the lower levels kept for ``anchors`` on every multiset of their size.

``levels.all_seats`` sweeps every multiset of each size it needs (a million at a size of 15), though a shoe of a
dozen cards holds a few thousand in all; it counts on those alone, a row no shoe holds at min(removed, shoe). This
compares both ways on random small shoes and strategies, for every six-slot multiset and some of other sizes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from oddscalc.games.house_baccarat import levels
from oddscalc.games.house_baccarat.others import DRAW, NAT, NATURAL, STAND, limb_bits
from oddscalc.games.shoe import VALUES, Multisets

Both = tuple[np.ndarray, dict[int, np.ndarray]]


def _both(c: np.ndarray, seats: int, draws: np.ndarray, rows: np.ndarray) -> tuple[Both, Both]:
    natural = NATURAL.astype(np.int64)
    drawing = (draws & ~NATURAL).astype(np.int64)
    kinds = np.where(NATURAL, NAT, np.where(draws, DRAW, STAND)).astype(np.int64)
    bits = limb_bits(c.tolist(), rows)
    n = int(c.sum())

    def needed(j: int) -> int:
        return max(1, -(-math.perm(n, 3 * j).bit_length() // bits))

    def run(sweep: bool) -> Both:
        kept: dict[int, np.ndarray] = {r: np.empty(0) for r in range(1, seats)}  # as anchors asks for them
        return levels.all_seats(c, seats, rows, kinds, natural, 1 - natural - drawing, drawing, bits, needed,
                                kept, sweep=sweep), kept

    return run(True), run(False)


@pytest.mark.parametrize("seed", range(4))
def test_the_multisets_a_small_shoe_holds_give_the_full_sweeps_counts(seed: int) -> None:
    rng = np.random.default_rng(seed)
    c = np.bincount(rng.integers(0, VALUES, int(rng.integers(10, 17))), minlength=VALUES).astype(np.int64)
    assert levels.dealt(c) is not None  # the shoe is small enough to be counted on what it holds
    draws = rng.random((VALUES, VALUES)) < 0.5
    draws = draws | draws.T
    rows = np.concatenate([Multisets.of_size(6).counts, Multisets.of_size(3).counts[::7],
                           Multisets.of_size(0).counts])
    held = np.all(rows <= c, axis=1)
    assert 0 < held.sum() < len(rows) // 2  # both kinds of rows, most of them no deal
    for seats in (2, 3):
        (full, full_kept), (dealt, dealt_kept) = _both(c, seats, draws, rows)
        assert full.shape == dealt.shape and np.array_equal(full, dealt)
        assert sorted(full_kept) == sorted(dealt_kept) == list(range(1, seats))
        for r, arr in full_kept.items():  # every multiset of 6 + 3r cards, by rank: most of them no shoe holds
            assert arr.shape[0] == math.comb(6 + 3 * r + VALUES - 1, VALUES - 1)
            assert arr.dtype == dealt_kept[r].dtype and np.array_equal(arr, dealt_kept[r])
        deals = np.maximum(c - rows, 0).sum(axis=1) >= 3 * seats  # rows with cards enough for every seat
        assert deals.any() and (full[deals].sum(axis=(1, 2)) > 0).all() and (full[~deals] == 0).all()


def test_a_large_shoe_is_swept_whole() -> None:
    """Eight decks hold too many multisets to list: the full sweep, as before."""
    assert levels.dealt(np.array([32] * 9 + [128], dtype=np.int64)) is None
