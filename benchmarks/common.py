"""What every benchmark script shares: timing commands in new processes, the targets, a reference.

Each figure is printed beside its target and as a ratio to a fixed reference workload measured on
the same machine in the same run (numpy sorts and a Python loop, in a new process): a loaded or
slower machine moves the seconds but much less the ratios. A missed target makes the script exit 1.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE_CODE = """
import time
import numpy as np
x = np.random.default_rng(1).random(2_000_000)
t = time.perf_counter()
for _ in range(3):
    np.sort(x)
total = 0
for i in range(2_000_000):
    total += i & 7
print(time.perf_counter() - t)
"""


def reference_seconds() -> float:
    """The reference workload's best time of three (from ``run.py`` through the environment, else measured)."""
    given = os.environ.get("ODDSCALC_BENCH_REFERENCE")
    if given:
        return float(given)
    runs = [float(subprocess.run([sys.executable, "-c", REFERENCE_CODE], capture_output=True, text=True,
                                 check=True).stdout) for _ in range(3)]
    os.environ["ODDSCALC_BENCH_REFERENCE"] = repr(min(runs))
    return min(runs)


def scratch(prefix: str) -> str:
    """A fresh empty folder (for a store no earlier run has seen)."""
    return tempfile.mkdtemp(prefix=f"oddscalc-bench-{prefix}-")


def cli(args: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall seconds of ``python -m oddscalc ARGS`` in a new process, and the peak RSS (MB) of the
    largest child this process has had so far (``peak`` measures one command alone)."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "oddscalc", *args], env={**os.environ, **(env or {})},
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"oddscalc {' '.join(args)} failed: {proc.stderr[-500:]}")
    return wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def peak(args: Sequence[str], env: dict[str, str] | None = None) -> float:
    """Peak RSS (MB) of ``python -m oddscalc ARGS`` alone, measured from a wrapper process."""
    proc = subprocess.run(
        [sys.executable, "-c",
         "import resource, subprocess, sys; "
         "r = subprocess.run([sys.executable, '-m', 'oddscalc', *sys.argv[1:]], stdout=subprocess.DEVNULL); "
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(r.returncode)", *args],
        env={**os.environ, **(env or {})}, capture_output=True, text=True, cwd=ROOT, check=True)
    return int(proc.stdout.strip()) / 1024


def best_of(repeats: int, once: Callable[[], float]) -> tuple[float, list[float]]:
    """The smallest of ``repeats`` measurements, and all of them."""
    runs = [once() for _ in range(repeats)]
    return min(runs), runs


def best_cli(repeats: int, args: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, list[float]]:
    """The best wall time of ``repeats`` new processes running ``oddscalc ARGS``, and all of them."""
    return best_of(repeats, lambda: cli(args, env)[0])


class Targets:
    """Figures against targets; ``finish()`` prints the verdict and gives the exit status."""

    def __init__(self, title: str):
        self.title = title
        self.missed: list[str] = []
        self.reference = reference_seconds()
        print(f"== {title} (reference workload {self.reference:.3f} s)", flush=True)

    def seconds(self, label: str, value: float, target: float | None, detail: str = "") -> None:
        """A time, lower is better."""
        self._line(label, f"{value:8.3f} s", f"{value / self.reference:6.2f} ref",
                   None if target is None else (value <= target, f"<= {target:g} s"), detail)

    def rate(self, label: str, value: float, target: float, unit: str, detail: str = "") -> None:
        """A rate, higher is better."""
        self._line(label, f"{value:12,.0f} {unit}", f"{value * self.reference:12,.0f} per ref",
                   (value >= target, f">= {target:,.0f}"), detail)

    def ratio(self, label: str, value: float, target: float, detail: str = "") -> None:
        """A ratio of two times measured in the same run, lower is better."""
        self._line(label, f"{value:8.3f} x", "", (value <= target, f"<= {target:g} x"), detail)

    def memory(self, label: str, value: float, target: float) -> None:
        """A peak resident size in MB, lower is better."""
        self._line(label, f"{value:8.0f} MB", "", (value <= target, f"<= {target:g} MB"), "")

    def _line(self, label: str, shown: str, relative: str, check: tuple[bool, str] | None, detail: str) -> None:
        verdict = ""
        if check is not None:
            met, text = check
            verdict = f"target {text:<12} {'ok' if met else 'MISSED'}"
            if not met:
                self.missed.append(label)
        print(f"  {label:<58} {shown}  {relative:<18} {verdict}  {detail}".rstrip(), flush=True)

    def finish(self) -> int:
        """Print the verdict; 0 when every target is met."""
        if self.missed:
            print(f"MISSED: {', '.join(self.missed)}")
            return 1
        print("every target met")
        return 0


__all__ = ["ROOT", "Targets", "best_cli", "best_of", "cli", "peak", "reference_seconds", "scratch"]
