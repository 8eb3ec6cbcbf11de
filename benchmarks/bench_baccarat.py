"""Punto banco and house baccarat, cold: every timing is a new process running the CLI.

- punto-banco: `oddscalc report punto-banco --format json` for every shipped table (8 decks, all
  wagers); target 1 s wall each, interpreter start and imports included.
- house-baccarat, one player: both shipped tables, optimal play solved; target 1 s wall each.
- house-baccarat, N players on the finite shoe (exact up to FINITE_EXACT_MAX_PLAYERS): the slowest
  reading and a fixed strategy that forces a second evaluation; target 60 s wall each. Beyond the
  limit the report is exact on an infinite shoe; those runs are timed too.
- with ``--limit``: one exact finite-shoe evaluation of the other seats for the first player count
  past the limit (6 players: about 28 s and 2.7 GB here), the measurement behind the limit.

Nothing is cached between runs (ODDSCALC_NO_CACHE=1). Exit status 0 when every target is met.

Run: ``python benchmarks/bench_baccarat.py [--limit]``
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAST_TARGET_S = 1.0
LIMIT_TARGET_S = 60.0

LIMIT_PROBE = """
import time
import numpy as np
from oddscalc.games.house_baccarat import FINITE_EXACT_MAX_PLAYERS, Strategy
from oddscalc.games.seats import others_finite
from oddscalc.games.shoe import Multisets, Shoe
seats = FINITE_EXACT_MAX_PLAYERS  # the other seats when one more player sits down
t = time.perf_counter()
draws = Strategy.by_totals("draw-0-4", range(5)).matrix
others_finite(Shoe.of_decks(8).counts, seats, draws, Multisets.of_size(6).counts)
print(f"{time.perf_counter() - t:.1f}")
"""


def run(args: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one command in a new process."""
    env = dict(os.environ, ODDSCALC_NO_CACHE="1")
    t = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    wall = time.perf_counter() - t
    return wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def cli(*args: str) -> list[str]:
    return ["-m", "oddscalc.cli", "report", *args, "--format", "json"]


def main() -> int:
    from oddscalc.games.house_baccarat import FINITE_EXACT_MAX_PLAYERS

    ok = True

    def check(label: str, args: list[str], target: float) -> None:
        nonlocal ok
        wall, peak = run(args)
        met = wall <= target
        ok &= met
        verdict = "ok" if met else "MISSED"
        print(f"{label:<58} {wall:6.2f} s  (target {target:.0f} s, {verdict}; peak RSS so far {peak:.0f} MB)",
              flush=True)

    run(cli("punto-banco"))  # untimed: warm the OS file cache so the first figure is not the disk's
    print("punto-banco, 8 decks, every wager, cold CLI:")
    for table in ("standard", "ez-baccarat", "super-6", "seed"):
        check(f"  {table}", cli("punto-banco", "--table", table), FAST_TARGET_S)
    print("house-baccarat, one player, optimal play solved, cold CLI:")
    for table in ("seed", "seed-house-draws"):
        check(f"  {table}", cli("house-baccarat", "--table", table), FAST_TARGET_S)
    print(f"house-baccarat, N players, exact finite shoe (limit {FINITE_EXACT_MAX_PLAYERS}):")
    for n in range(2, FINITE_EXACT_MAX_PLAYERS + 1):
        check(f"  seed, {n} players", cli("house-baccarat", "--players", str(n)), LIMIT_TARGET_S)
    n = FINITE_EXACT_MAX_PLAYERS
    check(f"  seed-house-draws, {n} players", cli("house-baccarat", "--table", "seed-house-draws", "--players", str(n)),
          LIMIT_TARGET_S)
    check(f"  seed-house-draws, {n} players, --strategy draw-0-5",
          cli("house-baccarat", "--table", "seed-house-draws", "--players", str(n), "--strategy", "draw-0-5"),
          LIMIT_TARGET_S)
    print("house-baccarat beyond the limit: exact on an infinite shoe:")
    for n in range(FINITE_EXACT_MAX_PLAYERS + 1, 8):
        check(f"  seed, {n} players", cli("house-baccarat", "--players", str(n)), LIMIT_TARGET_S)
    if "--limit" in sys.argv[1:]:
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", LIMIT_PROBE], check=True, capture_output=True, text=True, cwd=ROOT)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"one exact evaluation of the other seats at {FINITE_EXACT_MAX_PLAYERS + 1} players: "
              f"{out.stdout.strip()} s (process {time.perf_counter() - t:.1f} s, peak RSS so far {peak:.0f} MB); "
              "a report makes one or two of these for the optimum, after the cheaper counts below it, plus one "
              "more for a fixed strategy: about 35-40 s for an optimal report, 70-100 s with --strategy")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
