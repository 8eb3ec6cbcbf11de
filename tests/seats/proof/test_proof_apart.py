"""A proof kept in a checkpoint and searched apart: begun here and finished on a "cluster" (each job sent
through pickle, the results given back out of order), it ends on the best strategy of one run, which
test_common_search checks against every strategy of the shoe; lost midway, the file holds the boxes still
out, and a run here finishes it; a worker running other code refuses its box."""

from __future__ import annotations

import json
import pickle
import threading
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from oracles.proof_fixtures import NEVER, PAY, SHOE, TWO, one_run, small_tree, stopped_after
from oracles.seat_fixtures import seat_counter

from oddscalc.cli.main import main
from oddscalc.games.shoe import Shoe
from oddscalc.protocol import OptionError
from oddscalc.replay import code_digest
from oddscalc.seats import game as seat_game
from oddscalc.seats.proof import apart as proof_apart
from oddscalc.seats.proof import search as common_search
from oddscalc.seats.proof.apart import Signed, Spread
from oddscalc.seats.proof.branch import CommonSearch
from oddscalc.seats.proof.checkpoint import SEARCH, Checkpoint, State


class Lost(Exception):
    """The cluster went away."""


@pytest.fixture(autouse=True)
def _fresh_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's jobs on a worker of its own: one keeps its search from job to job, and these tests' searches
    differ (some without the pair bound)."""
    monkeypatch.setattr(proof_apart, "_here", threading.local())


def _state(path: Path) -> State:
    kept = Checkpoint(path, {}).read()
    assert kept is not None
    return kept[2]


def _backwards(sent: list[int], lose_after: int | None = None
               ) -> Callable[[Callable[[Signed], Any], Sequence[Signed]], Iterator[tuple[int, Any]]]:
    """A stream that runs the jobs as workers would (through pickle), the last first, and loses the cluster
    once ``lose_after`` results in all have come back."""
    given = [0]

    def stream(fn: Callable[[Signed], Any], jobs: Sequence[Signed]) -> Iterator[tuple[int, Any]]:
        sent.append(len(jobs))
        for i in reversed(range(len(jobs))):
            if given[0] == lose_after:
                raise Lost
            given[0] += 1
            yield i, fn(pickle.loads(pickle.dumps(jobs[i])))

    return stream


@pytest.mark.deep  # the apart search in parts is the suite's: a node's jobs (below), a cluster lost midway
def test_a_proof_begun_here_is_finished_apart_to_the_same_best(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped here after 3 nodes, finished apart (the seats report's row saying how), then only read."""
    whole, ev, met = one_run()[:3]
    small_tree(monkeypatch)
    counter = seat_counter(1, 3, Shoe.from_ranks(SHOE))
    path = tmp_path / "proof.json"
    stopped_after(counter, path, 3)
    assert seat_game._where(path, apart=True) == "resumed from the checkpoint proof.json, its open boxes searched apart"
    before = _state(path)
    assert before.open and before.nodes == 3
    sent: list[int] = []
    said: list[str] = []
    best, ev_apart, apart = proof_apart.best_common(counter, 3, PAY, NEVER, path, Spread(_backwards(sent), 2),
                                                    said.append)
    assert (best.draws, ev_apart) == (whole.draws, ev)
    assert sum(sent) >= 2 and any(s.startswith("best common strategy apart: ") for s in said)
    after = _state(path)
    assert after.done and after.best == met and after.runs == 2 and after.nodes == apart.nodes >= 4
    assert after.evaluations == apart.evaluations > before.evaluations
    r = CliRunner().invoke(main, ["proof", str(path)])
    assert r.exit_code == 0 and "| proven by | this version of the search |" in r.output, r.output
    again = proof_apart.best_common(counter, 3, PAY, NEVER, path, Spread(_backwards(sent := []), 2))
    assert (again[0].draws, again[1], again[2].nodes) == (whole.draws, ev, after.nodes) and not sent  # read only


@pytest.mark.deep  # a stopped run's file resumed here is the suite's (test_proof_checkpoint)
def test_a_cluster_lost_midway_leaves_the_boxes_still_out_in_the_file(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Begun apart from nothing, the cluster lost after three pieces of work came back (the first two only split):
    the file holds what is left, and a run here finishes the proof on the same best (its tallies adding both
    runs')."""
    whole, ev, _ = one_run()[:3]
    small_tree(monkeypatch)
    counter = seat_counter(1, 3, Shoe.from_ranks(SHOE))
    path = tmp_path / "proof.json"
    sent: list[int] = []
    with pytest.raises(Lost):
        proof_apart.best_common(counter, 3, PAY, NEVER, path, Spread(_backwards(sent, lose_after=3), 3))
    lost = _state(path)
    assert len(sent) >= 1 and lost.open and 0 < lost.left < 1 and lost.runs == 1 and lost.nodes >= 1
    best, ev_here, here = common_search.best_common(counter, 3, PAY, NEVER, checkpoint=path)
    assert (best.draws, ev_here) == (whole.draws, ev) and here.runs == 2 and here.nodes > lost.nodes
    assert _state(path).done


def test_jobs_of_a_node_each_end_on_the_same_best(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Begun apart from nothing, every job stopped after one node (its time used up at once) and what it left
    sent out again in the next round: the proof ends on one run's best, the file saying so (two seats: a tree of
    seven nodes)."""
    whole, ev, met = one_run(2)[:3]
    small_tree(monkeypatch)
    counter = seat_counter(1, 2, Shoe.from_ranks(TWO))
    path = tmp_path / "proof.json"
    sent: list[int] = []
    said: list[str] = []
    best, ev_apart, apart = proof_apart.best_common(counter, 2, PAY, NEVER, path, Spread(_backwards(sent), 1, 0.0),
                                                    said.append)
    assert (best.draws, ev_apart) == (whole.draws, ev)
    assert len(sent) > 2 and apart.nodes >= sum(sent)  # a round per depth, each job a node at least
    assert said[-1].endswith(" 0.0000% of the strategies open")
    after = _state(path)
    assert after.done and after.best == met and after.nodes == apart.nodes


def test_a_later_version_takes_a_proof_over_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped here by one version, taken over and finished on a "cluster" by another (its workers running it):
    one run's best, and the file naming the version that handed it over."""
    from oddscalc.seats.proof import checkpoint as proof_checkpoint

    whole, ev, met = one_run()[:3]
    small_tree(monkeypatch)
    counter = seat_counter(1, 3, Shoe.from_ranks(SHOE))
    path = tmp_path / "proof.json"
    stopped_after(counter, path, 3)
    first = code_digest(SEARCH)
    for module in (proof_checkpoint, proof_apart):  # a new version, here and on the workers
        monkeypatch.setattr(module, "code_digest", lambda m=None: "1" * 64)
    with pytest.raises(proof_checkpoint.CheckpointError, match="another version"):
        proof_apart.best_common(counter, 3, PAY, NEVER, path, Spread(_backwards([]), 2))
    best, ev_apart, _ = proof_apart.best_common(counter, 3, PAY, NEVER, path, Spread(_backwards([]), 2),
                                                take_over=True)
    assert (best.draws, ev_apart) == (whole.draws, ev)
    after = _state(path)
    assert after.done and after.best == met and [(h.code, h.nodes) for h in after.earlier] == [(first, 3)]


def test_a_worker_keeps_its_search_and_refuses_other_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small_tree(monkeypatch)  # a root that splits
    counter = seat_counter(1, 2, Shoe.from_ranks(TWO))
    search = CommonSearch(counter, 2, PAY)
    job = (counter.rules, counter.game, 2, PAY, True, frozenset[int](), search.dealt, (0, frozenset[int]()))
    digest = code_digest(SEARCH)
    first = proof_apart.worked((digest, job, 0.0))
    again = proof_apart.worked(pickle.loads(pickle.dumps((digest, job, 0.0))))
    assert first[2] == again[2] == 1 and first[0] == again[0] != []  # one node, its halves
    assert again[3] == 0 < first[3]  # the box's ends counted once on this worker
    with pytest.raises(OptionError, match="another version of oddscalc's search"):
        proof_apart.worked(("0" * 64, job, 0.0))
    error = pickle.loads(pickle.dumps(OptionError("x")))  # what a worker raises reaches the client as itself
    assert isinstance(error, OptionError) and str(error) == "x"


@pytest.mark.deep
def test_the_seats_command_keeps_a_proof_searched_on_a_local_cluster(tmp_path: Path) -> None:
    """One deck, three seats: the proof kept in a checkpoint and searched on a two-worker LocalCluster ends
    on the best common strategy the run here proves, and the file says it is proven."""
    path = tmp_path / "proof.json"
    runner = CliRunner()
    args = ["seats", "house-baccarat", "--decks", "1", "--players", "3", "--prove-common", "--format", "json"]
    here = runner.invoke(main, args)
    there = runner.invoke(main, [*args, "--checkpoint", str(path), "--scheduler", "local", "--workers", "2"])
    assert here.exit_code == 0 and there.exit_code == 0, there.output

    def cooperative(out: str) -> list[tuple[object, object]]:
        rows = json.loads(out)["sections"]["seat_equilibria"]["rows"]
        return [(r["strategy"], r["ev"]) for r in rows if str(r["concept"]).startswith("cooperative")]

    assert cooperative(here.output) == cooperative(there.output) != []
    state = _state(path)
    assert state.done and Fraction(state.best[0]) > 0
