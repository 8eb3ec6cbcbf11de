"""`oddscalc ev` for a game file whose dealer shows cards before the decision (Caribbean Stud as a file): each
action's EV with the player's cards and the up card given, equal to a brute force written apart on reduced decks,
to the shipped Caribbean game's own hand EV on the full deck, and to the decisions the report's count made."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from oracles.stud_ev_brute import up_actions

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, CardError, Deck, parse_cards, reduced_deck
from oddscalc.games.caribbean import ev as caribbean_ev
from oddscalc.games.stud.capabilities import declared_in
from oddscalc.games.stud.ev import HandEV, ev_sections, hand_ev
from oddscalc.games.stud.game import StudGame, StudRun, build_class
from oddscalc.protocol import OptionError
from oddscalc.results import RunOptions
from oddscalc.tables import Table, load_table_file

FILES = Path(__file__).resolve().parent / "files"
ACE_KING = (1, 12, 11)  # the dealer oracle's key of the weakest qualifying hand
US_RAISE = {"royal_flush": Fraction(100), "straight_flush": Fraction(50), "four_of_a_kind": Fraction(20),
            "full_house": Fraction(7), "flush": Fraction(5), "straight": Fraction(4), "three_of_a_kind": Fraction(3),
            "two_pair": Fraction(2), "pair": Fraction(1)}  # the US table's raise, as printed (caribbean/us.toml)


@pytest.fixture(scope="module")
def game() -> StudGame:
    (found,) = [c for c in declared_in(FILES) if c.key == "caribbean-stud"]
    return build_class(found)()


def _table(game: StudGame, tid: str = "us") -> Table:
    return load_table_file(FILES / "caribbean-stud" / f"{tid}.toml", {game.key: game.table_model})


def _rules(game: StudGame, deck: Deck) -> StudRun:
    rules = game.resolve(_table(game), RunOptions(deck=deck))
    assert isinstance(rules, StudRun)
    return rules


def evs(ev: HandEV) -> dict[str, Fraction]:
    return {c.action: c.ev for c in ev.choices}


@pytest.mark.parametrize(("deck", "hand", "up"), [
    (reduced_deck("8", 3), "Ac Kd 9c 8h Qc", "Jd"),  # ace-king high against a jack
    (reduced_deck("8", 3), "8c 8d Tc Jh Qc", "Ad"),
    (reduced_deck("8", 3), "9h Th Jh Qh Kh", "8h"),  # a straight flush, raised 50:1
    (reduced_deck("9", 2), "9c Tc Jd Qd Kd", "Ac"),
    (Deck((0, 1, 2, 3, 11, 12), 2), "Ad 2d 3d 4d 5d", "Kc"),  # the wheel's straight flush
])
def test_each_action_equals_the_brute_force(game: StudGame, deck: Deck, hand: str, up: str) -> None:
    ev = hand_ev(_rules(game, deck), hand, None, up)
    assert evs(ev) == up_actions(deck, parse_cards(hand), parse_cards(up), US_RAISE, ACE_KING, [2])
    assert sum(n for _, _, n in ev.outcomes) == math.comb(deck.size - 6, 4) and ev.up == parse_cards(up)


@pytest.mark.parametrize(("hand", "up"), [("As Kd 9c 8h 3s", "Jd"), ("As Kd Jc 8h 3s", "Qd"),
                                          ("5s 5d 9c 8h 3s", "Ac"), ("Ts Js Qs Ks 9s", "2s")])
def test_the_full_deck_equals_the_shipped_caribbean_game(game: StudGame, hand: str, up: str) -> None:
    mine = hand_ev(_rules(game, FULL_DECK), hand, None, up)
    shipped = caribbean_ev.hand_ev(Session("caribbean", RunOptions(), Store(None)).resolve("us"),  # type: ignore[arg-type]
                                   parse_cards(hand), parse_cards(up)[0])
    assert evs(mine) == {"fold": shipped.fold, "bet_2x": shipped.raised}
    assert [n for _, _, n in mine.outcomes] == [shipped.not_qualified, shipped.wins, shipped.pushes, shipped.losses]
    assert sum(n for _, _, n in mine.outcomes) == 163_185  # C(46,4)


def test_the_best_action_is_the_report_s_decision(game: StudGame) -> None:
    deck = reduced_deck("9", 2)
    rules = _rules(game, deck)
    analysis = Session(game, RunOptions(deck=deck)).analyze(_table(game))  # the run's store: counted once a run
    play = analysis.decision("play")
    values = np.asarray(play.array(), dtype=bool)
    checked = 0
    for i in range(0, len(values), 23):  # every 23rd point: hands of most classes, against various up cards
        hand, _, up = play.describe(i).partition(" against ")
        ev = evs(hand_ev(rules, hand, None, up))
        assert (ev["bet_2x"] > ev["fold"]) == values[i], play.describe(i)
        checked += 1
    assert checked > 40 and values[::23].any() and not values[::23].all()


def test_the_command_s_sections_name_the_up_card(game: StudGame) -> None:
    session = Session(game, RunOptions(deck=reduced_deck("9", 2)), Store(None))
    sections = ev_sections(session, _table(game), "Ac Kd 9c Tc Qc", None, "Jd")
    assert [s.id for s in sections] == ["dealer_hands", "actions"]
    assert "against the dealer's Jd" in sections[0].intro[0]


@pytest.mark.parametrize(("up", "error", "says"), [
    (None, OptionError, "--up: give the dealer's 1 up card at Caribbean Stud (game file) (e.g. --up Qc)"),
    ("Jd Qd", CardError, "--up: 2 cards given; the dealer shows 1"),
    ("Ac", CardError, "--up: Ac is one of the player's cards"),
    ("2c", CardError, "--up: 2c is not in the deck"),
])
def test_a_bad_up_card_is_refused(game: StudGame, up: str | None, error: type[Exception], says: str) -> None:
    rules = _rules(game, reduced_deck("9", 2))
    with pytest.raises(error, match=says.replace("(", r"\(").replace(")", r"\)")):
        hand_ev(rules, "Ac Kd 9c Tc Qc", None, up)


def test_three_card_poker_takes_no_up_card() -> None:
    rules = Session("three-card-poker", RunOptions(), Store(None)).resolve(None)
    assert isinstance(rules, StudRun)
    with pytest.raises(OptionError, match="--up: the dealer shows no card before Three Card Poker's decision"):
        hand_ev(rules, "Qs 6d 4c", None, "Jd")
