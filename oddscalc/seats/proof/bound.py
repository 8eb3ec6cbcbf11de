"""What a proof under way already proves: an upper bound on the best common strategy's value.

Counting argument. A proof of the best common strategy (``common_search``) keeps the best strategy met and
a stack of open boxes; every strategy outside them was dropped because the bounds showed it does not beat
the best met. So the best of all 2^44 is the best met, or a strategy of an open box, and

    best met  <=  V(best)  <=  max(best met, max over open boxes of the most V takes on the box).

The most V takes on a box is bounded as a node of the search bounds it, from the two evaluations at its ends
(``CommonSearch.increments``): V(L) plus every free composition's greatest increment, V(H) less every
least one, and the maximum of the quadratic (``CommonSearch.quadratic``), whichever is lowest. Each is at
least every strategy's value in the box. A composition whose least increment over the box is positive is
drawn on by every strategy of the box that gives its most (else drawing on it too would give more), and
one whose greatest is negative is stood on: the box's most is then that of the smaller box they leave,
bounded again from its own ends until nothing more is fixed, and the least of these bounds is kept. So the
interval holds the best common strategy's exact value whatever the rest of the proof finds; it narrows as
the proof closes boxes, to the best met when none is left. Reading a checkpoint's interval costs two
evaluations of the other seats per open box and per round of fixing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from oddscalc.seats.proof.branch import CommonSearch
from oddscalc.seats.search import Draws


@dataclass(frozen=True)
class Bound:
    """A proof's interval: the best met's value, and no strategy above ``upper``; per open box, its bound."""

    best: int
    upper: int
    boxes: tuple[tuple[Draws, Draws, int], ...]  # (low, high, the most V takes on the box)


def box_bound(search: CommonSearch, low: Draws, high: Draws) -> int:
    """A number no less than V(S) for every strategy S that draws on ``low`` and stands outside ``high``."""
    # settle's bounds, written again without the best met: settle also drops boxes and fixes compositions against
    # it, and moving this into common_search would change the code every proof under way is checkpointed against
    top: int | None = None
    while True:
        v_low, v_high, bounds, used = search.increments(low, high)
        here = min(v_low + sum(max(0, hi) for _, hi in bounds.values()),
                   v_high + sum(max(0, -lo) for lo, _ in bounds.values()))
        if search.quadratic_bound and bounds:
            here = min(here, search.quadratic(low, high, used, v_low, v_high)[0])
        top = here if top is None else min(top, here)
        # every strategy of the box gains by drawing on these and by standing on those, so each of its best does:
        # the box's most is its sub-box's, bounded again from that sub-box's own ends
        draw = frozenset(i for i, (lo, _) in bounds.items() if lo > 0)
        stand = frozenset(i for i, (_, hi) in bounds.items() if hi < 0)
        if not draw and not stand:
            return top
        low, high = low | draw, high - stand


def bound(search: CommonSearch, best: int, boxes: Sequence[tuple[Draws, Draws]],
          progress: Callable[[str], None] | None = None) -> Bound:
    """The interval of a proof whose best met is worth ``best`` and whose open boxes are ``boxes``."""
    found = []
    for k, (low, high) in enumerate(boxes):
        if progress is not None:
            progress(f"open box {k + 1} of {len(boxes)}, {len(high - low)} free")
        found.append((low, high, box_bound(search, low, high)))
    return Bound(best, max([best, *(b for _, _, b in found)]), tuple(found))
