"""Casino Hold'em from its game file alone (tests/games/stud/files/casino-holdem/standard.toml): community cards
beside a dealer, counted per suit class of what the player has seen (his cards and the flop), his decision by exact
EV, the ante paid by his final hand's class.

On reduced decks every row and the EV equal a brute force written apart (tests/oracles/board_brute.py: its own
ranking, every deal dealt with no symmetry, the decision by direct enumeration of each seen pair's completions);
the engine is generic in the stage list (the decision after another stage, the dealer's cards dealt first) and its
count is the same whatever the chunking. The full deck (27.8e12 deals) is refused at once (exit 4), one line."""

from __future__ import annotations

import math
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from oracles.board_brute import brute
from oracles.check_files import analyze, check_game, variant

from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, Deck, reduced_deck
from oddscalc.cli.main import EXIT_TABLE, main
from oddscalc.datafile import TableError
from oddscalc.games.stud.board import Shape, best_table, count_board, hand_strengths, pair_class_count, pair_classes
from oddscalc.games.stud.game import StudGame
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, RunOptions
from oddscalc.tables import load_table_file

FILES = Path(__file__).resolve().parent / "files"
ROOT = Path(__file__).resolve().parents[3]
KEY = "casino-holdem"
ANTE = {"royal_flush": Fraction(100), "straight_flush": Fraction(20), "four_of_a_kind": Fraction(10),
        "full_house": Fraction(3), "flush": Fraction(2)}
TURN_RIVER = "[[rules.stages]]                  # the turn and the river\ncommunity = 2\n"
QUALIFIER = 'dealer_qualifier = "pair of fours"'


@pytest.fixture(scope="module")
def game() -> StudGame:
    return check_game(KEY)


def assert_brute(analysis: Analysis, deck: Deck, shape: tuple[int, int, int, int, int],
                 minimum: tuple[int, int]) -> None:
    """Every row (its event, units, stake and deals) and the EV equal the brute force's."""
    expected, won = brute(deck.cards, shape, minimum, ANTE, [2])
    got: Counter[tuple[str, Fraction, int]] = Counter()
    for row in analysis.wager("main").rows:
        if row.combinations:
            got[(row.event, row.units, int(row.stake))] += row.combinations
    assert got == +expected
    total = sum(expected.values())
    assert analysis.wager("main").total_combinations == total
    assert analysis.wager("main").expected_value == won / total
    # the deck means something: folds, calls, a dealer who does not qualify, pushes, an ante paid by hand
    events = {e for e, _, _ in expected}
    assert {"fold", "push", "lose"} <= events and any(e.startswith("dealer_not_qualified") for e in events)
    assert any(e.startswith(("win_", "dealer_not_qualified_")) for e in events)


def test_one_card_after_the_flop_equals_a_brute_force(game: StudGame, tmp_path: Path) -> None:
    # the same engine path on a smaller deal (the turn alone, the dealer's one hole card: 332,640 deals of 12
    # cards) with a qualifier of a pair of queens, so that the dealer sometimes does not qualify on six ranks
    table = variant(game, tmp_path, (TURN_RIVER, TURN_RIVER.replace("community = 2", "community = 1")),
                    ("dealer_down = 2", "dealer_down = 1"), (QUALIFIER, 'dealer_qualifier = "pair of queens"'))
    deck = reduced_deck("9", 2)
    a = analyze(game, table, deck)
    assert a.wager("main").total_combinations == 66 * 120 * 7 * 6
    assert_brute(a, deck, (2, 3, 0, 1, 1), (1, 10))


def test_a_decision_before_the_board_and_the_dealer_dealt_first(game: StudGame, tmp_path: Path) -> None:
    # generic in the stage list: the dealer's cards dealt first, the decision on the player's two cards alone, the
    # whole board after it (C(12,2) x C(10,5) x C(5,2) deals)
    text = (FILES / KEY / "standard.toml").read_text()
    stages = text[text.index("[[rules.stages]]"):text.index("[pays.main]")]
    new = ("[[rules.stages]]\ndealer_down = 2\n\n[[rules.stages]]\nplayer = 2\ndecision = { bets = [2], fold = true }"
           "\n\n[[rules.stages]]\ncommunity = 5\n\n")
    table = variant(game, tmp_path, (stages, new), (QUALIFIER, 'dealer_qualifier = "three of a kind"'))
    deck = reduced_deck("9", 2)
    a = analyze(game, table, deck)
    assert a.wager("main").total_combinations == 66 * 252 * 10
    assert_brute(a, deck, (2, 0, 0, 5, 2), (3, 0))


@pytest.mark.parametrize(("deck", "qualifier", "minimum"), [  # the deep ones: tests/tiers.toml
    (reduced_deck("9", 2), "three of a kind", (3, 0)),  # flushes, straights, royal flushes
    (Deck((0, 1, 2, 3, 11, 12), 2), "three of a kind", (3, 0)),  # the wheel
    (reduced_deck("J", 3), "full house", (6, 0)),  # full houses
    (reduced_deck("9", 2), "pair of fours", (1, 2)),  # the file as it is: every dealer qualifies on six ranks
], ids=["9-to-ace", "wheel", "jack-to-ace-3-suits", "standard"])
def test_the_file_equals_a_brute_force(game: StudGame, tmp_path: Path, deck: Deck, qualifier: str,
                                       minimum: tuple[int, int]) -> None:
    table = variant(game, tmp_path, (QUALIFIER, f'dealer_qualifier = "{qualifier}"'))
    a = analyze(game, table, deck)
    assert a.wager("main").total_combinations == 66 * 120 * 21 * 10  # C(12,2) x C(10,3) x C(7,2) x C(5,2)
    if minimum == (1, 2):
        expected, won = brute(deck.cards, (2, 3, 0, 2, 2), minimum, ANTE, [2])
        assert {(r.event, r.units): r.combinations for r in a.wager("main").rows if r.combinations} == \
            {(e, u): n for (e, u, _), n in expected.items()}
        assert a.wager("main").expected_value == won / sum(expected.values())
        return
    assert_brute(a, deck, (2, 3, 0, 2, 2), minimum)


def test_the_classes_of_what_the_player_has_seen() -> None:
    # Burnside's count equals the classes listed, the sizes add up to every pair of sets; on 52 cards, the
    # five-card classes (a known figure) and the (two cards, flop) classes of the plan
    for deck in (reduced_deck("9", 2), reduced_deck("J", 3), reduced_deck("Q", 4)):
        hole, board, weights = pair_classes(deck, 2, 3)
        assert len(weights) == pair_class_count(deck, 2, 3)
        assert int(weights.sum()) == math.comb(deck.size, 2) * math.comb(deck.size - 2, 3)
        assert hole.shape[1] == 2 and board.shape[1] == 3
    assert pair_class_count(FULL_DECK, 5, 0) == pair_class_count(FULL_DECK, 0, 5) == 134_459
    assert pair_class_count(FULL_DECK, 2, 3) == 1_286_792


def test_any_chunking_gives_the_same_integers() -> None:
    deck = reduced_deck("Q", 4)  # 12 cards in four suits: 417 classes of two cards and a flop
    shape = Shape(2, 3, 0, 1, 1)
    counts = [count_board(deck, shape, ("pair", (10,)), size=size)["outcomes"] for size in (1, 97, 10_000)]
    assert len(counts[0]) > 97 and counts[0].any()
    assert all(np.array_equal(counts[0], c) for c in counts[1:])
    # a mapper (a cluster's map: chunks in, results in chunk order) is what runs them; here a plain one
    seen: list[int] = []

    def mapper(fn, chunks):  # type: ignore[no-untyped-def]
        seen.append(len(chunks))
        return [fn(c) for c in reversed(chunks)][::-1]

    there = count_board(deck, shape, ("pair", (10,)), mapper, size=100)
    assert seen == [math.ceil(len(counts[0]) / 100)] and np.array_equal(there["outcomes"], counts[0])


def test_a_hand_read_from_the_table_is_the_hand_read_five_by_five() -> None:
    # past a table's size limit (the full deck's 133,784,560 seven-card hands) each hand's fives are read apart:
    # the same strengths, hands given in any order
    deck = reduced_deck("9", 2)
    rng = np.random.default_rng(7)
    pos = np.array([rng.permutation(deck.size)[:7] for _ in range(500)], dtype=np.int64)
    tabled, apart = best_table(deck, 7, ("pair", (2,))), best_table(deck, 7, ("pair", (2,)), 0)
    assert tabled.masks is not None and apart.masks is None
    assert np.array_equal(hand_strengths(deck, tabled, pos), hand_strengths(deck, apart, pos))


def test_a_cold_full_deck_count_is_refused_at_once_naming_why(game: StudGame) -> None:
    start = time.process_time()
    table = load_table_file(FILES / KEY / "standard.toml", {game.key: game.table_model})
    rules = game.resolve(table, RunOptions())
    with pytest.raises(OptionError) as refused:  # the command line's exit 4, one line
        game.count(rules, Store(None))
    line = str(refused.value)
    assert "\n" not in line and line.startswith("casino-holdem: the count on one 52-card deck visits ")
    assert "1,286,792 classes of what the player has seen x 1,070,190 completions" in line
    assert time.process_time() - start < 5  # refused before any count


def test_bad_ante_pays_are_refused_with_file_line_and_key(game: StudGame, tmp_path: Path) -> None:
    # a class the ranking does not have, a pay that is not a ratio: the loader names the file and the key (exit 3)
    for old, new, message in [('flush = "2:1"', 'mini_royal = "2:1"', "mini_royal is not a class of the five-card"),
                              ('flush = "2:1"', 'flush = "two"', "flush")]:
        with pytest.raises(TableError) as refused:
            variant(game, tmp_path, (old, new))
        assert "pays.main.ante_win_by_hand" in str(refused.value) and message in str(refused.value)
        assert str(tmp_path / KEY / "variant.toml") in str(refused.value)
    # what the community engine cannot count is refused naming its key: a side bet, two decisions where a bet
    # does not end them, an ante bonus
    for old, new, key in [("[pays.main]\n", '[pays.aa]\ncards = "player"\nranking = "five-card"\npair = "7:1"\n\n'
                                            "[pays.main]\n", "pays.aa"),
                          (TURN_RIVER, TURN_RIVER + "decision = { bets = [1], fold = true }\n", "rules.raise_once"),
                          ("[pays.main.ante_win_by_hand]", '[pays.main.ante_bonus]\nflush = "1:1"\n\n'
                                                           "[pays.main.ante_win_by_hand]", "pays.main")]:
        table = variant(game, tmp_path, (old, new))
        with pytest.raises(TableError) as refused:
            game.resolve(table, RunOptions(deck=reduced_deck("9", 2)))
        assert key in str(refused.value)


@pytest.mark.parametrize(("old", "new", "key"), [
    ("[pays.main]\n", '[pays.main.ante_win_by_hand]\nstraight = "2:1"\n\n[pays.main]\n', "pays.main.ante_win_by_hand"),
    ("[pays.main]\n", '[pays.main.blind]\nstraight = "2:1"\n\n[pays.main]\n', "pays.main.blind"),
    ('bets_when_dealer_does_not_qualify = "push"', 'bets_when_dealer_does_not_qualify = "compare"',
     "pays.main.bets_when_dealer_does_not_qualify"),
    ("[rules]\n", "[rules]\nraise_once = true\n", "rules.raise_once"),
])
def test_keys_of_a_board_without_one_are_refused_exit_3(tmp_path: Path, old: str, new: str, key: str) -> None:
    # the up-card and three-card counts do not settle them: a file that asks is refused with the key
    three = ROOT / "tables" / "three-card-poker" / "standard.toml"
    path = tmp_path / "three-card-poker" / "by-hand.toml"
    path.parent.mkdir()
    text = three.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    result = CliRunner().invoke(main, ["report", "three-card-poker", "--table", str(path)])
    assert result.exit_code == EXIT_TABLE, result.output
    assert key in result.output and "Traceback" not in result.output


def test_ev_and_simulate_refuse_a_board_in_one_line(game: StudGame) -> None:
    # neither knows community cards yet: refused (exit 4), never answered as a game without a board
    from oddscalc.games.stud.ev import hand_ev
    from oddscalc.games.stud.game import StudRun
    from oddscalc.games.stud.table import StudTable
    from oddscalc.simulate.stud_dealer import Dealt

    table = load_table_file(FILES / KEY / "standard.toml", {game.key: game.table_model})
    rules = game.resolve(table, RunOptions(deck=reduced_deck("9", 2)))
    assert isinstance(rules, StudRun) and isinstance(table.model, StudTable)
    with pytest.raises(OptionError, match="community cards"):
        hand_ev(rules, "Ac Ad Kc Kd Qc", None)
    with pytest.raises(OptionError, match="community cards"):
        Dealt.of(table.model)
