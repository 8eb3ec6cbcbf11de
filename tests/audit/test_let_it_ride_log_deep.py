"""How many rounds of Let It Ride it takes to flag a player who sees the first community card before bet 1: 30
seeded simulated logs (``simulate --log --knows let-it-ride-flash-first-community``), each weighed by the audit's
evidence against honest play. The median is stated in docs/hand-log.md."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from oddscalc.audit.evidence_log import weigh_path
from oddscalc.protection.information import load_model
from oddscalc.simulate.log import write_log

FLASH = "let-it-ride-flash-first-community"
RUNS, ROUNDS = 30, 400


def rounds_to_flag(folder: Path) -> list[int]:
    """Per seed, the round at which the Bayes factor for the flash first passes 1,000 (every log is flagged)."""
    model = load_model(FLASH, "let-it-ride")[0]
    found = []
    for seed in range(1, RUNS + 1):
        log = write_log("let-it-ride", folder / f"f{seed}.jsonl", None, ROUNDS, 1000 + seed, knows=FLASH).path
        w = weigh_path("let-it-ride", None, log, [model]).suspects[0]
        assert w.flagged and w.first_flagged is not None
        found.append((w.first_flagged - 1) // 2 + 1)  # two decisions a round: decision d (from 1), round (d-1)//2+1
    return found


@pytest.mark.deep
def test_rounds_to_flag_a_player_who_sees_the_first_community_card(tmp_path: Path) -> None:
    found = rounds_to_flag(tmp_path)
    # seeded, so the figures are the ones docs/hand-log.md states
    assert (statistics.median(found), min(found), max(found)) == (23.5, 7, 67)
