"""Text of the regulator's tools: a solved pay (``oddscalc solve``) and two tables compared (``oddscalc compare``)."""

from __future__ import annotations

from ..exact import decimal_str, frac_str, percent_str
from ..paytools import Comparison, Solution
from ..tables import ratio_text


def solution_text(s: Solution) -> str:
    """The exact pay, the printable pays around it, and the Newton steps."""
    lines = [f"Pay {s.ref} for a house edge of {percent_str(s.target, 6)} on the {s.wager} wager:", "",
             f"  exact pay:   {frac_str(s.pay)} to 1  (= {decimal_str(s.pay, 6)} to 1)"]
    for c, he in s.printable:
        lines.append(f"  printable:   {ratio_text(c)}  -> house edge {percent_str(he, 4)}")
    lines += ["", "Steps (pay tried, house edge there, strategy changes from the step before):"]
    for i, st in enumerate(s.steps, 1):
        changed = ", ".join(f"{f.name}: {f.points:,} decision points ({f.combinations:,} combinations)"
                            for f in st.flips if f.points) or "none"
        lines.append(f"  {i}. pay {decimal_str(st.pay, 6)} -> edge {percent_str(st.house_edge, 6)}; changes: {changed}")
        for f in st.flips:
            for e in f.examples[:3]:
                lines.append(f"       {f.name}: {e}")
    return "\n".join(lines) + "\n"


def compare_text(c: Comparison) -> str:
    """Rule and pay differences, each wager's figures side by side, changed rows, flipped decisions (Markdown)."""
    a, b = c.a, c.b
    ta, tb = a.table, b.table
    lines = [f"# {a.game}: `{ta.id}` vs `{tb.id}`", "", f"- A: {ta.title} (sha256 `{ta.sha256[:16]}…`)",
             f"- B: {tb.title} (sha256 `{tb.sha256[:16]}…`)", "", "## Rule and pay differences", ""]
    if c.differences:
        lines += ["| Key | A | B |", "|---|---|---|"] + [f"| {k} | {x} | {y} |" for k, x, y in c.differences]
    else:
        lines.append("None: the two tables play and pay the same.")
    lines.append("")
    bw = {w.wager: w for w in b.wagers}
    for w in a.wagers:
        o = bw.get(w.wager)
        if o is None:
            lines += [f"## `{w.wager}`: only in A", ""]
            continue
        lines += [f"## `{w.wager}`", "", "| Figure | A | B | B - A |", "|---|---:|---:|---:|"]
        for name, x, y in (("Expected value", w.expected_value, o.expected_value),
                           ("House edge", w.house_edge, o.house_edge),
                           ("Element of risk", w.element_of_risk, o.element_of_risk),
                           ("Average stake", w.average_stake, o.average_stake)):
            if x is None or y is None:
                continue
            lines.append(f"| {name} | {decimal_str(x, 8)} | {decimal_str(y, 8)} | {decimal_str(y - x, 8)} |")
        lines.append(f"| Standard deviation | {w.standard_deviation:.6f} | {o.standard_deviation:.6f} | "
                     f"{o.standard_deviation - w.standard_deviation:+.6f} |")
        rows_b = {r.event: r.combinations for r in o.rows}
        changed = [(r.event, r.combinations, rows_b.get(r.event)) for r in w.rows
                   if rows_b.get(r.event) != r.combinations]
        if w.total_combinations != o.total_combinations:
            lines += ["", f"Totals differ ({w.total_combinations:,} vs {o.total_combinations:,}): "
                          "rows are not comparable."]
        elif changed:
            lines += ["", "Rows whose combinations changed:", "", "| Event | A | B |", "|---|---:|---:|"]
            lines += [f"| {e} | {x:,} | {'-' if y is None else f'{y:,}'} |" for e, x, y in changed]
        else:
            lines += ["", "Every row has the same combinations."]
        lines.append("")
    lines += ["## Strategy decisions that flip", ""]
    if not a.decisions:
        lines.append("This game's report exposes no per-point decisions.")
    for f in c.flips:
        lines.append(f"- {f.name}: {f.points:,} decision points ({f.combinations:,} combinations)")
        lines += [f"  - {e}" for e in f.examples]
    return "\n".join(lines).rstrip() + "\n"
