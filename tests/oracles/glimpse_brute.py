"""Plain brute forces for information models: every deal of actual cards enumerated, what the player sees read off
it, and each decision made on the seen pattern by its exact EV over the deals that show it. Shares no code with
the engines beyond the card and hand evaluators (written for issue 44 from scratch)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction

from oddscalc.cards import Deck
from oddscalc.hands import HAND_CLASSES, HandClass, hand_value

Sees = Callable[[int], Hashable]  # what is seen of a card id


@dataclass(frozen=True)
class Brute:
    """A brute force's figures: EV per unit, deals, deals where the player raised (Caribbean) or let bet 1 ride
    (Let It Ride), and deals played otherwise than the baseline's play."""

    ev: Fraction
    deals: int
    raised: int
    changed: int
    baseline_ev: Fraction


def _key(hand: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    cls, tie = hand_value(hand)
    return 9 - HAND_CLASSES.index(cls), tie


AK_QUALIFIER = (9 - HAND_CLASSES.index(HandClass.HIGH_CARD), (12, 11))


def caribbean(deck: Deck, pay: Callable[[tuple[int, ...]], Fraction], up_sees: Sees | None, hole_sees: Sees | None,
              m: int, blind_baseline: bool) -> Brute:
    """Caribbean Stud (ace-king qualifier): every player hand, dealer hand, up card among the dealer's five and
    ordered choice of the m glimpsed hole cards among the other four. The player sees his hand, ``up_sees(up)``
    (nothing when None) and ``hole_sees`` of each glimpsed hole card, and raises when raising beats folding over
    the deals that show him that (a tie folds). The baseline sees the up card outright, or nothing
    (``blind_baseline``)."""
    keys: dict[frozenset[int], tuple[int, tuple[int, ...]]] = {}
    total = Fraction(0)
    base_total = Fraction(0)
    deals = raised = changed = 0
    for player in itertools.combinations(deck.cards, 5):
        mine = _key(player)
        win_value = 1 + 2 * pay(player)
        rest = [c for c in deck.cards if c not in player]
        # (seen, baseline's seen) -> [not qualified, win, push, lose]
        tally: dict[tuple[Hashable, Hashable], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for dealer in itertools.combinations(rest, 5):
            fs = frozenset(dealer)
            if fs not in keys:
                keys[fs] = _key(dealer)
            d = keys[fs]
            outcome = 0 if d < AK_QUALIFIER else 1 if mine > d else 2 if mine == d else 3
            for up in dealer:
                holes = [c for c in dealer if c != up]
                shown_up = None if up_sees is None else up_sees(up)
                base = None if blind_baseline else up
                for glimpsed in itertools.permutations(holes, m):
                    shown = (shown_up, tuple(hole_sees(c) for c in glimpsed) if hole_sees else ())
                    tally[(shown, base)][outcome] += 1

        def raise_units(t: list[int]) -> Fraction:
            return t[0] + t[1] * win_value - 3 * t[3]

        def decide(index: int) -> dict[Hashable, bool]:
            sums: dict[Hashable, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
            for key, t in tally.items():
                for i in range(4):
                    sums[key[index]][i] += t[i]
            return {k: raise_units(t) > -sum(t) for k, t in sums.items()}

        play, base_play = decide(0), decide(1)
        for (shown, base), t in tally.items():
            n = sum(t)
            deals += n
            total += raise_units(t) if play[shown] else -n
            base_total += raise_units(t) if base_play[base] else -n
            raised += n if play[shown] else 0
            changed += n if play[shown] != base_play[base] else 0
    return Brute(total / deals, deals, raised, changed, base_total / deals)


def let_it_ride(deck: Deck, value: Callable[[tuple[int, ...]], Fraction], first_sees: tuple[Sees | None, Sees | None],
                second_sees: Sees | None) -> Brute:
    """Let It Ride: every three-card hand and ordered pair of community cards. Bet 1 is decided on the player's
    cards and ``first_sees`` of each community card (nothing when None); bet 2 on his cards, the first community
    card and ``second_sees`` of the second; each rides when its EV over the deals that look alike is positive.
    ``value`` is one bet's net result on the final hand. The baseline is the ordinary game."""
    total = base_total = Fraction(0)
    deals = rides = changed = 0
    memo: dict[frozenset[int], Fraction] = {}
    for own in itertools.combinations(deck.cards, 3):
        rest = [c for c in deck.cards if c not in own]
        bet1: dict[Hashable, Fraction] = defaultdict(Fraction)
        bet2: dict[Hashable, Fraction] = defaultdict(Fraction)
        plain2: dict[int, Fraction] = defaultdict(Fraction)
        finals: list[tuple[Hashable, Hashable, int, Fraction]] = []
        for c1, c2 in itertools.permutations(rest, 2):
            key = frozenset((*own, c1, c2))
            if key not in memo:
                memo[key] = value((*own, c1, c2))
            v = memo[key]
            s1 = tuple(None if f is None else f(c) for f, c in zip(first_sees, (c1, c2)))
            s2 = (c1, None if second_sees is None else second_sees(c2))
            bet1[s1] += v
            bet2[s2] += v
            plain2[c1] += v
            finals.append((s1, s2, c1, v))
        plain1 = sum(bet1.values(), Fraction(0)) > 0
        for s1, s2, c1, v in finals:
            r1, r2 = bet1[s1] > 0, bet2[s2] > 0
            total += v * (1 + r1 + r2)
            base_total += v * (1 + plain1 + (plain2[c1] > 0))
            deals += 1
            rides += r1
            changed += r1 != plain1 or r2 != (plain2[c1] > 0)
    return Brute(total / deals, deals, rides, changed, base_total / deals)
