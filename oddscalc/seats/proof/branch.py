"""The branch and bound behind the best common strategy of the house game's seats (run by ``search``).

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

Quadratic. Summing each D_i's worst case takes every pair of free compositions at its worst
independently, so the value bound is loose where many are free. Telescoping A(S) from L instead,
A(S) = A(L) + sum over i in S - L of d_i(T_i) with L <= T_i <= H - i, and K(S) = K(L) + sum of G_j, so V
is at most a quadratic in the free compositions whose pair terms are the most G_j . d_i can be over d_i's
range (from H down, the same with its own linear terms). ``quadratic`` gives its maxima, overall and
with each composition drawn or stood; a side whose maximum does not beat the best met is dropped, which
fixes that composition. On 8 decks with four seats this halves the tree (139 nodes and 335 evaluations
to 65 and 181; the whole seats command 5.7 minutes).

Blends. V(S) is at most both quadratics at S, so at most any weighted mean of them. Each side is tight near its
own end and loose near the other, where the other side is tight, so a mean's maximum can lie well below both
maxima: with y_i = 1 - x_i the H side is a quadratic in x too, and the means weighted k : 8 - k (k = 1..7) are
bounded as the sides are, then (a mean's maximum being convex in the weight) twice more finely around the
least. With seven seats this drops boxes of 28 free compositions that either side alone bounds above the best
met.

Linear. Both quadratics take A(S) - A(L) as a sum of every free composition's d_i at its worst, which where many
are free is far beyond A(H) - A(L), what it is on the whole box. ``linear`` bounds each term of
V(S) = K(L) . A(S) + sum of G_j . A(S) (and from H) at its most over A(H) <= A(S) <= A(L), entry by entry: a
bound linear in the free compositions, in exact integers, with exact maxima. It is looser than the quadratics
on narrow boxes; with seven seats on 8 decks it bounds the box of 40 free compositions 1029 units (of 1e58)
above the best met of 4358, where the quadratics' least was 3991 above.

Pairs. On the L side the term K(L) . d_i(T_i) is the loosest: d_i's range over the box is as wide as every
other free composition drawn at once could make it. Telescoping in index order, T_i is L and the free j < i
that S draws on, and d_i(T_i) - d_i(L) counts the sequences passing at L, but not at T_i, in which a seat
holding i draws high: each has a seat holding such a j draw high too, so it is at most the sum over those j of
e_ij(L) = d_i(L + j) - d_i(L) >= 0. And e_ij(L) is at most the ordered pairs of seats times the sequences in
which two given seats hold i and j and draw high and the rest pass at L: the level of the other seats but
two, which the evaluation of L counts on its way up (``anchors.pair_taken``). So K(L)+ . d_i(T_i) is at most
K(L)+ . d_i(L) plus, for each such j, a pair term min(K(L)+ . e_ij(L), K(L)+ . (d_i's top - d_i(L))). With
four seats on 8 decks this takes the tree from 65 nodes and 181 evaluations to 37 and 97; the pair sums
(4.5 s for 946 pairs) cost about what the evaluations saved there, and less as evaluations grow dearer with
more seats.

The search is depth first: at each node the compositions the bounds settle are fixed, a node whose
value bound does not beat the best strategy met is dropped, and the rest is split. On a cluster the
tree is settled breadth first to a frontier of open boxes, which workers search apart (each from the
best met when it was sent). Every strategy evaluated on the way (L, H, L + i, H - i) is offered as
the best met. Nothing dropped beats it, so the result is a best common strategy of all 2^44 (if tied,
the first met; apart, the first box's). Run here, the search keeps a stack of open boxes, which with the best
met is all it needs to go on: a checkpoint file keeps them after every node (``proof_checkpoint``), so a proof
of hours survives being stopped. Values are exact integers; the bounds computed in float64 are
rounded outward with a stated margin. Compositions that no deal from the shoe can give never occur,
and stand.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from oddscalc.games.house_baccarat.count import LOSS, WIN, SeatCounter, class_rows, six_index, slot_orderings
from oddscalc.games.house_baccarat.others import CLASSES
from oddscalc.games.house_baccarat.strategy import TOTAL
from oddscalc.games.shoe import VALUES, Multisets
from oddscalc.seats.proof import quadratic
from oddscalc.seats.proof.anchors import TERMS, Taken, pair_taken, rows_and_taken
from oddscalc.seats.proof.blends import BLENDS, REFINED, Sides, blend, in_x, least, rounded_bound, sides_and_means
from oddscalc.seats.search import Draws, cumulative, dealt, gain_terms, on_cumulative, strategy_of

# other seats' cumulative counts kept at once: an entry is 5005 x 12 Python ints (a few MB); a node
# reads its own box's and its parent's
_KEPT = 256
_TAKEN = 16  # an evaluation's anchors, up to 40 MB each: a node reads its two ends'


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
    runs: int = 1  # with a checkpoint: the runs that worked on the proof, this one included
    seconds: float = 0.0  # with a checkpoint: the time they spent
    left: float = 1.0  # the share of the strategies in the open boxes, for progress

    by_levels: bool | None = None  # the anchors read off the ends' evaluations (default: on a finite shoe)
    terms: int = TERMS  # of the inclusion-exclusion those anchors keep (``anchors``)
    quadratic_bound: bool = True  # bound the box by ``quadratic`` too
    pair_bound: bool = True  # by levels, bound the quadratic's L side through pairs of compositions (``_pairs``)
    blends: int = BLENDS  # bound the box by the means of the two sides' quadratics too, weighted k : blends - k
    linear_bound: bool = True  # bound the box by ``linear`` too
    _kept: OrderedDict[Draws, np.ndarray] = field(default_factory=OrderedDict)
    _taken: OrderedDict[Draws, Taken] = field(default_factory=OrderedDict)

    def __post_init__(self) -> None:
        r = self.counter.rules
        if self.by_levels is None:
            self.by_levels = not r.infinite
        elif self.by_levels and r.infinite:
            raise ValueError("an infinite shoe has no levels to read anchors off")
        u = slot_orderings(r.house_tableau, r.all_stand).astype(object)  # (4, 10, 2, 715, 12)
        ev = u[WIN] * self.pay.numerator - u[LOSS] * self.pay.denominator
        weight = Multisets.of_size(6).weights(r.shoe, r.infinite)
        six = six_index()
        stood = np.zeros((len(weight), CLASSES), dtype=object)
        for a in range(VALUES):  # your naturals, and every composition stood: K(never)
            for b in range(VALUES):
                np.add.at(stood, six[a, b], ev[TOTAL[a, b], 0] * weight[six[a, b]][:, None])
        self.never = on_cumulative(stood)
        # G_i lives on the multisets holding composition i's two cards (distinct: the two cards added to every
        # four-card multiset); there it is the gain seat_search bounds
        self.at, self.switch = gain_terms(self.counter, self.pay)
        self._signed = {i: (np.maximum(g, 0).astype(np.float64), np.maximum(-g, 0).astype(np.float64))
                        for i, g in enumerate(self.switch)}
        self.dealt = dealt(self.counter, self.at)

    def counts(self, draws: Draws) -> np.ndarray:
        """A(draws): the other seats' cumulative counts when they draw on ``draws``."""
        if draws in self._kept:
            self._kept.move_to_end(draws)
            return self._kept[draws]
        r = self.counter.rules
        self.evaluations += 1
        return self._keep(draws, cumulative(class_rows(r.shoe, self.players, strategy_of(draws, "searched"),
                                                       r.infinite)))

    def _keep(self, draws: Draws, counts: np.ndarray) -> np.ndarray:
        self._kept[draws] = counts
        if len(self._kept) > _KEPT:
            self._kept.popitem(last=False)
        return counts

    def taken(self, draws: Draws, asked: frozenset[int]) -> Taken:
        """The bounds of ``anchors.Taken`` for ``asked`` from the evaluation of ``draws`` (and A(draws) with them)."""
        have = self._taken.get(draws)
        if have is None or not asked <= have.compositions:
            self.evaluations += 1
            want = asked | (have.compositions if have is not None else frozenset())
            rows, self._taken[draws] = rows_and_taken(self.counter.rules.shoe.counts, self.players - 1, draws, want,
                                                      self.terms)
            self._keep(draws, cumulative(np.asarray(rows, dtype=object)))
            if len(self._taken) > _TAKEN:
                self._taken.popitem(last=False)
        self._taken.move_to_end(draws)
        return self._taken[draws]

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
        d_i(low), d_i(high - i) they used (by levels, float bounds below and above them). Given an enclosing
        box's ``anchors`` (valid here by the lemma), only low and high are evaluated, and D_i's exact value at
        low is bounded instead. By levels, the box's own anchors come with its two ends, and ``anchors`` is not
        used."""
        if self.by_levels:
            return self._level_increments(low, high)
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

    def _level_increments(self, low: Draws, high: Draws) -> tuple[int, int, dict[int, tuple[int, int]], Anchors]:
        """``increments`` with the anchors ``anchors.Taken`` reads off the two ends' evaluations: the same bounds
        as from an enclosing box's, but with A(S + i) read no higher than A(L) + d_i(L)'s upper bound. They are
        taken in float64 with a margin: 1e-9 of the magnitudes each bound adds (its rounding is below 1e-11
        of them: at most 60,060 products of numbers each within 2^-52 of the real it stands for), plus one."""
        free = high - low
        t_low, t_high = self.taken(low, free), self.taken(high, free)
        a_low, a_high = self.counts(low), self.counts(high)
        k_low, k_high = self.coefficients(low), self.coefficients(high)
        v_low, v_high = _dot(k_low, a_low), _dot(k_high, a_high)
        self.offer(low, v_low)
        self.offer(high, v_high)
        f_low, f_high, f_k = (np.asarray(x, dtype=np.float64) for x in (a_low, a_high, k_low))
        pos_k, neg_k = np.maximum(f_k, 0), np.maximum(-f_k, 0)
        pos_g, neg_g = np.zeros_like(f_k), np.zeros_like(f_k)
        for j in free:
            pos_g[self.at[j]] += self._signed[j][0]
            neg_g[self.at[j]] += self._signed[j][1]
        out, ranges = {}, {}
        for i in free:
            at, (pos_i, neg_i) = self.at[i], self._signed[i]
            d_low, d_high, least = t_low.most(i), t_high.beyond(i), t_low.least(i)
            ranges[i] = (d_low, d_high)
            up = (f_low + least + 1e-12 * (f_low - least))[at]  # A(L + i) at most, its two roundings included
            down = f_high[at]
            taken = -d_low  # what the other free switches can lose to d_i
            out[i] = (rounded_bound([(pos_i, down), (-neg_i, up), (pos_k, d_low), (-neg_k, d_high), (-taken, pos_g),
                              (taken[at], pos_i)], up=False),
                      rounded_bound([(pos_i, up), (-neg_i, down), (pos_k, d_high), (-neg_k, d_low), (taken, neg_g),
                              (-taken[at], neg_i)], up=True))
        return v_low, v_high, out, ranges

    def quadratic(self, low: Draws, high: Draws, ranges: Anchors, v_low: int, v_high: int, best: int | None = None
                  ) -> tuple[int, dict[int, tuple[int, int]]]:
        """The most V takes on the box, and for every free composition the most with it stood and with it
        drawn: the maxima of a quadratic that is at least V everywhere on the box (``quadratic``), or where
        they are no more than ``best``, a number no more than it.

        With x_i = 1 when S draws on free composition i, K(S) = K(L) + sum x_j G_j and, telescoping from L,
        A(S) = A(L) + sum x_i d_i(T_i) with L <= T_i <= H - i, so every d_i(T_i) lies in ``ranges[i]``. Then

            V(S) <= V(L) + sum_i x_i [G_i . A(L) + max K(L) . d_i] + sum_{i,j} x_i x_j max G_j . d_i,

        each max over d_i's range (entry by entry: positive parts against its top, negative ones against its
        bottom). From H down, with y_i = 1 - x_i, the same with V(H), -G_i . A(H) and max -K(H) . d_i. Each
        coefficient is rounded up to a whole multiple of a quantum 2^-40 of their magnitudes, so the
        quadratic is summed in int64 exactly and stays an upper bound. The means of the two (``sides_and_means``) are
        bounded the same way, and every maximum is the least any of them gives."""
        free = sorted(high - low)
        lows = np.stack([np.asarray(ranges[i][0], dtype=np.float64) for i in free])
        highs = np.stack([np.asarray(ranges[i][1], dtype=np.float64) for i in free])
        pair = np.zeros((len(free), len(free)), dtype=object)
        for b, j in enumerate(free):  # max G_j . d_i, for every i at once: G_j lives on j's multisets
            pos, neg = self._signed[j]
            pair[:, b] = [rounded_bound([(pos, h), (-neg, lo)], up=True)
                          for h, lo in zip(highs[:, self.at[j]], lows[:, self.at[j]], strict=True)]
        sides = []
        for end, value, sign in ((low, v_low, 1), (high, v_high, -1)):
            a, k = (np.asarray(x, dtype=np.float64) for x in (self.counts(end), self.coefficients(end)))
            pos_k, neg_k = np.maximum(sign * k, 0), np.maximum(-sign * k, 0)  # of K(L), or of -K(H)
            linear = [rounded_bound([(sign * (self._signed[i][0] - self._signed[i][1]), a[self.at[i]]),
                              (pos_k, highs[b]), (-neg_k, lows[b])], up=True) + pair[b, b]
                      for b, i in enumerate(free)]
            w = pair + pair.T
            if sign == 1 and self.pair_bound and self.by_levels:
                linear, extra = self._pairs(low, free, pos_k, neg_k, a, lows, highs, pair)
                w = w + extra
            np.fill_diagonal(w, 0)
            sides.append((value, linear, w))
        found: list[Sides] = []

        def bounded(value: int, linear: list[int], w: np.ndarray, flip: bool, scale: int) -> int:
            """The quadratic's maximum over 1 / ``scale`` (and each variable's sides, kept in ``found``)."""
            size = sum(abs(int(x)) for x in linear) + sum(abs(int(x)) for x in w.flat) // 2
            q = max(1, size >> 40)
            floor = None if best is None else max(-(1 << 60), min((scale * best - value) // q, 1 << 60))
            most = quadratic.most(np.array([-(-int(x) // q) for x in linear], dtype=np.int64),
                                  np.array([[-(-int(x) // q) for x in row] for row in w], dtype=np.int64), floor)
            each = [-(-(value + int(m) * q) // scale) for m in most.flat]  # row b: its variable at 0, at 1
            # from the top the variable set means stood
            found.append({i: (each[2 * b + 1], each[2 * b]) if flip else (each[2 * b], each[2 * b + 1])
                          for b, i in enumerate(free)})
            return -(-(value + int(most.max()) * q) // scale)

        quads = sides_and_means(sides, self.blends)
        # by the L side's weight: the H side is 0, the L side 1
        tops = {Fraction(1): bounded(*quads[0]), Fraction(0): bounded(*quads[1])}
        tops.update((Fraction(k, self.blends), bounded(*quad)) for k, quad in enumerate(quads[2:], start=1))
        if self.blends > 1:  # a mean's maximum is convex in the weight: look around the least one more finely
            from_l, from_h = sides[0], in_x(sides[1])
            step = Fraction(1, self.blends)
            for _ in range(REFINED):
                step /= 2
                centre = min(tops, key=lambda t: tops[t])
                for t in (centre - step, centre + step):
                    if 0 < t < 1 and t not in tops:
                        tops[t] = bounded(*blend(from_l, from_h, t.numerator, t.denominator))
        return min(tops.values()), least(found)

    def _bound_box(self, low: Draws, high: Draws, ranges: Anchors, v_low: int, v_high: int
                   ) -> tuple[int, Sides]:
        """The least of the linear and quadratic bounds asked for, overall and with each free composition stood
        or drawn (the quadratic's only where the linear bound leaves something that may beat the best met)."""
        found = [self.linear(low, high, v_low, v_high)] if self.linear_bound else []
        if self.quadratic_bound and (not found or found[0][0] > self.best[0]):
            found.append(self.quadratic(low, high, ranges, v_low, v_high, self.best[0]))
        return min(t for t, _ in found), least([s for _, s in found])

    def linear(self, low: Draws, high: Draws, v_low: int, v_high: int) -> tuple[int, Sides]:
        """The most V takes on the box, and for every free composition the most with it stood and with it drawn, by
        two bounds linear in the free compositions, in exact integers: the least either gives.

        With D = A(L) - A(H) >= 0 and A(H) <= A(S) <= A(L) entry by entry, each term of
        V(S) = K(L) . A(S) + sum over j in S - L of G_j . A(S) is at most its largest over that range:

            V(S) <= V(L) + K(L)- . D + sum_{j in S - L} (G_j . A(L) + G_j- . D),

        and from H, V(S) = K(H) . A(S) - sum over j in H - S of G_j . A(S), so

            V(S) <= V(H) + K(H)+ . D + sum_{j in H - S} (G_j- . D - G_j . A(H)).

        Each is a constant and a term per free composition, so its maxima are exact (why it helps: the module's
        "Linear")."""
        free = sorted(high - low)
        a_low, a_high = self.counts(low), self.counts(high)
        spread = a_low - a_high
        tops, found = [], []
        for end, value, a, sign in ((low, v_low, a_low, 1), (high, v_high, a_high, -1)):
            k = self.coefficients(end)
            constant = value + _dot(_positive(-sign * k), spread)
            terms = {i: sign * _dot(self.switch[i], a[self.at[i]])  # a free composition's most, drawn from L or
                     + _dot(_positive(-self.switch[i]), spread[self.at[i]]) for i in free}  # stood from H
            top = constant + sum(max(0, t) for t in terms.values())
            tops.append(top)
            rest = {i: top - max(0, t) for i, t in terms.items()}  # with i taken out, then put back drawn or stood
            found.append({i: (rest[i], rest[i] + t) if sign == 1 else (rest[i] + t, rest[i]) for i, t in terms.items()})
        return min(tops), least(found)

    def _pairs(self, low: Draws, free: list[int], pos_k: np.ndarray, neg_k: np.ndarray, a: np.ndarray,
               lows: np.ndarray, highs: np.ndarray, pair: np.ndarray) -> tuple[list[int], np.ndarray]:
        """The L side's linear terms and added pair terms when K(L) . d_i(T_i) is bounded through the pairs:
        telescoping in index order, T_i = L + the free j < i that S draws on, and d_i(T_i) <= d_i(L) + sum of
        e_ij(L) over them (each sequence counted there has some seat holding j draw high), so K(L)+ . d_i(T_i) is
        at most K(L)+ . d_i(L)'s top plus, for each such j, min(K(L)+ . e_ij(L)'s top, K(L)+ . (d_i's top over
        the box - d_i(L)'s top)): no more than the range's top alone, however many j are drawn."""
        t_low = self.taken(low, frozenset(free))
        least = [np.asarray(t_low.least(i), dtype=np.float64) for i in free]
        linear = [rounded_bound([((self._signed[i][0] - self._signed[i][1]), a[self.at[i]]), (pos_k, least[b]),
                          (-neg_k, lows[b])], up=True) + pair[b, b] for b, i in enumerate(free)]
        extra = np.zeros((len(free), len(free)), dtype=object)
        if t_low.pairs is None or len(free) < 2:
            return linear, extra
        below = [(b, c) for b in range(len(free)) for c in range(b)]  # j = free[c] before i = free[b]
        took = pair_taken(t_low.pairs, [(free[b], free[c]) for b, c in below], pos_k)
        caps = [rounded_bound([(pos_k, highs[b] - least[b])], up=True) for b in range(len(free))]
        for (b, c), t in zip(below, took, strict=True):
            extra[b, c] = extra[c, b] = max(0, min(math.ceil(t), caps[b]))
        return linear, extra

    def settle(self, low: Draws, high: Draws, anchors: Anchors | None = None) -> list[tuple[Draws, Draws, Anchors]]:
        """One node: fix what the bounds settle in the box of strategies that draw on ``low``, stand outside
        ``high`` and do either between, and give its two halves (the best met's side first) with the anchors
        they may inherit, or none when nothing in it can beat the best met. ``anchors`` from an enclosing box
        are tried first, and the node evaluates its own only when they decide nothing."""
        self.nodes += 1
        while True:
            if self.progress is not None:
                self.progress(f"best common strategy: node {self.nodes}, {len(high - low)} free, "
                              f"{self.evaluations} evaluations, {self.left:.4%} of the strategies open")
            v_low, v_high, bounds, used = self.increments(low, high, anchors)
            top = min(v_low + sum(max(0, hi) for _, hi in bounds.values()),
                      v_high + sum(max(0, -lo) for lo, _ in bounds.values()))
            if top <= self.best[0]:
                return []  # nothing in the box beats the best met
            draw = frozenset(i for i, (lo, _) in bounds.items() if lo > 0)
            stand = frozenset(i for i, (_, hi) in bounds.items() if hi < 0)
            if bounds and (self.quadratic_bound or self.linear_bound):
                top, side = self._bound_box(low, high, used, v_low, v_high)
                if (top <= self.best[0] or draw & {i for i, (_, d) in side.items() if d <= self.best[0]}
                        or stand & {i for i, (s, _) in side.items() if s <= self.best[0]}):
                    return []  # nothing beats the best met, or every best of the box plays i where none can
                draw |= {i for i, (s, _) in side.items() if s <= self.best[0]}  # standing there cannot beat it
                stand |= {i for i, (_, d) in side.items() if d <= self.best[0]}
            if not draw and not stand:
                if anchors is None:
                    break
                anchors = None  # the enclosing box's anchors decide nothing more: this box's own
                continue
            low, high = low | draw, high - stand
            anchors = used
        split = max(bounds, key=lambda i: bounds[i][1] - bounds[i][0])
        children = [(low | {split}, high, used), (low, high - {split}, used)]
        return children if split in self.best[1] else children[::-1]

    def visit(self, low: Draws, high: Draws, anchors: Anchors | None = None) -> None:
        """Search the box between ``low`` and ``high`` depth first (``settle`` at every node)."""
        self.run([(low, high, anchors)])

    def run(self, open_: list[tuple[Draws, Draws, Anchors | None]],
            after: Callable[[Sequence[tuple[Draws, Draws, Anchors | None]]], None] | None = None) -> None:
        """Search the stack of boxes ``open_`` depth first, the last first, and ``after`` every node tell it
        the boxes still open: with the best met they hold all that is left to search (``proof_checkpoint``)."""
        while open_:
            self.left = sum(1 << len(high - low) for low, high, _ in open_) / (1 << len(self.dealt))
            open_ += self.settle(*open_.pop())[::-1]
            if after is not None:
                after(open_)

    def frontier(self, low: Draws, high: Draws, boxes: int) -> list[tuple[Draws, Draws]]:
        """Settle the box between ``low`` and ``high`` breadth first until at least ``boxes`` boxes are open (or
        none is), and give them: together they hold every strategy of the box that can beat the best met."""
        open_: list[tuple[Draws, Draws, Anchors | None]] = [(low, high, None)]
        while open_ and len(open_) < boxes:
            low, high, anchors = open_.pop(0)
            open_ += self.settle(low, high, anchors)
        return [(low, high) for low, high, _ in open_]
