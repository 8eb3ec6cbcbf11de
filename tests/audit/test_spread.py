"""A log read side by side (``audit.spread``): the evidence of information weighed from byte ranges of the log in
processes, or on a dask cluster, is the same, array for array and figure for figure, as one reader's; so is the
whole ``audit`` run with ``--scheduler``; and a bad line in a later part is refused by its line, as one reader
refuses it.

The logs are written by ``simulate --log`` (an independent dealer and player), and the reference is the one reader
of the log (``reader.decisions`` in one process), which the other evidence tests check against brute force.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed
import numpy as np
import pytest
from click.testing import CliRunner

from oddscalc import cluster
from oddscalc.audit import spread
from oddscalc.audit.evidence import Assessed, Evidence
from oddscalc.audit.evidence_log import weigh_log, weigh_path
from oddscalc.audit.reader import decisions, split
from oddscalc.cli.main import main
from oddscalc.datafile import TableError
from oddscalc.simulate.log import write_log


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("spread")
    out = {"caribbean": folder / "knows.jsonl", "punto-banco": folder / "sorted.jsonl"}
    write_log("caribbean", out["caribbean"], rounds=60, seed=5, knows="caribbean-flash-1-hole")
    write_log("punto-banco", out["punto-banco"], rounds=60, seed=5, knows="edge-sort-first-card")
    return out


@pytest.fixture(scope="module")
def threads() -> Iterator[Any]:
    """A dask cluster in this process (threads): the cluster's map without starting worker processes."""
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,  # type: ignore[no-untyped-call]
                                  dashboard_address=None, silence_logs=40) as c, \
            distributed.Client(c) as client:  # type: ignore[no-untyped-call]
        yield client


def _same_assessed(a: Assessed, b: Assessed) -> None:
    assert (a.model, a.title, a.actions, a.den, a.telling) == (b.model, b.title, b.actions, b.den, b.telling)
    assert a.num.dtype == b.num.dtype and np.array_equal(a.num, b.num) and np.array_equal(a.row, b.row)


def _same(one: Evidence, two: Evidence) -> None:
    assert (one.game, one.actions, one.player, one.realised) == (two.game, two.actions, two.player, two.realised)
    assert np.array_equal(one.lines, two.lines)
    _same_assessed(one.honest, two.honest)
    assert len(one.suspects) == len(two.suspects) > 0
    for x, y in zip(one.suspects, two.suspects):
        _same_assessed(x.assessed, y.assessed)
        assert np.array_equal(x.log10_factors, y.log10_factors) and np.array_equal(x.cumulative, y.cumulative)
        assert (x.gain, x.changed, x.first_flagged) == (y.gain, y.changed, y.first_flagged)
        assert x.heaviest(one.honest) == y.heaviest(two.honest)


@pytest.mark.parametrize("game", ["caribbean", "punto-banco"])
def test_the_evidence_read_in_parts_is_the_one_readers(game: str, logs: dict[str, Path], threads: Any) -> None:
    path = logs[game]
    one = weigh_log(game, None, decisions(path))
    assert len(one.lines) == 60 and one.suspects[0].log10_factor > 0  # an informed player: the log says something
    parts = split(path, 2)
    assert len(parts) == 2
    _same(one, weigh_path(game, None, path, parts=parts))  # two processes, each weighing its byte range
    parts = split(path, 5)
    assert len(parts) == 5
    _same(one, weigh_path(game, None, path, parts=parts, mapper=cluster.mapper(threads)))  # chunks on a cluster


def _a_bad_line_is_refused_by_its_line(game: str, log: Path, tmp_path: Path, mapper: Any = None) -> None:
    """Line 51 of ``log`` spoilt: one reader and the log's three parts (processes, or ``mapper``'s chunks) refuse
    it alike, by its line."""
    lines = log.read_text().splitlines(keepends=True)
    lines[50] = lines[50].replace('"action"', '"actoin"', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(lines))
    with pytest.raises(TableError) as one:
        weigh_log(game, None, decisions(bad))
    with pytest.raises(TableError) as two:
        weigh_path(game, None, bad, parts=split(bad, 3), mapper=mapper)
    assert two.value.problems == one.value.problems and two.value.problems[0].line == 51
    assert two.value.what == one.value.what


def test_a_bad_line_in_a_later_part_is_refused_by_its_line(tmp_path: Path, logs: dict[str, Path]) -> None:
    _a_bad_line_is_refused_by_its_line("caribbean", logs["caribbean"], tmp_path)  # three worker processes


def test_a_bad_line_in_a_later_chunk_on_a_cluster_is_refused_by_its_line(tmp_path: Path, logs: dict[str, Path],
                                                                         threads: Any) -> None:
    # the same guard as the processes' (spread._Guarded), on a dask cluster in threads
    _a_bad_line_is_refused_by_its_line("punto-banco", logs["punto-banco"], tmp_path, cluster.mapper(threads))


def _audit(*args: str) -> tuple[int, dict[str, Any]]:
    r = CliRunner().invoke(main, ["audit", *args, "--format", "json"])
    assert "Traceback" not in r.output, r.output
    return r.exit_code, json.loads(r.stdout)["sections"]


def test_the_audit_with_a_scheduler_is_the_audit_here(logs: dict[str, Path], threads: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``audit --scheduler`` runs both parts' chunks on the cluster (here one in this process, standing for the
    LocalCluster ``--scheduler local`` starts): the same report, to the unit."""
    calls: list[tuple[str, int | None]] = []

    @contextlib.contextmanager
    def here(where: str, workers: int | None = None) -> Iterator[Any]:
        calls.append((where, workers))
        yield threads

    ran: list[int] = []
    real = cluster.mapper

    def counting(c: Any, *args: Any, **kw: Any) -> Any:
        run = real(c, *args, **kw)

        def counted(fn: Any, chunks: Any) -> Any:
            ran.append(len(chunks))
            return run(fn, chunks)

        return counted

    monkeypatch.delenv(cluster.ENV, raising=False)
    path = logs["caribbean"]
    code, alone = _audit(str(path))
    monkeypatch.setattr(cluster, "client", here)
    monkeypatch.setattr(cluster, "mapper", counting)
    there = _audit(str(path), "--scheduler", "tcp://127.0.0.1:8786", "--workers", "3")
    assert there == (code, alone) and code == 6  # flagged: the player knew more
    assert "evidence_summary" in alone and "mispaid" in alone
    assert calls == [("tcp://127.0.0.1:8786", 3)]
    assert ran == [4]  # one pass over the log for both halves (audit.whole), in two chunks per cluster thread


@pytest.mark.deep
def test_the_audit_on_a_local_cluster_is_the_audit_here(logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    monkeypatch.delenv(cluster.ENV, raising=False)
    path = logs["caribbean"]
    assert _audit(str(path), "--scheduler", "local", "--workers", "2") == _audit(str(path))


def test_a_long_log_is_cut_for_the_workers(logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    path = logs["caribbean"]
    assert spread.parts(path, 2) == [None]  # short: one reader
    assert spread.parts(path, 1, lambda fn, chunks: []) == split(path, 1)  # a cluster's map: parts always
    monkeypatch.setattr(spread, "SPLIT_BYTES", 0)
    assert spread.parts(path, 2) == split(path, 2) and spread.parts(path, 1) == [None]
