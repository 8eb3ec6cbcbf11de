"""The envy bonus of a Let It Ride side bet on each other seat's own three cards: the EV and variance by number of
other seats equal a plain brute force over every deal of a reduced deck (two and three other seats), random bets
too; the shipped example table's figures follow from the published three-card hand counts; bad envy blocks are
refused with the key."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.poker_side_brute import holds, side_bet_data
from oracles.ride_envy_brute import envy_moments
from pydantic import ValidationError

from oddscalc.cards import Deck, reduced_deck
from oddscalc.games.let_it_ride.table import LetItRideSideBet
from oddscalc.games.poker_side_count import count_side_bet, side_bet_wager
from oddscalc.games.poker_side_envy import EnvyFigure, envy_counts, envy_figures

THREE_CARD_CLASSES = ("pair", "three_of_a_kind", "straight", "flush", "straight_flush", "royal_flush")


def _engine(data: dict[str, Any], deck: Deck) -> tuple[EnvyFigure, ...]:
    bet = LetItRideSideBet.model_validate(data)
    assert bet.envy is not None
    w = side_bet_wager("b", bet, count_side_bet(bet, deck), "")
    amounts = {c: a / bet.stake for c, a in bet.envy.amounts().items()}
    return envy_figures(tuple(r.units for r in w.rows), amounts, envy_counts(bet, deck), bet.envy.seats, deck)


def _net(pays: Any) -> Fraction:
    """The net stakes a pay wins on a stake of 1, read by hand: odds "a:b" win a/b, an amount n is n - 1."""
    if pays == "lose":
        return Fraction(-1)
    if pays == "push":
        return Fraction(0)
    if isinstance(pays, str) and ":" in pays:
        a, b = pays.split(":")
        return Fraction(a) / Fraction(b)
    return Fraction(str(pays)) - 1


def _own(rules: Sequence[Mapping[str, Any]], otherwise: Fraction) -> Any:
    """The bet's net win on the player's three cards: the first rule whose conditions all hold (the plain data)."""
    def won(cards: tuple[int, ...]) -> Fraction:
        for rule in rules:
            conds = rule["cards_when"] if isinstance(rule["cards_when"], list) else [rule["cards_when"]]
            if all(holds(c, tuple(sorted(cards))) for c in conds):
                return _net(rule["pays"])
        return otherwise
    return won


def test_two_and_three_other_seats_equal_the_brute_force() -> None:
    """12 cards (jack to ace, three suits): every deal of the player and three other seats, 369,600 of them."""
    deck = reduced_deck("J", 3)
    rules: list[dict[str, Any]] = [
        {"event": "straight_flush", "cards_when": {"cards": "player", "hand": ["royal_flush", "straight_flush"]},
         "pays": "40:1"},
        {"event": "trips", "cards_when": {"cards": "player", "hand": "three_of_a_kind"}, "pays": "30:1"},
        {"event": "straight", "cards_when": {"cards": "player", "hand": "straight"}, "pays": 7},
        {"event": "red", "cards_when": [{"cards": "player", "colours": "red"}], "pays": "push"},
        {"event": "pair", "cards_when": [{"cards": "player", "hand": "pair"}], "pays": "1:2"}]
    envy = {"three_of_a_kind": 3, "pair": 1, "royal_flush": "7.50", "straight": "0.25"}
    got = _engine({"title": "t", "rules": rules, "envy": envy | {"seats": [2, 3]}}, deck)
    want = envy_moments(_own(rules, Fraction(-1)), {k: _net(v) + 1 for k, v in envy.items()}, deck, 3, (2, 3))
    assert [(f.seats, f.ev, f.variance) for f in got] == [(n, *want[n]) for n in (2, 3)]
    assert got[1].ev - got[0].ev == got[0].seat_ev  # linear in the seats


@functools.cache
def _small() -> Deck:
    return reduced_deck("Q", 3)  # 9 cards: 1,680 deals of the player and two other seats


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_bets_with_envy_for_two_seats_equal_the_brute_force(data: st.DataObject) -> None:
    deck = _small()
    bet = data.draw(st.composite(lambda draw: side_bet_data(draw, {"player": 3}, deck))())
    for rule in bet["rules"]:  # a bet with envy reads the player's three cards alone
        for c in rule["cards_when"]:
            c["cards"] = ["player"]
            if "hand" in c:
                c["hand"] = [h for h in c["hand"] if h not in ("four_of_a_kind", "two_pair", "full_house")] or "pair"
            c.pop("hand_at_least", None)
            if len(c) == 1:
                c["same"] = "colour"
    classes = data.draw(st.lists(st.sampled_from(THREE_CARD_CLASSES), min_size=1, max_size=3, unique=True))
    envy = {c: data.draw(st.sampled_from([1, 3, "0.50"])) for c in classes}
    got = _engine(bet | {"envy": envy | {"seats": [1, 2]}}, deck)
    want = envy_moments(_own(bet["rules"], Fraction(-1)), {k: _net(v) + 1 for k, v in envy.items()}, deck, 3, (1, 2))
    assert [(f.ev, f.variance) for f in got] == [want[1], want[2]]


def test_the_shipped_table_reports_its_envy_from_the_published_three_card_counts() -> None:
    """The example table's 3-Card Bonus with envy: the bet alone is the published 40/30/6/3/1 figure's, and each
    other seat adds ($50 x 4 mini royals + $10 x 44 other straight flushes + $2 x 52 three of a kind) / 22,100 per $5,
    the counts of Shackleford's Three Card Poker appendix 1 (48 straight flushes in all, 52 three of a kind)."""
    from oddscalc import analyze

    a = analyze("let-it-ride", table="three-card-bonus-envy", brief=True)
    w = next(w for w in a.wagers if w.wager == "three_card_bonus_envy")
    alone = Fraction(40 * 48 + 30 * 52 + 6 * 720 + 3 * 1096 + 1 * 3744 - (22100 - 48 - 52 - 720 - 1096 - 3744), 22100)
    assert w.expected_value == alone
    rows = a.section("envy_three_card_bonus_envy").records()
    seat = Fraction(50 * 4 + 10 * 44 + 2 * 52, math.comb(52, 3)) / 5  # per stake of $5
    assert [r["other_seats"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert [r["ev"] for r in rows] == [alone + n * seat for n in range(1, 7)]
    assert all(b["variance"] > a_["variance"] for a_, b in zip(rows, rows[1:]))  # type: ignore[operator]


@pytest.mark.parametrize(("envy", "message"), [
    ({"four_of_a_kind": 5}, "four_of_a_kind: a seat's own three cards cannot be one"),
    ({"two_pair": 5}, "two_pair: a seat's own three cards cannot be one"),
    ({"seats": [1]}, "pays at least one class"),
    ({"pair": 0}, "an envy amount is more than 0"),
])
def test_bad_envy_blocks_are_refused(envy: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        LetItRideSideBet.model_validate({"title": "t", "envy": envy, "rules": [
            {"event": "x", "cards_when": {"cards": "player", "hand": "flush"}, "pays": "1:1"}]})


def test_envy_on_a_bet_reading_the_community_cards_is_refused() -> None:
    """The community cards are every seat's: the pair argument needs the bet to read the player's own cards."""
    with pytest.raises(ValidationError, match="reads the player's cards only, not 'community1'"):
        LetItRideSideBet.model_validate({"title": "t", "envy": {"straight": 10}, "rules": [
            {"event": "x", "cards_when": {"cards": ["player", "community1"], "hand": "flush"}, "pays": "1:1"}]})


def test_too_many_seats_for_the_deck_are_refused() -> None:
    from oddscalc.protocol import OptionError

    with pytest.raises(OptionError, match="3 other seats: the player's and their three cards each are 12 cards"):
        _engine({"title": "t", "envy": {"pair": 1, "seats": [1, 3]}, "rules": [
            {"event": "x", "cards_when": {"cards": "player", "hand": "pair"}, "pays": "1:1"}]}, _small())
