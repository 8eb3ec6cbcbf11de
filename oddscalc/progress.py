"""Progress of long work, on one stderr line, shown only when asked (the CLI asks when stderr is a terminal), and
told to a listener of the thread doing the work when one listens (:func:`listening`: the workbench's share shown
while a count runs)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_HEARD = threading.local()  # the listener of each thread: work reports progress in the thread that asked for it


@contextmanager
def listening(hear: Callable[[int, int], None]) -> Iterator[None]:
    """Within the block, every ``step(done, total)`` of a :class:`Progress` in this thread also calls ``hear``
    (whether or not it prints)."""
    before = getattr(_HEARD, "hear", None)
    _HEARD.hear = hear
    try:
        yield
    finally:
        _HEARD.hear = before


class Progress:
    """``step(done, total)`` rewrites one line ``<label> NN%``; ``finish()`` ends it."""

    def __init__(self, enabled: bool, label: str):
        self.enabled = enabled
        self.label = label

    def say(self, text: str) -> None:
        """Show free text on the progress line."""
        if self.enabled:
            print(f"\r{self.label}: {text}", end="", file=sys.stderr, flush=True)

    def step(self, done: int, total: int) -> None:
        """Show the share done (and tell this thread's listener)."""
        hear = getattr(_HEARD, "hear", None)
        if hear is not None:
            hear(done, total)
        self.say(f"{100 * done // max(total, 1):3d}% ")

    def finish(self) -> None:
        """Show 100% and end the line."""
        if self.enabled:
            print(f"\r{self.label}: 100%", file=sys.stderr, flush=True)
