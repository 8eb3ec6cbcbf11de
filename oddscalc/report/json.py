"""The JSON report: the public contract described in DESIGN.md (keep it stable)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from .. import __version__
from ..exact import WagerResult, frac_str
from ..games import Analysis


def _jsonable(x: Any) -> Any:
    if isinstance(x, Fraction):
        return frac_str(x)
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    return x


def wager_data(w: WagerResult) -> dict[str, Any]:
    eor = w.element_of_risk
    return {
        "wager": w.wager,
        "title": w.title,
        "strategy": w.strategy,
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
        "volatility_index_90": w.volatility_index("90"),
        "volatility_index_95": w.volatility_index("95"),
        "prizes": [
            {"pay": p.pay_ref, "pays": p.pays, "probability": frac_str(p.probability),
             "one_in": None if p.one_in is None else float(p.one_in),
             "expected_in_100_million_games": p.reachable}
            for p in w.prizes()
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
    return {
        "oddscalc_version": __version__,
        "game": a.game,
        "table": a.table.id,
        "table_title": a.table.title,
        "table_sha256": a.table.sha256,
        "rules": _jsonable(dict(a.rules)),
        "counting_convention": a.convention,
        "assumptions": list(a.assumptions),
        "headline": list(a.headline),
        "wagers": [wager_data(w) for w in a.wagers],
        "sections": {s.title: _jsonable(s.data) for s in a.sections if s.data is not None},
        "published_checks": _checks(a),
    }


def _checks(a: Analysis) -> list[dict[str, Any]]:
    from ..verify import check_analysis

    if not a.published_applies:
        return []
    return [{"block": c.block, "wager": c.wager, "figure": c.figure, "stated": c.expected,
             "computed": c.computed, "verdict": c.verdict} for c in check_analysis(a, label=a.table.id)]


def render_json(a: Analysis) -> str:
    return json.dumps(to_data(a), indent=2, ensure_ascii=False) + "\n"
