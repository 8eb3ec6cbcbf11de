"""The small cases of the proof of the best common strategy shared by its tests: the shoes and pay, every
strategy of a small shoe valued on its own seat counts (the oracle the search's bounds and optimum are checked
against), the search without its pair bound (so that small trees have a few nodes), and one proof run whole or
stopped after a given node."""

from __future__ import annotations

import functools
import tempfile
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest

from oddscalc.games.house_baccarat.count import SeatCounter
from oddscalc.games.house_baccarat.settle import seat_ev
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.shoe import Shoe
from oddscalc.seats.proof.branch import CommonSearch
from oddscalc.seats.proof.search import best_common
from oddscalc.seats.search import Draws, strategy_of
from oracles.seat_fixtures import seat_counter
from oracles.shared import shared

PAY = Fraction(19, 20)
SMALL = (("3", 5), ("9", 3), ("7", 6))  # three seats need 12 cards; five compositions can be dealt
# the shoe of the tests of what is done with a tree (stopped, resumed, taken over, searched apart): three seats on
# it, searched as ``small_tree`` makes them, a tree of 9 nodes from "never draw". A search's evaluations cost
# about the same on any shoe (they sweep every multiset of six slots) and a little more per composition dealt,
# so a tree of cheap nodes on a small shoe (0.16 s of CPU an evaluation) serves these tests as well as the fully
# bounded search on a larger one (20 cards, 8 compositions: 7 nodes without the pair bound, 0.25 s each)
SHOE = dict(SMALL)
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
    return shared(f"every_value {players} {ranks} {pay}", lambda: _every_value(players, ranks, pay))


def _every_value(players: int, ranks: tuple[tuple[str, int], ...], pay: Fraction) -> dict[Draws, int]:
    counter = seat_counter(1, players, Shoe.from_ranks(dict(ranks)))
    dealt = CommonSearch(counter, players, pay).dealt
    out = {}
    for k in range(len(dealt) + 1):
        for drawn in combinations(sorted(dealt), k):
            s = strategy_of(frozenset(drawn), "tried")
            sc = counter.seat(players, s)
            value = seat_ev(sc, s, pay) * sc.total * pay.denominator
            assert value.denominator == 1
            out[frozenset(drawn)] = int(value)
    return out


class Stop(Exception):
    """The run stopped from outside."""


def stopped_after(counter: SeatCounter, path: Path, nodes: int) -> None:
    """Run the proof on three seats with a checkpoint until ``nodes`` nodes are settled, then stop it as Ctrl-C
    would."""

    def progress(text: str) -> None:
        if text.startswith(f"best common strategy: node {nodes + 1},"):
            raise Stop

    with pytest.raises(Stop):
        best_common(counter, 3, PAY, NEVER, progress, checkpoint=path)


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
def one_run() -> tuple[Strategy, Fraction, tuple[int, frozenset[int]], int]:
    """The proof on :data:`SHOE` in one run, without a checkpoint, searched as ``small_tree`` makes it (shared by
    the tests of a proof kept and resumed): its best strategy, EV, best met and nodes."""
    return shared("one_run", _one_run)


def _one_run() -> tuple[Strategy, Fraction, tuple[int, frozenset[int]], int]:
    with pytest.MonkeyPatch.context() as m:
        small_tree(m)
        whole, ev, search = best_common(seat_counter(1, 3, Shoe.from_ranks(SHOE)), 3, PAY, NEVER)
    assert search.nodes == 9 and whole.draws  # the best leaves "never": the search had work to do
    return whole, ev, search.best, search.nodes
