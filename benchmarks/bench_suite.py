"""The whole test suite from an empty store, one worker per core as ``make test`` runs it (what CI runs):
target 150 s on this 2-core machine.

Run: ``python benchmarks/bench_suite.py``
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from common import ROOT, Targets, scratch


def main() -> int:
    out = Targets("test suite")
    # as the Makefile's test target: the deep checks left to make verify, one numba thread per worker
    env = {**os.environ, "ODDSCALC_TEST_CACHE_DIR": scratch("suite"), "NUMBA_NUM_THREADS": "1"}
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "auto", "--dist", "worksteal", "-p",
                           "no:cacheprovider", "-m", "not deep"], cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    print("  " + (proc.stdout.strip().splitlines() or ["(no output)"])[-1])
    if proc.returncode != 0:
        print(proc.stdout[-2000:])
        out.missed.append("the suite failed")
    out.seconds("pytest, empty store", wall, 150)
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
