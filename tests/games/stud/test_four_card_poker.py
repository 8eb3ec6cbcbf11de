"""Four Card Poker from its game file alone (tests/games/stud/files/four-card-poker/standard.toml): each hand the
best four of its cards (the player's five, the dealer's six, one of them face up), ties to the player, the ante
bonus, Aces Up.

On reduced decks the engine's main game (the play per hand and up card by exact EV) and Aces Up equal a brute force
written apart (tests/oracles/four_card_brute.py, its own ranking), deal by deal; on the full deck Aces Up is
counted over the 2,598,960 hands of the player, and the main game (134,459 player classes x 10,737,573 dealer
hands, 5.3 CPU hours: benchmarks/four_card_plan.py) is refused with one line naming why, at once. The file is a
check file, not under tables/, while its full-deck count is refused (docs/game-files.md says why)."""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from oracles.four_card_brute import best, brute

from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, Deck, parse_cards, reduced_deck
from oddscalc.cli.main import EXIT_TABLE, main
from oddscalc.datafile import TableError
from oddscalc.games.stud.capabilities import declared_in
from oddscalc.games.stud.count import class_counts
from oddscalc.games.stud.ev import hand_ev
from oddscalc.games.stud.game import StudGame, StudRun, build_class
from oddscalc.games.stud.settle import side_wager
from oddscalc.games.stud.table import SideBet, StudTable
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, RunOptions
from oddscalc.tables import Table, load_table_file

FILES = Path(__file__).resolve().parent / "files"
ROOT = Path(__file__).resolve().parents[3]
KEY = "four-card-poker"

# the best four of the player's five on one deck (the counts tests/hands/test_four.py holds, there checked by the
# closed form of four of a kind and a brute force over every hand, deep); a pair pays from aces
ACES_UP = {"four_of_a_kind": 624, "straight_flush": 2_072, "three_of_a_kind": 58_656, "flush": 114_616,
           "straight": 101_808, "two_pair": 123_552, "pair": 81_096}
# 12 cards, C(12,5) x 7 x C(6,5) = 33,264 deals each: flushes and straights (9 to ace, two suits); A-2-3-4 (two
# suits); straight flushes and three of a kind (jack to ace, three suits); four of a kind (queen to ace, four suits)
DECKS = [reduced_deck("9", 2), reduced_deck("Q", 4),
         pytest.param(Deck((0, 1, 2, 3, 11, 12), 2), marks=pytest.mark.deep),
         pytest.param(reduced_deck("J", 3), marks=pytest.mark.deep)]


@pytest.fixture(scope="module")
def game() -> StudGame:
    (found,) = [c for c in declared_in(FILES) if c.key == KEY]  # beside the other check files
    return build_class(found)()


def table(game: StudGame) -> Table:
    return load_table_file(FILES / KEY / "standard.toml", {game.key: game.table_model})


def model() -> StudTable:
    m = load_table_file(FILES / KEY / "standard.toml", {KEY: StudTable}).model
    assert isinstance(m, StudTable)
    return m


def aces_up() -> SideBet:
    bet = (model().pays.model_extra or {})["aces_up"]
    assert isinstance(bet, SideBet)
    return bet


def analyze(game: StudGame, deck: Deck) -> Analysis:
    rules = game.resolve(table(game), RunOptions(deck=deck))
    return game.settle(game.count(rules, Store(None)), rules)


@pytest.mark.parametrize("deck", DECKS, ids=["9-to-ace-2-suits", "queen-to-ace-4-suits", "wheel-2-suits",
                                             "jack-to-ace-3-suits"])
def test_the_main_game_and_aces_up_equal_a_brute_force_deal_by_deal(game: StudGame, deck: Deck) -> None:
    analysis = analyze(game, deck)
    bonus = model().pays.main.ante_bonus
    assert bonus is not None
    main, side, won = brute(deck, bonus.pays(), aces_up().pays())
    got: Counter[tuple[Fraction, Fraction]] = Counter()
    for row in analysis.wager("main").rows:
        got[(row.units, row.stake)] += row.combinations
    assert +got == main  # every deal: its net antes and what was staked
    assert analysis.wager("main").total_combinations == sum(main.values()) == 33_264
    assert analysis.wager("main").expected_value == won / sum(main.values())
    assert {r.event: r.combinations for r in analysis.wager("aces_up").rows if r.combinations} == dict(+side)
    # the deck means something: folds, plays of each size, ties won by the player
    assert {stake for (_, stake) in main} >= {Fraction(1), Fraction(2), Fraction(4)}


@pytest.mark.parametrize(("hand", "up"), [("Ac Ad Kc Kd Qc", "Jd"), ("9c Tc Jc Qc 9d", "Ac")])
def test_ev_with_the_up_card_equals_a_brute_force(game: StudGame, hand: str, up: str) -> None:
    # the player's five and the dealer's six are tabled apart (a best four of five, of six): each action's EV
    # from every five hole cards left, by the oracle's own ranking (the second hand wins some and loses some)
    deck = reduced_deck("9", 2)
    rules = game.resolve(table(game), RunOptions(deck=deck))
    assert isinstance(rules, StudRun)
    ev = hand_ev(rules, hand, None, up)
    mine, shown = parse_cards(hand), parse_cards(up)
    key = best(frozenset(mine))
    holes = list(itertools.combinations([c for c in deck.cards if c not in (*mine, *shown)], 5))
    wins = sum(key[1] >= best(frozenset((*shown, *h)))[1] for h in holes)  # ties go to the player
    bonus = model().pays.main.ante_bonus
    extra = (bonus.pay_of(key[0]) if bonus is not None else None) or Fraction(0)
    expected = {"fold": Fraction(-1)} | {f"bet_{b}x": ((1 + b) * (2 * wins - len(holes)) + len(holes) * extra)
                                          / len(holes) for b in (1, 2, 3)}
    assert {c.action: c.ev for c in ev.choices} == expected


def test_aces_up_on_the_full_deck_from_the_file() -> None:
    counts = class_counts(FULL_DECK, 5, "four-card", 12)
    wager = side_wager("aces_up", aces_up(), counts, 1)
    rows = {r.event: r.combinations for r in wager.rows}
    assert rows == ACES_UP | {"lose": 2_598_960 - sum(ACES_UP.values())}
    assert wager.expected_value == Fraction(-1376, 32487)  # -4.2355%: 50-40-8-6-4-2-1
    assert next(r.label for r in wager.rows if r.event == "pair") == "Pair of aces or better"


@pytest.mark.deep
def test_the_full_deck_gives_the_published_house_edge(game: StudGame) -> None:
    # the whole deck, counted by the sieve (about two minutes of CPU and 2.3 GB; the sieve equals the plain count on
    # reduced decks and on full-deck player classes, test_sieve.py). Published: a house edge of 2.79% of the ante
    # (Wizard of Odds, Four Card Poker, ante bonus 25-20-2) and 1.30% of the total wagered (the same figures as
    # quoted by John Grochowski, Atlantic City Weekly, 2022-08-22, "2.78 percent of the ante": ours is 2.7879%)
    main = analyze(game, FULL_DECK).wager("main")
    assert main.total_combinations == math.comb(52, 5) * 47 * math.comb(46, 5)
    assert main.expected_value == Fraction(-8_840_827_253, 317_119_576_410)
    assert round(-main.expected_value * 100, 2) == Fraction(279, 100)
    staked = sum(r.combinations * r.stake for r in main.rows)
    assert round(-main.expected_value * main.total_combinations / staked * 100, 2) == Fraction(130, 100)
    plays = {r.stake for r in main.rows if r.combinations}
    assert plays == {1, 2, 4}  # fold, play 1x or 3x: never 2x


def test_a_count_of_hours_is_refused_at_once_naming_why(game: StudGame, tmp_path: Path) -> None:
    # the full deck by the sieve is minutes (benchmarks/four_card_plan.py --run); with two up cards the sieve does
    # not apply, and the plain count (C(47, 6) dealer hands a player class) would take hours: refused before counting
    text = (FILES / KEY / "standard.toml").read_text()
    two = tmp_path / KEY / "two-up.toml"
    two.parent.mkdir()
    two.write_text(text.replace("dealer_down = 5\ndealer_up = 1", "dealer_down = 4\ndealer_up = 2", 1))
    start = time.process_time()
    rules = game.resolve(load_table_file(two, {game.key: game.table_model}), RunOptions())
    with pytest.raises(OptionError) as refused:  # the command line's exit 4, one line
        game.count(rules, Store(None))
    line = str(refused.value)
    assert "\n" not in line and line.startswith("four-card-poker: the count on one 52-card deck (134,459 player "
                                                "classes x 10,737,573 dealer hands, visiting every dealer hand) ")
    assert "hours of one core" in line and "cluster" in line
    assert time.process_time() - start < 5  # refused before any count


def test_keys_the_engine_cannot_settle_are_refused_with_their_key(game: StudGame, tmp_path: Path) -> None:
    # a lowest pair paid is counted for the best four only: under five-card it is a bad file (exit 3, its key)
    text = (FILES / KEY / "standard.toml").read_text()
    bad = tmp_path / KEY / "five.toml"
    bad.parent.mkdir()
    bad.write_text(text.replace('ranking = "four-card"             # the best four', 'ranking = "five-card"  #', 1))
    with pytest.raises(TableError) as refused:
        load_table_file(bad, {game.key: game.table_model})
    assert "pays.aces_up" in str(refused.value) and "pair_minimum" in str(refused.value)
    # ties won by the player are settled by the up-card count: Three Card Poker's count (no up card) refuses them
    three = ROOT / "tables" / "three-card-poker" / "standard.toml"
    path = tmp_path / "three-card-poker" / "ties.toml"
    path.parent.mkdir()
    path.write_text(three.read_text().replace('bet_win = "1:1"\n', 'bet_win = "1:1"\ntie = "win"\n', 1))
    result = CliRunner().invoke(main, ["report", "three-card-poker", "--table", str(path)])
    assert result.exit_code == EXIT_TABLE, result.output
    assert "pays.main.tie" in result.output and "Traceback" not in result.output
