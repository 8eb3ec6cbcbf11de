"""The distributed engine: the same integers whatever the chunk size, and on a two-worker LocalCluster
that loses a worker in the middle of the run."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import distributed
import pytest

from oddscalc import cluster
from oddscalc.cards import reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.games.let_it_ride.count import PAYING, count_holdings
from oddscalc.protection.collusion import let_it_ride as collusion

PAYS: list[Fraction] = [getattr(resolve_table("let-it-ride", "standard").model.pays.main, c.value)  # type: ignore[attr-defined]
                        for c in PAYING]


def test_any_chunk_size_gives_the_same_integers() -> None:
    counts = count_holdings(reduced_deck("8", 2), 8)
    results = {size: collusion.partner_seen(counts, PAYS, 8, chunk_size=size) for size in (1, 7, 10_000)}
    assert len(set(results.values())) == 1


@pytest.mark.deep
def test_a_local_cluster_that_loses_a_worker_gives_the_same_integers() -> None:
    counts = count_holdings(reduced_deck("5", 3), 8)  # 30 cards: hundreds of small chunks
    here = collusion.partner_seen(counts, PAYS, 8)
    with cluster.client(cluster.LOCAL, workers=2) as c:
        assert collusion.partner_seen(counts, PAYS, 8, cluster.mapper(c), chunk_size=16) == here

        def losing_one(fn: Callable[[Any], Any], chunks: Sequence[Any]) -> list[Any]:
            futures = c.map(fn, list(chunks), pure=False, retries=3)
            next(iter(distributed.as_completed(futures)))  # type: ignore[no-untyped-call]  # the run is under way
            assert not all(f.done() for f in futures)
            pids = c.run(os.getpid)
            os.kill(pids[sorted(pids)[0]], signal.SIGKILL)  # one worker's process dies mid-run
            return list(c.gather(futures))  # its chunks run again on the worker left (or its restart)

        lost = collusion.partner_seen(counts, PAYS, 8, losing_one, chunk_size=8)
    assert lost == here


@pytest.mark.parametrize("where", ["nonsense", "tcp://host", "foo://x:1"])
def test_a_scheduler_address_that_does_not_parse_is_a_clear_error(where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """From the option or the environment, exit 4 naming the address and what to give, without a traceback."""
    from click.testing import CliRunner

    from oddscalc.cli.main import main

    monkeypatch.setenv(cluster.ENV, where)
    r = CliRunner().invoke(main, ["collusion", "let-it-ride"])
    assert r.exit_code == 4 and f"not a dask scheduler address: {where!r}" in r.output, r.output
    assert "tcp://HOST:PORT" in r.output and isinstance(r.exception, SystemExit)  # an exit, not a crash


def test_an_unreachable_scheduler_or_something_else_there_is_one_clear_error_in_seconds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing listening: refused until the connect timeout (seconds, not dask's default); something listening
    that is not a scheduler (it answers garbage): the same kind of error, not dask's own exception."""
    import socket
    import threading

    from oddscalc.protocol import OptionError

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "0.5s")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    with pytest.raises(OptionError, match=f"cannot reach the dask scheduler at tcp://127.0.0.1:{closed}"):
        with cluster.client(f"tcp://127.0.0.1:{closed}"):
            pass
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def garbage() -> None:
        conn, _ = server.accept()
        conn.sendall(b"\xff" * 64)
        conn.close()

    threading.Thread(target=garbage, daemon=True).start()
    try:
        with pytest.raises(OptionError, match="cannot reach the dask scheduler"):
            with cluster.client(f"tcp://127.0.0.1:{server.getsockname()[1]}"):
                pass
    finally:
        server.close()
