"""`oddscalc simulate` for games declared in a game file (the family without a dealer): the simulator's own
evaluator and backward induction, against the exact engine's figures on seeded runs."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from oddscalc.cards import parse_cards, parse_rank
from oddscalc.catalog import resolve_table
from oddscalc.cli.main import EXIT_INPUT, main
from oddscalc.games.stud.table import StudTable
from oddscalc.simulate import run
from oddscalc.simulate.evaluator import strength
from oddscalc.simulate.stud import net_of


def test_the_simulators_pays_by_hand() -> None:
    model = resolve_table("double-down-stud").model
    assert isinstance(model, StudTable) and model.pays.main.hand is not None
    hands = ["As Ks Qs Js Ts", "5h 4h 3h 2h Ah", "Jc Jd 2s 3s 4h", "Tc Td 2s 3s 4h", "6c 6d 2s 3s 4h", "5c 5d 2s 3s Kh",
             "Ac Kd 2s 3s 4h", "Ac 2d 3s 4s 5h"]
    s = strength(np.array([sorted(parse_cards(h)) for h in hands]))
    nets = net_of(s, model.pays.main.hand.pays(), parse_rank("jacks"), parse_rank("sixes"))
    assert nets == [Fraction(3999), Fraction(199), Fraction(1), Fraction(0), Fraction(0), Fraction(-1), Fraction(-1),
                    Fraction(5)]


def test_a_strategy_is_refused_on_one_line() -> None:
    result = CliRunner().invoke(main, ["simulate", "three-card-poker", "-n", "10", "--strategy", "basic"])
    assert result.exit_code == EXIT_INPUT
    assert result.output.strip().splitlines() == ["oddscalc: --strategy does not apply to three-card-poker"]


@pytest.mark.deep  # the simulator's own solve of every card set (1-2 s), then the rounds
@pytest.mark.parametrize(("game", "rounds"), [("double-down-stud", 1_000_000), ("mississippi-stud", 300_000)])
def test_exact_values_inside_the_99_percent_interval(game: str, rounds: int) -> None:
    sim = run(game, None, rounds, seed=2024)
    assert {(e.wager, e.figure) for e in sim.checked} == {("main", "expected_value"), ("main", "hit_frequency"),
                                                          ("main", "average_stake")}
    assert not sim.outside, [(e.wager, e.figure, e.mean, e.low, e.high, float(e.exact or 0)) for e in sim.outside]
