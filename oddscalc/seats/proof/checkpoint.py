"""A long proof's state kept in a file, so that a stopped run resumes where it stopped.

Between two nodes, the depth-first search of ``common_search`` holds the best strategy met and a stack of
open boxes, which together hold every strategy that can beat it: nothing else it has seen is needed to
finish. So that pair, with the tallies, is the whole state. A run that loads it searches the same remaining
boxes in the same order and ends on the same best strategy; the boxes lose only the anchors they would have
inherited from their parents, which on an infinite shoe saves evaluations and on a finite one is not used.

The state is written atomically after every node (a stopped run, even killed, loses one node at most),
with the time it was written (UTC, to the second: a finished proof's date, which a file's mtime is not after a copy
or a clone; files from before it have none),
under a header holding the sha256 of the rest, with the problem it is a proof of (the shoe, the house's
rules, the seats, the pay) and the digest of the code that wrote it: the contents of every package file the search
runs or may run (``replay.closure`` of ``SEARCH``; by content only, so a file moved with its bytes unchanged keeps
the digest), so that a proof of days survives changes to the reports or the other games, and no change to its
bounds. A file that is damaged, of another problem or written by other
code is refused with a message saying which, never used: boxes settled by other bounds are not this code's
proof. A finished proof of other code is read, as that version's record: there is nothing left to resume.

The header is no signature: anyone can edit the body and recompute its sha256. So a file larger than any proof's
state is refused unread (``MAX_BYTES``), every field of the state read is checked for its type and range, and its
open boxes for lying apart as a search leaves them; and its figures are derived again on the shoe it names before
a run goes on from them or reports them (``search.vouch``; ``oddscalc proof``: ``cli.seats``).

Unless asked to take it over (``take_over``): a proof of days must not pin its code for days, so another
version may go on from the open boxes, and the file then names every version that worked on it, with its
tallies and the share of the strategies it left open (``Handed``). The boxes each version closed stay that
version's; before going on, the taker must value the best met exactly as the file does (``common_search``).
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
import math
import re
import stat
from collections.abc import Sequence
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
# A real checkpoint is a few kilobytes (proofs/: 1 and 2): a box is at most 2 x 44 indices (under 400 bytes), a run
# here keeps at most 45 open (a node splits one box in two on one of 44 compositions) and a cluster a few per
# worker and what each leaves; a version handing it over adds 250 bytes. 16 MiB holds 40,000 of the largest boxes,
# far past any run, yet its JSON parses in seconds and a fraction of the memory a file as large as the disk (or a
# sparse one of a terabyte) would take: such a file is refused by its size, unread.
MAX_BYTES = 16 << 20
_HEX = re.compile(r"[0-9a-f]{64}")
_INTEGER = re.compile(r"-?[0-9]{1,400}")  # a value in the search's units; Python's int() takes " 1_0 " and others
_SHARE = re.compile(r"[0-9]{1,40}(/[0-9]{1,40})?")  # no exponent: Fraction("1e999999999") would build that number
WRITTEN = "%Y-%m-%dT%H:%M:%SZ"  # the time a file was written, in UTC
_WRITTEN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_PROBLEM_KEYS = 64
_PROBLEM_TEXT = 1000


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
    that spent them, the earlier versions of the search that handed it over, and, as read from a file, when it
    was written (None for a state not read, or a file from before checkpoints recorded it; ``save`` writes the
    time it writes)."""

    best: tuple[int, Draws]
    open: tuple[Box, ...]
    nodes: int
    evaluations: int
    seconds: float
    runs: int
    compositions: int = len(COMPOSITIONS)  # the first box's free compositions (those the shoe can deal)
    earlier: tuple[Handed, ...] = ()  # the versions that worked on it before the one that wrote it, first first
    written: datetime.datetime | None = None

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
    if not isinstance(x, list) or not all(_whole(i) and 0 <= i < len(COMPOSITIONS) for i in x):
        raise TypeError("a set of compositions is a list of their indices")
    return frozenset(x)


def _whole(x: Any) -> bool:
    """Whether ``x`` is a JSON integer: a bool is an int to Python, and a float with no fraction is not one."""
    return isinstance(x, int) and not isinstance(x, bool)


def _count(x: Any, what: str) -> int:
    if not _whole(x) or x < 0:
        raise TypeError(f"{what} is {_shown(x)}, not a whole number of at least 0")
    return int(x)


def _seconds(x: Any, what: str) -> float:
    if not (_whole(x) or isinstance(x, float)) or not math.isfinite(x) or x < 0:
        raise TypeError(f"{what} is {_shown(x)}, not a number of seconds of at least 0")
    return float(x)


def _share(x: Any, what: str) -> Fraction:
    if not isinstance(x, str) or not _SHARE.fullmatch(x):
        raise TypeError(f"{what} is {_shown(x)}, not a fraction such as 9027/32768")
    share = Fraction(x)  # a zero denominator raises ZeroDivisionError, refused with the rest
    if share > 1:
        raise ValueError(f"{what} is {x}, more than all the strategies")
    return share


def _written(x: Any) -> datetime.datetime | None:
    if x is None:  # a file from before checkpoints recorded when they were written
        return None
    if not isinstance(x, str) or not _WRITTEN.fullmatch(x):
        raise TypeError(f"its time written is {_shown(x)}, not a UTC time such as 2026-12-05T20:02:11Z")
    return datetime.datetime.strptime(x, WRITTEN).replace(tzinfo=datetime.UTC)  # ValueError for a 30 February


def _shown(x: Any) -> str:
    """A value read from the file, for a message: short whatever the file holds."""
    text = json.dumps(x) if not isinstance(x, (dict, list)) else type(x).__name__
    return text if len(text) <= 40 else f"{text[:40]}..."


def _problem(x: Any) -> dict[str, Any]:
    """The problem a file names, refused unless it is a short mapping of short values: it is compared with this
    run's and printed by ``oddscalc proof``, and a file may be hostile."""
    if not isinstance(x, dict) or len(x) > _PROBLEM_KEYS:
        raise TypeError("its problem is not a short mapping")
    for key, value in x.items():
        items = value if isinstance(value, list) else [value]
        if len(key) > _PROBLEM_TEXT or len(items) > _PROBLEM_KEYS or not all(
                isinstance(v, (bool, int, str)) and len(str(v)) <= _PROBLEM_TEXT for v in items):
            raise TypeError(f"its problem's {_shown(key)} is not a short value or list of them")
    return x


def _apart(boxes: Sequence[Box]) -> bool:
    """Whether the boxes lie apart as a search leaves them: any two or more are split in two by a composition each
    fixes, drawn on in some and stood on in the others, as the search's own splits split them (the two ends of
    the common ancestor's split). Then no strategy lies in two boxes. Boxes from anything else (a box repeated,
    two overlapping) are refused. Each split fixes a composition for good: under 44 passes over the boxes."""
    every = (1 << len(COMPOSITIONS)) - 1
    bits = [(sum(1 << i for i in low), sum(1 << i for i in high)) for low, high in boxes]
    todo = [bits]
    while todo:
        group = todo.pop()
        if len(group) < 2:
            continue
        fixed, drawn, stood = every, 0, 0
        for low, high in group:
            fixed &= low | (every & ~high)
            drawn |= low
            stood |= every & ~high
        split = fixed & drawn & stood
        if not split:
            return False
        bit = split & -split
        todo += [[b for b in group if b[0] & bit], [b for b in group if not b[0] & bit]]
    return True


def _state(kept: Any) -> tuple[dict[str, Any], str, State]:
    """The problem, code digest and state of a file's JSON, every field checked for its type and range."""
    if not isinstance(kept, dict):
        raise TypeError("it is not a mapping")
    theirs, code = _problem(kept["problem"]), kept["code"]
    if not isinstance(code, str) or not _HEX.fullmatch(code):
        raise TypeError("its code is not a digest")
    best = kept["best"]
    if not isinstance(best, dict) or not isinstance(best["value"], str) or not _INTEGER.fullmatch(best["value"]):
        raise TypeError("its best met has no value in the search's units")
    compositions = kept.get("compositions", len(COMPOSITIONS))
    if not _whole(compositions) or not 1 <= compositions <= len(COMPOSITIONS):
        raise ValueError(f"compositions is {_shown(compositions)}, not 1 to {len(COMPOSITIONS)}")
    if not isinstance(kept["open"], list) or not all(isinstance(b, list) and len(b) == 2 for b in kept["open"]):
        raise TypeError("its open boxes are not pairs of sets of compositions")
    boxes = tuple((_draws(low), _draws(high)) for low, high in kept["open"])
    if not all(low <= high for low, high in boxes):
        raise TypeError("a box's low end must lie in its high end")
    if not _apart(boxes):
        raise ValueError("its open boxes are not apart (a box repeats or two overlap): not a search's")
    earlier = kept.get("earlier", [])
    if not isinstance(earlier, list) or not all(isinstance(h, dict) for h in earlier):
        raise TypeError("its earlier versions are not a list of mappings")
    handed = []
    for h in earlier:
        if not isinstance(h["code"], str) or not _HEX.fullmatch(h["code"]):
            raise TypeError("an earlier version's code is not a digest")
        handed.append(Handed(h["code"], _count(h["nodes"], "an earlier version's nodes"),
                             _count(h["evaluations"], "an earlier version's evaluations"),
                             _seconds(h["seconds"], "an earlier version's seconds"),
                             _count(h["runs"], "an earlier version's runs"),
                             _share(h["left"], "an earlier share left")))
    state = State((int(best["value"]), _draws(best["draws"])), boxes, _count(kept["nodes"], "nodes"),
                  _count(kept["evaluations"], "evaluations"), _seconds(kept["seconds"], "seconds"),
                  _count(kept["runs"], "runs"), compositions, tuple(handed), _written(kept.get("written")))
    if state.left > 1:
        raise ValueError(f"its open boxes hold {float(state.left):.4%} of the 2^{compositions} strategies")
    return theirs, code, state


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
            st = self.path.stat()
            if not stat.S_ISREG(st.st_mode):  # a FIFO would hang the read, a device never end
                raise self._refuse("not a regular file")
            if st.st_size > MAX_BYTES:  # a sparse terabyte reads forever: refused unread
                raise self._refuse(f"{st.st_size:,} bytes, more than any proof's state ({MAX_BYTES >> 20} MiB at "
                                   "most): not a checkpoint")
            with self.path.open("rb") as f:
                blob = f.read(MAX_BYTES + 1)
        except FileNotFoundError:
            return None
        except OSError as e:
            raise self._refuse(f"cannot be read ({e.strerror or e})") from None
        if len(blob) > MAX_BYTES:  # grew since its size was read
            raise self._refuse(f"more than any proof's state ({MAX_BYTES >> 20} MiB at most): not a checkpoint")
        head, _, body = blob.partition(b"\n")
        if head != f"{MAGIC} {hashlib.sha256(body).hexdigest()}".encode():
            raise self._refuse("not a whole checkpoint of this format (damaged, cut short or edited); "
                               "delete it to start the proof over")
        try:
            return _state(json.loads(body))
        except RecursionError:
            raise self._refuse("its state is nested too deep to be a proof's; delete it to start the proof "
                               "over") from None
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
            "written": datetime.datetime.now(datetime.UTC).strftime(WRITTEN),
        }, sort_keys=True).encode()
        try:
            write_atomic(self.path, [f"{MAGIC} {hashlib.sha256(body).hexdigest()}\n".encode(), body])
        except OSError as e:
            raise self._refuse(f"cannot be written ({e.strerror or e})") from None
