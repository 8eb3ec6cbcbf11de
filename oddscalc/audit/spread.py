"""Reading a log side by side: its rounds cut into byte ranges (``reader.split``), each read by a function of its
own, in ``--workers`` processes on this machine or as chunks on a dask cluster (``oddscalc.cluster``), and the
results given back in file order, so that whatever joins them sees what one reader would have seen.

A chunk that fails gives its error back as a value and the first one in file order is raised, as one reader
would have raised it (a bad line's ``TableError`` is rebuilt from its problems: it does not pickle as itself).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from oddscalc.audit.reader import split
from oddscalc.datafile import Problem, TableError

A = TypeVar("A")
R = TypeVar("R")
Part = tuple[int, int, int] | None  # a byte range of the log's rounds (reader.split), None: all of them
Mapper = Callable[[Callable[[Any], Any], Sequence[Any]], list[Any]]  # map in chunk order (cluster.mapper)
# what the processes' server imports
PRELOAD = ("oddscalc.audit.conformance", "oddscalc.audit.evidence_log", "oddscalc.audit.whole")
SPLIT_BYTES = 20_000_000  # a log shorter than this (some 70,000 rounds) is read by one process on this machine


def where(path: Path, mapper: Mapper | None) -> Path:
    """The path a chunk reads the log at: on a cluster its absolute path (a worker's directory is not ours; the
    log must be on a file system the workers share), else the path as given (which errors name)."""
    return path.resolve() if mapper is not None else path


def parts(path: Path, workers: int, mapper: Mapper | None = None) -> list[Part]:
    """The log's byte ranges: ``workers`` of them for a long log (any log, on a cluster), else the whole log."""
    if mapper is None and (workers < 2 or path.stat().st_size <= SPLIT_BYTES):
        return [None]
    return list(split(path, max(1, workers))) or [None]


@dataclass(frozen=True)
class _Failed:
    """A chunk's error, as a value that pickles."""

    error: BaseException | None
    problems: tuple[Problem, ...] = ()
    what: str = ""

    def raise_(self) -> None:
        if self.error is not None:
            raise self.error
        raise TableError(self.problems, self.what)


@dataclass(frozen=True)
class _Guarded(Generic[A, R]):
    """``fn`` whose error is returned, not raised (a top-level object: it pickles for processes and a cluster)."""

    fn: Callable[[A], R]

    def __call__(self, arg: A) -> R | _Failed:
        try:
            return self.fn(arg)
        except TableError as e:
            return _Failed(None, e.problems, e.what)
        except Exception as e:  # noqa: BLE001 - given back to the caller, which raises it in file order
            return _Failed(e)


def _processes(fn: Callable[[Any], Any], chunks: Sequence[Any]) -> list[Any]:
    import concurrent.futures
    import multiprocessing

    # not a fork of this process: once a numba kernel has run its threads here (the evidence's counts), a forked
    # child aborts; the fork server is a fresh process, started once, with the readers' modules already imported
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))
    with concurrent.futures.ProcessPoolExecutor(len(chunks), mp_context=context, initializer=_one_thread) as ex:
        return list(ex.map(fn, chunks))


def _one_thread() -> None:
    """A reader's numba kernels on one thread: the processes are the parallelism (threads besides would only
    contend for the same cores)."""
    import numba

    numba.set_num_threads(1)


def side_by_side(fn: Callable[[A], R], chunks: Sequence[A], mapper: Mapper | None = None) -> list[R]:
    """``fn`` over ``chunks``, results in chunk order: on the cluster of ``mapper``, else one process per chunk
    (here, for a single chunk); the first error in chunk order is raised."""
    if mapper is None and len(chunks) == 1:
        return [fn(chunks[0])]
    found = (mapper or _processes)(_Guarded(fn), list(chunks))
    for r in found:
        if isinstance(r, _Failed):
            r.raise_()
    return found


__all__ = ["SPLIT_BYTES", "Mapper", "Part", "parts", "side_by_side", "where"]
