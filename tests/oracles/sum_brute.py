"""Plain brute force for the sum of n independent rounds: every sequence of n outcomes, its probability the product
of its rounds' (exact Fractions), summed by total; and the ends of a band read from that distribution by their
definition. Shares no code with oddscalc.filing.sums.

Also an exact integer recurrence (one round at a time, counts as Python ints) for n too large to enumerate, which
the tests check against the brute force where both run."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction


def brute_sum(outcomes: Sequence[tuple[Fraction, Fraction]], n: int) -> dict[Fraction, Fraction]:
    """P(sum of n rounds = v) for each v, from every one of the len(outcomes)^n sequences of outcomes."""
    out: dict[Fraction, Fraction] = {}
    for seq in itertools.product(outcomes, repeat=n):
        total, p = Fraction(0), Fraction(1)
        for value, q in seq:
            total += value
            p *= q
        out[total] = out.get(total, Fraction(0)) + p
    return out


def counted_sum(outcomes: Sequence[tuple[int, int]], n: int) -> tuple[dict[int, int], int]:
    """For integer values with integer weights (deals): the number of weighted sequences of n rounds giving each sum,
    round by round, and the total weight (the sum of the weights, to the n)."""
    dist = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for s, c in dist.items():
            for v, w in outcomes:
                nxt[s + v] = nxt.get(s + v, 0) + c * w
        dist = nxt
    return dist, sum(w for _, w in outcomes) ** n


def counted_pairs(outcomes: Sequence[tuple[int, int, int]], n: int) -> tuple[dict[tuple[int, int], int], int]:
    """For rounds (integer net, integer stake, weight): the weighted number of sequences of n rounds giving each
    (sum of nets, sum of stakes), round by round, and the total weight."""
    dist = {(0, 0): 1}
    for _ in range(n):
        nxt: dict[tuple[int, int], int] = {}
        for (x, s), c in dist.items():
            for v, st, w in outcomes:
                key = (x + v, s + st)
                nxt[key] = nxt.get(key, 0) + c * w
        dist = nxt
    return dist, sum(w for _, _, w in outcomes) ** n


def lower_end(dist: Mapping[Fraction, Fraction], tail: Fraction) -> Fraction:
    """The largest value v the sum takes with P(sum < v) <= tail."""
    best = min(dist)
    below = Fraction(0)
    for v in sorted(dist):
        if below <= tail:
            best = v
        below += dist[v]
    return best


def upper_end(dist: Mapping[Fraction, Fraction], tail: Fraction) -> Fraction:
    """The smallest value v the sum takes with P(sum > v) <= tail."""
    best = max(dist)
    above = Fraction(0)
    for v in sorted(dist, reverse=True):
        if above <= tail:
            best = v
        above += dist[v]
    return best


def below(dist: Mapping[Fraction, Fraction], v: Fraction) -> Fraction:
    """P(sum < v)."""
    return sum((p for x, p in dist.items() if x < v), Fraction(0))


def above(dist: Mapping[Fraction, Fraction], v: Fraction) -> Fraction:
    """P(sum > v)."""
    return sum((p for x, p in dist.items() if x > v), Fraction(0))
