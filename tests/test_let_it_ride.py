"""Let It Ride: the fast path against a plain brute force, and against published figures."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from oddscalc.cards import Deck, reduced_deck
from oddscalc.exact import decimal_str
from oddscalc.games import RunOptions
from oddscalc.games.let_it_ride import GAME, PAYING, layout, solve
from oddscalc.hands import HandClass, hand_value
from oddscalc.tables import Table, resolve_table
from oddscalc.verify import describe_failure, verify_table

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def standard() -> Table:
    return resolve_table("let-it-ride", "standard")


@pytest.fixture(scope="module")
def analysis(standard: Table):  # type: ignore[no-untyped-def]
    return GAME.analyze(standard, RunOptions())


def _brute(deck: Deck, pays: dict[HandClass, Fraction], min_rank: int, ride_on_zero: bool) -> Counter[tuple[str, int]]:
    """Every deal, played as written: decide each bet from the plain average of its outcomes."""
    def value(hand: tuple[int, ...]) -> tuple[str, Fraction]:
        cls, tie = hand_value(hand)
        if cls == HandClass.HIGH_CARD or (cls == HandClass.PAIR and tie[0] < min_rank):
            return "loss", Fraction(-1)
        return cls.value, pays[cls]

    cards = deck.cards
    memo: dict[frozenset[int], tuple[str, Fraction]] = {}

    def v(hand: tuple[int, ...]) -> tuple[str, Fraction]:
        key = frozenset(hand)
        if key not in memo:
            memo[key] = value(hand)
        return memo[key]

    def rides(ev: Fraction) -> int:
        return int(ev > 0 or (ride_on_zero and ev == 0))

    tally: Counter[tuple[str, int]] = Counter()
    for three in itertools.combinations(cards, 3):
        rest = [c for c in cards if c not in three]
        outcomes = [v(three + (a, b))[1] for a, b in itertools.permutations(rest, 2)]
        r1 = rides(Fraction(sum(outcomes), len(outcomes)))
        for c1 in rest:
            rest2 = [c for c in rest if c != c1]
            ev2 = Fraction(sum(v(three + (c1, c2))[1] for c2 in rest2), len(rest2))
            r2 = rides(ev2)
            for c2 in rest2:
                tally[(v(three + (c1, c2))[0], 1 + r1 + r2)] += 1
    return tally


@pytest.mark.parametrize("deck,min_rank,ride_on_zero", [
    (reduced_deck("8", 3), 8, False),
    (reduced_deck("8", 3), 9, True),
    (Deck((0, 1, 2, 3, 11, 12), 3), 11, False),  # wheel straights and a high minimum
])
def test_fast_path_equals_brute_force(deck: Deck, min_rank: int, ride_on_zero: bool, standard: Table) -> None:
    pays = {c: getattr(standard.model.pays.main, c.value) for c in PAYING}  # type: ignore[attr-defined]
    sol = solve(layout(deck, min_rank), [pays[c] for c in PAYING], ride_on_zero)
    names = [c.value for c in PAYING] + ["loss"]
    fast = Counter({(names[k], b): n for (k, b), n in sol.tally.items() if n})
    assert fast == _brute(deck, pays, min_rank, ride_on_zero)


def test_published_standard_figures(analysis) -> None:  # type: ignore[no-untyped-def]
    main = analysis.wager("main")
    assert main.total_combinations == 22100 * 49 * 48 == 51_979_200
    assert f"{float(main.house_edge) * 100:.3f}" == "3.506"
    assert main.extras["bet1_ride_hands"] == 1608
    assert f"{float(main.extras['bet1_ride_probability']):.8f}" == "0.07276018"
    assert f"{float(main.extras['bet1_expected_return']):.8f}" == "0.10912580"
    bonus = analysis.wager("three_card_bonus")
    assert f"{float(bonus.house_edge) * 100:.2f}" == "7.10"
    assert sum(w.probability(r) for w in analysis.wagers for r in w.rows) == len(analysis.wagers)


def test_final_hand_counts_are_the_five_card_counts_times_20(analysis) -> None:  # type: ignore[no-untyped-def]
    main = analysis.wager("main")
    by = Counter()
    for r in main.rows:
        by[r.event.rsplit("_", 2)[0]] += r.combinations
    # every five-card hand is the final hand of exactly 20 deals
    assert by["royal_flush"] == 4 * 20 and by["straight_flush"] == 36 * 20 and by["flush"] == 5108 * 20
    assert by["pair"] == 422_400 * 20  # published: one pair of tens or better
    assert by["loss"] == (2_598_960 - 4 - 36 - 624 - 3744 - 5108 - 10200 - 54912 - 123552 - 422_400) * 20


def test_ride_on_zero_matches_published_average_stake(standard: Table) -> None:
    # The published 1.232 bets in play and 2.85% element of risk ride the 2,268 zero-EV four-card hands.
    model = standard.model.model_copy(update={"rules": standard.model.rules.model_copy(update={"ride_on_zero": True})})  # type: ignore[attr-defined]
    a = GAME.analyze(Table(standard.id, standard.path, standard.sha256, model), RunOptions(), with_strategy_text=False)
    main = a.wager("main")
    assert f"{float(main.average_stake):.3f}" == "1.232"
    assert f"{float(main.element_of_risk) * 100:.2f}" == "2.85"  # type: ignore[arg-type]
    default = GAME.analyze(standard, RunOptions(), with_strategy_text=False).wager("main")
    assert main.expected_value == default.expected_value
    # the default report states the other convention's figures, computed without a second solve
    assert f"gives {decimal_str(main.average_stake, 6)} bets in play" in default.notes[0]
    assert f"gives {decimal_str(default.average_stake, 6)} bets in play" in main.notes[0]


def test_royal_500_published() -> None:
    a = GAME.analyze(resolve_table("let-it-ride", "royal-500"), RunOptions(), with_strategy_text=False)
    assert f"{float(a.wager('main').house_edge) * 100:.3f}" == "3.737"


@pytest.mark.parametrize("table_id", ["standard", "royal-500"])
def test_published_blocks_hold(table_id: str) -> None:
    checks = verify_table(resolve_table("let-it-ride", table_id))
    assert checks and all(c.ok for c in checks), [describe_failure(c) for c in checks if not c.ok]


def test_jacks_or_better_is_worse_and_flags_assumption() -> None:
    a = GAME.analyze(resolve_table("let-it-ride", "jacks-or-better"), RunOptions(), with_strategy_text=False)
    std = GAME.analyze(resolve_table("let-it-ride", "standard"), RunOptions(), with_strategy_text=False)
    assert a.wager("main").house_edge > std.wager("main").house_edge
    assert any("assumed" in s for s in a.assumptions)


def test_bonus_three_card_counts(analysis) -> None:  # type: ignore[no-untyped-def]
    rows = {r.event: r.combinations for r in analysis.wager("three_card_bonus").rows}
    assert rows == {"mini_royal": 4, "straight_flush": 44, "three_of_a_kind": 52, "straight": 720,
                    "flush": 1096, "pair": 3744, "loss": 16440}


def test_strategy_appendix_groups_add_up(analysis) -> None:  # type: ignore[no-untyped-def]
    sec = {s.title: s.data for s in analysis.sections}
    b1 = sec["Strategy: bet 1 (after the player's three cards)"]
    assert b1["of"] == 22100 and b1["ride"] == 1608 and sum(g["of"] for g in b1["groups"]) == 22100
    assert sum(g["ride"] for g in b1["groups"]) == 1608
    b2 = sec["Strategy: bet 2 (after the first community card)"]
    assert b2["of"] == 270725 and b2["ev_zero"] == 2268
    assert sum(g["ride"] for g in b2["groups"]) == b2["ride"]
