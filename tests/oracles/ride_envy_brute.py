"""Plain brute force for a side bet with an envy bonus on a seat's own k cards (Let It Ride: three; the Caribbean
Stud Jackpot: five): every deal of the player's k cards and then each other seat's k cards, dealt one seat after
another from a reduced deck, each a set of actual cards (held as bit masks, every deal a row). Each deal's result is the
bet's own net win (read by a function of the player's cards the test gives, from the rules' plain data) plus the
envy amount for each other seat whose own cards are of a class paid (``few_cards_class`` for three or four cards,
the plain five-card evaluator for five). The EV and variance are the moments over every deal, as Fractions. The
dealer's and community cards are read by nothing here: leaving them out is a constant factor on every deal. Shares
no code with the engine beyond the card ids and the plain evaluators."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import numpy as np

from oddscalc.cards import Deck
from oddscalc.hands import hand_value
from oracles.poker_side_brute import few_cards_class


def seat_class(cards: Sequence[int]) -> str:
    """The class id of a seat's own cards: three or four by ``few_cards_class``, five by the plain evaluator."""
    return hand_value(tuple(cards))[0].value if len(cards) == 5 else few_cards_class(cards)


def envy_moments(own: Callable[[tuple[int, ...]], Fraction], envy: Mapping[str, Fraction], deck: Deck, size: int,
                 seats: Sequence[int]) -> dict[int, tuple[Fraction, Fraction]]:
    """(EV, variance) per stake for each number of other seats in ``seats``: ``own(cards)`` the bet's net win on the
    player's cards, ``envy`` the stakes paid for each other seat of a class (by class id).

    A deal of n seats is the first n seats of a deal of the most seats asked (each is completed by the same number
    of deals), so one list of the deals of ``max(seats)`` other seats gives every n: each deal keeps its running
    totals after 1, 2, ... seats. Whole numbers (the pays times a common denominator) until the end."""
    hands = list(itertools.combinations(range(deck.size), size))
    net = {h: own(tuple(deck.cards[i] for i in h)) for h in hands}
    scale = math.lcm(1, *(x.denominator for x in (*envy.values(), *net.values())))
    top = max(seats)
    if size * (top + 1) > deck.size or deck.size > 20:
        raise ValueError("more seats than the deck holds, or a deck of more than 20 cards")
    mine = np.zeros(1 << deck.size, dtype=np.int64)  # by the bit mask of the hand's cards
    extra = np.zeros(1 << deck.size, dtype=np.int64)
    for h in hands:
        mask = sum(1 << i for i in h)
        mine[mask] = int(net[h] * scale)
        extra[mask] = int(envy.get(seat_class(tuple(deck.cards[i] for i in h)), Fraction(0)) * scale)
    left = np.array([(1 << deck.size) - 1], dtype=np.int64)  # per deal so far: the cards not yet dealt
    totals = np.zeros((1, 0), dtype=np.int64)  # per deal so far: the result after the player and each seat
    for level in range(top + 1):  # the player, then each other seat, each dealt every k of the cards left
        held = (left[:, None] >> np.arange(deck.size)) & 1
        where = np.nonzero(held)[1].reshape(len(left), -1)
        picks = np.array(list(itertools.combinations(range(where.shape[1]), size)), dtype=np.int64)
        dealt = (np.int64(1) << where[:, picks]).sum(axis=2)  # (deals, ways) the hands of this seat
        got = (mine if level == 0 else extra)[dealt]
        before = totals[:, -1:] if level else np.zeros((len(totals), 1), dtype=np.int64)
        totals = np.concatenate([np.repeat(totals, dealt.shape[1], axis=0), (before + got).reshape(-1, 1)], axis=1)
        left = (left[:, None] ^ dealt).reshape(-1)
    deals = len(totals)
    out = {}
    for n in seats:
        x = totals[:, n]
        if int(np.abs(x).max()) ** 2 * deals < 2**63:  # every partial sum of squares fits in int64
            first, second = int(x.sum()), int((x * x).sum())
        else:  # Python ints: exact whatever the size
            first, second = sum(int(v) for v in x), sum(int(v) * int(v) for v in x)
        mean = Fraction(first, deals * scale)
        out[n] = (mean, Fraction(second, deals * scale * scale) - mean * mean)
    return out
