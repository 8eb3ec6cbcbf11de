"""The complete equilibrium search of the house game's seats: its lemma, its gains, and its list against
every strategy of small shoes (two seats against their own enumeration: test_seat_game); and the two
seats' best common strategy against every strategy of a small shoe and, on 8 decks, against the bounds'
search (common_search)."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from oracles.proof_fixtures import SMALL
from oracles.seat_fixtures import every_seat, on_shoe, seat_counter

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.games.house_baccarat.count import SeatCounter
from oddscalc.games.house_baccarat.settle import seat_ev
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS
from oddscalc.games.shoe import Shoe
from oddscalc.results import RunOptions
from oddscalc.seats import two_seats
from oddscalc.seats.game import Found, cooperative_row, gaps, is_best_reply
from oddscalc.seats.proof import search as common_search
from oddscalc.seats.search import Search, all_equilibria, cumulative, never_drawn, strategy_of


def test_the_others_counts_fall_as_they_draw_more() -> None:
    """The lemma the search stands on, on one deck with two other seats: adding compositions drawn on never
    raises a cumulative count, A_0 and A_11 never move, and nobody drawing is read off any strategy."""
    counter = seat_counter(1, 3)
    rng = random.Random(12)
    n = len(COMPOSITIONS)
    for _ in range(4):
        small = frozenset(rng.sample(range(n), 8))
        large = small | frozenset(rng.sample(range(n), 10))
        a = cumulative(counter.rows(3, strategy_of(small, "s")))
        b = cumulative(counter.rows(3, strategy_of(large, "l")))
        assert (a >= b).all() and (a[:, [0, 11]] == b[:, [0, 11]]).all() and (a[:, 1:11] > b[:, 1:11]).any()
        assert np.array_equal(never_drawn(b), cumulative(counter.rows(3, strategy_of(frozenset(), "never"))))


@pytest.mark.parametrize("pay", [Fraction(1), Fraction(19, 20)], ids=["even", "19:20"])
def test_gains_at_a_leaf_are_the_seat_counts_gains(pay: Fraction) -> None:
    counter = seat_counter(1, 3)
    search = Search(counter, 3, pay)
    drawn = frozenset(i for i, (u, w) in enumerate(COMPOSITIONS) if (u + w) % 10 <= 4)
    bounds = search.gains(drawn, drawn)
    exact = gaps(counter.seat(3, strategy_of(drawn, "d04")), pay)
    assert [Fraction(bounds[i][0], pay.denominator) for i in range(len(COMPOSITIONS))] == exact
    assert all(lo == hi for lo, hi in bounds.values())


# three seats need 12 cards; on three ranks only five compositions can be dealt, so all 32 strategies can be tried
# (their plain seat counts made once for the run: the proof's tests value the same on the first shoe)
@pytest.mark.parametrize("ranks, equilibria", [(SMALL, 3), ((("9", 5), ("8", 5), ("4", 5)), 0)],
                         ids=["three-equilibria", "none"])
def test_three_seats_against_every_strategy_of_a_small_shoe(ranks: tuple[tuple[str, int], ...],
                                                           equilibria: int) -> None:
    counter = seat_counter(1, 3, Shoe.from_ranks(dict(ranks)))
    found, search = all_equilibria(counter, 3, Fraction(1))
    every = every_seat(3, ranks)
    assert len(search.dealt) < len(COMPOSITIONS) and len(every) == 2 ** len(search.dealt)
    plain = {strategy_of(d, "tried").draws for d, sc in every.items()
             if is_best_reply(sc, strategy_of(d, "tried"), Fraction(1))}
    assert {s.draws for s in found} == plain and len(plain) == equilibria


def test_the_best_common_strategy_of_two_seats_against_every_strategy_of_a_small_shoe() -> None:
    counter = seat_counter(1, 2, Shoe.from_ranks(dict(SMALL)))
    model = two_seats.Model.of(counter, Fraction(19, 20))
    dealt = sorted(Search(counter, 2, Fraction(19, 20)).dealt)
    every = every_seat(2, SMALL)  # every strategy's plain seat counts, made once for the run (test_proof_bound's)
    assert len(every) == 2 ** len(dealt)
    plain = [seat_ev(sc, strategy_of(d, "tried"), Fraction(19, 20)) for d, sc in every.items()]
    never = strategy_of(frozenset(), "never")
    best, ev, _ = two_seats.best_common(model, never)
    assert ev == max(plain) and ev == seat_ev(counter.seat(2, best), best, Fraction(19, 20)) and len(set(plain)) > 4
    # compositions the shoe cannot deal stand in the model's enumeration too, instead of branching both ways
    enumerated, nodes = two_seats.equilibria(model)
    assert {e.draws for e in enumerated} == {s.draws for s in all_equilibria(counter, 2, Fraction(19, 20))[0]}
    assert nodes < 2 ** len(dealt) + 1
    # the report's row runs the model and the bounds' search (common_search), which must agree
    found = [Found(e, seat_ev(counter.seat(2, e), e, Fraction(19, 20)), "") for e in enumerated]
    row = cooperative_row(counter, 2, Fraction(19, 20), never, "never", found, None, common_search.Proof())
    assert row[2] == ev and "the bounds' search agrees" in str(row[4])


@pytest.mark.deep  # the small case is the suite's: against every strategy of a small shoe, above
def test_the_best_common_strategy_of_two_seats_on_eight_decks(sessions: Callable[[str], Session]) -> None:
    s = sessions("house-baccarat")  # the run's store: the seats command's test counts the same strategies
    counter = s.counts(s.resolve("seed", RunOptions(decks=8, players=2)))
    assert isinstance(counter, SeatCounter)
    model = two_seats.Model.of(counter, Fraction(1))
    d02 = strategy_of(frozenset(i for i, (u, w) in enumerate(COMPOSITIONS) if (u + w) % 10 <= 2), "draw-0-2")
    best, ev, nodes = two_seats.best_common(model, strategy_of(frozenset(), "never"))
    assert best.draws == d02.draws and f"{float(ev):.6f}" == "0.075999"  # the issue's +7.600%, over all 2^44
    assert ev == seat_ev(counter.seat(2, d02), d02, Fraction(1)) and nodes > 1
    proven, again, search = common_search.best_common(counter, 2, Fraction(1), strategy_of(frozenset(), "never"))
    assert (proven.draws, again) == (best.draws, ev) and search.best[1] != frozenset()  # a second method, from "never"


# one deck, and a small shoe of three ranks (five compositions dealt: a few evaluations, the same store)
@pytest.mark.parametrize("shoe", [None, Shoe.from_ranks({"3": 5, "9": 3, "7": 6})], ids=["one-deck", "small"])
def test_the_others_counts_are_stored_for_the_next_search(tmp_path: Path, shoe: Shoe | None) -> None:
    session = Session("house-baccarat", RunOptions(decks=1, players=3), Store(tmp_path))
    rules = session.resolve("seed")
    if shoe is not None:
        rules = on_shoe(rules, shoe)
    first = session.counts(rules)
    assert isinstance(first, SeatCounter)
    found, search = all_equilibria(first, 3, Fraction(1))
    stored = len(list(tmp_path.glob("*.counts")))
    assert stored >= search.evaluations > 1  # every evaluation, and the counts of each equilibrium
    again = Session("house-baccarat", RunOptions(decks=1, players=3), Store(tmp_path)).counts(rules)
    assert isinstance(again, SeatCounter)
    repeat, _ = all_equilibria(again, 3, Fraction(1))
    assert [s.draws for s in repeat] == [s.draws for s in found]
    assert len(list(tmp_path.glob("*.counts"))) == stored  # read back, not counted again
    d04 = found[0]
    assert np.array_equal(again.rows(3, d04), first.rows(3, d04))
