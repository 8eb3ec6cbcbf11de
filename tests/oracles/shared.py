"""What a test computes once for all of a run's xdist workers: the first to ask makes it while the others wait,
then they read its pickle. For the plain brute forces and reference runs several test files (or several tests
that worksteal spreads over the workers) ask for, seconds of CPU each worker would spend again on the same
value."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import pickle
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from oddscalc.cache import Arrays, Store, entry_path

SHARED = "ODDSCALC_TEST_SHARED"  # tests/conftest.py names a folder the run's xdist workers share

T = TypeVar("T")


def shared(name: str, make: Callable[[], T]) -> T:
    """``make()``, made once for all of the run's workers: the first to ask makes it while the others wait, then
    they read its pickle (seconds of CPU each worker would spend again on the same reference run)."""
    folder = os.environ.get(SHARED)
    if folder is None:
        return make()
    path = Path(folder) / f"{hashlib.sha256(name.encode()).hexdigest()[:24]}.pickle"
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if path.exists():
            out: T = pickle.loads(path.read_bytes())
            return out
        out = make()
        part = path.with_suffix(".part")
        part.write_bytes(pickle.dumps(out))
        part.replace(path)
        return out


@contextlib.contextmanager
def one_at_a_time(name: str, timeout: float = 120.0) -> Iterator[None]:
    """Hold the run's lock called ``name`` (the workers' shared folder; none without one) for the block: another
    worker asking for it waits, at most ``timeout`` seconds (then goes on without it: a wait that long can only be
    two workers each holding what the other asks for)."""
    folder = os.environ.get(SHARED)
    if folder is None:
        yield
        return
    path = Path(folder) / f"{hashlib.sha256(name.encode()).hexdigest()[:24]}.lock"
    with open(path, "w") as lock:
        end = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > end:
                    break
                time.sleep(0.05)
        yield  # the lock goes with the file's closing


def counting_once(get: Callable[[Store, Mapping[str, Any], Callable[[], Arrays]], dict[str, np.ndarray]]
                  ) -> Callable[[Store, Mapping[str, Any], Callable[[], Arrays]], dict[str, np.ndarray]]:
    """``Store.get`` for the run's workers sharing one store: a missing entry is built by the first worker to ask
    while the others wait, then read as stored. Without it both workers counted the same entry at once when both
    asked early (the cold Caribbean count, 5 s of CPU, twice at the start of a run)."""

    def once(store: Store, key: Mapping[str, Any], build: Callable[[], Arrays]) -> dict[str, np.ndarray]:
        if store.directory is None or not (store.read and store.write):
            return get(store, key, build)
        hit = store.load(key)
        if hit is not None:
            return hit
        with one_at_a_time(f"count {entry_path(store.directory, key)}"):
            return get(store, key, build)  # it loads what a worker stored while this one waited

    return once
