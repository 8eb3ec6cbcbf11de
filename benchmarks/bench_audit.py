"""Audit speed: the whole ``oddscalc audit`` (conformance and the evidence of information, as the command runs
them) of a million-round hand log on two cores.

The log (untimed) is a Caribbean Stud log of 10^6 rounds played by rules-of-thumb from a 51-card deck (the ace of
spades missing), mispaid at 1 in 10,000: the audit must also find both, at its default level (1%, shared among
its tests), and weigh every decision against the default suspected models. Target: at most 60 s wall with the
default two workers (issue 46), in a new process, imports and the exact analysis included. The CPU is that of the
command and of every process it ran (its readers, and the server they are forked from, stopped and waited for at
exit so that their time is counted).

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
# ``python -m oddscalc``, with the readers' fork server stopped (and so waited for) at exit: its CPU is counted
WAITED = ("import atexit, runpy, sys; from multiprocessing import forkserver; "
          "atexit.register(forkserver._forkserver._stop); sys.argv[0] = 'oddscalc'; "
          "runpy.run_module('oddscalc', run_name='__main__')")


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
    proc = subprocess.run([sys.executable, "-c", WAITED, "audit", str(log), "--strategy", "rules-of-thumb",
                           "--format", "json", "-o", str(report)],
                          cwd=ROOT, stderr=subprocess.PIPE, text=True, env={**os.environ, "NUMBA_NUM_THREADS": "2"})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)  # the workers too: all waited for
    sections = json.loads(report.read_text())["sections"] if report.exists() else {}
    found = proc.returncode == 6 and "As: 0 seen" in json.dumps(sections.get("cards_by_position")) \
        and len(sections.get("mispaid", {}).get("rows", ())) > 50
    weighed = "evidence_summary" in sections
    out.seconds(f"audit {ROUNDS:,} Caribbean rounds, 2 workers (wall)", wall, TARGET,
                f"(conformance and evidence; log written in {written:.0f} s, {log.stat().st_size / 1e6:.0f} MB)")
    out.seconds("  the same audit's CPU, all processes", cpu, None, f"({cpu / wall:.2f} cores busy on average)")
    if not found or not weighed:
        print(f"the audit did not find the short deck and the mispays, or did not weigh the decisions: exit "
              f"{proc.returncode}, {proc.stderr[-300:]}")
        return 1
    print("  found: the missing ace of spades at every position, and the mispaid rounds by line; every decision "
          "weighed")
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
