"""Plain brute forces for the evidence engine: every completion of the dealer's hand, with some of his cards known,
dealt out and settled by hand; and a dealt round settled outright. They share no code with the engine beyond the
plain-Python hand evaluator (``hands.hand_value``) and the table's parsed pays."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

from oddscalc.cards import Deck
from oddscalc.hands import HAND_CLASSES, HandClass, hand_value


def _key(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    cls, tie = hand_value(cards)
    return -HAND_CLASSES.index(cls), tie


def raise_units(hand: Sequence[int], dealer: Sequence[int], qualifier: tuple[HandClass, tuple[int, ...]],
                pays: dict[str, Fraction]) -> Fraction:
    """What raising ``hand`` against the dealer's five cards wins, in antes: +1 on a dealer who does not qualify,
    1 + 2 x pay on a win, 0 on a push, -3 on a loss (folding is -1 whatever the dealer holds)."""
    q = (-HAND_CLASSES.index(qualifier[0]), qualifier[1])
    mine, theirs = _key(hand), _key(dealer)
    if theirs < q:
        return Fraction(1)
    if mine > theirs:
        return 1 + 2 * pays[hand_value(hand)[0].value]
    return Fraction(0) if mine == theirs else Fraction(-3)


def caribbean_known(deck: Deck, hand: Sequence[int], dealer_known: Sequence[int],
                    qualifier: tuple[HandClass, tuple[int, ...]], pays: dict[str, Fraction]) -> tuple[int, Fraction]:
    """Every completion of the dealer's five cards from the cards left, ``dealer_known`` (the up card and any hole
    cards known) held: (completions, EV of raising per ante)."""
    rest = [c for c in deck.cards if c not in hand and c not in dealer_known]
    n, units = 0, Fraction(0)
    for more in itertools.combinations(rest, 5 - len(dealer_known)):
        n += 1
        units += raise_units(hand, (*dealer_known, *more), qualifier, pays)
    return n, units / n
