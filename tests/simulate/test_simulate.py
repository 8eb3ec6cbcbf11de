"""The Monte Carlo check: its own evaluator and dealing, and agreement with the exact engine.

Fixed seeds make every statistical assertion deterministic: with these seeds and sizes each exact
value lies inside its 99% interval. A change that moves one outside is worth a look (a bug in
either side) before picking another seed.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from oddscalc.analysis import Session
from oddscalc.cards import parse_cards
from oddscalc.cli.main import EXIT_INPUT, main
from oddscalc.games.house_baccarat.count import seat_counts
from oddscalc.games.house_baccarat.settle import seat_ev
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.house_baccarat.table import SHEET_TABLEAU
from oddscalc.games.shoe import Shoe
from oddscalc.protocol import OptionError
from oddscalc.results import RunOptions
from oddscalc.simulate import (
    CATEGORY_NAMES,
    RideDecisions,
    category_of,
    deal,
    full_shoe,
    hand_name,
    paired_estimate,
    render_json,
    run,
    solved_chart,
    strength,
    three_card_classes,
)

ROOT = Path(__file__).resolve().parents[2]


def _combinations(k: int) -> np.ndarray:
    """Every k-card hand of 52 in itertools' order, one row each (read flat: half the CPU of a list of tuples)."""
    flat = itertools.chain.from_iterable(itertools.combinations(range(52), k))
    return np.fromiter(flat, dtype=np.int64).reshape(-1, k)


def s(text: str) -> int:
    return int(strength(np.array([parse_cards(text)]))[0])


# --- the evaluator ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "name"), [
    ("As Ks Qs Js Ts", "royal_flush"),
    ("5h 4h 3h 2h Ah", "straight_flush"),
    ("9c 9d 9h 9s 2c", "four_of_a_kind"),
    ("3c 3d 3h Ks Kc", "full_house"),
    ("Ad 9d 7d 4d 2d", "flush"),
    ("Ac 2d 3h 4s 5c", "straight"),
    ("Tc Jd Qh Ks Ac", "straight"),
    ("7c 7d 7h Ks 2c", "three_of_a_kind"),
    ("Jc Jd 4h 4s 2c", "two_pair"),
    ("Tc Td 4h 8s 2c", "pair"),
    ("Ac Kd 4h 8s 2c", "high_card"),
    ("Qc Kd Ah 2s 3c", "high_card"),  # no wrap-around straight
])
def test_known_hands(hand: str, name: str) -> None:
    assert hand_name(parse_cards(hand)) == name


def test_known_comparisons() -> None:
    assert s("Ac 2d 3h 4s 5c") < s("2c 3d 4h 5s 6c")  # the wheel is the lowest straight
    assert s("Ad 9d 7d 4d 2d") > s("Kh Qh Jh 9h 7h")
    assert s("Jc Jd 4h 4s Ac") > s("Jh Js 4c 4d Kc")  # two pair: the kicker decides
    assert s("Jc Jd 5h 5s 2c") > s("Jh Js 4c 4d Ac")  # ... after the second pair
    assert s("3c 3d 3h 2s 2c") > s("2h 2s 2d As Ac")  # full house: the trips decide
    assert s("Tc Td 4h 8s 2c") == s("Th Ts 4c 8d 2d")  # suits never break a tie
    assert s("Ac Kd 4h 8s 2c") > s("Ac Qd Jh 9s 7c")
    assert s("9c 9d 9h 9s 2c") < s("5h 4h 3h 2h Ah")


def test_every_hand_class_count() -> None:
    """All C(52,5) hands: the textbook count of every class, and 7,462 distinct strengths."""
    hands = _combinations(5)
    st = np.concatenate([strength(hands[i:i + 300_000]) for i in range(0, len(hands), 300_000)])
    counts = dict(zip(CATEGORY_NAMES, np.bincount(category_of(st), minlength=9).tolist()))
    assert counts == {"high_card": 1302540, "pair": 1098240, "two_pair": 123552, "three_of_a_kind": 54912,
                      "straight": 10200, "flush": 5108, "full_house": 3744, "four_of_a_kind": 624,
                      "straight_flush": 40}
    assert len(np.unique(st)) == 7462


def test_three_card_classes() -> None:
    hands = ["As Ks Qs", "2h 3h 4h", "7c 7d 7h", "Ac 2d 3h", "Qc Kd Ah", "Kc Ad 2h", "2d 9d Jd", "5c 5d Ah", "2c 7d Ks"]
    got = three_card_classes(np.array([parse_cards(h) for h in hands])).tolist()
    assert got == ["mini_royal", "straight_flush", "three_of_a_kind", "straight", "straight", "loss", "flush",
                   "pair", "loss"]
    every = three_card_classes(_combinations(3))
    values, counts = np.unique(every, return_counts=True)
    assert dict(zip(values.tolist(), counts.tolist())) == {
        "mini_royal": 4, "straight_flush": 44, "three_of_a_kind": 52, "straight": 720, "flush": 1096,
        "pair": 3744, "loss": 16440}


# --- dealing ------------------------------------------------------------------------------------------


def test_deal_takes_distinct_cards_of_the_shoe() -> None:
    rng = np.random.Generator(np.random.PCG64(7))
    one = deal(rng, full_shoe(1), 20_000, 10)
    assert all(len(set(row)) == 10 for row in one[:2000].tolist())
    # every card about equally likely in every position (20,000 / 52 = 385 expected)
    per_card = np.bincount(one[:, 9], minlength=52)
    assert per_card.min() > 300 and per_card.max() < 470
    two = deal(rng, full_shoe(2), 5_000, 52)
    assert all(np.bincount(row, minlength=52).max() <= 2 for row in two[:500])


# --- decisions ------------------------------------------------------------------------------------------


def test_let_it_ride_decisions_agree_with_the_engine_in_count(sessions: Callable[[str], Session]) -> None:
    """The simulator's own pull-back decisions ride exactly as many holdings as the exact solution."""
    extras = sessions("let-it-ride").analyze("standard").wager("main").extras
    values = np.array([1000, 200, 50, 11, 8, 5, 3, 2, 1, -1], dtype=np.int64)
    for k, key in ((3, "bet1_ride_hands"), (4, "bet2_ride_hands")):
        rides = RideDecisions(k, values, min_rank=8, ride_on_zero=False)
        every = _combinations(k)
        assert int(rides.ride(every).sum()) == extras[key]


def test_house_baccarat_chart_is_read_or_reported_missing(sessions: Callable[[str], Session]) -> None:
    analysis = sessions("house-baccarat").analyze("seed")
    chart = solved_chart(analysis)
    assert chart is not None and chart.shape == (10, 10) and (chart == chart.T).all()
    assert not chart[8 % 10, 0] and not chart[9, 0]  # naturals never draw
    assert solved_chart(dataclasses.replace(analysis, decisions=())) is None


# --- house baccarat beyond the exact finite shoe ---------------------------------------------------------------


def test_paired_estimate_brackets_the_exact_finite_figure() -> None:
    """Two players are still exact on the finite shoe, so the paired estimator can be checked against it."""
    analysis = Session("house-baccarat", RunOptions(players=2)).analyze("seed")
    exact = float(analysis.wager("main").expected_value)
    chart = solved_chart(analysis)
    assert chart is not None
    played = Strategy.of("optimal", chart)
    infinite = seat_counts(Shoe.of_decks(8), 2, played, SHEET_TABLEAU, "never", infinite=True)
    exact_infinite = seat_ev(infinite, played, Fraction(1))
    plain, paired = paired_estimate(8, 2, chart, SHEET_TABLEAU, "never", Fraction(1), exact_infinite, rounds=200_000)
    assert abs(paired.mean - exact) <= paired.half_width
    assert abs(plain.mean - exact) <= plain.half_width
    assert paired.half_width < plain.half_width


def test_more_players_than_the_exact_finite_shoe_compare_nothing_but_add_the_paired_estimate(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from oddscalc.games.house_baccarat import game as house_baccarat

    monkeypatch.setattr(house_baccarat, "FINITE_EXACT_MAX_PLAYERS", 2)  # every table size is exact now: as if not
    players = 3
    sim = run("house-baccarat", "seed", 20_000, seed=3, players=players)
    assert not sim.checked and all(e.exact is None for e in sim.estimates)
    figures = {e.figure: e for e in sim.estimates if e.wager == "main"}
    assert set(figures) == {"expected_value", "hit_frequency", "paired_expected_value"}
    assert figures["paired_expected_value"].half_width < figures["expected_value"].half_width
    assert any("INFINITE shoe" in n for n in sim.notes)
    assert sim.rules["players"] == players


# --- agreement with the exact values ------------------------------------------------------------------------

CASES: list[tuple[str, str, int, dict[str, object]]] = [
    ("let-it-ride", "standard", 20_000, {}),
    ("let-it-ride", "jacks-or-better", 20_000, {}),
    ("caribbean", "us", 100_000, {}),
    ("caribbean", "spain", 100_000, {"strategy": "raise-ak-plus"}),
    ("caribbean", "us", 100_000, {"strategy": "matching-rank"}),
    ("caribbean", "spain", 100_000, {"strategy": "ace-king-jack-8-3"}),
    ("caribbean", "us", 100_000, {"strategy": str(ROOT / "cards" / "caribbean" / "rules-of-thumb.toml")}),
    ("punto-banco", "standard", 300_000, {}),
    ("punto-banco", "seed", 300_000, {}),
    ("punto-banco", "ez-baccarat", 300_000, {}),
    ("punto-banco", "super-6", 300_000, {"decks": 6}),
    ("house-baccarat", "seed", 300_000, {}),
    ("house-baccarat", "seed-house-draws", 300_000, {"strategy": "draw-0-5", "players": 2}),
]


CASE_IDS = [f"{g}-{t}" + "".join(f"-{Path(str(v)).stem}" for v in o.values()) for g, t, _, o in CASES]


@pytest.mark.parametrize(("game", "table", "rounds", "opts"), CASES, ids=CASE_IDS)
def test_exact_values_inside_the_99_percent_interval(game: str, table: str, rounds: int,
                                                      opts: dict[str, object]) -> None:
    sim = run(game, table, rounds, seed=2024, **opts)  # type: ignore[arg-type]
    assert sim.checked, "nothing compared"
    figures = {(e.wager, e.figure) for e in sim.checked}
    assert ("main" if game in ("let-it-ride", "caribbean", "house-baccarat") else "banker", "expected_value") in figures
    if game in ("let-it-ride", "caribbean"):
        assert ("main", "hit_frequency") in figures
    assert not sim.outside, [(e.wager, e.figure, e.mean, e.low, e.high, float(e.exact or 0)) for e in sim.outside]


@pytest.mark.deep  # six seats on 8 decks: 8 s of exact count and 1.5 GB, then two million shuffled rounds
def test_six_seats_exact_edge_lies_inside_the_simulations_interval() -> None:
    """The exact finite-shoe count of six seats (the levels counted by rank) against real shuffles of 8 decks:
    a second route to the figures the edge by seats filled prints."""
    sim = run("house-baccarat", "seed", 2_000_000, seed=2024, players=6, strategy="draw-0-4")
    assert ("main", "expected_value") in {(e.wager, e.figure) for e in sim.checked}
    assert not sim.outside, [(e.wager, e.figure, e.mean, e.low, e.high, float(e.exact or 0)) for e in sim.outside]


def test_caribbean_jackpot_forfeited_on_fold(tmp_path: Path) -> None:
    text = (ROOT / "tables" / "caribbean" / "spain.toml").read_text()
    path = tmp_path / "fold-forfeits.toml"
    path.write_text(text.replace("jackpot_paid_on_fold = true", "jackpot_paid_on_fold = false"))
    sim = run("caribbean", str(path), 100_000, seed=5)
    assert {e.wager for e in sim.checked} == {"main", "jackpot"}
    assert not sim.outside


def test_every_side_wager_of_the_table_is_simulated() -> None:
    sim = run("punto-banco", "standard", 1_000, seed=1)
    assert {e.wager for e in sim.estimates} == {"banker", "player", "tie", "player_pair", "banker_pair"}
    assert not any("not simulated" in n for n in sim.notes)


# --- determinism and the command line -------------------------------------------------------------------------


def test_same_seed_same_output() -> None:
    a = run("caribbean", "us", 20_000, seed=11, exact=False)
    b = run("caribbean", "us", 20_000, seed=11, exact=False)
    c = run("caribbean", "us", 20_000, seed=12, exact=False)
    assert render_json(a) == render_json(b)
    assert render_json(a) != render_json(c)
    args = ["simulate", "punto-banco", "-n", "50000", "--seed", "3"]
    first, second = CliRunner().invoke(main, args), CliRunner().invoke(main, args)
    assert first.exit_code == 0 and first.stdout == second.stdout


def test_cli_text_and_json() -> None:
    r = CliRunner().invoke(main, ["simulate", "house-baccarat", "-n", "100000", "--seed", "2024"])
    assert r.exit_code == 0, r.output
    assert "99% confidence interval" in r.stdout and "inside?" in r.stdout
    assert r.stdout.rstrip().splitlines()[-1].startswith("summary: 2 of 2 exact values lie inside")
    r = CliRunner().invoke(main, ["simulate", "punto-banco", "-n", "100000", "--format", "json"])
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    banker = next(e for e in data["estimates"] if e["wager"] == "banker" and e["figure"] == "expected_value")
    assert banker["exact"] == "-114753351728/10847218479825"
    assert banker["low"] <= banker["exact_decimal"] <= banker["high"] and banker["inside"] is True


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "let-it-ride", "--decks", "2"], "--decks does not apply to let-it-ride"),
    (["simulate", "caribbean", "--strategy", "optimal"], "cannot play caribbean's optimal strategy"),
    (["simulate", "house-baccarat", "--strategy", "draw-6-2"], "unknown strategy"),
])
def test_bad_arguments_exit_4_without_traceback(args: list[str], message: str) -> None:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == EXIT_INPUT, r.output
    assert message in r.output
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.mark.parametrize(("args", "given", "message"), [
    (["-n", "0"], {"rounds": 0}, "must be a positive integer"),
    (["-n", "-10"], {"rounds": -10}, "must be a positive integer"),
    (["--seed", "-1"], {"seed": -1}, "non-negative"),
    (["--players", "8"], {"players": 8}, "--players must be 1 to 7"),
])
def test_bad_numbers_are_refused_by_the_cli_and_by_run(args: list[str], given: dict[str, int], message: str) -> None:
    """The command line's option types refuse these before run() (a usage error); run() refuses them too."""
    game = "house-baccarat"
    r = CliRunner().invoke(main, ["simulate", game, *args])
    assert r.exit_code != 0 and "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    with pytest.raises(OptionError, match=message):
        run(game, **given)  # type: ignore[arg-type]
