"""The sheet a new-game petition asks for: for every wager, each way it pays with its payout odds and
its true odds, and the wager's house advantage.

True odds of an outcome of probability p are (1 - p) / p to 1 against it, exact; a fair pay for
a bet that wins only on that outcome. The house advantage is the wager's house edge per unit (and
its element of risk where the stake varies). Every figure is exact and derived from the counts.
"""

from __future__ import annotations

from fractions import Fraction

from oddscalc.results import Analysis, Cell, Column, Section


def _true_odds(p: Fraction) -> Fraction | None:
    return None if p == 0 else (1 - p) / p


def section(a: Analysis) -> Section:
    """True odds, payout odds and house advantage of every wager of ``a``."""
    rows: list[tuple[Cell, ...]] = []
    for w in a.wagers:
        eor = w.element_of_risk
        for r in w.rows:
            if r.units <= 0 or not r.combinations:
                continue
            p = w.probability(r)
            rows.append((w.wager, r.label, r.pays, p, _true_odds(p), None))
        rows.append((w.wager, f"house advantage per {w.unit}" + (" (element of risk per amount wagered "
                     "in the next column)" if eor is not None else ""), "", None, None, w.house_edge))
        if eor is not None:
            rows.append((w.wager, "element of risk", "", None, None, eor))
    return Section(
        "odds_sheet", "True odds, payout odds and house advantage",
        (Column("wager", "Wager"), Column("outcome", "Outcome"), Column("payout_odds", "Payout odds"),
         Column("probability", "Probability", "decimal", 10), Column("true_odds", "True odds (against)", "odds", 2),
         Column("house_advantage", "House advantage", "percent", 4)),
        tuple(rows),
        intro=("Each winning outcome of each wager: what the table pays, its probability and its true odds "
               "((1 - p) / p to 1 against); then the wager's house advantage.",))
