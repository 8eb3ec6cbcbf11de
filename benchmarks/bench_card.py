"""Strategy-card synthesis: the shortest Caribbean Stud card within 0.05% of optimal on the US table (full deck),
with the frontier; target 60 s (one core, the count already in the store).

- the problem: every (hand, up card) point's exact gain of raising, grouped into the cells no card feature tells
  apart, and the candidate conditions;
- the search: the decision-list learner to 12 rules and its improvement pass;
- the whole ``card`` command's work (``synthesis_sections``), with the published cards placed.

Reports the synthesised card's rules and exact cost beside the published rules of thumb's (as the frontier
places it).

Run: ``python benchmarks/bench_card.py``
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction

from common import Targets


def main() -> int:
    from oddscalc.analysis import Session
    from oddscalc.games.caribbean.game import CaribbeanRules
    from oddscalc.games.caribbean.synthesis import synthesis_sections

    out = Targets("card synthesis (in process)")
    session = Session("caribbean")
    rules = session.resolve("us")
    assert isinstance(rules, CaribbeanRules)
    session.counts(rules)  # the count is the report's, kept in the store: not timed here
    t, cpu = time.perf_counter(), time.process_time()
    result = synthesis_sections(session, "us", Fraction(5, 10_000), "bench")
    seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    assert result.card is not None
    frontier = next(s for s in result.sections if s.id == "card_frontier")
    thumb = next(r for r in frontier.rows if str(r[4]).startswith("card caribbean/rules-of-thumb.toml"))
    out.seconds("caribbean us within 0.05%: problem, search, frontier, placed cards", seconds, 60.0,
                f"{len(result.card.rules)} rules, cost {float(result.card.cost):.6%} (rules of thumb: {thumb[0]} "
                f"rules, {float(Fraction(str(thumb[1]))):.6%}); {cpu:.1f} s of CPU (a loaded machine moves the "
                "seconds, much less this)")
    for card in result.frontier:
        print(f"  {len(card.rules)} rules: {card.cost} ({float(card.cost):.6%})")
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
