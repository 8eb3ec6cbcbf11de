"""A report as a printable document: the Markdown report's content as plain blocks (headings,
paragraphs, lists, tables, charts), which the HTML and PDF renderers lay out.

Every figure of the Markdown report is here in the same words and the same rounding: the facts of
a wager come from :func:`wager_facts`, which the Markdown renderer uses too. A report's document opens with
what a filing's first page holds: the title, the verdict, the table's identity, the date and who prepared it for
whom (:class:`Prepared`), and a summary of every wager (:func:`summary`); the renderers of pages start a new page
after it. Bold (the verdict, the headline figures the Markdown report sets in ``**``) is kept as :class:`Span`
runs, never as markup inside the text, so a text from a file can never turn bold or open a tag.
"""

from __future__ import annotations

import datetime
import functools
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
        odds = "; ".join(f"{p.pay_ref.rsplit('.', 1)[-1].replace('_', ' ')} {one_in(p.probability)}"
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
    """A table of text cells, with which columns are numbers (right-aligned), and whether its last row is a total
    (in bold)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]
    total: bool = False


@dataclass(frozen=True)
class Span:
    """A run of text within a line, in bold (``strong``) or not."""

    text: str
    strong: bool = False


Line = tuple[Span, ...]  # a list item: runs of text, some of them bold


def as_line(item: str | Line) -> Line:
    """A list item as runs: a plain text is one run, not bold."""
    return (Span(item),) if isinstance(item, str) else item


def plain(line: Line) -> str:
    """A line's text without its bold."""
    return "".join(s.text for s in line)


@dataclass(frozen=True)
class Block:
    """One block of a document. ``strong``: the whole text in bold (the verdict). A "summary" block is the
    summary table (``table``) under its heading (``text``), with notes (``items``): a filing's first page ends
    after it."""

    kind: str  # "title", "heading", "quote", "paragraph", "list", "table", "chart", "summary"
    text: str = ""
    items: tuple[Line, ...] = ()
    table: Table | None = None
    chart: Chart | None = None
    strong: bool = False


@dataclass(frozen=True)
class Prepared:
    """When a document was made, and who prepared it for whom (``by``, ``for_whom``: text a user typed, shown as
    literal text like every other; empty when not said)."""

    made: datetime.datetime
    by: str = ""
    for_whom: str = ""

    @property
    def date(self) -> str:
        """The instant as a reader cites it, in UTC."""
        return self.made.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")

    def fields(self) -> list[tuple[str, str]]:
        """(label, value) of each line of the block: the date, then who prepared it for whom, when said."""
        return [("Date", self.date), *((label, value) for label, value in
                                       (("Prepared by", self.by), ("Prepared for", self.for_whom)) if value)]


@dataclass
class Document:
    """A report as blocks, in reading order, with what every page of it names: the table's id and the sha256 of
    its file (empty for a document of several tables), and when and by whom it was prepared."""

    title: str
    blocks: list[Block] = field(default_factory=list)
    table_id: str = ""
    sha256: str = ""
    prepared: Prepared | None = None

    def add(self, kind: str, text: str = "", items: Sequence[str | Line] = (), table: Table | None = None,
            chart: Chart | None = None, strong: bool = False) -> None:
        """Append a block."""
        self.blocks.append(Block(kind, text, tuple(as_line(i) for i in items), table, chart, strong))


_MARKS = tuple((chr(c), chr(c + 1)) for c in range(0xE000, 0xF900, 2))  # the Private Use Area, in pairs


def strong_lines(facts: Callable[[Callable[[str], str]], list[str]]) -> tuple[Line, ...]:
    """The lines ``facts(strong)`` makes, with what it passes to ``strong`` in bold. The bold is found by marks
    that occur nowhere in the plain lines, so no text of a file can open or close it; in the (absurd) case of a
    text holding every mark there is, the lines are plain."""
    lines = facts(str)
    seen = set("".join(lines))
    marks = next(((a, b) for a, b in _MARKS if a not in seen and b not in seen), None)
    if marks is None:
        return tuple(as_line(x) for x in lines)
    start, end = marks
    out = []
    for marked in facts(lambda x: f"{start}{x}{end}"):
        head, *rest = marked.split(start)
        spans = [Span(head)] if head else []
        for part in rest:
            bold, _, after = part.partition(end)
            spans += [Span(bold, True), *([Span(after)] if after else [])]
        out.append(tuple(spans))
    return tuple(out)


def _wager_table(w: WagerResult) -> Table:
    rows = [(r.label, r.pays, units_text(r.units), f"{r.combinations:,}", decimal_str(w.probability(r), 10),
             decimal_str(w.row_return(r), 10)) for r in w.rows]
    rows.append(("Total", "", "", f"{w.total_combinations:,}", "1.0000000000", decimal_str(w.expected_value, 10)))
    return Table(("Event", "Pays", "Units", "Combinations", "Probability", "Return"), tuple(rows),
                 (False, False, True, True, True, True), total=True)


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


SUMMARY_NOTES = (
    "House edge, element of risk and SD are per unit of the wager (its Unit column). The element of risk, the house "
    "edge per unit actually staked, is shown where the stake can vary (a raise, a bet taken down); elsewhere it "
    "is the house edge.",
    "Top award: the event that pays the wager the most units; its odds are those of a deal that pays it, under the "
    "strategy of the wager's section.",
)


def top_award(w: WagerResult) -> tuple[str, str]:
    """The event that pays ``w`` the most units, and the odds of a deal that pays it ("1 in N"): several events
    paying the same most units are joined."""
    wins = [r for r in w.rows if r.units > 0]
    if not wins:
        return "none: this wager never wins", ""
    most = max(r.units for r in wins)
    top = [r for r in wins if r.units == most]
    odds = one_in(Fraction(sum(r.combinations for r in top), w.total_combinations))
    if len(top) == 1:
        r = top[0]
        return (f"{r.label} ({r.pays})" if r.pays else r.label), odds
    pays = {r.pays for r in top}
    named = pays.pop() if len(pays) == 1 and "" not in pays else f"{units_text(most)} units"
    return (f"every win ({named}, {len(top)} events)" if len(top) == len(wins) else
            f"{named} ({len(top)} events)"), odds


def summary(a: Analysis) -> Table:
    """Every wager on one line: house edge, element of risk, standard deviation, hit frequency and the top award
    with its odds, as the wager's section states them."""
    rows = []
    for w in a.wagers:
        eor = w.element_of_risk
        award, odds = top_award(w)
        rows.append((f"{w.title} ({w.wager})", w.unit, percent_str(w.house_edge), "-" if eor is None else
                     percent_str(eor), f"{w.standard_deviation:.4f}", percent_str(w.hit_frequency), award, odds))
    return Table(("Wager", "Unit", "House edge", "Element of risk", "SD", "Hit frequency", "Top award",
                  "Top award odds"), tuple(rows), (False, False, True, True, True, True, False, True))


def _summary_notes(a: Analysis) -> list[str]:
    notes = list(SUMMARY_NOTES)
    compared = [c for c in a.checks if c.verdict != NOT_COMPARED] if a.sources and a.published_applies else []
    if compared:
        notes.append(f"Published figures: {held_text(compared)}")
    return notes


def prepared_lines(p: Prepared) -> list[Line]:
    """The date and who prepared a document for whom, each label in bold."""
    return [(Span(f"{label}: ", True), Span(value)) for label, value in p.fields()]


def document(a: Analysis, charts: Sequence[Chart] = (), prepared: Prepared | None = None) -> Document:
    """The report's content as blocks: a first page of the verdict, the table's identity, the date and who prepared
    it (``prepared``; by default made now, or at ``SOURCE_DATE_EPOCH``) and the summary of every wager; then the
    Markdown report's blocks, and the charts."""
    from oddscalc.report.dates import made_at

    t = a.table
    prepared = prepared or Prepared(made_at())
    doc = Document(t.title, table_id=t.id, sha256=t.sha256, prepared=prepared)
    doc.add("title", t.title)
    doc.add("quote", a.verdict.text, strong=True)
    for h in a.headline:
        doc.add("quote", h)
    doc.add("list", items=[f"Game: {a.game} · table: {t.id} · sha256 {t.sha256}", f"oddscalc {__version__}"])
    doc.add("list", items=prepared_lines(prepared))
    doc.add("summary", "Summary", items=_summary_notes(a), table=summary(a))
    doc.add("heading", "Rules and counting")
    doc.add("list", items=[f"Counting convention: {a.convention}", f"Rules as resolved: {rules_text(a)}"])
    if t.model.description:  # a table file wraps its lines; a blank line starts a paragraph
        for para in t.model.description.strip().split("\n\n"):
            doc.add("paragraph", " ".join(para.split()))
    if a.assumptions:
        doc.add("paragraph", "Assumptions (not stated by the rule sheet):")
        doc.add("list", items=a.assumptions)
    for w in a.wagers:
        doc.add("heading", f"{w.title} ({w.wager})")
        doc.add("list", items=strong_lines(functools.partial(wager_facts, w)))
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
