"""The measured false-positive rate of the evidence's decision rule, as the audit report states it.

A Bayes factor above 1,000 flags a log. How often that rule flags an honest log was measured, per game and
suspected model, over many seeded honest logs (``false_positives.toml`` beside this module: runs, rounds per log,
logs flagged, how the honest player played; written by ``PYTHONPATH=tests python -m oracles.false_positives``
and held to a new measurement by the deep test ``tests/audit/test_false_positives_deep.py``). The report gives,
beside each model's verdict, the count and an exact Clopper-Pearson 95% upper bound on the rate (two-sided interval: the
upper end of the 95% interval), so that "0 of 200" is read as "at most 1.83%", not "never".

>>> f"{clopper_pearson_upper(0, 200):.9f}", f"{1 - 0.025 ** (1 / 200):.9f}", clopper_pearson_upper(5, 5)
('0.018275340', '0.018275340', 1.0)
"""

from __future__ import annotations

import functools
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).with_name("false_positives.toml")
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Rate:
    """Of ``runs`` honest logs of ``rounds`` rounds each (the honest player as ``honest_play`` says), how many
    the model flagged."""

    game: str
    model: str
    runs: int
    rounds: int
    flagged: int
    honest_play: str

    @property
    def upper(self) -> float:
        """The exact (Clopper-Pearson) 95% upper bound on the rate."""
        return clopper_pearson_upper(self.flagged, self.runs)

    def describe(self) -> str:
        """The measurement in words: "0 of 200 honest logs of 10,000 rounds flagged (95% upper bound 1.83%)"."""
        return (f"{self.flagged:,} of {self.runs:,} honest logs of {self.rounds:,} rounds flagged (95% upper bound "
                f"{self.upper:.2%})")


def _binomial_cdf(k: int, n: int, p: float) -> float:
    """P[X <= k] for X ~ Binomial(n, p), summed in logs (n of thousands stays finite)."""
    if p <= 0:
        return 1.0
    if p >= 1:
        return 1.0 if k >= n else 0.0
    lp, lq = math.log(p), math.log1p(-p)
    return min(1.0, sum(math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp
                                 + (n - i) * lq) for i in range(k + 1)))


def clopper_pearson_upper(k: int, n: int, confidence: float = CONFIDENCE) -> float:
    """The upper end of the exact two-sided ``confidence`` interval for a binomial rate, ``k`` of ``n``: the p at
    which P[X <= k] = (1 - confidence) / 2 (1 when k = n), found by bisection to 1e-12."""
    if not 0 <= k <= n or n < 1:
        raise ValueError(f"k of n with 0 <= k <= n and n >= 1, not {k} of {n}")
    if k == n:
        return 1.0
    tail = (1 - confidence) / 2
    lo, hi = k / n, 1.0
    while hi - lo > 1e-12:
        mid = (lo + hi) / 2
        if _binomial_cdf(k, n, mid) > tail:
            lo = mid
        else:
            hi = mid
    return hi


@functools.cache
def measured() -> tuple[Rate, ...]:
    """Every measurement of the shipped data file."""
    with open(DATA, "rb") as f:
        data = tomllib.load(f)
    return tuple(Rate(m["game"], m["model"], int(m["runs"]), int(m["rounds"]), int(m["flagged"]),
                      m["honest_play"]) for m in data["measured"])


def rate(game: str, model: str) -> Rate | None:
    """The measured false-positive rate of ``model`` (an information model's id) on ``game``'s honest logs, or
    None where it was not measured (a model of the user's own)."""
    return next((r for r in measured() if (r.game, r.model) == (game, model)), None)


__all__ = ["CONFIDENCE", "DATA", "Rate", "clopper_pearson_upper", "measured", "rate"]
