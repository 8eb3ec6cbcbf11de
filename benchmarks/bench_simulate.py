"""Monte Carlo speed: rounds per second of ``oddscalc simulate`` (dealing and settling only).

Target: Caribbean 1.5M rounds/s; the other games are shown against a floor (about a quarter of
what this machine does) that only a real regression trips.

Run: ``python benchmarks/bench_simulate.py``
"""

from __future__ import annotations

import sys

from common import Targets

from oddscalc.simulate import run

GAMES = {  # game -> (rounds, target rounds per second)
    "caribbean": (2_000_000, 1_500_000),
    "let-it-ride": (1_000_000, 100_000),
    "punto-banco": (10_000_000, 700_000),
    "house-baccarat": (10_000_000, 700_000),
}


def main() -> int:
    out = Targets("simulate")
    run("caribbean", rounds=10_000, seed=1, exact=False)  # warm the imports
    for game, (rounds, target) in GAMES.items():
        sim = run(game, rounds=rounds, seed=1, exact=False)
        out.rate(f"simulate {game}, {rounds:,} rounds", sim.rounds_per_second, target, "rounds/s")
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
