"""Plain brute force for one situation of a stud-family game file: each action's EV, written apart from the
engine's ``games/stud/ev.py``. With a dealer: every set of his cards from those left, ranked by the stud oracle's
own three-card ranking (:func:`oracles.stud_brute.three`). Without one: every card still to come, in order, each
later decision by direct recursion (memoised on the cards held and the antes in play), the final hand ranked by
the reference five-card evaluator."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from oddscalc.cards import Deck
from oddscalc.hands import HandClass, hand_value
from oracles.stud_brute import three


def dealer_actions(deck: Deck, player: Sequence[int], bonus: Mapping[str, Fraction], qualifier: tuple[int, ...],
                   sizes: Sequence[int]) -> dict[str, Fraction]:
    """``fold`` and ``bet_<b>x`` -> EV per ante: the ante and the bets 1:1 on a win against a qualifying dealer,
    the ante 1:1 and the bets pushed against one who does not qualify, everything pushed on equal hands, lost on
    a loss; the ante bonus of the player's class (a mini royal not named is a straight flush) on every bet."""
    cls, key = three(player, deck)
    b = bonus.get("straight_flush" if cls == "mini_royal" and cls not in bonus else cls, Fraction(0))
    rest = [c for c in deck.cards if c not in player]
    out = {"fold": Fraction(-1)}
    for size in sizes:
        won, hands = Fraction(0), 0
        for dealer in itertools.combinations(rest, 3):
            dkey = three(dealer, deck)[1]
            hands += 1
            if dkey < qualifier:
                won += 1 + b
            elif key > dkey:
                won += 1 + size + b
            elif key == dkey:
                won += b
            else:
                won += b - 1 - size
        out[f"bet_{size}x"] = won / hands
    return out


def street_actions(deck: Deck, held: Sequence[int], stake: int, decisions: Mapping[int, tuple[Sequence[int], bool]],
                   pays: Mapping[str, Fraction], pair_min: int, push_min: int) -> dict[str, Fraction]:
    """``fold`` (where allowed), ``check`` (a bet of 0) and ``bet_<b>x`` -> EV per ante at the decision taken
    holding ``held`` with ``stake`` antes in play; ``decisions`` maps the cards held to (bets, fold allowed). Every
    bet is paid at the final hand's odds: a pair of ``pair_min`` or better ``pays["pair"]``, of ``push_min`` or
    better pushes, a class not in ``pays`` loses."""
    cards = deck.cards

    def final(hand: Collection[int]) -> Fraction:
        cls, tiebreak = hand_value(sorted(hand))
        if cls == HandClass.PAIR:
            if tiebreak[0] >= pair_min and "pair" in pays:
                return pays["pair"]
            return Fraction(0) if tiebreak[0] >= push_min else Fraction(-1)
        return pays.get(cls.value, Fraction(-1))

    def next_mean(hand: frozenset[int], antes: int) -> Fraction:
        rest = [c for c in cards if c not in hand]
        return sum((value(hand | {c}, antes) for c in rest), Fraction(0)) / len(rest)

    @functools.cache
    def value(hand: frozenset[int], antes: int) -> Fraction:
        if len(hand) == 5:
            return antes * final(hand)
        if len(hand) not in decisions:
            return next_mean(hand, antes)
        bets, fold = decisions[len(hand)]
        return max([Fraction(-antes)] * fold + [next_mean(hand, antes + b) for b in bets])

    bets, fold = decisions[len(held)]
    out = {"fold": Fraction(-stake)} if fold else {}
    for b in bets:
        out["check" if b == 0 else f"bet_{b}x"] = next_mean(frozenset(held), stake + b)
    return out


def up_actions(deck: Deck, player: Sequence[int], up: Sequence[int], raise_pays: Mapping[str, Fraction],
               qualifier: tuple[int, ...], sizes: Sequence[int], dealer_cards: int = 5) -> dict[str, Fraction]:
    """A five-card game whose dealer shows ``up`` before the decision (Caribbean Stud's shape): ``fold`` and
    ``bet_<b>x`` -> EV per ante over every set of his hole cards from the cards left, each hand ranked by the dealer
    oracle's own five-card ranking (:func:`oracles.dealer_brute.five`). The ante 1:1 and the bets pushed against a
    dealer who does not qualify; on a win the ante 1:1 and each bet by the player's class in ``raise_pays`` (else
    1:1); everything pushed on equal hands, lost on a loss."""
    from oracles.dealer_brute import five

    cls, key = five(frozenset(player))
    rest = [c for c in deck.cards if c not in player and c not in up]
    out = {"fold": Fraction(-1)}
    for size in sizes:
        won, hands = Fraction(0), 0
        for hole in itertools.combinations(rest, dealer_cards - len(up)):
            _, dealer = five(frozenset((*up, *hole)))
            hands += 1
            if dealer < qualifier:
                won += 1
            elif key > dealer:
                won += 1 + size * raise_pays.get(cls, Fraction(1))
            elif key < dealer:
                won -= 1 + size
        out[f"bet_{size}x"] = won / hands
    return out
