"""Cold-start timings of the hand table and the suit-class enumerations.

Each measurement runs in a fresh interpreter so caches (lru_cache, warm allocator) do not
flatter it. numpy is imported before the clock starts; importing ``oddscalc.hands``
(which pulls in numba) is reported separately.

Run: ``python benchmarks/bench_hands.py [repeats]``
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, time
import numpy as np
t0 = time.perf_counter()
import oddscalc.hands as hands
import oddscalc.symmetry as symmetry
t1 = time.perf_counter()
out = {"import oddscalc.hands + symmetry (incl. numba)": t1 - t0}
target = __TARGET__
t = time.perf_counter()
if target == "hand_table":
    table = hands.hand_table()
    assert table.n_levels == 7462
elif target == "suit_classes":
    reps, weights = symmetry.suit_classes(5)
    assert len(reps) == 134459
elif target == "hand_plus_card":
    reps, extra, weights = symmetry.hand_plus_card_classes()
    assert len(reps) == 5649150
out[target] = time.perf_counter() - t
print(json.dumps(out))
"""

TARGETS = {
    "hand_table": "hand_table(FULL_DECK), cold",
    "suit_classes": "suit_classes(5), cold",
    "hand_plus_card": "hand_plus_card_classes() incl. suit_classes(5), cold",
}


def run_once(target: str) -> dict[str, float]:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD.replace("__TARGET__", repr(target))],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(proc.stdout)
    return result


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    imports: list[float] = []
    for target, label in TARGETS.items():
        times = []
        for _ in range(repeats):
            res = run_once(target)
            times.append(res[target])
            imports.extend(v for k, v in res.items() if k != target)
        print(
            f"{label:55s} best {min(times):.3f} s  (runs: {', '.join(f'{t:.3f}' for t in times)})"
        )
    print(f"{'import oddscalc.hands + symmetry (incl. numba)':55s} best {min(imports):.3f} s")


if __name__ == "__main__":
    main()
