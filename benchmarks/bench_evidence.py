"""Evidence of information (issue 46) for a million decisions: target 60 s on two cores, each game.

- Caribbean Stud: 1,000,000 decisions (seeded deals, played by a player who knows one hole card) weighed against
  "knows 1 hole card" and "knows 2 hole cards": the honest reading, both models' and the cards dealt (four counts
  of every decision's completions), the Bayes factors and the sections;
- punto banco: 1,000,000 coups (8 decks) bet by an edge sorter who sees the first card's group, weighed against
  the shipped ``edge-sort-first-card``.

The decisions stream in from a generator (as a log reader hands them over): the deals and actions are made
untimed beforehand, the records themselves as they are read; the time is from the first decision read to the
sections and the chart. Both the wall time and the process's CPU time (every thread) are
shown: on a machine shared with other work the wall time moves, the CPU time much less.

Run: ``python benchmarks/bench_evidence.py [decisions]``
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from fractions import Fraction

import numpy as np
from common import ROOT, Targets

sys.path.insert(0, str(ROOT / "tests"))

from oracles.evidence_deals import caribbean_deals, coups, play  # noqa: E402

from oddscalc.analysis import Session  # noqa: E402
from oddscalc.audit import evidence_caribbean as car  # noqa: E402
from oddscalc.audit import evidence_punto_banco as pb  # noqa: E402
from oddscalc.audit.evidence_sections import chart, sections  # noqa: E402
from oddscalc.audit.observed import Observed  # noqa: E402
from oddscalc.games.caribbean.game import CaribbeanRules  # noqa: E402
from oddscalc.games.punto_banco.game import PuntoBancoRules  # noqa: E402
from oddscalc.protection.information import load_model  # noqa: E402
from oddscalc.protection.sorting import CHOICES  # noqa: E402

TARGET = 60.0


def _caribbean(rules: CaribbeanRules, n: int) -> Callable[[], Iterator[Observed]]:
    """A player who knows the first hole card, erring 1% of the time: the records made as they are read."""
    d = caribbean_deals(rules.deck, n, seed=1)
    actions = play(car.assess(rules, d, (0,)), 0.01, 2)
    players, up, holes = d.players.tolist(), d.up.tolist(), d.holes.tolist()

    def read() -> Iterator[Observed]:
        for i in range(n):
            yield Observed(i + 1, "caribbean", (*players[i], up[i]), tuple(holes[i]), actions[i], Fraction(0))
    return read


def _punto_banco(rules: PuntoBancoRules, n: int) -> Callable[[], Iterator[Observed]]:
    """An edge sorter who sees the first card's group, erring 1% of the time."""
    edge, _ = load_model("edge-sort-first-card", "punto-banco")
    cards = np.array(coups(n, seed=3), dtype=np.int64)
    actions = play(pb.assess(pb.Shoe.of(rules), cards, edge, CHOICES), 0.01, 4, CHOICES)
    rows = cards.tolist()

    def read() -> Iterator[Observed]:
        for i in range(n):
            yield Observed(i + 1, "punto-banco", (), tuple(rows[i]), actions[i], Fraction(0))
    return read


def timed(label: str, out: Targets, run: Callable[[], str]) -> None:
    """Time ``run`` by the wall and by the CPU (every thread of the process)."""
    wall, cpu = time.perf_counter(), time.process_time()
    found = run()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    out.seconds(label, wall, TARGET, f"cpu {cpu:.1f} s; {found}")


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    out = Targets("evidence")
    c_rules = Session("caribbean").resolve(None)
    assert isinstance(c_rules, CaribbeanRules)
    models = [car.knows_hole_cards(k) for k in (1, 2)]
    car.evidence(c_rules, _caribbean(c_rules, 100)(), models)  # the kernels loaded, the tables built
    decisions = _caribbean(c_rules, n)

    def caribbean() -> str:
        ev = car.evidence(c_rules, decisions(), models)
        sections(ev)
        chart(ev)
        return f"log10 BF {ev.suspects[0].log10_factor:,.0f} for knows-1, from decision {ev.suspects[0].first_flagged}"

    timed(f"caribbean evidence, {n:,} decisions", out, caribbean)

    p_rules = Session("punto-banco").resolve(None)
    assert isinstance(p_rules, PuntoBancoRules)
    edge, _ = load_model("edge-sort-first-card", "punto-banco")
    pb.evidence(p_rules, _punto_banco(p_rules, 100)(), [edge])  # the 8-deck counts made once
    coups_ = _punto_banco(p_rules, n)

    def punto_banco() -> str:
        ev = pb.evidence(p_rules, coups_(), [edge])
        sections(ev)
        chart(ev)
        return f"log10 BF {ev.suspects[0].log10_factor:,.0f}, from decision {ev.suspects[0].first_flagged}"

    timed(f"punto banco evidence, {n:,} coups", out, punto_banco)
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())

