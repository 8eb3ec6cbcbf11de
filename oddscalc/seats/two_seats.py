"""Two seats of the house game, solved over all 2^44 strategies through an exact affine model.

Counting argument. With one other seat, your counts are a sum over that seat's two-card
compositions, each counted with its own action, so every figure of your seat is affine in the other
seat's draws s (s_j = 1 when it draws on composition j): f(s) = f(never) + sum_j s_j (f({j}) - f(never)).
Forty-five evaluations (nobody drawing, and each composition alone) give every coefficient exactly;
a forty-sixth strategy checks the model (its prediction must be exact, else the build stops). Then:

- your gain from drawing composition i is affine in s, g_i(s) = a_i + sum_j s_j b_ij, and a depth-first
  search that fixes every composition whose sign no completion can change finds every symmetric
  equilibrium (``equilibria``), independently of ``seat_search``'s monotone bounds;
- when both seats play s, your EV is quadratic in s: V(s) = C + sum_i s_i l_i + sum_{i<j} s_i s_j P_ij
  (your own action times the other seat's). Branch and bound, bounding every free composition by its
  best case (``best_common``), gives the best common strategy over all 2^44 (a first one, if tied).

Values are in units of 1 / (the pay's denominator) per combination: integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from oddscalc.games.house_baccarat.count import LOSS, WIN, SeatCounter, SeatCounts, six_index
from oddscalc.games.house_baccarat.others import NATURAL
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS, Strategy
from oddscalc.games.shoe import VALUES
from oddscalc.seats.search import Draws, dealt, strategy_of


def dealt_here(counter: SeatCounter) -> Draws:
    """The compositions some deal from ``counter``'s shoe can give (``seat_search.dealt``, without its gain terms):
    every one on whole decks, a few on the tests' small shoes. Kept out of ``seat_search``, whose code a proof's
    checkpoint is tied to."""
    return dealt(counter, np.array([six_index()[a, b] for a, b in COMPOSITIONS]))


def _values(sc: SeatCounts, pay: Fraction) -> tuple[list[tuple[int, int]], int]:
    """Per composition (both orders) your (stood, drew) value, and your naturals' value, as integers."""
    ev = sc.counts[WIN] * pay.numerator - sc.counts[LOSS] * pay.denominator
    comp = [(int(ev[u, w, 0] + (ev[w, u, 0] if u != w else 0)), int(ev[u, w, 1] + (ev[w, u, 1] if u != w else 0)))
            for u, w in COMPOSITIONS]
    nat = sum(int(ev[u, w, 0]) for u in range(VALUES) for w in range(VALUES) if NATURAL[u, w])
    return comp, nat


def _drawing(draws: Sequence[bool]) -> Strategy:
    return strategy_of(frozenset(i for i, d in enumerate(draws) if d), "two-seat model")


@dataclass(frozen=True)
class Model:
    """Your seat's values with one other seat, affine in its draws, and the combinations counted."""

    base: list[tuple[int, int]]  # per composition: (stood, drew) when the other seat never draws
    delta: list[list[tuple[int, int]]]  # [j][i]: what the other seat drawing on j adds to base[i]
    natural: int
    natural_delta: list[int]
    scale: int  # combinations x the pay's denominator: a value over it is an EV per unit

    @staticmethod
    def of(counter: SeatCounter, pay: Fraction) -> Model:
        """The model from 46 evaluations of the other seat, checked on one more. A composition no deal from the
        shoe gives (none on whole decks) adds nothing whatever the other seat does there: it is not evaluated
        (the check's strategy draws on some such compositions, on a small shoe, and confirms it)."""
        n = len(COMPOSITIONS)
        base, nat = _values(counter.seat(2, _drawing([False] * n)), pay)
        delta, nat_delta = [], []
        dealt = dealt_here(counter)
        for j in range(n):
            if j not in dealt:
                delta.append([(0, 0)] * n)
                nat_delta.append(0)
                continue
            comp, nat_j = _values(counter.seat(2, _drawing([k == j for k in range(n)])), pay)
            delta.append([(c[0] - b[0], c[1] - b[1]) for c, b in zip(comp, base)])
            nat_delta.append(nat_j - nat)
        probe = [i % 3 == 0 for i in range(n)]
        sc = counter.seat(2, _drawing(probe))
        model = Model(base, delta, nat, nat_delta, sc.total * pay.denominator)
        if model.predict(probe) != _values(sc, pay):
            raise AssertionError("the two-seat counts are not affine in the other seat's draws")
        return model

    def predict(self, s: Sequence[bool]) -> tuple[list[tuple[int, int]], int]:
        """Your values when the other seat draws on ``s``, from the model."""
        comp = [(b[0] + sum(self.delta[j][i][0] for j in range(len(s)) if s[j]),
                 b[1] + sum(self.delta[j][i][1] for j in range(len(s)) if s[j])) for i, b in enumerate(self.base)]
        return comp, self.natural + sum(d for d, x in zip(self.natural_delta, s) if x)

    def gains(self) -> tuple[list[int], list[list[int]]]:
        """g_i(s) = a_i + sum_j s_j b_ij: what drawing composition i earns over standing."""
        a = [d - s for s, d in self.base]
        b = [[self.delta[j][i][1] - self.delta[j][i][0] for j in range(len(a))] for i in range(len(a))]
        return a, b

    def common(self) -> tuple[int, list[int], list[list[int]]]:
        """V(s) = C + sum_i s_i l_i + sum_{i<j} s_i s_j P_ij when both seats draw on s."""
        n = len(self.base)
        const = self.natural + sum(s for s, _ in self.base)
        # the other seat's draws move your stood values and your naturals; your own draws switch a row
        lin = [self.natural_delta[j] + sum(self.delta[j][i][0] for i in range(n)) for j in range(n)]
        q = [[self.delta[j][i][1] - self.delta[j][i][0] for j in range(n)] for i in range(n)]  # s_i s_j
        for i in range(n):
            lin[i] += self.base[i][1] - self.base[i][0] + q[i][i]
        pair = [[q[i][j] + q[j][i] if i < j else 0 for j in range(n)] for i in range(n)]
        return const, lin, pair


def equilibria(model: Model) -> tuple[list[Strategy], int]:
    """Every symmetric pure-strategy equilibrium of two seats, and the search nodes visited."""
    base, b = model.gains()
    n = len(base)
    found: list[list[bool]] = []
    nodes = 0

    def search(fixed: dict[int, bool]) -> None:
        nonlocal nodes
        nodes += 1
        settled = _propagate(base, b, fixed)
        if settled is None:
            return  # no completion of this branch is an equilibrium
        free_vars = [i for i in range(n) if i not in settled]
        if not free_vars:
            s = [settled[i] for i in range(n)]
            g = [base[i] + sum(b[i][j] for j in range(n) if s[j]) for i in range(n)]
            if all((g[i] >= 0) if s[i] else (g[i] <= 0) for i in range(n)):
                found.append(s)
            return
        for v in (True, False):
            search({**settled, free_vars[0]: v})

    # a composition no deal gives moves no value: it stands, as in seat_search (either action would tie)
    search({i: False for i in range(n) if base[i] == 0 and not any(b[i]) and not any(row[i] for row in b)})
    return [strategy_of(frozenset(i for i in range(n) if s[i]), f"equilibrium {k + 1}")
            for k, s in enumerate(found)], nodes


def _propagate(base: Sequence[int], b: Sequence[Sequence[int]], fixed: dict[int, bool]) -> dict[int, bool] | None:
    """Fix every composition whose gain keeps one sign whatever the free compositions do; None when a fixed
    one is contradicted (its action cannot be a best reply in any completion)."""
    n = len(base)
    fixed = dict(fixed)
    changed = True
    while changed:
        changed = False
        for i in range(n):
            known = base[i] + sum(b[i][j] for j, v in fixed.items() if v)
            free = [b[i][j] for j in range(n) if j not in fixed]
            lo = known + sum(x for x in free if x < 0)
            hi = known + sum(x for x in free if x > 0)
            if i in fixed:
                if (fixed[i] and hi < 0) or (not fixed[i] and lo > 0):
                    return None
            elif lo > 0 or hi < 0:
                fixed[i] = lo > 0
                changed = True
    return fixed


def best_common(model: Model, start: Strategy) -> tuple[Strategy, Fraction, int]:
    """The strategy giving each of two seats the most when both play it (over all 2^44), its EV per unit, and
    the branch-and-bound nodes visited. ``start`` is the first incumbent. A composition that moves no value
    (one no deal gives) stands."""
    const, lin, pair = model.common()
    n = len(lin)
    moves = [i for i in range(n) if lin[i] or any(pair[i]) or any(row[i] for row in pair)]
    sym = [[pair[min(i, j)][max(i, j)] for j in moves] for i in moves]  # over the compositions that move
    lin_m = [lin[i] for i in moves]
    m = len(moves)
    first = [bool(start.matrix[COMPOSITIONS[i]]) for i in moves]

    def value(s: Sequence[bool]) -> int:
        return const + sum(lin_m[i] for i in range(m) if s[i]) + sum(
            sym[i][j] for i in range(m) if s[i] for j in range(i + 1, m) if s[j])

    best: list[Any] = [value(first), first]
    nodes = 0
    later = [sum(max(0, sym[i][j]) for j in range(i + 1, m)) for i in range(m)]  # the most i's later pairs add

    def visit(fixed: list[bool], fixed_value: int) -> None:
        nonlocal nodes
        nodes += 1
        k = len(fixed)
        if k == m:
            if fixed_value > best[0]:
                best[0], best[1] = fixed_value, list(fixed)
            return
        top = fixed_value
        for i in range(k, m):
            top += max(0, lin_m[i] + sum(sym[j][i] for j in range(k) if fixed[j]) + later[i])
        if top <= best[0]:
            return  # nothing here beats the incumbent
        gain = lin_m[k] + sum(sym[j][k] for j in range(k) if fixed[j])
        for v in ((True, False) if first[k] else (False, True)):
            visit([*fixed, v], fixed_value + (gain if v else 0))

    visit([], const)
    drawn = frozenset(moves[i] for i in range(m) if best[1][i])
    return strategy_of(drawn, "best common"), Fraction(int(best[0]), model.scale), nodes
