"""The envy bonus of a Caribbean Stud side bet: the EV and variance by number of other seats equal a plain brute
force over every deal of a reduced deck (one and two other seats), the full deck's pair counts equal the ones
counted by hand, the shipped table's figures follow from them, and a bad envy block is refused with the key."""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.poker_envy_brute import envy_moments
from oracles.poker_side_brute import side_bet_data
from pydantic import ValidationError

from oddscalc.cards import Deck, reduced_deck
from oddscalc.games.caribbean.table import CaribbeanSideBet
from oddscalc.games.poker_side_count import count_side_bet, side_bet_wager
from oddscalc.games.poker_side_envy import EnvyFigure, envy_counts, envy_figures
from oddscalc.hands import HandClass

ENVY_CLASSES = ("pair", "two_pair", "three_of_a_kind", "straight", "full_house", "royal_flush")


def _engine(data: dict[str, Any], deck: Deck) -> tuple[EnvyFigure, ...]:
    bet = CaribbeanSideBet.model_validate(data)
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


def test_one_and_two_other_seats_equal_the_brute_force() -> None:
    """15 cards (ten to ace, three suits): every deal of the player and two other seats, 756,756 of them."""
    deck = reduced_deck("T", 3)
    rules: list[dict[str, Any]] = [
        {"event": "full", "cards_when": {"cards": "player", "hand": "full_house"}, "pays": "10:1"},
        {"event": "trips", "cards_when": {"cards": "player", "hand_at_least": "three_of_a_kind"}, "pays": 3},
        {"event": "red", "cards_when": [{"cards": "player", "colours": "red"}], "pays": "push"},
        {"event": "high_pair", "cards_when": [{"cards": "player", "hand": "pair"},
                                        {"cards": "player", "ranks": ["A", "K", "Q", "J"]}], "pays": "1:2"}]
    envy = {"three_of_a_kind": 2, "two_pair": 1, "royal_flush": "7.50"}
    got = _engine({"title": "t", "rules": rules, "envy": envy | {"seats": [1, 2]}}, deck)
    values = {r["event"]: _net(r["pays"]) for r in rules} | {"lose": Fraction(-1)}
    want = envy_moments(rules, "lose", values, {k: _net(v) + 1 for k, v in envy.items()}, deck, (1, 2))
    assert [(f.seats, f.ev, f.variance) for f in got] == [(n, *want[n]) for n in (1, 2)]
    assert got[1].ev - got[0].ev == got[0].seat_ev  # linear in the seats


@functools.cache
def _small() -> Deck:
    return reduced_deck("J", 3)  # 12 cards: 16,632 deals of the player and one other seat


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_bets_with_envy_for_one_seat_equal_the_brute_force(data: st.DataObject) -> None:
    deck = _small()
    bet = data.draw(st.composite(lambda draw: side_bet_data(draw, {"player": 5}, deck))())
    classes = data.draw(st.lists(st.sampled_from(ENVY_CLASSES), min_size=1, max_size=3, unique=True))
    envy = {c: data.draw(st.sampled_from([1, 3, "0.50"])) for c in classes}
    got = _engine(bet | {"envy": envy | {"seats": 1}}, deck)
    values = {r["event"]: _net(r["pays"]) for r in bet["rules"]} | {"nothing": Fraction(-1)}
    want = envy_moments(bet["rules"], "nothing", values, {k: _net(v) + 1 for k, v in envy.items()}, deck, (1,))
    assert (got[0].ev, got[0].variance) == want[1]


@pytest.mark.deep
def test_full_deck_pair_counts_equal_the_ones_counted_by_hand() -> None:
    """Ordered disjoint pairs of the rare hands, counted by hand: four of a kind twice, 624 x 11 other ranks x 43
    kickers; a royal after a quad, the quad's rank two to nine (8) with its kicker among the royal's ten to ace
    (20 cards, 3 royals miss it) or not (28, 4); straight flushes of two suits 36 x 27, of one suit 4 x 20
    ordered windows five apart."""
    from oddscalc.cards import FULL_DECK

    bet = CaribbeanSideBet.model_validate({"title": "t", "rules": [
        {"event": "flush", "cards_when": {"cards": "player", "hand": "flush"}, "pays": 50}],
        "envy": {"four_of_a_kind": 25, "straight_flush": 50, "royal_flush": 100}})
    c = envy_counts(bet, FULL_DECK)
    q, s, r = HandClass.FOUR_OF_A_KIND, HandClass.STRAIGHT_FLUSH, HandClass.ROYAL_FLUSH
    assert c.other_other[(q, q)] == 624 * 11 * 43
    assert c.other_other[(q, r)] == c.other_other[(r, q)] == 8 * (20 * 3 + 28 * 4)
    assert c.other_other[(s, s)] == 36 * 27 + 4 * 20
    assert c.other_other[(r, r)] == 4 * 3
    assert c.other_other[(r, s)] == 4 * 27 + 4 * 4
    for k, n in ((q, 624), (s, 36), (r, 4)):  # every hand of a class beside every hand of the 47 cards left
        assert sum(c.player_other[(e, k)] for e in range(2)) == n * math.comb(47, 5)
    # a flush beside a royal: of another suit (1,277 flushes each), or of the royal's own from two to nine (C(8,5)
    # less the four straight flushes there)
    assert c.player_other[(0, r)] == 4 * (3 * 1277 + math.comb(8, 5) - 4)


@pytest.mark.deep
def test_the_shipped_table_reports_its_envy_and_the_published_break_even() -> None:
    """The progressive declared as data reproduces the progressive table's published break-even meter (263,205);
    the envy section's EV is the bet's plus n x (25 x 624 + 50 x 36 + 100 x 4) / C(52,5) per other seat."""
    from oddscalc import analyze

    a = analyze("caribbean", table="progressive-envy")
    even = a.section("progressive_progressive").records()
    assert [r["meter"] for r in even if r["meter_at"] == "break-even meter"] == [Fraction(5000900, 19)]
    rows = a.section("envy_progressive").records()
    seat = Fraction(25 * 624 + 50 * 36 + 100 * 4, math.comb(52, 5))
    w = next(w for w in a.wagers if w.wager == "progressive")
    alone = sum((r.units * r.combinations for r in w.rows), Fraction(0)) / w.total_combinations
    assert [r["ev"] for r in rows] == [alone + n * seat for n in range(1, 7)]
    assert all(b["variance"] > a_["variance"] for a_, b in zip(rows, rows[1:]))  # type: ignore[operator]


@pytest.mark.parametrize(("envy", "message"), [
    ({"four_of_a_kind": 0}, "an envy amount is more than 0"),
    ({"seats": [1]}, "pays at least one class"),
    ({"four_of_a_kind": 5, "seats": 9}, "a number of other seats from 1 to 8"),
    ({"four_of_a_kind": 5, "seats": []}, "an empty list reports nothing"),
    ({"five_of_a_kind": 5}, "Extra inputs are not permitted"),
    ({"four_of_a_kind": 2.5}, "write amounts as integers or decimal strings"),
])
def test_bad_envy_blocks_are_refused(envy: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        CaribbeanSideBet.model_validate({"title": "t", "envy": envy, "rules": [
            {"event": "x", "cards_when": {"cards": "player", "hand": "flush"}, "pays": "1:1"}]})


def test_envy_on_a_bet_reading_the_dealer_is_refused() -> None:
    with pytest.raises(ValidationError, match="reads the player's cards only, not 'dealer_up'"):
        CaribbeanSideBet.model_validate({"title": "t", "envy": {"royal_flush": 100}, "rules": [
            {"event": "x", "cards_when": {"cards": ["player", "dealer_up"], "hand": "flush"}, "pays": "1:1"}]})


def test_a_bad_envy_block_in_a_table_file_names_file_line_and_key(tmp_path: Path) -> None:
    from oddscalc.catalog import load_table, tables_dir
    from oddscalc.datafile import TableError

    text = (tables_dir() / "caribbean" / "progressive-envy.toml").read_text().replace(
        "four_of_a_kind = 25\n", "four_of_a_kind = -25\n")
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(TableError) as e:
        load_table(path)
    shown = str(e.value)
    assert "bad.toml" in shown and "pays.progressive.envy.four_of_a_kind" in shown, shown
    line = text.splitlines().index("four_of_a_kind = -25") + 1
    assert f":{line}" in shown or f"line {line}" in shown, shown


def test_too_many_seats_for_the_deck_are_refused() -> None:
    from oddscalc.protocol import OptionError

    with pytest.raises(OptionError, match="3 other seats: the player's and their five cards each are 20 cards"):
        _engine({"title": "t", "envy": {"pair": 1, "seats": [1, 3]}, "rules": [
            {"event": "x", "cards_when": {"cards": "player", "hand": "pair"}, "pays": "1:1"}]}, reduced_deck("T", 3))


def test_a_reduced_deck_reports_the_seats_it_holds_and_says_which_it_leaves_out() -> None:
    """16 cards hold the player and two other seats: the table's 1..6 are cut to 1..2 with a note."""
    from oddscalc.analysis import Session
    from oddscalc.catalog import load_table, tables_dir
    from oddscalc.results import RunOptions

    deck = reduced_deck("J", 4)
    table = load_table(tables_dir() / "caribbean" / "progressive-envy.toml")
    sec = Session("caribbean", RunOptions(brief=True, deck=deck)).analyze(table).section("envy_progressive")
    assert sec.column("other_seats") == [1, 2]
    assert any("Not reported: 3, 4, 5, 6 other seats" in n for n in sec.notes)
