"""Progress of long work, on one stderr line, shown only when asked (the CLI asks when stderr is a terminal)."""

from __future__ import annotations

import sys


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
        """Show the share done."""
        self.say(f"{100 * done // max(total, 1):3d}% ")

    def finish(self) -> None:
        """Show 100% and end the line."""
        if self.enabled:
            print(f"\r{self.label}: 100%", file=sys.stderr, flush=True)
