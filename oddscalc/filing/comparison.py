"""Tables of one game side by side: what their rules and pays differ in, each wager's figures, the rows
whose counts change and the strategy decisions that flip, against the first table.

A comparison is data (sections with stable ids), so it renders in every report format.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from oddscalc.exact import decimal_str
from oddscalc.filing.paytools import Flips, decision_flips
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, Cell, Column, Section
from oddscalc.tables import Money, ratio_text

FIGURES = (("expected_value", "Expected value"), ("house_edge", "House edge"),
           ("element_of_risk", "Element of risk"))  # shares of a unit, shown as percentages
STAKE = ("average_stake", "Average stake")  # units staked per unit, a multiple: its own table


def _flat(prefix: str, obj: Any) -> dict[str, Any]:
    if hasattr(type(obj), "model_fields"):
        obj = {k: v for k, v in obj}
    if isinstance(obj, dict):
        out: dict[str, Any] = {}
        for k, v in obj.items():
            out.update(_flat(f"{prefix}.{k}" if prefix else str(k), v))
        return out
    return {prefix: obj}


def shown_value(v: Any) -> str:
    """A rule or pay value as a table file would print it."""
    if isinstance(v, Money):
        return f"{v.numerator:,}" if v.denominator == 1 else decimal_str(v, 2)
    if isinstance(v, Fraction):
        return ratio_text(v)
    if isinstance(v, (tuple, list)):  # a side bet's rules, a set of draws: each as a file would say it
        return "; ".join(shown_value(x) for x in v) if v else "(none)"
    if hasattr(type(v), "model_fields"):  # a rule: what it pays, named by its label as the report names it
        fields = dict(v)
        if "pays" in fields and ("label" in fields or "event" in fields):
            return f"{fields.get('label') or fields.get('event')}: {shown_value(fields['pays'])}"
        return ", ".join(f"{k} {shown_value(x)}" for k, x in fields.items())
    return "(none)" if v is None else str(v)


def letter(i: int) -> str:
    """A, B, .. Z, then T27, T28 .."""
    return string.ascii_uppercase[i] if i < 26 else f"T{i + 1}"


@dataclass(frozen=True)
class Comparison:
    """Analyses of one game side by side; the first is the reference for changes and flips."""

    analyses: tuple[Analysis, ...]
    differences: tuple[tuple[str, tuple[str, ...]], ...]  # (key, its value in each table) of rules and pays
    flips: tuple[tuple[Flips, ...], ...]  # each later table's flips against the first

    @property
    def game(self) -> str:
        """The game compared."""
        return self.analyses[0].game

    def sections(self) -> tuple[Section, ...]:
        """The comparison as report sections."""
        names = [letter(i) for i in range(len(self.analyses))]
        out = [Section("tables", "Tables", (Column("table", "Table"), Column("id", "Id"), Column("title", "Title"),
                                             Column("sha256", "sha256")),
                       tuple((n, a.table.id, a.table.title, a.table.sha256) for n, a in zip(names, self.analyses)))]
        out.append(Section(
            "differences", "Rule and pay differences", (Column("key", "Key"), *(Column(n, n) for n in names)),
            tuple((k, *vals) for k, vals in self.differences),
            notes=() if self.differences else ("None: the tables play and pay the same.",)))
        wagers: list[str] = []
        for a in self.analyses:
            wagers += [w.wager for w in a.wagers if w.wager not in wagers]
        for wager in wagers:
            out += self._wager_sections(wager, names)
        rows: list[tuple[Cell, ...]] = []
        for n, flips in zip(names[1:], self.flips):
            for f in flips:
                rows.append((f.name, f"A to {n}", f.points, f.combinations, "; ".join(f.examples)))
        first = self.analyses[0]
        out.append(Section(
            "decision_flips", "Strategy decisions that flip",
            (Column("decision", "Decision"), Column("tables", "Tables"), Column("points", "Decision points", "int"),
             Column("combinations", "Combinations", "int"), Column("examples", "Examples")),
            tuple(rows), notes=() if first.decisions else ("This game's report exposes no per-point decisions.",)))
        return tuple(out)

    @staticmethod
    def _figure_columns(names: Sequence[str], kind: str, places: int) -> tuple[Column, ...]:
        signed = "signed_percent" if kind == "percent" else kind  # a change says which way it goes
        return (Column("figure", "Figure"), *(Column(n, n, kind, places) for n in names),
                *(Column(f"{n}_minus_A", f"{n} - A", signed, places) for n in names[1:]))

    @staticmethod
    def _figure_rows(found: Sequence[Any], figures: Sequence[tuple[str, str]]) -> tuple[tuple[Cell, ...], ...]:
        rows: list[tuple[Cell, ...]] = []
        for attr, title in figures:
            values = [getattr(w, attr) if w is not None else None for w in found]
            if all(v is None for v in values):
                continue
            base = values[0]
            rows.append((title, *values, *(None if v is None or base is None else v - base for v in values[1:])))
        return tuple(rows)

    def _wager_sections(self, wager: str, names: Sequence[str]) -> list[Section]:
        found = [next((w for w in a.wagers if w.wager == wager), None) for a in self.analyses]
        ref = found[0]
        present = ", ".join(n for n, w in zip(names, found) if w is not None)
        intro = (f"In tables {present}.",) if None in found else ()
        out = [Section(f"figures_{wager}", f"{wager}: figures",
                       self._figure_columns(names, "percent", 4), self._figure_rows(found, FIGURES), intro=intro),
               Section(f"stakes_{wager}", f"{wager}: average total stake, in units",
                       self._figure_columns(names, "decimal", 6), self._figure_rows(found, (STAKE,)), intro=intro)]
        if ref is None:
            return out
        totals = {w.total_combinations for w in found if w is not None}
        counts = [{r.event: r.combinations for r in w.rows} if w is not None else {} for w in found]
        events: list[str] = [r.event for r in ref.rows]
        for c in counts[1:]:
            events += [e for e in c if e not in events]
        changed = [(e, *(c.get(e) for c in counts)) for e in events if len({c.get(e) for c in counts}) > 1]
        notes = (("Totals differ: the rows count different deals and are not comparable.",) if len(totals) > 1 else
                 () if changed else ("Every row has the same combinations.",))
        out.append(Section(f"changed_rows_{wager}", f"{wager}: rows whose combinations change",
                           (Column("event", "Event"), *(Column(n, n, "int") for n in names)),
                           tuple(changed) if len(totals) == 1 else (), notes=notes))
        return out


def compare(analyses: Sequence[Analysis]) -> Comparison:
    """Two or more analyses of one game side by side."""
    if len(analyses) < 2:
        raise OptionError("compare needs at least two tables")
    games = {a.game for a in analyses}
    if len(games) > 1:
        raise OptionError(f"compare tables of one game, not {', '.join(sorted(games))}")
    flat = [{**_flat("rules", dict(a.rules)), **_flat("pays", getattr(a.table.model, "pays", {}))} for a in analyses]
    keys = sorted(set().union(*flat))
    diffs = tuple((k, tuple(shown_value(f.get(k)) for f in flat)) for k in keys
                  if len({repr(f.get(k)) for f in flat}) > 1)
    flips = tuple(tuple(decision_flips(analyses[0].decisions, a.decisions)) for a in analyses[1:])
    return Comparison(tuple(analyses), diffs, flips)
