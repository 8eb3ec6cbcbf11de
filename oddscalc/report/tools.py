"""The regulator's tools as text: a solved pay (``oddscalc solve``) and tables compared (``oddscalc compare``)."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

from oddscalc import __version__
from oddscalc.exact import decimal_str, frac_str, percent_str
from oddscalc.filing.comparison import Comparison, letter
from oddscalc.filing.paytools import Solution
from oddscalc.report.cells import cell_json, cell_text
from oddscalc.report.csv import sheet_text
from oddscalc.report.json import section_data
from oddscalc.report.markdown import section_markdown
from oddscalc.tables import ratio_text


def short_percent(x: Fraction) -> str:
    """A percentage as short as it is exact ("5%", "2.5%"), else to six places with the exact fraction."""
    for places in range(7):
        if (x * 100 * 10**places).denominator == 1:
            return percent_str(x, places)
    return f"{percent_str(x, 6)} ({frac_str(x)})"


def side(edge: Fraction, target: Fraction) -> str:
    """On which side of the target an edge lands, with the digits that show it: "5.000304%, just above the 5%
    asked" (to the first place where the two differ, and two more; "just" within a thousandth of a point)."""
    if edge == target:
        return f"exactly the {short_percent(target)} asked"
    places = 4
    while percent_str(edge, places) == percent_str(target, places) and places < 30:
        places += 1
    where = "above" if edge > target else "below"
    near = "just " if abs(edge - target) < Fraction(1, 100_000) else ""
    return f"{percent_str(edge, places + 2)}, {near}{where} the {short_percent(target)} asked"


def solution_text(s: Solution) -> str:
    """The exact pay, the printable pays around it, and the Newton steps."""
    lines = [f"Pay {s.ref} for a house edge of {percent_str(s.target, 6)} on the {s.wager} wager:", "",
             f"  exact pay:   {frac_str(s.pay)} to 1  (= {decimal_str(s.pay, 6)} to 1)"]
    for c, he in s.printable:
        lines.append(f"  printable:   {ratio_text(c)}  -> house edge {percent_str(he, 4)} ({side(he, s.target)})")
    lines += ["", "Steps (pay tried, house edge there, strategy changes from the step before):"]
    for i, st in enumerate(s.steps, 1):
        changed = ", ".join(f"{f.name}: {f.points:,} decision points ({f.combinations:,} combinations)"
                            for f in st.flips if f.points) or "none"
        lines.append(f"  {i}. pay {decimal_str(st.pay, 6)} -> edge {percent_str(st.house_edge, 6)}; changes: {changed}")
        for f in st.flips:
            for e in f.examples[:3]:
                lines.append(f"       {f.name}: {e}")
    return "\n".join(lines) + "\n"


def _comparison_facts(c: Comparison) -> list[str]:
    return [f"Game: {c.game}", f"oddscalc {__version__}",
            *(f"{letter(i)}: {a.table.id}: {a.table.title} (sha256 {a.table.sha256[:16]}...)"
              for i, a in enumerate(c.analyses)),
            "Changes and flips are against table A."]


def _comparison_title(c: Comparison) -> str:
    return f"{c.game}: " + " vs ".join(a.table.id for a in c.analyses)


def compare_text(c: Comparison) -> str:
    """The comparison as Markdown."""
    out = [f"# {_comparison_title(c)}", ""] + [f"- {f}" for f in _comparison_facts(c)] + [""]
    out += [section_markdown(s) for s in c.sections()]
    return "\n".join(out).rstrip() + "\n"


def compare_json(c: Comparison) -> str:
    """The comparison as JSON: the tables, then the sections by id, exact values as "p/q"."""
    data = {"oddscalc_version": __version__, "game": c.game,
            "tables": [{"id": a.table.id, "title": a.table.title, "table_sha256": a.table.sha256}
                       for a in c.analyses],
            "sections": {s.id: section_data(s) for s in c.sections()}}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def compare_csv(c: Comparison) -> str:
    """The comparison as CSV, one line per cell: section, row, column, exact value, as printed."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(["section", "row", "column", "value", "shown"])
    for s in c.sections():
        for i, row in enumerate(s.rows):
            for col, v in zip(s.columns, row):
                exact = cell_json(v)
                out.writerow([s.id, i, col.id, "" if exact is None else sheet_text(str(exact)),
                              sheet_text(cell_text(v, col))])
    return buf.getvalue()


def render_comparison(c: Comparison, fmt: str) -> str | bytes:
    """The comparison in any report format."""
    if fmt == "md":
        return compare_text(c)
    if fmt == "json":
        return compare_json(c)
    if fmt == "csv":
        return compare_csv(c)
    if fmt == "xlsx":
        from oddscalc.report.xlsx import render_sections_xlsx

        facts = [(f.split(": ", 1)[0], f.split(": ", 1)[-1]) for f in _comparison_facts(c)]
        return render_sections_xlsx(_comparison_title(c), facts, c.sections())
    from oddscalc.report.document import sections_document

    doc = sections_document(_comparison_title(c), _comparison_facts(c), c.sections())
    if fmt == "html":
        from oddscalc.report.html import html_of

        return html_of(doc)
    from oddscalc.report.pdf import pdf_of

    return pdf_of(doc)
