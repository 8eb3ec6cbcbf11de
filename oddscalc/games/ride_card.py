"""Let It Ride's strategy as a strategy card words it: holdings grouped by shape, with the exceptions.

Walks the suit-permutation classes of three- and four-card holdings (1,755 and 16,432 on 52
cards) with their weights: the decision and the wording are the same for every member of a class.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..cards import RANK_CHARS, Deck, rank_name, rank_of, suit_of
from ..hands import colex_indices
from ..results import Cell, Column, Section
from ..symmetry import suit_classes


def _sf_shape(ranks: list[int], deck_ranks: frozenset[int]) -> tuple[int, int] | None:
    """(spread, lowest) of the best straight window the ranks fit in, or None if none fits."""
    best: tuple[int, int] | None = None
    for low in range(-1, 9):  # low = -1 is the wheel window A-2-3-4-5
        window = {12 if r == -1 else r for r in range(low, low + 5)}
        if not window <= deck_ranks:  # a straight the deck cannot complete
            continue
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
    dr = frozenset(deck.ranks)
    if counts[0] == 4:
        return "four of a kind"
    if counts[0] == 3:
        return "three of a kind"
    if counts[0] == 2:
        if counts[1] == 2:
            return "two pair"
        pr = max(r for r in ranks if ranks.count(r) == 2)
        return f"pair of {rank_name(pr, True)}" + (" (pays)" if pr >= min_rank else "")
    shape = _sf_shape(ranks, dr)
    if suited and shape is not None:
        if min(ranks) >= 8 and max(ranks) == 12 and 8 in dr:
            return f"{n_txt} to a royal flush"
        return f"{n_txt} to a straight flush, spread {shape[0]}, {hi_txt}"
    if n == 4 and suited:
        return "four to a flush"
    if n == 4 and shape is not None:
        outside = shape[0] == 4 and 12 not in ranks
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


def _groups(n: int, ride: np.ndarray, sums: np.ndarray, deck: Deck, min_rank: int) -> list[tuple[str, _Group]]:
    """Every category of n-card holdings with how many ride, riders first."""
    pos_of = np.full(52, -1, dtype=np.int64)
    pos_of[list(deck.cards)] = np.arange(deck.size)
    reps, weights = suit_classes(n, deck)
    index = colex_indices(np.sort(pos_of[reps.astype(np.int64)], axis=1))
    rides, zeros = ride[index].astype(np.int64), (sums[index] == 0).astype(np.int64)
    groups: dict[str, _Group] = {}
    for rep, w, r, z in zip(reps.tolist(), weights.tolist(), rides.tolist(), zeros.tolist()):
        g = groups.setdefault(describe(rep, min_rank, deck), _Group())
        g.ride += w * r
        g.zero += w * z
        g.total += w
        g.best = max(g.best, tuple(sorted((rank_of(c) for c in rep), reverse=True)))
        pt = g.patterns.setdefault(_pattern(rep), [0, 0])
        pt[0] += w * r
        pt[1] += w
    rows = list(groups.items())
    rows.sort(key=lambda kv: (-Fraction(kv[1].ride, kv[1].total), tuple(-x for x in kv[1].best), kv[0]))
    return rows


def strategy_section(section_id: str, title: str, n: int, ride: np.ndarray, sums: np.ndarray, deck: Deck,
                     min_rank: int, ride_on_zero: bool) -> Section:
    """The decisions on n-card holdings as a strategy card: one row per kind of holding."""
    groups = _groups(n, ride, sums, deck, min_rank)
    total_ride, total = int(ride.sum()), len(ride)
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
