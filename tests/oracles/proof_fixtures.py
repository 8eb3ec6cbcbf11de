"""The small cases of the proof of the best common strategy shared by its tests: the shoes and pay, every
strategy of a small shoe valued on its own seat counts (the oracle the search's bounds and optimum are checked
against), the search without its pair bound (so that small trees have a few nodes), and one proof run whole or
stopped after a given node."""

from __future__ import annotations

import functools
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest

from oddscalc.games.house_baccarat.count import SeatCounter
from oddscalc.games.house_baccarat.settle import seat_ev
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.shoe import Shoe
from oddscalc.seats.proof.branch import CommonSearch
from oddscalc.seats.proof.search import best_common
from oddscalc.seats.search import Draws, strategy_of
from oracles.seat_fixtures import every_seat, seat_counter
from oracles.shared import shared

PAY = Fraction(19, 20)
SMALL = (("3", 5), ("9", 3), ("7", 6))  # three seats need 12 cards; five compositions can be dealt
# the shoe of the tests of what is done with a tree (stopped, resumed, taken over, searched apart): three seats on
# it, searched as ``small_tree`` makes them, a tree of 9 nodes from "never draw". A search's evaluations cost
# about the same on any shoe (they sweep every multiset of six slots) and a little more per composition dealt,
# so a tree of cheap nodes on a small shoe (0.16 s of CPU an evaluation) serves these tests as well as the fully
# bounded search on a larger one (20 cards, 8 compositions: 7 nodes without the pair bound, 0.25 s each)
SHOE = dict(SMALL)
# two seats on a shoe of five ranks (eight compositions dealt), searched as ``small_tree`` makes them: a tree of 7
# nodes from "never draw", at a third of the three seats' cost a node (an evaluation of one other seat is cheap)
TWO = {"A": 4, "3": 4, "5": 4, "8": 4, "K": 4}
NEVER = strategy_of(frozenset(), "never")

def without_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches without the pair bound, whose trees on these small shoes are a node or three: for the tests of
    what is done with a tree (split apart, stopped and resumed, estimated), which need a few nodes."""
    from oddscalc.seats.proof import apart as proof_apart
    from oddscalc.seats.proof import estimate as proof_estimate
    from oddscalc.seats.proof import search as common_search

    plain = functools.partial(CommonSearch, pair_bound=False)
    for module in (common_search, proof_apart, proof_estimate):  # each module that makes a search
        monkeypatch.setattr(module, "CommonSearch", plain)


def small_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches bounding a box by its increments alone, without the quadratic or the linear bound (the tests of
    the bounds are test_common_search's and test_proof_bound's): for the tests of what is done with a tree, which
    need a few nodes, on :data:`SHOE` nine where the bounded search settles it at the root."""
    from oddscalc.seats.proof import apart as proof_apart
    from oddscalc.seats.proof import estimate as proof_estimate
    from oddscalc.seats.proof import search as common_search

    plain = functools.partial(CommonSearch, quadratic_bound=False, linear_bound=False)
    for module in (common_search, proof_apart, proof_estimate):  # each module that makes a search
        monkeypatch.setattr(module, "CommonSearch", plain)


@functools.cache
def every_value(players: int, ranks: tuple[tuple[str, int], ...], pay: Fraction) -> dict[Draws, int]:
    """Every strategy over the compositions a small shoe deals, valued on its own seat counts (not the search's
    sums), in the search's units."""
    return _every_value(players, ranks, pay)  # from the counts made once for the run (``every_seat``)


def _every_value(players: int, ranks: tuple[tuple[str, int], ...], pay: Fraction) -> dict[Draws, int]:
    out = {}
    for drawn, sc in every_seat(players, ranks).items():  # over every strategy of the compositions dealt
        value = seat_ev(sc, strategy_of(drawn, "tried"), pay) * sc.total * pay.denominator
        assert value.denominator == 1
        out[drawn] = int(value)
    return out


class Stop(Exception):
    """The run stopped from outside."""


def stopped_after(counter: SeatCounter, path: Path, nodes: int, players: int = 3) -> None:
    """Run the proof on three seats (or ``players``) with a checkpoint until ``nodes`` nodes are settled, then
    stop it as Ctrl-C would."""

    def progress(text: str) -> None:
        if text.startswith(f"best common strategy: node {nodes + 1},"):
            raise Stop

    with pytest.raises(Stop):
        best_common(counter, players, PAY, NEVER, progress, checkpoint=path)


def kept_proofs(folder: Path) -> tuple[Path, Path]:
    """A proof of three seats on :data:`SHOE` without the pair bound stopped after two nodes (boxes open), and
    the same finished: written in ``folder``, made once for the run's workers (``shared``)."""
    under_way, done = folder / "under-way.json", folder / "done.json"
    for path, body in zip((under_way, done), shared("kept_proofs", _kept_proofs), strict=True):
        path.write_bytes(body)
    return under_way, done


def _kept_proofs() -> tuple[bytes, bytes]:
    counter = seat_counter(1, 3, Shoe.from_ranks(SHOE))
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as m:
        under_way, done = Path(folder) / "under-way.json", Path(folder) / "done.json"
        without_pairs(m)  # a tree of a few nodes, so that boxes are open when it stops
        stopped_after(counter, under_way, 2)
        done.write_bytes(under_way.read_bytes())
        best_common(counter, 3, PAY, NEVER, checkpoint=done)
        return under_way.read_bytes(), done.read_bytes()


@functools.cache
def one_run(players: int = 3) -> tuple[Strategy, Fraction, tuple[int, frozenset[int]], int]:
    """The proof of three seats on :data:`SHOE` (two: on :data:`TWO`) in one run, without a checkpoint, searched as
    ``small_tree`` makes it (shared by the tests of a proof kept and resumed): its best strategy, EV, best met and
    nodes."""
    return shared("one_run" if players == 3 else f"one_run {players}", lambda: _one_run(players))


def _one_run(players: int) -> tuple[Strategy, Fraction, tuple[int, frozenset[int]], int]:
    with pytest.MonkeyPatch.context() as m:
        small_tree(m)
        whole, ev, search = best_common(seat_counter(1, players, Shoe.from_ranks(SHOE if players == 3 else TWO)),
                                        players, PAY, NEVER)
    assert search.nodes == (9 if players == 3 else 7) and whole.draws  # it leaves "never": the search had work to do
    return whole, ev, search.best, search.nodes
