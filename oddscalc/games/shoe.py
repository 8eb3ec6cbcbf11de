"""The value-count shoe and the exact counting engine shared by the baccarat games.

Baccarat reads only point values (A = 1, 2-9 face value, 10/J/Q/K = 0), so a shoe is ten
counts ``c[v]``: with d decks value 0 has 16d cards and every other value 4d.

Counting argument. Deal k cards in order. A sequence of point values ``v_1 .. v_k`` stands for
``prod_v c[v] (c[v] - 1) ... (c[v] - m[v] + 1)`` sequences of actual cards, where ``m[v]`` is how
many times v occurs: the falling product, which depends only on the multiset ``m``. So every exact
count splits in two stages:

1. shoe-free: for each multiset ``m`` of k values, how many value orderings give each outcome
   (small integers, enumerated once with numpy over the 10**k value sequences);
2. the shoe: multiply by the falling product of ``m`` (a Python int) and add up.

Every coup is counted as an ordered sequence of the maximum number of cards the round can use
(six for punto banco, the published convention: 416P6 = 4,998,398,275,503,360 for 8 decks). A
coup that leaves some of those cards undealt counts once for every way the unused cards can lie,
which keeps every weight an integer and every total equal to ``size P k``.

The infinite shoe (cards drawn with replacement) uses the same two stages with powers
``prod_v c[v] ** m[v]`` instead of falling products, the counts reduced by their common divisor
(13 equally likely ranks for a standard shoe), so its total is ``13 ** k``.

Stage 2 is a dot product of big integers with small ones; :func:`exact_dot` does it with numpy
int64 arithmetic on fixed-width limbs of the big integers, which stays exact at any shoe size.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any

import numpy as np
from pydantic import BeforeValidator, PlainSerializer

from oddscalc.results import Cell, Column, Section
from oddscalc.tables import Ratio, Strict

VALUES = 10
NATURALS = (8, 9)  # a two-card 8 or 9 stands whatever the tableau says
RANK_VALUES: dict[str, int] = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "T": 0, "J": 0, "Q": 0, "K": 0,
}
_KEY_BITS = 5  # a multiset key packs each value's multiplicity (< 32) into 5 bits
VALUE_KEYS = np.array([1 << (_KEY_BITS * v) for v in range(VALUES)], dtype=np.int64)


def falling(n: int, k: int) -> int:
    """n (n - 1) ... (n - k + 1): ordered ways to take k cards from n (0 when n < k)."""
    return math.perm(n, k) if n >= 0 else 0


# --- the shoe ------------------------------------------------------------------------


@dataclass(frozen=True)
class Shoe:
    """Cards of each point value, plus what the pair bets need from the ranks."""

    counts: tuple[int, ...]  # cards of value 0..9
    same_rank_pairs: tuple[int, ...]  # per value: ordered pairs of two cards of one rank
    label: str

    def __post_init__(self) -> None:
        if len(self.counts) != VALUES or len(self.same_rank_pairs) != VALUES:
            raise ValueError("a shoe has ten point values")
        if any(c < 0 for c in self.counts):
            raise ValueError("negative card count")

    @classmethod
    def of_decks(cls, decks: int) -> Shoe:
        """``decks`` standard 52-card decks."""
        if decks < 1:
            raise ValueError("a shoe has at least one deck")
        shoe = cls.from_ranks({r: 4 * decks for r in RANK_VALUES})
        return cls(shoe.counts, shoe.same_rank_pairs, f"{decks} deck{'s' if decks != 1 else ''} ({shoe.size} cards)")

    @classmethod
    def from_ranks(cls, ranks: Mapping[str, int], label: str | None = None) -> Shoe:
        """A shoe given as cards per rank ("A", "2".."9", "T" or "10", "J", "Q", "K")."""
        counts = [0] * VALUES
        pairs = [0] * VALUES
        for rank, n in ranks.items():
            r = "T" if rank.upper() == "10" else rank.upper()
            if r not in RANK_VALUES:
                raise ValueError(f"unknown rank {rank!r}")
            counts[RANK_VALUES[r]] += n
            pairs[RANK_VALUES[r]] += n * (n - 1)
        size = sum(counts)
        return cls(tuple(counts), tuple(pairs), label or f"{size} cards")

    @property
    def size(self) -> int:
        """Cards in the shoe."""
        return sum(self.counts)

    def ordered(self, k: int) -> int:
        """Ordered k-card sequences from the shoe: size P k."""
        return falling(self.size, k)

    @property
    def pair_sequences(self) -> int:
        """Ordered two-card sequences whose cards share a rank (a 10 and a K are no pair)."""
        return sum(self.same_rank_pairs)

    def reduced(self) -> tuple[tuple[int, ...], int]:
        """Counts divided by their common divisor, and their sum: the infinite shoe's odds."""
        g = math.gcd(*self.counts)
        red = tuple(c // g for c in self.counts)
        return red, sum(red)


# --- multisets of point values -------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Multisets:
    """Every multiset of ``size`` point values, as count vectors sorted by a packed key."""

    size: int
    counts: np.ndarray  # (M, 10) int64
    keys: np.ndarray  # (M,) int64, ascending

    @staticmethod
    @cache
    def of_size(size: int) -> Multisets:
        """Every multiset of ``size`` values (cached)."""
        rows = np.zeros((math.comb(size + VALUES - 1, VALUES - 1), VALUES), dtype=np.int64)
        for i, combo in enumerate(itertools.combinations_with_replacement(range(VALUES), size)):
            for v in combo:
                rows[i, v] += 1
        keys = rows @ VALUE_KEYS
        order = np.argsort(keys)
        return Multisets(size, rows[order], keys[order])

    def __len__(self) -> int:
        return len(self.keys)

    def index(self, keys: np.ndarray) -> np.ndarray:
        """Row index of each packed key (every key must be a multiset of this size)."""
        idx = np.searchsorted(self.keys, keys)
        if not np.array_equal(self.keys[np.minimum(idx, len(self.keys) - 1)], keys):
            raise ValueError("key is not a multiset of this size")
        return idx

    def weights(self, shoe: Shoe, infinite: bool = False) -> np.ndarray:
        """Object array of exact card-level weights of one value ordering of each multiset."""
        return sequence_weights(shoe, self.counts, infinite)


def sequence_weights(shoe: Shoe, counts: np.ndarray, infinite: bool = False) -> np.ndarray:
    """For each row of value counts: the falling product (finite) or power product (infinite)."""
    top = int(counts.max(initial=0))
    out = np.ones(len(counts), dtype=object)
    base = shoe.reduced()[0] if infinite else shoe.counts
    for v in range(VALUES):
        c = base[v]
        table = np.array([c**k if infinite else falling(c, k) for k in range(top + 1)], dtype=object)
        out = out * table[counts[:, v]]
    return out


def value_grid(n: int) -> list[np.ndarray]:
    """n broadcastable index arrays over the 10**n ordered value sequences."""
    grid = []
    for i in range(n):
        shape = [1] * n
        shape[i] = VALUES
        grid.append(np.arange(VALUES, dtype=np.int64).reshape(shape))
    return grid


def multiset_keys(values: Iterable[np.ndarray]) -> np.ndarray:
    """Packed multiset key of each (broadcast) value sequence."""
    total: np.ndarray | int = 0
    for v in values:
        total = total + VALUE_KEYS[v]
    return np.asarray(total)


# --- exact big-integer dot products ----------------------------------------------------


def to_limbs(values: np.ndarray, bits: int) -> np.ndarray:
    """Non-negative integers (int64 or Python ints) as int64 limbs of ``bits`` bits, low first, on a new last axis."""
    if values.dtype != object:
        top = int(values.max(initial=0)).bit_length()
        if int(values.min(initial=0)) < 0:
            raise ValueError("limbs of a negative number")
        shifts = bits * np.arange(max(1, -(-top // bits)), dtype=np.int64)
        return (values[..., None] >> shifts) & ((1 << bits) - 1)
    flat = values.ravel()
    if len(flat) and flat.min() < 0:
        raise ValueError("limbs of a negative number")
    n = max(1, -(-(int(flat.max()).bit_length() if len(flat) else 0) // bits))
    mask = (1 << bits) - 1
    out = np.empty((len(flat), n), dtype=np.int64)
    for j in range(n):  # numpy's loop over the Python ints, a limb at a time
        out[:, j] = (flat & mask).astype(np.int64)
        flat = flat >> bits
    return out.reshape(values.shape + (n,))


def limb_bits(terms: int, small_max: int) -> int:
    """Limb width that keeps ``terms`` products of a limb and a small factor inside int64."""
    return 62 - max(1, terms * max(1, small_max)).bit_length()


def from_limbs(parts: np.ndarray, bits: int, fits_int64: bool = False) -> np.ndarray:
    """Recombine non-negative limb sums (last axis): int64 when the caller knows the values fit, else Python ints."""
    if fits_int64:
        shifts = bits * np.arange(parts.shape[-1], dtype=np.int64)
        small: np.ndarray = (parts << shifts).sum(axis=-1)
        return small
    out = np.zeros(parts.shape[:-1], dtype=object)
    for j in range(parts.shape[-1]):
        out = out + parts[..., j].astype(object) * (1 << (bits * j))
    return out


def exact_dot(big: np.ndarray, small: np.ndarray) -> np.ndarray:
    """``big @ small`` exactly: big holds M non-negative ints, small is an (M, K) int array."""
    small = np.asarray(small, dtype=np.int64)
    bits = limb_bits(small.shape[0], int(np.abs(small).max(initial=0)))
    limbs = to_limbs(np.asarray(big, dtype=object), bits)  # (M, n)
    return from_limbs(small.T @ limbs, bits)  # (K,)


def exact_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` exactly, as Python ints: a (M, K) and b (K, N) non-negative, b int64 or Python ints.

    float64 BLAS on limbs of b narrow enough that every sum stays below 2**53, where floats hold
    integers exactly; when a itself is too large for that, one exact dot product per column.
    """
    a = np.asarray(a, dtype=np.int64)
    if int(a.min(initial=0)) < 0:
        raise ValueError("exact_matmul of a negative number")
    head = max(1, int(a.max(initial=0)) * a.shape[1]).bit_length()
    bits = 52 - head
    if bits < 8:
        return np.stack([exact_dot(b[:, n], a.T) for n in range(b.shape[1])], axis=1)
    limbs = to_limbs(np.asarray(b), bits)  # (K, N, L)
    k, n, width = limbs.shape
    parts = a.astype(np.float64) @ limbs.reshape(k, n * width).astype(np.float64)
    return from_limbs(np.rint(parts).astype(np.int64).reshape(a.shape[0], n, width), bits)


# --- rule data shared by the table files ------------------------------------------------


class WinPay(Strict):
    """A wager that pays one ratio when it wins."""

    win: Ratio


_ROW = re.compile(r"^[DS]{10}$")


def parse_tableau(value: Any) -> tuple[str, ...]:
    """Eight rows (totals 0-7) of ten letters (third card 0-9): D draws, S stands."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(r, str) for r in value):
        raise ValueError('a tableau is a list of 8 strings such as "DDDDDDDDDD"')
    if len(value) != 8:
        raise ValueError(f"a tableau has 8 rows (totals 0-7), got {len(value)}")
    bad = [f"row {i} {r!r}" for i, r in enumerate(value) if not _ROW.match(r)]
    if bad:
        raise ValueError("each row is 10 letters D (draw) or S (stand), one per third card 0-9: " + ", ".join(bad))
    return tuple(value)


def parse_totals(value: Any) -> tuple[int, ...]:
    """A set of two-card totals 0-7 (8 and 9 are naturals and always stand)."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(t, int) and not isinstance(t, bool) for t in value):
        raise ValueError("a list of totals such as [0, 1, 2, 3, 4, 5]")
    bad = sorted({t for t in value if not 0 <= t <= 7})
    if bad:
        raise ValueError(f"totals must be 0-7 (8 and 9 are naturals, which always stand), got {bad}")
    if len(set(value)) != len(value):
        raise ValueError("a total is listed twice")
    return tuple(sorted(value))


Tableau = Annotated[tuple[str, ...], BeforeValidator(parse_tableau), PlainSerializer(list)]
Totals = Annotated[tuple[int, ...], BeforeValidator(parse_totals), PlainSerializer(list)]

STANDARD_TABLEAU = (
    "DDDDDDDDDD",  # 0
    "DDDDDDDDDD",  # 1
    "DDDDDDDDDD",  # 2
    "DDDDDDDDSD",  # 3: stands on an 8
    "SSDDDDDDSS",  # 4: draws on 2-7
    "SSSSDDDDSS",  # 5: draws on 4-7
    "SSSSSSDDSS",  # 6: draws on 6-7
    "SSSSSSSSSS",  # 7
)


def tableau_array(tableau: Sequence[str]) -> np.ndarray:
    """(10, 10) bool: [total, third card] -> draws; rows 8 and 9 (naturals) stand."""
    grid = np.zeros((VALUES, VALUES), dtype=bool)
    for t, row in enumerate(tableau):
        grid[t] = [ch == "D" for ch in row]
    return grid


def totals_mask(totals: Iterable[int]) -> np.ndarray:
    """(10,) bool: which totals draw."""
    mask = np.zeros(VALUES, dtype=bool)
    mask[list(totals)] = True
    return mask


def tableau_section(section_id: str, title: str, tableau: Sequence[str], who: str, against: str,
                    intro: Sequence[str] = (), notes: Sequence[str] = ()) -> Section:
    """A drawing tableau as a section: one row per total 0-7, one column per third card 0-9."""
    columns = (Column("total", f"{who} \\ {against}", "int"),
               *(Column(f"third_{v}", str(v)) for v in range(VALUES)))
    rows: list[tuple[Cell, ...]] = [(t, *("draw" if ch == "D" else "stand" for ch in row))
                                    for t, row in enumerate(tableau)]
    return Section(section_id, title, columns, tuple(rows), intro=tuple(intro), notes=tuple(notes))
