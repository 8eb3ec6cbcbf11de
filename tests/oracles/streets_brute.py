"""Plain brute force for a stud-family game without a dealer (Mississippi Stud, Let It Ride): every deal of actual
cards in the order shown, each decision by direct recursion over the cards still to come (exact fractions, memoised
on the cards held and the antes in play). Shares no code with the engine beyond the reference five-card evaluator."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from oddscalc.cards import Deck
from oddscalc.hands import HandClass, hand_value

FOLD = -1  # a fold; a bet of b antes is b (0: a check)


def brute(deck: Deck, first: int, bets: Sequence[int], pays: Mapping[str, Fraction], pair_min: int, push_min: int,  # noqa: C901 - one sitting: the rules, the recursion, the deals
          larger_on_ties: bool = False, fold: bool = True, silent: Collection[int] = ()
          ) -> tuple[Counter[str], Fraction]:
    """Deals by row event (``<event>_stake_<antes>``, ``fold_stake_<antes>``) and the net antes won over every deal.

    Every bet is paid at the final hand's odds: a pair of ``pair_min`` or better pays ``pays["pair"]``, a pair of
    ``push_min`` or better pushes, a lower pair or a high card loses; a decision before each card after the first
    ``first``: fold (when ``fold``), or bet one of ``bets`` more antes (0: a check); with ``len(held)`` in
    ``silent`` the card comes with no decision (a check forced)."""
    cards = deck.cards

    @functools.cache
    def final(hand: frozenset[int]) -> tuple[str, Fraction]:
        cls, tiebreak = hand_value(sorted(hand))
        if cls == HandClass.PAIR:
            if tiebreak[0] >= pair_min and "pair" in pays:
                return "pair", pays["pair"]
            return ("push", Fraction(0)) if tiebreak[0] >= push_min else ("lose", Fraction(-1))
        if cls.value in pays:
            return cls.value, pays[cls.value]
        return "lose", Fraction(-1)

    @functools.cache
    def value(held: frozenset[int], stake: int) -> Fraction:
        if len(held) == 5:
            return stake * final(held)[1]
        return choice(held, stake)[1]

    @functools.cache
    def choice(held: frozenset[int], stake: int) -> tuple[int, Fraction]:
        rest = [c for c in cards if c not in held]
        best: tuple[int, Fraction] | None = (FOLD, Fraction(-stake)) if fold and len(held) not in silent else None
        for b in [0] if len(held) in silent else sorted(bets):
            ev = sum((value(held | {c}, stake + b) for c in rest), Fraction(0)) / len(rest)
            if best is None or ev > best[1] or (larger_on_ties and ev == best[1]):
                best = (b, ev)
        assert best is not None
        return best

    rows: Counter[str] = Counter()
    won = Fraction(0)
    for start in itertools.combinations(cards, first):
        rest = [c for c in cards if c not in start]
        for order in itertools.permutations(rest, 5 - first):
            held, stake = frozenset(start), 1
            for c in order:
                b, _ = choice(held, stake)
                if b == FOLD:
                    break
                held, stake = held | {c}, stake + b
            if len(held) < 5:
                rows[f"fold_stake_{stake}"] += 1
                won -= stake
            else:
                event, unit = final(held)
                rows[f"{event}_stake_{stake}"] += 1
                won += stake * unit
    return rows, won
