"""``oddscalc audit LOG``: does a hand log match the approved math? Registered on the group in ``cli.main``
(:data:`COMMANDS`).

An audit is a list of parts (:data:`PARTS`, each ``"module:function"`` taking an ``audit.sections.Request`` and
returning an ``audit.sections.Part``): adding a part, such as the evidence of information, is one line there. The
log's header names the game and the table; the table given (``--table``, default the log's) must be the very
file the log names (its sha256), or the audit refuses. Exit 0 when every part finds nothing, 6 when one does (as a
compliance check that fails), 3 for a bad log file, 4 for a bad option.

``--scheduler ADDRESS|local`` (``cluster``) runs the parts' chunks of the log on a dask cluster, whose workers
read the log at its absolute path (a shared file system); the figures are the same to the unit.
"""

from __future__ import annotations

import contextlib
import sys
from fractions import Fraction
from pathlib import Path

import click

from oddscalc.cli.options import (
    EXIT_CHECK,
    EXIT_INPUT,
    Failure,
    Whole,
    output_option,
    scheduler_only,
    show_progress,
    write_output,
)
from oddscalc.protocol import OptionError, load

PARTS = ("oddscalc.audit.whole:audit_part",)  # the conformance audit and the evidence, in one pass over the log
FORMATS = ("md", "csv", "json", "pdf")
CHUNKS = 2  # the log's parts per cluster worker (a worker that finishes first takes another)


def _level(text: str) -> Fraction:
    t = text.strip()
    try:
        level = Fraction(t[:-1]) / 100 if t.endswith("%") else Fraction(t)
    except (ValueError, ZeroDivisionError):
        raise OptionError(f"--level {text!r}: a probability such as 0.01 or 1%") from None
    if not 0 < level < 1:
        raise OptionError(f"--level {text!r}: between 0 and 1 (exclusive)")
    return level


@click.command()
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--table", "table_ref", metavar="ID|PATH",
              help="The table the log was dealt under: a shipped id or a table file; default: the id the log names. "
                   "Its sha256 must be the log's.")
@click.option("--strategy", help="The strategy the main wager's outcomes are compared with (default: the table's).")
@click.option("--level", default="1%", show_default=True,
              help="The audit's level: the chance an honest log is flagged (shared between the tests).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="md", show_default=True,
              help="md, csv and json are text; pdf a document with the charts.")
@click.option("--chart", "chart_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the observed-against-exact chart(s) here as SVG.")
@click.option("--workers", type=Whole(1, 64), default=2, show_default=True,
              help="Processes reading a long log side by side, or the workers of --scheduler local (the figures do "
                   "not depend on it).")
@scheduler_only
@click.option("--suspect", "suspects", multiple=True, metavar="ID|PATH",
              help="An information model (tables/information id or file) the decisions are weighed against; "
                   "repeatable. Default: the game's (Caribbean Stud: one to four hole cards known; punto banco: "
                   "the first card's group under the shipped edge sort; Let It Ride: the first community card "
                   "flashed before bet 1).")
@output_option
def audit(log: Path, table_ref: str | None, strategy: str | None, level: str, fmt: str, chart_path: Path | None,
          workers: int, scheduler: str | None, suspects: tuple[str, ...], output: Path | None) -> None:
    """Audit the hand LOG (docs/hand-log.md): every round settled again by the table and each mispaid one listed
    by its line; each wager's outcomes, the hold, and the cards by position tested against the exact math; and
    every decision weighed for evidence that the player knew more (a Bayes factor against honest play for each
    suspected information model)."""
    from oddscalc import cluster
    from oddscalc.analysis import Session
    from oddscalc.audit.conformance import check_table
    from oddscalc.audit.reader import header
    from oddscalc.audit.sections import Part, Request
    from oddscalc.catalog import resolve_table
    from oddscalc.games import DECLARED
    from oddscalc.progress import Progress
    from oddscalc.results import RunOptions

    lvl = _level(level)
    head = header(log)
    if head.game not in DECLARED:
        raise OptionError(f"{log}: a log of {head.game!r}, which oddscalc does not know")
    table = resolve_table(head.game, table_ref if table_ref is not None else head.table)
    check_table(head, table, log)
    options = RunOptions(strategy=strategy) if strategy is not None else RunOptions()
    analysis = Session(head.game, options).analyze(table)
    named = analysis.wagers[0].strategy if analysis.wagers else ""
    bar = Progress(show_progress(), f"audit {log.name}")
    where = cluster.address(scheduler)
    with contextlib.ExitStack() as stack:
        if where is None:
            request = Request(log, head, table, analysis, named, lvl, bar, workers, tuple(suspects))
        else:  # the log's parts run on the cluster, whose workers read it at its absolute path
            c = stack.enter_context(cluster.client(where, workers))
            request = Request(log, head, table, analysis, named, lvl, bar, CHUNKS * cluster.workers(c),
                              tuple(suspects), cluster.mapper(c))
        parts: list[Part] = [load(ref)(request) for ref in PARTS]
    bar.finish()
    sections = [s for p in parts for s in p.sections]
    charts = [c for p in parts for c in p.charts]
    findings = [f for p in parts for f in p.findings]
    protect = (log, table.path)
    if chart_path is not None:
        from oddscalc.report.svg import render_chart

        write_output(chart_path, "\n".join(render_chart(c) for c in charts), protect)
    heading = f"Audit of {log.name}: {table.title} ({head.game}/{table.id})"
    if fmt == "pdf":
        if output is None and sys.stdout.isatty():
            raise Failure("--format pdf is a binary file: write it with -o FILE (or redirect standard output)",
                          EXIT_INPUT)
        from oddscalc.report.document import sections_document
        from oddscalc.report.pdf import pdf_of

        doc = sections_document(heading, [f for p in parts for f in p.facts], sections)
        for c in charts:
            doc.add("chart", chart=c)
        data = pdf_of(doc)
        if output is not None:
            write_output(output, data, protect)
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
    else:
        from oddscalc.cli.options import emit, table_meta
        from oddscalc.report.sections import render_sections

        emit(render_sections(sections, fmt, heading, table_meta(head.game, table)), output, protect)
    if findings:
        raise Failure(f"the log does not conform ({len(findings)} finding(s): {findings[0]})", EXIT_CHECK)


COMMANDS = (audit,)
