"""The best common strategy of the house game's seats, proven: the branch and bound (``branch``) run here or on a
cluster (open boxes searched apart), resumable from a checkpoint (``checkpoint``).

The method and its counting argument are ``branch``'s docstring. A proof's checkpoint records the digest of this
module's code and everything it imports (``checkpoint.SEARCH``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from oddscalc.cache import Store
from oddscalc.games.house_baccarat.count import HouseBaccaratRules, SeatCounter, round_total
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS, Strategy
from oddscalc.protocol import Game
from oddscalc.seats.proof.branch import Anchors, CommonSearch
from oddscalc.seats.proof.checkpoint import Box, Checkpoint, CheckpointError, State
from oddscalc.seats.search import Draws, strategy_of

Job = tuple[HouseBaccaratRules, Game[Any, Any], int, Fraction, bool, Draws, Draws, tuple[int, Draws]]
Found = tuple[tuple[int, Draws], int, int]  # a box's best met, its nodes, its evaluations
Runner = Callable[[Callable[[Job], Found], Sequence[Job]], list[Found]]


def _subtree(job: Job) -> Found:
    """One open box searched on a worker, from the best met when it was sent: the best it met, the nodes, the
    evaluations."""
    rules, game, players, pay, by_levels, low, high, best = job
    search = CommonSearch(SeatCounter(rules, Store(None), game), players, pay, by_levels=by_levels)
    search.best = best
    search.visit(low, high)
    return search.best, search.nodes, search.evaluations


@dataclass(frozen=True)
class Apart:
    """Where the open boxes are searched: ``runner`` (a cluster's mapper) maps them, at least ``boxes`` of them
    (a few per worker, so that a long box does not leave the others idle for long)."""

    runner: Runner
    boxes: int


@dataclass(frozen=True)
class Proof:
    """How a proof of the best common strategy runs: here, or with its boxes searched ``apart``; here, its
    state kept in a ``checkpoint`` file after every node, from which a stopped run resumes (one another version
    of the search wrote, only to ``take_over`` it)."""

    apart: Apart | None = None
    checkpoint: Path | None = None
    take_over: bool = False  # go on from a checkpoint another version of the search wrote (``resume``)


def problem(rules: HouseBaccaratRules, players: int, pay: Fraction) -> dict[str, Any]:
    """What a proof of the best common strategy proves, as a checkpoint records it."""
    unit = round_total(rules.shoe, players, rules.infinite) * pay.denominator  # a value / unit is an EV per unit bet
    return {"proof": "best common strategy", **rules.count_key(), "players": players, "pay": str(pay),
            "unit": str(unit)}


def fits(dealt: Draws, state: State, path: Path) -> None:
    """Refuse a ``state`` whose compositions, best met or open boxes are not of the shoe that deals ``dealt``:
    a proof's first box is every composition the shoe can deal, and all it keeps lies within it."""
    if state.compositions != len(dealt) or not state.best[1] <= dealt or not all(high <= dealt
                                                                                for _, high in state.open):
        raise CheckpointError(f"checkpoint {path}: its compositions are not the {len(dealt)} its shoe deals; "
                              "delete it to start the proof over")


def vouch(search: CommonSearch, state: State, path: Path, taking_over: bool = False) -> int:
    """The value of ``state``'s best met, re-derived by ``search`` (one evaluation), refused unless the file gives
    the same and its boxes and compositions are those the shoe deals: a file is signed by its own sha256, which
    anyone can recompute, so that its figures are this search's only once re-derived. A version ``taking_over``
    that values it otherwise is told so (it must start over, or finish with the version that wrote it)."""
    fits(search.dealt, state, path)
    value = search.value(state.best[1])
    if value != state.best[0]:
        if taking_over:
            raise CheckpointError(f"checkpoint {path}: this version of the search values its best met at {value}, "
                                  f"the version that wrote it at {state.best[0]}; it cannot take the proof over: "
                                  "start it over, or finish it with that version")
        raise CheckpointError(f"checkpoint {path}: its best met is worth {value} on the shoe it names, not the "
                              f"{state.best[0]} it says (edited, or another search's); delete it to start the proof "
                              "over")
    return value


def resume(search: CommonSearch, kept: Checkpoint, take_over: bool = False) -> State | None:
    """The state ``kept`` keeps for ``search``'s problem, or None when there is none yet. One under way that
    another version of the search wrote is refused, or with ``take_over`` taken over; any is refused unless this
    version values its best met exactly as the file does (``vouch``: one evaluation; a version that counts
    otherwise must start over)."""
    elsewhere = take_over and kept.under_way_elsewhere()
    state = kept.load(take_over)
    if state is not None:
        vouch(search, state, kept.path, elsewhere)
    return state


def begin(search: CommonSearch, start: Strategy, kept: Checkpoint | None = None, take_over: bool = False
          ) -> tuple[State | None, list[Box]]:
    """Set ``search`` going: from ``start`` as the first best met with the whole first box open, or from the state
    ``kept`` keeps (``resume``), its tallies and runs carried on. The state read (None for a new proof) and the
    open boxes, the next one last."""
    state = None if kept is None else resume(search, kept, take_over)
    if state is None:
        first = frozenset(i for i in search.dealt if start.matrix[COMPOSITIONS[i]])
        search.best = (search.value(first), first)
        return None, [(frozenset(), search.dealt)]
    search.best, search.nodes, search.evaluations = state.best, state.nodes, state.evaluations
    search.runs, search.seconds = state.runs + (not state.done), state.seconds
    return state, list(state.open)


def saver(search: CommonSearch, kept: Checkpoint, state: State | None) -> Callable[[Sequence[Box]], State]:
    """Write ``search``'s state with the boxes given as open into ``kept``, its seconds counting on from ``state``'s
    (whose earlier versions it keeps naming); the state written."""
    began, before = time.perf_counter(), search.seconds
    earlier = () if state is None else state.earlier

    def save(boxes: Sequence[Box]) -> State:
        search.seconds = before + time.perf_counter() - began
        written = State(search.best, tuple(boxes), search.nodes, search.evaluations, search.seconds, search.runs,
                        len(search.dealt), earlier)
        kept.save(written)
        return written

    return save


def best_common(counter: SeatCounter, players: int, pay: Fraction, start: Strategy,
                progress: Callable[[str], None] | None = None, by_levels: bool | None = None,
                apart: Apart | None = None, checkpoint: Path | None = None, take_over: bool = False
                ) -> tuple[Strategy, Fraction, CommonSearch]:
    """The strategy giving each of ``players`` seats the most when all play it (over all 2^44), its EV per
    unit, and the search. ``start`` is the first best met (a good one prunes early); ``by_levels`` as
    :class:`CommonSearch`. ``apart``, the tree is settled here breadth first to its number of open boxes,
    which are searched apart and the best of their bests kept; the search's tallies then count every node
    and evaluation. ``checkpoint`` (not with ``apart``), the proof's state is kept in that file after every
    node and a run resumes from it (``proof_checkpoint``; another version's only to ``take_over`` it, ``resume``):
    ``start`` is then not used, and the search's tallies, ``runs`` and ``seconds`` count every run's."""
    search = CommonSearch(counter, players, pay, progress, by_levels=by_levels)
    kept = None if checkpoint is None else Checkpoint(checkpoint, problem(counter.rules, players, pay))
    state, boxes = begin(search, start, kept, take_over)
    open_: list[tuple[Draws, Draws, Anchors | None]] = [(low, high, None) for low, high in boxes]
    if kept is not None:
        if apart is not None:
            raise ValueError("a checkpoint keeps a search run here, not one spread over a cluster")
        save = saver(search, kept, state)

        def after(left: Sequence[tuple[Draws, Draws, Anchors | None]]) -> None:
            save([(low, high) for low, high, _ in left])

        if state is None or not state.done:  # a finished proof is read as it was written, maybe by another version
            save(boxes)
            search.run(open_, after)
    elif apart is None:
        search.run(open_)
    else:
        jobs = [(counter.rules, counter.game, players, pay, bool(search.by_levels), low, high, search.best)
                for low, high in search.frontier(frozenset(), search.dealt, apart.boxes)]
        for best, nodes, evaluations in apart.runner(_subtree, jobs):
            search.offer(best[1], best[0])
            search.nodes += nodes
            search.evaluations += evaluations
    value, drawn = search.best
    total = round_total(counter.rules.shoe, players, counter.rules.infinite)
    return strategy_of(drawn, "best common"), Fraction(value, total * pay.denominator), search
