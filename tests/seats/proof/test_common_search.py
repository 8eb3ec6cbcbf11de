"""The branch and bound for the best common strategy of the house game's seats: its lemma, its increment
bounds against every strategy of a box, and its optimum against every strategy of small shoes (two seats
against the two-seat model, and the report row that runs both: test_seat_search)."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations, product

import numpy as np
import pytest
from click.testing import CliRunner
from oracles.proof_fixtures import PAY, SMALL, TWO, every_value, one_run, small_tree
from oracles.seat_fixtures import seat_counter

from oddscalc.cli.main import main
from oddscalc.games.house_baccarat.settle import seat_ev
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS
from oddscalc.games.shoe import Shoe
from oddscalc.seats.proof.blends import blend, in_x, sides_and_means
from oddscalc.seats.proof.branch import CommonSearch
from oddscalc.seats.proof.search import Apart, Found, Job, best_common
from oddscalc.seats.search import Draws, strategy_of

ONE = Fraction(1)
FOUR = (("3", 5), ("9", 5), ("7", 6))  # four seats need 15 cards; five compositions can be dealt


def test_what_a_composition_takes_from_the_others_shrinks_as_they_draw_more() -> None:
    """The lemma: d_i(L) <= d_i(S) <= d_i(H - i) <= 0 for L <= S <= H - i, on one deck with two other seats,
    and the search's value of a strategy is the seat counts' value."""
    counter = seat_counter(1, 3)
    search = CommonSearch(counter, 3, ONE)
    rng = random.Random(7)
    n = len(COMPOSITIONS)
    moved = 0
    for _ in range(3):
        i = rng.randrange(n)
        rest = [j for j in range(n) if j != i]
        low = frozenset(rng.sample(rest, 6))
        mid = low | frozenset(rng.sample(rest, 8))
        high = mid | frozenset(rng.sample(rest, 10))
        d = [search.counts(s | {i}) - search.counts(s) for s in (low, mid, high)]
        assert (d[0] <= d[1]).all() and (d[1] <= d[2]).all() and (d[2] <= 0).all()
        moved += int((d[0] < d[1]).any()) + int((d[1] < d[2]).any())
    assert moved >= 4  # the bounds are not all equalities
    s = strategy_of(low, "low")
    sc = counter.seat(3, s)
    assert Fraction(search.value(low), sc.total) == seat_ev(sc, s, ONE)


def test_three_seats_bounds_and_optimum_against_every_strategy_of_a_small_shoe() -> None:
    """Three seats on a small shoe, a pay of 19:20: for boxes at the root and below, every composition's
    increment V(S + i) - V(S), from every strategy S of the box without i, lies in the bounds (from exact
    anchors, inherited ones, and anchors read off the ends' levels with both terms of the inclusion-exclusion
    or one); the quadratic's maxima over each box, and with each composition stood or drawn, are at least the
    true ones; and the search from "never draw" ends on the best of every strategy, by either anchors, with the
    quadratic bound or without."""
    counter = seat_counter(1, 3, Shoe.from_ranks(dict(SMALL)))
    search = CommonSearch(counter, 3, PAY, by_levels=False)
    levels = [CommonSearch(counter, 3, PAY, terms=terms) for terms in (2, 1)]
    value = every_value(3, SMALL, PAY)
    dealt = sorted(search.dealt)
    loose = 0
    _, _, _, root = search.increments(frozenset(), frozenset(dealt))
    for low, high in [(frozenset(), frozenset(dealt)), (frozenset(dealt[2:3]), frozenset(dealt[:4]))]:
        own = search.increments(low, high)
        inherited = search.increments(low, high, {i: root[i] for i in high - low})  # the root's anchors
        box = [low | set(x) for k in range(len(high - low) + 1) for x in combinations(sorted(high - low), k)]
        for by, (v_low, v_high, bounds, ranges) in zip([search, search, *levels],
                                                       (own, inherited, *(s.increments(low, high) for s in levels)),
                                                       strict=True):
            assert (v_low, v_high) == (value[low], value[high])
            for i, (lo, hi) in bounds.items():
                free = sorted(high - low - {i})
                seen = [value[low | set(x) | {i}] - value[low | set(x)]
                        for k in range(len(free) + 1) for x in combinations(free, k)]
                assert lo <= min(seen) and max(seen) <= hi
                loose += lo < min(seen) or max(seen) < hi
            top, side = by.quadratic(low, high, ranges, v_low, v_high)
            assert top >= max(value[s] for s in box) and set(side) == high - low
            for i, (stood, drawn) in side.items():
                assert stood >= max(value[s] for s in box if i not in s)
                assert drawn >= max(value[s] for s in box if i in s)
    assert loose  # the test sees bounds hold with room, not only equalities
    best, ev, searched = best_common(counter, 3, PAY, strategy_of(frozenset(), "never"))
    sc = counter.seat(3, best)
    assert ev == max(value.values()) / Fraction(sc.total * PAY.denominator) and ev == seat_ev(sc, best, PAY)
    by_exact, again, _ = best_common(counter, 3, PAY, strategy_of(frozenset(), "never"), by_levels=False)
    assert again == ev and by_exact.draws == best.draws
    assert len(set(value.values())) > 4 and max(value.values()) > value[frozenset()]  # it had to leave its start


def test_each_blend_is_the_weighted_mean_of_the_two_sides_at_every_point() -> None:
    """``sides_and_means``: the L side in x, the H side in y = 1 - x, and each mean k : n - k, times n, in x (and one of
    the finer means the search tries next); written out at every point of five variables, with integer terms of
    both signs."""
    rng = random.Random(3)
    n = 5

    def side() -> tuple[int, list[int], np.ndarray]:
        w = np.zeros((n, n), dtype=object)
        for i, j in combinations(range(n), 2):
            w[i, j] = w[j, i] = rng.randint(-10**20, 10**20)
        return rng.randint(-10**25, 10**25), [rng.randint(-10**22, 10**22) for _ in range(n)], w

    def at(value: int, linear: list[int], w: np.ndarray, z: tuple[int, ...]) -> int:
        return value + sum(a * x for a, x in zip(linear, z)) + sum(int(w[i, j]) * z[i] * z[j]
                                                                  for i, j in combinations(range(n), 2))

    low, high = side(), side()
    blends = sides_and_means([low, high], 4)
    assert [(flip, scale) for *_, flip, scale in blends] == [(False, 1), (True, 1), (False, 4), (False, 4), (False, 4)]
    for point in range(1 << n):
        x = tuple((point >> b) & 1 for b in range(n))
        y = tuple(1 - v for v in x)
        from_l, from_h = at(*low, x), at(*high, y)
        assert at(*blends[0][:3], x) == from_l and at(*blends[1][:3], y) == from_h
        for k, mean in enumerate(blends[2:], start=1):
            assert at(*mean[:3], x) == k * from_l + (4 - k) * from_h
        assert at(*blend(low, in_x(high), 5, 32)[:3], x) == 5 * from_l + 27 * from_h  # as the search refines


# the root alone (its two ends: the fast case); the root and the boxes drawing on one composition; the boxes
# standing on one (the same quadratic, other ends), each box a new end's evaluation
@pytest.mark.parametrize("boxes", ["root", "drawing-on-one", "standing-on-one"])
def test_the_blends_bound_every_strategy_of_a_box_below_the_sides_alone(boxes: str) -> None:
    """Three seats on a small shoe: over the root and the boxes one composition below it, the quadratic's
    maximum with the blends is at least every strategy's value in the box, never above the sides' alone, and
    below them in most boxes here (at the root too)."""
    counter = seat_counter(1, 3, Shoe.from_ranks(dict(SMALL)))
    value = every_value(3, SMALL, PAY)
    search = CommonSearch(counter, 3, PAY)
    assert search.blends > 1
    dealt = frozenset(search.dealt)
    every: dict[str, list[tuple[Draws, Draws]]] = {
        "root": [(frozenset(), dealt)],
        "drawing-on-one": [(frozenset(), dealt), *((frozenset({i}), dealt) for i in dealt)],
        "standing-on-one": [(frozenset(), dealt - {i}) for i in dealt]}
    tried = every[boxes]
    lower = 0
    for low, high in tried:
        box = [low | set(x) for k in range(len(high - low) + 1) for x in combinations(sorted(high - low), k)]
        v_low, v_high, _, ranges = search.increments(low, high)  # the blends do not change the box's increments
        tops = []
        for blends in (1, CommonSearch.blends):  # the sides alone, then with the blends: one search's evaluations
            search.blends = blends
            tops.append(search.quadratic(low, high, ranges, v_low, v_high)[0])
        assert max(value[s] for s in box) <= tops[1] <= tops[0]
        lower += tops[1] < tops[0]
    assert lower > len(tried) // 2


def _linear_boxes(dealt: Sequence[int]) -> list[tuple[Draws, Draws]]:
    """The boxes drawing on at most one composition and standing on at most one, two or more free (every box of
    four or five free here): their ends are few, and each end is an evaluation."""
    ends = [frozenset(), *(frozenset({i}) for i in dealt)]
    boxes = [(low, frozenset(dealt) - out) for low, out in product(ends, ends) if not low & out]
    return [(low, high) for low, high in boxes if len(high - low) >= 2]


def _linear_holds(search: CommonSearch, value: dict[Draws, int], drawing_on_none: bool = False) -> None:
    """``linear``'s maxima over each of ``_linear_boxes`` (with ``drawing_on_none``, those drawing on no composition
    only), and with each composition stood or drawn, are at least every such strategy's value in it."""
    for low, high in _linear_boxes(sorted(search.dealt)):
        if drawing_on_none and low:
            continue
        box = [low | set(x) for k in range(len(high - low) + 1) for x in combinations(sorted(high - low), k)]
        top, side = search.linear(low, high, value[low], value[high])
        assert top >= max(value[s] for s in box) and set(side) == high - low
        for i, (stood, drawn) in side.items():
            assert stood >= max(value[s] for s in box if i not in s)
            assert drawn >= max(value[s] for s in box if i in s)


def test_the_linear_bound_holds_every_strategy_of_the_boxes_of_three_seats() -> None:
    """The small case of the test below (deep): the linear bound holds every strategy of the boxes drawing on no
    composition (the root, and each with one composition stood on), three seats on a small shoe, each strategy's
    value counted plainly."""
    search = CommonSearch(seat_counter(1, 3, Shoe.from_ranks(dict(SMALL))), 3, PAY)
    _linear_holds(search, every_value(3, SMALL, PAY), drawing_on_none=True)


def test_the_linear_bound_holds_every_strategy_of_its_boxes_and_is_below_the_quadratic_in_some() -> None:
    """Three seats on a small shoe: the linear bound holds every strategy of the boxes tried (``_linear_holds``; four
    seats in the deep test below). Four seats: it is below the quadratic in some of the widest boxes (where it
    earns its keep is on 8 decks, far too big to enumerate)."""
    _linear_holds(CommonSearch(seat_counter(1, 3, Shoe.from_ranks(dict(SMALL))), 3, PAY), every_value(3, SMALL, PAY))
    search = CommonSearch(seat_counter(1, 4, Shoe.from_ranks(dict(FOUR))), 4, PAY)

    def below(low: Draws, high: Draws) -> bool:
        v_low, v_high, _, ranges = search.increments(low, high)
        return search.linear(low, high, v_low, v_high)[0] < search.quadratic(low, high, ranges, v_low, v_high)[0]

    # one box is all the check asks for: it stops at the first (the root, here), each box costing seconds
    assert any(below(low, high) for low, high in _linear_boxes(sorted(search.dealt)) if len(high - low) >= 4)


@pytest.mark.deep
def test_three_seats_searched_without_the_quadratic_visit_more_nodes_to_the_same_best() -> None:
    counter = seat_counter(1, 3, Shoe.from_ranks(dict(SMALL)))
    value = every_value(3, SMALL, PAY)
    _, _, searched = best_common(counter, 3, PAY, strategy_of(frozenset(), "never"))
    plain = CommonSearch(counter, 3, PAY, quadratic_bound=False)
    plain.best = (value[frozenset()], frozenset())
    plain.visit(frozenset(), plain.dealt)
    assert plain.best[0] == max(value.values()) and plain.nodes > searched.nodes  # the quadratic prunes


@pytest.mark.deep
def test_four_seats_the_quadratic_through_pairs_bounds_every_strategy_of_its_boxes() -> None:
    """Four seats on a small shoe: the quadratic whose L side goes through pairs of compositions (the level of
    the other seats but two) is at least every strategy's value in each box, overall and with each composition
    stood or drawn, and so is the linear bound (``_linear_holds``); the search with it ends on the best of every
    strategy, in fewer nodes than without it."""
    counter = seat_counter(1, 4, Shoe.from_ranks(dict(FOUR)))
    value = every_value(4, FOUR, PAY)
    search = CommonSearch(counter, 4, PAY)
    dealt = sorted(search.dealt)
    for low, high in [(frozenset(), frozenset(dealt)), (frozenset(dealt[:1]), frozenset(dealt[:4]))]:
        v_low, v_high, _, ranges = search.increments(low, high)
        box = [low | set(x) for k in range(len(high - low) + 1) for x in combinations(sorted(high - low), k)]
        top, side = search.quadratic(low, high, ranges, v_low, v_high)
        assert top >= max(value[s] for s in box)
        for i, (stood, drawn) in side.items():
            assert stood >= max(value[s] for s in box if i not in s)
            assert drawn >= max(value[s] for s in box if i in s)
    _linear_holds(search, value)
    best, ev, searched = best_common(counter, 4, PAY, strategy_of(frozenset(), "never"))
    assert ev == seat_ev(counter.seat(4, best), best, PAY)
    assert searched.best[0] == max(value.values()) > value[frozenset()]
    plain = CommonSearch(counter, 4, PAY, pair_bound=False)
    plain.best = (value[frozenset()], frozenset())
    plain.visit(frozenset(), plain.dealt)
    assert plain.best[0] == searched.best[0] and plain.nodes > searched.nodes  # the pairs prune


def test_the_search_split_into_boxes_searched_apart_ends_on_the_same_best(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tree settled breadth first to open boxes, each searched by itself as a worker would (its job sent
    through pickle), from "never draw": the same best as one search (two seats on a tree of seven nodes; the
    search's best against every strategy: above), every node counted."""
    whole, ev, met, _ = one_run(2)
    small_tree(monkeypatch)
    counter = seat_counter(1, 2, Shoe.from_ranks(TWO))
    worst = frozenset[int]()
    sent: list[int] = []

    def here(fn: Callable[[Job], Found], jobs: Sequence[Job]) -> list[Found]:
        sent.append(len(jobs))
        return [fn(pickle.loads(pickle.dumps(job))) for job in jobs]

    split = best_common(counter, 2, PAY, strategy_of(worst, "worst"), apart=Apart(here, 2))
    assert sent == [2]  # the root split in two, searched apart
    assert ev == split[1] and whole.draws == split[0].draws and split[2].best == met and met[1] != worst
    assert split[2].nodes >= sent[0]


def test_the_seats_command_refuses_what_it_cannot_prove() -> None:
    runner = CliRunner()
    for args, named in ((["--players", "3", "--third-cards", "shown", "--prove-common"], "--prove-common"),
                        (["--players", "3", "--scheduler", "local"], "--scheduler")):
        r = runner.invoke(main, ["seats", "house-baccarat", "--decks", "1", *args])
        assert r.exit_code == 4 and named in r.output and "Traceback" not in r.output
