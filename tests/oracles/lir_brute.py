"""Plain brute force for Let It Ride: every deal of actual cards, each bet decided from the plain
average of its outcomes (or by a given rule per holding), and a plain reading of a holding's shape.
Shares no code with the engine beyond the card and hand evaluators."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

from oddscalc.cards import Deck
from oddscalc.hands import HandClass, hand_value

Decide = Callable[[tuple[int, ...], Fraction], bool]  # (holding, EV of riding) -> ride


def brute(deck: Deck, pays: dict[HandClass, Fraction], min_rank: int, ride_on_zero: bool = False,
          decide3: Decide | None = None, decide4: Decide | None = None) -> Counter[tuple[str, int]]:
    """Deals by (final pay class, bets in play): the player's three cards, then the two community cards in order.
    Each pay is counted in whole 1/scale units, so an average is one exact Fraction of an integer sum (summing
    Fractions was two thirds of the time)."""
    scale = math.lcm(*(Fraction(p).denominator for p in pays.values()))

    def value(hand: tuple[int, ...]) -> tuple[str, int]:
        cls, tie = hand_value(hand)
        if cls == HandClass.HIGH_CARD or (cls == HandClass.PAIR and tie[0] < min_rank):
            return "loss", -scale
        return cls.value, int(Fraction(pays[cls]) * scale)

    memo: dict[frozenset[int], tuple[str, int]] = {}

    def v(hand: tuple[int, ...]) -> tuple[str, int]:
        key = frozenset(hand)
        if key not in memo:
            memo[key] = value(hand)
        return memo[key]

    def optimal(_: tuple[int, ...], ev: Fraction) -> bool:
        return ev > 0 or (ride_on_zero and ev == 0)

    d3, d4 = decide3 or optimal, decide4 or optimal
    cards = deck.cards
    tally: Counter[tuple[str, int]] = Counter()
    for three in itertools.combinations(cards, 3):
        rest = [c for c in cards if c not in three]
        # the two community cards in either order make the same hand: the average over unordered pairs
        outcomes = [v(three + (a, b))[1] for a, b in itertools.combinations(rest, 2)]
        r1 = d3(three, Fraction(sum(outcomes), len(outcomes) * scale))
        for c1 in rest:
            four = three + (c1,)
            hands = [v(four + (c2,)) for c2 in rest if c2 != c1]
            r2 = d4(four, Fraction(sum(pay for _, pay in hands), len(hands) * scale))
            for name, _ in hands:
                tally[(name, 1 + r1 + r2)] += 1
    return tally


def straights(deck: Deck) -> list[set[int]]:
    """The rank sets of the straights the deck can make (the ace is 12, also low in A-2-3-4-5)."""
    runs = [set(range(low, low + 5)) for low in range(0, 9)] + [{12, 0, 1, 2, 3}]
    return [r for r in runs if r <= set(deck.ranks)]


def shape(cards: Sequence[int], deck: Deck, min_rank: int) -> dict[str, object]:
    """A holding's features, read plainly: the names a Let It Ride strategy card uses."""
    ranks = [c >> 2 for c in cards]
    counts = sorted(Counter(ranks).values(), reverse=True)
    pairs = [r for r, k in Counter(ranks).items() if k == 2]
    if counts[0] == 4:
        hand = "four_of_a_kind"
    elif counts[0] == 3:
        hand = "three_of_a_kind"
    elif len(pairs) == 2:
        hand = "two_pair"
    elif pairs:
        hand = "paying_pair" if pairs[0] >= min_rank else "low_pair"
    else:
        hand = "no_pair"
    suited = len({c & 3 for c in cards}) == 1
    inside = [s for s in straights(deck) if hand == "no_pair" and set(ranks) <= s]

    def span(s: set[int]) -> int:
        r = [-1 if x == 12 and 0 in s else x for x in ranks]  # the ace plays low in the wheel
        return max(r) - min(r) + 1

    return {
        "hand": hand, "pair_rank": pairs[0] if len(pairs) == 1 and counts[0] == 2 else -1, "suited": suited,
        "to_royal": suited and hand == "no_pair" and min(ranks) >= 8 and set(range(8, 13)) <= set(deck.ranks),
        "to_straight": bool(inside),
        "windows": len(inside), "outside": len(cards) == 4 and len(inside) == 2,
        "spread": min((span(s) for s in inside), default=0), "high_cards": sum(r >= min_rank for r in ranks),
        "top_rank": max(ranks), "ranks": set(ranks),
    }


def ev_of(holding: Sequence[int], deck: Deck, pays: dict[HandClass, Fraction], min_rank: int) -> Fraction:
    """The EV of one riding bet on a holding: the plain average over its completions."""
    rest = [c for c in deck.cards if c not in holding]
    total, n = Fraction(0), 0
    for more in itertools.combinations(rest, 5 - len(holding)):
        cls, tie = hand_value(tuple(holding) + more)
        lose = cls == HandClass.HIGH_CARD or (cls == HandClass.PAIR and tie[0] < min_rank)
        total += -1 if lose else pays[cls]
        n += 1
    return total / n
