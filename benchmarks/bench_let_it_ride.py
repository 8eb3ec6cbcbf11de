"""Let It Ride: the cold report (empty store) and the repeated one.

Targets: cold ``report let-it-ride`` 0.6 s, also with a strategy card; the exact one-partner
collusion analysis within a minute.

Run: ``python benchmarks/bench_let_it_ride.py [repeats]``
"""

from __future__ import annotations

import sys

from common import Targets, best_cli, best_of, cli, peak, scratch


def main() -> int:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    out = Targets("let-it-ride")
    report = ["report", "let-it-ride", "--format", "json"]
    best, runs = best_of(repeats, lambda: cli(report, {"ODDSCALC_CACHE_DIR": scratch("lir")})[0])
    out.seconds("report let-it-ride, cold (empty store)", best, 0.6, "runs " + ", ".join(f"{r:.2f}" for r in runs))
    out.memory("report let-it-ride, cold: peak RSS", peak(report, {"ODDSCALC_CACHE_DIR": scratch("lir")}), 400)
    warm = scratch("lir-warm")
    cli(report, {"ODDSCALC_CACHE_DIR": warm})
    out.seconds("report let-it-ride, repeated", best_cli(repeats, report, {"ODDSCALC_CACHE_DIR": warm})[0], None)
    card = ["report", "let-it-ride", "--strategy", "cards/let-it-ride/wizard-of-odds.toml", "--format", "json",
            "--no-cache"]
    out.seconds("report let-it-ride with a strategy card, nothing stored", best_of(
        repeats, lambda: cli(card, {"ODDSCALC_CACHE_DIR": scratch("lir-card")})[0])[0], 0.6)
    partner = ["collusion", "let-it-ride"]
    cli(partner, {"ODDSCALC_CACHE_DIR": warm})
    out.seconds("collusion let-it-ride: one partner's cards seen, 842,842,728,000 deals (counts stored)",
                best_cli(1, partner, {"ODDSCALC_CACHE_DIR": warm})[0], 60)
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
