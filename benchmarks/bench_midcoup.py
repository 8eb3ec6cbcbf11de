"""Mid-coup tables and the counting study's shoes (issue 44): target 5 s for the 8-deck table after all four cards
(100 rows, every wager of the table settled per row), about the work of one full count of the shoe's cells; the
tables after two cards and a counting study's shoe (cut card 14, one card burnt, dragon_7 on EZ Baccarat, the exact EV
before every coup) for reference.

Each figure is the best of ``repeats`` runs after one untimed run (the shoe's orderings tallied once).

Run: ``python benchmarks/bench_midcoup.py [repeats]``
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from common import Targets


def best(repeats: int, once: Callable[[], object]) -> float:
    """The best time of ``once`` over ``repeats`` runs, after one untimed run."""
    once()
    runs = []
    for _ in range(repeats):
        t = time.perf_counter()
        once()
        runs.append(time.perf_counter() - t)
    return min(runs)


def main() -> int:
    from oddscalc.analysis import Session
    from oddscalc.games.punto_banco.game import PuntoBancoRules
    from oddscalc.games.punto_banco.midcoup import table
    from oddscalc.protection import counting, study

    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    out = Targets("mid-coup tables and the counting study")
    session = Session("punto-banco")
    rules, ez = session.resolve("standard"), session.resolve("ez-baccarat")
    assert isinstance(rules, PuntoBancoRules) and isinstance(ez, PuntoBancoRules)
    assert len(table(rules, rules.cards, "four").rows) == 100
    out.seconds("midcoup: 8 decks, after all four cards (100 rows)",
                best(repeats, lambda: table(rules, rules.cards, "four")), 5.0)
    out.seconds("midcoup: 8 decks, after the player's two cards",
                best(repeats, lambda: table(rules, rules.cards, "player")), None)
    fx, fast = counting.removal_effects(ez), counting.coup_ev(ez)
    shoe = best(repeats, lambda: study.run(ez, fast, fx, "dragon_7", 1, study.Procedure(14, 1), 1))
    out.seconds("counting study: one shoe, cut card 14, one burnt", shoe, None)
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
