"""Exact numbers as text and back: "p/q", rounded decimals and percentages, "1 in N" odds.

Rounding is done on the exact ``Fraction`` (half away from zero), never through a float, so a
printed figure is the exact figure rounded, and a published figure can be checked exactly.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

MAX_DIGITS = 60  # no figure a casino or a source writes has more; a longer one is a typo or an attack
MAX_EXPONENT = 60  # 1e-60 .. 1e60: an exponent beyond builds an integer of that many digits before any check
_NUMBER = re.compile(r"^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$", re.ASCII)
_RATIO = re.compile(r"^([+-]?\d+)/(\d+)$", re.ASCII)


def bounded_number(text: str) -> tuple[Fraction, int | None]:
    """Read a plain number written in ASCII ("3/7", "-2", "0.0351", "1.5e-5") exactly, with the decimals it was
    printed to (None for an integer ratio "p/q"), refusing before any arithmetic a number of more than
    MAX_DIGITS digits or an exponent past MAX_EXPONENT, so that no input can make an integer of a billion digits.

    >>> bounded_number("1.5e-5")
    (Fraction(3, 200000), 6)
    >>> bounded_number("1e-999999999")
    Traceback (most recent call last):
    ValueError: '1e-999999999': an exponent is at most 60 either way
    """
    m = _RATIO.match(text)
    if m:
        if len(m.group(1)) + len(m.group(2)) > MAX_DIGITS:
            raise ValueError(f"{text!r} has more than {MAX_DIGITS} digits")
        if int(m.group(2)) == 0:
            raise ValueError(f"not a number: {text!r} (a zero denominator)")
        return Fraction(int(m.group(1)), int(m.group(2))), None
    m = _NUMBER.match(text)
    if not m or not (m.group(2) or m.group(3)):
        raise ValueError(f"not a number: {text!r}")
    if len(m.group(2)) + len(m.group(3) or "") > MAX_DIGITS:
        raise ValueError(f"{text!r} has more than {MAX_DIGITS} digits")
    exponent = m.group(4) or "0"
    if len(exponent.lstrip("+-").lstrip("0")) > 3 or abs(int(exponent)) > MAX_EXPONENT:
        raise ValueError(f"{text!r}: an exponent is at most {MAX_EXPONENT} either way")
    return Fraction(text), len(m.group(3) or "") - int(exponent)


def frac_str(x: Fraction | int) -> str:
    """Exact "p/q" text (integers as "n")."""
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def parse_fraction(text: str) -> Fraction:
    """Read "3/7", "0.0351", "3.51%" or "-2" exactly (bounded as :func:`bounded_number` says)."""
    t = text.strip().replace(",", "").replace("_", "")
    pct = t.endswith("%")
    if pct:
        t = t[:-1].strip()
    if not t:
        raise ValueError(f"not a number: {text!r}")
    v = bounded_number(t)[0]
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
