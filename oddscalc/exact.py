"""Exact numbers as text and back: "p/q", rounded decimals and percentages, "1 in N" odds.

Rounding is done on the exact ``Fraction`` (half away from zero), never through a float, so a
printed figure is the exact figure rounded, and a published figure can be checked exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction


def frac_str(x: Fraction | int) -> str:
    """Exact "p/q" text (integers as "n")."""
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def parse_fraction(text: str) -> Fraction:
    """Read "3/7", "0.0351", "3.51%" or "-2" exactly."""
    t = text.strip().replace(",", "").replace("_", "")
    pct = t.endswith("%")
    if pct:
        t = t[:-1].strip()
    if not t:
        raise ValueError(f"not a number: {text!r}")
    try:
        v = Fraction(t)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"not a number: {text!r}") from None
    return v / 100 if pct else v


def decimal_str(x: Fraction | int, places: int) -> str:
    """Round half away from zero to ``places`` decimals, exactly (no float on the way)."""
    x = Fraction(x)
    neg = x < 0
    scaled = abs(x) * 10**places
    n = math.floor(scaled)
    if scaled - n >= Fraction(1, 2):
        n += 1
    s = str(n).rjust(places + 1, "0")
    body = s if places == 0 else f"{s[:-places]}.{s[-places:]}"
    return ("-" if neg and n else "") + body


def percent_str(x: Fraction | int, places: int = 4) -> str:
    """A percentage rounded exactly to ``places`` decimals."""
    return decimal_str(Fraction(x) * 100, places) + "%"


def rounded(x: float, places: int = 8) -> Fraction:
    """A float figure (a square root, a sampled mean) as a Fraction rounded to ``places`` decimals, for
    printing beside the exact ones."""
    return Fraction(round(x * 10**places), 10**places)


def one_in(p: Fraction) -> str:
    """Odds "1 in N" with N rounded to a readable precision."""
    if p == 0:
        return "never"
    n = 1 / p
    return "1 in " + (f"{decimal_str(n, 2)}" if n < 100 else f"{round(n):,}")
