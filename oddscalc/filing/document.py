"""A filing document: the report of a table with what a filing adds, and the charts it draws.

A filing is the report's sections, led by what the game's declaration names for a filing (the house game's edge
by seats filled: with several seats the edge is not the one-seat figure), and followed by the petition's odds
sheet, the hold tolerance and, when the table states its limits, the exposure. The command line calls
:func:`compose` and :func:`charts`, and renders what they return.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from oddscalc.games import DECLARED
from oddscalc.progress import Progress
from oddscalc.protocol import load
from oddscalc.results import Analysis, Chart, Section

if TYPE_CHECKING:
    from oddscalc.analysis import Session


def with_filing(analysis: Analysis, first: Sequence[Section] = ()) -> Analysis:
    """What a filing adds to the report: ``first`` before its sections; the petition's odds sheet, the hold
    tolerance and the exposure (when the table states [limits]) after them."""
    from oddscalc.filing import exposure, hold, odds_sheet

    exposed = exposure.section(analysis)
    extra = (odds_sheet.section(analysis), hold.section(hold.subjects_of(analysis)), *([exposed] if exposed else []))
    return dataclasses.replace(analysis, sections=(*first, *analysis.sections, *extra))


def leading_sections(session: Session, table_ref: str | None, show_progress: bool = False) -> tuple[Section, ...]:
    """The sections the game's declaration says a filing leads with (none for most games)."""
    out = []
    for ref in DECLARED[session.game.key].filing:
        bar = Progress(show_progress, f"filing: {ref.rpartition(':')[2].replace('_', ' ')}")
        out.append(load(ref)(session, table_ref, bar.say))
        bar.finish()
    return tuple(out)


def compose(session: Session, analysis: Analysis, table_ref: str | None, show_progress: bool = False) -> Analysis:
    """The filing of ``analysis`` (the report of ``table_ref`` in ``session``, with any checks and symbolic
    figures already added)."""
    return with_filing(analysis, leading_sections(session, table_ref, show_progress))


def charts(session: Session, analysis: Analysis) -> tuple[Chart, ...]:
    """The charts a filing draws: the game's own, then the hold tolerance of every wager it files (the hold section's
    subjects: a baccarat table's side bets, Caribbean's Jackpot and Let It Ride's bonus beside the main wager), one
    chart each, with ids unique in the filing (``<game>-hold-<wager>``)."""
    from oddscalc.filing import hold

    game = session.game
    own = game.charts(analysis, session.rerun(analysis.table))
    return (*own, *(hold.chart(hold.of_wager(w), f"{game.key}-hold-{w.wager}") for w in analysis.wagers))


__all__ = ["charts", "compose", "leading_sections", "with_filing"]
