"""The shape of a Let It Ride holding (three or four cards), and the expected return per holding class.

A holding's shape is what a strategy card reads and what the published appendix groups by: the
pair it holds, whether it is suited, the straights it can still make, its high cards. Every shape
feature is the same for all members of a suit class, so it is computed once per class
representative (1,755 three-card and 16,432 four-card classes on 52 cards), in numpy.

Straights are read off the deck's ranks: a straight is five consecutive ranks the deck holds
(A-2-3-4-5 when it holds them all). ``windows`` counts the straights a no-pair holding lies in:
for four cards that is the number of ranks that complete a straight (2 = open-ended). ``spread``
is the fewest consecutive ranks covering the holding inside one of those straights (an ace low in
A-2-3-4-5). A high card is one at or above the table's minimum paying pair: ten or better on the
standard table, the wording of the published strategies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.cards import Deck, rank_name
from oddscalc.results import Cell, Column, Section

HANDS = ("four_of_a_kind", "three_of_a_kind", "two_pair", "paying_pair", "low_pair", "no_pair")
FOUR, TRIPS, TWO_PAIR, PAYING_PAIR, LOW_PAIR, NO_PAIR = range(6)


def straights(deck: Deck) -> list[tuple[int, int]]:
    """(rank bits, lowest rank) of every straight the deck can make; the wheel's lowest is -1."""
    have = set(deck.ranks)
    out = []
    for low in range(-1, 9):
        ranks = [12 if r == -1 else r for r in range(low, low + 5)]
        if set(ranks) <= have:
            out.append((sum(1 << r for r in ranks), low))
    return out


@dataclass(frozen=True)
class Shapes:
    """Shape features of each holding class (one entry per representative)."""

    n: int  # cards held
    hand: np.ndarray  # index into HANDS
    pair_rank: np.ndarray  # the pair's rank for a one-pair holding, else -1
    suited: np.ndarray  # bool: one suit
    windows: np.ndarray  # straights a no-pair holding lies in (0 with a pair)
    spread: np.ndarray  # fewest consecutive ranks covering it within one of them (0 if none)
    high_cards: np.ndarray  # cards at or above the minimum paying pair
    top_rank: np.ndarray  # the highest rank held
    bits: np.ndarray  # the ranks held, one bit each
    royal_dealt: bool = True  # the deck holds ten to ace: a royal flush can be made

    @property
    def to_royal(self) -> np.ndarray:
        """Suited, no pair, every card ten or above, on a deck that holds ten to ace: part of a royal flush."""
        return np.asarray(self.suited & (self.hand == NO_PAIR) & (self.bits & 0xFF == 0) & self.royal_dealt)

    @property
    def outside(self) -> np.ndarray:
        """Four cards that two ranks complete to a straight (open-ended)."""
        return np.asarray((self.windows == 2) if self.n == 4 else np.zeros(len(self.hand), dtype=bool))


def shapes(reps: np.ndarray, deck: Deck, min_rank: int) -> Shapes:
    """The features of each holding of ``reps`` ((m, n) card ids)."""
    cards = reps.astype(np.int64)
    m, n = cards.shape
    ranks = cards >> 2
    suited = (cards & 3 == (cards[:, :1] & 3)).all(axis=1)
    per_rank = (ranks[:, :, None] == np.arange(13)).sum(axis=1)  # (m, 13)
    most = per_rank.max(axis=1)
    pairs = (per_rank == 2).sum(axis=1)
    pair_rank = np.where((most == 2) & (pairs == 1), (per_rank == 2).argmax(axis=1), -1)
    hand = np.select([most == 4, most == 3, pairs == 2, pair_rank >= min_rank, pair_rank >= 0],
                     [FOUR, TRIPS, TWO_PAIR, PAYING_PAIR, LOW_PAIR], NO_PAIR)
    bits = np.bitwise_or.reduce(np.left_shift(1, ranks), axis=1)
    windows = np.zeros(m, dtype=np.int64)
    spread = np.zeros(m, dtype=np.int64)
    span_high = ranks.max(axis=1) - ranks.min(axis=1) + 1
    low_ranks = np.where(ranks == 12, -1, ranks)  # the ace played low
    span_low = low_ranks.max(axis=1) - low_ranks.min(axis=1) + 1
    for mask, low in straights(deck):
        inside = (hand == NO_PAIR) & (bits & ~mask == 0)
        windows += inside
        span = span_low if low == -1 else span_high
        spread = np.where(inside & ((spread == 0) | (span < spread)), span, spread)
    return Shapes(n, hand, pair_rank, suited, windows, spread, (ranks >= min_rank).sum(axis=1),
                  ranks.max(axis=1), bits, any(low == 8 for _, low in straights(deck)))


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def holding_label(s: Shapes, i: int, min_rank: int) -> str:
    """The appendix's name for holding i: the published appendix's classes, the rest by high cards."""
    hand, n = int(s.hand[i]), s.n
    word = {3: "three", 4: "four"}.get(n, str(n))
    if hand == PAYING_PAIR:
        return f"paying pair ({rank_name(min_rank, True)} or better)"
    if hand != NO_PAIR:
        return HANDS[hand].replace("_", " ")
    high, windows, spread = int(s.high_cards[i]), int(s.windows[i]), int(s.spread[i])
    if bool(s.to_royal[i]):
        return f"{word} to a royal flush" + (f", {rank_name(int(s.top_rank[i]))} highest" if n == 3 else "")
    if s.suited[i] and windows:
        if n == 4:
            return f"four to a straight flush, {'open-ended' if windows == 2 else 'inside'}"
        # a spread-s draw lies in 6 - s straights unless the end of the ranks cuts some off (2-3-4, ace low)
        cut = f" ({_plural(windows, 'straight')} only)" if windows < 6 - spread else ""
        return f"three to a straight flush, spread {spread}, {_plural(high, 'high card')}{cut}"
    if n == 4 and s.suited[i]:
        return "four to a flush"
    if n == 4 and windows:
        return f"four to an {'outside' if windows == 2 else 'inside'} straight, {_plural(high, 'high card')}"
    return f"no pair, {_plural(high, 'high card')}"


def holdings_section(section_id: str, title: str, s: Shapes, weights: np.ndarray, sums: np.ndarray,
                     denominator: int, ride: np.ndarray, deck: Deck, min_rank: int) -> Section:
    """The published appendix layout for one decision: per holding class, its number, probability, total
    return (net units of the one bet over every completion of one such holding), average return (per
    completion), expected return (probability x average) and how many ride; then the holdings that ride.

    ``sums`` are each class's net units over its completions in units of 1/``denominator``.
    """
    n = s.n
    completions = math.comb(deck.size - n, 5 - n)
    every = math.comb(deck.size, n)
    labels = _labels(s, min_rank)
    w = weights.astype(object)
    rows: list[tuple[Cell, ...]] = []
    order: list[tuple[Fraction, str]] = []
    groups: dict[str, tuple[int, Fraction, int]] = {}
    for name in sorted(set(labels.tolist())):
        members = labels == name
        number = int(w[members].sum())
        total = Fraction(int((w[members] * sums[members].astype(object)).sum()), denominator * number)
        groups[name] = (number, total, int(w[members & ride].sum()))
        order.append((total, name))
    for total, name in sorted(order, key=lambda t: (-t[0], t[1])):
        number, _, rides = groups[name]
        probability = Fraction(number, every)
        average = total / completions
        rows.append((name, number, probability, total, average, probability * average, rides))
    riding = int(w[ride].sum())
    expected = Fraction(int((w[ride] * sums[ride].astype(object)).sum()), denominator * every * completions)
    rows.append(("holdings that ride", riding, Fraction(riding, every), None, None, expected, riding))
    return Section(
        section_id, title,
        (Column("holding", "Holding"), Column("number", "Number", "int"),
         Column("probability", "Probability", "decimal", 8), Column("total_return", "Total return", "fraction"),
         Column("average_return", "Average return", "decimal", 8),
         Column("expected_return", "Expected return", "decimal", 8), Column("rides", "Ride", "int")),
        tuple(rows),
        intro=(f"Number: holdings of the class out of C({deck.size},{n}) = {every:,}. Total return: the net units of "
               f"the one bet over all {completions:,} completions of one such holding (the class's average when "
               "its holdings differ). Average return: total return / completions. Expected return: probability x "
               "average return. Ride: the holdings of the class that let the bet ride.",
               "The last row adds the holdings that ride: its expected return is this bet's expected return per "
               "base bet."),
        notes=("High cards are those at or above the minimum paying pair. A straight flush draw marked "
               "'(k straights only)' lies in fewer straights than its spread allows: 2-3-4, or an ace played low.",))


def _labels(s: Shapes, min_rank: int) -> np.ndarray:
    """Every holding's label, worded once per distinct shape."""
    key = np.stack([s.hand, s.suited, s.windows, s.spread, s.high_cards, s.top_rank * s.to_royal], axis=1)
    _, first, kind_of = np.unique(key, axis=0, return_index=True, return_inverse=True)
    words = np.array([holding_label(s, int(i), min_rank) for i in first], dtype=object)
    return np.asarray(words[kind_of.ravel()])
