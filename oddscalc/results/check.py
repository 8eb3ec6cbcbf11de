"""A published or claimed figure of a table against the computed one (``verify`` makes them)."""

from __future__ import annotations

from dataclasses import dataclass

NOT_COMPARED = "not compared"  # a Check's verdict: the block's figures were published for other rules or pays


@dataclass(frozen=True)
class Check:
    """One published or claimed figure of the table against the computed one."""

    table: str  # how the table is named to the user: "let-it-ride/standard" or its path
    block: str  # "published" or "claimed"
    wager: str
    figure: str
    expected: str
    computed: str
    verdict: str  # "ok", "MISMATCH" or "ERROR"
    message: str = ""  # why, when the verdict is ERROR, "differs" or "not compared"

    @property
    def ok(self) -> bool:
        """The figure holds, or differs from its source for the reason the table states, or the block's figures
        describe another table and were not compared."""
        return self.verdict in ("ok", "differs", NOT_COMPARED)

