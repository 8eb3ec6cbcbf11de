"""Conformance: every registered game through the protocol (the shape of the code around it: test_architecture)."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from oddscalc.analysis import Session, settle
from oddscalc.cache import Store
from oddscalc.cards import reduced_deck
from oddscalc.catalog import resolve_table, shipped_tables
from oddscalc.games import GAMES
from oddscalc.report import RENDERERS
from oddscalc.results import Analysis, RunOptions

# options small enough to count from nothing in a test: reduced decks for the poker games
FRESH = {"let-it-ride": RunOptions(deck=reduced_deck("8", 3)), "caribbean": RunOptions(deck=reduced_deck("8", 2)),
         "punto-banco": RunOptions(decks=1), "house-baccarat": RunOptions(decks=1, players=2),
         "three-card-poker": RunOptions(deck=reduced_deck("8", 2)),
         "mississippi-stud": RunOptions(deck=reduced_deck("8", 2)),
         "double-down-stud": RunOptions(deck=reduced_deck("8", 2))}


@pytest.fixture(scope="module", params=list(GAMES))
def default(request: pytest.FixtureRequest, sessions: Callable[[str], Session]) -> Analysis:
    game: str = request.param
    return sessions(game).analyze(None)


def test_registry() -> None:
    assert list(GAMES) == ["let-it-ride", "caribbean", "punto-banco", "house-baccarat", "double-down-stud",
                           "mississippi-stud", "three-card-poker"]
    for key, g in GAMES.items():
        assert g.key == key and g.table_model.GAME == key
        assert g.default_table in [p.stem for p in shipped_tables(key)]
        assert g.options <= {"strategy", "decks", "players"}


def test_probabilities_sum_to_one_and_totals_as_stated(default: Analysis) -> None:
    for w in default.wagers:
        assert sum((w.probability(r) for r in w.rows), Fraction(0)) == 1
        assert all(r.combinations >= 0 for r in w.rows)
    assert f"{default.wagers[0].total_combinations:,}" in default.convention


def test_sections_have_stable_unique_ids(default: Analysis) -> None:
    ids = [s.id for s in default.sections]
    assert ids and len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", i) for i in ids)
    for s in default.sections:
        assert all(len(r) == len(s.columns) for r in s.rows)


def test_same_inputs_same_bytes(default: Analysis, sessions: Callable[[str], Session]) -> None:
    again = sessions(default.game).analyze(None)
    for fmt, render in RENDERERS.items():
        assert render(default) == render(again), fmt


def test_published_figures_are_part_of_the_analysis(default: Analysis) -> None:
    assert default.published_applies
    model = default.table.model
    assert bool(default.sources) == (model.published is not None or model.claimed is not None)
    assert all(c.ok for c in default.checks)


@pytest.mark.parametrize("game", list(GAMES))
def test_settle_from_a_stored_count_equals_settle_from_a_fresh_count(game: str, tmp_path: Path) -> None:
    g = GAMES[game]
    rules = g.resolve(resolve_table(game), FRESH[game])
    fresh = settle(g, g.count(rules, Store(tmp_path)), rules)
    assert list(tmp_path.glob("*.counts")) or game == "house-baccarat"
    stored = settle(g, g.count(rules, Store(tmp_path)), rules)
    assert list(tmp_path.glob("*.counts"))
    for fmt, render in RENDERERS.items():
        assert render(fresh) == render(stored), fmt


@pytest.mark.parametrize("game", list(GAMES))
def test_one_count_settles_many_tables(game: str) -> None:
    # a session counts once per count key: every shipped table with the same counting rules shares it
    session = Session(game, FRESH[game], Store(None))
    keys = set()
    for path in shipped_tables(game):
        rules = session.resolve(path.stem)
        keys.add(repr(sorted(rules.count_key().items())))
        session.analyze(path.stem)
    assert len(session.counted) == len(keys) <= len(shipped_tables(game))

