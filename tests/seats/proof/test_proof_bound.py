"""What a proof under way proves: each open box's bound against every strategy in it, and the interval of a
search stopped after each node against the best of every strategy, on a small shoe."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner
from oracles.proof_fixtures import PAY, SMALL, every_value
from oracles.seat_fixtures import seat_counter

from oddscalc.analysis import Session
from oddscalc.cli.main import main
from oddscalc.games.house_baccarat.count import HouseBaccaratRules, SeatCounter
from oddscalc.games.house_baccarat.settle import seat_ev
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS
from oddscalc.games.shoe import Shoe
from oddscalc.results import RunOptions
from oddscalc.seats.proof.bound import bound, box_bound
from oddscalc.seats.proof.branch import Anchors, CommonSearch
from oddscalc.seats.proof.checkpoint import Checkpoint, State
from oddscalc.seats.proof.search import problem
from oddscalc.seats.search import Draws, strategy_of


def _box(low: Draws, high: Draws) -> list[Draws]:
    return [low | set(x) for k in range(len(high - low) + 1) for x in combinations(sorted(high - low), k)]


# two seats (each end's evaluation a tenth of three seats'), and three
@pytest.mark.parametrize("players", [2, 3], ids=["two-seats", "three-seats"])
def test_a_box_bound_is_at_least_every_strategy_in_the_box(players: int) -> None:
    value = every_value(players, SMALL, PAY)
    search = CommonSearch(seat_counter(1, players, Shoe.from_ranks(dict(SMALL))), players, PAY)
    dealt = sorted(search.dealt)
    loose = exact = 0
    for low, high in [(frozenset(), frozenset(dealt)), (frozenset(dealt[:1]), frozenset(dealt)),
                      (frozenset(), frozenset(dealt[1:])), (frozenset(dealt[2:3]), frozenset(dealt[:4]))]:
        most = max(value[s] for s in _box(low, high))
        b = box_bound(search, low, high)
        assert b >= most
        loose += b > most
        exact += b == most
    assert loose  # a bound, not the maximum read off every strategy
    assert exact  # where the bounds fix every composition but the best's, the bound is the best's value


# two seats searched by increments alone (a tree of three nodes), and three without the pair bound (several)
@pytest.mark.parametrize("players", [2, 3], ids=["two-seats", "three-seats"])
def test_a_stopped_proof_holds_the_best_between_its_best_met_and_its_bound(players: int) -> None:
    """From "never draw", the search stopped after every node: the best of every strategy lies in the interval,
    which narrows to the best met when no box is left; at the start it is wider than the best met."""
    value = every_value(players, SMALL, PAY)
    truth = max(value.values())
    counter = seat_counter(1, players, Shoe.from_ranks(dict(SMALL)))
    search = CommonSearch(counter, players, PAY, pair_bound=False) if players == 3 else \
        CommonSearch(counter, players, PAY, quadratic_bound=False, linear_bound=False)  # a tree of several nodes
    search.best = (value[frozenset()], frozenset())
    open_: list[tuple[Draws, Draws, Anchors | None]] = [(frozenset(), search.dealt, None)]
    widths = []
    bounding = CommonSearch(counter, players, PAY)  # one for every step: a box's ends evaluated once, not per step
    while True:
        boxes = [(low, high) for low, high, _ in open_]
        found = bound(bounding, search.best[0], boxes)
        assert found.best <= truth <= found.upper
        assert all(b >= max(value[s] for s in _box(low, high)) for low, high, b in found.boxes)
        widths.append(found.upper - found.best)
        if not open_:
            break
        open_ += search.settle(*open_.pop())[::-1]
    assert len(widths) > 2 and widths[0] > 0 and widths[-1] == 0
    assert search.best[0] == truth


@pytest.mark.deep  # 8 decks; the bound on a small shoe's boxes and a stopped proof is the suite's (above)
def test_the_proof_command_bounds_a_checkpoint_of_a_table(tmp_path: Path) -> None:
    """Two seats on 8 decks, a proof that has settled nothing yet (one box: every strategy): the interval holds
    the best common strategy, draw on 0-2 at +7.5999% per seat, which the exact two-seat model proves (the
    seats command's row); the compositions the bounds fix leave that strategy alone in the box, so the upper
    end is its EV exactly. A shoe other than the proof's is refused."""
    session = Session("house-baccarat")
    rules = session.resolve("seed", RunOptions(decks=8, players=2))
    counter = session.counts(rules)
    assert isinstance(rules, HouseBaccaratRules) and isinstance(counter, SeatCounter)
    search = CommonSearch(counter, 2, rules.pay)
    path = tmp_path / "two.json"
    Checkpoint(path, problem(rules, 2, rules.pay)).save(
        State((search.value(frozenset()), frozenset()), ((frozenset(), search.dealt),), 0, 1, 0.0, 1))
    r = CliRunner().invoke(main, ["proof", str(path), "--bound"])
    assert r.exit_code == 0, r.output
    said = re.search(r"more than \| (\d+/\d+) \(.*lies between ([-+][\d.]+)% and ([-+][\d.]+)%", r.output)
    assert said is not None and "| 1 | 44 | 0 |" in r.output
    upper = Fraction(said.group(1))
    assert float(said.group(2)) / 100 < 0.075999 < upper
    d02 = strategy_of(frozenset(i for i, (u, w) in enumerate(COMPOSITIONS) if (u + w) % 10 <= 2), "draw-0-2")
    assert upper == seat_ev(counter.seat(2, d02), d02, rules.pay)  # what the box's bounds fix leaves it alone
    r = CliRunner().invoke(main, ["proof", str(path), "--bound", "--decks", "6"])
    assert r.exit_code == 4 and "a proof of another table or shoe" in r.output and "Traceback" not in r.output
