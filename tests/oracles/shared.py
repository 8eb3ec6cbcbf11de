"""What a test computes once for all of a run's xdist workers: the first to ask makes it while the others wait,
then they read its pickle. For the plain brute forces and reference runs several test files (or several tests
that worksteal spreads over the workers) ask for, seconds of CPU each worker would spend again on the same
value."""

from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

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
