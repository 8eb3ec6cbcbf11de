"""A simulation as text (a plain table) or JSON, and the one-line summary both end with."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from fractions import Fraction

from oddscalc import __version__
from oddscalc.simulate.stats import Z_995, Simulation


def _num(x: float) -> str:
    return f"{x:.6f}"


def summary_line(sim: Simulation) -> str:
    """How many exact values lie inside their intervals, naming those outside."""
    checked, outside = sim.checked, sim.outside
    if not checked:
        return "summary: no exact values to compare with."
    text = (f"summary: {len(checked) - len(outside)} of {len(checked)} exact values lie inside their 99% "
            "confidence intervals")
    if not outside:
        return text + "."
    far = ", ".join(f"{e.wager} {e.figure} ({e.deviation:+.2f} standard errors)" for e in outside)
    return (f"{text}; OUTSIDE: {far}. At 99% confidence about 1 figure in 100 falls outside by chance; "
            "rerun with another --seed or more rounds before suspecting the exact engine.")


def render_text(sim: Simulation) -> str:
    """A plain table: wager, figure, simulated, 99% CI, exact, inside?"""
    lines = [(f"oddscalc simulate {sim.game}: table {sim.table} (sha256 {sim.table_sha256[:12]}), "
              f"{sim.rounds:,} rounds, seed {sim.seed}"),
             f"strategy: {sim.strategy}",
             "rules: " + ", ".join(f"{k} = {v}" for k, v in sim.rules.items())]
    lines += [f"note: {n}" for n in sim.notes]
    head = ("wager", "figure", "simulated", "99% confidence interval", "exact", "inside?")
    rows = [(e.wager, e.figure, _num(e.mean), f"[{_num(e.low)}, {_num(e.high)}]",
             _num(float(e.exact)) if e.exact is not None else "-",
             "-" if e.inside is None else "yes" if e.inside else "NO") for e in sim.estimates]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    right = (False, False, True, False, True, False)
    lines.append("")
    for r in [head, *rows]:
        lines.append("  ".join(c.rjust(w) if ra else c.ljust(w) for c, w, ra in zip(r, widths, right)).rstrip())
    lines += ["", summary_line(sim)]
    return "\n".join(lines) + "\n"


def _exact_text(x: Fraction | None) -> str | None:
    if x is None:
        return None
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def render_json(sim: Simulation) -> str:
    """Every estimate with its interval, exact value (as p/q text and decimal) and verdict."""
    data = {
        "oddscalc_version": __version__, "game": sim.game, "table": sim.table, "table_sha256": sim.table_sha256,
        "rounds": sim.rounds, "seed": sim.seed, "generator": "numpy PCG64", "strategy": sim.strategy,
        "rules": dict(sim.rules), "confidence": 0.99, "z": Z_995,
        "estimates": [{
            "wager": e.wager, "figure": e.figure, "simulated": e.mean, "standard_deviation": e.sd,
            "half_width": e.half_width, "low": e.low, "high": e.high, "exact": _exact_text(e.exact),
            "exact_decimal": float(e.exact) if e.exact is not None else None, "inside": e.inside,
            "deviation_standard_errors": e.deviation, "wins": e.wins,
        } for e in sim.estimates],
        "inside": len(sim.checked) - len(sim.outside), "checked": len(sim.checked),
        "notes": list(sim.notes), "summary": summary_line(sim),
    }
    return json.dumps(data, indent=2) + "\n"


RENDERERS: Mapping[str, Callable[[Simulation], str]] = {"text": render_text, "json": render_json}
