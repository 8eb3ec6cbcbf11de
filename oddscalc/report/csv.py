"""CSV report: one line per (wager, event), exact and decimal columns side by side."""

from __future__ import annotations

import csv
import io

from oddscalc.exact import decimal_str, frac_str
from oddscalc.results import Analysis

COLUMNS = [
    "game", "table", "table_sha256", "wager", "strategy", "event", "label", "pays", "units", "stake",
    "combinations", "total_combinations", "probability", "probability_decimal",
    "return", "return_decimal",
]


def sheet_text(value: str) -> str:
    """Text as a spreadsheet shows it, never as a formula (a leading = + - @ or control is quoted)."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def render_csv(a: Analysis) -> str:
    """Every row of every wager, exact and decimal; text cells are safe to open in a spreadsheet."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(COLUMNS)
    for w in a.wagers:
        for r in w.rows:
            p = w.probability(r)
            ret = w.row_return(r)
            out.writerow([
                a.game, sheet_text(a.table.id), a.table.sha256, w.wager, sheet_text(w.strategy), r.event,
                sheet_text(r.label), sheet_text(r.pays),
                frac_str(r.units), frac_str(r.stake), r.combinations, w.total_combinations,
                frac_str(p), decimal_str(p, 12), frac_str(ret), decimal_str(ret, 12),
            ])
    return buf.getvalue()
