"""Heavy analyses on a dask.distributed cluster: independent chunks whose exact integer results are
summed, so the answer is the same to the unit whatever the chunk size, the number of workers, or a
worker lost on the way (the scheduler runs its chunks again elsewhere).

``--scheduler ADDRESS`` (or ``ODDSCALC_SCHEDULER``) connects to a running cluster; ``--scheduler
local`` starts a ``LocalCluster`` on this machine, one single-threaded worker process per core (or
``--workers N``). Without either, a command computes in its own process. Progress comes from the
futures as they finish, on stderr when it is a terminal.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from oddscalc.protocol import OptionError

T = TypeVar("T")
R = TypeVar("R")
ENV = "ODDSCALC_SCHEDULER"
LOCAL = "local"
CONNECT_TIMEOUT = "4s"  # an unreachable scheduler fails in seconds (a reachable one answers in milliseconds)


def address(option: str | None) -> str | None:
    """The scheduler to use: the option, else ``ODDSCALC_SCHEDULER``, else none (compute in process)."""
    return option or os.environ.get(ENV) or None


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise OptionError("a cluster run needs dask.distributed: pip install 'oddscalc[cluster]'") from None
    return distributed


@contextmanager
def client(where: str, workers: int | None = None) -> Iterator[Any]:
    """A dask client: to the scheduler at ``where``, or to a new LocalCluster for ``local``."""
    distributed = _distributed()
    if where == LOCAL:
        n = workers or os.cpu_count() or 1
        with distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                      silence_logs=40) as cluster, distributed.Client(cluster) as c:
            yield c
        return
    try:  # the address parsed first, so that what a connection raises is never taken for a bad address
        from distributed.comm.addressing import parse_address, parse_host_port
        from distributed.comm.registry import get_backend

        scheme, location = parse_address(where)
        get_backend(scheme)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except (ValueError, TypeError) as e:  # no port, an unknown protocol
        raise OptionError(f"not a dask scheduler address: {where!r} ({e}); give tcp://HOST:PORT, or {LOCAL} for a "
                          "cluster on this machine") from None
    try:
        c = distributed.Client(where, timeout=CONNECT_TIMEOUT)
    except OSError as e:
        raise OptionError(f"cannot reach the dask scheduler at {where}: {e}") from None
    except Exception as e:  # noqa: BLE001 - something answered that is not a dask scheduler (its handshake unread)
        raise OptionError(f"cannot reach the dask scheduler at {where}: what answers there is not one "
                          f"({type(e).__name__})") from None
    try:
        yield c
    finally:
        c.close()


def workers(c: Any) -> int:
    """How many chunks the cluster behind client ``c`` runs at once (its worker threads)."""
    return max(1, int(sum(c.nthreads().values())))


def streamer(c: Any, retries: int = 3) -> Callable[[Callable[[T], R], Sequence[T]], Iterator[tuple[int, R]]]:
    """``fn`` over the chunks on the cluster, each result given with its chunk's index as soon as it is done (a
    caller that keeps a record of the work can write it as it goes); a chunk whose worker dies is run again."""
    distributed = _distributed()

    def run(fn: Callable[[T], R], chunks: Sequence[T]) -> Iterator[tuple[int, R]]:
        futures = c.map(fn, list(chunks), pure=False, retries=retries)
        index = {f.key: i for i, f in enumerate(futures)}
        for f in distributed.as_completed(futures):
            yield index[f.key], f.result()

    return run


def mapper(c: Any, progress: Callable[[int, int], None] | None = None,
           retries: int = 3) -> Callable[[Callable[[T], R], Sequence[T]], list[R]]:
    """``map(fn, chunks)`` on the cluster, results in chunk order; a chunk whose worker dies is run again."""
    stream = streamer(c, retries)

    def run(fn: Callable[[T], R], chunks: Sequence[T]) -> list[R]:
        out: list[Any] = [None] * len(chunks)
        for done, (i, result) in enumerate(stream(fn, chunks), start=1):
            out[i] = result
            if progress is not None:
                progress(done, len(chunks))
        return out

    return run
