"""Plain brute force for punto banco's mid-coup tables: every ordered completion of every deal of a small shoe,
the drawing rules applied from scratch (the standard tableau as the rule books print it, written out here, not
read from a table), then grouped by the two-card totals seen. Shares no code with the engine; wagers are settled
by ``baccarat_brute.settle_by_hand``, which reads the table's words one coup at a time."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from oracles.baccarat_brute import VALUE, Card, Coup, settle_by_hand

# the standard rules: the player draws on 0-5; the banker, when the player stood, draws on 0-5; when the player drew,
# the banker's total draws against the player's third card as below (0-2 always; 7, 8 and 9 never)
BANKER_DRAWS_AGAINST = {3: set(range(10)) - {8}, 4: set(range(2, 8)), 5: set(range(4, 8)), 6: {6, 7}}


def _banker_draws(total: int, third: int | None) -> bool:
    if total >= 7:
        return False
    if third is None:
        return total <= 5
    return total <= 2 or third in BANKER_DRAWS_AGAINST[total]


def deal(values: Sequence[int]) -> tuple[int, int, int, int, int, int]:
    """Six point values dealt player, banker, player, banker, then as drawn: (player's two-card total, banker's,
    player's final total, player's cards, banker's final total, banker's cards)."""
    p = (values[0] + values[2]) % 10
    b = (values[1] + values[3]) % 10
    if p >= 8 or b >= 8:  # a natural: both stand
        return p, b, p, 2, b, 2
    third = None
    nxt = 4
    pf, pn = p, 2
    if p <= 5:
        third = values[4]
        pf, pn, nxt = (p + third) % 10, 3, 5
    bf, bn = b, 2
    if _banker_draws(b, third):
        bf, bn = (b + values[nxt]) % 10, 3
    return p, b, pf, pn, bf, bn


def by_totals(cards: Sequence[Card]) -> dict[tuple[int, int], Counter[Coup]]:
    """Every ordered six-card sequence of the physical cards (a repeated card is two cards), by the player's and
    banker's two-card totals: each coup keyed as ``baccarat_brute`` keys it."""
    out: dict[tuple[int, int], Counter[Coup]] = {}
    vals = [VALUE[r] for r, _ in cards]
    for seq in itertools.permutations(range(len(cards)), 6):
        p, b, pf, pn, bf, bn = deal([vals[i] for i in seq])
        (r1, s1), (r2, s2), (r3, s3), (r4, s4) = (cards[i] for i in seq[:4])
        out.setdefault((p, b), Counter())[(pf, pn, bf, bn, r1 == r3, s1 == s3, r2 == r4, s2 == s4)] += 1
    return out


def row(tallies: Sequence[Counter[Coup]], pays: Any) -> dict[str, Fraction]:
    """The coups of several groups pooled: each outcome's probability and each wager's EV (``ev_`` + name)."""
    pooled: Counter[Coup] = Counter()
    for t in tallies:
        pooled.update(t)
    n = sum(pooled.values())
    out = {"player": Fraction(sum(k for c, k in pooled.items() if c[0] > c[2]), n),
           "banker": Fraction(sum(k for c, k in pooled.items() if c[2] > c[0]), n),
           "tie": Fraction(sum(k for c, k in pooled.items() if c[0] == c[2]), n),
           "coups": Fraction(n)}
    for wager, units in settle_by_hand(pooled, pays).items():
        out[f"ev_{wager}"] = sum((u * k for u, k in units.items()), Fraction(0)) / n
    return out
