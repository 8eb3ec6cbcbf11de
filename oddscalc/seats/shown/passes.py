"""Seat k's class rows (``shown_chain.class_rows``) in passes that fit in memory, in process or on a cluster.

Counting argument. The rows R[m][c][sigma][f] are linear in what each level carries below it, and the
sight c and the final class f are only carried: the seats before k write c out at the last of them,
the seats after k write f out at theirs, and every level above just adds those rows. So the rows for
a set of sights and a set of final classes are counted alone, with that much less carried at every
level, and the passes over a partition of the twelve classes on each axis put together every row
once. The figures do not depend on the passes, only the memory and the time: each pass repeats the
work that does not depend on the classes kept (the seats' moves and where their cards lead).

A pass's memory is estimated from the number of card multisets at each level (the coefficients of
the shoe's generating polynomial), the classes each level carries, and whether it is counted
exactly or modulo every prime; the fewest passes whose largest estimate fits the budget are run.
The budget is ``ODDSCALC_MEMORY_GB`` gigabytes, else half of this machine's memory: the estimate is
within a quarter of what was measured, either way.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from oddscalc.games.house_baccarat.others import CLASSES
from oddscalc.games.shoe import Shoe, falling
from oddscalc.protocol import OptionError
from oddscalc.seats.shown.chain import ALL, Mods, class_rows

__all__ = ["HERE", "Pass", "Spread", "budget", "plan", "rows"]

ENV = "ODDSCALC_MEMORY_GB"
_GROUPS = (12, 6, 4, 3, 2, 1)
_WORD = 8


@dataclass(frozen=True)
class Pass:
    """The sights and final classes one pass keeps, and its estimated memory in bytes."""

    sights: tuple[int, ...]
    finals: tuple[int, ...]
    bytes: int


def budget() -> int:
    """The memory a pass may take, in bytes: ``ODDSCALC_MEMORY_GB``, else half the machine's memory."""
    stated = os.environ.get(ENV)
    if stated is not None:
        try:
            gb = float(stated)
        except ValueError:
            raise OptionError(f"{ENV}={stated!r}: give the gigabytes a pass may take, e.g. 8") from None
        if not (math.isfinite(gb) and gb > 0):
            raise OptionError(f"{ENV}={stated!r}: give a positive number of gigabytes")
        return int(gb * 2**30)
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2


def _held(counts: Sequence[int], top: int) -> list[int]:
    """How many multisets of 0..``top`` cards the shoe holds (its generating polynomial's coefficients)."""
    poly = [1] + [0] * top
    for c in counts:
        nxt = [0] * (top + 1)
        for i, a in enumerate(poly):
            if a:
                for j in range(min(c, top - i) + 1):
                    nxt[i + j] += a
        poly = nxt
    return poly


def _levels(players: int, k: int, wc: int, wf: int) -> list[tuple[int, int, int]]:
    """(depth, entries per multiset, seats counted from there down) of every level of seat ``k``'s count, the
    sights kept ``wc`` and the final classes ``wf`` wide (as ``shown_chain._rows`` counts them)."""
    before, later = k, players - 1 - k
    if not later:
        return [(j, CLASSES * wc, before - j) for j in range(before)]
    if not before:
        return [(j, CLASSES * wf, later - j) for j in range(later)]
    if before == 1:
        return [(0, wc * CLASSES * wf, players - 1)] + [(j, CLASSES * wf, later + 1 - j) for j in range(1, later + 1)]
    if later == 1:
        return [(0, CLASSES * wf * wc, players - 1)] + [(j, CLASSES * wc, before + 1 - j) for j in range(1, before + 1)]
    return ([(j, CLASSES * wf * wc, later - j + before) for j in range(later)]
            + [(j, CLASSES * wc, before - (j - later)) for j in range(later, later + before)])


def estimate(shoe: Shoe, players: int, k: int, primes: int, wc: int, wf: int) -> int:
    """Bytes at the widest level of a pass: a level lives with the one below it and with the sums over the third
    card, taken at the multisets two cards below it. The arrays only: seat 1 of six on 8 decks in two passes
    took 14.4 GB, estimated 11.9; seat 3 of five in one, 8.8 GB, estimated 10.5."""
    held = _held(shoe.counts, 6 + 3 * players + 2)
    n_top = shoe.size - 6

    def size(low: int, high: int, entries: int, seats: int) -> int:
        copies = 1 if falling(n_top, 3 * seats) < 2**63 else primes + 2  # residues, and the two exact halves
        return sum(held[low:high + 1]) * entries * copies * _WORD

    levels = _levels(players, k, wc, wf)
    need = 0
    for i, (depth, entries, seats) in enumerate(levels):
        here = size(6 + 2 * depth, 6 + 3 * depth, entries, seats)
        if i + 1 < len(levels):
            _, below, under = levels[i + 1]
            here += size(8 + 2 * depth, 9 + 3 * depth, below, under)  # the level below
            here += size(8 + 2 * depth, 8 + 3 * depth, below, under)  # its sums over the third card
        need = max(need, here)
    return need


def _split(width: int) -> list[tuple[int, ...]]:
    return [tuple(ALL[i:i + width]) for i in range(0, CLASSES, width)]


def plan(shoe: Shoe, players: int, k: int, primes: int, limit: int | None = None) -> list[Pass]:
    """The fewest passes for seat ``k`` (0-based) of ``players`` whose estimated memory fits ``limit`` (default
    ``budget()``); only an axis some level carries is split."""
    limit = budget() if limit is None else limit
    before, later = k, players - 1 - k
    c_groups = _GROUPS if before else (CLASSES,)
    f_groups = _GROUPS if later else (CLASSES,)
    options = sorted(((math.ceil(CLASSES / gc) * math.ceil(CLASSES / gf), gc, gf)
                      for gc in c_groups for gf in f_groups), key=lambda t: (t[0], -t[1]))
    for _, gc, gf in options:
        need = estimate(shoe, players, k, primes, gc, gf)
        if need <= limit:
            return [Pass(cs, fs, need) for cs in _split(gc) for fs in _split(gf)]
    least = estimate(shoe, players, k, primes, 1 if before else CLASSES, 1 if later else CLASSES)
    raise OptionError(f"third cards shown, seat {k + 1} of {players}: a pass needs about {_size(least)} even one "
                      f"class at a time, over the {_size(limit)} a pass may take ({ENV}, shared by a local "
                      "cluster's workers); run it on a machine with more memory, or fewer seats")


def _size(n: int) -> str:
    return f"{n / 2**30:.1f} GB" if n >= 2**29 else f"{n / 2**20:.1f} MB"


Runner = Callable[[Callable[[tuple[object, ...]], tuple[Mods, list[np.ndarray]]], Sequence[tuple[object, ...]]],
                  list[tuple[Mods, list[np.ndarray]]]]


@dataclass(frozen=True)
class Spread:
    """Where a seat's passes run: mapped by ``runner`` (a cluster's mapper) or here one after another, each
    within ``limit`` bytes (default ``budget()``)."""

    runner: Runner | None = None
    limit: int | None = None


HERE = Spread()


def _one(job: tuple[object, ...]) -> tuple[Mods, list[np.ndarray]]:
    shoe, plays, k, primes, sights, finals = job
    return class_rows(shoe, plays, k, primes, sights, finals)  # type: ignore[arg-type]


def rows(shoe: Shoe, plays: Sequence[np.ndarray], k: int, primes: Sequence[int], spread: Spread = HERE,
         say: Callable[[str], None] = lambda _: None) -> tuple[Mods, list[np.ndarray]]:
    """``class_rows`` in full (5005, 12, 12, 12) per modulus, counted in ``plan``'s passes: here one after
    another, or as ``spread``'s runner maps them."""
    passes = plan(shoe, len(plays), k, len(primes), spread.limit)
    if len(passes) == 1:
        return class_rows(shoe, plays, k, primes)
    jobs = [(shoe, list(plays), k, tuple(primes), p.sights, p.finals) for p in passes]
    if spread.runner is None:
        results = []
        for i, job in enumerate(jobs, start=1):
            say(f"seat {k + 1}: pass {i} of {len(jobs)}")
            results.append(_one(job))
    else:
        say(f"seat {k + 1}: {len(jobs)} passes on the cluster")
        results = spread.runner(_one, jobs)
    mods = results[0][0]
    if any(list(m) != list(mods) for m, _ in results):
        raise AssertionError("the passes of one seat's rows were counted under different moduli")
    full = [np.zeros((len(results[0][1][0]), CLASSES, CLASSES, CLASSES), dtype=np.int64) for _ in mods]
    for p, (_, arrays) in zip(passes, results, strict=True):
        for f, a in zip(full, arrays, strict=True):
            f[:, p.sights[0]:p.sights[-1] + 1, :, p.finals[0]:p.finals[-1] + 1] = a  # each pass keeps a run
    return mods, full
