"""What a seat's two cards are worth at the house baccarat: drawing and standing against a plain brute force over
every ordered deal of a small shoe (one and two seats), and the engine's seat EV as the mean over the two-card
compositions of the play's choice (a second method)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from oracles.house_brute import LITERAL, ON_0_5, Tally, brute_one, brute_two, mixed_strategy, seat_counts

from oddscalc.analysis import Session
from oddscalc.cards import CardError, parse_cards
from oddscalc.games.house_baccarat.count import LOSS, WIN, HouseBaccaratRules
from oddscalc.games.house_baccarat.ev import seat_ev, values_ev
from oddscalc.games.house_baccarat.settle import seat_ev as engine_seat_ev
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.house_baccarat.table import TableRules
from oddscalc.games.shoe import VALUES, Shoe

SUIT = list("A23456789TK")  # a suit but two of its cards worth 0: each value, and a pair of zeros dealt
SMALL = list("AA3567QK9")


def plain(tally: Tally, u: int, w: int, action: int) -> Fraction:
    """EV at 1:1 over the deals that give the seat values u and w, for one action, read off the brute force."""
    deals = [(o, n) for (p1, p2, a, o), n in tally.items() if {p1, p2} == {u, w} and a == action]
    wins = sum(n for o, n in deals if o == WIN)
    losses = sum(n for o, n in deals if o == LOSS)
    return Fraction(wins - losses, sum(n for _, n in deals))


@pytest.mark.parametrize("rules", [LITERAL, ON_0_5], ids=["literal", "on-0-5"])
def test_one_seat_equals_brute_force(rules: TableRules) -> None:
    tally = brute_one(SUIT, rules)
    sc = seat_counts(Shoe.from_ranks(dict(Counter(SUIT))), 1, mixed_strategy(), rules, infinite=False)
    for u, w in ((5, 0), (3, 4), (0, 0), (6, 1), (8, 1)):
        r = values_ev(sc, Fraction(1), u, w)
        assert (r.draw, r.stand) == (plain(tally, u, w, 1), plain(tally, u, w, 0))
    assert values_ev(sc, Fraction(1), 9, 0).natural


def test_two_seats_equal_brute_force() -> None:
    other = mixed_strategy()
    tally = brute_two(SMALL, LITERAL, other)
    sc = seat_counts(Shoe.from_ranks(dict(Counter(SMALL))), 2, other, LITERAL, infinite=False)
    for u, w in ((5, 0), (1, 1), (3, 6), (7, 0)):
        r = values_ev(sc, Fraction(1), u, w)
        assert (r.draw, r.stand) == (plain(tally, u, w, 1), plain(tally, u, w, 0))


def test_the_seat_is_the_mean_of_its_hands() -> None:
    """The engine's EV of a play equals the mean, weighted by the rounds that deal each composition, of the EV of
    the play's choice on it here."""
    sc = seat_counts(Shoe.from_ranks(dict(Counter(SUIT))), 1, mixed_strategy(), LITERAL, infinite=False)
    play = Strategy.by_totals("draw-0-4", range(5))
    total = Fraction(0)
    for u in range(VALUES):
        for w in range(u, VALUES):
            if u == w != 0:
                with pytest.raises(CardError, match="cannot deal"):  # one suit: one card of each value but 0
                    values_ev(sc, Fraction(1), u, w)
                continue
            r = values_ev(sc, Fraction(1), u, w)
            total += r.rounds * (r.draw if play.matrix[u, w] else r.stand)
    assert total / sc.total == engine_seat_ev(sc, play, Fraction(1))


def test_seat_ev_through_a_session() -> None:
    session = Session("house-baccarat")
    rules = session.resolve("seed")
    assert isinstance(rules, HouseBaccaratRules) and rules.players == 1
    five, play = seat_ev(session, rules, parse_cards("5h Kd"))
    again, _ = seat_ev(session, rules, parse_cards("Qc 5s"))  # the same values, in the other order
    assert (five.first, five.second, five.draw, five.stand) == (5, 0, again.draw, again.stand) and play == "optimal"
    with pytest.raises(CardError, match="2 cards, not 3"):
        seat_ev(session, rules, parse_cards("5h Kd 2c"))
