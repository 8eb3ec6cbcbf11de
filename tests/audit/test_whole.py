"""The whole audit in one pass (``audit.whole``): the same report as its two halves reading the log each on its
own (``sections.conformance_part`` and ``evidence_part.evidence_part``, checked elsewhere against brute force), and
the same whether the log is read by one reader, in parts side by side, or in processes.

The logs are written by ``simulate --log`` (an independent dealer and player): a Caribbean Stud player who knows a
hole card, on a 51-card deck, mispaid now and then; an edge sorter at punto banco.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from oddscalc.analysis import Session
from oddscalc.audit import spread
from oddscalc.audit.conformance import DEFAULT_LEVEL
from oddscalc.audit.evidence_part import evidence_part
from oddscalc.audit.reader import header, split
from oddscalc.audit.sections import Part, Request, conformance_part
from oddscalc.audit.whole import audit_part
from oddscalc.catalog import resolve_table
from oddscalc.progress import Progress
from oddscalc.report.sections import render_sections
from oddscalc.simulate.log import write_log


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("whole")
    out = {"caribbean": folder / "knows.jsonl", "punto-banco": folder / "sorted.jsonl"}
    write_log("caribbean", out["caribbean"], rounds=80, seed=7, knows="caribbean-flash-1-hole",
              damage=("missing:As",), mispay="1/20")
    write_log("punto-banco", out["punto-banco"], rounds=80, seed=7, knows="edge-sort-first-card")
    return out


def _request(path: Path, workers: int = 1, mapper: spread.Mapper | None = None) -> Request:
    head = header(path)
    table = resolve_table(head.game, head.table)
    analysis = Session(head.game).analyze(table)
    return Request(path, head, table, analysis, analysis.wagers[0].strategy, DEFAULT_LEVEL, Progress(False, "t"),
                   workers, (), mapper)


def _text(part: Part) -> tuple[str, tuple[Any, ...], tuple[str, ...], tuple[str, ...]]:
    """A part as what the command prints of it (JSON sections), its charts, findings and facts."""
    return render_sections(list(part.sections), "json", "audit", {}), part.charts, part.findings, part.facts


def _in_order(fn: Callable[[Any], Any], chunks: Sequence[Any]) -> list[Any]:
    """A cluster's map run here, chunk by chunk: the parts read apart and joined, without a cluster."""
    return [fn(c) for c in chunks]


@pytest.mark.parametrize("game", ["caribbean", "punto-banco"])
def test_one_pass_is_the_two_halves(game: str, logs: dict[str, Path]) -> None:
    request = _request(logs[game])
    conformance, evidence = conformance_part(request), evidence_part(request)
    halves = Part(conformance.sections + evidence.sections, conformance.charts + evidence.charts,
                  conformance.findings + evidence.findings, conformance.facts + evidence.facts)
    whole = audit_part(request)
    assert _text(whole) == _text(halves)
    assert whole.findings  # a log that should not pass: the test compares a report with something in it
    assert any("decisions flag" in f for f in whole.findings) and any("mispaid" in f for f in whole.findings) \
        if game == "caribbean" else any("decisions flag" in f for f in whole.findings)


@pytest.mark.parametrize("game", ["caribbean", "punto-banco"])
def test_parts_read_apart_are_the_one_readers(game: str, logs: dict[str, Path]) -> None:
    path = logs[game]
    serial = _text(audit_part(_request(path)))
    assert len(split(path, 5)) == 5
    assert _text(audit_part(_request(path, 5, _in_order))) == serial


@pytest.mark.deep  # starts the readers' process server: seconds of CPU outside this process
def test_two_processes_are_the_one_reader(logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """``--workers 2`` on a log long enough to be cut (here any log: the cut size set to 0): two processes."""
    path = logs["caribbean"]
    serial = _text(audit_part(_request(path)))
    monkeypatch.setattr(spread, "SPLIT_BYTES", 0)
    assert len(spread.parts(path, 2)) == 2
    assert _text(audit_part(_request(path, 2))) == serial
