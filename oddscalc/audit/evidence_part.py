"""The evidence of information as a part of ``oddscalc audit``: every decision of the log weighed against the
suspected information models (those named with ``--suspect``, or the game's defaults), its sections and chart, and
a finding for each model whose Bayes factor against honest play passes the threshold.

A game the evidence engine does not read gives no part (the conformance audit still runs), and says so in a fact.
"""

from __future__ import annotations

from oddscalc.audit import evidence_sections, spread
from oddscalc.audit.evidence_log import GAMES, weigh_path
from oddscalc.audit.sections import Part, Request
from oddscalc.protection.information import load_model


def evidence_part(request: Request) -> Part:
    """The request's log weighed for evidence of information (``evidence_log.weigh_path``): a long log's parts
    read side by side by the request's workers (or on its cluster), as the conformance part reads them."""
    game = request.header.game
    if game not in GAMES:
        if request.suspects:
            from oddscalc.protocol import OptionError

            raise OptionError(f"--suspect: evidence of information is read for {', '.join(GAMES)}, not {game}")
        return Part((), facts=(f"evidence of information: not read for {game}",))
    models = [load_model(ref, game)[0] for ref in request.suspects]
    table = request.table.path.resolve() if request.mapper is not None else request.table.path
    ev = weigh_path(game, str(table), request.path, models,
                    parts=spread.parts(request.path, request.workers, request.mapper), mapper=request.mapper)
    findings = tuple(f"decisions flag {w.assessed.title}" for w in ev.suspects if w.flagged)
    return Part(tuple(evidence_sections.sections(ev)), (evidence_sections.chart(ev),), findings,
                (f"evidence: {evidence_sections.verdict(ev)}",))


__all__ = ["evidence_part"]
