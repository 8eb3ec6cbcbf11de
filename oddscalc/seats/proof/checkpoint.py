"""A long proof's state kept in a file, so that a stopped run resumes where it stopped.

Between two nodes, the depth-first search of ``common_search`` holds the best strategy met and a stack of
open boxes, which together hold every strategy that can beat it: nothing else it has seen is needed to
finish. So that pair, with the tallies, is the whole state. A run that loads it searches the same remaining
boxes in the same order and ends on the same best strategy; the boxes lose only the anchors they would have
inherited from their parents, which on an infinite shoe saves evaluations and on a finite one is not used.

The state is written atomically after every node (a stopped run, even killed, loses one node at most),
under a header holding the sha256 of the rest, with the problem it is a proof of (the shoe, the house's
rules, the seats, the pay) and the digest of the code that wrote it: the contents of every package file the search
runs or may run (``replay.closure`` of ``SEARCH``; by content only, so a file moved with its bytes unchanged keeps
the digest), so that a proof of days survives changes to the reports or the other games, and no change to its
bounds. A file that is damaged, of another problem or written by other
code is refused with a message saying which, never used: boxes settled by other bounds are not this code's
proof. A finished proof of other code is read, as that version's record: there is nothing left to resume.

Unless asked to take it over (``take_over``): a proof of days must not pin its code for days, so another
version may go on from the open boxes, and the file then names every version that worked on it, with its
tallies and the share of the strategies it left open (``Handed``). The boxes each version closed stay that
version's; before going on, the taker must value the best met exactly as the file does (``common_search``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from oddscalc.files import write_atomic
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS
from oddscalc.replay import code_digest

Draws = frozenset[int]
Box = tuple[Draws, Draws]

MAGIC = "oddscalc proof checkpoint 1"
SEARCH = "oddscalc.seats.proof.search"  # the code a proof's state depends on: this module and what it imports


class CheckpointError(ValueError):
    """A checkpoint that cannot be used or written; the message names the file and what to do."""


@dataclass(frozen=True)
class Handed:
    """A version of the search that worked on a proof and handed it over: its code's digest, its tallies when it
    did (counted from the proof's start), and the share of the first box's strategies then still open."""

    code: str
    nodes: int
    evaluations: int
    seconds: float
    runs: int
    left: Fraction


@dataclass(frozen=True)
class State:
    """Where a proof stands: the best met (its value, in the search's units, and its draws), the boxes still
    open (the next one last), the nodes settled and evaluations made so far, the seconds spent and the runs
    that spent them, and the earlier versions of the search that handed it over."""

    best: tuple[int, Draws]
    open: tuple[Box, ...]
    nodes: int
    evaluations: int
    seconds: float
    runs: int
    compositions: int = len(COMPOSITIONS)  # the first box's free compositions (those the shoe can deal)
    earlier: tuple[Handed, ...] = ()  # the versions that worked on it before the one that wrote it, first first

    @property
    def done(self) -> bool:
        """Whether the proof is finished (no box left open)."""
        return not self.open

    @property
    def left(self) -> Fraction:
        """The share of the first box's strategies still open: the proof's progress by strategies, not by time
        (the boxes dropped first are the biggest)."""
        return Fraction(sum(1 << len(high - low) for low, high in self.open), 1 << self.compositions)


def _draws(x: Any) -> Draws:
    if not isinstance(x, list) or not all(isinstance(i, int) and 0 <= i < len(COMPOSITIONS) for i in x):
        raise TypeError("a set of compositions is a list of their indices")
    return frozenset(x)


@dataclass(frozen=True)
class Checkpoint:
    """The file at ``path`` keeping the proof of ``problem`` (a JSON-able description of what is proven)."""

    path: Path
    problem: dict[str, Any]

    def _refuse(self, why: str) -> CheckpointError:
        return CheckpointError(f"checkpoint {self.path}: {why}")

    def read(self) -> tuple[dict[str, Any], str, State] | None:
        """The problem, the code's digest and the state the file keeps, whole but not yet matched to this
        problem and code, or None when there is no file yet."""
        try:
            blob = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise self._refuse(f"cannot be read ({e.strerror or e})") from None
        head, _, body = blob.partition(b"\n")
        if head != f"{MAGIC} {hashlib.sha256(body).hexdigest()}".encode():
            raise self._refuse("not a whole checkpoint of this format (damaged, cut short or edited); "
                               "delete it to start the proof over")
        try:
            kept = json.loads(body)
            theirs, code = kept["problem"], kept["code"]
            if not isinstance(theirs, dict) or not isinstance(code, str):
                raise TypeError("its problem is not a mapping, or its code not a digest")
            best = (int(kept["best"]["value"]), _draws(kept["best"]["draws"]))
            boxes = tuple((_draws(low), _draws(high)) for low, high in kept["open"])
            if not all(low <= high for low, high in boxes):
                raise TypeError("a box's low end must lie in its high end")
            earlier = tuple(Handed(str(h["code"]), int(h["nodes"]), int(h["evaluations"]), float(h["seconds"]),
                                   int(h["runs"]), Fraction(h["left"])) for h in kept.get("earlier", []))
            return theirs, code, State(best, boxes, int(kept["nodes"]), int(kept["evaluations"]),
                                       float(kept["seconds"]), int(kept["runs"]),
                                       int(kept.get("compositions", len(COMPOSITIONS))), earlier)
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as e:
            raise self._refuse(f"its state does not read ({e}); delete it to start the proof over") from None

    def load(self, take_over: bool = False) -> State | None:
        """The state kept, or None when there is no file yet; refused unless it is this problem's, written by this
        code, or ``take_over`` it from another version (named in the state's ``earlier`` from then on)."""
        kept = self.read()
        if kept is None:
            return None
        theirs, code, state = kept
        if theirs != self.problem:
            ours = self.problem
            diff = ", ".join(f"{k} {theirs.get(k)!r} there, {ours.get(k)!r} here"
                             for k in sorted(set(theirs) | set(ours)) if theirs.get(k) != ours.get(k))
            raise self._refuse(f"a proof of another problem ({diff}); name another file")
        if code != code_digest(SEARCH) and not state.done:
            if not take_over:
                raise self._refuse("written by another version of oddscalc's search, whose boxes this code cannot "
                                   "vouch for; finish it with that version, take it over (--take-over: the file "
                                   "then names both versions), or delete it to start the proof over")
            handed = Handed(code, state.nodes, state.evaluations, state.seconds, state.runs, state.left)
            return dataclasses.replace(state, earlier=state.earlier + (handed,))
        return state  # a finished proof is read whatever version proved it: nothing is left to search

    def under_way_elsewhere(self) -> bool:
        """Whether the file keeps a proof under way written by another version of the search (one to take over)."""
        kept = self.read()
        return kept is not None and not kept[2].done and kept[1] != code_digest(SEARCH)

    def proven_here(self) -> bool:
        """Whether the file was written by this version of the search (a finished proof may be another's)."""
        kept = self.read()
        return kept is not None and kept[1] == code_digest(SEARCH)

    def save(self, state: State) -> None:
        """Replace the file with ``state`` in one step."""
        body = json.dumps({
            "problem": self.problem, "code": code_digest(SEARCH),
            "best": {"value": str(state.best[0]), "draws": sorted(state.best[1])},
            "open": [[sorted(low), sorted(high)] for low, high in state.open],
            "nodes": state.nodes, "evaluations": state.evaluations, "seconds": round(state.seconds, 3),
            "runs": state.runs, "compositions": state.compositions,
            "earlier": [{"code": h.code, "nodes": h.nodes, "evaluations": h.evaluations,
                         "seconds": round(h.seconds, 3), "runs": h.runs, "left": str(h.left)} for h in state.earlier],
        }, sort_keys=True).encode()
        try:
            write_atomic(self.path, [f"{MAGIC} {hashlib.sha256(body).hexdigest()}\n".encode(), body])
        except OSError as e:
            raise self._refuse(f"cannot be written ({e.strerror or e})") from None
