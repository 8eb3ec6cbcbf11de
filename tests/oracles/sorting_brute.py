"""Brute force for punto banco with cards glimpsed before the bet: deal every ordered coup of a small shoe and settle
it by the rules, written out here (not the engine's ``play`` nor the game's ``settle``).

A coup is an ordered sequence of six distinct cards of the shoe (a seen burn card one more in front): punto's
first, banca's first, punto's second, banca's second, then the fifth and sixth cards, drawn or not. The standard
rules: a two-card 8 or 9 is a natural and both stand; punto draws on 0-5; banca, when punto stood, draws on 0-5;
when punto drew, banca follows the usual tableau. Pays: player 1:1, banker 1:1 less 5%, tie 8:1, the main bets
pushing on a tie; ``none`` is worth 0.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

Card = str  # rank then suit: "As", "Td"
See = Callable[[Card], object]  # what a glimpse sees of a card
CHOICES = ("player", "banker", "tie", "none")
ORDER = ("burn", "player_1", "banker_1", "player_2", "banker_2")


def value(card: Card) -> int:
    """Baccarat points: tens and faces 0, the ace 1."""
    rank = card[0]
    return 0 if rank in "TJQK" else 1 if rank == "A" else int(rank)


def banker_draws(banker: int, third: int | None) -> bool:
    """The banker's rule: ``third`` is punto's third card's value, None when punto stood."""
    if third is None:
        return banker <= 5
    if banker <= 2:
        return True
    return {3: third != 8, 4: 2 <= third <= 7, 5: 4 <= third <= 7, 6: third in (6, 7)}.get(banker, False)


def winner(cards: Sequence[Card]) -> str:
    """Who wins a coup dealt from these six cards, in order."""
    p = (value(cards[0]) + value(cards[2])) % 10
    b = (value(cards[1]) + value(cards[3])) % 10
    if p < 8 and b < 8:
        nxt = 4
        third = None
        if p <= 5:
            third = value(cards[nxt])
            p = (p + third) % 10
            nxt += 1
        if banker_draws(b, third):
            b = (b + value(cards[nxt])) % 10
    return "player" if p > b else "banker" if b > p else "tie"


PAYS = {"player": {"player": Fraction(1), "banker": Fraction(-1), "tie": Fraction(0)},
        "banker": {"player": Fraction(-1), "banker": Fraction(19, 20), "tie": Fraction(0)},
        "tie": {"player": Fraction(-1), "banker": Fraction(-1), "tie": Fraction(8)},
        "none": {"player": Fraction(0), "banker": Fraction(0), "tie": Fraction(0)}}


Won = dict[str, int]  # coups won by player, by banker, tied


def choice_returns(won: Won) -> dict[str, Fraction]:
    """What each choice returns over coups with these winners."""
    return {c: sum((PAYS[c][w] * n for w, n in won.items()), Fraction(0)) for c in CHOICES}


def patterns(shoe: Sequence[Card], seen: dict[str, See]) -> dict[tuple[object, ...], Won]:
    """Each pattern the glimpses show (``seen``: position -> what it sees of the card there) and the winners of its
    coups, every ordered coup of ``shoe`` dealt."""
    burn = "burn" in seen
    positions = [p for p in ORDER if p in seen]
    names = ORDER if burn else ORDER[1:]
    out: dict[tuple[object, ...], Won] = {}
    for deal in itertools.permutations(shoe, 6 + burn):
        at = dict(zip(names, deal))
        key = tuple(seen[p](at[p]) for p in positions)
        won = out.setdefault(key, {"player": 0, "banker": 0, "tie": 0})
        won[winner(deal[burn:])] += 1
    return out


def best_ev(found: dict[tuple[object, ...], Won]) -> Fraction:
    """The EV per coup betting the best choice on each pattern."""
    total = sum(sum(w.values()) for w in found.values())
    return sum((max(choice_returns(w).values()) for w in found.values()), Fraction(0)) / total


def best_sort(shoe: Sequence[Card], positions: Sequence[str]) -> tuple[Fraction, frozenset[int]]:
    """The best two-group sort of the ten values seen at ``positions``: every subset of values tried, each grouping
    the coups dealt by the values seen."""
    by_values = patterns(shoe, {p: value for p in positions})
    total = sum(sum(w.values()) for w in by_values.values())
    best: tuple[Fraction, frozenset[int]] = (Fraction(-10), frozenset())
    for size in range(1, 10):
        for marked in itertools.combinations(range(10), size):
            grouped: dict[tuple[bool, ...], Won] = {}
            for key, won in by_values.items():
                acc = grouped.setdefault(tuple(v in marked for v in key), {"player": 0, "banker": 0, "tie": 0})
                for w, n in won.items():
                    acc[w] += n
            ev = sum((max(choice_returns(w).values()) for w in grouped.values()), Fraction(0)) / total
            if ev > best[0]:
                best = (ev, frozenset(marked))
    return best


RANKS13 = "A23456789TJQK"


def every_rank_sort() -> list[frozenset[str]]:
    """The 8,191 sorts of the thirteen ranks: each non-empty subset, the marked group."""
    return [frozenset(m) for size in range(1, 14) for m in itertools.combinations(RANKS13, size)]


def rank_sorts(shoe: Sequence[Card], positions: Sequence[str],
               sorts: Sequence[frozenset[str]] | None = None) -> dict[frozenset[str], Fraction]:
    """The EV of every sort of the thirteen ranks seen at ``positions`` (the marked group of ranks, each of the
    8,191 non-empty subsets, or those of ``sorts``): the coups dealt grouped by the ranks seen, then by which of
    them are marked."""
    by_ranks = patterns(shoe, {p: (lambda c: c[0]) for p in positions})
    total = sum(sum(w.values()) for w in by_ranks.values())
    out: dict[frozenset[str], Fraction] = {}
    for marked in every_rank_sort() if sorts is None else sorts:
        grouped: dict[tuple[bool, ...], Won] = {}
        for key, won in by_ranks.items():
            acc = grouped.setdefault(tuple(r in marked for r in key), {"player": 0, "banker": 0, "tie": 0})
            for w, n in won.items():
                acc[w] += n
        out[marked] = sum((max(choice_returns(w).values()) for w in grouped.values()), Fraction(0)) / total
    return out
