"""The stud-family engine: Three Card Poker from its game file alone, against a plain brute force on reduced decks,
against published figures on the full deck, and the game file's validation (file, line and key; exit code 3)."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from oracles.stud_brute import brute

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, Deck, reduced_deck
from oddscalc.catalog import load_table, resolve_table
from oddscalc.cli.main import EXIT_TABLE, main
from oddscalc.datafile import TableError
from oddscalc.games.stud.count import MainCounts, count_three_card
from oddscalc.games.stud.sections import strategy_section
from oddscalc.games.stud.settle import decide, main_wager
from oddscalc.games.stud.table import StudTable
from oddscalc.results import Analysis, RunOptions

ROOT = Path(__file__).resolve().parents[3]
GAME_FILE = ROOT / "tables" / "three-card-poker" / "standard.toml"
QUEEN_HIGH = (0, 10)  # the oracle's key of the smallest queen-high hand
DECKS = [reduced_deck("8", 2), Deck((0, 1, 2, 9, 10, 11, 12), 2)]  # the second deals A-2-3, the lowest straight


def analyze(deck: Deck | None = None, table: str | None = None) -> Analysis:
    options = RunOptions(deck=deck)
    return Session("three-card-poker", options, Store(None)).analyze(table, options)


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: d.describe())
def test_every_wager_equals_the_brute_force(deck: Deck) -> None:
    model = resolve_table("three-card-poker").model
    assert isinstance(model, StudTable)
    bonus = model.pays.main.ante_bonus.pays() if model.pays.main.ante_bonus else {}
    sides = {name: (bet.cards, bet.pays()) for name, bet in (model.pays.model_extra or {}).items()}
    main, side, won = brute(deck, bonus, QUEEN_HIGH, sides)
    analysis = analyze(deck)
    rows = {w.wager: {r.event: r.combinations for r in w.rows if r.combinations} for w in analysis.wagers}
    assert rows["main"] == dict(main)
    for name in sides:
        assert rows[name] == dict(side[name])
    assert analysis.wager("main").expected_value == won / sum(main.values())


@pytest.mark.deep
def test_the_full_deck_reproduces_the_published_figures() -> None:
    # the published figures are asserted through the game file's [published] block (every check ok, the one the
    # source prints otherwise listed under differs); two more facts from the sources are asserted here
    analysis = analyze()
    assert [c.verdict for c in analysis.checks] == ["ok", "ok", "ok", "ok", "differs"]
    main = analysis.wager("main")
    assert main.total_combinations == 407_170_400  # 52C3 x 49C3 (reviewpokerrooms.com)
    assert main.house_edge == Fraction(686689, 20358520)  # 3.37% (Grochowski, casinocitytimes.com)
    notes = analysis.section("play_strategy").notes
    assert notes == ("The weakest hand played: Qc 6d 4h; every stronger hand is played.",)  # Q-6-4 (both sources)
    six = {r.event: r.combinations // 20 for r in analysis.wager("six_card_bonus").rows}  # 20 deals per six cards
    assert six == {"royal_flush": 188, "straight_flush": 1_656, "four_of_a_kind": 14_664, "full_house": 165_984,
                   "flush": 205_792, "straight": 361_620, "three_of_a_kind": 732_160, "lose": 18_876_456}


def test_the_full_deck_main_bet_without_the_side_bets() -> None:
    # the main bet alone counts in about a second: house edge and strategy as published (the deep test: the rest)
    model = resolve_table("three-card-poker").model
    assert isinstance(model, StudTable)
    counts = MainCounts(FULL_DECK, 3, 3, **count_three_card(FULL_DECK, ("high_card", (10,))))
    decision = model.rules.stages[0].decision
    assert decision is not None
    played = decide(counts, model.pays.main, decision, "three-card")
    main = main_wager(counts, model.pays.main, played, "three-card", decision, "Three Card Poker")
    assert (main.total_combinations, main.house_edge) == (407_170_400, Fraction(686689, 20358520))  # 3.37%
    assert f"{float(main.element_of_risk or 0):.4f}" == "0.0201"  # 2.01% of total action (Grochowski)
    assert strategy_section(counts, played, "three-card").notes == (
        "The weakest hand played: Qc 6d 4h; every stronger hand is played.",)  # Q-6-4 or better


def test_a_pay_changes_the_settlement_not_the_count() -> None:
    from oddscalc.catalog import with_pays

    table = resolve_table("three-card-poker")
    session = Session("three-card-poker", RunOptions(deck=DECKS[0]), Store(None))
    low = session.analyze(with_pays(table, {"pair_plus.flush": "3:1"}))
    high = session.analyze(table)
    flush = next(r for r in high.wager("pair_plus").rows if r.event == "flush")
    assert high.wager("pair_plus").expected_value - low.wager("pair_plus").expected_value == \
        Fraction(flush.combinations, high.wager("pair_plus").total_combinations)


def write_variant(tmp_path: Path, old: str, new: str) -> Path:
    text = GAME_FILE.read_text()
    assert old in text
    path = tmp_path / "three-card-poker" / "variant.toml"
    path.parent.mkdir()
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(("old", "new", "key", "message"), [
    ('straight = "6:1"', 'four_of_a_kind = "60:1"', "pays.pair_plus", "four_of_a_kind is not a class of the "
                                                                         "three-card ranking"),
    ('dealer_qualifier = "queen-high"', 'dealer_qualifier = "queen-ish"', "rules.dealer_qualifier", "not a rank"),
    ('decision = { bets = [1], fold = true }', 'decision = { bets = [-1], fold = true }', "rules.stages",
     "multiples of the ante"),
    ('ranking = "three-card"  ', 'ranking = "two-card"  ', "rules.ranking", ""),
    ('[pays.main]', '[pays.main]\nante_wins = "1:1"', "pays.main.ante_wins", ""),
])
def test_a_bad_game_file_names_its_key_and_exits_3(tmp_path: Path, old: str, new: str, key: str,
                                                   message: str) -> None:
    path = write_variant(tmp_path, old, new)
    with pytest.raises(TableError) as raised:
        load_table(path, expect_game="three-card-poker")
    text = str(raised.value)
    assert str(path) in text and key in text and message in text
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == EXIT_TABLE and key in result.output


def test_a_game_file_the_engine_cannot_count_yet_is_refused_with_its_key(tmp_path: Path) -> None:
    path = write_variant(tmp_path, "player = 3\ndealer_down = 3\n", "player = 3\ndealer_down = 3\ncommunity = 1\n")
    result = CliRunner().invoke(main, ["report", "three-card-poker", "--table", str(path)])
    assert result.exit_code == EXIT_TABLE
    assert "rules.stages" in result.output and "community cards" in result.output


def test_the_game_file_alone_makes_the_game(tmp_path: Path) -> None:
    # the registry's declaration is read from the file: its name is the game's title, its folder the key
    from oddscalc.games import DECLARED, GAMES

    assert DECLARED["three-card-poker"].title == "Three Card Poker"
    assert GAMES["three-card-poker"].table_model.GAME == "three-card-poker"
    shutil.copy(GAME_FILE, tmp_path / "copy.toml")
    assert load_table(tmp_path / "copy.toml", expect_game="three-card-poker").model.title.startswith("Three Card")


def test_a_new_game_is_a_folder_with_a_game_file_and_no_code(tmp_path: Path) -> None:
    # a game nobody wrote code for: Three Card Poker's deal with a king-high qualifier, a 2:1 play bet and no side
    # bets, under its own key; the registry's reading of a tables folder finds it and the engine plays it
    from oddscalc.games.stud.capabilities import declared_in
    from oddscalc.games.stud.game import build_class
    from oddscalc.tables import load_table_file

    text = GAME_FILE.read_text().replace('game = "three-card-poker"', 'game = "king-high-poker"')
    text = text.replace('name = "Three Card Poker"', 'name = "King High Poker"')
    text = text.replace('dealer_qualifier = "queen-high"', 'dealer_qualifier = "king-high"')
    text = text.replace('bet_win = "1:1"', 'bet_win = "2:1"')
    text = text[:text.index("[pays.pair_plus]")]
    folder = tmp_path / "tables" / "king-high-poker"
    folder.mkdir(parents=True)
    (folder / "standard.toml").write_text(text)
    (found,) = declared_in(tmp_path / "tables")
    assert (found.key, found.title, found.default_table) == ("king-high-poker", "King High Poker", "standard")
    game = build_class(found)()
    table = load_table_file(folder / "standard.toml", {found.key: game.table_model})
    rules = game.resolve(table, RunOptions(deck=DECKS[0]))
    analysis = game.settle(game.count(rules, Store(None)), rules)
    assert [w.wager for w in analysis.wagers] == ["main"]
    # checked like Three Card Poker: every deal played plainly, the king-high qualifier and the 2:1 play its own
    king_high = (0, 11)
    bonus = {"straight_flush": Fraction(5), "three_of_a_kind": Fraction(4), "straight": Fraction(1)}
    main, _, won = brute(DECKS[0], bonus, king_high, {}, play_win=Fraction(2))
    assert {r.event: r.combinations for r in analysis.wager("main").rows if r.combinations} == dict(main)
    assert analysis.wager("main").expected_value == won / sum(main.values())


def test_several_bet_sizes_and_a_pushed_ante_equal_the_brute_force(tmp_path: Path) -> None:
    # the rules a file may change against a dealer: a play of 1 to 3 antes, the ante pushed when the dealer does not
    # qualify, no ante bonus; the engine's choice of size and every row as a plain brute force plays them
    path = write_variant(tmp_path, "decision = { bets = [1], fold = true }", "decision = { bets = [1, 2, 3] }")
    text = path.read_text().replace('ante_when_dealer_does_not_qualify = "win"',
                                    'ante_when_dealer_does_not_qualify = "push"')
    text = text[:text.index("[pays.main.ante_bonus]")]
    path.write_text(text)
    table = load_table(path, expect_game="three-card-poker")
    analysis = Session("three-card-poker", RunOptions(deck=DECKS[1]), Store(None)).analyze(table)
    main, _, won = brute(DECKS[1], {}, QUEEN_HIGH, {}, sizes=(1, 2, 3), ante_pushes=True)
    assert {r.event: r.combinations for r in analysis.wager("main").rows if r.combinations} == dict(main)
    assert analysis.wager("main").expected_value == won / sum(main.values())
    assert any(event.endswith("_3x") for event in main) and any(event.endswith("_1x") for event in main)
