"""Caribbean Stud: the cold count, the two count kernels in one process, warm and repeated reports.

- cold: ``report caribbean`` with an empty store (numba's compiled kernels already cached by an
  untimed first run); target 3 s wall and 700 MB;
- the strength sweep against the binary-search kernel it replaced, in the same process, on the
  full deck: target 0.4 x;
- warm: every shipped table and named strategy with the counts stored, the report settled anew
  (``ODDSCALC_NO_REPLAY=1``), and repeated (answered from the report store); target 0.3 s.

- two, three and four dealer cards seen (``flash --dealer-cards K``), every deal exact: target 5 minutes
  each.

Run: ``python benchmarks/bench_caribbean.py [repeats] [--quick]`` (``--quick`` skips the last).
"""

from __future__ import annotations

import os
import subprocess
import sys

from common import ROOT, Targets, best_cli, best_of, cli, peak, scratch

STRATEGIES = ("optimal", "raise-pair-plus", "raise-ak-plus", "always-raise", "rules-of-thumb")
KERNELS = f"""
import sys, time
sys.path.insert(0, {str(ROOT / "tests")!r})  # the search kernel is the tests' oracle now, imported as they do
from oracles.dealer_search import dealer_counts_search
from oddscalc.cards import FULL_DECK
from oddscalc.games.caribbean.count import dealer_counts_of
dealer_counts_of(FULL_DECK, "ace-king"); dealer_counts_search(FULL_DECK, "ace-king")  # loads the compiled kernels
t = time.perf_counter(); dealer_counts_of(FULL_DECK, "ace-king"); sweep = time.perf_counter() - t
t = time.perf_counter(); dealer_counts_search(FULL_DECK, "ace-king"); search = time.perf_counter() - t
print(sweep, search)
"""


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    repeats = int(args[0]) if args else 3
    out = Targets("caribbean")
    report = ["report", "caribbean", "--table", "us", "--format", "json"]  # the table the targets were set on
    cli(report, {"ODDSCALC_CACHE_DIR": scratch("warmup")})  # numba's own cache, per installation
    best, runs = best_of(repeats, lambda: cli(report, {"ODDSCALC_CACHE_DIR": scratch("cold")})[0])
    out.seconds("report caribbean, cold (empty store)", best, 3.0, "runs " + ", ".join(f"{r:.2f}" for r in runs))
    out.memory("report caribbean, cold: peak RSS", peak(report, {"ODDSCALC_CACHE_DIR": scratch("mem")}), 700)
    sweep, search = (float(x) for x in subprocess.run([sys.executable, "-c", KERNELS], capture_output=True,
                                                      text=True, check=True, cwd=ROOT).stdout.split())
    out.ratio("count kernel: sweep / binary search, same process", sweep / search, 0.4,
              f"{sweep:.2f} s against {search:.2f} s")
    warm = scratch("warm")
    cli(report, {"ODDSCALC_CACHE_DIR": warm})
    cases = [["--table", t] for t in ("us", "spain")] + [["--strategy", s] for s in STRATEGIES]
    settled = max(best_cli(repeats, [*report, *c], {"ODDSCALC_CACHE_DIR": warm, "ODDSCALC_NO_REPLAY": "1"})[0]
                  for c in cases)
    out.seconds("report caribbean, counts stored, settled (worst table/strategy)", settled, None,
                "no target: the repeated report is the one asked for")
    repeated = max(best_cli(repeats, [*report, *c], {"ODDSCALC_CACHE_DIR": warm})[0] for c in cases)
    out.seconds("report caribbean, repeated (worst table/strategy)", repeated, 0.3)
    if "--quick" not in sys.argv:
        for k, word in (("2", "two"), ("3", "three"), ("4", "four")):
            flash = ["flash", "caribbean", "--table", "us", "--dealer-cards", k]
            out.seconds(f"flash caribbean: {word} dealer cards seen, every deal exact", cli(flash, {})[0], 300)
    return out.finish()


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
