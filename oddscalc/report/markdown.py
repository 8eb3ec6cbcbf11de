"""Markdown report: header, headline, one return table per wager, published checks, then the sections."""

from __future__ import annotations

import re

from oddscalc import __version__
from oddscalc.exact import decimal_str
from oddscalc.report.cells import cell_text, no_controls
from oddscalc.report.document import (
    OTHER_FIGURES,
    Prepared,
    held_text,
    other_figures,
    rules_text,
    units_text,
    wager_facts,
)
from oddscalc.results import NOT_COMPARED, NUMERIC_KINDS, Analysis, Section, WagerResult

_MARKUP = re.compile(r"[\\`*\[\]|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")  # what can open markup mid-line
_LEADING = re.compile(r"^(\s*)([#=+>-]|\d+[.)])")  # what makes a heading, a rule or a list at a line's start


_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")


def _html(text: str) -> str:
    """No tag and no entity: a '<' opens nothing and '&lt;' stays five characters (a '>' mid-line is text)."""
    return _ENTITY.sub("&amp;", text).replace("<", "&lt;")


def literal(text: str) -> str:
    r"""Text that is not ours (a table's, a card's or a profile's, a title or a label) as literal Markdown on one
    line: no HTML, no emphasis, code, link or column break, no new line to start a heading or a forged figure, no
    control character (a terminal would act on it) or bidirectional override (a viewer would reorder what follows).

    >>> literal("Dragon 7\n\n- House edge: **0.0000%**")
    'Dragon 7 - House edge: \\*\\*0.0000%\\*\\*'
    """
    return " ".join(_MARKUP.sub(lambda m: "\\" + m.group(0), _html(no_controls(line))) for line in text.splitlines()
                    if line)


def _plain(text: str) -> str:
    """Text of several lines as literal text: each line as :func:`literal`, none starting a heading or a list."""
    return "\n".join(_LEADING.sub(lambda m: m.group(1) + "\\" + m.group(2), literal(line)) if line.strip() else ""
                     for line in text.splitlines())


def wager_markdown(w: WagerResult) -> str:
    """One wager: its figures, then its return table."""
    lines = [f"## {literal(w.title)} (`{w.wager}`)", ""]
    lines += [f"- {fact}" for fact in wager_facts(w, lambda x: f"**{x}**", literal)]
    lines += ["", "| Event | Pays | Units | Combinations | Probability | Return |", "|---|---|---:|---:|---:|---:|"]
    for r in w.rows:
        lines.append(
            f"| {literal(r.label)} | {literal(r.pays)} | {units_text(r.units)} | {r.combinations:,} "
            f"| {decimal_str(w.probability(r), 10)} | {decimal_str(w.row_return(r), 10)} |"
        )
    lines.append(
        f"| **Total** | | | {w.total_combinations:,} | 1.0000000000 | {decimal_str(w.expected_value, 10)} |"
    )
    return "\n".join(lines) + "\n"


def section_markdown(s: Section) -> str:
    """A section: its intro, its table, its notes."""
    out = [f"## {literal(s.title)}", ""]
    for line in s.intro:
        out += [_plain(line), ""]
    if s.columns and s.rows:
        out.append("| " + " | ".join(literal(c.title) for c in s.columns) + " |")
        out.append("|" + "".join("---:|" if c.kind in NUMERIC_KINDS else "---|" for c in s.columns))
        for row in s.rows:
            out.append("| " + " | ".join(literal(cell_text(v, c)) for v, c in zip(row, s.columns)) + " |")
        out.append("")
    for line in s.notes:
        out += [_plain(line), ""]
    return "\n".join(out).rstrip() + "\n"


def other_markdown(a: Analysis) -> list[str]:
    """The wagers' other figures, labelled (:func:`other_figures`), as Markdown lines."""
    table = other_figures(a)
    if table is None:
        return []
    return [literal(OTHER_FIGURES), "", "| " + " | ".join(table.header) + " |",
            "|" + "".join("---:|" if n else "---|" for n in table.numeric),
            *("| " + " | ".join(literal(c) for c in row) + " |" for row in table.rows), ""]


def published_markdown(a: Analysis) -> str:
    """The table's [published]/[claimed] figures against the exact ones (what `oddscalc verify` checks)."""
    if not a.sources:
        return ""
    other = other_markdown(a)
    if not a.published_applies:
        return "\n".join(["## Published figures", "",
                          "Not compared: this run overrides the table's rules or strategy, and the table's published "
                          "figures are for the table as written (`oddscalc verify` checks them).", "", *other]) + "\n"
    lines = ["## Published figures", "", "Sources: " + "; ".join(literal(s) for s in a.sources) + ".", ""]
    lines += [f"Not compared ({c.block}): {literal(c.message)}." for c in a.checks if c.verdict == NOT_COMPARED]
    compared = [c for c in a.checks if c.verdict != NOT_COMPARED]
    if not compared:
        return "\n".join([*lines, *other]).rstrip() + "\n"
    lines += ["| Block | Wager | Figure | Stated | Computed | Verdict |", "|---|---|---|---:|---:|---|"]
    for c in compared:
        verdict = c.verdict if not c.message else f"{c.verdict}: {c.message}"
        lines.append(f"| {c.block} | {literal(c.wager)} | {literal(c.figure)} | {literal(c.expected)} | {c.computed} "
                     f"| {literal(verdict)} |")
    lines += ["", held_text(compared), ""]
    return "\n".join([*lines, *other]).rstrip() + "\n"


def render_markdown(a: Analysis, prepared: Prepared | None = None) -> str:
    """The whole report as Markdown (with ``prepared``: its date, and by and for whom it was prepared)."""
    t = a.table
    out = [f"# {literal(t.title)}", ""]
    out += [f"> {literal(h)}" for h in a.lead] + [""]
    out += [
        f"- Game: `{a.game}` · table: `{t.id}` · sha256 `{t.sha256}`",
        f"- oddscalc {__version__}",
        *(f"- **{label}:** {literal(value)}" for label, value in (prepared.fields() if prepared else ())),
        f"- Counting convention: {a.convention}",
        f"- Rules as resolved: {literal(rules_text(a))}",
    ]
    if t.model.description:
        out += ["", _plain(t.model.description.strip())]
    if a.assumptions:
        out += ["", "**Assumptions** (not stated by the rule sheet):", ""]
        out += [f"- {literal(s)}" for s in a.assumptions]
    out.append("")
    for w in a.wagers:
        out.append(wager_markdown(w))
    checks = published_markdown(a)
    if checks:
        out.append(checks)
    elif other_figures(a) is not None:
        out.append("\n".join(["## Other figures", "", *other_markdown(a)]))
    for s in a.sections:
        out.append(section_markdown(s))
    return "\n".join(out).rstrip() + "\n"
