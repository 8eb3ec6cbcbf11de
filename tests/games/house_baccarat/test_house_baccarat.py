"""House baccarat: brute force over every ordered deal of small shoes (one and two players, finite
and infinite), the other-seat recursion, the solved strategy, the headline, and the CLI."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import cast

import numpy as np
import pytest
from click.testing import CliRunner
from oracles.house_brute import (
    LITERAL,
    ON_0_5,
    VALUE,
    brute_infinite,
    brute_one,
    brute_two,
    mixed_strategy,
    seat_counts,
)

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.catalog import load_table, resolve_table
from oddscalc.cli.main import main
from oddscalc.datafile import TableError
from oddscalc.games.house_baccarat import game as house_game
from oddscalc.games.house_baccarat.count import SeatCounter
from oddscalc.games.house_baccarat.game import HouseBaccarat
from oddscalc.games.house_baccarat.others import others_finite
from oddscalc.games.house_baccarat.settle import best_by_composition, best_by_total, seat_ev, solve
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.house_baccarat.table import HouseBaccaratTable, TableRules
from oddscalc.games.shoe import Multisets, Shoe
from oddscalc.protocol import OptionError
from oddscalc.results import RunOptions


@pytest.fixture(scope="module")
def session(sessions: Callable[[str], Session]) -> Session:
    return sessions("house-baccarat")


def _as_counter(counts: np.ndarray) -> Counter[tuple[int, int, int, int]]:
    out: Counter[tuple[int, int, int, int]] = Counter()
    for o, u, w, a in itertools.product(range(4), range(10), range(10), range(2)):
        if counts[o, u, w, a]:
            out[(u, w, a, o)] = int(counts[o, u, w, a])
    return out


SUIT = list("A23456789TJQK")
# a suit with two of its four cards worth 0 (the same case: each value dealt, a pair of zeros among them): 332,640
# ordered deals a brute force plays in 0.9 s of CPU, where the suit's 1,235,520 take 3.4 s (the deep case)
SHORT_SUIT = list("A23456789TK")


@pytest.mark.parametrize("ranks", [SHORT_SUIT, pytest.param(SUIT, marks=pytest.mark.deep)], ids=["11", "13"])
@pytest.mark.parametrize("rules", [LITERAL, ON_0_5], ids=["literal", "on-0-5"])
def test_one_player_equals_brute_force_over_a_suit(rules: TableRules, ranks: list[str]) -> None:
    shoe = Shoe.from_ranks(dict(Counter(ranks)))
    sc = seat_counts(shoe, 1, mixed_strategy(), rules, infinite=False)
    assert sc.total == math.perm(len(ranks), 6)
    assert _as_counter(sc.counts) == brute_one(ranks, rules)


DISTINCT, REPEATS = list("A2345678K"), list("AA3567QK9")


# each rules and each shoe once in make test (the diagonal); the other two pairings are deep checks
@pytest.mark.parametrize(("ranks", "rules"), [
    pytest.param(DISTINCT, LITERAL, id="literal-distinct"),
    pytest.param(REPEATS, LITERAL, id="literal-repeats", marks=pytest.mark.deep),
    pytest.param(DISTINCT, ON_0_5, id="on-0-5-distinct", marks=pytest.mark.deep),
    pytest.param(REPEATS, ON_0_5, id="on-0-5-repeats")])
def test_two_players_equal_brute_force(ranks: list[str], rules: TableRules) -> None:
    shoe = Shoe.from_ranks(dict(Counter(ranks)))
    other = mixed_strategy()
    sc = seat_counts(shoe, 2, other, rules, infinite=False)
    assert sc.total == math.factorial(9)
    assert _as_counter(sc.counts) == brute_two(ranks, rules, other)


def _brute_classes(vals: list[int], seats: int, draws: np.ndarray) -> list[int]:
    out = [0] * 12
    for perm in itertools.permutations(range(len(vals)), 3 * seats):
        v = [vals[i] for i in perm]
        hands = [v[3 * j:3 * j + 3] for j in range(seats)]
        if any((a + b) % 10 >= 8 for a, b, _ in hands):
            out[0] += 1
            continue
        drawn = [z for a, b, z in hands if draws[a, b]]
        out[2 + max(drawn) if drawn else 1] += 1
    return out


@pytest.mark.parametrize("seats", [1, 2, 3])
def test_other_seats_recursion_equals_brute_force(seats: int) -> None:
    ranks = list("A2345K9QJ7")[: 10 if seats < 3 else 9]  # nine cards are enough for three seats
    shoe = Shoe.from_ranks(dict(Counter(ranks)))
    draws = mixed_strategy().matrix
    removed = np.zeros((2, 10), dtype=np.int64)
    removed[1, [0, 5]] = 1  # take a K and the 5 out first
    got = others_finite(shoe.counts, seats, draws, removed)
    vals = [VALUE[r] for r in ranks]
    assert list(map(int, got[0])) == _brute_classes(vals, seats, draws)
    rest = list(vals)
    rest.remove(0)
    rest.remove(5)
    assert list(map(int, got[1])) == _brute_classes(rest, seats, draws)


def test_other_seats_rows_add_up_in_a_real_shoe() -> None:
    shoe = Shoe.of_decks(8)
    draws = Strategy.by_totals("d", range(5)).matrix
    removed = Multisets.of_size(6).counts[::97]
    for seats in (1, 2, 3):
        got = others_finite(shoe.counts, seats, draws, removed)
        for row, rem in zip(got, removed):
            assert sum(int(x) for x in row) == math.perm(416 - int(rem.sum()), 3 * seats)
            assert all(int(x) >= 0 for x in row)


@pytest.mark.parametrize("players,ranks", [(1, {"K": 2, "A": 1, "3": 1, "5": 1, "7": 1, "9": 1}),
                                           pytest.param(2, {"K": 2, "3": 1, "5": 1, "8": 1},
                                                        marks=pytest.mark.deep)])  # a second seat: larger
def test_infinite_shoe_equals_brute_force(players: int, ranks: dict[str, int]) -> None:
    shoe = Shoe.from_ranks(ranks)
    red, size = shoe.reduced()
    other = mixed_strategy()
    for rules in (LITERAL, ON_0_5):
        sc = seat_counts(shoe, players, other, rules, infinite=True)
        assert sc.total == size ** (3 * players + 3)
        assert _as_counter(sc.counts) == brute_infinite(list(red), players, rules, other)


# --- eight decks ---------------------------------------------------------------------------------


def test_probabilities_sum_to_one_and_stand_always_is_fair() -> None:
    shoe = Shoe.of_decks(8)
    sc = seat_counts(shoe, 1, Strategy.by_totals("stand", []), LITERAL, infinite=False)
    assert sc.total == 4_998_398_275_503_360
    for a in (0, 1):
        assert sum(int(x) for x in sc.counts[:, :, :, a].ravel()) == sc.total
    # literal reading: if you never draw the house never draws, and two cards against two is fair
    assert seat_ev(sc, Strategy.by_totals("stand", []), Fraction(1)) == 0


@pytest.mark.parametrize("table,draw_on,ev", [
    ("seed", [0, 1, 2], Fraction(317218834208, 2789284751955)),
    ("seed-house-draws", [0, 1, 2, 3, 4, 5], Fraction(139301693584, 19524993263685)),
])
def test_one_player_optimum(session: Session, table: str, draw_on: list[int], ev: Fraction) -> None:
    t = resolve_table("house-baccarat", table)
    a = session.analyze(t)
    w = a.wager("main")
    assert w.total_combinations == 4_998_398_275_503_360
    assert sum((w.probability(r) for r in w.rows), Fraction(0)) == 1
    assert w.expected_value == ev > 0
    assert w.strategy == "optimal" and w.strategy_title.startswith("optimal: draw on " + ", ".join(map(str, draw_on)))
    # the report leads with who the game favours, with the exact figure
    assert a.lead[0].startswith("This game favours the PLAYER") and a.verdict.favours == "player"
    assert str(ev.numerator) in a.lead[0] and "under optimal play" in a.lead[0]
    # the optimum beats every other way to play
    model = t.model
    assert isinstance(model, HouseBaccaratTable)
    sc = seat_counts(Shoe.of_decks(8), 1, Strategy.by_totals("x", []), model.rules, infinite=False)
    best = seat_ev(sc, best_by_composition(sc, Fraction(1)), Fraction(1))
    assert best == ev >= seat_ev(sc, best_by_total(sc, Fraction(1)), Fraction(1))
    for lo, hi in itertools.combinations_with_replacement(range(8), 2):
        assert best >= seat_ev(sc, Strategy.by_totals("x", range(lo, hi + 1)), Fraction(1))
    assert a.section("best_by_total").column("total") == list(range(8))
    grid = a.section("best_by_composition").rows
    assert sum(cell != "nat" for row in grid for cell in row[1:]) == 100 - 20  # 20 ordered natural pairs
    draw = a.decision("draw")
    assert draw.keys is not None and len(draw.keys) == 55 - 11 == len(draw.array())
    pairs = [cast(tuple[int, int], k) for k in draw.keys]
    assert {(u + w) % 10 for (u, w), d in zip(pairs, draw.array()) if d} == set(draw_on)


def test_named_strategies_and_draw_on(session: Session, tmp_path: Path) -> None:
    t = resolve_table("house-baccarat", "seed")
    a = session.analyze(t, RunOptions(strategy="draw-0-5"))
    assert a.wager("main").strategy == "draw-0-5"
    assert a.wager("main").strategy_title.startswith("draw-0-5: draw on 0, 1, 2, 3, 4, 5")
    assert a.wager("main").expected_value < a.wager("main").extras["expected_value_optimal_play"]
    # the verdict judges the play of the report; the optimum follows it (one seat: "optimal play")
    assert "under the play of this report (draw-0-5: draw on 0, 1, 2, 3, 4, 5" in a.lead[0]
    assert a.headline[0].startswith("Under optimal play (optimal: draw on ")
    with pytest.raises(OptionError):
        session.analyze(t, RunOptions(strategy="draw-5-2"))
    with pytest.raises(OptionError):
        session.analyze(t, RunOptions(players=8))
    d = tmp_path / "house-baccarat"
    d.mkdir()
    text = (Path(t.path).read_text().replace('strategy = "optimal"', "draw_on = [0, 1, 2, 3]"))
    (d / "fixed.toml").write_text(text)
    fixed = load_table(d / "fixed.toml")
    a = session.analyze(fixed)
    assert a.wager("main").strategy == "table"
    assert a.wager("main").strategy_title == "draw_on (table): draw on 0, 1, 2, 3, stand otherwise"
    (d / "both.toml").write_text(text.replace("draw_on = [0, 1, 2, 3]", 'draw_on = [0, 1]\nstrategy = "optimal"'))
    with pytest.raises(TableError, match="either strategy or draw_on"):
        load_table(d / "both.toml")


def test_two_players_fixed_point_and_sitting_out(session: Session) -> None:
    t = resolve_table("house-baccarat", "seed")
    a = session.analyze(t, RunOptions(players=2))
    w = a.wager("main")
    assert w.total_combinations == math.perm(416, 9)
    assert w.row("push_sit_out").combinations > 0
    game = HouseBaccarat()
    rules = game.resolve(t, RunOptions(players=2))
    solved = solve(game.count(rules, Store(None)), 2, Fraction(1), "optimal")
    assert best_by_composition(solved.counts, Fraction(1)).draws == solved.strategy.draws  # a best response to itself
    assert w.expected_value == seat_ev(solved.counts, solved.strategy, Fraction(1))
    assert "416P9" in a.convention and a.rules["shoe"] == "finite (exact)"
    # with several seats "optimal" is one equilibrium of a game among them: the headline names the concept
    assert "under the symmetric equilibrium reached by best replies" in a.lead[0]
    assert "optimal play" not in a.lead[0]
    assert any("every symmetric equilibrium" in h for h in a.headline)


def test_seat_counts_are_stored_per_strategy(tmp_path: Path) -> None:
    game = HouseBaccarat()
    rules = game.resolve(resolve_table("house-baccarat", "seed"), RunOptions(players=2, decks=1))
    a, b = Strategy.by_totals("a", range(4)), Strategy.by_totals("b", range(5))
    first = SeatCounter(rules, Store(tmp_path), game)  # a bare counter: game.count also counts the equilibrium
    ca, cb = first.seat(2, a), first.seat(2, b)
    assert len(list(tmp_path.glob("*.counts"))) == 2
    again = SeatCounter(rules, Store(tmp_path), game)  # a new counter reads them back
    assert (again.seat(2, a).counts == ca.counts).all() and (again.seat(2, b).counts == cb.counts).all()
    assert not (ca.counts == cb.counts).all()
    direct = seat_counts(Shoe.of_decks(1), 2, a, LITERAL, infinite=False)
    assert (direct.counts == ca.counts).all()


def test_beyond_the_exact_limit_is_labelled(monkeypatch: pytest.MonkeyPatch, session: Session) -> None:
    monkeypatch.setattr(house_game, "FINITE_EXACT_MAX_PLAYERS", 1)
    a = session.analyze(resolve_table("house-baccarat", "seed"), RunOptions(players=2))
    assert a.convention.startswith("INFINITE SHOE")
    assert a.wager("main").total_combinations == 13**9
    assert "(infinite shoe)" in a.lead[0]
    assert any("oddscalc simulate house-baccarat --players 2" in h for h in a.headline)
    assert a.rules["shoe"].startswith("infinite")


def test_cli_reports() -> None:
    res = CliRunner().invoke(main, ["report", "house-baccarat", "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["table"] == "seed"
    assert data["headline"][0].startswith("This game favours the PLAYER")
    assert [w["wager"] for w in data["wagers"]] == ["main"]
    assert data["wagers"][0]["unit"] == "unit staked"
    res = CliRunner().invoke(main, ["report", "house-baccarat", "--table", "seed-house-draws", "--decks", "6"])
    assert res.exit_code == 0, res.output
    assert "> This game favours the PLAYER" in res.output and "312P6" in res.output
    res = CliRunner().invoke(main, ["report", "house-baccarat", "--strategy", "sometimes"])
    assert res.exit_code == 4


def test_one_seat_on_a_huge_shoe_is_exact_and_the_study_refuses_it() -> None:
    # one seat never runs the other seats' recursion, so its limb width cannot refuse the shoe
    r = CliRunner().invoke(main, ["report", "house-baccarat", "--decks", "2500", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["wagers"][0]["total_combinations"] == math.perm(2500 * 52, 6)
    r = CliRunner().invoke(main, ["counting", "house-baccarat", "--decks", "9000", "--wager", "house_game",
                                  "--shoes", "1"])
    assert r.exit_code == 4 and "too large for the exact int64 weights" in r.output, r.output


@pytest.mark.parametrize("decks", [1, pytest.param(8, marks=pytest.mark.deep)])  # 8 decks: the larger case
def test_the_ranked_deepest_levels_equal_the_searched_recursion(decks: int) -> None:
    shoe = Shoe.of_decks(decks)
    for seats, draw_on in ((2, range(5)), (3, range(4))):  # two ranked levels, then one searched above them
        draws = Strategy.by_totals("d", draw_on).matrix
        removed = Multisets.of_size(6).counts
        searched = others_finite(shoe.counts, seats, draws, removed, levels=False)
        assert np.array_equal(others_finite(shoe.counts, seats, draws, removed, levels=True), searched)
