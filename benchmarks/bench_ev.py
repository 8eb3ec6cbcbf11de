"""What a hand is worth, in process (the workbench calls it on every click): target 30 ms for one Caribbean hand.

- ``caribbean.ev.hand_ev``: the issue's hand (As Kd Jh 8c 3s against Qc, US table), every one of the 163,185 dealer
  completions counted; the table resolved once, as the workbench keeps it; target 30 ms;
- the same through ``ev_sections`` (parse, count, the sections the command prints), for reference;
- Let It Ride on three cards (bet 2 solved for each fourth card) and on four, for reference.

Each figure is the best of ``repeats`` runs in this process, after one untimed run (the hand table built). On a
busy machine the seconds move: each is also shown as a ratio to a fixed numpy workload (sorting 2,000,000 floats)
timed in this same process between the runs, which moves much less.

Run: ``python benchmarks/bench_ev.py [repeats]``
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import numpy as np
from common import Targets

REFERENCE = np.random.default_rng(1).random(2_000_000)


def best(repeats: int, once: Callable[[], object]) -> tuple[float, float]:
    """The best time of ``once`` and of the in-process reference, each measured ``repeats`` times, interleaved."""
    once()
    runs, refs = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        once()
        runs.append(time.perf_counter() - t)
        t = time.perf_counter()
        np.sort(REFERENCE)
        refs.append(time.perf_counter() - t)
    return min(runs), min(refs)


def main() -> int:
    from oddscalc.analysis import Session
    from oddscalc.cards import parse_card, parse_cards
    from oddscalc.games.caribbean import ev as caribbean
    from oddscalc.games.caribbean.game import CaribbeanRules
    from oddscalc.games.let_it_ride import ev as let_it_ride
    from oddscalc.games.let_it_ride.game import LetItRideRules

    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    out = Targets("ev (in process)")
    session = Session("caribbean")
    rules = session.resolve("us")
    assert isinstance(rules, CaribbeanRules)
    hand, up = parse_cards("As Kd Jh 8c 3s"), parse_card("Qc")
    assert caribbean.hand_ev(rules, hand, up).completions == 163_185
    cases: list[tuple[str, Callable[[], object], float | None]] = [
        ("caribbean hand_ev: one hand, 163,185 completions", lambda: caribbean.hand_ev(rules, hand, up), 0.030),
        ("caribbean ev_sections: parsed, counted, as sections",
         lambda: caribbean.ev_sections(session, "us", "As Kd Jh 8c 3s", "Qc"), None)]
    lir = Session("let-it-ride").resolve("standard")
    assert isinstance(lir, LetItRideRules)
    three, four = parse_cards("Th Jh 4c"), parse_cards("Th Jh 4c Qh")
    cases += [("let-it-ride hand_ev: three cards (bet 2 solved per fourth)", lambda: let_it_ride.hand_ev(lir, three),
               None),
              ("let-it-ride hand_ev: four cards", lambda: let_it_ride.hand_ev(lir, four), None)]
    for label, once, target in cases:
        seconds, reference = best(repeats, once)
        out.seconds(label, seconds, target, f"{seconds / reference:.2f} x the in-process reference "
                                            f"({reference * 1000:.1f} ms)")
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
