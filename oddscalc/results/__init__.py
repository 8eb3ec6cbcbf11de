"""The result model: what every game's analysis returns, as exact data.

A game never formats a report. It returns an :class:`Analysis`: one :class:`WagerResult` per
bet on the layout (integer combinations per event, from which every figure is derived as a
``Fraction``), structured :class:`Section` tables with stable ids, the decisions its strategy
made, and the published-figure :class:`Check` results. ``report/`` alone turns that into
Markdown, CSV and JSON; ``records()`` and ``to_frame()`` turn it into plain rows for other code.

The package is split by concern (``wager``, ``section``, ``chart``, ``check``, ``verdict``, ``analysis``;
``display`` for DataFrames); every public name is imported from here, as it was from the one module before.
"""

from __future__ import annotations

from oddscalc.results.analysis import Analysis, Decisions, RunOptions
from oddscalc.results.chart import Bars, Chart, Heatmap, Lines
from oddscalc.results.check import NOT_COMPARED, Check
from oddscalc.results.section import COLUMN_KINDS, NUMERIC_KINDS, Cell, Column, Section
from oddscalc.results.verdict import Verdict, rarity_from_rows, verdict
from oddscalc.results.wager import PRIZE_HORIZON, Z_SCORES, Figure, Prize, Row, WagerResult

__all__ = [
    "COLUMN_KINDS", "NOT_COMPARED", "NUMERIC_KINDS", "PRIZE_HORIZON", "Z_SCORES", "Analysis", "Bars", "Cell", "Chart",
    "Check", "Column", "Decisions", "Figure", "Heatmap", "Lines", "Prize", "Row", "RunOptions", "Section", "Verdict",
    "WagerResult", "rarity_from_rows", "verdict",
]
