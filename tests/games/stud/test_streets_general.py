"""The dealer-less engine is general: any first cards, a check (bet 0), no fold, a card with no decision before it;
each against the plain brute force on a reduced deck. A check against a dealer is refused with its key."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from oracles.streets_brute import brute

from oddscalc.cache import Store
from oddscalc.cards import Deck, parse_rank
from oddscalc.catalog import load_table
from oddscalc.datafile import TableError
from oddscalc.games.stud.capabilities import declared_in
from oddscalc.games.stud.game import build_class
from oddscalc.results import Analysis, RunOptions
from oddscalc.tables import load_table_file

MISSISSIPPI = Path(__file__).parents[3] / "tables" / "mississippi-stud" / "standard.toml"
DECK = Deck((0, 4, 8, 11, 12), 2)  # a losing, two pushing and two paying pairs' ranks, flushes


def play(tmp_path: Path, text: str, deck: Deck) -> Analysis:
    folder = tmp_path / "tables" / "toy-stud"
    folder.mkdir(parents=True)
    (folder / "standard.toml").write_text(text.replace('game = "mississippi-stud"', 'game = "toy-stud"'))
    (found,) = declared_in(tmp_path / "tables")
    game = build_class(found)()
    table = load_table_file(folder / "standard.toml", {found.key: game.table_model})
    rules = game.resolve(table, RunOptions(deck=deck))
    return game.settle(game.count(rules, Store(None)), rules)


def stages(text: str, new: str) -> str:
    head, tail = text.index("[[rules.stages]]"), text.index("[pays.main]")
    return text[:head] + new + "\n" + text[tail:]


def pays() -> dict[str, Fraction]:
    from oddscalc.games.stud.table import StudTable

    model = load_table(MISSISSIPPI, expect_game="mississippi-stud").model
    assert isinstance(model, StudTable) and model.pays.main.hand is not None
    return dict(model.pays.main.hand.pays())


@pytest.mark.parametrize(("deal", "first", "bets", "fold", "silent"), [
    # three cards first, a check or 1 to 2 more antes, a fold allowed (a check never does worse than a fold but
    # on a certain loss, where the fold, the smaller stake, is taken)
    ("player = 3\ndecision = { bets = [0, 1, 2], fold = true }\n", 3, [0, 1, 2], True, ()),
    # two cards first, the third card with no decision (a check forced), no fold after it
    ("player = 2\ndecision = { bets = [1, 3], fold = true }\n[[rules.stages]]\ncommunity = 1\n", 2, [1, 3], True,
     (3,)),
])
def test_any_first_cards_a_check_and_a_silent_card_equal_the_brute_force(tmp_path: Path, deal: str, first: int,
                                                                         bets: list[int], fold: bool,
                                                                         silent: tuple[int, ...]) -> None:
    later = "".join("[[rules.stages]]\ncommunity = 1\n" + (
        "" if k == 4 else f"decision = {{ bets = {bets}, fold = {str(fold).lower()} }}\n")
        for k in range(first + len(silent), 5))
    text = stages(MISSISSIPPI.read_text(), "[[rules.stages]]\n" + deal + later)
    analysis = play(tmp_path, text, DECK)
    main = analysis.wager("main")
    rows, won = brute(DECK, first, bets, pays(), parse_rank("jacks"), parse_rank("sixes"),
                      fold=fold, silent=silent)
    assert {r.event: r.combinations for r in main.rows} == dict(rows)
    assert main.expected_value == won / main.total_combinations
    stakes = {int(e.rsplit("_", 1)[1]) for e in rows}
    assert len(stakes) >= 2 and (1 in stakes or not bets.count(0))  # a check all the way leaves the ante alone


def test_no_fold_anywhere_equals_the_brute_force(tmp_path: Path) -> None:
    text = MISSISSIPPI.read_text().replace("fold = true", "fold = false")
    deck = Deck((0, 8, 11, 12), 2)  # 3,360 deals: a losing, a pushing and two paying pairs' ranks
    main = play(tmp_path, text, deck).wager("main")
    rows, won = brute(deck, 2, [1, 2, 3], pays(), parse_rank("jacks"), parse_rank("sixes"),
                      fold=False)
    assert {r.event: r.combinations for r in main.rows} == dict(rows)
    assert main.expected_value == won / main.total_combinations
    assert not any(e.startswith("fold") for e in rows)


def test_a_check_against_a_dealer_is_refused_with_its_key(tmp_path: Path) -> None:
    text = (Path(__file__).parents[3] / "tables" / "three-card-poker" / "standard.toml").read_text()
    path = tmp_path / "three-card-poker" / "check.toml"
    path.parent.mkdir()
    path.write_text(text.replace("decision = { bets = [1], fold = true }", "decision = { bets = [0, 1] }"))
    from oddscalc.analysis import Session

    with pytest.raises(TableError) as raised:
        Session("three-card-poker", RunOptions(deck=DECK), Store(None)).analyze(load_table(path))
    assert "rules.stages" in str(raised.value) and "a check (bet 0) against a dealer" in str(raised.value)
