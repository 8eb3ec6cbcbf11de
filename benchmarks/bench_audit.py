"""Audit speed: ``oddscalc audit`` (conformance) of a million-round hand log on two cores.

The log (untimed) is a Caribbean Stud log of 10^6 rounds played by rules-of-thumb from a 51-card deck (the ace of
spades missing), mispaid at 1 in 10,000: the audit must also find both, at its default level (1%, shared among
its tests). Target: at most 60 s wall with ``--workers 2`` (issue 46), in a new process, imports and the exact
analysis included.

Run: ``python benchmarks/bench_audit.py``
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from common import ROOT, Targets, scratch

ROUNDS = 1_000_000
TARGET = 60.0


def main() -> int:
    out = Targets("audit")
    folder = Path(scratch("audit"))
    log = folder / "short-deck.jsonl"
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "oddscalc", "simulate", "caribbean", "--log", str(log), "-n", str(ROUNDS),
                    "--strategy", "rules-of-thumb", "--damage", "missing:As", "--mispay", "0.0001"],
                   check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    written = time.perf_counter() - t0
    report = folder / "audit.json"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "oddscalc", "audit", str(log), "--strategy", "rules-of-thumb",
                           "--workers", "2", "--format", "json", "-o", str(report)],
                          cwd=ROOT, stderr=subprocess.PIPE, text=True, env={**os.environ, "NUMBA_NUM_THREADS": "2"})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)  # the workers too: all waited for
    sections = json.loads(report.read_text())["sections"]
    found = proc.returncode == 6 and "As: 0 seen" in json.dumps(sections["cards_by_position"]) \
        and len(sections["mispaid"]["rows"]) > 50
    out.seconds(f"audit {ROUNDS:,} Caribbean rounds, 2 workers", wall, TARGET,
                f"({cpu:.0f} s of CPU in all; log written in {written:.0f} s, {log.stat().st_size / 1e6:.0f} MB)")
    if not found:
        print(f"the audit did not find the short deck and the mispays: exit {proc.returncode}, {proc.stderr[-300:]}")
        return 1
    print("  found: the missing ace of spades at every position, and the mispaid rounds by line")
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
