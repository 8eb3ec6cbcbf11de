"""The HTML the page shows, rendered by Jinja2 templates shipped as package data (``workbench/templates``) with
autoescape on: every text from a table, a card or an upload is escaped, as in every other format, and a control
character is shown as U+FFFD (:func:`~oddscalc.report.cells.no_controls`). The charts are the report's own SVG.

Each figure the page shows carries its exact value in a ``data-exact`` attribute ("p/q"), so that a test, or a
user's script, reads the same figure ``oddscalc report --format json`` gives.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import jinja2
from markupsafe import Markup

from oddscalc.exact import decimal_str, frac_str, percent_str
from oddscalc.report.cells import cell_json, cell_text, no_controls
from oddscalc.report.document import units_text
from oddscalc.report.svg import render_chart
from oddscalc.results import NUMERIC_KINDS, Analysis, Bars, Section, WagerResult


@cache
def environment() -> jinja2.Environment:
    """The templates, autoescaped."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("oddscalc.web", "templates"),
                             autoescape=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    env.filters["exact"] = frac_str
    env.filters["percent"] = percent_str
    return env


def render(template: str, **context: Any) -> str:
    """A template rendered, control characters shown as U+FFFD."""
    return no_controls(environment().get_template(template).render(**context))


@dataclass(frozen=True)
class Figures:
    """One wager's headline figures as the page shows them: (label, exact, shown) each."""

    wager: WagerResult
    cells: tuple[tuple[str, str, str, str], ...]  # (id, label, exact "p/q" or "", as shown)


def figures(w: WagerResult) -> Figures:
    """The verdict's figures of one wager: EV, house edge, element of risk, SD, hit frequency."""
    eor = w.element_of_risk
    return Figures(w, (
        ("expected_value", f"EV per {w.unit}", frac_str(w.expected_value), decimal_str(w.expected_value, 8)),
        ("house_edge", "House edge", frac_str(w.house_edge), percent_str(w.house_edge)),
        ("element_of_risk", "Element of risk", "" if eor is None else frac_str(eor),
         "n/a" if eor is None else percent_str(eor)),
        ("standard_deviation", "SD", "", f"{w.standard_deviation:.4f}"),
        ("hit_frequency", "Hit frequency", frac_str(w.hit_frequency), percent_str(w.hit_frequency)),
    ))


def return_rows(w: WagerResult) -> list[tuple[str, str, str, str, str, str]]:
    """A wager's return table as the report prints it: event, pays, units, combinations, probability, return."""
    rows = [(r.label, r.pays, units_text(r.units), f"{r.combinations:,}", decimal_str(w.probability(r), 10),
             decimal_str(w.row_return(r), 10)) for r in w.rows]
    rows.append(("Total", "", "", f"{w.total_combinations:,}", "1.0000000000", decimal_str(w.expected_value, 10)))
    return rows


def return_chart(w: WagerResult) -> str:
    """Where the wager's winnings come from: each winning event's share of the total won (an SVG bar chart)."""
    won = [(r.label, r.units * r.combinations) for r in w.rows if r.units > 0 and r.combinations]
    total = sum((x for _, x in won), Fraction(0))
    if len(won) < 2 or total == 0:  # one bar of 100% says nothing the return table does not
        return ""
    chart = Bars(f"workbench-{w.wager}", f"{w.title}: where the winnings come from", tuple(label for label, _ in won),
                 tuple(Fraction(x) / total for _, x in won),
                 f"each winning event's share of all the units won; hit frequency {percent_str(w.hit_frequency)}")
    return render_chart(chart)


def results(a: Analysis, label: str, note: str = "") -> str:
    """The live part of the page: verdict, figures, return tables and charts of an analysis."""
    return render("results.html.j2", a=a, label=label, note=note, wagers=[figures(w) for w in a.wagers],
                  rows={w.wager: return_rows(w) for w in a.wagers},
                  charts={w.wager: Markup(return_chart(w)) for w in a.wagers})


def section_cells(s: Section) -> list[list[tuple[str, bool, str]]]:
    """A section's cells as text, each with whether it is a number (aligned right) and its exact value as the JSON
    report writes it (a ``data-exact`` attribute: what a test compares with ``--format json``)."""
    return [[(cell_text(v, c), c.kind in NUMERIC_KINDS, json.dumps(cell_json(v))) for v, c in zip(row, s.columns)]
            for row in s.rows]


def differing_rows(s: Section, columns: Sequence[str]) -> list[bool]:
    """For each row, whether its values under ``columns`` (a comparison's tables, by letter) are not all equal:
    compared exactly, before any rounding for the page."""
    where = [i for i, c in enumerate(s.columns) if c.id in columns]
    return [len(where) > 1 and len({repr(row[i]) for i in where}) > 1 for row in s.rows]


def sections(items: Sequence[Section], highlight: Sequence[str] = (), tables: Sequence[str] = ()) -> str:
    """Report sections as HTML tables; the sections named in ``highlight`` marked (a comparison's differences),
    and each row whose values differ among the ``tables`` columns (a comparison's A, B, ...)."""
    return render("sections.html.j2", sections=[(s, section_cells(s), differing_rows(s, tables)) for s in items],
                  highlight=set(highlight))


def error(message: str) -> str:
    """An error as the page shows it (escaped, one paragraph per line)."""
    return render("error.html.j2", lines=message.splitlines())
