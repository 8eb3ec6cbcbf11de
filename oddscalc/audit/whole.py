"""The whole audit in one pass over the log: each line read and validated once, its round tallied for the
conformance audit and its decisions handed to the evidence of information as they are read.

The two halves of ``oddscalc audit`` read the same rounds; reading them twice was most of an audit's time (every
line parsed and validated twice). Here each part of the log (``spread.parts``: processes side by side, or chunks
on a cluster) is read once by :func:`read_part`: its rounds go a chunk at a time to the conformance tally
(``conformance.Tallier``) and then, decision by decision, to the evidence's reading (``evidence_log.read_log``),
which pulls them as it needs them (bounded memory: a chunk of rounds at a time, and the evidence's arrays). The
parts' tallies and readings are joined in file order as each half joins its own, so the figures are the ones the
halves give when each reads the log on its own (the tests hold them equal).
"""

from __future__ import annotations

import contextlib
import gc
import itertools
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

from oddscalc.audit import evidence_sections, spread
from oddscalc.audit.conformance import Tallier, Tally, chunks
from oddscalc.audit.conformance import judge as judge_conformance
from oddscalc.audit.evidence import Evidence, Reading, join
from oddscalc.audit.evidence_log import GAMES, default_models, read_log
from oddscalc.audit.observed import Observed
from oddscalc.audit.reader import observed_all, rounds
from oddscalc.audit.resettle import units_by_event
from oddscalc.audit.sections import Part, Request, conformance_charts, conformance_sections
from oddscalc.audit.sections import verdict as conformance_verdict
from oddscalc.protection.glimpse import Model
from oddscalc.tables import Table

# (the log's path, its game, the table, the units of each wager's events, the table as the evidence resolves it,
#  the models weighed (None: no evidence for this game), the part)
Job = tuple[Path, str, Table, dict[str, dict[str, Fraction]], str, tuple[Model, ...] | None, spread.Part]


def read_part(job: Job) -> tuple[Tally, Reading | None]:
    """One part of the log read once: its conformance tally, and its decisions read under the models (None: no
    decision, or no evidence for the game)."""
    path, game, table, units, table_ref, models, part = job
    with _collector_seldom():
        return _read(path, game, table, units, table_ref, models, part)


@contextlib.contextmanager
def _collector_seldom() -> Iterator[None]:
    """Python's cycle collector run seldom while a part is read: a chunk of rounds is some 500,000 live objects
    (``conformance.CHUNK`` rounds, each a few pydantic models, tuples and dicts), and at the default thresholds the
    collector scanned them again and again: a fifth of reading a log, for no cycle (a round holds none). It still
    runs, after 100,000 allocations instead of 700; the thresholds are put back after."""
    before = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _read(path: Path, game: str, table: Table, units: dict[str, dict[str, Fraction]], table_ref: str,
          models: tuple[Model, ...] | None, part: spread.Part) -> tuple[Tally, Reading | None]:
    tallier = Tallier(game, table, units)

    def decisions() -> Iterator[Observed]:
        for batch in chunks(rounds(path, part)):
            tallier.take(batch)
            yield from observed_all(game, batch)

    found = decisions()
    first = next(found, None)
    reading = None
    if first is not None and models is not None:
        reading = read_log(game, table_ref, itertools.chain((first,), found), models)
    for _ in found:  # the evidence read every decision; without it, the rounds are still tallied
        pass
    return tallier.out, reading


def audit_part(request: Request) -> Part:
    """The conformance audit and the evidence of information of the request's log, read in one pass (see the
    module): the parts ``sections.conformance_part`` and ``evidence_part.evidence_part`` give, together."""
    from oddscalc.audit.conformance import check_game
    from oddscalc.protection.information import load_model
    from oddscalc.protocol import OptionError

    head, path = request.header, request.path
    check_game(head, request.table, path)
    game = head.game
    models: tuple[Model, ...] | None = None
    if game in GAMES:
        models = tuple(load_model(ref, game)[0] for ref in request.suspects) or tuple(default_models(game))
    elif request.suspects:
        raise OptionError(f"--suspect: evidence of information is read for {', '.join(GAMES)}, not {game}")
    table_path = request.table.path.resolve() if request.mapper is not None else request.table.path
    units = units_by_event(request.analysis)
    at = spread.where(path, request.mapper)
    jobs: list[Job] = [(at, game, request.table, units, str(table_path), models, p)
                       for p in spread.parts(path, request.workers, request.mapper)]
    found = spread.side_by_side(read_part, jobs, request.mapper)
    c = judge_conformance(path, head, request.table, request.analysis, request.strategy, [t for t, _ in found],
                          request.level, request.progress)
    sections = list(conformance_sections(c))
    charts = list(conformance_charts(c))
    findings = list(c.failures())
    facts = [f"{c.rounds:,} rounds read", f"verdict: {conformance_verdict(c)}"]
    if models is None:
        facts.append(f"evidence of information: not read for {game}")
    else:
        ev = weigh(game, str(table_path), [r for _, r in found if r is not None], models)
        sections += evidence_sections.sections(ev)
        charts.append(evidence_sections.chart(ev))
        findings += [f"decisions flag {w.assessed.title}" for w in ev.suspects if w.flagged]
        facts.append(f"evidence: {evidence_sections.verdict(ev)}")
    return Part(tuple(sections), tuple(charts), tuple(findings), tuple(facts))


def weigh(game: str, table_ref: str, readings: list[Reading], models: tuple[Model, ...]) -> Evidence:
    """The parts' readings joined in file order and weighed (an empty log: no decision weighed)."""
    whole = join(readings) if readings else read_log(game, table_ref, (), models)
    return whole.weighed()


__all__ = ["audit_part", "read_part", "weigh"]
