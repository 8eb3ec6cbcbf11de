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


def _raise_units(t: list[int], win: tuple[int, int]) -> int:
    """A raise's units over outcomes [not qualified, win, push, lose], times ``win``'s denominator: ``win`` is
    the units a won raise returns, as (numerator, denominator) (integers: a Fraction per tally costs seconds)."""
    num, den = win
    return t[0] * den + t[1] * num - 3 * t[3] * den


def _decide(tally: dict[tuple[Hashable, Hashable], list[int]], index: int,
            win: tuple[int, int]) -> dict[Hashable, bool]:
    """Raise or fold per seen pattern (``index`` 0: the model's, 1: the baseline's), over its deals."""
    sums: dict[Hashable, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for key, t in tally.items():
        for i in range(4):
            sums[key[index]][i] += t[i]
    return {k: _raise_units(t, win) > -sum(t) * win[1] for k, t in sums.items()}


def caribbean(deck: Deck, pay: Callable[[tuple[int, ...]], Fraction], up_sees: Sees | None, hole_sees: Sees | None,
              m: int, blind_baseline: bool) -> Brute:
    """Caribbean Stud (ace-king qualifier): every player hand, dealer hand, up card among the dealer's five and
    ordered choice of the m glimpsed hole cards among the other four. The player sees his hand, ``up_sees(up)``
    (nothing when None) and ``hole_sees`` of each glimpsed hole card, and raises when raising beats folding over
    the deals that show him that (a tie folds). The baseline sees the up card outright, or nothing
    (``blind_baseline``)."""
    keys: dict[frozenset[int], tuple[int, tuple[int, ...]]] = {}
    # what is seen of each card, read once per card (not once per glimpse: millions of calls on 12 cards)
    up_seen = {c: None if up_sees is None else up_sees(c) for c in deck.cards}
    hole_seen = {c: None if hole_sees is None else hole_sees(c) for c in deck.cards}
    total = Fraction(0)
    base_total = Fraction(0)
    deals = raised = changed = 0
    for player in itertools.combinations(deck.cards, 5):
        mine = _key(player)
        win_value = 1 + 2 * pay(player)
        win = (win_value.numerator, win_value.denominator)
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
                shown_up = up_seen[up]
                base = None if blind_baseline else up
                # each ordered choice of m hole cards, as what is seen of them: the seen values of the holes
                # permuted, position by position, are the seen values of the permuted holes
                seen_holes = [hole_seen[c] for c in holes]
                for glimpsed in itertools.permutations(seen_holes, m):
                    tally[((shown_up, glimpsed if hole_sees else ()), base)][outcome] += 1

        play, base_play = _decide(tally, 0, win), _decide(tally, 1, win)
        scaled = base_scaled = 0  # this hand's units, times win's denominator
        for (seen_key, base_key), t in tally.items():
            n = sum(t)
            deals += n
            scaled += _raise_units(t, win) if play[seen_key] else -n * win[1]
            base_scaled += _raise_units(t, win) if base_play[base_key] else -n * win[1]
            raised += n if play[seen_key] else 0
            changed += n if play[seen_key] != base_play[base_key] else 0
        total += Fraction(scaled, win[1])
        base_total += Fraction(base_scaled, win[1])
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
    # what is seen of each card, read once per card rather than once per deal
    shown1 = [{c: None if f is None else f(c) for c in deck.cards} for f in first_sees]
    shown2 = {c: None if second_sees is None else second_sees(c) for c in deck.cards}
    for own in itertools.combinations(deck.cards, 3):
        rest = [c for c in deck.cards if c not in own]
        bet1: dict[Hashable, Fraction] = defaultdict(Fraction)
        bet2: dict[Hashable, Fraction] = defaultdict(Fraction)
        plain2: dict[int, Fraction] = defaultdict(Fraction)
        finals: list[tuple[Hashable, Hashable, int, Fraction]] = []  # per deal: what each bet sees, card 1, v
        for c1, c2 in itertools.permutations(rest, 2):
            key = frozenset((*own, c1, c2))
            if key not in memo:
                memo[key] = value((*own, c1, c2))
            v = memo[key]
            s1 = (shown1[0][c1], shown1[1][c2])
            s2 = (c1, shown2[c2])
            bet1[s1] += v
            bet2[s2] += v
            plain2[c1] += v
            finals.append((s1, s2, c1, v))
        plain1 = sum(bet1.values(), Fraction(0)) > 0
        for seen1, seen2, first_card, v in finals:
            r1, r2 = bet1[seen1] > 0, bet2[seen2] > 0
            total += v * (1 + r1 + r2)
            base_total += v * (1 + plain1 + (plain2[first_card] > 0))
            deals += 1
            rides += r1
            changed += r1 != plain1 or r2 != (plain2[first_card] > 0)
    return Brute(total / deals, deals, rides, changed, base_total / deals)
