"""The JSON report: the public contract described in DESIGN.md (keep it stable)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from oddscalc import __version__
from oddscalc.exact import frac_str
from oddscalc.report.cells import cell_json
from oddscalc.results import Analysis, Section, WagerResult

# The version of this contract (DESIGN.md, "The JSON report"): bumped whenever a field or an id is renamed or
# removed, each renamed id listed in CHANGELOG.md. 2: the first stated version (one event vocabulary, strategy
# ids, player/banker rule keys); the reports before it had no contract field and count as version 1.
CONTRACT = 2


def _jsonable(x: Any) -> Any:
    if isinstance(x, Fraction):
        return frac_str(x)
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    return x


def wager_data(w: WagerResult) -> dict[str, Any]:
    """One wager as JSON, per the contract in DESIGN.md."""
    eor = w.element_of_risk
    return {
        "wager": w.wager,
        "title": w.title,
        "strategy": w.strategy,
        "strategy_title": w.strategy_title,
        "unit": w.unit,
        "total_combinations": w.total_combinations,
        "expected_value": frac_str(w.expected_value),
        "expected_value_decimal": float(w.expected_value),
        "house_edge": frac_str(w.house_edge),
        "house_edge_decimal": float(w.house_edge),
        "element_of_risk": None if eor is None else frac_str(eor),
        "average_stake": frac_str(w.average_stake),
        "variance": frac_str(w.variance),
        "standard_deviation": w.standard_deviation,
        "hit_frequency": frac_str(w.hit_frequency),
        "volatility_index_90": w.volatility_index["90"],
        "volatility_index_95": w.volatility_index["95"],
        "prizes": [
            {"pay": p.pay_ref, "pays": p.pays, "probability": frac_str(p.probability),
             "one_in": None if p.one_in is None else float(p.one_in),
             "expected_in_100_million_games": p.reachable}
            for p in w.prizes
        ],
        "extras": _jsonable(dict(w.extras)),
        "notes": list(w.notes),
        "rows": [
            {
                "event": r.event,
                "label": r.label,
                "pays": r.pays,
                "units": frac_str(r.units),
                "stake": frac_str(r.stake),
                "combinations": r.combinations,
                "probability": frac_str(w.probability(r)),
                "return": frac_str(w.row_return(r)),
            }
            for r in w.rows
        ],
    }


def to_data(a: Analysis) -> dict[str, Any]:
    """The whole report as JSON-able data."""
    return {
        "contract": CONTRACT,
        "oddscalc_version": __version__,
        "game": a.game,
        "table": a.table.id,
        "table_title": a.table.title,
        "table_sha256": a.table.sha256,
        "rules": _jsonable(dict(a.rules)),
        "counting_convention": a.convention,
        "assumptions": list(a.assumptions),
        "verdict": {"favours": a.verdict.favours, "player_wagers": list(a.verdict.player_wagers),
                    "even_wagers": list(a.verdict.even_wagers), "text": a.verdict.text},
        "headline": list(a.lead),
        "wagers": [wager_data(w) for w in a.wagers],
        "sections": {s.id: section_data(s) for s in a.sections},
        "published_checks": [{"block": c.block, "wager": c.wager, "figure": c.figure, "stated": c.expected,
                              "computed": c.computed, "verdict": c.verdict,
                              **({"note": c.message} if c.message else {})} for c in a.checks],
    }


def section_data(s: Section) -> dict[str, Any]:
    """A section as JSON: its columns, and its rows keyed by column id with exact values."""
    return {
        "id": s.id,
        "title": s.title,
        "intro": list(s.intro),
        "columns": [{"id": c.id, "title": c.title, "kind": c.kind} for c in s.columns],
        "rows": [{c.id: cell_json(v) for c, v in zip(s.columns, row)} for row in s.rows],
        "notes": list(s.notes),
    }


def render_json(a: Analysis) -> str:
    """The JSON report, keys in contract order."""
    return json.dumps(to_data(a), indent=2, ensure_ascii=False) + "\n"
