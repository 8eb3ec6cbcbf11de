"""The anchors' sums swept over the six-slot multisets a shoe can deal, against the same sums over all 5005: on
random small shoes every bound on a multiset dealt is the same float, every bound on the others still holds,
what pairs of compositions take is the same float, and the search ends on the same best strategy after the same
nodes and evaluations."""

from __future__ import annotations

import functools
import random
from fractions import Fraction

import numpy as np
import pytest
from oracles.proof_fixtures import PAY
from oracles.seat_fixtures import seat_counter

from oddscalc.games.house_baccarat.strategy import COMPOSITIONS
from oddscalc.games.shoe import Multisets, Shoe
from oddscalc.seats.proof import branch
from oddscalc.seats.proof.anchors import pair_taken, rows_and_taken
from oddscalc.seats.proof.search import best_common
from oddscalc.seats.search import strategy_of

EVERY = np.arange(len(Multisets.of_size(6)))  # the sums over every multiset, as before they were swept


def _shoe(rng: random.Random, cards: int) -> Shoe:
    """At least ``cards`` cards of three or four ranks, tens among them at times."""
    ranks = rng.sample(["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "K"], rng.choice((3, 4)))
    counts = {r: 2 for r in ranks}
    while sum(counts.values()) < cards:
        counts[rng.choice(ranks)] += 1
    return Shoe.from_ranks(counts)


@pytest.mark.parametrize("seed", range(4))
def test_the_sums_over_the_multisets_dealt_are_the_sums_over_all_of_them(seed: int) -> None:
    """Two or three other seats on a random small shoe, drawing on random compositions: the bounds read off
    the swept sums equal those of the full sweep on every multiset the shoe deals, bit for bit; on the others
    (no deal gives them) they still bound the exact d_i(S) = A(S + i) - A(S); ``pair_taken`` with weights on
    the multisets dealt is the same float either way."""
    rng = random.Random(seed)
    seats = 2 + (seed == 3)  # three other seats count levels by rank: seconds
    shoe = _shoe(rng, 3 * seats + 6 + rng.randrange(4))
    counts = shoe.counts
    six = Multisets.of_size(6).counts
    dealt = np.all(six <= np.array(counts), axis=1)
    assert 0 < dealt.sum() < 200  # a few dozen of the 5005
    given = [i for i, (u, w) in enumerate(COMPOSITIONS) if counts[u] > (u == w) and counts[w]]  # dealt
    drawn = frozenset(rng.sample(range(len(COMPOSITIONS)), 10)) | frozenset(rng.sample(given, 2))
    asked = frozenset(rng.sample(sorted(drawn), 3)) | frozenset(given)
    rows, swept = rows_and_taken(counts, seats, drawn, asked)
    again, every = rows_and_taken(counts, seats, drawn, asked, sweep=EVERY)
    assert np.array_equal(rows, again) and swept.compositions == every.compositions == asked
    a = np.cumsum(np.asarray(rows[:, 1:], dtype=object), axis=1)
    for i in swept.outside:
        assert np.array_equal(swept.outside[i][:, dealt], every.outside[i][:, dealt])
    for i in sorted(swept.outside)[:2]:  # an evaluation each
        d = np.cumsum(np.asarray(rows_and_taken(counts, seats, drawn | {i}, frozenset())[0][:, 1:], dtype=object),
                      axis=1) - a  # d_i(S) exactly, on every multiset
        assert (swept.most(i)[:, 1:11] <= d[:, :10]).all() and (d[:, :10] <= swept.least(i)[:, 1:11]).all()
    for i in swept.inside:
        assert np.array_equal(swept.inside[i][dealt], every.inside[i][dealt])
        assert (swept.beyond(i) <= 0).all()
    assert swept.pairs is not None and every.pairs is not None
    free = sorted(asked - drawn)
    pairs = [(i, j) for i in free for j in free if i < j]
    weight = np.where(dealt[:, None], np.array([[rng.random() for _ in range(12)] for _ in six]), 0.0)
    weight[rng.sample(sorted(np.flatnonzero(dealt)), 3)] = 0.0  # some multisets dealt without weight too
    took = pair_taken(swept.pairs, pairs, weight)
    assert np.array_equal(took, pair_taken(every.pairs, pairs, weight, sweep=EVERY)) and (took > 1).any()


def test_the_search_sweeping_the_multisets_dealt_ends_as_the_one_sweeping_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three seats on a random small shoe, searched to the end with the pair bound: the same best strategy, EV,
    nodes and evaluations whether the anchors' sums sweep the multisets dealt or all of them."""
    shoe = _shoe(random.Random(11), 16)
    counter = seat_counter(1, 3, shoe)
    never = strategy_of(frozenset(), "never")
    best, ev, search = best_common(counter, 3, PAY, never)
    monkeypatch.setattr(branch, "rows_and_taken", functools.partial(rows_and_taken, sweep=EVERY))
    monkeypatch.setattr(branch, "pair_taken", functools.partial(pair_taken, sweep=EVERY))
    best_all, ev_all, search_all = best_common(seat_counter(1, 3, shoe), 3, Fraction(PAY), never)
    assert (best.draws, ev, search.best, search.nodes, search.evaluations) == (
        best_all.draws, ev_all, search_all.best, search_all.nodes, search_all.evaluations)
    assert search.evaluations > 2
