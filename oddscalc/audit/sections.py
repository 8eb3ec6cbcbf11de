"""The conformance audit as report sections and a chart, and the one shape every part of an audit returns.

An audit is made of parts: this module's conformance part, and any other module's (the evidence of information)
that takes the same :class:`Request` and returns a :class:`Part`. ``cli.audit`` runs the parts it lists, one line
each, and renders their sections and charts together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from oddscalc.audit.conformance import Conformance, audit
from oddscalc.audit.logformat import Header
from oddscalc.audit.spread import Mapper
from oddscalc.progress import Progress
from oddscalc.results import Analysis, Column, Section
from oddscalc.results.chart import Chart, Lines
from oddscalc.tables import Table


@dataclass(frozen=True)
class Request:
    """What every part of an audit reads: the log, its header, the table (its sha256 checked against the log's),
    the exact analysis of the table under the strategy named, the level of the tests, and a progress bar."""

    path: Path
    header: Header
    table: Table
    analysis: Analysis
    strategy: str
    level: Fraction
    progress: Progress
    workers: int = 1  # processes that may read the log side by side (with a cluster: the chunks it is cut into)
    suspects: tuple[str, ...] = ()  # information models (ids or files) the decisions are weighed against
    mapper: Mapper | None = None  # a cluster's map (cluster.mapper): the chunks run there, not in processes here


@dataclass(frozen=True)
class Part:
    """What a part of an audit found: sections, charts, and its findings in words (any: the audit flags the log)."""

    sections: tuple[Section, ...]
    charts: tuple[Chart, ...] = ()
    findings: tuple[str, ...] = ()
    facts: tuple[str, ...] = field(default=())  # one-line facts for the document's heading list


def _p(x: float) -> str:
    return f"{x:.3g}"


def conformance_part(request: Request) -> Part:
    """The conformance audit of the request's log (``conformance.audit``) as a part."""
    c = audit(request.path, request.table, request.analysis, request.strategy, request.level, request.progress,
              request.workers, request.mapper)
    return Part(tuple(conformance_sections(c)), tuple(conformance_charts(c)), tuple(c.failures()),
                (f"{c.rounds:,} rounds read", f"verdict: {verdict(c)}"))


def verdict(c: Conformance) -> str:
    """One line: conforms, or what does not."""
    found = c.failures()
    if not found:
        return (f"CONFORMS: no test below {float(c.level):.3g} / {c.tests} = {c.threshold:.3g} (Bonferroni), "
                "no mispaid round")
    return "DOES NOT CONFORM: " + "; ".join(found[:6]) + (f"; and {len(found) - 6} more" if len(found) > 6 else "")


def conformance_sections(c: Conformance) -> list[Section]:
    """Summary, outcomes per wager, hold, cards by position, mispaid and unreadable rounds."""
    h = c.header
    summary = Section(
        "audit_conformance", "Conformance", (Column("item", "Item"), Column("value", "Value")),
        (("log", str(c.path)), ("format", f"{h.format} version {h.version}"), ("game", h.game),
         ("table", f"{c.table.id} (sha256 {c.table.sha256}, as the log names it)"), ("rounds", f"{c.rounds:,}"),
         ("strategy compared", c.strategy), ("level", f"{float(c.level):.3g} for the audit, "
                                                     f"{c.threshold:.3g} per test ({c.tests} tests, Bonferroni)"),
         ("mispaid wagers", f"{c.mispaid_count:,}"), ("rounds not settled", f"{c.unreadable_count:,}"),
         ("verdict", verdict(c))),
        intro=("Every round settled again by the table; each wager's outcomes against the exact distribution; the "
               "hold against its exact expectation; the cards at each position against a uniform shuffle.",))
    out = [summary]
    tests = []
    for w in c.wagers:
        rows = tuple((e, p, p * w.rounds, o, _p(tail)) for e, p, o, tail in w.rows)
        out.append(Section(
            f"outcomes_{w.wager}", f"Outcomes: {w.wager}",
            (Column("event", "Event"), Column("probability", "Probability (exact)", "decimal", 8),
             Column("expected", "Expected count", "decimal", 2), Column("observed", "Observed", "int"),
             Column("p_at_least", "P[at least observed]")),
            rows, notes=(f"{w.test.method}; merged: {', '.join(w.merged) or 'none'}. X^2 = {w.test.chi2:.3f}, "
                         f"G = {w.test.g:.3f}, {w.test.df} df: p = {_p(w.test.p_chi2)} (X^2), {_p(w.test.p_g)} (G).",
                         "P[at least observed]: the exact Poisson upper tail of each count, for the rare events a "
                         "merged cell hides.")))
        tests.append((w.wager, w.rounds, w.test.method, w.test.chi2, w.test.g, w.test.df, _p(w.test.p_chi2),
                      _p(w.test.p_g), "flag" if w.test.p_chi2 < c.threshold else "ok"))
    out.append(Section(
        "outcome_tests", "Outcome tests",
        (Column("wager", "Wager"), Column("rounds", "Rounds", "int"), Column("method", "Method"),
         Column("chi2", "X^2", "decimal", 3), Column("g", "G", "decimal", 3), Column("df", "df", "int"),
         Column("p_chi2", "p (X^2)"), Column("p_g", "p (G)"), Column("result", "Result")),
        tuple((w, n, m, Fraction(x).limit_denominator(10**6), Fraction(g).limit_denominator(10**6), df, p1, p2, r)
              for w, n, m, x, g, df, p1, p2, r in tests)))
    out.append(Section(
        "hold", "Hold",
        (Column("wager", "Wager"), Column("rounds", "Rounds staked", "int"), Column("staked", "Staked", "decimal", 2),
         Column("net", "Players' net", "decimal", 2), Column("expected", "Expected (exact)", "decimal", 2),
         Column("sd", "Standard deviation", "decimal", 2), Column("z", "z"), Column("p", "p (two-sided)"),
         Column("hold", "Hold (observed)", "percent", 3), Column("hold_expected", "Hold (exact)", "percent", 3)),
        tuple((x.wager, x.rounds, x.staked, x.net, x.expected,
               Fraction(float(x.variance) ** 0.5).limit_denominator(10**6), f"{x.z:+.3f}", _p(x.p),
               -x.net / x.staked if x.staked else None, -x.expected / x.staked if x.staked else None)
              for x in c.holds),
        notes=("Hold = what the table kept per unit staked (base stakes: the ante, the bet). Expected and variance "
               "are the engine's exact figures for the strategy compared, times each round's stake.",)))
    out.append(Section(
        "cards_by_position", "Cards by position",
        (Column("position", "Position"), Column("rounds", "Cards", "int"), Column("chi2", "X^2"),
         Column("df", "df", "int"), Column("p", "p"), Column("furthest", "Furthest off")),
        tuple((f.position, f.rounds, f"{f.chi2:.2f}", f.df, _p(f.p), f.worst) for f in c.positions),
        notes=("Each position's cards against a uniform shuffle of the table's deck or shoe (each card in proportion "
               "to its copies).",)))
    out.append(Section(
        "mispaid", "Mispaid rounds",
        (Column("line", "Line", "int"), Column("round", "Round", "int"), Column("wager", "Wager"),
         Column("event", "Event"), Column("paid", "Paid", "fraction"), Column("due", "Due", "fraction")),
        tuple((m.line, m.round, m.wager, m.event, m.paid, m.due) for m in c.mispaid),
        intro=(f"{c.mispaid_count:,} wager(s) paid otherwise than the table pays on their cards and decision"
               + (f"; the first {len(c.mispaid):,} listed." if c.mispaid_count > len(c.mispaid) else "."),)))
    if c.unreadable_count or c.unknown:
        out.append(Section(
            "not_settled", "Rounds not settled",
            (Column("line", "Line", "int"), Column("why", "Why")), tuple(c.unreadable),
            intro=(f"{c.unreadable_count:,} round(s) the table cannot settle.",),
            notes=tuple(f"Wager {w!r} is staked in {n:,} round(s) but the table has no such wager."
                        for w, n in sorted(c.unknown.items()))))
    return out


def conformance_charts(c: Conformance) -> list[Chart]:
    """Per wager, observed shares of each event against the exact probabilities."""
    charts: list[Chart] = []
    for w in c.wagers:
        rows = [r for r in w.rows if r[1] > 0 or r[2]]
        if len(rows) < 2 or not w.rounds:
            continue
        charts.append(Lines(
            f"audit-{w.wager}", f"{c.header.game} {w.wager}: observed against exact (events: "
                                + ", ".join(e for e, _, _, _ in rows) + ")",
            tuple(range(1, len(rows) + 1)),
            (("exact", tuple(p for _, p, _, _ in rows)),
             ("observed", tuple(Fraction(o, w.rounds) for _, _, o, _ in rows))),
            "event (in the order of the title)", "share of rounds"))
    return charts


__all__ = ["Part", "Request", "conformance_charts", "conformance_part", "conformance_sections", "verdict"]
