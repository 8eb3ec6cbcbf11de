"""Markdown report: header, headline, one return table per wager, published checks, then the sections."""

from __future__ import annotations

from fractions import Fraction

from .. import __version__
from ..exact import decimal_str, frac_str, one_in, percent_str
from ..results import Analysis, Section, WagerResult
from .cells import cell_text


def _fmt_units(u: Fraction) -> str:
    return frac_str(u) if u.denominator != 1 else f"{u.numerator:+d}" if u else "0"


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _cell(text: str) -> str:
    """Text on one line of a table or a list: no HTML, no column break."""
    return _html(text).replace("|", "\\|").replace("\n", " ")


def _plain(text: str) -> str:
    """Text from a table file as literal text: no HTML, and no line that becomes a heading or a list."""
    text = _html(text)
    return "\n".join("\\" + line if line.lstrip()[:1] in ("#", "=", "-", "*", "+") and line.strip() else line
                     for line in text.splitlines())


def wager_markdown(w: WagerResult) -> str:
    """One wager: its figures, then its return table."""
    lines = [f"## {w.title} (`{w.wager}`)", ""]
    eor = w.element_of_risk
    lines += [
        f"- Strategy: {w.strategy}",
        f"- Expected value per {w.unit}: **{decimal_str(w.expected_value, 8)}** (exact {frac_str(w.expected_value)})",
        f"- House edge: **{percent_str(w.house_edge)}** of the {w.unit}",
    ]
    if eor is not None:
        lines.append(f"- Element of risk (edge per unit actually staked): {percent_str(eor)}")
        lines.append(f"- Average total stake: {decimal_str(w.average_stake, 6)} (exact {frac_str(w.average_stake)})")
    lines += [
        f"- Standard deviation: {w.standard_deviation:.4f} (variance {decimal_str(w.variance, 6)})",
        f"- Volatility index: {w.volatility_index('90'):.4f} at 90%, {w.volatility_index('95'):.4f} at 95%",
        f"- Hit frequency: {percent_str(w.hit_frequency)}",
        f"- Total combinations: {w.total_combinations:,}",
    ]
    prizes = w.prizes()
    if prizes:
        never = [p for p in prizes if p.probability == 0]
        rare = [p for p in prizes if p.probability and not p.reachable]
        odds = "; ".join(f"{p.pay_ref.split('.', 1)[1].replace('_', ' ')} {one_in(p.probability)}"
                         for p in prizes if p.probability)
        lines.append(f"- Prize odds: {odds}")
        if rare:
            lines.append("- **Prize check: expected less than once in 100 million games:** "
                         + ", ".join(p.pay_ref for p in rare))
        elif never:
            lines.append("- Prize check: every prize this strategy can reach is expected at least once in "
                         "100 million games; never reached: " + ", ".join(p.pay_ref for p in never))
        else:
            lines.append("- Prize check: every prize is expected at least once in 100 million games")
    for k, v in w.extras.items():
        vv = Fraction(v)
        shown = f"{vv.numerator:,}" if vv.denominator == 1 else f"{decimal_str(vv, 8)} (exact {frac_str(vv)})"
        lines.append(f"- {k.replace('_', ' ')}: {shown}")
    for n in w.notes:
        lines.append(f"- {n}")
    lines += ["", "| Event | Pays | Units | Combinations | Probability | Return |", "|---|---|---:|---:|---:|---:|"]
    for r in w.rows:
        lines.append(
            f"| {_cell(r.label)} | {_cell(r.pays)} | {_fmt_units(r.units)} | {r.combinations:,} "
            f"| {decimal_str(w.probability(r), 10)} | {decimal_str(w.row_return(r), 10)} |"
        )
    lines.append(
        f"| **Total** | | | {w.total_combinations:,} | 1.0000000000 | {decimal_str(w.expected_value, 10)} |"
    )
    return "\n".join(lines) + "\n"


def section_markdown(s: Section) -> str:
    """A section: its intro, its table, its notes."""
    out = [f"## {s.title}", ""]
    for line in s.intro:
        out += [line, ""]
    if s.columns and s.rows:
        numeric = {"int", "fraction", "decimal", "percent", "signed_percent", "share"}
        out.append("| " + " | ".join(_cell(c.title) for c in s.columns) + " |")
        out.append("|" + "".join("---:|" if c.kind in numeric else "---|" for c in s.columns))
        for row in s.rows:
            out.append("| " + " | ".join(_cell(cell_text(v, c)) for v, c in zip(row, s.columns)) + " |")
        out.append("")
    for line in s.notes:
        out += [line, ""]
    return "\n".join(out).rstrip() + "\n"


def published_markdown(a: Analysis) -> str:
    """The table's [published]/[claimed] figures against the exact ones (what `oddscalc verify` checks)."""
    if not a.sources:
        return ""
    if not a.published_applies:
        return ("## Published figures\n\nNot compared: this run overrides the table's rules or strategy, and the "
                "table's published figures are for the table as written (`oddscalc verify` checks them).\n")
    lines = ["## Published figures", "", "Sources: " + "; ".join(a.sources) + ".", "",
             "| Block | Wager | Figure | Stated | Computed | Verdict |", "|---|---|---|---:|---:|---|"]
    for c in a.checks:
        verdict = c.verdict if not c.message else f"{c.verdict}: {c.message}"
        lines.append(f"| {c.block} | {c.wager} | {c.figure} | {c.expected} | {c.computed} | {_cell(verdict)} |")
    held = sum(c.ok for c in a.checks)
    differ = sum(c.verdict == "differs" for c in a.checks)
    lines += ["", f"{held} of {len(a.checks)} figures hold" + (
        f" ({differ} of them differ from the source, for the reason stated)." if differ else ".")]
    return "\n".join(lines) + "\n"


def render_markdown(a: Analysis) -> str:
    """The whole report as Markdown."""
    t = a.table
    out = [f"# {_cell(t.title)}", ""]
    if a.headline:
        out += [f"> {h}" for h in a.headline] + [""]
    out += [
        f"- Game: `{a.game}` · table: `{t.id}` · sha256 `{t.sha256}`",
        f"- oddscalc {__version__}",
        f"- Counting convention: {a.convention}",
        "- Rules as resolved: " + "; ".join(f"{k} = {_rule(v)}" for k, v in a.rules.items()),
    ]
    if t.model.description:
        out += ["", _plain(t.model.description.strip())]
    if a.assumptions:
        out += ["", "**Assumptions** (not stated by the rule sheet):", ""]
        out += [f"- {_cell(s)}" for s in a.assumptions]
    out.append("")
    for w in a.wagers:
        out.append(wager_markdown(w))
    checks = published_markdown(a)
    if checks:
        out.append(checks)
    for s in a.sections:
        out.append(section_markdown(s))
    return "\n".join(out).rstrip() + "\n"


def _rule(v: object) -> str:
    if isinstance(v, Fraction):
        return frac_str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_rule(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_rule(x)}" for k, x in v.items()) + "}"
    return str(v)
