"""Plain brute force for a five-card game against a dealer with one up card (Caribbean Stud's shape): every deal of
actual cards, the decision by direct enumeration of the dealer's hole cards, every side bet on the player's cards.

Shares no code with the stud engine nor with the shipped Caribbean game: the five-card ranking is written again
here, plainly (a tuple per hand, compared), and each deal is settled as the rules say in words.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache

from oddscalc.cards import Deck

ORDER = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind",
         "two_pair", "pair", "high_card")  # best first


@cache
def five(cards: frozenset[int]) -> tuple[str, tuple[int, ...]]:
    """(class, comparable key) of five cards: higher key, better hand (card id = rank * 4 + suit, rank 12 an ace)."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    top = None
    if len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4:
        top = ranks[0]
    elif ranks == [12, 3, 2, 1, 0]:
        top = 3  # the wheel: five high
    by_count = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in by_count]
    order = tuple(r for r, _ in by_count)
    if top is not None and flush:
        return ("royal_flush" if top == 12 else "straight_flush"), (9, top)
    if shape[0] == 4:
        return "four_of_a_kind", (8, *order)
    if shape[:2] == [3, 2]:
        return "full_house", (7, *order)
    if flush:
        return "flush", (6, *ranks)
    if top is not None:
        return "straight", (5, top)
    if shape[0] == 3:
        return "three_of_a_kind", (4, *order)
    if shape[:2] == [2, 2]:
        return "two_pair", (3, *order)
    if shape[0] == 2:
        return "pair", (2, *order)
    return "high_card", (1, *ranks)


def brute(deck: Deck, raise_pays: Mapping[str, Fraction], qualifier: tuple[int, ...], raise_size: int,
          sides: Mapping[str, Mapping[str, Fraction]]) -> tuple[Counter[str], dict[str, Counter[str]], Fraction]:
    """Every deal (player's five, one up card, four hole cards): the main bet's deals by event (``win_<class>`` for a
    raise paid by ``raise_pays``, ``win`` for one paid 1:1), each side bet's by class, and the net antes won.
    The dealer qualifies with a hand whose key is at least ``qualifier``; he does not: the ante wins 1:1, the raise
    is returned; the raise is made exactly when its EV beats folding's (a tie folds)."""
    cards = deck.cards
    main: Counter[str] = Counter()
    side = {name: Counter[str]() for name in sides}
    won = Fraction(0)
    units = {"dealer_not_qualified": Fraction(1), "push": Fraction(0), "lose": Fraction(-1 - raise_size),
             "win": Fraction(1 + raise_size)} | {f"win_{c}": 1 + raise_size * p for c, p in raise_pays.items()}
    for player in itertools.combinations(cards, 5):
        name, key = five(frozenset(player))
        rest = [c for c in cards if c not in player]
        for up in rest:
            holes = [c for c in rest if c != up]
            deals: Counter[str] = Counter()
            for hole in itertools.combinations(holes, 4):
                _, dealer = five(frozenset((up, *hole)))
                if dealer < qualifier:
                    deals["dealer_not_qualified"] += 1
                elif key > dealer:
                    deals[f"win_{name}" if name in raise_pays else "win"] += 1
                elif key == dealer:
                    deals["push"] += 1
                else:
                    deals["lose"] += 1
            ev = sum((k * units[e] for e, k in deals.items()), Fraction(0))
            n = sum(deals.values())
            if ev > -n:
                main.update(deals)
                won += ev
            else:
                main["fold"] += n
                won -= n
            for bet, pays in sides.items():
                side[bet][name if name in pays else "lose"] += n
    return main, side, won


def qualifier_key(ranks: Sequence[int]) -> tuple[int, ...]:
    """The key of the weakest high-card hand with these top ranks ("ace-king": (12, 11)): a key below it does not
    qualify."""
    return (1, *ranks)
