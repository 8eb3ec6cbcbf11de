"""House baccarat draw cards synthesised: on one seat, each card's claimed cost equals the report's optimal EV minus
its EV when it plays the written card (a second method), the published cards are placed at their report costs, and
the written card loads with the game's loader."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from oddscalc.analysis import Session
from oddscalc.games.card_synthesis import Synthesis, card_toml
from oddscalc.games.house_baccarat.card import load_card
from oddscalc.games.house_baccarat.synthesis import synthesis_sections
from oddscalc.results import RunOptions

CARDS = Path(__file__).resolve().parents[3] / "cards" / "house-baccarat"


@pytest.fixture(scope="module")
def result(sessions: Callable[[str], Session]) -> Synthesis:
    return synthesis_sections(sessions("house-baccarat"), "seed", Fraction(1, 10_000), "test")


def _report_cost(s: Session, path: Path) -> Fraction:
    optimal = s.analyze("seed", RunOptions(brief=True)).wagers[0].expected_value
    played = s.analyze("seed", RunOptions(brief=True, strategy=str(path))).wagers[0].expected_value
    return optimal - played


def test_every_frontier_card_costs_what_the_report_computes(result: Synthesis, sessions: Callable[[str], Session],
                                                             tmp_path: Path) -> None:
    assert result.card is not None and result.card_text is not None
    written = tmp_path / "card.toml"
    written.write_text(result.card_text, encoding="utf-8")
    assert load_card(written).model.title.startswith("Synthesised:")
    for i, card in enumerate(result.frontier):
        path = tmp_path / f"c{i}.toml"
        path.write_text(card_toml("house-baccarat", "t", "s", [("", card)], ()), encoding="utf-8")
        assert _report_cost(sessions("house-baccarat"), path) == card.cost


def test_the_published_cards_are_placed_at_their_report_costs(result: Synthesis,
                                                              sessions: Callable[[str], Session]) -> None:
    frontier = next(s for s in result.sections if s.id == "card_frontier")
    placed = {str(r[4]): r[1] for r in frontier.rows if isinstance(r[1], Fraction)}
    for name in ("lone-seat", "punto-banco-rule"):
        assert placed[f"card house-baccarat/{name}.toml"] == _report_cost(sessions("house-baccarat"),
                                                                          CARDS / f"{name}.toml")
    assert placed["card house-baccarat/lone-seat.toml"] == 0
    assert placed["card house-baccarat/punto-banco-rule.toml"] > 0
