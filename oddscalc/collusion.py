"""Collusion at Let It Ride: a player who sees a partner's three cards, exact over every deal.

Counting argument. A deal is the player's three cards t, the partner's three P (from the others),
and the two community cards in order: C(n,3) x C(n-3,3) x (n-6) x (n-7) deals. The player plays
optimally knowing P; the partner's own bets are not counted. With v(h) the net units of one bet on
the final hand h, the three bets pay v(final) x (1 + ride1 + ride2), so the EV splits in three:

- every deal's v(final): each five-card hand is the final hand of C(5,3) x 2 x C(n-5,3) deals;
- bet 1 rides on (t, P) exactly when S1 = sum of v(t + {x, y}) over the pairs avoiding P is
  positive, and then earns 2 S1 (the pair comes in either order). By inclusion and exclusion over
  P, S1 = S3(t) - sum_p S4(t + p) + sum_{p<q} v(t + {p, q}), from the pay-free counts (S3 and S4 are
  the full-deck sums of a three- and a four-card holding);
- bet 2 rides on a four-card q and P when S2 = S4(q) - sum_p v(q + p) is positive, and earns S2; a
  four-card set arises from 4 (t, first card) splits.

Every sum is taken once per suit class of t or q (with its size) over all partner sets P of the
cards left, in int64 (checked to fit): exact, and about 10^9 small operations in numpy on 52 cards.
Cards dealt to a partner and never seen change nothing: the same sums with P unknown average back
to the ordinary game, which the tests check on a reduced deck.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

import numpy as np

from .cards import Deck
from .games.let_it_ride import HoldingCounts, main_wager, pay_classes, solve
from .hands import colex_indices
from .results import Cell, Column, Section
from .symmetry import suit_class_index


@cache
def _triples(n: int) -> np.ndarray:
    return np.array(list(combinations(range(n), 3)), dtype=np.int64).reshape(-1, 3)


@dataclass(frozen=True)
class Partnered:
    """The game with one partner's three cards seen, against the ordinary game."""

    deals: int
    ev: Fraction  # per base bet, the player's three bets
    ev_unseen: Fraction  # the ordinary game's (the partner's cards dealt, not seen)
    bet1_rides: int  # (t, P) situations where bet 1 rides, of C(n,3) C(n-3,3)
    bet1_situations: int
    bet2_rides: int  # (q, P) situations where bet 2 rides, of C(n,4) C(n-4,3)
    bet2_situations: int


def _positions(deck: Deck) -> np.ndarray:
    position = np.full(52, -1, dtype=np.int64)
    position[list(deck.cards)] = np.arange(deck.size)
    return position


def partner_seen(counts: HoldingCounts, pays: list[Fraction], min_rank: int,
                 progress: Callable[[int, int], None] | None = None) -> Partnered:
    """Exact EV of Let It Ride when the player sees one partner's three cards, for the count's deck."""
    deck = counts.deck
    n = deck.size
    sol = solve(counts, pays)
    den = sol.denominator
    values = np.array([int(p * den) for p in pays] + [-den], dtype=np.int64)
    v5 = values[pay_classes(deck, min_rank)]  # every five-card hand (colex), net units x den
    s3 = np.asarray(sol.s3, dtype=np.int64)
    s4 = np.asarray(sol.s4, dtype=np.int64)
    if int(np.abs(v5).max()) * math.comb(n, 2) * 8 >= 2**62:
        raise ValueError("pays too large for the exact int64 sums of the partner analysis")
    class4 = suit_class_index(4, deck)
    pos = _positions(deck)
    everyone = np.arange(n)

    # term 1: every deal's final hand
    per_hand = math.comb(5, 3) * 2 * math.comb(n - 5, 3)
    term1 = int(v5.sum()) * per_hand

    # term 2: bet 1, per three-card class t
    term2 = 0
    rides1 = 0
    for i, rep in enumerate(counts.reps3):
        own = np.sort(pos[rep.astype(np.int64)])
        rest = np.setdiff1d(everyone, own)  # n - 3 positions, ascending
        b = s4[class4[colex_indices(np.sort(np.concatenate([np.broadcast_to(own, (len(rest), 3)),
                                                             rest[:, None]], axis=1), axis=1))]]
        pairs = np.array(list(combinations(range(len(rest)), 2)), dtype=np.int64)
        five = np.sort(np.concatenate([np.broadcast_to(own, (len(pairs), 3)), rest[pairs]], axis=1), axis=1)
        vv = np.zeros((len(rest), len(rest)), dtype=np.int64)
        vv[pairs[:, 0], pairs[:, 1]] = v5[colex_indices(five)]
        vv += vv.T
        tr = _triples(len(rest))
        x, y, z = tr[:, 0], tr[:, 1], tr[:, 2]
        s1 = s3[i] - b[x] - b[y] - b[z] + vv[x, y] + vv[x, z] + vv[y, z]
        w = int(counts.weights3[i])
        term2 += 2 * w * int(np.maximum(s1, 0).sum())
        rides1 += w * int((s1 > 0).sum())
        if progress is not None:
            progress(i + 1, len(counts.reps3) + len(counts.reps4))

    # term 3: bet 2, per four-card class q
    term3 = 0
    rides2 = 0
    for j, rep in enumerate(counts.reps4):
        own = np.sort(pos[rep.astype(np.int64)])
        rest = np.setdiff1d(everyone, own)
        a = v5[colex_indices(np.sort(np.concatenate([np.broadcast_to(own, (len(rest), 4)), rest[:, None]], axis=1),
                                     axis=1))]
        tr = _triples(len(rest))
        s2 = s4[j] - a[tr[:, 0]] - a[tr[:, 1]] - a[tr[:, 2]]
        w = int(counts.weights4[j])
        term3 += 4 * w * int(np.maximum(s2, 0).sum())
        rides2 += w * int((s2 > 0).sum())
        if progress is not None and j % 512 == 0:
            progress(len(counts.reps3) + j + 1, len(counts.reps3) + len(counts.reps4))

    deals = math.comb(n, 3) * math.comb(n - 3, 3) * (n - 6) * (n - 7)
    ev = Fraction(term1 + term2 + term3, den * deals)
    unseen = main_wager(counts, sol, pays, min_rank, False).expected_value
    return Partnered(deals, ev, unseen, rides1, math.comb(n, 3) * math.comb(n - 3, 3), rides2,
                     math.comb(n, 4) * math.comb(n - 4, 3))


def section(p: Partnered) -> Section:
    """The partner's cards seen, against the ordinary game."""
    rows: tuple[tuple[Cell, ...], ...] = (
        ("ordinary game (the partner's cards unseen)", p.ev_unseen, -p.ev_unseen, None, None),
        ("one partner's three cards seen", p.ev, -p.ev, Fraction(p.bet1_rides, p.bet1_situations),
         Fraction(p.bet2_rides, p.bet2_situations)),
        ("what seeing them is worth", p.ev - p.ev_unseen, None, None, None),
    )
    return Section(
        "partner_seen", "Let It Ride with one partner's cards seen",
        (Column("play", "Play"), Column("ev", "EV per base bet", "signed_percent", 4),
         Column("house_edge", "House edge", "signed_percent", 4),
         Column("bet1_ride", "Bet 1 rides", "percent", 3), Column("bet2_ride", "Bet 2 rides", "percent", 3)),
        rows,
        intro=(f"Exact over all {p.deals:,} deals: the player's three cards, the partner's three, and the two "
               "community cards in order. The player lets each bet ride exactly when its EV given every card seen "
               "(its own and the partner's) is positive.",),
        notes=("Cards dealt to another seat and never seen change no expected value: the ordinary game's row is the "
               "same whether or not a partner was dealt (the tests check it on a reduced deck).",))
