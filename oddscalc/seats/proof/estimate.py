"""How big the proof of the best common strategy is, and how long it takes, before it is run.

Counting argument (Knuth's estimator, 1975). The branch and bound of ``common_search`` is a tree: each node
settles a box and either drops it or splits it in two, and which it does depends only on the box, the
anchors it inherits and the best strategy met. Start from the best the search would start from (the
search by composition's strategy), so the best met only changes if the tree holds a better one. A probe
walks from the root, at each node settling the box and following one of its b children at random, and
adds up m_d c_d over its depths d, where m_d is the product of the branchings above depth d and c_d the
node's cost (1 for the count of nodes, or its evaluations, or its seconds). Each node at depth d is
reached with probability 1 / m_d, so the sum's expectation is the tree's total cost, exactly. It is a
heavy-tailed estimate (a deep branch is rarely followed, and counts 2^d when it is), so the mean of
few probes is more often below the total than above it; the probes' spread is reported with it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import mean, stdev
from typing import Protocol

from oddscalc.games.house_baccarat.count import SeatCounter
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS, Strategy
from oddscalc.seats.proof.branch import Anchors, CommonSearch
from oddscalc.seats.search import Draws

Choose = Callable[[int], int]  # given a node's number of children, which one the probe follows


class Tree(Protocol):
    """What a probe walks: ``CommonSearch`` (its root the box of every dealt composition, its cost the
    evaluations it tallies)."""

    evaluations: int
    dealt: Draws

    def settle(self, low: Draws, high: Draws, anchors: Anchors | None = None) -> list[tuple[Draws, Draws, Anchors]]:
        """A node's children (none: dropped)."""


@dataclass(frozen=True)
class Probe:
    """One walk from the root: per depth, the node's children, its evaluations and seconds. ``width``: the open
    boxes of a proof under way that the walk's first box was drawn from (1: the root's)."""

    children: tuple[int, ...]
    evaluations: tuple[int, ...]
    seconds: tuple[float, ...]
    width: int = 1

    def weighted(self, cost: tuple[float, ...] | tuple[int, ...] | None = None) -> float:
        """Knuth's estimate of the tree's total ``cost`` (per depth; default one per node)."""
        total, width = 0.0, self.width
        for d, b in enumerate(self.children):
            total += width * (1 if cost is None else cost[d])
            width *= b
        return total


@dataclass(frozen=True)
class Estimate:
    """Several probes' estimates of the proof's nodes, evaluations and seconds (of the machine that ran them: one
    process, its parallel kernels on every core)."""

    players: int
    probes: tuple[Probe, ...]

    def nodes(self) -> list[float]:
        """Each probe's estimate of the number of nodes."""
        return [p.weighted() for p in self.probes]

    def evaluations(self) -> list[float]:
        """Each probe's estimate of the evaluations of the other seats."""
        return [p.weighted(p.evaluations) for p in self.probes]

    def seconds(self) -> list[float]:
        """Each probe's estimate of the seconds the proof takes on the machine that ran the probes."""
        return [p.weighted(p.seconds) for p in self.probes]

    def summary(self) -> str:
        """The means, with the probes' spread."""
        def said(xs: list[float], unit: str) -> str:
            spread = f" (probes {min(xs):,.0f} to {max(xs):,.0f}" + \
                (f", standard error {stdev(xs) / len(xs) ** 0.5:,.0f})" if len(xs) > 1 else ")")
            return f"{mean(xs):,.0f} {unit}{spread}"
        hours = [s / 3600 for s in self.seconds()]
        return (f"{self.players} seats, {len(self.probes)} probes: {said(self.nodes(), 'nodes')}, "
                f"{said(self.evaluations(), 'evaluations')}, {mean(hours):,.2f} hours on this machine "
                f"(probes {min(hours):,.2f} to {max(hours):,.2f})")


def probe(search: Tree, choose: Choose, boxes: Sequence[tuple[Draws, Draws]] = ()) -> Probe:
    """One walk from the root of ``search``'s tree (its best met already set), following ``choose``; given the
    open ``boxes`` of a proof under way, from one of them (``choose`` picks it): the rest of the proof is the
    trees under them, as if they were the children of one root that costs nothing."""
    low, high = boxes[choose(len(boxes))] if boxes else (frozenset[int](), search.dealt)
    inherited: Anchors | None = None
    children, evaluations, seconds = [], [], []
    while True:
        before, start = search.evaluations, time.perf_counter()
        below = search.settle(low, high, inherited)
        children.append(len(below))
        evaluations.append(search.evaluations - before)
        seconds.append(time.perf_counter() - start)
        if not below:
            return Probe(tuple(children), tuple(evaluations), tuple(seconds), max(1, len(boxes)))
        low, high, inherited = below[choose(len(below))]


def estimate(counter: SeatCounter, players: int, pay: Fraction, start: Strategy, probes: int, seed: int = 0,
             progress: Callable[[str], None] | None = None, boxes: Sequence[tuple[Draws, Draws]] = ()) -> Estimate:
    """``probes`` random walks of the proof's tree for ``players`` seats, from the best met ``start``; given the
    open ``boxes`` of a proof under way (a checkpoint's), of what is left of it. Each probe has a search of its
    own, so that no evaluation one probe kept makes another's look cheap."""
    rng = random.Random(seed)
    walks = []
    for k in range(probes):
        search = CommonSearch(counter, players, pay)
        first: Draws = frozenset(i for i in search.dealt if start.matrix[COMPOSITIONS[i]])
        search.best = (search.value(first), first)
        search.evaluations = 0
        walks.append(probe(search, rng.randrange, boxes))
        if progress is not None:
            progress(f"proof estimate: probe {k + 1} of {probes}, depth {len(walks[-1].children)}")
    return Estimate(players, tuple(walks))
