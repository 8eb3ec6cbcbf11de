"""Check a table's ``[published]`` and ``[claimed]`` figures against the exact analysis.

A figure is written under its wager (``[published.main]``) by name:

- a :class:`~oddscalc.exact.WagerResult` figure: ``expected_value``, ``house_edge``,
  ``element_of_risk``, ``average_stake``, ``hit_frequency``, ``standard_deviation``,
  ``total_combinations``, ``variance``;
- ``return_to_player`` (1 + expected value, the way casinos state RTP: "94.78%");
- ``rows.<event>.<field>`` with a field of the JSON report's rows (``combinations``,
  ``probability``, ``units``, ``stake``, ``return``), also as a nested table
  ``[published.main.rows.royal_flush_3_bets]``; a bare event id is short for its
  ``combinations`` (``tie = 475627426473216``), the way sources list outcomes;
- a key of the wager's ``extras``.

A figure of a report section is written under ``[published.sections.<section id>]`` as
``"<row>.<column>"``, the row named by its first cell (``"matching-rank.total_loss"`` in
Caribbean's ``strategies_compared``): for sources that publish a comparison, not one wager.

A source's figure that is wrong, for a reason found and stated (a table printed from floats, a
typo), is not tuned away: it goes in a ``[[published.differs]]`` entry (``wager``, ``figure``,
``published``, ``reason``; ``wager = "sections.<section id>"`` for a section's cell), and the
report shows it beside the exact value with the reason. Such an
entry must still differ: once the figure agrees it is an ERROR (move it back among the figures).

A trailing ``_precise`` names the same figure (a second, more precise printing of it).

How a value is compared is read off how it is written: an integer or a ``"p/q"`` string is
exact; a decimal or percent string ("3.51%", "0.07276018", "1.5e-5") is a rounded figure and
holds when the exact value lies within half a unit of its last printed digit. No float is
involved: the interval ends are Fractions, and the standard deviation is compared through the
exact variance (sqrt(V) lies in [lo, hi] iff lo^2 <= V <= hi^2 for lo, hi >= 0).
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from oddscalc.datafile import Problem, TableError, key_lines, line_for, read_text
from oddscalc.exact import bounded_number, decimal_str, frac_str
from oddscalc.results import NOT_COMPARED, Check, Section, WagerResult
from oddscalc.tables import (
    DIFFERS,
    FIGURE_BLOCKS,
    PRECISE,
    ROW_FIGURES,
    SECTIONS,
    Published,
    Table,
    differing_keys,
    differs_shape,
    figure_names,
    rules_and_pays,
    rules_and_pays_sha256,
)

BLOCKS = FIGURE_BLOCKS
WAGER_FIGURES = (
    "expected_value", "house_edge", "element_of_risk", "average_stake", "hit_frequency",
    "standard_deviation", "total_combinations", "variance",
)
RTP = "return_to_player"


class FigureError(ValueError):
    """A published figure that cannot be checked: unknown name, missing wager, bad value."""


# --- expected values ---------------------------------------------------------------------



@dataclass(frozen=True)
class Expected:
    """A figure as written, and the exact interval it stands for (low == high when exact)."""

    text: str
    low: Fraction
    high: Fraction
    percent: bool  # written as a percentage: print the computed value the same way
    places: int | None  # decimals printed (of the percentage when percent); None when exact

    @property
    def exact(self) -> bool:
        """Written exactly (an integer or p/q), not rounded."""
        return self.places is None

    def holds(self, value: Fraction) -> bool:
        """Whether ``value`` lies in the interval the printed figure stands for."""
        return self.low <= value <= self.high

    def holds_sqrt(self, square: Fraction) -> bool:
        """Whether sqrt(square) is within the interval, decided exactly."""
        if self.high < 0:
            return False
        return (self.low <= 0 or self.low**2 <= square) and square <= self.high**2


def parse_expected(value: object) -> Expected:
    """Read a published value: int or "p/q" exact; decimal or percent string rounded."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        kind = "true/false" if isinstance(value, bool) else f"the {type(value).__name__} {value!r}"
        raise FigureError(f"write a figure as an integer or a string such as \"3.51%\" or \"3/7\", not {kind}")
    if isinstance(value, int):
        return Expected(str(value), Fraction(value), Fraction(value), False, None)
    text = value.strip()
    body = text.replace(",", "").replace("_", "").replace(" ", "")
    percent = body.endswith("%")
    if percent:
        body = body[:-1]
    scale = Fraction(1, 100) if percent else Fraction(1)
    try:
        v, places = bounded_number(body)
    except ValueError as e:
        raise FigureError(f"not a number: {value!r}" if str(e).startswith("not a number") else str(e)) from None
    v *= scale
    if places is None:
        return Expected(text, v, v, percent, None)
    half = Fraction(1, 2) * Fraction(10) ** -places * scale
    return Expected(text, v - half, v + half, percent, places)


# --- computed values -----------------------------------------------------------------------


@dataclass(frozen=True)
class Sqrt:
    """The non-negative square root of an exact value (the standard deviation)."""

    square: Fraction


Computed = Fraction | Sqrt


def figure_value(w: WagerResult, name: str) -> Computed:
    """The exact value of the figure ``name`` of wager ``w``; FigureError if there is none."""
    base = name.removesuffix(PRECISE)
    if base.startswith("rows."):
        return _row_figure(w, name, base)
    if base == RTP:
        return 1 + w.expected_value
    if base == "standard_deviation":
        return Sqrt(w.variance)
    if base == "element_of_risk" and w.element_of_risk is None:
        raise FigureError(f"element_of_risk is not defined for wager {w.wager!r} (its stake never varies)")
    if base in WAGER_FIGURES:
        return Fraction(getattr(w, base))
    if any(r.event == base for r in w.rows):
        return Fraction(w.row(base).combinations)
    if base in w.extras:
        return Fraction(w.extras[base])
    known = [*WAGER_FIGURES, RTP, "rows.<event>.<figure>", "<event> (its combinations)", *w.extras]
    raise FigureError(f"unknown figure {name!r} for wager {w.wager!r}; known: {', '.join(known)}")


def _row_figure(w: WagerResult, name: str, base: str) -> Fraction:
    parts = base.split(".")
    if len(parts) != 3 or parts[2] not in ROW_FIGURES:
        raise FigureError(f"{name!r}: write rows.<event>.<figure> with a figure of: {', '.join(ROW_FIGURES)}")
    try:
        row = w.row(parts[1])
    except KeyError:
        raise FigureError(f"no event {parts[1]!r} in wager {w.wager!r}; events: "
                          + ", ".join(r.event for r in w.rows)) from None
    field = parts[2]
    if field == "combinations":
        return Fraction(row.combinations)
    if field == "probability":
        return w.probability(row)
    if field == "return":
        return w.row_return(row)
    return Fraction(getattr(row, field))


def _shown(value: Computed, like: Expected) -> str:
    """The computed value printed like the expected one, with two more digits."""
    if isinstance(value, Sqrt):
        x = math.sqrt(value.square) * (100 if like.percent else 1)
        places = 8 if like.places is None else max(like.places + 2, 0)
        return f"{x:.{places}f}" + ("%" if like.percent else "")
    if like.places is None:
        return frac_str(value * 100) + "%" if like.percent else frac_str(value)
    places = max(like.places + 2, 0)
    return decimal_str(value * 100, places) + "%" if like.percent else decimal_str(value, places)


# --- checks ----------------------------------------------------------------------------------

OK, MISMATCH, ERROR = "ok", "MISMATCH", "ERROR"  # and DIFFERS: a figure listed under [[differs]] that differs


def check_figure(table: str, block: str, w: WagerResult, name: str, value: object) -> Check:
    """Compare one figure of one wager; never raises for a bad name or value."""
    shown_expected = value if isinstance(value, str) else repr(value)
    try:
        expected = parse_expected(value)
        computed = figure_value(w, name)
    except FigureError as e:
        return Check(table, block, w.wager, name, shown_expected, "", ERROR, str(e))
    good = expected.holds_sqrt(computed.square) if isinstance(computed, Sqrt) else expected.holds(computed)
    return Check(table, block, w.wager, name, expected.text, _shown(computed, expected), OK if good else MISMATCH)


def blocks(table: Table) -> list[tuple[str, Published]]:
    """The table's figure blocks present, in a fixed order."""
    out = []
    for name in BLOCKS:
        block = getattr(table.model, name)
        if block is not None:
            out.append((name, block))
    return out


def other_table(table: Table, block: Published) -> str | None:
    """Why ``block``'s figures do not apply to ``table`` ("this table differs from the one these figures describe
    in pays.main.straight_flush"), or None when they do: the block states the fingerprint of the rules and pays it
    was published for, and the table's own is another. The keys are named from the shipped table of that
    fingerprint (the table this one was copied from); a block stating no fingerprint applies as written."""
    stated = block.rules_and_pays_sha256
    if stated is None or stated == rules_and_pays_sha256(table.model):
        return None
    from oddscalc.catalog import load_table, shipped_tables

    for path in shipped_tables(table.game):
        origin = load_table(path).model
        if rules_and_pays_sha256(origin) == stated:
            keys = differing_keys(rules_and_pays(origin), rules_and_pays(table.model))
            return ("this table differs from the one these figures describe in " + ", ".join(keys)
                    + f" (they describe the shipped table {path.stem!r})")
    return ("this table differs from the one these figures describe: its rules and pays have the fingerprint "
            f"{rules_and_pays_sha256(table.model)}, the figures' {stated} (oddscalc tables copy makes a table "
            "without them)")


def checks_for(table: Table, wagers: Sequence[WagerResult], label: str,
               sections: Sequence[Section] = ()) -> list[Check]:
    """Every figure of every block of ``table`` against the analysed ``wagers`` and report
    ``sections``, in file order."""
    by_name = {w.wager: w for w in wagers}
    checks: list[Check] = []
    for block_name, block in blocks(table):
        elsewhere = other_table(table, block)
        if elsewhere is not None:
            checks.append(Check(label, block_name, "", "", "", "", NOT_COMPARED, elsewhere))
            continue
        for key, figs in (block.model_extra or {}).items():
            if key == DIFFERS and isinstance(figs, list):
                checks.extend(_differs(label, block_name, figs, by_name, sections))
                continue
            if not isinstance(figs, dict):
                checks.append(Check(label, block_name, "", key, str(figs), "", ERROR,
                                    f"figure {key!r} is not under a wager: write it in [{block_name}.<wager>], "
                                    f"e.g. [{block_name}.{wagers[0].wager}]"))
                continue
            if key == SECTIONS and key not in by_name:
                checks.extend(_section_checks(label, block_name, figs, sections))
                continue
            w = by_name.get(key)
            if w is None:
                checks.append(Check(label, block_name, key, "", "", "", ERROR,
                                    f"no wager {key!r} in this game; wagers: {', '.join(by_name)}"))
                continue
            for name, value in figure_names(figs):
                checks.append(check_figure(label, block_name, w, name, value))
    return checks


def _differs(label: str, block: str, entries: list[Any], wagers: Mapping[str, WagerResult],
             sections: Sequence[Section]) -> list[Check]:
    out = []
    for i, e in enumerate(entries, start=1):
        where = f"{DIFFERS} #{i}"
        shape = differs_shape(block, e)
        if shape is not None:
            out.append(Check(label, block, where, "", "", "", ERROR, shape))
            continue
        section_id = e["wager"].removeprefix(f"{SECTIONS}.") if e["wager"].startswith(f"{SECTIONS}.") else None
        by_id = {s.id: s for s in sections}
        w = wagers.get(e["wager"])
        if section_id is not None and section_id in by_id:
            c = check_cell(label, block, by_id[section_id], e["figure"], e["published"])
        elif w is not None:
            c = check_figure(label, block, w, e["figure"], e["published"])
        else:
            why = (_no_section(section_id, by_id) if section_id is not None else
                   f"no wager {e['wager']!r} in this game; wagers: {', '.join(wagers)} (or sections.<section id>)")
            out.append(Check(label, block, e["wager"], e["figure"], "", "", ERROR, why))
            continue
        if c.verdict == OK:
            c = dataclasses.replace(c, verdict=ERROR, message=f"listed under {DIFFERS} but it holds: move it back "
                                                               "among the figures")
        elif c.verdict == MISMATCH:
            c = dataclasses.replace(c, verdict=DIFFERS, message=e["reason"].strip())
        out.append(c)
    return out


def _section_checks(label: str, block: str, figs: Mapping[str, Any], sections: Sequence[Section]) -> list[Check]:
    by_id = {s.id: s for s in sections}
    out = []
    for section_id, cells in figs.items():
        where = f"{SECTIONS}.{section_id}"
        s = by_id.get(section_id)
        if s is None or not isinstance(cells, dict):
            why = (f"write the figures of section {section_id!r} in [{block}.{where}]" if s is not None else
                   _no_section(section_id, by_id))
            out.append(Check(label, block, where, "", "", "", ERROR, why))
            continue
        out.extend(check_cell(label, block, s, name, value) for name, value in figure_names(cells))
    return out


def _no_section(section_id: str, by_id: Mapping[str, Section]) -> str:
    return f"no section {section_id!r} in this report; sections: {', '.join(by_id) or 'none'}"


def check_cell(label: str, block: str, s: Section, name: str, value: object) -> Check:
    """Compare one figure of one report section; never raises for a bad name or value."""
    where = f"{SECTIONS}.{s.id}"
    shown = value if isinstance(value, str) else repr(value)
    try:
        expected = parse_expected(value)
        computed = section_value(s, name)
    except FigureError as e:
        return Check(label, block, where, name, shown, "", ERROR, str(e))
    return Check(label, block, where, name, expected.text, _shown(computed, expected),
                 OK if expected.holds(computed) else MISMATCH)


def section_value(s: Section, name: str) -> Fraction:
    """The numeric cell ``"<row>.<column>"`` of a section, its row named by its first cell."""
    row, _, column = name.rpartition(".")
    ids = [c.id for c in s.columns]
    if not row or column not in ids:
        raise FigureError(f"{name!r}: write <row>.<column> with a column of section {s.id!r}: {', '.join(ids)}")
    found = [r for r in s.rows if str(r[0]) == row]
    if not found:
        raise FigureError(f"no row {row!r} in section {s.id!r}; rows: {', '.join(str(r[0]) for r in s.rows)}")
    cell = found[0][ids.index(column)]
    if isinstance(cell, bool) or not isinstance(cell, (int, Fraction)):
        raise FigureError(f"{name!r} is not a number in section {s.id!r}")
    return Fraction(cell)


def named_sections(table: Table) -> frozenset[str]:
    """The report sections the table's figure blocks name (a game may skip unnamed ones in brief runs)."""
    names: set[str] = set()
    for _, block in blocks(table):
        extra = block.model_extra or {}
        figs = extra.get(SECTIONS)
        if isinstance(figs, dict):
            names.update(figs)
        for e in extra.get(DIFFERS) or ():
            if isinstance(e, dict) and isinstance(e.get("wager"), str) and e["wager"].startswith(f"{SECTIONS}."):
                names.add(e["wager"].removeprefix(f"{SECTIONS}."))
    return frozenset(names)


MAX_DEPTH = 32  # tables/<game>/<id>.toml is two deep; a folder nested past this is no folder of tables


def table_paths(paths: Sequence[Path]) -> list[Path]:
    """The files to verify: each given file, every ``*.toml`` under each given folder (walked without
    recursion and without following links to folders, so a loop or a deep nest cannot exhaust the stack);
    ValueError for a folder nested deeper than MAX_DEPTH."""
    out: list[Path] = []
    for p in paths:
        if not p.is_dir():
            out.append(p)
            continue
        found: list[Path] = []
        todo = [(p, 0)]
        while todo:
            folder, depth = todo.pop()
            if depth > MAX_DEPTH:
                raise ValueError(f"{p}: folders nested more than {MAX_DEPTH} deep; name the folder of tables itself")
            try:
                entries = list(os.scandir(folder))
            except OSError as e:
                raise ValueError(f"{folder}: cannot be read ({e.strerror or e})") from None
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    todo.append((Path(entry.path), depth + 1))
                elif entry.name.endswith(".toml"):
                    found.append(Path(entry.path))
        out.extend(sorted(found))
    return out


# --- output ----------------------------------------------------------------------------------

COLUMNS = ("table", "block", "wager", "figure", "expected", "computed", "verdict")


def render_checks(checks: Iterable[Check], summary: bool = False) -> str:
    """A plain-text verdict table, one line per figure, with the reasons of the explained differences below it, and
    a line for each block of figures not compared (they describe another table); with ``summary``, how many hold."""
    checks = list(checks)
    compared = [c for c in checks if c.verdict != NOT_COMPARED]
    rows = [COLUMNS] + [(c.table, c.block, c.wager, c.figure, c.expected, c.computed, c.verdict) for c in compared]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    lines = ["  ".join(cell.ljust(wd) for cell, wd in zip(r, widths)).rstrip() for r in rows] if compared else []
    if compared:
        lines.insert(1, "  ".join("-" * wd for wd in widths))
    lines += [f"{c.table} [{c.block}.{c.wager}] {c.figure}: the source says {c.expected}, exactly {c.computed}: "
              f"{c.message}" for c in checks if c.verdict == DIFFERS]
    lines += [f"{c.table} [{c.block}] not compared: {c.message}" for c in checks if c.verdict == NOT_COMPARED]
    if summary and compared:
        held = sum(c.ok for c in compared)
        lines.append(f"{held} of {len(compared)} figure(s) hold in {len({c.table for c in compared})} table(s)")
    return "\n".join(lines) + "\n"


def describe_failure(c: Check) -> str:
    """One failed check in a line: where, expected and computed (or why it could not be checked)."""
    where = f"{c.table} [{c.block}.{c.wager}] {c.figure}".rstrip()
    if c.verdict == ERROR:
        return f"{where}: {c.message}"
    return f"{where}: expected {c.expected}, computed {c.computed}"


def figure_problems(table: Table, checks: Sequence[Check]) -> list[Problem]:
    """The figures of ``table``'s blocks that cannot be checked (an unknown event, figure, section or cell, a bad
    value, a ``differs`` entry that holds), as problems of the file with line and key: what ``oddscalc validate``
    refuses, so that no figure it accepts is refused later by ``verify``."""
    try:
        lines = key_lines(read_text(table.path)[0])
    except TableError:
        lines = {}
    out = []
    for c in checks:
        if c.verdict != ERROR:
            continue
        where = c.wager.split(" #")[0].split(".") if c.wager else []
        loc = (c.block, *where, *(c.figure.split(".") if c.figure and " #" not in c.wager else ()))
        out.append(Problem(str(table.path), line_for(lines, loc), ".".join(loc), c.message))
    return out
