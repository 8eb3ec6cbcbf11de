"""The stud engine without a dealer: Mississippi Stud from its game files alone, against a plain brute force on
reduced decks and against published figures on the full deck."""

from __future__ import annotations

from fractions import Fraction

import pytest
from oracles.streets_brute import brute

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, Deck, parse_rank, reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.games.stud.streets import Streets, count_streets, multipliers, solve
from oddscalc.games.stud.streets import rows as streets_rows
from oddscalc.games.stud.table import StudTable
from oddscalc.results import Analysis, RunOptions

SMALL = Deck((8, 9, 10, 11, 12), 2)  # 15,120 deals: ten to ace (a pushing pair, paying pairs, straights, flushes)
# deep: 120,120 and 240,240 deals, the second with losing pairs and a wheel
DECKS = [SMALL, pytest.param(reduced_deck("8", 2), marks=pytest.mark.deep),
         pytest.param(Deck((0, 1, 2, 3, 9, 10, 11, 12), 2), marks=pytest.mark.deep)]


def analyze(table: str, deck: Deck | None = None) -> Analysis:
    options = RunOptions(deck=deck)
    return Session("mississippi-stud", options, Store(None)).analyze(table, options)


@pytest.mark.parametrize("table", ["standard", "barona"])
@pytest.mark.parametrize("deck", DECKS, ids=["ten-to-ace-2-suits", "eight-to-ace-2-suits", "wheel-2-suits"])
def test_every_row_and_the_ev_equal_the_brute_force(deck: Deck, table: str) -> None:
    model = resolve_table("mississippi-stud", table).model
    assert isinstance(model, StudTable)
    main = model.pays.main
    assert main.hand is not None
    rows, won = brute(deck, 2, [1, 2, 3], main.hand.pays(), parse_rank(main.pair_minimum or "2"),
                      parse_rank(main.push_pair_minimum or "2"))
    wager = analyze(table, deck).wager("main")
    assert {r.event: r.combinations for r in wager.rows} == dict(rows)
    assert wager.expected_value == won / wager.total_combinations


def test_ties_toward_the_larger_stake_equal_the_brute_force_too() -> None:
    deck = Deck((0, 4, 8, 11, 12), 2)  # a losing, two pushing and two paying pairs' ranks, flushes
    model = resolve_table("mississippi-stud").model
    assert isinstance(model, StudTable) and model.pays.main.hand is not None
    pays = model.pays.main.hand.pays()
    rows, _ = brute(deck, 2, [1, 2, 3], pays, parse_rank("jacks"), parse_rank("sixes"), larger_on_ties=True)
    solved = solve(Streets(deck, 2, count_streets(deck, 2)), multipliers(pays, parse_rank("jacks"),
                                                                         parse_rank("sixes")),
                   {2: [1, 2, 3], 3: [1, 2, 3], 4: [1, 2, 3]}, prefer_larger=True)
    smaller = solve(Streets(deck, 2, count_streets(deck, 2)), multipliers(pays, parse_rank("jacks"),
                                                                          parse_rank("sixes")),
                    {2: [1, 2, 3], 3: [1, 2, 3], 4: [1, 2, 3]})
    assert any((smaller.actions[k] != solved.actions[k]).any() for k in solved.actions)  # the deck has ties
    net = multipliers(pays, parse_rank("jacks"), parse_rank("sixes"))
    assert {r.event: r.combinations for r in streets_rows(solved, net, pays)} == dict(rows)


@pytest.mark.deep
def test_the_full_deck_reproduces_the_published_figures() -> None:
    standard, barona = analyze("standard"), analyze("barona")
    assert [c.verdict for c in standard.checks] == ["ok", "ok", "differs", "differs"]
    assert [c.verdict for c in barona.checks] == ["ok"]
    main = standard.wager("main")
    assert (main.total_combinations, main.house_edge) == (155_937_600, Fraction(53223, 1082900))  # 4.9149%
    # the source's tie convention (toward the larger stake): its average stake 3.59 and element of risk 1.37%
    model = resolve_table("mississippi-stud").model
    assert isinstance(model, StudTable) and model.pays.main.hand is not None
    net = multipliers(model.pays.main.hand.pays(), parse_rank("jacks"), parse_rank("sixes"))
    solved = solve(Streets(FULL_DECK, 2, count_streets(FULL_DECK, 2)), net,
                   {2: [1, 2, 3], 3: [1, 2, 3], 4: [1, 2, 3]}, prefer_larger=True)
    staked = sum(n * s for (_, s), n in solved.finished.items()) + sum(n * s for s, n in solved.folded.items())
    won = sum(n * s * net[c] for (c, s), n in solved.finished.items()) - sum(n * s for s, n in solved.folded.items())
    assert won / main.total_combinations == main.expected_value
    assert f"{staked / main.total_combinations:.2f}" == "3.59" and f"{float(-won / staked):.4f}" == "0.0137"


def test_the_first_decision_share_and_the_return_by_hand_add_up() -> None:
    model = resolve_table("mississippi-stud").model
    assert isinstance(model, StudTable) and model.pays.main.hand is not None
    rows, _ = brute(SMALL, 2, [1, 2, 3], model.pays.main.hand.pays(), parse_rank("jacks"), parse_rank("sixes"))
    analysis = analyze("standard", SMALL)
    first = analysis.section("decision_share").rows[0]
    assert first[1] == sum(rows.values()) and first[2] == Fraction(rows["fold_stake_1"], sum(rows.values()))
    returns = [r[3] for r in analysis.section("return_by_hand").rows]
    deals = [r[1] for r in analysis.section("return_by_hand").rows]
    assert all(isinstance(x, Fraction) for x in returns) and all(isinstance(x, int) for x in deals)
    assert sum((x for x in returns if isinstance(x, Fraction)), Fraction(0)) == analysis.wager("main").expected_value
    assert sum(x for x in deals if isinstance(x, int)) == analysis.wager("main").total_combinations
