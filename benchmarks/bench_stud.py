"""The stud family's engine: Three Card Poker from its game file, cold (empty store) and repeated.

Target: cold ``report three-card-poker`` within 10 s on two cores (the count of every deal, 407,170,400 of them, and
the 20,358,520 six-card sets of the 6-card bonus); Mississippi Stud and Double Down Stud cold within the same 10 s.

Run: ``python benchmarks/bench_stud.py [repeats]``
"""

from __future__ import annotations

import sys

from common import Targets, best_cli, best_of, cli, peak, scratch


def main() -> int:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    out = Targets("three-card-poker")
    report = ["report", "three-card-poker", "--format", "json"]
    best, runs = best_of(repeats, lambda: cli(report, {"ODDSCALC_CACHE_DIR": scratch("tcp")})[0])
    out.seconds("report three-card-poker, cold (empty store)", best, 10, "runs " + ", ".join(f"{r:.2f}" for r in runs))
    out.memory("report three-card-poker, cold: peak RSS", peak(report, {"ODDSCALC_CACHE_DIR": scratch("tcp")}), 800)
    warm = scratch("tcp-warm")
    cli(report, {"ODDSCALC_CACHE_DIR": warm})
    out.seconds("report three-card-poker, repeated", best_cli(repeats, report, {"ODDSCALC_CACHE_DIR": warm})[0], None)
    stud = ["report", "mississippi-stud", "--format", "json"]
    best, runs = best_of(repeats, lambda: cli(stud, {"ODDSCALC_CACHE_DIR": scratch("ms")})[0])
    out.seconds("report mississippi-stud, cold (empty store)", best, 10, "runs " + ", ".join(f"{r:.2f}" for r in runs))
    stud = ["report", "double-down-stud", "--format", "json"]  # the third game, a file alone
    best, runs = best_of(repeats, lambda: cli(stud, {"ODDSCALC_CACHE_DIR": scratch("dds")})[0])
    out.seconds("report double-down-stud, cold (empty store)", best, 10, "runs " + ", ".join(f"{r:.2f}" for r in runs))
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
