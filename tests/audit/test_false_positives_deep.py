"""The false-positive rates the audit report states (``oddscalc/audit/false_positives.toml``) measured again: 200
seeded honest logs of 10,000 rounds per game, each default model's flagged logs counted (deep: some 2 minutes of
CPU, Let It Ride's share some 15 s; the measurement is ``tests/oracles/false_positives.py``, which also writes the
file)."""

from __future__ import annotations

import pytest
from oracles.false_positives import HONEST, measure

from oddscalc.audit.false_positives import measured

pytestmark = pytest.mark.deep


def test_the_shipped_rates_are_measured_again() -> None:
    again = measure()
    shipped = measured()
    assert [(m.game, m.model, m.runs, m.rounds, m.flagged) for m in again] == \
        [(r.game, r.model, r.runs, r.rounds, r.flagged) for r in shipped]
    assert all(r.honest_play == HONEST[r.game] for r in shipped)
    assert all(r.flagged <= r.runs // 100 for r in shipped)  # the rule's rate is about 1% at most
