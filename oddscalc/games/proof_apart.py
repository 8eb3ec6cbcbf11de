"""A proof of the best common strategy kept in a checkpoint and searched apart: started, or resumed where a run
here stopped, on a cluster, its file rewritten as each piece of work comes back.

Counting argument. A checkpoint's best strategy met and open boxes hold all that is left of a proof
(``proof_checkpoint``): every strategy outside them was dropped because it cannot beat the best met. So
the boxes may be searched in any order and anywhere. While there are fewer than a few per worker, every
open box is settled as one node on the cluster (``CommonSearch.settle``) and replaced by the halves it
leaves; then each box is searched depth first on a worker (``common_search``). Each goes out with the best
met at the time; what its worker drops cannot beat that, which is no better than the best met when it
comes back. So a node back is replaced by its halves, a box back leaves the open boxes, its best is
offered, and the file is rewritten: at every moment it holds what is left. A run lost on the way (the
scheduler, the network) loses only the work then out, whose boxes the file still holds: a run here or
on a cluster goes on from it. Each job carries the digest of the search code the proof is kept by, and a
worker that runs other code refuses it, so a proof finished apart is still one version's.

The tree differs from one run's (the boxes are settled in another order, each from the best met when it
was sent), so the nodes and evaluations do too; the best common strategy does not, unless two tie.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..cache import Store
from ..protocol import OptionError
from ..replay import code_digest
from . import common_search
from .common_search import CommonSearch, Found, Job
from .house_baccarat import COMPOSITIONS, SeatCounter, Strategy, round_total
from .proof_checkpoint import SEARCH, Box, Checkpoint, State
from .seat_search import Draws, strategy_of

Signed = tuple[str, Job]  # a box's job, with the digest of the search code the proof is kept by
Settled = tuple[list[Box], tuple[int, Draws], int, int]  # a node's halves, the best met, nodes, evaluations
Stream = Callable[[Callable[[Signed], Any], Sequence[Signed]], Iterator[tuple[int, Any]]]


@dataclass(frozen=True)
class Spread:
    """Where a kept proof's boxes go: ``stream`` (a cluster's, ``cluster.streamer``) runs the jobs and gives each
    result with its index as it comes back; the boxes are settled a node each until at least ``boxes`` are
    open."""

    stream: Stream
    boxes: int


def _checked(digest: str) -> None:
    if digest != code_digest(SEARCH):
        raise OptionError("a cluster worker runs another version of oddscalc's search than the one the proof is "
                          "kept by; install the same version on every worker")


def searched(job: Signed) -> Found:
    """On a worker: one box searched depth first, if this worker runs the search code the proof is kept by."""
    _checked(job[0])
    return common_search._subtree(job[1])


def settled(job: Signed) -> Settled:
    """On a worker: one node of a box, if this worker runs the search code the proof is kept by: the halves it
    leaves (none when nothing in the box beats the best met), the best met, the nodes, the evaluations."""
    _checked(job[0])
    rules, game, players, pay, by_levels, low, high, best = job[1]
    search = common_search.CommonSearch(SeatCounter(rules, Store(None), game), players, pay, by_levels=by_levels)
    search.best = best
    halves = [(lo, hi) for lo, hi, _ in search.settle(low, high)]
    return halves, search.best, search.nodes, search.evaluations


def best_common(counter: SeatCounter, players: int, pay: Fraction, start: Strategy, checkpoint: Path, spread: Spread,
                progress: Callable[[str], None] | None = None) -> tuple[Strategy, Fraction, CommonSearch]:
    """``common_search.best_common`` with both a checkpoint and a cluster: the proof kept in ``checkpoint``
    (begun from ``start`` when the file does not exist yet) searched by ``spread``, the file rewritten as each
    node and each box comes back. A finished proof is read, not searched."""
    kept = Checkpoint(checkpoint, common_search.problem(counter.rules, players, pay))
    state = kept.load()
    if state is not None and state.done:
        return common_search.best_common(counter, players, pay, start, progress, checkpoint=checkpoint)
    search = common_search.CommonSearch(counter, players, pay, progress)
    # the start or resumption of common_search.best_common, written again: changing that module would change the
    # code every proof under way is checkpointed against
    if state is None:
        first = frozenset(i for i in search.dealt if start.matrix[COMPOSITIONS[i]])
        search.best = (search.value(first), first)
        boxes: list[Box] = [(frozenset(), search.dealt)]
    else:
        search.best, search.nodes, search.evaluations = state.best, state.nodes, state.evaluations
        search.runs, search.seconds = state.runs + 1, state.seconds
        boxes = list(state.open)
    began, before = time.perf_counter(), search.seconds

    def save(open_: Sequence[Box]) -> None:
        search.seconds = before + time.perf_counter() - began
        kept.save(State(search.best, tuple(open_), search.nodes, search.evaluations, search.seconds, search.runs,
                        len(search.dealt)))

    save(boxes)
    digest = code_digest(SEARCH)

    def sent(box: Box) -> Signed:
        return digest, (counter.rules, counter.game, players, pay, bool(search.by_levels), *box, search.best)

    def back(best: tuple[int, Draws], nodes: int, evaluations: int) -> None:
        search.offer(best[1], best[0])
        search.nodes += nodes
        search.evaluations += evaluations

    while boxes and len(boxes) < spread.boxes:  # too few to keep the workers busy: one node of each, apart
        out, halves = dict(enumerate(boxes)), []
        for i, (more, *found) in spread.stream(settled, [sent(b) for b in boxes]):
            back(*found)
            del out[i]
            halves += more
            save([*out.values(), *halves])
        boxes = halves
        if progress is not None:
            progress(f"best common strategy apart: {len(boxes)} boxes open, {search.nodes} nodes")
    out = dict(enumerate(boxes))
    for i, found in spread.stream(searched, [sent(b) for b in boxes]):
        back(*found)
        del out[i]
        save(list(out.values()))
        if progress is not None:
            progress(f"best common strategy apart: {len(boxes) - len(out)} of {len(boxes)} boxes searched, "
                     f"{search.nodes} nodes, {search.evaluations} evaluations")
    value, drawn = search.best
    total = round_total(counter.rules.shoe, players, counter.rules.infinite)
    return strategy_of(drawn, "best common"), Fraction(value, total * pay.denominator), search
