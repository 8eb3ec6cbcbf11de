"""The false-positive rate of the evidence's decision rule, measured: how many honest logs each default suspected
model flags (Bayes factor above 1,000 against honest play), over many seeded honest logs of each game.

- Caribbean Stud: deals of our own (``evidence_deals.caribbean_deals``), played optimally by the honest
  information but for 1% of decisions (the player model's own rate), weighed against each of the default models
  (one to four hole cards known);
- Let It Ride: deals of our own (``evidence_deals.let_it_ride_deals``), both bets played optimally by the honest
  information but for 1% of decisions, weighed against the shipped ``let-it-ride-flash-first-community`` (the
  first community card seen before bet 1);
- punto banco: coups of 8 decks (``evidence_deals.coups``), bet banker, player or tie (60/38/2%) whatever the
  cards, weighed against the shipped ``edge-sort-first-card``.

What this prints is ``oddscalc/audit/false_positives.toml``, which the audit report reads; the deep test
``tests/audit/test_false_positives_deep.py`` measures again and holds the file to it.

Run (minutes): ``PYTHONPATH=tests python -m oracles.false_positives > oddscalc/audit/false_positives.toml``;
``... -m oracles.false_positives GAME ...`` measures those games only (the file's blocks of those games, for
measuring one game again without the others: the file is the games' blocks in the order of ``MEASURES``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from oddscalc.analysis import Session
from oddscalc.audit import evidence_let_it_ride as lir
from oddscalc.audit import evidence_punto_banco as pb
from oddscalc.audit.evidence import weigh
from oddscalc.audit.evidence_caribbean import assess, hole_positions
from oddscalc.audit.evidence_log import default_models
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.games.let_it_ride.game import LetItRideRules
from oddscalc.games.punto_banco.game import PuntoBancoRules
from oddscalc.protection.sorting import CHOICES
from oracles.evidence_deals import caribbean_deals, coups, let_it_ride_deals, play

RUNS, ROUNDS = 200, 10_000
# (deals, play) of run 0; run r adds r
SEEDS = {"caribbean": (20_000, 30_000), "let-it-ride": (60_000, 70_000), "punto-banco": (40_000, 50_000)}
HONEST = {"caribbean": "optimal play by the honest information, erring on 1% of decisions (the player model's rate)",
          "let-it-ride": "both bets played optimally by the honest information, erring on 1% of decisions (the player "
                         "model's rate)",
          "punto-banco": "bets banker, player or tie (60%, 38%, 2%) whatever the cards"}


@dataclass(frozen=True)
class Measured:
    """Of ``runs`` honest logs of ``rounds`` rounds each, how many ``model`` flagged."""

    game: str
    model: str
    runs: int
    rounds: int
    flagged: int


def caribbean(runs: int = RUNS, rounds: int = ROUNDS) -> list[Measured]:
    """Each default Caribbean Stud model's flagged honest logs."""
    rules = Session("caribbean").resolve(None)
    assert isinstance(rules, CaribbeanRules)
    models = default_models("caribbean")
    flagged = dict.fromkeys((m.id for m in models), 0)
    deals_seed, play_seed = SEEDS["caribbean"]
    for run in range(runs):
        d = caribbean_deals(rules.deck, rounds, deals_seed + run)
        honest = assess(rules, d, ())
        suspects = [assess(rules, d, hole_positions(m, rules.deck), m.id, m.title) for m in models]
        ev = weigh("caribbean", d.lines.tolist(), play(honest, 0.01, play_seed + run), honest, suspects)
        for w in ev.suspects:
            flagged[w.assessed.model] += w.flagged
    return [Measured("caribbean", m, runs, rounds, k) for m, k in flagged.items()]


def let_it_ride(runs: int = RUNS, rounds: int = ROUNDS) -> list[Measured]:
    """The default Let It Ride model's flagged honest logs (``rounds`` rounds: twice as many decisions; only bet 1
    can tell the flash from honest play, bet 2 sees the flashed card either way)."""
    rules = Session("let-it-ride").resolve(None)
    assert isinstance(rules, LetItRideRules)
    (flash,) = default_models("let-it-ride")
    values, vocabulary, shown = lir.Values(rules), lir.actions(rules), lir.community_positions(flash)
    deals_seed, play_seed = SEEDS["let-it-ride"]
    flagged = 0
    for run in range(runs):
        d = let_it_ride_deals(rules.deck, rounds, deals_seed + run)
        honest = lir.assess(values, vocabulary, d, ())
        model = lir.assess(values, vocabulary, d, shown, flash.id, flash.title)
        bets = play(honest, 0.01, play_seed + run, vocabulary)
        flagged += weigh("let-it-ride", d.lines.tolist(), bets, honest, [model]).suspects[0].flagged
    return [Measured("let-it-ride", flash.id, runs, rounds, flagged)]


def punto_banco(runs: int = RUNS, rounds: int = ROUNDS) -> list[Measured]:
    """The default punto banco model's flagged honest logs."""
    rules = Session("punto-banco").resolve(None)
    assert isinstance(rules, PuntoBancoRules)
    (edge,) = default_models("punto-banco")
    shoe, flagged = pb.Shoe.of(rules), 0
    deals_seed, play_seed = SEEDS["punto-banco"]
    for run in range(runs):
        cards = np.array(coups(rounds, deals_seed + run), dtype=np.int64)
        rng = np.random.default_rng(play_seed + run)
        bets = tuple(str(a) for a in rng.choice(["banker", "player", "tie"], size=rounds, p=[0.6, 0.38, 0.02]))
        honest, model = pb.assess(shoe, cards, None, CHOICES), pb.assess(shoe, cards, edge, CHOICES)
        flagged += weigh("punto-banco", list(range(1, rounds + 1)), bets, honest, [model]).suspects[0].flagged
    return [Measured("punto-banco", edge.id, runs, rounds, flagged)]


def toml(found: list[Measured]) -> str:
    """The data file's text."""
    out = ["# The false-positive rate of the evidence of information's decision rule (a Bayes factor above 1,000",
           "# against honest play flags the log), measured over seeded honest logs; the audit report states it beside",
           "# each model's verdict, with an exact (Clopper-Pearson) 95% upper bound.",
           "# Written by: PYTHONPATH=tests python -m oracles.false_positives > oddscalc/audit/false_positives.toml",
           "# Held to it by the deep test tests/audit/test_false_positives_deep.py (which measures again).", ""]
    for m in found:
        deals, played = SEEDS[m.game]
        out += ["[[measured]]", f'game = "{m.game}"', f'model = "{m.model}"', f"runs = {m.runs}",
                f"rounds = {m.rounds}", f"flagged = {m.flagged}", f'honest_play = "{HONEST[m.game]}"',
                f"seeds = [{deals}, {played}]", ""]
    return "\n".join(out)


MEASURES = {"caribbean": caribbean, "let-it-ride": let_it_ride, "punto-banco": punto_banco}  # the file's order


def measure(games: Sequence[str] = tuple(MEASURES)) -> list[Measured]:
    """The measurement of each of ``games`` (default: every game), in the data file's order."""
    unknown = set(games) - set(MEASURES)
    if unknown:
        raise SystemExit(f"no measurement for {', '.join(sorted(unknown))}; have: {', '.join(MEASURES)}")
    return [m for game, how in MEASURES.items() if game in games for m in how()]


if __name__ == "__main__":
    sys.stdout.write(toml(measure(sys.argv[1:] or tuple(MEASURES))))
