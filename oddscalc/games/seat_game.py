"""House baccarat as a game among its seats: symmetric equilibria, the best common strategy, best replies.

The house draws on the highest third card among the players who drew, so each seat's choice moves
every other seat's result. With the other seats all playing a strategy S (draw or stand per two-card
composition), your seat's exact outcome counts for both actions of every hand are known
(``house_baccarat.seat_counts``). From them:

- a best reply to S: per composition, draw exactly when drawing earns more (both orders of the two
  cards together); ties may go either way;
- S is a symmetric equilibrium when S itself is a best reply to S: every composition it draws on
  earns at least as much drawn, every one it stands on at least as much stood;
- the best common strategy is the S that gives each seat the most when every seat plays it; it need
  not be an equilibrium (a seat gains by leaving it).

The strategy space has 2^45 members; the search here covers a stated family (draw on 0 to t, or
every set of totals with ``exhaustive``) and best-reply iterations started from each member, and
verifies every equilibrium it reports exactly. It does not prove that no other equilibrium exists.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

from ..results import Cell, Column, Section
from .house_baccarat import (
    COMPOSITIONS,
    FINITE_EXACT_MAX_PLAYERS,
    SeatCounter,
    SeatCounts,
    Strategy,
    _ev_num,
    best_by_composition,
    seat_ev,
    solve,
)

MAX_STEPS = 12
# the seat game's searches evaluate a dozen strategies or more; a 6-seat evaluation takes about 13 s
# (benchmarks/bench_baccarat.py), so the game among the seats stops at 5 while the edge goes to 6
SEAT_GAME_MAX_PLAYERS = 5


def is_best_reply(sc: SeatCounts, s: Strategy, pay: Fraction) -> bool:
    """Whether ``s`` is a best reply to the other seats of ``sc``: no composition gains by the other action."""
    ev = _ev_num(sc, pay)
    m = s.matrix
    for u, w in COMPOSITIONS:
        gap = ev[u, w, 1] - ev[u, w, 0] + (ev[w, u, 1] - ev[w, u, 0] if u != w else 0)
        if (m[u, w] and gap < 0) or (not m[u, w] and gap > 0):
            return False
    return True


def gaps(sc: SeatCounts, pay: Fraction) -> list[Fraction]:
    """Per composition (COMPOSITIONS order): what drawing earns over standing, both orders of the cards."""
    ev = _ev_num(sc, pay)
    return [ev[u, w, 1] - ev[u, w, 0] + (ev[w, u, 1] - ev[w, u, 0] if u != w else 0) for u, w in COMPOSITIONS]


def _strategy(draws: Sequence[bool], name: str) -> Strategy:
    m = np.zeros((10, 10), dtype=bool)
    for (u, w), d in zip(COMPOSITIONS, draws):
        m[u, w] = m[w, u] = d
    return Strategy.of(name, m)


def all_two_seat_equilibria(counter: SeatCounter, pay: Fraction) -> tuple[list[Strategy], int]:
    """Every symmetric pure-strategy equilibrium of two seats, with a proof by enumeration, and the
    number of search nodes visited.

    With one other seat, your counts are a sum over that seat's two-card compositions, each counted by
    its own action: your gap for composition c is affine in the other seat's draws, g_c(s) = a_c +
    sum over c' of s_c' b_cc'. The 46 evaluations that give a and b are checked on a 47th strategy
    (the affine prediction must be exact), then every s with s_c = 1 where g_c(s) > 0 and s_c = 0
    where g_c(s) < 0 (either where 0) is found by a depth-first search that fixes every composition
    whose sign no completion of the others can change."""
    n = len(COMPOSITIONS)
    never = _strategy([False] * n, "never")
    base = gaps(counter.seat(2, never), pay)
    b = [[Fraction(0)] * n for _ in range(n)]
    for j in range(n):
        one = [False] * n
        one[j] = True
        g = gaps(counter.seat(2, _strategy(one, f"only {j}")), pay)
        for i in range(n):
            b[i][j] = g[i] - base[i]
    probe = [i % 3 == 0 for i in range(n)]
    predicted = [base[i] + sum((b[i][j] for j in range(n) if probe[j]), Fraction(0)) for i in range(n)]
    if predicted != gaps(counter.seat(2, _strategy(probe, "probe")), pay):
        raise AssertionError("the two-seat gaps are not affine in the other seat's draws")
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
            g = [base[i] + sum((b[i][j] for j in range(n) if s[j]), Fraction(0)) for i in range(n)]
            if all((g[i] >= 0) if s[i] else (g[i] <= 0) for i in range(n)):
                found.append(s)
            return
        for v in (True, False):
            search({**settled, free_vars[0]: v})

    search({})
    return [_strategy(s, f"equilibrium {k + 1}") for k, s in enumerate(found)], nodes


def _propagate(base: Sequence[Fraction], b: Sequence[Sequence[Fraction]],
               fixed: dict[int, bool]) -> dict[int, bool] | None:
    """Fix every composition whose gap keeps one sign whatever the free compositions do; None when a fixed
    one is contradicted (its action cannot be a best reply in any completion)."""
    n = len(base)
    fixed = dict(fixed)
    changed = True
    while changed:
        changed = False
        for i in range(n):
            known = base[i] + sum((b[i][j] for j, v in fixed.items() if v), Fraction(0))
            free = [b[i][j] for j in range(n) if j not in fixed]
            lo = known + sum((x for x in free if x < 0), Fraction(0))
            hi = known + sum((x for x in free if x > 0), Fraction(0))
            if i in fixed:
                if (fixed[i] and hi < 0) or (not fixed[i] and lo > 0):
                    return None
            elif lo > 0 or hi < 0:
                fixed[i] = lo > 0
                changed = True
    return fixed


def thresholds() -> list[Strategy]:
    """Draw on 0 to t, for t = -1 (never) .. 7."""
    return [Strategy.by_totals("never draw" if t < 0 else f"draw-0-{t}", range(t + 1)) for t in range(-1, 8)]


def by_totals() -> list[Strategy]:
    """Every strategy by two-card total: each of the 256 sets of totals 0-7."""
    out = []
    for k in range(9):
        for totals in combinations(range(8), k):
            out.append(Strategy.by_totals("draw on " + (",".join(map(str, totals)) or "none"), totals))
    return out


@dataclass(frozen=True)
class Found:
    """An equilibrium: the strategy every seat plays, each seat's exact EV, how it was found."""

    strategy: Strategy
    ev: Fraction
    how: str


def equilibria(counter: SeatCounter, players: int, pay: Fraction, starts: Sequence[Strategy]) -> list[Found]:
    """The symmetric equilibria found from ``starts``: each start checked, then best replies iterated."""
    found: dict[tuple[tuple[bool, ...], ...], Found] = {}
    for start in starts:
        s, seen = start, []
        for step in range(MAX_STEPS):
            sc = counter.seat(players, s)
            if is_best_reply(sc, s, pay):
                if s.draws not in found:
                    how = f"{start.name} is its own best reply" if step == 0 else \
                        f"{step} best reply step(s) from {start.name}"
                    found[s.draws] = Found(s, seat_ev(sc, s, pay), how)
                break
            seen.append(s.draws)
            s = best_by_composition(sc, pay, f"best reply from {start.name}")
            if s.draws in seen:
                break  # a cycle: no fixed point from here
    return sorted(found.values(), key=lambda f: -f.ev)


def best_reply(counter: SeatCounter, players: int, pay: Fraction, others: Strategy) -> tuple[Strategy, Fraction]:
    """One seat's best reply when every other seat plays ``others``, and its EV."""
    sc = counter.seat(players, others)
    reply = best_by_composition(sc, pay, "best reply")
    return reply, seat_ev(sc, reply, pay)


def _text(s: Strategy) -> str:
    totals = s.totals()
    return ("draw on " + (", ".join(map(str, totals)) or "no total")) if totals is not None else \
        "by composition: " + ", ".join(f"{u}+{w}" for u, w in COMPOSITIONS if s.matrix[u, w]) + " draw"


def _columns(first: Column, second: Column, *more: Column) -> tuple[Column, ...]:
    return (first, second, Column("ev", "EV per seat", "signed_percent", 4),
            Column("house_edge", "House edge", "signed_percent", 4), *more)


def edge_section(counter: SeatCounter, pay: Fraction, max_players: int) -> Section:
    """The house edge by seats filled, 1 to ``max_players``, under the symmetric equilibrium by best replies."""
    edge: list[tuple[Cell, ...]] = []
    infinite = SeatCounter(dataclasses.replace(counter.rules, infinite=True), counter.store, counter.game)
    for n in range(1, max_players + 1):
        finite = n <= FINITE_EXACT_MAX_PLAYERS and not counter.rules.infinite
        eq = solve(counter if finite else infinite, n, pay, "optimal")
        ev = seat_ev(eq.counts, eq.strategy, pay)
        edge.append((n, _text(eq.strategy), ev, -ev, "finite, exact" if finite else "infinite, exact"))
    return Section("edge_by_seats", "House edge by seats filled",
                   _columns(Column("seats", "Seats", "int"), Column("strategy", "Every seat plays"),
                            Column("shoe", "Shoe")), tuple(edge),
                   intro=("Concept: the symmetric equilibrium reached by best replies from the optimum with one seat "
                          f"fewer. Exact on the finite shoe up to {FINITE_EXACT_MAX_PLAYERS} seats; beyond, exact on "
                          "an infinite shoe (cards drawn with replacement), as the report does.",))


def sections(counter: SeatCounter, players: int, pay: Fraction, exhaustive: bool, max_players: int) -> list[Section]:
    """Edge by seats filled, the equilibria, every common strategy of the family, and best replies."""
    family = by_totals() if exhaustive else thresholds()
    edge = edge_section(counter, pay, max_players)
    if players == 2:  # every equilibrium, by enumeration
        proved, nodes = all_two_seat_equilibria(counter, pay)
        how = f"all of them: complete enumeration ({nodes} search nodes)"
        found = sorted((Found(e, seat_ev(counter.seat(2, e), e, pay), how) for e in proved), key=lambda f: -f.ev)
    else:
        found = equilibria(counter, players, pay, family)
    rows: list[tuple[Cell, ...]] = [("symmetric equilibrium", _text(f.strategy), f.ev, -f.ev, f.how) for f in found]
    shared: list[tuple[Cell, ...]] = []
    best: tuple[Strategy, Fraction] | None = None
    for s in family:
        sc = counter.seat(players, s)
        ev = seat_ev(sc, s, pay)
        shared.append((s.name, _text(s), ev, -ev, "yes" if is_best_reply(sc, s, pay) else "no"))
        if best is None or ev > best[1]:
            best = (s, ev)
    assert best is not None
    stable = any(f.strategy.draws == best[0].draws for f in found)
    rows.append(("cooperative (best common strategy)", _text(best[0]), best[1], -best[1],
                 "an equilibrium too" if stable else "not an equilibrium: a seat gains by leaving it"))
    replies: list[tuple[Cell, ...]] = []
    for others in thresholds():
        reply, ev = best_reply(counter, players, pay, others)
        replies.append((others.name, _text(reply), ev, -ev))
    family_text = ("every strategy by two-card total (256)" if exhaustive else "draw on 0 to t, t = -1..7 (9)")
    return [
        edge,
        Section("seat_equilibria", f"The game among {players} seats",
                _columns(Column("concept", "Concept"), Column("strategy", "Every seat plays"),
                         Column("how", "How found")),
                tuple(rows),
                intro=(("Two seats: every symmetric pure-strategy equilibrium, by complete enumeration (a seat's gain "
                        "from drawing is affine in the other seat's draws, checked exactly, and a search fixes every "
                        "composition whose sign cannot change)." if players == 2 else
                        f"Searched: {family_text}, and best-reply iterations from each. Every equilibrium listed is "
                        "checked exactly to be its own best reply; the search does not prove there are no others."),)),
        Section("common_strategies", f"Every seat playing one strategy ({players} seats)",
                _columns(Column("name", "Strategy"), Column("strategy", "Plays"),
                         Column("equilibrium", "Its own best reply")),
                tuple(shared)),
        Section("best_replies", f"One seat's best reply to the other {players - 1} seat(s)",
                _columns(Column("others", "The others play"), Column("reply", "Best reply")), tuple(replies)),
    ]


def reply_sections(counter: SeatCounter, players: int, pay: Fraction, others: Strategy | None) -> list[Section]:
    """For any table size: the symmetric equilibrium reached by best replies, and one seat's best reply to
    the others playing ``others`` (default: that equilibrium), with what the seat would get playing along."""
    eq = solve(counter, players, pay, "optimal")
    ev_eq = seat_ev(eq.counts, eq.strategy, pay)
    played = others or eq.strategy
    sc = counter.seat(players, played)
    reply = best_by_composition(sc, pay, "best reply")
    along, best = seat_ev(sc, played, pay), seat_ev(sc, reply, pay)
    rows: list[tuple[Cell, ...]] = [
        ("symmetric equilibrium", _text(eq.strategy), ev_eq, -ev_eq, f"{eq.iterations} best reply evaluation(s)"),
        (f"the other {players - 1} play {played.name}; this seat plays along", _text(played), along, -along, ""),
        (f"the other {players - 1} play {played.name}; this seat replies best", _text(reply), best, -best,
         f"gains {float(best - along):+.4%} per unit"),
    ]
    return [Section("seat_replies", f"{players} seats: the equilibrium and one seat's best reply",
                    _columns(Column("concept", "Concept"), Column("strategy", "This seat plays"),
                             Column("how", "Note")), tuple(rows),
                    intro=((f"Exact on the finite shoe. With {players} seats the full search of the game among the "
                            f"seats (up to {SEAT_GAME_MAX_PLAYERS} seats) would take a dozen evaluations or more; "
                            "here the equilibrium reached by best replies and one seat's best reply to the others' "
                            "stated play (--others, default that equilibrium)." if players > SEAT_GAME_MAX_PLAYERS
                            else "Exact on the finite shoe: one seat's best reply to the others' stated play "
                            "(--others), beside the symmetric equilibrium reached by best replies."),))]
