"""The exact hold after n rounds of a wager whose stake takes two values (Caribbean Stud's ante alone when the player
folds, ante and raise when he raises): quantiles of a ratio of two sums, by conditioning on the count of each stake.

With R the rounds at the larger stake s2 (the others at s1), the hold is H = sum(W) / (n s1 + R (s2 - s1)), and
given R the house's net sum(W) is the sum of R rounds drawn from the rounds at s2 and n - R from the rounds at s1,
independent. So

    P(H < t) = sum over R of P(R) P(sum(W) < t (n s1 + R (s2 - s1)) | R),

R binomial (n, P(S = s2)). Each distribution is a convolution power on one lattice (:mod:`oddscalc.filing.sums`, with
its proven error), the ones of the R at s2 built one round at a time from the least R with mass: the mixture's error
in l1 is at most the largest of theirs plus the binomial's. A band's end is searched by bisection on t (P(H < t)
rises with t), kept on its proven side, and rounded outward to 1e-8.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from oddscalc.filing import sums

MAX_CELLS = 1 << 22  # the most lattice points held for every R together (32 MB of floats)
STEPS = 48  # bisection steps for an end (to 2^-48 of the support's width)

Floats = sums.Floats


@dataclass(frozen=True)
class Mixture:
    """The n-round hold of a two-stake wager: for each R in ``rs``, P(R) and the distribution of the house's sum
    given R, as running sums laid end to end (``flat[starts[j] + i]``: P(sum <= lows[j] + i unit | R = rs[j]),
    ``sizes[j]`` of them); within ``error`` in l1."""

    rounds: int
    s1: float
    s2: float
    unit: float
    rs: Floats
    p_r: Floats
    lows: Floats
    starts: npt.NDArray[np.int64]
    sizes: npt.NDArray[np.int64]
    flat: Floats
    error: float

    def below(self, t: float) -> float:
        """P(H < t) as computed (within ``error``)."""
        return self._mass(t, strict=True)

    def above(self, t: float) -> float:
        """P(H > t) as computed (within ``error``)."""
        return 1.0 - self._mass(t, strict=False)

    def _mass(self, t: float, strict: bool) -> float:
        """P(H < t) (strict) or P(H <= t): for each R, the sum below t times its total stake."""
        x = (t * (self.rounds * self.s1 + self.rs * (self.s2 - self.s1)) - self.lows) / self.unit
        # the values lows + i unit below x (at or below it): i < x (i <= x), the first k of them
        k = np.ceil(x) if strict else np.floor(x) + 1
        k = np.minimum(np.maximum(k, 0), self.sizes).astype(np.int64)
        got = np.where(k > 0, self.flat[self.starts + np.maximum(k, 1) - 1], 0.0)
        return float(np.dot(self.p_r, got))


def mixture(outcomes: Sequence[tuple[Fraction, Fraction, Fraction]], n: int) -> Mixture | None:
    """The n-round hold of (house net, stake, probability) outcomes with exactly two stakes; None when its lattices
    would hold more than MAX_CELLS points (or the stakes are not two)."""
    stakes = sorted({st for _, st, p in outcomes if p})
    if len(stakes) != 2:
        return None
    s1, s2 = stakes
    q = sum((p for _, st, p in outcomes if st == s2 and p), Fraction(0))
    unit = sums.gcd(w - outcomes[0][0] for w, _, p in outcomes if p) or Fraction(1)
    low = sums.one_round(((w, p / (1 - q)) for w, st, p in outcomes if st == s1 and p), unit)
    high = sums.one_round(((w, p / q) for w, st, p in outcomes if st == s2 and p), unit)
    count = sums.one_round(((Fraction(0), 1 - q), (Fraction(1), q)))
    if low is None or high is None or count is None:
        return None
    binomial = sums.power(count, n)
    if binomial is None:
        return None
    r_first = int(binomial.value(0))
    rs = np.arange(r_first, r_first + len(binomial.probs))
    first = sums.power(high, r_first) if r_first else None
    fold = sums.power(low, n - int(rs[-1])) if n > rs[-1] else None
    lows: list[float] = []
    cums: list[Floats] = []
    error = 0.0
    cells = 0
    # the sums at s1 for n - R rounds, from the fewest (R largest) up: held until R reaches them
    folds: list[sums.Sum | None] = [fold]
    for _ in range(len(rs) - 1):
        nxt = low if folds[-1] is None else sums.convolve(folds[-1], low)
        if nxt is None:
            return None
        cells += len(nxt.probs)
        if cells > MAX_CELLS:
            return None
        folds.append(nxt)
    folds.reverse()  # folds[j]: n - rs[j] rounds at s1
    at_high = first
    for j in range(len(rs)):
        if j:
            at_high = high if at_high is None else sums.convolve(at_high, high)
            if at_high is None:
                return None
        both = _joined(at_high, folds[j], unit)
        if both is None:
            return None
        value, probs, err = both
        cells += len(probs)
        if cells > MAX_CELLS:
            return None
        lows.append(float(value))
        cums.append(np.cumsum(probs))
        error = max(error, err)
    sizes = np.array([len(c) for c in cums], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    return Mixture(n, float(s1), float(s2), float(unit), rs.astype(np.float64), binomial.probs, np.array(lows),
                   starts, sizes, np.concatenate(cums), error + binomial.error + 2 * len(rs) * sums.U)


def _joined(a: sums.Sum | None, b: sums.Sum | None, unit: Fraction) -> tuple[Fraction, Floats, float] | None:
    """The sum of two independent sums on one unit (either may be none: no rounds): (its least value, its
    probabilities, its error in l1)."""
    if a is None and b is None:
        return Fraction(0), np.ones(1), 0.0
    if a is None or b is None:
        one = a if a is not None else b
        assert one is not None
        return one.value(0), one.probs, one.error
    if len(b.probs) == 1:  # the rounds at one stake all end alike (Caribbean's folds): a shift
        return a.value(0) + b.value(0), a.probs * b.probs[0], a.error * (1 + b.error) + b.error + sums.U
    if len(a.probs) + len(b.probs) - 1 > 2 * sums.MAX_POINTS:
        return None
    c, rounding = sums.product(a.probs, b.probs)
    lo, kept, trimmed = sums.trim(c)
    return a.value(0) + b.value(0) + lo * unit, kept, a.error * (1 + b.error) + b.error + rounding + trimmed


def end(m: Mixture, tail: float, upper: bool, support: tuple[float, float], hold: float) -> float:
    """The proven end of a band at ``tail``: the largest t (lower end) with P(H < t) + error <= tail, or the smallest
    (upper end) with P(H > t) + error <= tail, by bisection between the expected hold and the support's end."""
    good = support[1] if upper else support[0]
    bad = hold
    for _ in range(STEPS):
        mid = (good + bad) / 2
        p = m.above(mid) if upper else m.below(mid)
        if p + m.error <= tail:
            good = mid
        else:
            bad = mid
    return good


__all__ = ["MAX_CELLS", "Mixture", "end", "mixture"]
