"""The sum of n independent rounds, exactly: its distribution on the lattice of the round's outcomes, and its tails.

A round's outcome takes finitely many values, each its least value plus a multiple of one lattice unit ``g`` (the
greatest common divisor of the differences, a Fraction: a jackpot of 50,000, 5,000 and 2,500 over a stake lost has
a unit of 2,500), with exact probabilities. The sum of n rounds lies on the same lattice, and its
distribution is the n-th convolution power of the round's: computed by repeated squaring, and for ten times as many
rounds from the last (S_10n = S_n^8 * S_n^2), on arrays of lattice points.

The probabilities are float64 and every convolution comes with a bound on its error, carried along, so that every
tail the caller reads is a proven bound on the true one:

- ``error`` bounds the l1 distance between the array and the true distribution (so every tail sum, and the mass
  below or above the array, is within ``error`` of the truth). A convolution of a and b, each within e_a and e_b,
  is within e_a (1 + e_b) + e_b before its own rounding.
- Rounding: small convolutions (one round added to many, or few non-zero entries: a jackpot's first rounds) are
  summed directly, their entries sums of non-negative products (relative error at most (k + 1) u for k terms,
  u = 2^-53). Large ones go through a power-of-two real FFT, with Percival's bound for a product by a radix-2 FFT
  in IEEE double precision (C. Percival, Math. Comp. 72 (2003) 387-395),
  |c' - c|_inf <= |a|_2 |b|_2 ((1 + u)^3m (1 + u sqrt 5)^(3m + 1) (1 + b)^3m - 1) at length 2^m with twiddle
  factors within b = 2^-50 (numpy computes them to an ulp or two), taken ten times over (``FFT_MARGIN``):
  numpy's FFT is mixed-radix and real-input, not the textbook radix-2 transform the bound is proven for, so for
  it the bound is stated, not proven; the tests check the sums against exact ones.
- Negative entries (rounding noise around a true 0) are set to 0, which only brings them nearer the truth; the
  mass trimmed from either end (at most ``TRIM`` a convolution) is added to the error.

The error stays below 1e-9 for the shipped tables; quantiles are then read conservatively (a tail is taken as large
as the error allows), so a band read from here holds at least what it says.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

U = 2.0**-53  # the unit roundoff of float64
TWIDDLE = 2.0**-50  # the error of the FFT's twiddle factors (numpy computes them to an ulp or two)
FFT_MARGIN = 10.0  # Percival's bound for a radix-2 FFT, taken this many times over for numpy's mixed-radix one
TRIM = 1e-13  # the mass a convolution may drop from either end of its array (added to the error)
SHIFTS = 32  # a sum with this many values or fewer is added as shifted copies of the other (no FFT error)
SMALL = 4096  # a convolution of this many non-zero products or fewer, or fewer than an FFT's work, is summed directly
MAX_POINTS = 1 << 17  # the longest array of lattice points a sum may take (beyond, the caller bounds the tails: time)

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Sum:
    """The distribution of a sum of ``rounds`` rounds: ``probs[i]`` is P(sum = rounds * base + (first + i) * unit),
    within ``error`` in l1 (every tail read from it is within ``error`` of the true tail)."""

    unit: Fraction
    base: Fraction  # a round's least value
    first: int
    probs: Floats
    error: float
    rounds: int

    def value(self, i: int) -> Fraction:
        """The sum at index ``i`` of the array, exactly."""
        return self.rounds * self.base + (self.first + i) * self.unit

    def lower(self, tail: float) -> Fraction:
        """The largest value v of the array with P(sum < v) <= tail, proven (the error taken against it)."""
        below = np.concatenate(([0.0], np.cumsum(self.probs)[:-1]))  # P(sum < value(i)) as computed
        slack = self.error + _sum_rounding(len(self.probs))
        ok = np.flatnonzero(below + slack <= tail)
        return self.value(int(ok[-1]) if len(ok) else 0)

    def upper(self, tail: float) -> Fraction:
        """The smallest value v of the array with P(sum > v) <= tail, proven."""
        above = np.concatenate((np.cumsum(self.probs[::-1])[::-1][1:], [0.0]))  # P(sum > value(i)) as computed
        slack = self.error + _sum_rounding(len(self.probs))
        ok = np.flatnonzero(above + slack <= tail)
        return self.value(int(ok[0]) if len(ok) else len(self.probs) - 1)


    def below(self, x: float) -> float:
        """P(sum < x) as computed (within ``error``)."""
        i = math.ceil((x - self.rounds * float(self.base)) / float(self.unit)) - self.first  # the first at or above x
        return float(self.probs[:max(0, min(i, len(self.probs)))].sum())

    def above(self, x: float) -> float:
        """P(sum > x) as computed (within ``error``)."""
        i = math.floor((x - self.rounds * float(self.base)) / float(self.unit)) - self.first + 1  # the first above x
        return float(self.probs[max(0, min(i, len(self.probs))):].sum())


def _sum_rounding(k: int) -> float:
    """A bound on the rounding of a running sum of k non-negative numbers adding to at most 1 + 1e-6."""
    return 2 * k * U * (1 + 1e-6)


def gcd(values: Iterable[Fraction]) -> Fraction:
    """The greatest common divisor of Fractions (0 for none or all 0): the largest g with every value a multiple."""
    out = Fraction(0)
    for d in values:
        out = Fraction(math.gcd(out.numerator * d.denominator, d.numerator * out.denominator),
                       out.denominator * d.denominator)
    return out


def lattice(values: Iterable[tuple[Fraction, Fraction]],
            unit: Fraction | None = None) -> tuple[Fraction, Fraction, Floats] | None:
    """One round as (unit, base, probabilities) from (value, probability) pairs: ``probs[k]`` is P(value = base + k
    unit), base the least value and unit the gcd of the differences (or ``unit``, which must divide them); None when
    its lattice would take more than MAX_POINTS points (values whose unit is too fine against their range)."""
    pairs = [(v, p) for v, p in values if p]
    base = min(v for v, _ in pairs)
    if unit is None:
        unit = gcd(v - base for v, _ in pairs) or Fraction(1)
    ks = [(v - base) / unit for v, _ in pairs]
    if any(k.denominator != 1 for k in ks):
        raise ValueError(f"{unit} does not divide the values' differences")
    if max(ks) + 1 > MAX_POINTS:
        return None
    probs = np.zeros(int(max(ks)) + 1)
    for k, (_, p) in zip(ks, pairs):
        probs[int(k)] += float(p)
    return unit, base, probs


def one_round(values: Iterable[tuple[Fraction, Fraction]], unit: Fraction | None = None) -> Sum | None:
    """The distribution of one round (its float probabilities within 2u each of the exact Fractions), or None
    when its lattice is too long; on the lattice of ``unit`` when given."""
    got = lattice(values, unit)
    if got is None:
        return None
    unit, base, probs = got
    return Sum(unit, base, 0, probs, 2 * U * len(probs), 1)


def _fft_error(n: int, norms: float) -> float:
    m = math.ceil(math.log2(n))
    grow = (1 + U) ** (3 * m) * (1 + U * math.sqrt(5)) ** (3 * m + 1) * (1 + TWIDDLE) ** (3 * m) - 1
    return FFT_MARGIN * grow * norms


def product(pa: Floats, pb: Floats) -> tuple[Floats, float]:
    """The convolution of two arrays of probabilities (each adding to at most about 1), negative rounding noise set
    to 0, and a bound on its rounding error in l1."""
    la, lb = len(pa), len(pb)
    n = la + lb - 1
    c: Floats
    size = 1 << (n - 1).bit_length()
    ia, ib = np.flatnonzero(pa), np.flatnonzero(pb)
    if min(len(ia), len(ib)) <= SHIFTS:  # one round added to many: a shifted copy of the many for each of its values
        ks, pk, many = (ia, pa, pb) if len(ia) <= len(ib) else (ib, pb, pa)
        c = np.zeros(n)
        for k in ks.tolist():
            c[k:k + len(many)] += pk[k] * many
        rounding = (len(ks) + 1) * U * 1.01 * float(c.sum())  # as below: sums of at most len(ks) products
    elif len(ia) * len(ib) <= max(SMALL, size * size.bit_length() // 4):  # few non-zero entries (a jackpot's first)
        c = np.bincount((ia[:, None] + ib[None, :]).ravel(),
                                (pa[ia][:, None] * pb[ib][None, :]).ravel(), minlength=n).astype(np.float64)
        # each entry a sum of at most min(na, nb) non-negative products: relative error (k + 1) u
        rounding = (min(len(ia), len(ib)) + 1) * U * 1.01 * float(c.sum())
    else:
        c = np.fft.irfft(np.fft.rfft(pa, size) * np.fft.rfft(pb, size), size)[:n]
        norms = math.sqrt(float(np.dot(pa, pa))) * math.sqrt(float(np.dot(pb, pb))) * (1 + 1e-12)
        rounding = n * _fft_error(size, norms)
    np.maximum(c, 0.0, out=c)
    return c, rounding


def trim(c: Floats) -> tuple[int, Floats, float]:
    """``c`` without the ends holding at most TRIM of mass each (what the tails below 1e-13 hold changes no band):
    (the index of its first entry kept, the entries kept, a bound on the mass dropped)."""
    n = len(c)
    cum = np.cumsum(c)
    lo = int(np.searchsorted(cum, TRIM, side="right"))
    rcum = np.cumsum(c[::-1])
    hi = n - int(np.searchsorted(rcum, TRIM, side="right"))
    if hi <= lo:
        lo, hi = 0, n
    trimmed = float(cum[lo - 1] if lo else 0.0) + float(rcum[n - hi - 1] if hi < n else 0.0)
    return lo, c[lo:hi], trimmed * (1 + 1e-9)


def convolve(a: Sum, b: Sum) -> Sum | None:
    """The distribution of a + b (independent), with its error bound; None when it would take more than
    MAX_POINTS points even trimmed."""
    if (a.unit, a.base) != (b.unit, b.base):
        raise ValueError("sums of rounds on different lattices")
    if len(a.probs) + len(b.probs) - 1 > 2 * MAX_POINTS:
        return None
    c, rounding = product(a.probs, b.probs)
    lo, kept, trimmed = trim(c)
    if len(kept) > MAX_POINTS:
        return None
    error = a.error * (1 + b.error) + b.error + rounding + trimmed
    return Sum(a.unit, a.base, a.first + b.first + lo, kept, error, a.rounds + b.rounds)


def power(base: Sum, k: int) -> Sum | None:
    """The sum of k copies of ``base`` (k >= 1), by repeated squaring; None past MAX_POINTS."""
    out: Sum | None = None
    square: Sum | None = base
    while k:
        if square is None:
            return None
        if k & 1:
            out = square if out is None else convolve(out, square)
            if out is None:
                return None
        k >>= 1
        if k:
            square = convolve(square, square)
    return out


def decades(round_: Sum, counts: Iterable[int], max_error: float = 1.0, max_rounds: int = 0,
            cheap: int = 1 << 14) -> dict[int, Sum]:
    """The sums of each count of rounds asked (rising), each from the last where it divides it; the first count
    whose sum would take more than MAX_POINTS points, or carry more than ``max_error`` (an error grows with the
    number of rounds: k times a sum's error at least, k times as many rounds), ends the list; and so does the first
    count past ``max_rounds`` (when given) unless k times the last sum's points stay within ``cheap``."""
    out: dict[int, Sum] = {}
    last: Sum | None = None
    for n in sorted(counts):
        if max_rounds and n > max_rounds and (last is None or len(last.probs) * n // last.rounds > cheap):
            break
        if last is not None and n % last.rounds == 0:
            if last.error * (n // last.rounds) > max_error:
                break
            got = power(last, n // last.rounds)
        else:
            got = power(round_, n)
        if got is None or got.error > max_error:
            break
        out[n] = last = got
    return out


__all__ = ["MAX_POINTS", "Sum", "convolve", "decades", "gcd", "lattice", "one_round", "power", "product", "trim"]
