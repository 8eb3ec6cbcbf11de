"""Ultimate Texas Hold'em from its game file alone (tests/games/stud/files/ultimate-texas-holdem/standard.toml):
three decisions against a dealer (check or 3x/4x before the flop, check or 2x on the flop, 1x or fold on the river;
one play at most), the ante pushed by a dealer who does not qualify, the play settled against his hand all the
same, the blind paid by its table.

On reduced decks every deal's net and stake and the EV equal a brute force written apart
(tests/oracles/uth_brute.py: every deal with no symmetry, each decision by direct enumeration of what follows it);
the states' extensions are the classes of the next decision (their counts add up to the state's); the full deck
(123,156,254 classes of two cards and a board of five at the river) is refused at once (exit 4), one line."""

from __future__ import annotations

import math
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from oracles.check_files import analyze, check_game, variant
from oracles.uth_brute import brute

from oddscalc.cache import Store
from oddscalc.cards import Deck, reduced_deck
from oddscalc.games.stud.board import Shape
from oddscalc.games.stud.board_levels import canonical_keys, count_levels, levels_of
from oddscalc.games.stud.game import StudGame, refuse_heavy_board
from oddscalc.protocol import OptionError
from oddscalc.results import RunOptions
from oddscalc.tables import load_table_file

FILES = Path(__file__).resolve().parent / "files"
KEY = "ultimate-texas-holdem"
BLIND = {"royal_flush": Fraction(500), "straight_flush": Fraction(50), "four_of_a_kind": Fraction(10),
         "full_house": Fraction(3), "flush": Fraction(3, 2), "straight": Fraction(1)}
QUALIFIER = 'dealer_qualifier = "pair"'


@pytest.fixture(scope="module")
def game() -> StudGame:
    return check_game(KEY)


@pytest.mark.parametrize(("deck", "qualifier", "minimum"), [  # the deep ones: tests/tiers.toml
    (reduced_deck("J", 3), "pair", (1, 0)),  # the file as it is: three of a kind, full houses
    (reduced_deck("9", 2), "three of a kind", (3, 0)),  # flushes, straights, royal flushes; dealers not qualifying
    (Deck((0, 1, 2, 3, 11, 12), 2), "two pair", (2, 0)),  # the wheel
], ids=["jack-to-ace-3-suits", "9-to-ace", "wheel"])
def test_every_deal_equals_a_brute_force(game: StudGame, tmp_path: Path, deck: Deck, qualifier: str,
                                         minimum: tuple[int, int]) -> None:
    table = variant(game, tmp_path, (QUALIFIER, f'dealer_qualifier = "{qualifier}"'))
    a = analyze(game, table, deck)
    expected, won = brute(deck.cards, minimum, BLIND)
    got: Counter[tuple[Fraction, int]] = Counter()
    for row in a.wager("main").rows:
        got[(row.units, int(row.stake))] += row.combinations
    assert +got == expected  # every deal: its net antes and what was staked
    total = sum(expected.values())
    assert a.wager("main").total_combinations == total == 66 * 120 * 21 * 10
    assert a.wager("main").expected_value == won / total
    # the deck means something: folds on the river, plays of 1x, 2x and 4x, a blind paid and a blind pushed
    assert {stake for (_, stake) in expected} >= {2, 3, 4, 6}
    assert any(u > 5 for (u, s) in expected if s == 6) and (Fraction(5), 6) in expected


def test_two_decisions_and_a_check_to_the_showdown(game: StudGame, tmp_path: Path) -> None:
    # generic in the decisions: the flop's taken away, and a check (bet 0) at the river plays to the showdown
    # with the ante and the blind alone; a dealer who must hold three of a kind to qualify
    table = variant(game, tmp_path, ("community = 3\ndecision = { bets = [0, 2], fold = false }", "community = 3"),
                    ("bets = [1], fold = true", "bets = [0, 1], fold = true"),
                    (QUALIFIER, 'dealer_qualifier = "three of a kind"'))
    a = analyze(game, table, reduced_deck("9", 2))
    assert len(a.decisions) == 2 and a.rules["fold"] == "no; yes"  # each decision's, where they differ
    stakes = {int(r.stake) for r in a.wager("main").rows if r.combinations}
    assert 2 in stakes and {3, 6} & stakes  # a check to the showdown (or a fold), a play
    rows = {r.event: r for r in a.wager("main").rows if r.combinations}
    assert sum(r.combinations for r in rows.values()) == 66 * 252 * 10  # the board one set of five: C(10,5)
    # against a dealer who does not qualify the ante pushes, the play and the blind are settled all the same
    assert rows["lose_dealer_not_qualified_0x"].units == -1 and rows["lose_dealer_not_qualified_4x"].units == -5
    assert rows["win_dealer_not_qualified_straight_0x"].units == 1 and rows["win_straight_0x"].units == 2
    assert rows["win_dealer_not_qualified_flush_1x"].units == Fraction(5, 2) and rows["push_0x"].units == 0


def test_each_state_grows_into_classes_of_the_next_decision() -> None:
    # the extensions of every state land on classes of the next decision, and the counts of a state are the sum
    # of its extensions' (so every level's completions add to the deals)
    deck = reduced_deck("Q", 4)
    points = [(2, 0), (2, 3), (2, 5)]
    arrays = count_levels(deck, points, Shape(2, 5, 0, 0, 2), ("pair", (0,)))
    counts = levels_of(deck, Shape(2, 5, 0, 0, 2), arrays, 3)
    for t, orders in enumerate((1, 1, math.comb(5, 3))):  # a board of five at the river: which three the flop
        level = counts.levels[t]
        per = counts.counts(t).sum(axis=(1, 2))
        assert (per == counts.completions(t)).all()
        assert int((level.weights * per).sum()) * orders == counts.total == 66 * 120 * 21 * 10
    assert counts.levels[0].next is not None and counts.levels[0].next.shape[1] == math.comb(10, 3)
    # the class key names a class: a suit permutation of a pair has the same key
    hole, board = arrays["hole1"][:50].astype(np.int64), arrays["board1"][:50].astype(np.int64)
    swapped = [np.array([[c // 4 * 4 + (3 - c % 4) for c in row] for row in part]) for part in (hole, board)]
    position = {c: i for i, c in enumerate(deck.cards)}
    pos = [np.vectorize(position.__getitem__)(part) for part in (hole, board, *swapped)]
    assert np.array_equal(canonical_keys(deck, pos[0], pos[1]), canonical_keys(deck, pos[2], pos[3]))


def test_a_cold_full_deck_count_is_refused_at_once_naming_why(game: StudGame) -> None:
    start = time.process_time()
    table = load_table_file(FILES / KEY / "standard.toml", {game.key: game.table_model})
    rules = game.resolve(table, RunOptions())
    with pytest.raises(OptionError) as refused:
        game.count(rules, Store(None))
    line = str(refused.value)
    assert "\n" not in line and line.startswith("ultimate-texas-holdem: the count on one 52-card deck visits ")
    assert "123,156,254 classes of what the player has seen x 990 completions" in line
    assert time.process_time() - start < 5
    # a deck too large for a state's key (32 cards) is refused too, before counting
    with pytest.raises(OptionError, match="at most 31 cards"):
        refuse_heavy_board(KEY, reduced_deck("7", 4), Shape(1, 0, 0, 4, 1), 2)
    # and a count of more than a few seconds (24 cards: 324,552 classes at the river x 136 dealer hands)
    with pytest.raises(OptionError, match="324,552 classes"):
        game.count(game.resolve(table, RunOptions(deck=reduced_deck("9", 4))), Store(None))
