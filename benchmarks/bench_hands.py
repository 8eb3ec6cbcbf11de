"""The hand tables, each built in a new process: target 30 ms for the strength of all C(52,5) hands.

Run: ``python benchmarks/bench_hands.py [repeats]``
"""

from __future__ import annotations

import json
import subprocess
import sys

from common import ROOT, Targets

CHILD = """
import json, time
t0 = time.perf_counter()
import oddscalc.hands as hands
import oddscalc.symmetry as symmetry
t1 = time.perf_counter()
t = time.perf_counter()
if __TARGET__ == "hand_table":
    assert hands.hand_table().n_levels == 7462
elif __TARGET__ == "suit_classes":
    assert len(symmetry.suit_classes(5)[0]) == 134459
else:
    assert len(symmetry.hand_plus_card_classes()[0]) == 5649150
print(json.dumps({"import": t1 - t0, "work": time.perf_counter() - t}))
"""
TARGETS: dict[str, tuple[str, float | None]] = {
    "hand_table": ("hand_table(FULL_DECK): strength and class of every hand", 0.030),
    "suit_classes": ("suit_classes(5): 134,459 classes", None),
    "hand_plus_card": ("hand_plus_card_classes(): 5,649,150 orbits", None),
}


def run_once(target: str) -> dict[str, float]:
    proc = subprocess.run([sys.executable, "-c", CHILD.replace("__TARGET__", repr(target))], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(proc.stdout)
    return result


def main() -> int:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    out = Targets("hands")
    imports = []
    for target, (label, limit) in TARGETS.items():
        results = [run_once(target) for _ in range(repeats)]
        imports += [r["import"] for r in results]
        out.seconds(label, min(r["work"] for r in results), limit)
    out.seconds("import oddscalc.hands and oddscalc.symmetry", min(imports), None)
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
