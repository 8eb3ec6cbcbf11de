"""Monte Carlo speed: rounds per second of `oddscalc simulate` for each game's default table.

Times only the dealing and settling (``Simulation.seconds_simulating``), not the exact analysis it is
compared with. Let It Ride is shown cold (its pull-back decisions are solved on first sight of each
holding, within the run) and the rate includes that. Exits 1 when a game falls below its floor, set
at about a quarter of the rate measured on a 2-core development machine so that only a real
regression trips it.

Run: ``python benchmarks/bench_simulate.py``
"""

from __future__ import annotations

import sys

from oddscalc.simulate import run

# game -> (rounds, floor in rounds per second)
GAMES = {
    "let-it-ride": (1_000_000, 100_000),
    "caribbean": (2_000_000, 200_000),
    "punto-banco": (10_000_000, 700_000),
    "house-baccarat": (10_000_000, 700_000),
}


def main() -> int:
    failed = []
    for game, (rounds, floor) in GAMES.items():
        sim = run(game, rounds=rounds, seed=1, exact=False)
        rate = sim.rounds_per_second
        ok = rate >= floor
        print(f"{game:<15} {rounds:>12,} rounds  {sim.seconds_simulating:6.2f} s  {rate:>12,.0f} rounds/s  "
              f"(floor {floor:,}) {'ok' if ok else 'SLOW'}", flush=True)
        if not ok:
            failed.append(game)
    if failed:
        print(f"FAIL: below the floor: {', '.join(failed)}")
        return 1
    print("PASS: every game above its floor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
