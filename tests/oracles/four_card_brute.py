"""Plain brute force for Four Card Poker: every deal of actual cards, each hand the best four of its cards, the
decision by direct enumeration of the dealer's hole cards, Aces Up on the player's five.

Shares no code with the engine nor with ``oddscalc.hands.four``: the four-card ranking is written again here,
plainly (a tuple per hand, compared; the best of more cards by trying every four), and each deal is settled as the
rules say in words: the player folds (loses the ante) or plays 1, 2 or 3 antes; the dealer always plays; a player
who beats or ties him wins the ante and the play 1:1, else loses both; three of a kind or better is paid an ante
bonus when he plays, whatever the dealer holds.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from math import comb

from oddscalc.cards import Deck

ORDER = ("four_of_a_kind", "straight_flush", "three_of_a_kind", "flush", "straight", "two_pair", "pair",
         "high_card")  # best first


def four(cards: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
    """(class, comparable key) of four cards (card id = rank * 4 + suit, rank 12 an ace, 0 a deuce)."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    suited = len({c & 3 for c in cards}) == 1
    counts = Counter(ranks)
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    run = None
    if len(counts) == 4 and ranks[0] - ranks[3] == 3:
        run = ranks[0]
    if ranks == [12, 2, 1, 0]:
        run = 2  # A-2-3-4: four high
    if shape == [4]:
        name = "four_of_a_kind"
    elif run is not None:
        name = "straight_flush" if suited else "straight"
    elif shape == [3, 1]:
        name = "three_of_a_kind"
    elif suited:
        name = "flush"
    elif shape == [2, 2]:
        name = "two_pair"
    elif shape == [2, 1, 1]:
        name = "pair"
    else:
        name = "high_card"
    tiebreak = (run,) if run is not None else tuple(by_count)
    return name, (len(ORDER) - ORDER.index(name), *tiebreak)


@cache
def best(cards: frozenset[int]) -> tuple[str, tuple[int, ...]]:
    """The best four of ``cards``: its class and key."""
    return max((four(h) for h in itertools.combinations(sorted(cards), 4)), key=lambda ck: ck[1])


def aces_up(cards: frozenset[int], pays: Mapping[str, Fraction]) -> str:
    """The Aces Up row of the player's five: the class paid, "pair" only for a pair of aces, else "lose"."""
    name, key = best(cards)
    if name == "pair" and key[1] != 12:
        return "lose"
    return name if name in pays else "lose"


def brute(deck: Deck, bonus: Mapping[str, Fraction],
          aces: Mapping[str, Fraction]) -> tuple[Counter[tuple[Fraction, Fraction]], Counter[str], Fraction]:
    """Every deal (the player's five, one up card, five hole cards): the main bet's deals by (net antes, antes
    staked), Aces Up's deals by row, and the net antes won. The play is made exactly when its EV beats folding's,
    the smallest of equal EVs (a fold first)."""
    cards = deck.cards
    main: Counter[tuple[Fraction, Fraction]] = Counter()
    side: Counter[str] = Counter()
    won = Fraction(0)
    for player in itertools.combinations(cards, 5):
        mine = best(frozenset(player))
        extra = bonus.get(mine[0], Fraction(0))
        rest = [c for c in cards if c not in player]
        for up in rest:
            holes = [c for c in rest if c != up]
            # the hole sets the player beats or ties, of all of them
            wins = sum(mine[1] >= best(frozenset((up, *hole)))[1] for hole in itertools.combinations(holes, 5))
            n = comb(len(holes), 5)
            side[aces_up(frozenset(player), aces)] += n
            options = [(Fraction(-n), 0)]
            for b in (1, 2, 3):  # each hole set the player beats or ties wins 1 + b antes, each other loses them
                options.append(((1 + b) * (2 * wins - n) + n * extra, b))
            ev, b = max(options, key=lambda o: o[0])  # the first of equals: fold, then the smaller play
            won += ev
            if b == 0:
                main[(Fraction(-1), Fraction(1))] += n
                continue
            main[(1 + b + extra, Fraction(1 + b))] += wins
            main[(-(1 + b) + extra, Fraction(1 + b))] += n - wins
    return main, side, won
