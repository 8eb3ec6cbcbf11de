"""House baccarat's count counts: every seat count its settlement reads is made (and stored) by ``count``, and
``settle`` only compares them; the figures are those of a counter that counts on demand."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from oddscalc.cache import Store
from oddscalc.catalog import resolve_table
from oddscalc.games.house_baccarat.count import SeatCounter
from oddscalc.games.house_baccarat.game import HouseBaccarat
from oddscalc.protocol import OptionError
from oddscalc.results import RunOptions


@pytest.mark.parametrize("options", [RunOptions(players=1, decks=1), RunOptions(players=2, decks=1),
                                     RunOptions(players=3, decks=1, strategy="optimal-total"),
                                     RunOptions(players=2, decks=1, strategy="draw-0-4")],
                         ids=["one seat", "two seats", "three seats by total", "two seats fixed"])
def test_count_makes_every_count_settle_reads(tmp_path: Path, options: RunOptions) -> None:
    game = HouseBaccarat()
    rules = game.resolve(resolve_table("house-baccarat", "seed"), options)
    counter = game.count(rules, Store(tmp_path))
    counted, stored = set(counter.kept), sorted(tmp_path.glob("*.counts"))
    assert counted and len(stored) == len(counted)  # each through the store
    settled = game.settle(counter, rules)
    assert set(counter.kept) == counted and sorted(tmp_path.glob("*.counts")) == stored  # settle counted nothing
    lazy = game.settle(SeatCounter(rules, Store(None), game), rules)  # counted on demand, as before
    assert settled.wagers == lazy.wagers and settled.sections == lazy.sections


def test_count_counts_nothing_ahead_for_third_cards_shown(tmp_path: Path) -> None:
    # shown to other seats, the report refuses the table; ``oddscalc seats`` counts what its own game needs
    game = HouseBaccarat()
    rules = game.resolve(resolve_table("house-baccarat", "seed"), RunOptions(players=2, decks=1))
    shown = dataclasses.replace(rules, third_cards="shown")
    assert not game.count(shown, Store(tmp_path)).kept and game.count(rules, Store(tmp_path)).kept
    with pytest.raises(OptionError, match="third_cards"):
        game.settle(game.count(shown, Store(tmp_path)), shown)
