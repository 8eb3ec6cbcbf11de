"""Plain brute force for a three-card game of the stud family (Three Card Poker): every deal of actual cards, the
player's decision by direct enumeration of the dealer's hands, every side bet by its own cards.

Shares no code with the engine: the three-card ranking is written again here, plainly (tuples compared), and the
six-card bonus takes the best of the six five-card hands by the reference evaluator ``hand_value``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction

from oddscalc.cards import Deck
from oddscalc.hands import HAND_CLASSES, hand_value

ORDER = ("straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card")  # best first


def three(cards: Sequence[int], deck: Deck) -> tuple[str, tuple[int, ...]]:
    """(class, comparable key) of three cards: higher key, better hand; mini royal named as such."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    suited = len({c & 3 for c in cards}) == 1
    if ranks[0] == ranks[2]:
        return "three_of_a_kind", (4, ranks[0])
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        kicker = ranks[2] if ranks[0] == ranks[1] else ranks[0]
        return "pair", (1, pair, kicker)
    top = None
    if ranks[0] - ranks[2] == 2:
        top = ranks[0]
    elif ranks == [12, 1, 0] and {0, 1, 12} <= set(deck.ranks):
        top = 1
    if top is not None and suited:
        return ("mini_royal" if top == 12 else "straight_flush"), (5, top)
    if top is not None:
        return "straight", (3, top)
    if suited:
        return "flush", (2, *ranks)
    return "high_card", (0, *ranks)


Sides = Mapping[str, tuple[str, Mapping[str, Fraction]]]  # side bet name -> (whose cards, pays by class)


def brute(deck: Deck, bonus: Mapping[str, Fraction], qualifier: tuple[int, ...],
          sides: Sides, play_win: Fraction = Fraction(1), sizes: tuple[int, ...] = (1,),
          ante_pushes: bool = False) -> tuple[Counter[str], dict[str, Counter[str]], Fraction]:
    """Deals by main event, by event of each side bet (name -> (cards, pays by class)), and the net antes won over
    every deal.

    ``qualifier`` is the smallest key the dealer plays with ((0, Q) for queen-high); ``bonus`` the ante bonus by
    class (a mini royal not named is paid as a straight flush). The ante wins 1:1 and the play ``play_win`` for each
    ante bet; a dealer who does not qualify pays the ante (pushes it when ``ante_pushes``) and pushes the play; the
    player folds, or plays the size in ``sizes`` (antes) with the best EV, exactly when it beats folding's (the
    smaller stake between equal EVs); with several sizes an event names the size played (``win_2x``)."""
    def paid_as(cls: str, pays: Mapping[str, Fraction]) -> str:
        """The class whose pay a hand gets: its own, or a straight flush's for a mini royal not named."""
        return "straight_flush" if cls == "mini_royal" and cls not in pays else cls

    def bonus_of(cls: str) -> Fraction:
        return bonus.get(paid_as(cls, bonus), Fraction(0))

    main: Counter[str] = Counter()
    won = Fraction(0)
    hands = {h: three(h, deck) for h in itertools.combinations(deck.cards, 3)}  # each hand ranked once
    side: dict[str, Counter[str]] = {name: Counter() for name in sides}
    for player in itertools.combinations(deck.cards, 3):
        cls, key = hands[player]
        rest = [c for c in deck.cards if c not in player]
        b = bonus_of(cls)
        outcomes: Counter[str] = Counter()
        for dealer in itertools.combinations(rest, 3):
            dkey = hands[dealer][1]
            outcome = ("dealer_not_qualified" if dkey < qualifier else "win" if key > dkey else
                       "push" if key == dkey else "lose")
            outcomes[outcome] += 1
            for name, (cards, pays) in sides.items():
                c = paid_as(cls, pays) if cards == "player" else best_of(frozenset(player + dealer))
                side[name][c if c in pays else "lose"] += 1
        dealt = sum(outcomes.values())
        # net antes when played: ante 1:1 and play pushed against a dealer who does not qualify, both 1:1 on a win,
        # both lost on a loss; the ante bonus on every deal played
        best, size = Fraction(-dealt), 0  # fold: the ante lost on every deal
        for bet in sorted(sizes):
            played = (0 if ante_pushes else 1) * outcomes["dealer_not_qualified"] + (1 + bet * play_win) * \
                outcomes["win"] - (1 + bet) * outcomes["lose"] + dealt * b
            if played > best:
                best, size = played, bet
        won += best
        suffix = f"_{size}x" if len(sizes) > 1 else ""
        for outcome, n in outcomes.items():
            # the contract's words: a push nets nothing and a loss loses; a bonus that turns the sign renames it
            net = {"push": b, "lose": b - 1 - size}.get(outcome)
            word = ("tie" if outcome == "push" and net else
                    ("dealer_wins" if net else "push_dealer_wins") if outcome == "lose" and net is not None and net >= 0
                    else outcome)
            main[(f"{word}_{paid_as(cls, bonus)}" if b else word) + suffix if size else "fold"] += n
    return main, side, won


_BEST: dict[frozenset[int], str] = {}


def best_of(cards: frozenset[int]) -> str:
    """The class of the best five of six cards (every five-card hand evaluated; memoised per set)."""
    if cards not in _BEST:
        best = max((hand_value(h) for h in itertools.combinations(sorted(cards), 5)),
                   key=lambda v: (-HAND_CLASSES.index(v[0]), v[1]))
        _BEST[cards] = best[0].value
    return _BEST[cards]
