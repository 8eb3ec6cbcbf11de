"""Paired sampled estimates, for what a breach is worth where an exact count does not fit.

Each sampled situation is settled exactly twice on the same cards: once by a player who sees the
extra cards, once by the ordinary player. The ordinary column estimates the ordinary game (whose EV
is known exactly, and shown beside it); the paired difference measures what the cards seen are
worth, with far less noise than either column. Intervals are 95%, normal approximation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.exact import rounded
from oddscalc.results import Z_SCORES, Column, Section


@dataclass(frozen=True)
class Sample:
    """Per situation: the EV seeing the partners' cards, and the ordinary player's on the same cards."""

    partners: int
    seen: np.ndarray  # (situations,) exact per situation, as floats for the statistics
    ordinary: np.ndarray
    seed: int

    @staticmethod
    def interval(x: np.ndarray) -> tuple[float, float]:
        """Mean and the half-width of its 95% interval."""
        return float(x.mean()), Z_SCORES["95"] * float(x.std(ddof=1)) / math.sqrt(len(x))


def section(section_id: str, title: str, s: Sample, exact_ordinary: Fraction, how: str) -> Section:
    """The estimates with their intervals, beside the ordinary game's exact EV; ``how`` says how a situation
    is drawn and settled."""
    cells = [rounded(v) for a in (s.seen, s.ordinary, s.seen - s.ordinary) for v in Sample.interval(a)]
    return Section(
        section_id, title,
        (Column("partners", "Partners seen", "int"), Column("situations", "Situations", "int"),
         Column("ev_seen", "EV seeing them", "signed_percent", 3), Column("ev_seen_ci", "+/- (95%)", "percent", 3),
         Column("ev_ordinary", "EV not seeing them", "signed_percent", 3),
         Column("ev_ordinary_ci", "+/- (95%)", "percent", 3),
         Column("gain", "What seeing them is worth", "signed_percent", 3),
         Column("gain_ci", "+/- (95%)", "percent", 3)),
        ((s.partners, len(s.seen), *cells),),
        intro=(how,
               f"The ordinary game's exact EV is {float(exact_ordinary):+.4%}: the sampled 'not seeing them' column "
               "estimates it (cards dealt to other seats and never seen change nothing)."),
        notes=(f"Seed {s.seed}. Intervals are 95%, normal approximation; the paired difference is far tighter than "
               "either column.",))
