"""Plain brute force for punto banco side bets on the cards: every ordered deal of a small shoe's physical cards,
played by the standard drawing rules written out here, and each rule list (as the table file's plain dicts)
read card by card. Shares no code with the engine.

A coup that ends after k cards is dealt once per k-card prefix and counts for every way the other 6 - k of the
first six cards can lie, (n - k)P(6 - k): the engine's convention (ordered sequences of six cards).
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0}
SUIT = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
COLOUR = {"c": "black", "d": "red", "h": "red", "s": "black"}
Card = tuple[str, str]  # rank letter, suit letter ("9", "d")

# Banca's tableau when punto drew: the banca totals 0-7 that draw, by punto's third card's value.
DRAWS = {0: range(0, 10), 1: range(0, 10), 2: range(0, 10), 3: (0, 1, 2, 3, 4, 5, 6, 7, 9), 4: (2, 3, 4, 5, 6, 7),
         5: (4, 5, 6, 7), 6: (6, 7), 7: ()}


@dataclass(frozen=True)
class Deal:
    """One coup as dealt: each hand's cards in order, and how many ordered six-card sequences it stands for."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    ways: int

    def total(self, hand: Sequence[Card]) -> int:
        return sum(VALUE[r] for r, _ in hand) % 10

    def feature(self, name: str) -> object:
        """The few coup features the property test names, worked out from the cards."""
        pt, bt = self.total(self.player), self.total(self.banker)
        natural = {"player": len(self.player) == 2 and pt >= 8, "banker": len(self.banker) == 2 and bt >= 8}
        return {"winner": "player" if pt > bt else "banker" if bt > pt else "tie",
                "player_total": pt, "banker_total": bt, "player_cards": len(self.player),
                "banker_cards": len(self.banker), "cards": len(self.player) + len(self.banker),
                "margin": abs(pt - bt), "player_natural": natural["player"], "banker_natural": natural["banker"],
                "natural": natural["player"] or natural["banker"]}[name]

    def card(self, position: str) -> Card | None:
        hand = self.player if position.startswith("player") else self.banker
        i = int(position[-1]) - 1
        return hand[i] if i < len(hand) else None


def deals(shoe: Sequence[Card]) -> Iterator[Deal]:
    """Every coup of the standard rules over the ordered prefixes of the shoe's physical cards."""
    n = len(shoe)

    def rest(used: Sequence[int]) -> Iterator[int]:
        return (i for i in range(n) if i not in used)

    for a in range(n):
        for b in rest([a]):
            for c in rest([a, b]):
                for d in rest([a, b, c]):
                    player, banker = [shoe[a], shoe[c]], [shoe[b], shoe[d]]
                    yield from _draw(shoe, [a, b, c, d], player, banker)


def _draw(shoe: Sequence[Card], used: list[int], player: list[Card], banker: list[Card]) -> Iterator[Deal]:
    n = len(shoe)
    pt = sum(VALUE[r] for r, _ in player) % 10
    bt = sum(VALUE[r] for r, _ in banker) % 10
    if pt >= 8 or bt >= 8:
        yield Deal(tuple(player), tuple(banker), math.perm(n - 4, 2))
        return
    if pt <= 5:
        for e in (i for i in range(n) if i not in used):
            third = shoe[e]
            if VALUE[third[0]] in DRAWS[bt]:
                for f in (i for i in range(n) if i not in used and i != e):
                    yield Deal((*player, third), (*banker, shoe[f]), 1)
            else:
                yield Deal((*player, third), tuple(banker), n - 5)
        return
    if bt <= 5:
        for e in (i for i in range(n) if i not in used):
            yield Deal(tuple(player), (*banker, shoe[e]), n - 5)
        return
    yield Deal(tuple(player), tuple(banker), math.perm(n - 4, 2))


ORDER_OF = "23456789TJQKA"
# Best first, by the number of cards: Three Card Poker's ranking, and Four Card Poker's.
RANKING = {3: ["royal_flush", "straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card"],
           4: ["four_of_a_kind", "royal_flush", "straight_flush", "three_of_a_kind", "flush", "straight", "two_pair",
               "pair", "high_card"]}


@functools.cache
def poker_class(cards: tuple[Card, ...]) -> str:
    """The best class of ``RANKING[len(cards)]`` the cards make, each class tested from its definition."""
    order = sorted(ORDER_OF.index(r) for r, _ in cards)
    k = len(cards)
    tally = sorted(Counter(r for r, _ in cards).values(), reverse=True)
    flush = len({s for _, s in cards}) == 1
    low = [ORDER_OF.index(c) for c in "A2345"[:k]]  # the ace-low straight: A-2-3, A-2-3-4
    straight = len(set(order)) == k and (order == list(range(order[0], order[0] + k)) or sorted(low) == order)
    made = {"royal_flush": straight and flush and order[-1] == 12 and order[0] == 13 - k,
            "straight_flush": straight and flush, "four_of_a_kind": tally[0] == 4, "three_of_a_kind": tally[0] == 3,
            "flush": flush, "straight": straight, "two_pair": tally[:2] == [2, 2], "pair": tally[0] == 2,
            "high_card": True}
    return next(c for c in RANKING[k] if made[c])


def _pair_of(cards: Sequence[Card]) -> int:
    """The highest rank held twice or more (-1: none)."""
    tally = Counter(r for r, _ in cards)
    return max((ORDER_OF.index(r) for r, n in tally.items() if n >= 2), default=-1)


def _hand_holds(cards: Sequence[Card], cond: Mapping[str, Any]) -> bool:
    cls = poker_class(tuple(cards))
    if "hand" in cond and cls not in (cond["hand"] if isinstance(cond["hand"], list) else [cond["hand"]]):
        return False
    if "hand_at_least" in cond:
        want = cond["hand_at_least"]
        ranking = RANKING[len(cards)]
        if want.startswith("pair of "):
            rank = want[len("pair of "):]
            return ranking.index(cls) < ranking.index("pair") or (
                cls == "pair" and _pair_of(cards) >= ORDER_OF.index("T" if rank == "10" else rank))
        return ranking.index(cls) <= ranking.index(want)
    return True


def card_condition(deal: Deal, cond: Mapping[str, Any]) -> bool:
    """A condition as the table file writes it, read off the dealt cards."""
    if "hand" in cond or "hand_at_least" in cond:
        named = [deal.card(p) for p in cond["cards"]]
        if any(c is None for c in named) or not _hand_holds([c for c in named if c is not None], cond):
            return False
    passing = []
    for pos in cond["cards"]:
        card = deal.card(pos)
        if card is None:
            continue
        rank, suit = card
        ok = ((("ranks" not in cond) or rank in ["T" if r == "10" else r for r in cond["ranks"]])
              and (("values" not in cond) or VALUE[rank] in cond["values"])
              and (("suits" not in cond) or SUIT[suit] in cond["suits"] or suit in cond["suits"])
              and (("colours" not in cond) or COLOUR[suit] in cond["colours"]))
        if ok:
            passing.append(card)
    n = len(passing)
    if "count" in cond:
        ok = n == cond["count"]
    elif "at_least" in cond:
        ok = n >= cond["at_least"]
    else:
        ok = n == len(cond["cards"])
    if "kinds" in cond:
        repeats = sorted(Counter(r for r, _ in passing).values(), reverse=True)
        ok = ok and len(repeats) >= len(cond["kinds"]) and all(
            have >= want for have, want in zip(repeats, cond["kinds"], strict=False))
    same = cond.get("same")
    if same == "rank":
        ok = ok and len({r for r, _ in passing}) <= 1
    elif same == "suit":
        ok = ok and len({s for _, s in passing}) <= 1
    elif same == "colour":
        ok = ok and len({COLOUR[s] for _, s in passing}) <= 1
    return ok


def rule_holds(deal: Deal, rule: Mapping[str, Any]) -> bool:
    """A rule's ``when`` (one value or a list) and every one of its ``cards_when``."""
    for name, want in rule.get("when", {}).items():
        if deal.feature(name) not in (want if isinstance(want, list) else [want]):
            return False
    return all(card_condition(deal, c) for c in rule.get("cards_when", ()))


def settle(dealt: Iterable[Deal], rules: Sequence[Mapping[str, Any]], otherwise: str = "lose") -> Counter[str]:
    """Ordered six-card sequences of the deals (``deals(shoe)``) by the event of the first rule that holds
    (``otherwise`` when none)."""
    out: Counter[str] = Counter()
    for deal in dealt:
        event = next((r["event"] for r in rules if rule_holds(deal, r)), otherwise)
        out[event] += deal.ways
    return out
