"""Run every ``benchmarks/bench_*.py`` in a fresh process and summarise (what ``make bench`` runs).

Each script prints its own lines and exits 0 when it ran and met its targets, non-zero
otherwise. A failing script does not stop the others; the exit status is 1 when any failed.

Run: ``python benchmarks/run.py [NAME ...]`` (names such as ``let_it_ride`` or
``bench_hands.py`` pick scripts; default: all).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def scripts(names: list[str]) -> list[Path]:
    found = sorted(HERE.glob("bench_*.py"))
    if not names:
        return found
    wanted = {n.removeprefix("bench_").removesuffix(".py") for n in names}
    picked = [p for p in found if p.stem.removeprefix("bench_") in wanted]
    unknown = wanted - {p.stem.removeprefix("bench_") for p in picked}
    if unknown:
        raise SystemExit(f"no benchmark named {', '.join(sorted(unknown))}; have: "
                         + ", ".join(p.stem.removeprefix("bench_") for p in found))
    return picked


def main() -> int:
    sys.path.insert(0, str(HERE))
    from common import reference_seconds

    os.environ["ODDSCALC_BENCH_REFERENCE"] = repr(reference_seconds())  # one reference for every script
    print(f"reference workload: {os.environ['ODDSCALC_BENCH_REFERENCE'][:6]} s (each figure is also shown as a ratio)")
    results: list[tuple[str, str, float]] = []
    for script in scripts(sys.argv[1:]):
        print(f"== {script.name}", flush=True)
        t0 = time.perf_counter()
        try:
            rc = subprocess.run([sys.executable, str(script)], check=False, cwd=ROOT).returncode
            status = "ok" if rc == 0 else f"FAILED (exit {rc})"
        except OSError as e:
            status = f"FAILED ({e})"
        except KeyboardInterrupt:
            status = "interrupted"
        results.append((script.name, status, time.perf_counter() - t0))
        if status == "interrupted":
            break
        print(flush=True)
    width = max((len(name) for name, _, _ in results), default=6)
    print("== summary")
    print(f"{'script':<{width}}  {'wall':>8}  status")
    for name, status, wall in results:
        print(f"{name:<{width}}  {wall:7.1f}s  {status}")
    failed = [name for name, status, _ in results if status != "ok"]
    if failed:
        print(f"{len(failed)} of {len(results)} benchmark(s) failed: {', '.join(failed)}")
    return 1 if failed or not results else 0


if __name__ == "__main__":
    sys.exit(main())
