"""Caribbean Stud: the cold full analysis and warm re-settling, each in a new process.

- cold: `oddscalc report caribbean --format json` with an empty result cache (new
  ODDSCALC_CACHE_DIR); target 12 s wall and 1.5 GB peak memory.
- warm: the same command once the cache holds the dealer counts, for every shipped table
  and every named strategy; target 1 s wall each.

numba's own compiled-kernel cache (``cache=True``, in __pycache__) is warmed by a first
untimed run and reported separately, since it is per installation, not per analysis.

Run: ``python benchmarks/bench_caribbean.py [repeats]``
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLD_TARGET_S = 12.0
COLD_MEMORY_TARGET_MB = 1536
WARM_TARGET_S = 1.0
STRATEGIES = ("optimal", "raise-pair-plus", "raise-ak-plus", "always-raise", "rules-of-thumb")


def run(args: list[str], cache_dir: str) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one CLI run in a new process."""
    env = dict(os.environ, ODDSCALC_CACHE_DIR=cache_dir)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "oddscalc.cli", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL, cwd=ROOT)
    wall = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024


def main() -> int:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    ok = True
    scratch = tempfile.mkdtemp(prefix="oddscalc-bench-")
    try:
        warmup = os.path.join(scratch, "warmup")
        t = time.perf_counter()
        run(["report", "caribbean", "--format", "json"], warmup)
        print(f"caribbean first run (compiles numba kernels if not yet cached): {time.perf_counter() - t:.2f} s")

        colds = []
        for k in range(repeats):
            wall, _ = run(["report", "caribbean", "--format", "json"], os.path.join(scratch, f"cold{k}"))
            colds.append(wall)
        # peak memory of a cold run measured alone: RUSAGE_CHILDREN keeps the maximum over children
        child = subprocess.run(
            [sys.executable, "-c",
             "import resource, subprocess, sys, os;"
             "subprocess.run([sys.executable, '-m', 'oddscalc.cli', 'report', 'caribbean', '--format', 'json'],"
             " stdout=subprocess.DEVNULL, check=True);"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"],
            env=dict(os.environ, ODDSCALC_CACHE_DIR=os.path.join(scratch, "mem")), capture_output=True, text=True,
            check=True, cwd=ROOT)
        peak_mb = int(child.stdout.strip()) / 1024
        best = min(colds)
        verdict = "PASS" if best <= COLD_TARGET_S and peak_mb <= COLD_MEMORY_TARGET_MB else "FAIL"
        ok &= verdict == "PASS"
        print(f"caribbean cold full analysis (empty cache, new process): best {best:.2f} s, "
              f"median {sorted(colds)[len(colds) // 2]:.2f} s, peak {peak_mb:.0f} MB "
              f"(targets {COLD_TARGET_S:.0f} s, {COLD_MEMORY_TARGET_MB} MB) {verdict}")

        warm_dir = os.path.join(scratch, "cold0")
        cases = [["--table", t] for t in ("us", "spain")] + [["--strategy", s] for s in STRATEGIES]
        worst = 0.0
        for case in cases:
            walls = [run(["report", "caribbean", "--format", "json", *case], warm_dir)[0] for _ in range(repeats)]
            worst = max(worst, min(walls))
            print(f"  warm {' '.join(case):<28} best {min(walls):.2f} s")
        verdict = "PASS" if worst <= WARM_TARGET_S else "FAIL"
        ok &= verdict == "PASS"
        print(f"caribbean warm run, any table or strategy: worst best-of-{repeats} {worst:.2f} s "
              f"(target {WARM_TARGET_S:.0f} s) {verdict}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
