"""The stud engine's check files (tests/games/stud/files/): a game built from its folder, a variant of its standard
file written into a temporary folder of the game's key, and a report's analysis on a deck, as the engine makes it.
Shared by the tests of the check-file games; nothing here judges a figure."""

from __future__ import annotations

from pathlib import Path

from oddscalc.cache import Store
from oddscalc.cards import Deck
from oddscalc.games.stud.capabilities import declared_in
from oddscalc.games.stud.game import StudGame, build_class
from oddscalc.results import Analysis, RunOptions
from oddscalc.tables import Table, load_table_file

FILES = Path(__file__).resolve().parents[1] / "games" / "stud" / "files"


def check_game(key: str) -> StudGame:
    """The game of the check-file folder ``key``, built from its declaration alone."""
    (found,) = [c for c in declared_in(FILES) if c.key == key]  # beside the other check files
    return build_class(found)()


def variant(game: StudGame, tmp_path: Path, *changes: tuple[str, str]) -> Table:
    """The game's standard file with ``changes`` (old, new; each must be there) made, in a folder of its key."""
    text = (FILES / game.key / "standard.toml").read_text()
    for old, new in changes:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / game.key / "variant.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return load_table_file(path, {game.key: game.table_model})


def analyze(game: StudGame, table: Table, deck: Deck) -> Analysis:
    """The report's analysis of ``table`` on ``deck``, counted cold (no store)."""
    rules = game.resolve(table, RunOptions(deck=deck))
    return game.settle(game.count(rules, Store(None)), rules)
