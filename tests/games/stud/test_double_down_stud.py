"""Double Down Stud, the third game of the family, from its game file alone (tables/double-down-stud/standard.toml):
against a plain brute force on reduced decks, and on the full deck against the Wizard of Odds' return table, every
combination to the unit (https://sonofdave.com/games/double-down-stud/, "Double Down Stud - Jacks or Better")."""

from __future__ import annotations

from fractions import Fraction

import pytest
from oracles.streets_brute import brute

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, Deck, parse_rank
from oddscalc.catalog import resolve_table
from oddscalc.games.stud.streets import Streets, count_streets, multipliers, rows, solve
from oddscalc.games.stud.table import StudTable
from oddscalc.results import Analysis, RunOptions

# the source's table, as printed: combinations by final hand, not doubled (stake 1) and doubled (stake 2)
PUBLISHED = {
    "straight_stake_1": 31248, "three_of_a_kind_stake_1": 50688, "two_pair_stake_1": 152064,
    "pair_stake_1": 657720, "push_stake_1": 816480, "lose_stake_1": 8035992,
    "royal_flush_stake_2": 20, "straight_flush_stake_2": 180, "four_of_a_kind_stake_2": 3120,
    "full_house_stake_2": 18720, "flush_stake_2": 25540, "straight_stake_2": 19752,
    "three_of_a_kind_stake_2": 223872, "two_pair_stake_2": 465696, "pair_stake_2": 1031880,
    "push_stake_2": 1295520, "lose_stake_2": 166308,
}
# 12 cards: a losing pair (fours), a pushing one (sevens), paying ones, flushes; 10 cards: the wheel, where 5-4-3-2
# not of one suit is an exact tie between doubling and standing (as on the full deck); 18 cards (deep): both
DECKS = [Deck((0, 2, 3, 5, 11, 12), 2), Deck((0, 1, 2, 3, 12), 2),
         pytest.param(Deck((0, 1, 2, 3, 5, 9, 10, 11, 12), 2), marks=pytest.mark.deep)]


def hand_pays() -> dict[str, Fraction]:
    model = resolve_table("double-down-stud").model
    assert isinstance(model, StudTable) and model.pays.main.hand is not None
    return model.pays.main.hand.pays()


def analyze(deck: Deck | None = None) -> Analysis:
    return Session("double-down-stud", RunOptions(deck=deck), Store(None)).analyze(None)


@pytest.mark.parametrize("deck", DECKS, ids=["12-cards", "10-cards-wheel", "18-cards"])
def test_every_row_and_the_ev_equal_the_brute_force_under_either_tie_rule(deck: Deck) -> None:
    main = analyze(deck).wager("main")
    plain, won = brute(deck, 4, [0, 1], hand_pays(), parse_rank("jacks"), parse_rank("sixes"), fold=False)
    assert {r.event: r.combinations for r in main.rows} == dict(plain)
    assert main.expected_value == won / main.total_combinations
    larger, _ = brute(deck, 4, [0, 1], hand_pays(), parse_rank("jacks"), parse_rank("sixes"), fold=False,
                      larger_on_ties=True)
    net = multipliers(hand_pays(), parse_rank("jacks"), parse_rank("sixes"))
    solved = solve(Streets(deck, 4, count_streets(deck, 4)), net, {4: [0, 1]}, prefer_larger=True, folds=())
    assert {r.event: r.combinations for r in rows(solved, net, hand_pays())} == dict(larger)
    assert (dict(larger) != dict(plain)) == (1 in deck.ranks)  # the tie rule shows where there are ties


def test_the_full_deck_gives_the_published_table_to_the_unit() -> None:
    analysis = analyze()
    main = analysis.wager("main")
    assert (main.total_combinations, main.expected_value) == (12_994_800, Fraction(-6833, 324870))  # -0.021033
    assert [c.verdict for c in analysis.checks] == ["ok"] * 13 + ["differs"] * 6
    ours = {r.event: r.combinations for r in main.rows}
    assert {e: n for e, n in PUBLISHED.items() if ours[e] != n} == {
        e: PUBLISHED[e] for e in ("straight_stake_1", "pair_stake_1", "lose_stake_1", "straight_stake_2",
                                  "pair_stake_2", "lose_stake_2")}
    # the six rows differ by the source's tie rule only: 504 four-card sets with a doubling EV of exactly zero
    net = multipliers(hand_pays(), parse_rank("jacks"), parse_rank("sixes"))
    streets = Streets(FULL_DECK, 4, count_streets(FULL_DECK, 4))
    solved = solve(streets, net, {4: [0, 1]}, prefer_larger=True, folds=())
    assert {r.event: r.combinations for r in rows(solved, net, hand_pays())} == PUBLISHED
    doubled = analysis.decisions[0].array()  # ours: double (else stand) per four-card class, the same classes
    moved = (solved.actions[4][:, 1] > 0) != doubled
    assert int(streets.arrays["weights4"][moved].sum()) == 504 and not doubled[moved].any()
