"""Ctrl-C held back while a compiled kernel runs, then raised as usual.

A KeyboardInterrupt raised inside numba's dispatcher (its first call of a parallel kernel loads
the code and starts the thread pool in Python) leaves the kernel half set up, and the call that
follows crashes the process (a segmentation fault, exit 139). So each kernel call runs with SIGINT
recorded instead of raised; the interrupt is raised as soon as the call returns, which for the
long counts is between chunks, a fraction of a second later.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


@contextmanager
def held() -> Iterator[None]:
    """Run the body with Ctrl-C recorded; raise KeyboardInterrupt after it if one came."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread receives signals
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous in (signal.SIG_IGN, None):
        yield
        return
    caught: list[int] = []

    def record(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    signal.signal(signal.SIGINT, record)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt
