"""Plain brute forces for ``oddscalc ev``: every completion of one situation dealt out and settled by hand. They
share no code with the engine beyond the plain-Python hand evaluator (``hands.hand_value``) and the table's
parsed pays."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

from oddscalc.cards import Deck
from oddscalc.hands import HAND_CLASSES, HandClass, hand_value


def _key(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    cls, tie = hand_value(cards)
    return -HAND_CLASSES.index(cls), tie


def caribbean(deck: Deck, hand: Sequence[int], up: int, qualifier: tuple[HandClass, tuple[int, ...]],
              pays: dict[str, Fraction]) -> tuple[int, Fraction, Fraction]:
    """Every set of four hole cards from the cards left: (completions, EV of folding, EV of raising), per ante.

    ``qualifier`` is the weakest qualifying hand as (class, leading ranks); ``pays`` the raise's pay by the
    player's class (``high_card`` for the ace-king that beats a qualifying dealer)."""
    q = (-HAND_CLASSES.index(qualifier[0]), qualifier[1])
    mine = _key(hand)
    pay = pays[hand_value(hand)[0].value]
    rest = [c for c in deck.cards if c not in hand and c != up]
    n, units = 0, Fraction(0)
    for hole in itertools.combinations(rest, 4):
        dealer = _key((up, *hole))
        n += 1
        if dealer < q:
            units += 1
        elif mine > dealer:
            units += 1 + 2 * pay
        elif mine < dealer:
            units -= 3
    return n, Fraction(-1), units / n
