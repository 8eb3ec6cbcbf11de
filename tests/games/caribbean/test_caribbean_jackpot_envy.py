"""An envy bonus on the Caribbean Stud ``[pays.jackpot]`` block (paid on a folded hand, so the Jackpot reads the
player's five cards alone): the report's EV and variance by number of other seats equal a plain brute force over
every deal of a reduced deck (one and two other seats), and a Jackpot forfeited on a fold refuses an envy."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from oracles.ride_envy_brute import envy_moments, seat_class

from oddscalc.cards import reduced_deck

TABLE = """
game = "caribbean"
title = "t"

[rules]
dealer_qualifier = "ace-king"
jackpot_paid_on_fold = {paid}

[pays.main]
royal_flush = "100:1"
straight_flush = "50:1"
four_of_a_kind = "20:1"
full_house = "7:1"
flush = "5:1"
straight = "4:1"
three_of_a_kind = "3:1"
two_pair = "2:1"
pair = "1:1"
high_card = "1:1"

[pays.jackpot]
stake = 2
royal_flush = 500
straight_flush = "50:1"
full_house = 20
flush = 7

[pays.jackpot.envy]
full_house = 3
straight = 1
royal_flush = "20.50"
seats = [1, 2]
"""

PRIZE = {"royal_flush": Fraction(500, 2) - 1, "straight_flush": Fraction(50), "full_house": Fraction(20, 2) - 1,
         "flush": Fraction(7, 2) - 1}  # net stakes won, read by hand: an amount A on a stake of 2 is A/2 - 1


def test_one_and_two_other_seats_equal_the_brute_force(tmp_path: Path) -> None:
    """15 cards (ten to ace, three suits): every deal of the player and two other seats, 756,756 of them."""
    from oddscalc.analysis import Session
    from oddscalc.catalog import load_table
    from oddscalc.results import RunOptions

    path = tmp_path / "jackpot-envy.toml"
    path.write_text(TABLE.replace("{paid}", "true"))
    deck = reduced_deck("T", 3)
    sec = Session("caribbean", RunOptions(brief=True, deck=deck)).analyze(load_table(path)).section("envy_jackpot")
    envy = {"full_house": Fraction(3, 2), "straight": Fraction(1, 2), "royal_flush": Fraction(41, 4)}  # per stake
    want = envy_moments(lambda cards: PRIZE.get(seat_class(cards), Fraction(-1)), envy, deck, 5, (1, 2))
    rows = sec.records()
    assert [r["other_seats"] for r in rows] == [1, 2]
    assert [(r["ev"], r["variance"]) for r in rows] == [want[1], want[2]]


def test_an_envy_on_a_jackpot_forfeited_on_a_fold_is_refused(tmp_path: Path) -> None:
    from oddscalc.catalog import load_table
    from oddscalc.datafile import TableError

    path = tmp_path / "bad.toml"
    path.write_text(TABLE.replace("{paid}", "false"))
    with pytest.raises(TableError, match="an envy on the Jackpot needs \\[rules\\] jackpot_paid_on_fold = true"):
        load_table(path)
