"""Proven bounds on the tails of a hold after n rounds, for any wager: Berry-Esseen about the normal, and Chernoff.

The hold after n rounds is H = sum(W) / sum(S) for a round's house net W (minus the player's result) and stake S > 0.
For any t, H < t exactly when sum(t S - W) > 0: a sum of n independent copies of Z(t) = t S - W. So each tail of H
at t is a tail of an ordinary sum, and two classical bounds apply at every n:

- Berry-Esseen (Shevtsova's constant C = 0.4748 for identically distributed summands, 2011):
  |P(sum Z <= x) - Phi((x - n mu) / (sigma sqrt n))| <= C rho / (sigma^3 sqrt n), rho = E|Z - mu|^3. Hence
  P(H < t) <= Phi(sqrt n mu(t) / sigma(t)) + C rho(t) / (sigma(t)^3 sqrt n): the normal approximation (Fieller's form
  of it for a ratio, the delta method's band when the stake is fixed) with its worst error added.
- Chernoff: P(sum Z > 0) <= E[exp(theta Z)]^n for every theta >= 0, the infimum taken over a grid. It is never
  beyond the support (for t below every round's W / S the bound is 0) and needs no normality, so it holds for a
  jackpot at any n; it is wider than the truth where the normal is good.

A lower end L of a band at tail ``tail`` is a t with a bound on P(H < t) at most ``tail``; any t below a valid one is
valid too, so a search keeps the valid side of every step. The floats' rounding is kept on the safe side by a
margin on each bound (``SLACK``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

BERRY_ESSEEN = 0.4748  # Shevtsova (2011), i.i.d. summands with a finite third moment
SLACK = 1e-9  # added to every computed tail bound: the floats' rounding, many times over
GRID = 64  # the points of each grid an end of a band is searched on (three grids: to 1e-4 of its distance)
THETAS = np.concatenate(([0.0], np.geomspace(1e-9, 1e3, 31)))  # the Chernoff exponents tried, per unit of Z's scale
FINE = 24  # and about the best of them, on a finer grid

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Rounds:
    """A round as float arrays, one entry per outcome: the house net W, the stake S, the probability; with the
    expected hold h = E[W] / E[S] and the support of the hold [low, high] (the least and most W / S)."""

    w: Floats
    s: Floats
    p: Floats
    hold: float
    low: float
    high: float

    @staticmethod
    def of(outcomes: tuple[tuple[Fraction, Fraction, Fraction], ...]) -> Rounds:
        """From exact (house net, stake, probability) triples."""
        w = np.array([float(x) for x, _, _ in outcomes])
        s = np.array([float(st) for _, st, _ in outcomes])
        p = np.array([float(q) for _, _, q in outcomes])
        hold = sum((x * q for x, _, q in outcomes), Fraction(0)) / sum((st * q for _, st, q in outcomes), Fraction(0))
        ratios = [x / st for x, st, q in outcomes if q]
        return Rounds(w, s, p, float(hold), float(min(ratios)), float(max(ratios)))

    def z(self, t: Floats) -> Floats:
        """Z(t) = t S - W: a row per t, a column per outcome."""
        return t[:, None] * self.s[None, :] - self.w[None, :]

    def moments(self, t: Floats) -> tuple[Floats, Floats, Floats]:
        """(mu, sigma, rho) of Z(t), one each per t."""
        z = self.z(t)
        mu = z @ self.p
        d = np.abs(z - mu[:, None])
        return mu, np.sqrt((d * d) @ self.p), (d * d * d) @ self.p


def phi(x: Floats) -> Floats:
    """The standard normal distribution function."""
    return np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in x.tolist()])


def berry_esseen(r: Rounds) -> float:
    """C rho / sigma^3 of one round at the expected hold: the Berry-Esseen bound times sqrt n."""
    _, sigma, rho = r.moments(np.array([r.hold]))
    return BERRY_ESSEEN * float(rho[0]) / float(sigma[0]) ** 3 if sigma[0] else math.inf


def normal_below(r: Rounds, n: int, t: Floats) -> Floats:
    """Proven bounds on P(H < t) from the normal and Berry-Esseen, one per t (below the expected hold)."""
    mu, sigma, rho = r.moments(t)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = phi(math.sqrt(n) * mu / sigma) + BERRY_ESSEEN * rho / (sigma**3 * math.sqrt(n)) + SLACK
    return np.where(sigma > 0, out, np.where(mu <= 0, 0.0, 1.0))


def normal_above(r: Rounds, n: int, t: Floats) -> Floats:
    """Proven bounds on P(H > t), one per t (above the expected hold)."""
    mu, sigma, rho = r.moments(t)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = phi(-math.sqrt(n) * mu / sigma) + BERRY_ESSEEN * rho / (sigma**3 * math.sqrt(n)) + SLACK
    return np.where(sigma > 0, out, np.where(mu >= 0, 0.0, 1.0))


def _log_mgf_min(z: Floats, p: Floats) -> Floats:
    """Per row of z: the least over a grid of theta of log E[exp(theta z)], each theta scaled to the row's range (a
    valid Chernoff exponent whatever the grid): a coarse grid, then a finer one about each row's best."""
    scale = np.abs(z).max(axis=1)
    scale[scale == 0] = 1.0

    def logs(thetas: Floats) -> Floats:  # thetas: a row per row of z
        e = (thetas / scale[:, None])[:, :, None] * z[:, None, :]
        top = e.max(axis=2, keepdims=True)
        out: Floats = top[:, :, 0] + np.log(np.exp(e - top) @ p)
        return out

    coarse = np.broadcast_to(THETAS, (len(z), len(THETAS)))
    first = logs(coarse)
    best = first.argmin(axis=1)
    lo, hi = THETAS[np.maximum(best - 1, 1)], THETAS[np.minimum(best + 1, len(THETAS) - 1)]
    fine = np.geomspace(lo, hi, FINE, axis=1)
    out: Floats = np.minimum(first.min(axis=1), logs(fine).min(axis=1))
    return out


def chernoff_below(r: Rounds, n: int, t: Floats) -> Floats:
    """Proven bounds on P(H < t) = P(sum Z(t) > 0) <= min_theta E[exp(theta Z)]^n, one per t."""
    with np.errstate(under="ignore"):
        out = np.minimum(1.0, np.exp(n * _log_mgf_min(r.z(t), r.p)) * (1 + 1e-12) + SLACK)
    return np.where(t <= r.low, 0.0, out)


def chernoff_above(r: Rounds, n: int, t: Floats) -> Floats:
    """Proven bounds on P(H > t) = P(sum -Z(t) > 0), one per t."""
    with np.errstate(under="ignore"):
        out = np.minimum(1.0, np.exp(n * _log_mgf_min(-r.z(t), r.p)) * (1 + 1e-12) + SLACK)
    return np.where(t >= r.high, 0.0, out)


def end(bound: Callable[[Floats], Floats], r: Rounds, tail: float, upper: bool) -> float:
    """The end of a band nearest the expected hold found with bound(t) <= tail (a proven end: any t farther out is
    valid too), searched on a grid of distances from the hold (geometric, then twice linear between the nearest
    valid point and the next one in); the support's own end when no point qualifies."""
    side = 1.0 if upper else -1.0
    edge = r.high if upper else r.low
    width = abs(edge - r.hold)
    if width == 0:
        return edge
    best, inner = width, 0.0  # distances from the hold: best valid (the support's end is), inner not shown valid
    grid = np.geomspace(width * 1e-12, width, GRID)
    for _ in range(3):
        ok = bound(r.hold + side * grid) <= tail
        if ok.any():
            best = float(grid[ok].min())
        closer = grid[grid < best]  # every one of them failed
        if len(closer):
            inner = max(inner, float(closer.max()))
        if best - inner <= width * 1e-15:
            break
        grid = np.linspace(inner, best, GRID + 2)[1:-1]
    return r.hold + side * best


__all__ = ["BERRY_ESSEEN", "Rounds", "berry_esseen", "chernoff_above", "chernoff_below", "end", "normal_above",
           "normal_below", "phi"]
