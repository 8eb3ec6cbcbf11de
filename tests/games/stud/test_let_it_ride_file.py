"""Let It Ride declared as a game file (tests/games/stud/files/let-it-ride-as-file/): the dealer-less stud engine,
with a check and no fold, gives the shipped Let It Ride engine's figures to the unit, and a plain brute force's.

The check files sit under tests/, not tables/: a folder of game files under tables/ is a game the command line
lists, and Let It Ride is listed once, as the shipped game with its fast kernels (the files are the check that the
engine is general, not a second way to play it). Both engines count a deal as the player's three cards (a set) and
the two community cards in the order shown, C(52,3) x 49 x 48 = 51,979,200, and both give the EV per unit bet (one
of the three equal bets: the family's ante), so rows and EVs compare as they are; only the event ids differ
(``pair_3_bets`` there, ``pair_stake_3`` here)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from oracles.streets_brute import brute

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.cards import Deck, parse_rank
from oddscalc.games import GAME_KEYS
from oddscalc.games.stud.capabilities import declared_in
from oddscalc.games.stud.game import build_class
from oddscalc.games.stud.table import StudTable
from oddscalc.results import Analysis, RunOptions
from oddscalc.tables import load_table_file

FILES = Path(__file__).parent / "files"
KEY = "let-it-ride-as-file"
TABLES = ["standard", "jacks-or-better", "royal-500", "isle-of-capri"]  # every distinct main wager shipped
# the two pair minimums in the fast suite; the other pays deep (about 1 s of CPU each)
FAST = [t if t in ("standard", "jacks-or-better") else pytest.param(t, marks=pytest.mark.deep) for t in TABLES]
# 14 cards, 40,040 deals: a wheel, low pairs, a ten (paid at tens, lost at jacks), jacks to aces, flushes
SMALL = Deck((0, 1, 2, 3, 8, 11, 12), 2)


def file_analysis(table: str, deck: Deck | None) -> tuple[Analysis, StudTable]:
    (found,) = [c for c in declared_in(FILES) if c.key == KEY]
    game = build_class(found)()
    loaded = load_table_file(FILES / KEY / f"{table}.toml", {KEY: game.table_model})
    rules = game.resolve(loaded, RunOptions(deck=deck))
    assert isinstance(loaded.model, StudTable)
    return game.settle(game.count(rules, Store(None)), rules), loaded.model


def shipped_rows(table: str, deck: Deck | None) -> tuple[dict[str, int], Fraction, int]:
    """The shipped engine's main rows, renamed to the family's ids (``<event>_<k>_bet(s)`` -> ``_stake_<k>``)."""
    main = Session("let-it-ride", RunOptions(deck=deck), Store(None)).analyze(table).wager("main")
    rows = {}
    for r in main.rows:
        m = re.fullmatch(r"(.+)_(\d)_bets?", r.event)
        assert m is not None, r.event
        if r.combinations:
            rows[f"{m.group(1)}_stake_{m.group(2)}"] = r.combinations
    return rows, main.expected_value, main.total_combinations


def test_the_check_files_are_not_a_game_the_command_line_lists() -> None:
    assert KEY not in GAME_KEYS and "let-it-ride" in GAME_KEYS
    assert KEY in [c.key for c in declared_in(FILES)]  # beside the other check files (caribbean-stud)


@pytest.mark.parametrize("table", FAST)
def test_on_a_reduced_deck_the_file_equals_the_shipped_engine_and_the_brute_force(table: str) -> None:
    analysis, model = file_analysis(table, SMALL)
    main = analysis.wager("main")
    ours = {r.event: r.combinations for r in main.rows if r.combinations}
    rows, ev, total = shipped_rows(table, SMALL)
    assert ours == rows and main.expected_value == ev and main.total_combinations == total == 364 * 11 * 10
    hand = model.pays.main.hand
    assert hand is not None and model.pays.main.pair_minimum is not None
    plain, won = brute(SMALL, 3, [0, 1], hand.pays(), parse_rank(model.pays.main.pair_minimum), 13, fold=False)
    assert ours == dict(plain) and main.expected_value == won / total
    assert not any(event.startswith("fold") for event in ours)


def test_the_decisions_are_shares_of_checks_and_rides() -> None:
    analysis, _ = file_analysis("standard", SMALL)
    share = analysis.section("decision_share")
    assert [c.id for c in share.columns] == ["decision", "deals", "check", "bet_1x"]
    first = share.rows[0]
    assert first[0] == "3 cards held" and first[1] == 364 * 110 and first[2] + first[3] == 1  # type: ignore[operator]
    assert analysis.decisions[0].description.startswith("bet (else check) on the first 3 cards")
    assert "fold_frequency" not in analysis.wager("main").extras


@pytest.mark.parametrize("table", [t if t == "standard" else pytest.param(t, marks=pytest.mark.deep)
                                   for t in TABLES])  # about 1.2 s of CPU each: both engines on the full deck
def test_on_the_full_deck_the_file_gives_the_shipped_figures_to_the_unit(table: str) -> None:
    analysis, _ = file_analysis(table, None)
    main = analysis.wager("main")
    rows, ev, total = shipped_rows(table, None)
    assert {r.event: r.combinations for r in main.rows if r.combinations} == rows
    assert (main.total_combinations, main.expected_value) == (total, ev) and total == 51_979_200
    if table == "standard":  # the published 3.51% (Wizard of Odds), exactly as the shipped game gives it
        assert main.house_edge == Fraction(37963, 1082900)
