"""Let It Ride cards synthesised: the card file written for both decisions loads, and each frontier card's claimed
cost equals the cost the report computes when it plays the written card (a second method: the report's own cost by
rule, itself checked against optimal EV minus the card's EV); the shipped Wizard of Odds card is placed at its
report cost."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from oddscalc.analysis import Session
from oddscalc.games.card_report import Synthesis, card_toml
from oddscalc.games.let_it_ride.card import load_card
from oddscalc.games.let_it_ride.synthesis import synthesis_sections
from oddscalc.results import RunOptions

WITHIN = Fraction(5, 10_000)


@pytest.fixture(scope="module")
def result(sessions: Callable[[str], Session]) -> Synthesis:
    return synthesis_sections(sessions("let-it-ride"), "standard", WITHIN, "test", 6)


def _report_cost(s: Session, path: Path) -> Fraction:
    a = s.analyze("standard", RunOptions(strategy=str(path)))
    return sum((c for c in a.section("strategy_card_cost").column("cost") if isinstance(c, Fraction)), Fraction(0))


def test_the_written_card_costs_what_the_report_computes(result: Synthesis, sessions: Callable[[str], Session],
                                                         tmp_path: Path) -> None:
    assert result.card is not None and result.card_text is not None and result.card.cost <= WITHIN
    path = tmp_path / "card.toml"
    path.write_text(result.card_text, encoding="utf-8")
    card = load_card(path)
    assert card.model.title.startswith("Synthesised:")
    assert len(card.model.bet1.rules) + len(card.model.bet2.rules) == len(result.card.rules)
    assert _report_cost(sessions("let-it-ride"), path) == result.card.cost


def test_the_frontier_falls_and_places_the_published_card(result: Synthesis,
                                                          sessions: Callable[[str], Session]) -> None:
    costs = [c.cost for c in result.frontier]
    assert costs == sorted(costs, reverse=True) and len(set(costs)) == len(costs)
    frontier = next(s for s in result.sections if s.id == "card_frontier")
    placed = {str(r[4]): r[1] for r in frontier.rows}
    wizard = Path(__file__).resolve().parents[3] / "cards" / "let-it-ride" / "wizard-of-odds.toml"
    assert placed["card let-it-ride/wizard-of-odds.toml"] == _report_cost(sessions("let-it-ride"), wizard)


def test_every_frontier_split_covers_both_decisions_and_costs_what_the_report_computes(
        result: Synthesis, sessions: Callable[[str], Session], tmp_path: Path) -> None:
    """Each frontier row is a card over both decisions (bet1 and bet2, each its table in the file): written and
    played by the report, each costs what the frontier says; the frontier reaches optimal (0), and its cards use
    rules on both decisions, not one only."""
    assert len(result.splits) == len(result.frontier) >= 3
    for i, (whole, split) in enumerate(zip(result.frontier, result.splits)):
        assert [len(c.rules) for c in split] and sum(len(c.rules) for c in split) == len(whole.rules)
        path = tmp_path / f"split{i}.toml"
        path.write_text(card_toml("let-it-ride", "t", "s", list(zip(("bet1", "bet2"), split)), ()), encoding="utf-8")
        card = load_card(path)
        assert (len(card.model.bet1.rules), len(card.model.bet2.rules)) == tuple(len(c.rules) for c in split)
        assert _report_cost(sessions("let-it-ride"), path) == whole.cost == sum(c.cost for c in split)
    assert result.frontier[-1].cost == 0
    assert any(all(c.rules for c in split) for split in result.splits)


def test_the_frontier_splits_cover_both_decisions_and_one_costs_what_the_report_computes(
        result: Synthesis, sessions: Callable[[str], Session], tmp_path: Path) -> None:
    # the fast tier's case of the test above: every split's shape, and one card with rules on both decisions
    # written and played by the report (the test above plays every frontier card)
    assert len(result.splits) == len(result.frontier) >= 3
    for whole, split in zip(result.frontier, result.splits):
        assert [len(c.rules) for c in split] and sum(len(c.rules) for c in split) == len(whole.rules)
    assert result.frontier[-1].cost == 0
    i = next(i for i, split in enumerate(result.splits) if all(c.rules for c in split))
    whole, split = result.frontier[i], result.splits[i]
    path = tmp_path / "split.toml"
    path.write_text(card_toml("let-it-ride", "t", "s", list(zip(("bet1", "bet2"), split)), ()), encoding="utf-8")
    card = load_card(path)
    assert (len(card.model.bet1.rules), len(card.model.bet2.rules)) == tuple(len(c.rules) for c in split)
    assert _report_cost(sessions("let-it-ride"), path) == whole.cost == sum(c.cost for c in split)
