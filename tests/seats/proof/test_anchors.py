"""The common search's anchors read off one evaluation's lower levels (anchors): they hold what every seat
drawing on one more composition takes from the other seats, against that taken measured by two evaluations;
they are exact (to their rounding margin) with every term of the inclusion-exclusion kept; and they are the
same whether the lower levels were counted by rank or searched."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from oracles.seat_fixtures import seat_counter

from oddscalc.games.house_baccarat import others as seats
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS
from oddscalc.games.shoe import Multisets, Shoe
from oddscalc.seats.proof.anchors import Taken, pair_taken, rows_and_taken
from oddscalc.seats.proof.branch import CommonSearch
from oddscalc.seats.search import Draws

SHOE = tuple(4 * 4 if v == 0 else 4 for v in range(10))  # one deck by point value


def _gap(x: np.ndarray, y: np.ndarray) -> int:
    """The largest entry of y - x (object arrays)."""
    return max(int(v) for v in (y - x).ravel())


def _boxes(seed: int, count: int) -> list[tuple[int, Draws, Draws]]:
    """Random compositions i and boxes L <= H with i free."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        i = rng.randrange(len(COMPOSITIONS))
        rest = [j for j in range(len(COMPOSITIONS)) if j != i]
        low = frozenset(rng.sample(rest, rng.randrange(0, 12)))
        high = low | frozenset(rng.sample([j for j in rest if j not in low], 14)) | {i}
        out.append((i, low, high))
    return out


@pytest.mark.deep  # four seats on a deck; the pairs' bounds below are the suite's
def test_the_anchors_hold_what_a_composition_takes_and_are_exact_with_every_term() -> None:
    """Three other seats on one deck: d_i(L) = A(L + i) - A(L) lies between the bounds read off L's evaluation,
    and d_i(H - i) = A(H) - A(H - i) under the one read off H's, for one to three terms; with all three (every
    way the three seats can hold i) the bounds close to their rounding margin, and with fewer they leave room.
    The bounds hold on every multiset of six slots; they close on those a deal gives (the sums skip the others,
    where the search gives them no weight), and on every one when every one is swept."""
    search = CommonSearch(seat_counter(1, 4), 4, Fraction(1))
    loose = 0
    (i, low, high), = _boxes(3, 1)
    d_low = search.counts(low | {i}) - search.counts(low)
    d_high = search.counts(high) - search.counts(high - {i})
    assert (d_low <= 0).all() and (d_high <= 0).all() and (d_low < 0).any()
    dealt = np.all(Multisets.of_size(6).counts <= np.array(SHOE), axis=1)
    assert 0 < (~dealt).sum() < 100  # one deck deals all but 90 (five aces, ...)
    for terms, rows_swept in ((1, dealt), (2, dealt), (3, dealt), (3, None)):  # U_i above, below, every term
        sweep = None if rows_swept is not None else np.arange(len(dealt))
        closes = dealt if rows_swept is not None else np.ones_like(dealt)
        rows, at_low = rows_and_taken(SHOE, 3, low, frozenset({i}), terms, sweep)
        _, at_high = rows_and_taken(SHOE, 3, high, frozenset({i}), terms, sweep)
        assert np.array_equal(np.cumsum(rows[:, 1:], axis=1), search.counts(low)[:, 1:])
        assert (at_low.most(i) <= d_low).all() and (d_low <= at_low.least(i)).all()
        assert (d_high <= at_high.beyond(i)).all() and (at_low.least(i) <= 0).all()
        room = max(_gap(at_low.most(i)[closes], d_low[closes]), _gap(d_low[closes], at_low.least(i)[closes]),
                   _gap(d_high[closes], at_high.beyond(i)[closes]))
        scale = max(-int(x) for x in d_low.ravel())
        if terms == 3:
            assert room <= scale // 10**8 + 4
        else:
            loose += room > scale // 10**6
    assert loose == 2


def _same(a: Taken, b: Taken) -> None:
    assert a.compositions == b.compositions
    for i in a.outside:
        for x, y in ((a.most(i), b.most(i)), (a.least(i), b.least(i))):
            _near(x, y)
    for i in a.inside:
        _near(a.beyond(i), b.beyond(i))


def _near(x: np.ndarray, y: np.ndarray) -> None:
    scale = max(1, max(abs(int(v)) for v in x.ravel()))
    assert max(abs(int(v)) for v in (x - y).ravel()) <= scale // 10**8 + 4


def test_the_anchors_are_the_same_from_levels_counted_by_rank_or_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the levels searched (a shoe too big for ranks) the lower levels are counted alone in rank order: the
    bounds agree with those read off the ranked levels, to the rounding margin."""
    drawn = frozenset(range(0, 44, 3))
    asked = frozenset({0, 3, 4, 7})
    rows, ranked = rows_and_taken(SHOE, 2, drawn, asked)
    monkeypatch.setattr(seats, "LEVELS_FROM", 99)
    again, searched = rows_and_taken(SHOE, 2, drawn, asked)
    assert np.array_equal(rows, again)
    _same(ranked, searched)
    assert ranked.compositions == asked and set(ranked.inside) == {0, 3} and set(ranked.outside) == {4, 7}


# at the root (every pair of the five compositions dealt: 16 evaluations), and below it too (11 more)
@pytest.mark.parametrize(("players", "ranks", "lows"), [
    pytest.param(3, {"3": 5, "9": 3, "7": 6}, 1, id="three-seats-root"),
    pytest.param(3, {"3": 5, "9": 3, "7": 6}, 2, id="three-seats"),
    pytest.param(4, {"3": 5, "9": 5, "7": 6}, 2, marks=pytest.mark.deep, id="four-seats")])
def test_what_two_compositions_take_together_is_bounded_by_the_pairs_of_seats(players: int, ranks: dict[str, int],
                                                                             lows: int) -> None:
    """e_ij(L) = A(L + i + j) - A(L + i) - A(L + j) + A(L), from four exact evaluations, is never negative, and
    any non-negative weights take no more of it than ``pair_taken`` says; with two other seats (three players)
    the bound is exact, since both seats must be the ones drawing."""
    rng = random.Random(players)
    search = CommonSearch(seat_counter(1, players, Shoe.from_ranks(ranks)), players, Fraction(19, 20))
    dealt = sorted(search.dealt)
    ratios = []
    for low in (frozenset(), frozenset(dealt[:1]))[:lows]:
        free = [x for x in dealt if x not in low]
        pairs = [(i, j) for i in free for j in free if i < j]
        weight = np.array([[rng.random() for _ in range(12)] for _ in range(len(search.counts(low)))])
        taken = search.taken(low, frozenset(free)).pairs
        assert taken is not None
        bounds = pair_taken(taken, pairs, weight)
        a = search.counts(low)
        for (i, j), bound in zip(pairs, bounds, strict=True):
            e = (search.counts(low | {i, j}) - search.counts(low | {i}) - search.counts(low | {j}) + a)[:, 1:11]
            assert (e >= 0).all()
            exact = float((weight[:, 1:11] * e.astype(np.float64)).sum())
            assert bound >= exact
            if exact:
                ratios.append(exact / bound)
    assert ratios and (min(ratios) > 0.999 if players == 3 else max(ratios) < 1)  # exact, or an upper bound
