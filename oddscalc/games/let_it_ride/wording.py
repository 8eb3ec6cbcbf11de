"""Let It Ride's strategy as a strategy card words it: holdings grouped by shape, with the exceptions.

Works on the suit-permutation classes of three- and four-card holdings (1,755 and 16,432 on 52
cards) with their sizes: the decision and the wording are the same for every member of a class.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from oddscalc.cards import RANK_CHARS, Deck, rank_name, rank_of, suit_of
from oddscalc.games.let_it_ride.holdings import straights
from oddscalc.results import Cell, Column, Section


@functools.cache
def _windows(deck: Deck) -> tuple[tuple[int, frozenset[int]], ...]:
    """The straights the deck can make (``ride_holdings.straights``) as (lowest rank, its five ranks)."""
    return tuple((low, frozenset(r for r in range(13) if mask >> r & 1)) for mask, low in straights(deck))


def _sf_shape(ranks: list[int], deck: Deck) -> tuple[int, int] | None:
    """(spread, lowest) of the best straight window the ranks fit in, or None if none fits."""
    best: tuple[int, int] | None = None
    for low, window in _windows(deck):
        if set(ranks) <= window:
            lo = [(-1 if r == 12 and low == -1 else r) for r in ranks]
            spread = max(lo) - min(lo) + 1
            if best is None or spread < best[0]:
                best = (spread, low)
    return best


def describe(cards: Sequence[int], min_rank: int, deck: Deck) -> str:
    """Group a three- or four-card holding the way strategy cards are written."""
    ranks = sorted(rank_of(c) for c in cards)
    counts = sorted(Counter(ranks).values(), reverse=True)
    suited = len({suit_of(c) for c in cards}) == 1
    high = sum(r >= min_rank for r in ranks)
    hi_txt = f"{high} high card{'s' if high != 1 else ''}"
    n = len(cards)
    n_txt = {3: "three", 4: "four"}.get(n, str(n))
    if counts[0] == 4:
        return "four of a kind"
    if counts[0] == 3:
        return "three of a kind"
    if counts[0] == 2:
        if counts[1] == 2:
            return "two pair"
        pr = max(r for r in ranks if ranks.count(r) == 2)
        return f"pair of {rank_name(pr, True)}" + (" (pays)" if pr >= min_rank else "")
    shape = _sf_shape(ranks, deck)
    if suited and shape is not None:
        if min(ranks) >= 8 and any(low == 8 for low, _ in _windows(deck)):  # part of a royal flush the deck makes
            return f"{n_txt} to a royal flush"
        return f"{n_txt} to a straight flush, spread {shape[0]}, {hi_txt}"
    if n == 4 and suited:
        return "four to a flush"
    if n == 4 and shape is not None:
        # open-ended: two straights of the deck hold the four (on a reduced deck a run may end at its lowest rank)
        outside = sum(set(ranks) <= window for _, window in _windows(deck)) == 2
        return f"four to an {'outside' if outside else 'inside'} straight, {hi_txt}"
    return f"no pair, {hi_txt}"


@dataclass
class _Group:
    ride: int = 0
    zero: int = 0  # holdings whose EV is exactly zero (either choice gives the same EV)
    total: int = 0
    best: tuple[int, ...] = ()
    patterns: dict[str, list[int]] = field(default_factory=dict)  # rank pattern -> [ride, total]

    def decision(self) -> str:
        if self.ride == self.total:
            return "ride" + (" (EV exactly 0)" if self.zero == self.total else "")
        if self.ride == 0:
            return "pull back" + (" (EV exactly 0)" if self.zero == self.total else "")
        rides = sorted(p for p, (r, t) in self.patterns.items() if r == t)
        pulls = sorted(p for p, (r, t) in self.patterns.items() if r == 0)
        if len(pulls) <= len(rides):
            return "ride, except " + ", ".join(pulls[:12]) + (" ..." if len(pulls) > 12 else "")
        return "pull back, except " + ", ".join(rides[:12]) + (" ..." if len(rides) > 12 else "")


def _pattern(cards: Sequence[int]) -> str:
    ranks = sorted((rank_of(c) for c in cards), reverse=True)
    suited = len({suit_of(c) for c in cards}) == 1
    return "".join(RANK_CHARS[r] for r in ranks) + ("s" if suited else "")


def _groups(reps: np.ndarray, weights: np.ndarray, rides: np.ndarray, zeros: np.ndarray, deck: Deck,
            min_rank: int) -> list[tuple[str, _Group]]:
    """Every category of n-card holdings with how many ride, riders first.

    A holding's wording depends on its ranks and whether it is suited only, so each distinct
    (ranks, suited) is worded once and the suit classes are tallied into its words by index.
    """
    reps = reps.astype(np.int64)
    n = reps.shape[1]
    ranks = -np.sort(-(reps >> 2), axis=1)  # high to low
    suited = (reps & 3 == (reps[:, :1] & 3)).all(axis=1)
    code = ranks @ (13 ** np.arange(n - 1, -1, -1)) * 2 + suited  # orders like the ranks, high card first
    kinds, kind_of = np.unique(code, return_inverse=True)
    words, pattern = [], []
    for i in np.unique(kind_of, return_index=True)[1].tolist():  # one representative of each kind
        rep = reps[i].tolist()
        words.append(describe(rep, min_rank, deck))
        pattern.append(_pattern(rep))
    names = sorted(set(words))
    group_of_kind = np.array([names.index(w) for w in words], dtype=np.int64)
    group = group_of_kind[kind_of]
    w = np.asarray(weights, dtype=np.int64)
    per = {k: np.bincount(group, weights=x, minlength=len(names)).astype(np.int64)
           for k, x in (("ride", w * rides), ("zero", w * zeros), ("total", w))}
    kind_ride = np.bincount(kind_of, weights=w * rides, minlength=len(kinds)).astype(np.int64)
    kind_total = np.bincount(kind_of, weights=w, minlength=len(kinds)).astype(np.int64)
    groups = {name: _Group(int(per["ride"][g]), int(per["zero"][g]), int(per["total"][g]))
              for g, name in enumerate(names)}
    for k in np.argsort(kinds).tolist():  # ascending codes: the last one seen is a group's best ranks
        g = groups[names[group_of_kind[k]]]
        g.best = max(g.best, tuple(int(x) for x in _ranks_of(int(kinds[k]), n)))
        pt = g.patterns.setdefault(pattern[k], [0, 0])
        pt[0] += int(kind_ride[k])
        pt[1] += int(kind_total[k])
    rows = list(groups.items())
    rows.sort(key=lambda kv: (-Fraction(kv[1].ride, kv[1].total), tuple(-x for x in kv[1].best), kv[0]))
    return rows


def _ranks_of(code: int, n: int) -> list[int]:
    """The ranks, high to low, of a kind's code."""
    code //= 2
    return [code // 13 ** (n - 1 - i) % 13 for i in range(n)]


def strategy_section(section_id: str, title: str, reps: np.ndarray, weights: np.ndarray, ride: np.ndarray,
                     sums: np.ndarray, deck: Deck, min_rank: int, ride_on_zero: bool) -> Section:
    """The decisions on the suit classes ``reps`` of holdings as a strategy card: one row per kind of holding."""
    groups = _groups(reps, weights, ride.astype(np.int64), (sums == 0).astype(np.int64), deck, min_rank)
    total_ride, total = int(weights[ride].sum()), int(weights.sum())
    zero = sum(g.zero for _, g in groups)
    intro = [f"{total_ride:,} of {total:,} holdings let the bet ride."]
    if zero:
        intro.append(f"{zero:,} holdings have an expected value of exactly zero on this bet; they are "
                     + ("let ride (table rule ride_on_zero)." if ride_on_zero else
                        "pulled back (same EV, lower stake; set ride_on_zero to ride them)."))
    rows: list[tuple[Cell, ...]] = [(cat, g.ride, g.total, g.zero, g.decision()) for cat, g in groups]
    return Section(section_id, title,
                   (Column("holding", "Holding"), Column("ride", "Let it ride", "int"), Column("of", "Of", "int"),
                    Column("ev_zero", "EV exactly 0", "int"), Column("decision", "Decision")),
                   tuple(rows), intro=tuple(intro),
                   notes=("Rank patterns read high to low; a trailing s means suited.",))
