"""The tests of a conformance audit: observed counts against exact probabilities.

Goodness of fit. Pearson's X^2 and the likelihood-ratio G = 2 sum O ln(O/E) are chi-square with k - 1 degrees of
freedom only when every expected count is large enough; a casino wager's top awards are not (a royal flush is
expected 0.03 times in 10,000 rounds). So cells are merged first (Cochran's rule): every event expected fewer
than ``MIN_EXPECTED`` times is pooled, rarest first, into one "rare events" cell, and that cell is pooled with the
next rarest event until it reaches ``MIN_EXPECTED`` (the report names the events merged). When everything is rare
(fewer than two cells remain) the test is the exact binomial tail of the rarest cell seen. Each rare event is also
given its own exact Poisson upper tail (P[X >= observed]), which is what shows a top award paid too often.

The chi-square tail is the regularised upper incomplete gamma function Q(k/2, x/2) (series and continued fraction,
as in Numerical Recipes 6.2), computed in floats: a p-value is a probability to compare with a level, not a figure
of the game.

>>> round(chi2_sf(3.841458820694124, 1), 6)
0.05
>>> round(chi2_sf(10.0, 10), 6)
0.440493
>>> merge([("a", 90, Fraction(9, 10)), ("b", 8, Fraction(8, 100)), ("c", 2, Fraction(2, 100))], 100).merged
('c', 'b')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

MIN_EXPECTED = 5


def _gamma_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    ap = a
    for _ in range(10_000):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, df: int) -> float:
    """P[chi-square with ``df`` degrees of freedom >= x]."""
    if df <= 0:
        return 1.0
    if x <= 0:
        return 1.0
    a, half = df / 2, x / 2
    if half < a + 1:
        return max(0.0, 1.0 - _gamma_series(a, half))
    return _gamma_fraction(a, half)


def normal_sf(z: float) -> float:
    """P[Z >= z] for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def poisson_upper(k: int, mean: float) -> float:
    """P[X >= k] for X Poisson with ``mean`` (the count of a rare event in many rounds)."""
    if k <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    # P[X >= k] = P(k, mean), the regularised lower incomplete gamma function: no subtraction near 1 for a rare event
    return _gamma_series(k, mean) if mean < k + 1 else max(0.0, 1.0 - _gamma_fraction(k, mean))


@dataclass(frozen=True)
class Merged:
    """Cells after merging: (label, observed, expected count) each, and the events pooled into the rare cell."""

    cells: tuple[tuple[str, int, float], ...]
    merged: tuple[str, ...]


def merge(rows: Sequence[tuple[str, int, Fraction]], n: int) -> Merged:
    """Pool the events expected fewer than MIN_EXPECTED times in ``n`` rounds (rows: event, observed,
    probability); events of probability 0 stay apart (any count there is impossible, tested on its own)."""
    live = [(e, o, float(p * n)) for e, o, p in rows if p > 0]
    live.sort(key=lambda r: r[2])
    merged: list[str] = []
    obs, exp = 0, 0.0
    cells = list(live)
    # never the last cell: with everything else rare the test is the pooled rare cell's exact tail (``fit``)
    while len(cells) > 1 and (cells[0][2] < MIN_EXPECTED or (merged and exp < MIN_EXPECTED)):
        e, o, x = cells.pop(0)
        merged.append(e)
        obs, exp = obs + o, exp + x
    out = [(e, o, x) for e, o, x in cells]
    if merged:
        out.append(("+".join(merged) if len(merged) <= 3 else f"{len(merged)} rare events", obs, exp))
    return Merged(tuple(out), tuple(merged))


@dataclass(frozen=True)
class Fit:
    """A goodness-of-fit test: Pearson's X^2, G, degrees of freedom, their p-values, and how it was made."""

    chi2: float
    g: float
    df: int
    p_chi2: float
    p_g: float
    method: str


def fit(cells: Sequence[tuple[str, int, float]], merged: Sequence[str]) -> Fit:
    """Pearson and G tests on merged cells (see the module's docstring)."""
    if len(cells) < 2:
        return Fit(0.0, 0.0, 0, 1.0, 1.0, "one cell: nothing to test")
    chi2 = sum((o - e) ** 2 / e for _, o, e in cells)
    g = 2 * sum(o * math.log(o / e) for _, o, e in cells if o > 0)
    df = len(cells) - 1
    if merged and cells[-1][2] < MIN_EXPECTED:  # two cells, one of them rare: its exact tail, both ways
        _, o, e = cells[-1]
        p = min(1.0, 2 * min(poisson_upper(o, e), 1 - poisson_upper(o + 1, e)))
        return Fit(chi2, g, df, p, p, f"exact: the {len(merged)} rare event(s) pooled, Poisson tails both ways "
                                      f"(expected {e:.3g})")
    method = "chi-square on every event" if not merged else \
        f"chi-square, {len(merged)} event(s) expected fewer than {MIN_EXPECTED} times merged into one cell"
    return Fit(chi2, g, df, chi2_sf(chi2, df), chi2_sf(g, df), method)


__all__ = ["MIN_EXPECTED", "Fit", "Merged", "chi2_sf", "fit", "merge", "normal_sf", "poisson_upper"]
