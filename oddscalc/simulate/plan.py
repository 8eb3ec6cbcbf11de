"""A game's plan: how to deal and settle a batch of rounds, and the loop that sums its outcomes.

Each game's module (``let_it_ride``, ``caribbean``, ``baccarat``) reads a table and the run options
into a :class:`Plan`; ``oddscalc.simulate.run`` plays it with :func:`tally` and compares the sums
with the exact analysis.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from oddscalc.progress import Progress
from oddscalc.results import Analysis, RunOptions
from oddscalc.simulate.arrays import FloatArray
from oddscalc.simulate.stats import RunningSum
from oddscalc.tables import Table


@dataclass(frozen=True)
class Outcome:
    """One wager's per-round results in a batch of rounds."""

    units: FloatArray  # net units won per unit bet
    wins: FloatArray | None = None  # share of the round's bets that won (default: units > 0)
    stake: FloatArray | None = None  # units staked, when the stake varies
    paired: FloatArray | None = None  # a second estimator of the mean of ``units`` (see baccarat.paired_estimate)

    def won(self) -> FloatArray:
        """Per round, the share of its bets that won."""
        return self.wins if self.wins is not None else (self.units > 0).astype(np.float64)

    def figures(self) -> list[tuple[str, FloatArray]]:
        """(figure, per-round values) for every figure this outcome estimates."""
        out = [("expected_value", self.units), ("hit_frequency", self.won())]
        if self.stake is not None:
            out.append(("average_stake", self.stake))
        if self.paired is not None:
            out.append(("paired_expected_value", self.paired))
        return out


Outcomes = dict[str, Outcome]  # wager -> its outcomes in a batch of rounds
Play = Callable[[np.random.Generator, int], Outcomes]  # (rng, n) -> n rounds dealt and settled


@dataclass(frozen=True)
class Plan:
    """How one game is simulated under one table and set of options."""

    play: Play
    strategy: str  # what the players do, in words
    exact_options: RunOptions  # the options under which the exact analysis matches what is played
    rules: dict[str, Any]  # the rules as played, for the report
    chunk: int  # rounds per batch: as many as fit comfortably in memory
    notes: list[str] = field(default_factory=list)
    compare_exact: bool = True  # False: the exact analysis is of another game (e.g. another shoe)


PlanMaker = Callable[[Table, RunOptions], tuple[Plan, Analysis | None]]  # also returns the analysis if it made one


def tally(play: Play, rng: np.random.Generator, rounds: int, chunk: int,
          progress: Progress | None = None) -> dict[tuple[str, str], RunningSum]:
    """Play ``rounds`` rounds in batches of ``chunk``: the running sums of every (wager, figure), in
    the order they first appear."""
    sums: dict[tuple[str, str], RunningSum] = {}
    done = 0
    while done < rounds:
        n = min(chunk, rounds - done)
        for wager, outcome in play(rng, n).items():
            for figure, values in outcome.figures():
                sums.setdefault((wager, figure), RunningSum()).add(values)
        done += n
        if progress is not None:
            progress.step(done, rounds)
    if progress is not None:
        progress.finish()
    return sums
