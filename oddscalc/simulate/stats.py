"""Statistics: running sums of per-round quantities, the estimates made from them, and a whole run's result.

Each figure is the mean of an i.i.d. per-round quantity; its 99% confidence interval is
mean +- z * sd / sqrt(N) with z = z_0.995 and sd the sample standard deviation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from oddscalc.simulate.arrays import FloatArray

Z_995 = 2.5758293035489004  # two-sided 99%: the 0.995 quantile of the standard normal
FEW_WINS = 30  # below this many winning rounds the normal interval of a wager is only a rough guide


class RunningSum:
    """Running sums of one per-round quantity, for its mean and sample standard deviation."""

    def __init__(self) -> None:
        self.n = 0
        self.s1 = 0.0
        self.s2 = 0.0

    def add(self, x: FloatArray) -> None:
        """Add one batch of per-round values."""
        self.n += len(x)
        self.s1 += float(x.sum())
        self.s2 += float((x * x).sum())

    @property
    def mean(self) -> float:
        """The sample mean."""
        return self.s1 / self.n

    @property
    def sd(self) -> float:
        """The sample standard deviation (0 below two rounds)."""
        if self.n < 2:
            return 0.0
        return math.sqrt(max(self.s2 - self.s1 * self.s1 / self.n, 0.0) / (self.n - 1))


@dataclass(frozen=True)
class Estimate:
    """One simulated figure, its 99% confidence interval and the exact value it should contain."""

    wager: str
    figure: str  # expected_value | hit_frequency | average_stake | paired_expected_value
    rounds: int
    mean: float
    sd: float  # sample standard deviation of the per-round quantity
    exact: Fraction | None  # None: nothing exact to compare with
    wins: int | None = None  # rounds the wager won (for the reliability note)

    @staticmethod
    def of(wager: str, figure: str, sums: RunningSum, exact: Fraction | None = None,
           wins: int | None = None) -> Estimate:
        """The estimate made from one quantity's running sums."""
        return Estimate(wager, figure, sums.n, sums.mean, sums.sd, exact, wins)

    @property
    def half_width(self) -> float:
        """Half the width of the 99% confidence interval."""
        return Z_995 * self.sd / math.sqrt(self.rounds)

    @property
    def low(self) -> float:
        """The low end of the 99% confidence interval."""
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        """The high end of the 99% confidence interval."""
        return self.mean + self.half_width

    @property
    def inside(self) -> bool | None:
        """Whether the exact value lies inside the interval (None: no exact value)."""
        if self.exact is None:
            return None
        return self.low <= float(self.exact) <= self.high

    @property
    def deviation(self) -> float | None:
        """(simulated - exact) in standard errors."""
        if self.exact is None:
            return None
        se = self.sd / math.sqrt(self.rounds)
        diff = self.mean - float(self.exact)
        return diff / se if se > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))


@dataclass(frozen=True)
class Simulation:
    """One run of the simulator: what was played, every estimate, and how long it took."""

    game: str
    table: str
    table_sha256: str
    rounds: int
    seed: int
    strategy: str
    rules: Mapping[str, Any]
    estimates: tuple[Estimate, ...]
    notes: tuple[str, ...] = ()
    seconds_simulating: float = 0.0
    seconds_exact: float = 0.0

    @property
    def checked(self) -> tuple[Estimate, ...]:
        """The estimates that have an exact value to compare with."""
        return tuple(e for e in self.estimates if e.exact is not None)

    @property
    def outside(self) -> tuple[Estimate, ...]:
        """The checked estimates whose exact value lies outside their interval."""
        return tuple(e for e in self.checked if not e.inside)

    @property
    def rounds_per_second(self) -> float:
        """Simulated rounds per second of dealing and settling."""
        return self.rounds / self.seconds_simulating if self.seconds_simulating > 0 else math.inf
