"""House baccarat draw cards synthesised: on one seat, each card's claimed cost equals the report's optimal EV minus
its EV when it plays the written card (a second method), the published cards are placed at their report costs, and
the written card loads with the game's loader. With two seats the reference is the equilibrium the other seat plays:
on a small shoe a plain brute force over every deal checks that it is one and counts each card's cost, and on the
full shoe the outputs say so."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from oracles.house_brute import LITERAL, Tally, brute_two, seat_counts

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.exact import frac_str
from oddscalc.games.card_report import Synthesis, card_toml
from oddscalc.games.card_synthesis import synthesise
from oddscalc.games.house_baccarat.card import COMPOSITIONS, draws, load_card
from oddscalc.games.house_baccarat.count import LOSS, WIN
from oddscalc.games.house_baccarat.settle import best_by_composition
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.house_baccarat.synthesis import card_cost, problem, synthesis_sections
from oddscalc.games.shoe import Shoe
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


# --- several seats: the cost against the equilibrium the other seats play --------------------------------------

SMALL = list("AA3567QK9")  # nine cards: every ordered deal of two seats is 9! = 362,880 sequences


def _brute_ev(tally: Tally, m: np.ndarray) -> int:
    """Wins less losses at 1:1 over every deal of the brute force, your seat drawing where ``m`` says."""
    return sum(n * ((o == WIN) - (o == LOSS)) for (u, w, a, o), n in tally.items() if a == int(m[u, w]))


def _small_equilibrium(shoe: Shoe) -> Strategy:
    """The symmetric equilibrium of two seats on the small shoe, by best replies (as ``settle.solve`` walks it)."""
    current = Strategy.by_totals("none", [])
    for _ in range(20):
        nxt = best_by_composition(seat_counts(shoe, 2, current, LITERAL, infinite=False), Fraction(1), "eq")
        if nxt.draws == current.draws:
            return nxt
        current = nxt
    raise AssertionError("best replies did not settle on the small shoe")


def test_two_seats_every_frontier_card_costs_what_a_brute_force_counts(tmp_path: Path) -> None:
    """On a nine-card shoe, two seats: the reference is an equilibrium by the brute force's own count (no seat gains
    by leaving it), and each frontier card, written and read back by the game's loader, costs your seat, the other
    playing the equilibrium, exactly what the synthesiser claims: the brute force's wins less losses under the
    equilibrium less those under the card, over its 362,880 deals."""
    shoe = Shoe.from_ranks(dict(Counter(SMALL)))
    eq = _small_equilibrium(shoe)
    tally = brute_two(SMALL, LITERAL, eq)
    deals = math.perm(len(SMALL), 9)
    assert sum(n for (_, _, a, _), n in tally.items() if a == 0) == deals
    best = _brute_ev(tally, eq.matrix)
    for u, w in COMPOSITIONS:  # no single change of the equilibrium gains, counted by the brute force
        flipped = eq.matrix.copy()
        flipped[u, w] = flipped[w, u] = not eq.matrix[u, w]
        assert _brute_ev(tally, flipped) <= best
    sc = seat_counts(shoe, 2, eq, LITERAL, infinite=False)
    p = problem(sc, Fraction(1))
    assert p.scale == deals and p.floor == 0
    _, frontier = synthesise(p, Fraction(0), 6)
    assert frontier and frontier[-1].cost == 0
    paths = []
    for i, card in enumerate(frontier):
        paths.append(tmp_path / f"c{i}.toml")
        paths[-1].write_text(card_toml("house-baccarat", "t", "s", [("", card)], ()), encoding="utf-8")
        m = draws(load_card(paths[-1]))
        assert card.cost == Fraction(best - _brute_ev(tally, m), deals)
    costs = []
    for path in [*paths, *sorted(CARDS.glob("*.toml"))]:  # the published cards are placed by card_cost
        m = draws(load_card(path))
        costs.append(card_cost(p, m))
        assert costs[-1] == Fraction(best - _brute_ev(tally, m), deals)
    assert len(costs) >= 4 and len({c for c in costs if c > 0}) >= 2  # the figures checked are not all 0


@pytest.fixture(scope="module")
def two_seats(_isolated_cache: None) -> Session:
    return Session("house-baccarat", RunOptions(players=2, brief=True), Store.default())


def test_two_seats_the_output_states_the_equilibrium_and_the_everyone_figure(two_seats: Session,
                                                                             tmp_path: Path) -> None:
    """On the full shoe, two seats: every output names the reference (the report's equilibrium), the frontier's
    reference row is the equilibrium, and the card section's "if every seat played this card" figure is the one the
    report gives for the written card with ``--players 2 --strategy``."""
    result = synthesis_sections(two_seats, "seed", Fraction(1, 10_000), "test")
    assert result.card is not None and result.card_text is not None
    eq = two_seats.analyze("seed").wagers[0]
    text = "the symmetric equilibrium of 2 seats reached by best replies"
    assert text in " ".join(result.sections[0].intro) and text in " ".join(result.sections[-1].intro)
    assert text in " ".join(result.card_text.replace("\n# ", " ").split())
    frontier = next(s for s in result.sections if s.id == "card_frontier")
    assert frontier.rows[-1][4] == "equilibrium" and frontier.rows[-1][1] == 0
    assert all(isinstance(c, Fraction) and c >= 0 for c in frontier.column("cost"))  # no card beats a best reply
    path = tmp_path / "card.toml"
    path.write_text(result.card_text, encoding="utf-8")
    everyone = two_seats.analyze("seed", RunOptions(players=2, brief=True, strategy=str(path))).wagers[0]
    assert f"exact {frac_str(everyone.expected_value)})" in result.sections[0].intro[-1]
    assert eq.extras["expected_value_optimal_play"] == eq.expected_value  # the report's optimum, played by all
