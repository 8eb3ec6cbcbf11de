"""Plain brute force for the house baccarat: every ordered deal of a small shoe (one and two players, finite and
infinite), played from the table as written. Shares no code with the engine beyond its outcome codes, its
strategy class and, in :func:`seat_counts`, the engine's entry point that the brute forces are compared with."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator

import numpy as np

from oddscalc.games.house_baccarat import count as hb
from oddscalc.games.house_baccarat.count import LOSS, PUSH, SIT_OUT, WIN, SeatCounts
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.house_baccarat.table import TableRules
from oddscalc.games.shoe import Shoe
from oracles.shared import shared

VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0}
LITERAL = TableRules(house_draws_when_all_stand="never")
ON_0_5 = TableRules(house_draws_when_all_stand="on-0-5")

Tally = Counter[tuple[int, int, int, int]]  # (first card, second card, drew, outcome) -> deals


def seat_counts(shoe: Shoe, players: int, others: Strategy, rules: TableRules, infinite: bool) -> SeatCounts:
    """The engine's seat counts under ``rules`` (what the brute forces here are compared with)."""
    return hb.seat_counts(shoe, players, others, rules.house_tableau, rules.house_draws_when_all_stand, infinite)


def compare(a: int, b: int) -> int:
    """The outcome of a seat's total ``a`` against the house's ``b``."""
    return WIN if a > b else LOSS if a < b else PUSH


def mixed_strategy() -> Strategy:
    """Draw on 0-3, plus two compositions of other totals: exercises play by composition."""
    m = np.isin(np.add.outer(np.arange(10), np.arange(10)) % 10, [0, 1, 2, 3])
    for u, w in ((0, 5), (2, 2), (1, 6)):
        m[u, w] = m[w, u] = True
    return Strategy.of("test", m)


def house_final(h: int, highest: int, rules: TableRules, third: int) -> int:
    """The sheet's house, played from the table as written: its final total from its two-card total ``h``, the
    highest third card a seat drew (-1: nobody drew) and the card it would draw."""
    if h >= 7:
        return h
    if highest < 0:
        draws = rules.house_draws_when_all_stand == "on-0-5" and h <= 5
    else:
        draws = rules.house_tableau[h][highest] == "D"
    return (h + third) % 10 if draws else h


def _rules_key(rules: TableRules) -> str:
    return f"{rules.house_tableau} {rules.house_draws_when_all_stand}"


def brute_one(ranks: list[str], rules: TableRules) -> Tally:
    """One player: every ordered sequence of six actual cards, dealt you, house, you, house, then your
    third card (if you draw), then the house's. Both of your choices are played on every deal.

    Made once for a run's workers (several test files ask for the same suit and rules, seconds each)."""
    return shared(f"house brute_one {ranks} {_rules_key(rules)}", lambda: _brute_one(ranks, rules))


def ordered(vals: list[int], k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every ordered deal of ``k`` of the cards worth ``vals``, by the values dealt: each sequence of values once,
    with the number of ordered deals of the actual cards that give it (the cards of one value told apart: the
    copies of it left, at each card of it dealt). Over a suit (four cards worth 0) a sixth of the sequences; where
    the values repeat too little to pay for the walk (one pair at most), each deal of the cards, plainly."""
    left = Counter(vals)
    if math.prod(math.factorial(n) for n in left.values()) < 3:
        yield from ((v, 1) for v in itertools.permutations(vals, k))
        return
    values = sorted(left)
    dealt: list[int] = []

    def walk(ways: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if len(dealt) == k:
            yield tuple(dealt), ways
            return
        for v in values:
            n = left[v]
            if n:
                left[v] = n - 1
                dealt.append(v)
                yield from walk(ways * n)
                dealt.pop()
                left[v] = n

    yield from walk(1)


def _brute_one(ranks: list[str], rules: TableRules) -> Tally:
    vals = [VALUE[r] for r in ranks]
    out: Tally = Counter()
    # the cards' values in deal order, each card told apart by its place (as brute_two deals them)
    for (p1, h1, p2, h2, c5, c6), ways in ordered(vals, 6):
        t, h = (p1 + p2) % 10, (h1 + h2) % 10
        for action in (0, 1):
            if t >= 8:
                outcome = compare(t, h)
            elif action:
                outcome = compare((t + c5) % 10, house_final(h, c5, rules, c6))
            else:
                outcome = compare(t, house_final(h, -1, rules, c5))
            out[(p1, p2, action, outcome)] += ways
    return out


def brute_two(ranks: list[str], rules: TableRules, other: Strategy) -> Tally:
    """Two players, nine cards: you, the other seat, the house, twice round; then third cards in seat order.

    Made once for a run's workers (several test files ask for the same shoe, rules and other seat's play)."""
    key = f"house brute_two {ranks} {_rules_key(rules)} {np.asarray(other.matrix, dtype=bool).tobytes().hex()}"
    return shared(key, lambda: _brute_two(ranks, rules, other))


def _brute_two(ranks: list[str], rules: TableRules, other: Strategy) -> Tally:
    vals = [VALUE[r] for r in ranks]
    draws = other.matrix
    out: Tally = Counter()
    for v, ways in ordered(vals, 9):  # the cards' values in deal order, each card told apart by place
        p1, o1, h1, p2, o2, h2 = v[:6]
        t, o, h = (p1 + p2) % 10, (o1 + o2) % 10, (h1 + h2) % 10
        for action in (0, 1):
            if t >= 8:
                outcome = compare(t, h)
            elif o >= 8:
                outcome = SIT_OUT
            else:
                pos, yours, highest = 6, t, -1
                if action:
                    yours, highest, pos = (t + v[pos]) % 10, v[pos], pos + 1
                if draws[o1, o2]:
                    highest, pos = max(highest, v[pos]), pos + 1
                outcome = compare(yours, house_final(h, highest, rules, v[pos]))
            out[(p1, p2, action, outcome)] += ways
    return out


def brute_infinite(red: list[int], players: int, rules: TableRules, other: Strategy) -> Tally:
    """Every sequence of 3N + 3 values drawn with replacement, weighted by the reduced counts.

    The house's two cards are only ever read through their total, so they are walked as the ten totals, each
    weighted by the pairs of values that make it (a tenth of the sequences, the same sums)."""
    values = [v for v in range(10) if red[v]]
    house = Counter[int]()
    for h1, h2 in itertools.product(values, repeat=2):
        house[(h1 + h2) % 10] += red[h1] * red[h2]
    draws = other.matrix
    out: Tally = Counter()
    for v in itertools.product(values, repeat=3 * players + 1):  # yours, your third, the house's third, others
        p1, p2, c5, c6 = v[:4]
        t = (p1 + p2) % 10
        seats = [v[4 + 3 * j:7 + 3 * j] for j in range(players - 1)]
        other_nat = any((a + b) % 10 >= 8 for a, b, _ in seats)
        other_high = max((z for a, b, z in seats if draws[a, b]), default=-1)
        cards = math.prod(red[x] for x in v)
        for h, pairs in house.items():
            weight = cards * pairs
            for action in (0, 1):
                if t >= 8:
                    outcome = compare(t, h)
                elif other_nat:
                    outcome = SIT_OUT
                else:
                    yours = (t + c5) % 10 if action else t
                    highest = max(other_high, c5) if action else other_high
                    outcome = compare(yours, house_final(h, highest, rules, c6))
                out[(p1, p2, action, outcome)] += weight
    return out
