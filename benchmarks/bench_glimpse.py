"""Information models (issue 44) for Caribbean Stud and Let It Ride, answered in a new process each (counts of the
ordinary games stored beforehand, so each figure is the model's own count).

Targets on two cores: all four Caribbean hole cards' ace-king groups (the split sweep over every deal, then the
settling) within 90 s; the up card's group alone (the game's own count, stored) within 15 s; Let It Ride's first
community card flashed, or its group, within 15 s.

Run: ``python benchmarks/bench_glimpse.py [repeats]``
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import time

from common import ROOT, Targets, best_of, scratch

ANSWER = """
import sys
sys.path.insert(0, {tests!r})
from pathlib import Path
from oracles.glimpse_files import read_model
from oddscalc.analysis import Session
from oddscalc.progress import Progress
from oddscalc.protocol import load
from oddscalc.games.caribbean.capabilities import CAPABILITIES as CAR
from oddscalc.games.let_it_ride.capabilities import CAPABILITIES as LIR
model = read_model(Path({model!r}))
caps = CAR if model.game == "caribbean" else LIR
load(caps.information.run)(Session(model.game), None, model, Progress(False, ""))
"""


def answer(model: str, env_dir: str) -> float:
    """Seconds to answer one shipped model on the game's default table, in a new process."""
    code = ANSWER.format(tests=str(ROOT / "tests"), model=str(ROOT / "tables" / "information" / f"{model}.toml"))
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "ODDSCALC_CACHE_DIR": env_dir})
    return time.perf_counter() - t


def main() -> int:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    out = Targets("glimpse")
    store = scratch("glimpse")
    answer("caribbean-up-group-ak", store)  # the ordinary counts, stored once
    answer("let-it-ride-first-community-group-ak", store)
    for model, target in (("caribbean-up-group-ak", 15.0), ("caribbean-hole-groups-ak", 90.0),
                          ("let-it-ride-flash-first-community", 15.0), ("let-it-ride-first-community-group-ak", 15.0)):
        best, runs = best_of(repeats, functools.partial(answer, model, store))
        out.seconds(f"glimpse {model}", best, target, "runs " + ", ".join(f"{r:.1f}" for r in runs))
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
