"""Cold `oddscalc report let-it-ride --format json`, as a user runs it.

Every run is a new process of the installed ``oddscalc`` entry point (falling back to
``python -m oddscalc.cli``) with ``ODDSCALC_CACHE_DIR`` pointing at a fresh empty folder, so
nothing computed by an earlier run is reused. numba's compiled kernels (cached beside the
package after the first run of an install) are warm, as they are for every user after their
first run; one more run with an empty ``NUMBA_CACHE_DIR`` shows that first run, for information.

Wall time is measured around the whole process (interpreter start, imports, enumeration,
rendering, writing the JSON); peak RSS is the child's own ``ru_maxrss`` from ``wait4``.
Exits 1 when the median misses the target, so ``benchmarks/run.py`` reports it.

Run: ``python benchmarks/bench_let_it_ride.py [runs]``
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 2.0
RUNS = 5
TOTAL = 22100 * 49 * 48


def command() -> list[str]:
    script = Path(sys.executable).parent / "oddscalc"
    base = [str(script)] if script.exists() else [sys.executable, "-m", "oddscalc.cli"]
    return base + ["report", "let-it-ride", "--format", "json"]


def run_once(extra_env: dict[str, str] | None = None) -> tuple[float, int]:
    """(wall seconds, peak RSS in bytes) of one cold report; checks the report it printed."""
    with tempfile.TemporaryDirectory(prefix="oddscalc-bench-") as tmp:
        env = {**os.environ, "ODDSCALC_CACHE_DIR": str(Path(tmp) / "cache"), **(extra_env or {})}
        out_path = Path(tmp) / "report.json"
        with out_path.open("wb") as out, open(Path(tmp) / "stderr", "wb") as err:
            t0 = time.perf_counter()
            proc = subprocess.Popen(command(), cwd=ROOT, env=env, stdout=out, stderr=err)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"report failed (exit {proc.returncode}):\n{(Path(tmp) / 'stderr').read_text()}")
        data = json.loads(out_path.read_text())
        main_wager = next(w for w in data["wagers"] if w["wager"] == "main")
        assert main_wager["total_combinations"] == TOTAL, main_wager["total_combinations"]
    rss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)  # bytes on macOS, KiB on Linux
    return wall, rss


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else RUNS
    print(f"command: {' '.join(command())}  (fresh ODDSCALC_CACHE_DIR each run)")
    results = [run_once() for _ in range(runs)]
    times = [t for t, _ in results]
    rss = max(r for _, r in results)
    best, median = min(times), statistics.median(times)
    print(f"cold report let-it-ride --format json: best {best:.3f} s  median {median:.3f} s  "
          f"(runs: {', '.join(f'{t:.3f}' for t in times)})")
    print(f"peak RSS: {rss / 2**20:.0f} MiB")
    with tempfile.TemporaryDirectory(prefix="oddscalc-numba-") as numba_dir:
        first, first_rss = run_once({"NUMBA_CACHE_DIR": numba_dir})
    print(f"first run after install (numba compiles its kernels too): {first:.3f} s, "
          f"peak RSS {first_rss / 2**20:.0f} MiB"
          "  (information, not the target)")
    ok = median <= TARGET_S
    print(f"{'PASS' if ok else 'FAIL'}: median {median:.3f} s against the {TARGET_S:.1f} s target")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
