"""The best common strategy of the house game's seats, at any table size, proven by branch and bound.

Counting argument. When every seat plays S (draw or stand per two-card composition), your value is
V(S) = K(S) . A(S): A(S) are the other seats' cumulative class counts for every multiset of your six
slots (``seat_search``), and K(S) your seat's coefficients on them, for your own play S and your
naturals, in units of 1 / the pay's denominator. Adding composition i to S changes V by

    D_i(S) = V(S + i) - V(S) = G_i . A(S + i) + K(S) . d_i(S),

where G_i = K(S + i) - K(S) is your own switch on i and d_i(S) = A(S + i) - A(S) <= 0.

Lemma. For one card sequence of the other seats, d_i(S) removes from A_k(S) the sequences where a
seat holding i draws a third card above k - 2. Those lie in A_k(S), which only shrinks as S grows, so
for L <= S <= H - i: d_i(L) <= d_i(S) <= d_i(H - i) <= 0 entry by entry (as seat_search's lemma,
A(H) <= A(S) <= A(L)).

So on the box of strategies between L and H, D_i(S) is its exact value at L, from evaluations of L
and L + i, plus three terms bounded entry by entry:

- your own switch read at A(S + i) instead of A(L + i), which lies between A(H) and A(L + i);
- your other free compositions' switches, sum over l in S - L of G_l . d_i(S), d_i(S) in [d_i(L), 0];
- K(L) . (d_i(S) - d_i(L)), between 0 and d_i(H - i) - d_i(L): what the other seats' draws
  already take from i's.

The last two are second order (a card sequence counted there involves two compositions), so the
bounds tighten as the box narrows. If every D_i on the box is positive, every best strategy of the
box draws on i (adding i to any strategy without it gains); if every one is negative, it stands. And
V(S) <= V(L) + sum over free i of max(0, the most D_i can be), telescoping from L (or from H down).

Anchors. The bounds above cost two evaluations per free composition (L + i, H - i). By the lemma, the
d_i(L') and d_i(H' - i) of an enclosing box L' <= L <= H <= H' also bound d_i(S) on the box, so a
node first tries its parent's anchors, with A(S + i) read anywhere between A(H) and A(L): two
evaluations (L and H). Only when those decide nothing does the node evaluate its own anchors. On
8 decks with three seats this halves the evaluations (1112 to 661) on the same tree.

The search is depth first: at each node the compositions the bounds settle are fixed, a node whose
value bound does not beat the best strategy met is dropped, and the rest is split. Every strategy
evaluated on the way (L, H, L + i, H - i) is offered as the best met. Nothing dropped beats it, so
the result is a best common strategy of all 2^44 (the first met, if tied). Everything is in exact
integers. Compositions that no deal from the shoe can give never occur, and stand.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .house_baccarat import (
    _TOTAL,
    COMPOSITIONS,
    LOSS,
    WIN,
    SeatCounter,
    Strategy,
    _six_index,
    _slot_orderings,
    class_rows,
    round_total,
)
from .seat_search import Draws, _on_cumulative, cumulative, dealt, gain_terms, strategy_of
from .seats import CLASSES
from .shoe import VALUES, Multisets

# other seats' cumulative counts kept at once: an entry is 5005 x 12 Python ints (a few MB); a node
# reads its own box's and its parent's
_KEPT = 256


Anchors = dict[int, tuple[np.ndarray, np.ndarray]]  # per free composition i: d_i at a box's low end, at high - i


def _positive(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.maximum(x, 0)
    return out


def _dot(x: np.ndarray, y: np.ndarray) -> int:
    return int((x * y).sum())


@dataclass
class CommonSearch:
    """One branch and bound: your coefficients, the other seats' counts by draw set, the best met, the tallies."""

    counter: SeatCounter
    players: int
    pay: Fraction
    progress: Callable[[str], None] | None = None
    evaluations: int = 0
    nodes: int = 0
    best: tuple[int, Draws] = (0, frozenset())

    _kept: OrderedDict[Draws, np.ndarray] = field(default_factory=OrderedDict)

    def __post_init__(self) -> None:
        r = self.counter.rules
        u = _slot_orderings(r.house_tableau, r.all_stand).astype(object)  # (4, 10, 2, 715, 12)
        ev = u[WIN] * self.pay.numerator - u[LOSS] * self.pay.denominator
        weight = Multisets.of_size(6).weights(r.shoe, r.infinite)
        six = _six_index()
        stood = np.zeros((len(weight), CLASSES), dtype=object)
        for a in range(VALUES):  # your naturals, and every composition stood: K(never)
            for b in range(VALUES):
                np.add.at(stood, six[a, b], ev[_TOTAL[a, b], 0] * weight[six[a, b]][:, None])
        self.never = _on_cumulative(stood)
        # G_i lives on the multisets holding composition i's two cards (distinct: the two cards added to every
        # four-card multiset); there it is the gain seat_search bounds
        self.at, self.switch = gain_terms(self.counter, self.pay)
        self.dealt = dealt(self.counter, self.at)

    def counts(self, draws: Draws) -> np.ndarray:
        """A(draws): the other seats' cumulative counts when they draw on ``draws``."""
        if draws in self._kept:
            self._kept.move_to_end(draws)
            return self._kept[draws]
        r = self.counter.rules
        self.evaluations += 1
        out = cumulative(class_rows(r.shoe, self.players, strategy_of(draws, "searched"), r.infinite))
        self._kept[draws] = out
        if len(self._kept) > _KEPT:
            self._kept.popitem(last=False)
        return out

    def coefficients(self, draws: Draws) -> np.ndarray:
        """K(draws): your seat's coefficients when you draw on ``draws``."""
        out = np.array(self.never)
        for i in draws:
            out[self.at[i]] += self.switch[i]
        return out

    def value(self, draws: Draws) -> int:
        """V(draws): your seat's value when every seat draws on ``draws``."""
        return _dot(self.coefficients(draws), self.counts(draws))

    def offer(self, draws: Draws, value: int) -> None:
        """Keep ``draws`` as the best met if it beats it."""
        if value > self.best[0]:
            self.best = (value, draws)

    def increments(self, low: Draws, high: Draws, anchors: Anchors | None = None
                   ) -> tuple[int, int, dict[int, tuple[int, int]], Anchors]:
        """V(low), V(high), the least and greatest D_i over the box for every free composition, and the anchors
        d_i(low), d_i(high - i) they used. Given an enclosing box's ``anchors`` (valid here by the lemma), only
        low and high are evaluated, and D_i's exact value at low is bounded instead."""
        free = high - low
        a_low, a_high = self.counts(low), self.counts(high)
        k_low, k_high = self.coefficients(low), self.coefficients(high)
        v_low, v_high = _dot(k_low, a_low), _dot(k_high, a_high)
        self.offer(low, v_low)
        self.offer(high, v_high)
        pos_g, neg_g = np.zeros_like(k_low), np.zeros_like(k_low)  # every free switch's parts of each sign
        for j in free:
            pos_g[self.at[j]] += _positive(self.switch[j])
            neg_g[self.at[j]] += _positive(-self.switch[j])
        pos_k, neg_k = _positive(k_low), _positive(-k_low)
        out, made = {}, {}
        for i in free:
            at, g = self.at[i], self.switch[i]
            pos_i, neg_i = _positive(g), _positive(-g)
            if anchors is None:
                a_up, a_down = self.counts(low | {i}), self.counts(high - {i})
                d_low = a_up - a_low  # d_i(L)
                d_high = a_high - a_down  # d_i(H - i), at least d_i(L)
                made[i] = (d_low, d_high)
                exact = _dot(g, a_up[at]) + _dot(k_low, d_low)
                self.offer(low | {i}, v_low + exact)
                self.offer(high - {i}, _dot(k_high, a_down) - _dot(g, a_down[at]))
                own = a_up[at] - a_high[at]  # your own switch read anywhere from A(H) to A(L + i)
                spread = d_high - d_low
                lo = exact - _dot(own, pos_i) - _dot(spread, neg_k)
                hi = exact + _dot(own, neg_i) + _dot(spread, pos_k)
            else:
                d_low, d_high = anchors[i]  # d_i(S) lies between them for every S of this box
                lo = (_dot(pos_i, a_high[at]) - _dot(neg_i, a_low[at]) + _dot(pos_k, d_low) - _dot(neg_k, d_high))
                hi = (_dot(pos_i, a_low[at]) - _dot(neg_i, a_high[at]) + _dot(pos_k, d_high) - _dot(neg_k, d_low))
            taken = -d_low  # what the other free switches can lose to d_i
            lo -= _dot(taken, pos_g) - _dot(taken[at], pos_i)
            hi += _dot(taken, neg_g) - _dot(taken[at], neg_i)
            out[i] = (lo, hi)
        return v_low, v_high, out, (made if anchors is None else anchors)

    def visit(self, low: Draws, high: Draws, anchors: Anchors | None = None) -> None:
        """Search the strategies that draw on ``low``, stand outside ``high`` and do either between; ``anchors``
        from an enclosing box are tried first, and a node evaluates its own only when they decide nothing."""
        self.nodes += 1
        while True:
            if self.progress is not None:
                self.progress(f"best common strategy: node {self.nodes}, {len(high - low)} free, "
                              f"{self.evaluations} evaluations")
            v_low, v_high, bounds, used = self.increments(low, high, anchors)
            top = min(v_low + sum(max(0, hi) for _, hi in bounds.values()),
                      v_high + sum(max(0, -lo) for lo, _ in bounds.values()))
            if top <= self.best[0]:
                return  # nothing in the box beats the best met
            draw = frozenset(i for i, (lo, _) in bounds.items() if lo > 0)
            stand = frozenset(i for i, (_, hi) in bounds.items() if hi < 0)
            if not draw and not stand:
                if anchors is None:
                    break
                anchors = None  # the enclosing box's anchors decide nothing more: this box's own
                continue
            low, high = low | draw, high - stand
            anchors = used
        split = max(bounds, key=lambda i: bounds[i][1] - bounds[i][0])
        children = [(low | {split}, high), (low, high - {split})]  # the best met's side first
        for child in children if split in self.best[1] else children[::-1]:
            self.visit(*child, used)


def best_common(counter: SeatCounter, players: int, pay: Fraction, start: Strategy,
                progress: Callable[[str], None] | None = None) -> tuple[Strategy, Fraction, CommonSearch]:
    """The strategy giving each of ``players`` seats the most when all play it (over all 2^44), its EV per
    unit, and the search. ``start`` is the first best met (a good one prunes early)."""
    search = CommonSearch(counter, players, pay, progress)
    first = frozenset(i for i in search.dealt if start.matrix[COMPOSITIONS[i]])
    search.best = (search.value(first), first)
    search.visit(frozenset(), search.dealt)
    value, drawn = search.best
    total = round_total(counter.rules.shoe, players, counter.rules.infinite)
    return strategy_of(drawn, "best common"), Fraction(value, total * pay.denominator), search
