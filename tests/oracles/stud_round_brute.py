"""Plain settlement of one round of a stud-family game with a dealer: the player's cards, the dealer's, whether the
player bets, and what each bet nets, as the rules say in words.

Shares no code with the simulator nor the engine: hands are ranked by the oracles' own plain rankings
(:func:`oracles.stud_brute.three` for three cards, :func:`oracles.dealer_brute.five` for five, the best five of
more by trying each), compared as tuples; the pays are plain dictionaries the test writes.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from oddscalc.cards import FULL_DECK
from oracles.dealer_brute import five
from oracles.stud_brute import three


def ranked(cards: Sequence[int], ranking: str) -> tuple[str, tuple[int, ...]]:
    """(class, comparable key): three cards by the three-card ranking, else the best five of the cards."""
    if ranking == "three-card":
        return three(cards, FULL_DECK)
    return max((five(frozenset(h)) for h in itertools.combinations(cards, 5)), key=lambda x: x[1])


@dataclass(frozen=True)
class Rules:
    """A dealer game's rules as plain data."""

    ranking: str
    qualifier: tuple[int, ...]  # the weakest key that qualifies (a key of ``ranked``)
    bet: int  # antes a play adds
    ante_bonus: Mapping[str, Fraction] = field(default_factory=dict)
    bet_by_hand: Mapping[str, Fraction] = field(default_factory=dict)  # a won bet's pay by the player's class
    ante_pushes_when_not_qualified: bool = False  # else the ante wins 1:1
    tie_wins: bool = False  # equal hands against a qualifying dealer: the player wins (else both push)
    # side bets: name -> (cards: "player" or "player_and_dealer", ranking, pays by class)
    sides: Mapping[str, tuple[str, str, Mapping[str, Fraction]]] = field(default_factory=dict)


def _paid(pays: Mapping[str, Fraction], name: str) -> Fraction | None:
    """A class's pay; a mini royal is a straight flush where it is not named."""
    if name in pays:
        return pays[name]
    return pays.get("straight_flush") if name == "mini_royal" else None


def settle(rules: Rules, player: Sequence[int], dealer: Sequence[int], plays: bool) -> tuple[str, dict[str, Fraction]]:
    """(what happened, net won by each bet: "main" per ante, each side bet per unit)."""
    mine, theirs = ranked(player, rules.ranking), ranked(dealer, rules.ranking)
    nets: dict[str, Fraction] = {}
    for name, (whose, ranking, pays) in rules.sides.items():
        cls = ranked(list(player) + (list(dealer) if whose == "player_and_dealer" else []), ranking)[0]
        pay = _paid(pays, cls)
        nets[name] = pay if pay is not None else Fraction(-1)
    if not plays:
        nets["main"] = Fraction(-1)
        return "fold", nets
    bonus = _paid(rules.ante_bonus, mine[0]) or Fraction(0)
    if theirs[1] < rules.qualifier:
        event, ante, bet = "not_qualified", Fraction(0 if rules.ante_pushes_when_not_qualified else 1), Fraction(0)
    elif mine[1] > theirs[1] or (mine[1] == theirs[1] and rules.tie_wins):
        win = _paid(rules.bet_by_hand, mine[0])
        event = "win" if mine[1] > theirs[1] else "tie_won"
        ante, bet = Fraction(1), rules.bet * (win if win is not None else Fraction(1))
    elif mine[1] == theirs[1]:
        event, ante, bet = "tie", Fraction(0), Fraction(0)
    else:
        event, ante, bet = "lose", Fraction(-1), Fraction(-rules.bet)
    nets["main"] = ante + bet + bonus
    return event, nets
