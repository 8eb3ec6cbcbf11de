"""Let It Ride: the fast path against a plain brute force, and against published figures."""

from __future__ import annotations

import itertools
import math
import tomllib
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from oracles.lir_brute import brute

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.cards import Deck, reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.exact import decimal_str
from oddscalc.games.let_it_ride.count import BONUS_EVENTS, PAYING, count_holdings, three_card_event
from oddscalc.games.let_it_ride.game import LetItRide
from oddscalc.games.let_it_ride.settle import solve
from oddscalc.hands import HandClass, hand_value
from oddscalc.results import Analysis, RunOptions
from oddscalc.tables import Table

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def standard() -> Table:
    return resolve_table("let-it-ride", "standard")


@pytest.fixture(scope="module")
def session(sessions: Callable[[str], Session]) -> Session:
    return sessions("let-it-ride")


@pytest.fixture(scope="module")
def analysis(session: Session, standard: Table) -> Analysis:
    return session.analyze(standard)


def brief(session: Session, table: Table | str) -> Analysis:
    return session.analyze(table, RunOptions(brief=True))


def with_rules(table: Table, **rules: object) -> Table:
    model = table.model
    changed = model.model_copy(update={"rules": model.rules.model_copy(update=rules)})  # type: ignore[attr-defined]
    return Table(table.id, table.path, table.sha256, changed)


@pytest.mark.parametrize("deck,min_rank,ride_on_zero", [
    pytest.param(reduced_deck("8", 3), 8, False, marks=pytest.mark.deep),  # the wheel case below is the suite's
    pytest.param(reduced_deck("8", 3), 9, True, marks=pytest.mark.deep),  # the deck above, other rules
    (Deck((0, 1, 2, 3, 11, 12), 3), 11, False),  # wheel straights and a high minimum
])
def test_fast_path_equals_brute_force(deck: Deck, min_rank: int, ride_on_zero: bool, standard: Table) -> None:
    pays = {c: getattr(standard.model.pays.main, c.value) for c in PAYING}  # type: ignore[attr-defined]
    sol = solve(count_holdings(deck, min_rank), [pays[c] for c in PAYING], ride_on_zero)
    names = [c.value for c in PAYING] + ["loss"]
    fast = Counter({(names[k], b): n for (k, b), n in sol.tally.items() if n})
    assert fast == brute(deck, pays, min_rank, ride_on_zero)


@pytest.mark.parametrize("low", ["9", pytest.param("8", marks=pytest.mark.deep)])  # 18 cards here, 21 deep
def test_protocol_on_a_reduced_deck_equals_brute_force(standard: Table, low: str) -> None:
    deck = reduced_deck(low, 3)
    a = Session("let-it-ride", RunOptions(deck=deck), Store(None)).analyze(standard)
    main = a.wager("main")
    pays = {c: getattr(standard.model.pays.main, c.value) for c in PAYING}  # type: ignore[attr-defined]
    plain = brute(deck, pays, 8, False)
    assert {r.event: r.combinations for r in main.rows if r.combinations} == {
        f"{'lose' if name == 'loss' else name}_{b}_bet{'s' if b > 1 else ''}": n for (name, b), n in plain.items()}
    assert not a.published_applies and not a.checks  # published figures are for the full deck


def test_probabilities_sum_to_one(analysis: Analysis) -> None:
    main = analysis.wager("main")
    assert main.total_combinations == 22100 * 49 * 48 == 51_979_200
    assert sum(w.probability(r) for w in analysis.wagers for r in w.rows) == len(analysis.wagers)


def test_final_hand_counts_are_the_five_card_counts_times_20(analysis: Analysis) -> None:
    main = analysis.wager("main")
    by: Counter[str] = Counter()
    for r in main.rows:
        by[r.event.rsplit("_", 2)[0]] += r.combinations
    # every five-card hand is the final hand of exactly 20 deals
    assert by["royal_flush"] == 4 * 20 and by["straight_flush"] == 36 * 20 and by["flush"] == 5108 * 20
    assert by["pair"] == 422_400 * 20  # published: one pair of tens or better
    assert by["lose"] == (2_598_960 - 4 - 36 - 624 - 3744 - 5108 - 10200 - 54912 - 123552 - 422_400) * 20


def test_ride_on_zero_matches_published_average_stake(session: Session, standard: Table) -> None:
    # The published 1.232 bets in play and 2.85% element of risk ride the 2,268 zero-EV four-card hands.
    a = brief(session, with_rules(standard, ride_on_zero=True))
    main = a.wager("main")
    assert f"{float(main.average_stake):.3f}" == "1.232"
    assert f"{float(main.element_of_risk) * 100:.2f}" == "2.85"  # type: ignore[arg-type]
    default = brief(session, standard).wager("main")
    assert main.expected_value == default.expected_value
    # the default report states the other convention's figures, computed without a second solve
    assert f"gives {decimal_str(main.average_stake, 6)} bets in play" in default.notes[0]
    assert f"gives {decimal_str(default.average_stake, 6)} bets in play" in main.notes[0]


def test_royal_500_published(session: Session) -> None:
    a = brief(session, "royal-500")
    assert f"{float(a.wager('main').house_edge) * 100:.3f}" == "3.737"


@pytest.mark.parametrize("low", ["9", pytest.param("8", marks=pytest.mark.deep)])  # 18 cards here, 21 deep
def test_huge_pays_are_exact_past_int64(standard: Table, low: str) -> None:
    # a royal paying 10**30:1 overflows int64 sums; the solver must switch to Python ints, exactly
    deck = reduced_deck(low, 3)
    pays = {c: getattr(standard.model.pays.main, c.value) for c in PAYING}  # type: ignore[attr-defined]
    pays[HandClass.ROYAL_FLUSH] = Fraction(10**30)
    pays[HandClass.FLUSH] = Fraction(10**29 + 1, 7)
    sol = solve(count_holdings(deck, 8), [pays[c] for c in PAYING], False)
    assert sol.s3.dtype == object
    names = [c.value for c in PAYING] + ["loss"]
    fast = Counter({(names[k], b): n for (k, b), n in sol.tally.items() if n})
    assert fast == brute(deck, pays, 8, False)


def test_jacks_or_better_is_worse_and_flags_assumption(session: Session) -> None:
    a = brief(session, "jacks-or-better")
    std = brief(session, "standard")
    assert a.wager("main").house_edge > std.wager("main").house_edge
    assert any("assumed" in s for s in a.assumptions)


def test_bonus_three_card_counts(analysis: Analysis) -> None:
    rows = {r.event: r.combinations for r in analysis.wager("three_card_bonus").rows}
    assert rows == {"mini_royal": 4, "straight_flush": 44, "three_of_a_kind": 52, "straight": 720,
                    "flush": 1096, "pair": 3744, "lose": 16440}


def _total(a: Analysis, section: str, column: str) -> int:
    cells = a.section(section).column(column)
    assert all(isinstance(x, int) for x in cells)
    return sum(int(x or 0) for x in cells)


def test_strategy_appendix_groups_add_up(analysis: Analysis) -> None:
    extras = analysis.wager("main").extras
    assert _total(analysis, "bet1_strategy", "of") == 22100
    assert _total(analysis, "bet1_strategy", "ride") == 1608 == extras["bet1_ride_hands"]
    assert _total(analysis, "bet2_strategy", "of") == 270725
    assert _total(analysis, "bet2_strategy", "ev_zero") == 2268 == extras["bet2_zero_ev_hands"]
    assert _total(analysis, "bet2_strategy", "ride") == extras["bet2_ride_hands"]


def test_counts_are_stored_and_reread(standard: Table, tmp_path: Path) -> None:
    game = LetItRide()
    rules = game.resolve(standard, RunOptions())
    fresh = game.count(rules, Store(tmp_path))
    again = game.count(rules, Store(tmp_path))
    assert len(list(tmp_path.glob("*.counts"))) == 1
    for name in ("reps3", "weights3", "reps4", "weights4", "c3", "c4", "sub3", "bonus"):
        assert (getattr(fresh, name) == getattr(again, name)).all(), name


@pytest.mark.parametrize("deck", [reduced_deck("8", 3), Deck((0, 1, 2, 3, 11, 12), 3), Deck((1, 2, 3, 12), 4)])
def test_bonus_counts_equal_the_plain_classifier(deck: Deck) -> None:
    counts = Counter(three_card_event(t, deck) for t in itertools.combinations(deck.cards, 3))
    assert count_holdings(deck, 8).bonus.tolist() == [counts[e] for e in (*BONUS_EVENTS, "loss")]


FIVE_CARD_BONUS = ('\n[pays.five_card_bonus]\nstake = 1\nroyal_flush = 20000\nstraight_flush = 2000\n'
                   'four_of_a_kind = "100:1"\nfull_house = "75:1"\nflush = "50:1"\nstraight = "25:1"\n'
                   'three_of_a_kind = "5:1"\n')


def test_five_card_bonus_on_the_final_hand(tmp_path: Path) -> None:
    text = (ROOT / "tables" / "let-it-ride" / "standard.toml").read_text().split("[published]")[0]
    path = tmp_path / "let-it-ride" / "bonus.toml"
    path.parent.mkdir()
    path.write_text(text + FIVE_CARD_BONUS)
    deck = reduced_deck("8", 3)
    a = Session("let-it-ride", RunOptions(deck=deck), Store(None)).analyze(str(path))
    w = a.wager("five_card_bonus")
    # every final hand of the reduced deck, classed by the plain evaluator
    plain = Counter(hand_value(h)[0].value for h in itertools.combinations(deck.cards, 5))
    assert {r.event: r.combinations for r in w.rows if r.event != "lose"} == {
        k: plain[k] for k in ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
                              "three_of_a_kind")}
    units = {r.event: r.units for r in w.rows}
    assert units["royal_flush"] == 19999 and units["four_of_a_kind"] == 100  # an amount keeps the stake; odds not
    full = Session("let-it-ride", RunOptions(brief=True), Store(None)).analyze(str(path)).wager("five_card_bonus")
    counts = {r.event: r.combinations for r in full.rows}
    assert counts["royal_flush"] == 4 and counts["three_of_a_kind"] == 54_912 and full.total_combinations == 2_598_960


PAIR_OR_BETTER = {8: "tens", 9: "jacks", 11: "kings"}  # min_rank -> the rank's plural, as the row names it
HAND_NAMES = {"royal_flush": "Royal flush", "straight_flush": "Straight flush", "four_of_a_kind": "Four of a kind",
              "full_house": "Full house", "flush": "Flush", "straight": "Straight",
              "three_of_a_kind": "Three of a kind", "two_pair": "Two pair"}


@pytest.mark.parametrize("deck,min_pair,min_rank,ride_on_zero", [
    (Deck((0, 1, 2, 3, 11, 12), 3), "kings", 11, False),  # no royal, no four of a kind: empty rows
    (reduced_deck("9", 3), "tens", 8, False),
    (reduced_deck("9", 3), "jacks", 9, True),  # zero-EV holdings ride
    # the same on 8 to ace (21 cards, twice the deals): deep
    pytest.param(reduced_deck("8", 3), "tens", 8, False, marks=pytest.mark.deep),
    pytest.param(reduced_deck("8", 3), "jacks", 9, True, marks=pytest.mark.deep),
])
def test_return_by_hand_equals_brute_force(deck: Deck, min_pair: str, min_rank: int, ride_on_zero: bool,
                                           standard: Table) -> None:
    # every row of the section from every deal played plainly: its final hand and the bets then in play
    table = with_rules(standard, min_pair=min_pair, ride_on_zero=ride_on_zero)
    a = Session("let-it-ride", RunOptions(deck=deck, brief=True), Store(None)).analyze(table)
    section = a.section("return_by_hand")
    pays = {c: getattr(standard.model.pays.main, c.value) for c in PAYING}  # type: ignore[attr-defined]
    plain = brute(deck, pays, min_rank, ride_on_zero)
    printed = tomllib.loads(standard.path.read_text())["pays"]["main"]  # the pays as the table file writes them
    expected = []
    every = sum(plain.values())
    for name in (*HAND_NAMES, "pair", "loss"):
        deals = sum(n for (k, _), n in plain.items() if k == name)
        bets = sum(b * n for (k, b), n in plain.items() if k == name)
        label = HAND_NAMES.get(name, f"Pair of {PAIR_OR_BETTER[min_rank]} or better" if name == "pair"
                               else "Losing hand")
        net = Fraction(bets) * (pays[HandClass(name)] if name != "loss" else -1)
        expected.append((label, printed[name] if name != "loss" else "loses", deals,
                         Fraction(bets, deals) if deals else None, net / every))
    assert [c.id for c in section.columns] == ["hand", "pays", "deals", "average_bets", "return"]
    assert list(section.rows) == expected
    assert sum(r[4] for r in expected) == a.wager("main").expected_value  # what the hands win adds up to the EV
    assert all(type(r[2]) is int and (r[3] is None or type(r[3]) is Fraction) for r in section.rows)
    n = deck.size
    assert sum(r[2] for r in expected) == math.comb(n, 3) * (n - 3) * (n - 4)  # every deal once
    # the case means something: some rows hold no deal, and the bets in play differ between deals of one hand
    assert any(r[3] is None for r in expected) and any(isinstance(r[3], Fraction) and 1 < r[3] < 3 for r in expected)
