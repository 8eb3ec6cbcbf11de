"""The evidence engine's false-positive rates at the issue's sizes (deep: minutes): 200 honest runs of 10,000
rounds each, Caribbean Stud (optimal play erring 1% of the time, the player model's own rate) and punto banco
(bettors mixing banker, player and tie whatever the cards), weighed against the suspected models; and the rounds an
informed player takes to be flagged, over many runs."""

from __future__ import annotations

import statistics

import numpy as np
import pytest
from oracles.evidence_deals import caribbean_deals, coups, play

from oddscalc.analysis import Session
from oddscalc.audit import evidence_punto_banco as pb
from oddscalc.audit.evidence import weigh
from oddscalc.audit.evidence_caribbean import assess
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.games.punto_banco.game import PuntoBancoRules
from oddscalc.protection.information import load_model
from oddscalc.protection.sorting import CHOICES

RUNS, ROUNDS = 200, 10_000
pytestmark = pytest.mark.deep


def _caribbean() -> CaribbeanRules:
    rules = Session("caribbean").resolve(None)
    assert isinstance(rules, CaribbeanRules)
    return rules


def test_caribbean_false_positives_over_200_honest_runs_of_10000_rounds() -> None:
    rules = _caribbean()
    flagged = 0
    for run in range(RUNS):
        d = caribbean_deals(rules.deck, ROUNDS, 20_000 + run)
        honest = assess(rules, d, ())
        suspects = [assess(rules, d, (0,), "k1", "k1"), assess(rules, d, (0, 1), "k2", "k2")]
        ev = weigh("caribbean", d.lines.tolist(), play(honest, 0.01, 30_000 + run), honest, suspects)
        flagged += any(w.flagged for w in ev.suspects)
    assert flagged <= RUNS // 100  # at most 1%


@pytest.mark.parametrize("k", [1, 2])
def test_caribbean_rounds_to_flag_a_player_who_knows_hole_cards(k: int) -> None:
    rules = _caribbean()
    firsts = []
    for run in range(50):
        d = caribbean_deals(rules.deck, 1000, 60_000 + run)
        honest, model = assess(rules, d, ()), assess(rules, d, tuple(range(k)), "k", "k")
        w = weigh("caribbean", d.lines.tolist(), play(model, 0.01, 70_000 + run), honest, [model]).suspects[0]
        assert w.flagged and w.first_flagged is not None
        firsts.append(w.first_flagged)
    assert statistics.median(firsts) <= 15 and max(firsts) <= 100


def test_punto_banco_false_positives_over_200_honest_runs_of_10000_coups() -> None:
    rules = Session("punto-banco").resolve(None)
    assert isinstance(rules, PuntoBancoRules)
    edge, _ = load_model("edge-sort-first-card", "punto-banco")
    shoe, flagged = pb.Shoe.of(rules), 0
    for run in range(RUNS):
        cards = np.array(coups(ROUNDS, 40_000 + run), dtype=np.int64)
        rng = np.random.default_rng(50_000 + run)
        bets = tuple(str(a) for a in rng.choice(["banker", "player", "tie"], size=ROUNDS, p=[0.6, 0.38, 0.02]))
        honest, model = pb.assess(shoe, cards, None, CHOICES), pb.assess(shoe, cards, edge, CHOICES)
        flagged += weigh("punto-banco", list(range(1, ROUNDS + 1)), bets, honest, [model]).suspects[0].flagged
    assert flagged <= RUNS // 100
