"""Every symmetric equilibrium of house baccarat's seat game, at any table size, by monotone bounds.

Counting argument. Your seat's counts are linear in the other seats' class counts: for every
multiset m of your six slots, N_k(S; m) sequences of the others' cards put the table in class k
when they play S (``house_baccarat.class_rows``). Take them cumulatively: A_0 = N_nat, and for
k >= 1, A_k counts the sequences with no other natural where nobody drew or every third card drawn
is at most k - 2. For one fixed card sequence, drawing on more compositions can only turn a seat
that stood into one that drew, so A_k(S; m) is non-increasing in S (the set of compositions drawn
on), for every m and k; A_0 and A_11 (every sequence without a natural) do not depend on S.

So for every S between a lower set L and an upper set H of draws, A(H) <= A(S) <= A(L) entry by
entry, and your gain from drawing a composition, a linear form sum over m, k of c[m, k] A_k(S; m),
lies between the sums that take, term by term, the end that makes c A smallest or largest. Two
evaluations of the other seats bound every composition's gain over all 2 ** |H - L| strategies
between L and H.

The search is depth first over draw or stand per composition. At each node the compositions whose
gain keeps one sign on the whole box are fixed to that action, a node where a fixed composition's
gain has the wrong sign on the whole box is dropped, and the rest is split. A leaf (L = H) is exact,
and a symmetric equilibrium when every gain has the sign of its action (a tie either way). Nothing
dropped could be an equilibrium, so the list is complete. Compositions that no deal from the shoe
can give are left out: they never occur, and stand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from oddscalc.games.house_baccarat.count import LOSS, WIN, SeatCounter, six_index, slot_orderings
from oddscalc.games.house_baccarat.others import CLASSES
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS, TOTAL, Strategy
from oddscalc.games.shoe import Multisets

Draws = frozenset[int]  # indices into COMPOSITIONS of the compositions drawn on


def cumulative(rows: np.ndarray) -> np.ndarray:
    """(M, 12) class counts to the cumulative counts A of the module docstring."""
    out = np.array(rows, dtype=object)
    out[:, 1:] = np.cumsum(out[:, 1:], axis=1)
    return out


def never_drawn(some: np.ndarray) -> np.ndarray:
    """The cumulative counts when nobody else draws, from those of any strategy: A_0 and A_11 never move,
    and with no third card every A_k (k >= 1) is A_11."""
    out = np.array(some, dtype=object)
    out[:, 1:] = some[:, CLASSES - 1:]
    return out


def on_cumulative(coef: np.ndarray) -> np.ndarray:
    """Coefficients on class counts to the same linear form on cumulative counts (last axis):
    sum_k c_k N_k = c_0 A_0 + sum_{k=1..10} (c_k - c_{k+1}) A_k + c_11 A_11."""
    out = np.array(coef, dtype=object)
    out[..., 1:CLASSES - 1] = coef[..., 1:CLASSES - 1] - coef[..., 2:CLASSES]
    return out


def gain_terms(counter: SeatCounter, pay: Fraction) -> tuple[np.ndarray, np.ndarray]:
    """Per composition (COMPOSITIONS order): the six-slot multisets its gain reads (44, 715), and the gain's
    coefficients on their cumulative counts (44, 715, 12) object, in units of 1 / the pay's denominator.

    The gain is (pay x wins - losses) drawn minus stood, over both orders of the two cards: the same
    sums as ``house_baccarat.seat_counts``, kept apart by multiset and class."""
    r = counter.rules
    u = slot_orderings(r.house_tableau, r.all_stand).astype(object)  # (4, 10, 2, 715, 12)
    ev = u[WIN] * pay.numerator - u[LOSS] * pay.denominator  # (10 totals, 2 actions, 715, 12)
    weight = Multisets.of_size(6).weights(r.shoe, r.infinite)
    six = six_index()
    rows = np.array([six[a, b] for a, b in COMPOSITIONS])
    coef = np.empty((len(COMPOSITIONS), rows.shape[1], CLASSES), dtype=object)
    for i, (a, b) in enumerate(COMPOSITIONS):
        orders = 1 if a == b else 2
        t = TOTAL[a, b]
        coef[i] = on_cumulative((ev[t, 1] - ev[t, 0]) * (weight[rows[i]] * orders)[:, None])
    return rows, coef


def dealt(counter: SeatCounter, rows: np.ndarray) -> Draws:
    """The compositions some deal can give (``rows``: ``gain_terms``'s multisets holding each one's two cards);
    for the others every such multiset has weight 0."""
    weight = Multisets.of_size(6).weights(counter.rules.shoe, counter.rules.infinite)
    return frozenset(i for i in range(len(COMPOSITIONS)) if (weight[rows[i]] != 0).any())


def strategy_of(draws: Draws, name: str) -> Strategy:
    """The strategy drawing on these compositions."""
    m = np.zeros((10, 10), dtype=bool)
    for i in draws:
        u, w = COMPOSITIONS[i]
        m[u, w] = m[w, u] = True
    return Strategy.of(name, m)


@dataclass
class Search:
    """One complete search: the gain terms, the other seats' cumulative counts by draw set, the tallies."""

    counter: SeatCounter
    players: int
    pay: Fraction
    progress: Callable[[str], None] | None = None
    evaluations: int = 0
    nodes: int = 0
    found: list[Draws] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rows, self.coef = gain_terms(self.counter, self.pay)
        self.dealt = dealt(self.counter, self.rows)
        self._kept: dict[Draws, np.ndarray] = {}

    def cumulative(self, draws: Draws) -> np.ndarray:
        """The other seats' cumulative counts when they draw on ``draws``."""
        if draws not in self._kept:
            if not draws and self._kept:
                self._kept[draws] = never_drawn(next(iter(self._kept.values())))
            else:
                self.evaluations += 1
                if self.progress is not None:
                    self.progress(f"evaluation {self.evaluations}: the other seats draw on {len(draws)} "
                                  "composition(s)")
                self._kept[draws] = cumulative(self.counter.rows(self.players, strategy_of(draws, "searched")))
        return self._kept[draws]

    def gains(self, low: Draws, high: Draws) -> dict[int, tuple[int, int]]:
        """Least and greatest gain of every dealt composition over the strategies between ``low`` and ``high``."""
        small = self.cumulative(high)  # more draws: the smaller cumulative counts
        large = self.cumulative(low)
        out = {}
        for i in self.dealt:
            c, r = self.coef[i], self.rows[i]
            at_small, at_large = c * small[r], c * large[r]
            out[i] = int(np.minimum(at_small, at_large).sum()), int(np.maximum(at_small, at_large).sum())
        return out

    def visit(self, drawn: Draws, stood: Draws) -> None:
        """Search the strategies that draw on ``drawn``, stand on ``stood`` and do either on the rest."""
        self.nodes += 1
        while True:
            free = self.dealt - drawn - stood
            bounds = self.gains(drawn, drawn | free)
            if any(bounds[i][1] < 0 for i in drawn) or any(bounds[i][0] > 0 for i in stood):
                return  # a fixed composition's action loses on the whole box
            now_draw = frozenset(i for i in free if bounds[i][0] > 0)
            now_stand = frozenset(i for i in free if bounds[i][1] < 0)
            if not now_draw and not now_stand:
                break
            drawn, stood = drawn | now_draw, stood | now_stand
        if not free:
            self.found.append(drawn)  # exact here, and no action contradicted
            return
        split = max(free, key=lambda i: bounds[i][1] - bounds[i][0])  # the least settled
        self.visit(drawn | {split}, stood)
        self.visit(drawn, stood | {split})


def all_equilibria(counter: SeatCounter, players: int, pay: Fraction,
                   progress: Callable[[str], None] | None = None) -> tuple[list[Strategy], Search]:
    """Every symmetric pure-strategy equilibrium of ``players`` seats (by composition), and the search.

    Each is then checked by ``seat_game.is_best_reply`` on its own seat counts by the caller."""
    if players < 2:
        raise ValueError("the seat game needs two seats or more")
    search = Search(counter, players, pay, progress)
    search.visit(frozenset(), frozenset())
    return [strategy_of(d, f"equilibrium {k + 1}") for k, d in enumerate(search.found)], search

