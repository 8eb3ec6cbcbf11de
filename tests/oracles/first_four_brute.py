"""Plain brute force for a punto banco side bet on the first four cards (its rules read ``cards_when`` over
player1, banker1, player2, banker2 and no coup feature, as Lucky Nines): each rule read from the table's plain
data (the TOML's dicts) and tried in order on actual cards. Two exact EVs from a shoe: every ordered four of the
shoe's actual cards (small shoes), and, for a bet that tells cards apart only by being a nine and the nine's suit
(Lucky Nines), the multinomial count of the nines of each suit among the first four (any shoe). Shares no code
with the engine beyond the card ids."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

Card = tuple[str, int]  # rank letter ("23456789TJQKA"), suit (0 clubs, 1 diamonds, 2 hearts, 3 spades)
POSITIONS = {"player1": 0, "banker1": 1, "player2": 2, "banker2": 3}  # dealing order
SUITS = {"clubs": 0, "c": 0, "diamonds": 1, "d": 1, "hearts": 2, "h": 2, "spades": 3, "s": 3}
RED = {1, 2}


def _listed(v: Any) -> list[Any]:
    return list(v) if isinstance(v, list) else [v]


def _passes(cond: Mapping[str, Any], card: Card) -> bool:
    rank, suit = card
    if "ranks" in cond and rank not in {"T" if str(r) == "10" else str(r).upper() for r in _listed(cond["ranks"])}:
        return False
    if "suits" in cond and suit not in {SUITS[str(s).lower()] for s in _listed(cond["suits"])}:
        return False
    return not ("colours" in cond and ("red" if suit in RED else "black") not in _listed(cond["colours"]))


def holds(cond: Mapping[str, Any], four: Sequence[Card]) -> bool:
    """A card condition on the first four cards: how many of the named cards pass its filters (all of them, unless
    ``count`` or ``at_least`` says), and those that pass share what ``same`` says."""
    named = [four[POSITIONS[p]] for p in _listed(cond["cards"])]
    passing = [c for c in named if _passes(cond, c)]
    n = len(passing)
    ok = n == cond["count"] if "count" in cond else n >= cond["at_least"] if "at_least" in cond else n == len(named)
    if ok and "same" in cond:
        shared: dict[str, set[object]] = {"rank": {c[0] for c in passing}, "suit": {c[1] for c in passing},
                                          "colour": {c[1] in RED for c in passing}}
        ok = len(shared[cond["same"]]) <= 1
    return ok


def net(pays: Any) -> Fraction:
    """The units a pay wins: odds "a:b" win a/b, "push" 0, "lose" -1."""
    if pays == "lose":
        return Fraction(-1)
    if pays == "push":
        return Fraction(0)
    a, b = str(pays).split(":")
    return Fraction(int(a), int(b))


def units(bet: Mapping[str, Any], four: Sequence[Card]) -> Fraction:
    """The bet's units won on these first four cards: the first rule all of whose card conditions hold."""
    for rule in bet["rules"]:
        if all(holds(c, four) for c in _listed(rule["cards_when"])):
            return net(rule["pays"])
    return net(bet.get("otherwise", {}).get("pays", "lose"))


def brute_ev(bet: Mapping[str, Any], shoe: Sequence[Card]) -> Fraction:
    """The exact EV over every ordered four of the shoe's cards (each card a distinct position)."""
    total, n = Fraction(0), 0
    for four in itertools.permutations(shoe, 4):
        total += units(bet, four)
        n += 1
    return total / n


def nines_ev(bet: Mapping[str, Any], nines: Sequence[int], others: int) -> Fraction:
    """The exact EV of a bet that tells cards apart only by being a nine and the nine's suit, from a shoe of
    ``nines[s]`` nines of each suit and ``others`` other cards: every ordered four of the five kinds (nine of each
    suit, other), dealt prod (copies left) ways, tried on representative cards (a king of clubs for the others)."""
    kinds: list[tuple[Card, int]] = [(("9", s), nines[s]) for s in range(4)] + [(("K", 0), others)]
    total, ways_all = Fraction(0), 0
    for seq in itertools.product(range(5), repeat=4):
        ways = 1
        for i, k in enumerate(seq):
            ways *= max(kinds[k][1] - seq[:i].count(k), 0)
        if ways:
            total += ways * units(bet, [kinds[k][0] for k in seq])
            ways_all += ways
    assert ways_all == math.perm(sum(nines) + others, 4)
    return total / ways_all
