"""A report as a printable document: the Markdown report's content as plain blocks (headings,
paragraphs, lists, tables, charts), which the HTML and PDF renderers lay out.

Every figure of the Markdown report is here in the same words and the same rounding: the facts of
a wager come from :func:`wager_facts`, which the Markdown renderer uses too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from oddscalc import __version__
from oddscalc.exact import decimal_str, frac_str, one_in, percent_str
from oddscalc.report.cells import cell_text
from oddscalc.results import NOT_COMPARED, NUMERIC_KINDS, Analysis, Chart, Check, Section, WagerResult


def units_text(u: Fraction) -> str:
    """A row's net units: exact, signed when whole."""
    return frac_str(u) if u.denominator != 1 else f"{u.numerator:+d}" if u else "0"


def wager_facts(w: WagerResult, strong: Callable[[str], str] = str, text: Callable[[str], str] = str,
                extras: bool = False) -> list[str]:
    """The figures of one wager, one line each (``strong`` marks the headline numbers; ``text`` makes a text that
    may come from a file, such as a card's title or a side bet's note, literal in the document's markup). The
    wager's other figures (``extras``, what published analyses state beside the return table) are listed with
    ``extras`` only: a report shows them apart, labelled (:func:`other_figures`)."""
    eor = w.element_of_risk
    lines = [
        f"Strategy: {text(w.strategy_title or w.strategy)}",
        f"Expected value per {w.unit}: {strong(decimal_str(w.expected_value, 8))} (exact {frac_str(w.expected_value)})",
        f"House edge: {strong(percent_str(w.house_edge))} of the {w.unit}",
    ]
    if eor is not None:
        lines.append(f"Element of risk (edge per unit actually staked): {percent_str(eor)}")
        lines.append(f"Average total stake: {decimal_str(w.average_stake, 6)} (exact {frac_str(w.average_stake)})")
    lines += [
        f"Standard deviation: {w.standard_deviation:.4f} (variance {decimal_str(w.variance, 6)})",
        f"Volatility index: {w.volatility_index['90']:.4f} at 90%, {w.volatility_index['95']:.4f} at 95%",
        f"Hit frequency: {percent_str(w.hit_frequency)}",
        f"Total combinations: {w.total_combinations:,}",
    ]
    prizes = w.prizes
    if prizes:
        never = [p for p in prizes if p.probability == 0]
        rare = [p for p in prizes if p.probability and not p.reachable]
        odds = "; ".join(f"{p.pay_ref.split('.', 1)[1].replace('_', ' ')} {one_in(p.probability)}"
                         for p in prizes if p.probability)
        lines.append(f"Prize odds: {odds}")
        if rare:
            lines.append(strong("Prize check: expected less than once in 100 million games:") + " "
                         + ", ".join(p.pay_ref for p in rare))
        elif never:
            lines.append("Prize check: every prize this strategy can reach is expected at least once in "
                         "100 million games; never reached: " + ", ".join(p.pay_ref for p in never))
        else:
            lines.append("Prize check: every prize is expected at least once in 100 million games")
    for k, v in w.extras.items() if extras else ():
        vv = Fraction(v)
        shown = f"{vv.numerator:,}" if vv.denominator == 1 else f"{decimal_str(vv, 8)} (exact {frac_str(vv)})"
        lines.append(f"{k.replace('_', ' ')}: {shown}")
    lines += [text(note) for note in w.notes]
    return lines


OTHER_FIGURES = ("Other figures of the wagers, beside their return tables (what published analyses state, and a "
                 "[published] block names by the key shown):")


def other_figures(a: Analysis) -> Table | None:
    """The wagers' other figures (``extras``: a raise frequency, counts of deals a source states), labelled, with
    the key a ``[published]`` block names them by; a frequency as a percentage, a count with separators."""
    rows = []
    for w in a.wagers:
        for k, v in w.extras.items():
            x = Fraction(v)
            shown = (f"{x.numerator:,}" if x.denominator == 1 else percent_str(x) if k.endswith("frequency")
                     else decimal_str(x, 8))
            rows.append((w.wager, k.replace("_", " ").capitalize(), k, shown,
                         "" if x.denominator == 1 else frac_str(x)))
    if not rows:
        return None
    return Table(("Wager", "Figure", "Key", "Value", "Exact"), tuple(rows), (False, False, False, True, True))


@dataclass(frozen=True)
class Table:
    """A table of text cells, with which columns are numbers (right-aligned)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]


@dataclass(frozen=True)
class Block:
    """One block of a document."""

    kind: str  # "title", "heading", "quote", "paragraph", "list", "table", "chart"
    text: str = ""
    items: tuple[str, ...] = ()
    table: Table | None = None
    chart: Chart | None = None


@dataclass
class Document:
    """A report as blocks, in reading order."""

    title: str
    blocks: list[Block] = field(default_factory=list)

    def add(self, kind: str, text: str = "", items: Sequence[str] = (), table: Table | None = None,
            chart: Chart | None = None) -> None:
        """Append a block."""
        self.blocks.append(Block(kind, text, tuple(items), table, chart))


def _wager_table(w: WagerResult) -> Table:
    rows = [(r.label, r.pays, units_text(r.units), f"{r.combinations:,}", decimal_str(w.probability(r), 10),
             decimal_str(w.row_return(r), 10)) for r in w.rows]
    rows.append(("Total", "", "", f"{w.total_combinations:,}", "1.0000000000", decimal_str(w.expected_value, 10)))
    return Table(("Event", "Pays", "Units", "Combinations", "Probability", "Return"), tuple(rows),
                 (False, False, True, True, True, True))


def _section_table(s: Section) -> Table:
    return Table(tuple(c.title for c in s.columns),
                 tuple(tuple(cell_text(v, c) for v, c in zip(row, s.columns)) for row in s.rows),
                 tuple(c.kind in NUMERIC_KINDS for c in s.columns))


def _rule(v: object) -> str:
    if isinstance(v, Fraction):
        return frac_str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_rule(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_rule(x)}" for k, x in v.items()) + "}"
    return str(v)


def rules_text(a: Analysis) -> str:
    """The rules as resolved, on one line."""
    return "; ".join(f"{k} = {_rule(v)}" for k, v in a.rules.items())


def sections_document(title: str, facts: Sequence[str], sections: Sequence[Section]) -> Document:
    """A document of report sections alone (``oddscalc compare``)."""
    doc = Document(title)
    doc.add("title", title)
    doc.add("list", items=facts)
    for s in sections:
        _section(doc, s)
    return doc


def _section(doc: Document, s: Section) -> None:
    doc.add("heading", s.title)
    for line in s.intro:
        doc.add("paragraph", line)
    if s.columns and s.rows:
        doc.add("table", table=_section_table(s))
    for line in s.notes:
        doc.add("paragraph", line)


def _other(doc: Document, a: Analysis) -> None:
    table = other_figures(a)
    if table is not None:
        doc.add("paragraph", OTHER_FIGURES)
        doc.add("table", table=table)


def held_text(compared: Sequence[Check]) -> str:
    """How many of the compared figures hold, and how many of those differ from their source for a stated reason."""
    differ = sum(c.verdict == "differs" for c in compared)
    return f"{sum(c.ok for c in compared)} of {len(compared)} figures hold" + (
        f" ({differ} of them differ from the source, for the reason stated)." if differ else ".")


def _published(doc: Document, a: Analysis) -> None:
    doc.add("heading", "Published figures")
    if not a.published_applies:
        doc.add("paragraph", "Not compared: this run overrides the table's rules or strategy, and the table's "
                             "published figures are for the table as written (oddscalc verify checks them).")
        _other(doc, a)
        return
    doc.add("paragraph", "Sources: " + "; ".join(a.sources) + ".")
    for c in a.checks:
        if c.verdict == NOT_COMPARED:
            doc.add("paragraph", f"Not compared ({c.block}): {c.message}.")
    compared = [c for c in a.checks if c.verdict != NOT_COMPARED]
    if not compared:
        _other(doc, a)
        return
    rows = tuple((c.block, c.wager, c.figure, c.expected, c.computed,
                  c.verdict if not c.message else f"{c.verdict}: {c.message}") for c in compared)
    doc.add("table", table=Table(("Block", "Wager", "Figure", "Stated", "Computed", "Verdict"), rows,
                                 (False, False, False, True, True, False)))
    doc.add("paragraph", held_text(compared))
    _other(doc, a)


def document(a: Analysis, charts: Sequence[Chart] = ()) -> Document:
    """The report's content as blocks: the Markdown report's, and the charts."""
    t = a.table
    doc = Document(t.title)
    doc.add("title", t.title)
    for h in a.lead:
        doc.add("quote", h)
    facts = [f"Game: {a.game} · table: {t.id} · sha256 {t.sha256}", f"oddscalc {__version__}",
             f"Counting convention: {a.convention}", f"Rules as resolved: {rules_text(a)}"]
    doc.add("list", items=facts)
    if t.model.description:  # a table file wraps its lines; a blank line starts a paragraph
        for para in t.model.description.strip().split("\n\n"):
            doc.add("paragraph", " ".join(para.split()))
    if a.assumptions:
        doc.add("paragraph", "Assumptions (not stated by the rule sheet):")
        doc.add("list", items=a.assumptions)
    for w in a.wagers:
        doc.add("heading", f"{w.title} ({w.wager})")
        doc.add("list", items=wager_facts(w))
        doc.add("table", table=_wager_table(w))
    if a.sources:
        _published(doc, a)
    elif other_figures(a) is not None:
        doc.add("heading", "Other figures")
        _other(doc, a)
    for s in a.sections:
        _section(doc, s)
    if charts:
        doc.add("heading", "Charts")
        for chart in charts:
            doc.add("chart", chart.title, chart=chart)
    return doc
