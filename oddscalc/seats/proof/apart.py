"""A proof of the best common strategy kept in a checkpoint and searched apart: started, or resumed where a run
here stopped, on a cluster, its file rewritten as each piece of work comes back.

Counting argument. A checkpoint's best strategy met and open boxes hold all that is left of a proof
(``proof_checkpoint``): every strategy outside them was dropped because it cannot beat the best met. So
the boxes may be searched in any order and anywhere. The open boxes go out in rounds, each with the best
met at the time, and a worker searches its box depth first (``CommonSearch.settle`` at every node, as
``common_search`` does) for a while: one node while there are fewer than a few boxes per worker, else
until ``Spread.seconds`` have passed; it gives back the boxes its search left open. What it dropped
cannot beat the best it was sent, which is no better than the best met when it comes back. So a box back
is replaced by what it left, its best is offered, and the file is rewritten: at every moment it holds
what is left. A run lost on the way (the scheduler, the network) loses only the work then out, at most
``seconds`` of each worker's, whose boxes the file still holds: a run here or on a cluster goes on from
it. Each job carries the digest of the search code the proof is kept by, and a worker that runs other
code refuses it, so a proof finished apart is still one version's.

The tree differs from one run's (the boxes are settled in another order, each from the best met when it
was sent), so the nodes and evaluations do too; the best common strategy does not, unless two tie.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from oddscalc.cache import Store
from oddscalc.games.house_baccarat.count import SeatCounter, round_total
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.protocol import OptionError
from oddscalc.replay import code_digest
from oddscalc.seats.proof import search as common_search
from oddscalc.seats.proof.branch import Anchors, CommonSearch
from oddscalc.seats.proof.checkpoint import SEARCH, Box, Checkpoint
from oddscalc.seats.proof.search import Job
from oddscalc.seats.search import Draws, strategy_of

Signed = tuple[str, Job, float]  # a box's job, the digest of the search code the proof is kept by, its seconds
Worked = tuple[list[Box], tuple[int, Draws], int, int]  # the boxes left open, the best met, nodes, evaluations
Stream = Callable[[Callable[[Signed], Any], Sequence[Signed]], Iterator[tuple[int, Any]]]
SECONDS = 600.0  # a job's work before it gives back what is left: what a lost cluster costs each worker at most


@dataclass(frozen=True)
class Spread:
    """Where a kept proof's boxes go: ``stream`` (a cluster's, ``cluster.streamer``) runs the jobs and gives each
    result with its index as it comes back; while fewer than ``boxes`` are open each job settles one node, then
    each searches its box for ``seconds`` and gives back what is left."""

    stream: Stream
    boxes: int
    seconds: float = SECONDS


def _checked(digest: str) -> None:
    if digest != code_digest(SEARCH):
        raise OptionError("a cluster worker runs another version of oddscalc's search than the one the proof is "
                          "kept by; install the same version on every worker")


_here = threading.local()


def _search(job: Job) -> CommonSearch:
    """This worker thread's search for the job's problem, kept from its last job: with it the other seats'
    counts it evaluated, so that a box's halves coming back to it do not evaluate their ends again."""
    rules, game, players, pay, by_levels = job[:5]
    problem = (rules, type(game), players, pay, by_levels)  # the game object is stateless: its class names it
    kept: tuple[tuple[Any, ...], CommonSearch] | None = getattr(_here, "kept", None)
    if kept is None or kept[0] != problem:
        kept = _here.kept = problem, CommonSearch(SeatCounter(rules, Store(None), game), players, pay,
                                                                by_levels=by_levels)
    return kept[1]


def worked(job: Signed) -> Worked:
    """On a worker: one box searched depth first from the best met it was sent with, a node at least and then
    until its seconds have passed, if this worker runs the search code the proof is kept by: the boxes left
    open (none once the box is searched), the best met, the nodes, the evaluations."""
    digest, box, seconds = job
    _checked(digest)
    search = _search(box)
    low, high, best = box[5:]
    search.best = best
    search.nodes = search.evaluations = 0
    open_: list[tuple[Draws, Draws, Anchors | None]] = [(low, high, None)]
    end = time.monotonic() + seconds
    while open_:
        open_ += search.settle(*open_.pop())[::-1]
        if time.monotonic() >= end:
            break
    return [(lo, hi) for lo, hi, _ in open_], search.best, search.nodes, search.evaluations


def best_common(counter: SeatCounter, players: int, pay: Fraction, start: Strategy, checkpoint: Path, spread: Spread,
                progress: Callable[[str], None] | None = None, take_over: bool = False
                ) -> tuple[Strategy, Fraction, CommonSearch]:
    """``common_search.best_common`` with both a checkpoint and a cluster: the proof kept in ``checkpoint``
    (begun from ``start`` when the file does not exist yet; another version's taken over when ``take_over``)
    searched by ``spread``, the file rewritten as each box comes back. A finished proof is read, not searched."""
    kept = Checkpoint(checkpoint, common_search.problem(counter.rules, players, pay))
    search = CommonSearch(counter, players, pay, progress)
    state, boxes = common_search.begin(search, start, kept, take_over)
    save = common_search.saver(search, kept, state)
    if state is None or not state.done:  # a finished proof is read as it was written (no box left to send)
        save(boxes)
    digest = code_digest(SEARCH)

    def sent(box: Box, seconds: float) -> Signed:
        return digest, (counter.rules, counter.game, players, pay, bool(search.by_levels), *box, search.best), seconds

    while boxes:  # a round: every open box out, each with the best met now
        seconds = 0.0 if len(boxes) < spread.boxes else spread.seconds  # too few for the workers: a node each
        out, left = dict(enumerate(boxes)), list[Box]()
        for i, (more, best, nodes, evaluations) in spread.stream(worked, [sent(b, seconds) for b in boxes]):
            search.offer(best[1], best[0])
            search.nodes += nodes
            search.evaluations += evaluations
            del out[i]
            left += more
            saved = save([*out.values(), *left])
            if progress is not None:
                progress(f"best common strategy apart: {len(boxes) - len(out)} of {len(boxes)} boxes back, "
                         f"{search.nodes} nodes, {search.evaluations} evaluations, "
                         f"{float(saved.left):.4%} of the strategies open")
        boxes = left
    value, drawn = search.best
    total = round_total(counter.rules.shoe, players, counter.rules.infinite)
    return strategy_of(drawn, "best common"), Fraction(value, total * pay.denominator), search
