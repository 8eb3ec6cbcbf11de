"""Every two-group sort of the thirteen ranks at punto banco's seen positions, exact: the 4,095 partitions of A 2-9
T J Q K into two groups, beside the 1,023 subsets of the ten values (``sorting.value_sorts``).

Counting argument. A sort that keeps the four ranks worth 0 (T J Q K) together is a sort of the ten values, which
``value_sorts`` counts. A sort that splits them marks t of the four (1, 2 or 3) and, of the nine other ranks (each
alone on its value), a subset. Baccarat reads a card's value only, and every rank has the same copies in a shoe
of whole decks, so the four zero ranks are exchangeable: which t of them are marked changes no count, and a sort
and its complement make the same two groups. Marking t = 3 is then marking t = 1 on the complement, and every
splitting partition is one of two kinds: one zero rank (T) against the other three, or two (T J) against two, with
any subset of the nine values 1-9 beside the marked zero ranks. Each kind is one count with eleven groups seen
(the nine values, the marked zero ranks, the rest), whose 2^9 = 512 sorts are evaluated like ``value_sorts``:
1,024 sorts stand for the 2,048 + 1,536 = 3,584 splitting partitions (4,095 less the 511 of the values), each
counted as the engine counts any model (``sorting.count``). On a shoe whose zero ranks are not alike in copies the
exchange does not hold: the search is refused there.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from oddscalc.games.punto_banco.coup_features import RANK_POINTS, RANKS, SUITS, Cards, Drawing
from oddscalc.protection import sorting
from oddscalc.protection.glimpse import Glimpse
from oddscalc.protocol import OptionError

ZEROS = tuple(r for r, p in zip(RANKS, RANK_POINTS) if p == 0)  # T J Q K
NONZERO = tuple(r for r, p in zip(RANKS, RANK_POINTS) if p != 0)  # A 2 .. 9, each alone on its value
PARTITIONS = 2**12 - 1  # two-group partitions of the thirteen ranks: 4,095
VALUE_PARTITIONS = 2**9 - 1  # of them, those keeping T J Q K together: the 511 sorts of the ten values


def _groups(t: int) -> tuple[frozenset[str], ...]:
    """Eleven groups: each nonzero rank alone (in ``NONZERO`` order), then the first ``t`` zero ranks, the rest."""
    return (*(frozenset({r}) for r in NONZERO), frozenset(ZEROS[:t]), frozenset(ZEROS[t:]))


def splitting_sorts(cards: Cards, drawing: Drawing, positions: Sequence[str], choices: Sequence[str],
                    pays: tuple[int, np.ndarray], infinite: bool = False) -> list[tuple[frozenset[str], Fraction]]:
    """Every sort of the ranks that splits the zero ranks, up to their exchange (see the module's argument): the
    marked group of ranks and the EV with the groups seen at ``positions``, 1,024 of them."""
    copies = [sum(cards.copies[RANKS.index(r) * SUITS:(RANKS.index(r) + 1) * SUITS]) for r in ZEROS]
    if not infinite and len(set(copies)) != 1:
        raise OptionError("the sorts of the thirteen ranks count T, J, Q and K as exchangeable: a shoe with unlike "
                          f"copies of them ({', '.join(f'{r} {n}' for r, n in zip(ZEROS, copies))}) is not searched")
    out: list[tuple[frozenset[str], Fraction]] = []
    for t in (1, 2):
        groups = _groups(t)
        counted = sorting.count(cards, drawing, [Glimpse(p, "group", groups) for p in positions], choices, pays,
                                infinite)
        for subset, ev in _sweep(counted):
            out.append((frozenset(r for i, r in enumerate(NONZERO) if subset >> i & 1) | groups[-2], ev))
    return out


def _sweep(counted: sorting.Glimpsed) -> list[tuple[int, Fraction]]:
    """For each subset of the nine nonzero groups (bit i: ``NONZERO[i]`` marked, the marked zero ranks with them,
    the other zero ranks not), the EV betting the best choice on the groups seen."""
    pats = counted.patterns
    k = len(counted.glimpses)
    seen = np.array([p.seen for p in pats], dtype=np.int64).reshape(len(pats), k)
    rets = [list(p.returns) for p in pats]
    bound = sum(max(abs(x) for x in r) for r in rets)
    dtype: type = np.int64 if bound < 2**62 else object
    ret: np.ndarray = np.array(rets, dtype=dtype)
    out = []
    for subset in range(2**len(NONZERO)):
        mask = subset | 1 << len(NONZERO)  # group 9: the marked zero ranks; group 10: the others, unmarked
        marked = (mask >> seen) & 1
        code = (marked * (1 << np.arange(k))).sum(axis=1)
        sums: np.ndarray = np.zeros((1 << k, ret.shape[1]), dtype=dtype)
        np.add.at(sums, code, ret)
        out.append((subset, Fraction(sum(int(x) for x in sums.max(axis=1)), counted.den * counted.total)))
    return out


def rank_label(marked: frozenset[str]) -> str:
    """A sort of the ranks as its two groups, the one holding the 9 first (``6 7 8 9 T | A 2 3 4 5 J Q K``)."""
    a = [r for r in RANKS_ORDER if r in marked]
    b = [r for r in RANKS_ORDER if r not in marked]
    first, second = (a, b) if "9" in a else (b, a)
    return " ".join(first) + " | " + " ".join(second)


RANKS_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")

__all__ = ["PARTITIONS", "VALUE_PARTITIONS", "ZEROS", "rank_label", "splitting_sorts"]
