"""Punto banco with cards glimpsed before the bet (edge sorting, the first card out, the burn card): exact.

A model (``protection.glimpse.Model``) sees some of the first four cards of the coup (``player_1``, ``banker_1``,
``player_2``, ``banker_2``, dealt in that order) and of the ``burn`` card taken off before it: each card whole, its
rank, its suit, its colour or its group. The player then bets on one of the model's choices (player, banker, tie,
or none) by what he saw, the best by exact EV, and the table's pays (commission, pushes) settle it.

Counting argument. A coup is an ordered sequence of six cards (the published convention: cards the coup leaves
undrawn count as drawn after it), and a seen burn card one more in front. Every card seen falls in an *atom*: the
card classes (rank and suit) alike in baccarat value and in everything each glimpse sees of them; a sequence of
atoms for the seen positions is dealt in ``prod over atoms of falling(copies in the atom, times it is used)`` ways,
exact for any shoe. How many of each value remain depends only on the values the seen cards took, so for each
sequence of seen values the unseen first-four positions and the fifth and sixth cards are counted over values
(falling products of what is left), each coup settled by the drawing rules (``coup_features.play``). The number
of ordered sequences is the same whatever order the positions are counted in, so the seen ones are counted first.
An unseen burn card changes nothing (every order of the shoe is equally likely) and is not counted.

Sums are int64 only where they provably stay below 2**63 (checked before counting); the per-pattern totals are
Python ints and every figure a Fraction.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.cards import SUIT_CHARS
from oddscalc.games.punto_banco.coup_features import (
    CELLS,
    OUTCOMES,
    RANK_POINTS,
    RANKS,
    RELATIONS,
    SUITS,
    Cards,
    Drawing,
    play,
)
from oddscalc.games.punto_banco.game import PuntoBancoPays, settle
from oddscalc.games.shoe import VALUES, falling
from oddscalc.protection.glimpse import Glimpse
from oddscalc.protocol import OptionError

FIRST_FOUR = ("player_1", "banker_1", "player_2", "banker_2")  # the dealing order
BURN = "burn"
POSITIONS = (*FIRST_FOUR, BURN)
DECISIONS = ("bet",)
NONE = "none"
CHOICES = ("player", "banker", "tie", NONE)
MOST_SEQUENCES = 3_000_000  # atom sequences of the seen cards counted at most (four suits seen: 40^4; memory)
_BLOCK = 4_000_000  # cells of one batch of the unseen cards' count
RED = frozenset(SUIT_CHARS.index(s) for s in "dh")


def seen(glimpse: Glimpse, cls: int) -> int:
    """What a glimpse sees of card class ``cls`` (rank index * 4 + suit: a card id), as a small integer: the card,
    its rank, its suit, its colour (1 for red) or its group. The count's patterns are keyed by these numbers, so a
    reader of the count (a simulated player, the evidence of a log) numbers what it sees with this."""
    rank, suit = divmod(cls, SUITS)
    if glimpse.shows == "card":
        return cls
    if glimpse.shows == "rank":
        return rank
    if glimpse.shows == "suit":
        return suit
    if glimpse.shows == "colour":
        return int(suit in RED)
    group = glimpse.sees(RANKS[rank])
    assert group >= 0, "a model's groups hold every rank"
    return group


def seen_label(glimpse: Glimpse, seen: int) -> str:
    """A seen value as a report writes it: ``As``, ``A``, ``s``, ``red``, or the group's ranks (``6789``)."""
    if glimpse.shows == "card":
        return RANKS[seen // SUITS] + SUIT_CHARS[seen % SUITS]
    if glimpse.shows == "rank":
        return RANKS[seen]
    if glimpse.shows == "suit":
        return SUIT_CHARS[seen]
    if glimpse.shows == "colour":
        return "red" if seen else "black"
    order = "A23456789TJQK"
    return "".join(sorted(glimpse.groups[seen], key=order.index))


def outcome_pays(pays: PuntoBancoPays, choices: Sequence[str]) -> tuple[int, np.ndarray]:
    """What each choice pays on each of the 400 outcomes, in units of 1/den per unit staked: (den, (choices, 400)).

    Read off the game's own ``settle``: each cell is counted as its own bit (2**cell), so each row's combinations
    are the set of cells it pays. A choice whose pay reads pairs or suits (not the outcome alone) is refused."""
    cells = np.array([1 << c for c in range(CELLS)], dtype=object)
    wagers = {w.wager: w for w in settle(cells, pays)}
    units: list[list[Fraction]] = []
    for choice in choices:
        per = [Fraction(0)] * CELLS
        if choice != NONE:
            if choice not in wagers:
                raise OptionError(f"choices: {choice!r} is no wager of this table; its wagers: {', '.join(wagers)}")
            for row in wagers[choice].rows:
                bits = int(row.combinations)
                while bits:
                    low = bits & -bits
                    per[low.bit_length() - 1] = row.units
                    bits ^= low
        by_outcome = [per[o * RELATIONS * RELATIONS] for o in range(OUTCOMES)]
        if any(per[c] != by_outcome[c // (RELATIONS * RELATIONS)] for c in range(CELLS)):
            raise OptionError(f"choices: {choice!r} pays by pairs or suits, not by the coup's outcome alone: a glimpse "
                              "of the cards is counted here for the wagers settled on the outcome")
        units.append(by_outcome)
    den = math.lcm(*(u.denominator for row in units for u in row))
    return den, np.array([[int(u * den) for u in row] for row in units], dtype=np.int64)


@dataclass(frozen=True)
class Pattern:
    """One thing the player may see (a value per glimpse), how many sequences show it, and each choice's return
    over them in units of 1/den."""

    seen: tuple[int, ...]
    count: int
    returns: tuple[int, ...]

    def best(self) -> int:
        """The index of the best choice (the first of equals)."""
        return max(range(len(self.returns)), key=lambda i: (self.returns[i], -i))


@dataclass(frozen=True)
class Glimpsed:
    """A model counted: its glimpses, choices, the pays' denominator and every pattern seen."""

    glimpses: tuple[Glimpse, ...]
    choices: tuple[str, ...]
    den: int
    patterns: tuple[Pattern, ...]

    @property
    def total(self) -> int:
        """Every sequence counted (six cards, seven with a burn card seen)."""
        return sum(p.count for p in self.patterns)

    def ev(self) -> Fraction:
        """The EV per coup with the best choice on each pattern (per unit staked when a bet is made)."""
        return Fraction(sum(p.returns[p.best()] for p in self.patterns), self.den * self.total)

    def blind(self) -> tuple[str, Fraction]:
        """The best single choice with nothing seen, and its EV."""
        sums = [sum(p.returns[i] for p in self.patterns) for i in range(len(self.choices))]
        i = max(range(len(sums)), key=lambda j: (sums[j], -j))
        return self.choices[i], Fraction(sums[i], self.den * self.total)

    def betting(self) -> Fraction:
        """The share of coups on which the best choice is a bet with a positive EV."""
        return Fraction(sum(p.count for p in self.patterns if p.returns[p.best()] > 0
                            and self.choices[p.best()] != NONE), self.total)

    def label(self, pattern: Pattern) -> str:
        """What was seen, position by position (``player_1=6789 banker_1=A2345TJQK``)."""
        return " ".join(f"{g.position}={seen_label(g, s)}" for g, s in zip(self.glimpses, pattern.seen))


def _atoms(cards: Cards, glimpses: Sequence[Glimpse]) -> tuple[list[int], list[int], list[tuple[int, ...]]]:
    """The shoe's atoms: their copies, values, and what each glimpse sees of them."""
    keyed: dict[tuple[int, ...], int] = {}
    for cls, n in enumerate(cards.copies):
        if n:
            key = (RANK_POINTS[cls // SUITS], *(seen(g, cls) for g in glimpses))
            keyed[key] = keyed.get(key, 0) + n
    keys = sorted(keyed)
    return [keyed[k] for k in keys], [k[0] for k in keys], [k[1:] for k in keys]


def count(cards: Cards, drawing: Drawing, glimpses: Sequence[Glimpse], choices: Sequence[str],
          pays: tuple[int, np.ndarray], infinite: bool = False) -> Glimpsed:
    """Every pattern the glimpses can show, its sequences and each choice's return (see the module's argument)."""
    order = {p: i for i, p in enumerate(POSITIONS)}
    glimpses = sorted(glimpses, key=lambda g: order[g.position])
    den, per_outcome = pays
    copies, values, sees = _atoms(cards, glimpses)
    k, m = len(glimpses), len(copies)
    size = sum(cards.copies)
    if m**k > MOST_SEQUENCES:
        raise OptionError(f"{k} cards seen as these glimpses see them: {m**k:,} sequences to count, more than "
                          f"{MOST_SEQUENCES:,}; see less of each card (a group, a colour, a rank)")
    if size**k >= 2**62:
        raise OptionError("a shoe too large for the exact counts of the cards seen")
    seq = np.indices((m,) * k).reshape(k, -1).T if k else np.zeros((1, 0), dtype=np.int64)
    n = np.array(copies, dtype=np.int64)
    weight = np.ones(len(seq), dtype=np.int64)
    for j in range(k):
        earlier = 0 if infinite else (seq[:, :j] == seq[:, j:j + 1]).sum(axis=1)
        weight *= np.maximum(n[seq[:, j]] - earlier, 0)
    keep = weight > 0
    seq, weight = seq[keep], weight[keep]
    # a pattern is what each glimpse sees (mixed radix); a key the values of the seen cards
    radix = [max(s[j] for s in sees) + 1 for j in range(k)]
    pattern = np.zeros(len(seq), dtype=np.int64)
    key = np.zeros(len(seq), dtype=np.int64)
    sees_arr = np.array(sees, dtype=np.int64).reshape(m, k)
    val = np.array(values, dtype=np.int64)
    for j in range(k):
        pattern = pattern * radix[j] + sees_arr[seq[:, j], j]
        key = key * VALUES + val[seq[:, j]]
    both = pattern * VALUES**k + key
    pairs, where = np.unique(both, return_inverse=True)
    w = np.zeros(len(pairs), dtype=np.int64)
    np.add.at(w, where.ravel(), weight)
    keys, key_of = np.unique(pairs % VALUES**k, return_inverse=True)
    counts, returns = _unseen(cards, drawing, [g.position for g in glimpses], keys, per_outcome, infinite)
    # per (pattern, key): weight x what the unseen cards make of the key, summed by pattern as Python ints
    wo = w.astype(object)
    cnt = wo * counts[key_of.ravel()]
    ret = wo[:, None] * returns[key_of.ravel()]
    pat = pairs // VALUES**k
    starts = np.flatnonzero(np.r_[True, pat[1:] != pat[:-1]])
    cnt_sum = np.add.reduceat(cnt, starts)
    ret_sum = np.add.reduceat(ret, starts, axis=0)
    found = []
    for i, s in enumerate(starts):
        code, seen = int(pat[s]), []
        for j in reversed(range(k)):
            code, digit = divmod(code, radix[j])
            seen.append(digit)
        found.append(Pattern(tuple(reversed(seen)), int(cnt_sum[i]), tuple(int(x) for x in ret_sum[i])))
    out = Glimpsed(tuple(glimpses), tuple(choices), den, tuple(found))
    burn = BURN in {g.position for g in glimpses}
    expected = (size**(6 + burn)) if infinite else falling(size, 6 + burn)
    if out.total != expected:
        raise AssertionError(f"counted {out.total} sequences, not {expected}")
    return out


def _unseen(cards: Cards, drawing: Drawing, seen: list[str], keys: np.ndarray, per_outcome: np.ndarray,
            infinite: bool) -> tuple[np.ndarray, np.ndarray]:
    """For each key (the values of the seen cards, in ``seen`` order) the sequences of the unseen first-four cards
    and of the fifth and sixth, and each choice's return over them: (keys,) and (keys, choices), Python ints."""
    base = np.array(cards.shoe.counts, dtype=np.int64)
    k = len(seen)
    unseen = [p for p in FIRST_FOUR if p not in seen]
    free = len(unseen) + 2  # and the fifth and sixth cards
    grid = np.indices((VALUES,) * free).reshape(free, -1).T
    before = np.stack([(grid[:, :j] == grid[:, j:j + 1]).sum(axis=1) for j in range(free)], axis=1)
    size = int(base.sum())
    most = int(np.abs(per_outcome).max(initial=0))
    exact64 = size**free * max(most, 1) < 2**63
    digits = np.stack([keys // VALUES**(k - 1 - j) % VALUES for j in range(k)], axis=1) if k else \
        np.zeros((len(keys), 0), dtype=np.int64)
    counts = np.zeros(len(keys), dtype=object)
    returns = np.zeros((len(keys), len(per_outcome)), dtype=object)
    step = max(1, _BLOCK // len(grid))
    for lo in range(0, len(keys), step):
        d = digits[lo:lo + step]
        left = np.tile(base, (len(d), 1))
        if not infinite:
            for j in range(k):
                np.subtract.at(left, (np.arange(len(d)), d[:, j]), 1)
        left = np.maximum(left, 0)
        ways = np.ones((len(d), len(grid)), dtype=np.int64)
        for j in range(free):
            ways *= np.maximum(left[:, grid[:, j]] - (0 if infinite else before[:, j]), 0)
        cols = {p: d[:, [seen.index(p)]] for p in FIRST_FOUR if p in seen}
        cols.update({p: grid[None, :, i] for i, p in enumerate(unseen)})
        x, y = grid[None, :, len(unseen)], grid[None, :, len(unseen) + 1]
        outcome = play(cols["player_1"], cols["banker_1"], cols["player_2"], cols["banker_2"], x, y, drawing)
        outcome = np.broadcast_to(outcome, ways.shape)
        w = ways if exact64 else ways.astype(object)
        counts[lo:lo + step] = [int(c) for c in w.sum(axis=1)]
        for c, pay in enumerate(per_outcome):
            p = pay if exact64 else pay.astype(object)
            returns[lo:lo + step, c] = [int(r) for r in (w * p[outcome]).sum(axis=1)]
    return counts, returns


def value_sorts(glimpsed: Glimpsed) -> list[tuple[int, Fraction]]:
    """Every two-group sort of the ten values, as the subset ``S`` (bit v for value v) of the marked group, 1 to
    1,023, and its EV: from a model counted with each card's value seen (``by_value``) at the sorted positions."""
    pats = glimpsed.patterns
    k = len(glimpsed.glimpses)
    vals = np.array([p.seen for p in pats], dtype=np.int64).reshape(len(pats), k)
    rets = [[p.returns[i] for i in range(len(glimpsed.choices))] for p in pats]
    bound = sum(max(abs(x) for x in r) for r in rets)
    dtype: type = np.int64 if bound < 2**62 else object
    ret: np.ndarray = np.array(rets, dtype=dtype)
    out = []
    for subset in range(1, 2**VALUES):
        marked = (subset >> vals) & 1
        code = (marked * (1 << np.arange(k))).sum(axis=1)
        sums: np.ndarray = np.zeros((1 << k, ret.shape[1]), dtype=dtype)
        np.add.at(sums, code, ret)
        out.append((subset, Fraction(sum(int(x) for x in sums.max(axis=1)), glimpsed.den * glimpsed.total)))
    return out


def by_value(positions: Sequence[str]) -> tuple[Glimpse, ...]:
    """Glimpses that see each card's baccarat value at ``positions`` (the ten values as ten groups of ranks)."""
    groups = tuple(frozenset(r for r, p in zip(RANKS, RANK_POINTS) if p == v) for v in range(VALUES))
    return tuple(Glimpse(p, "group", groups) for p in positions)


def sort_groups(subset: int) -> tuple[frozenset[str], frozenset[str]]:
    """The two groups of ranks a subset of values (bit v: value v marked) makes: marked, then the rest."""
    marked = frozenset(r for r, p in zip(RANKS, RANK_POINTS) if subset >> p & 1)
    return marked, frozenset(RANKS) - marked


def sort_label(subset: int) -> str:
    """A sort as its two groups of values, the one holding 9 first (``6 7 8 9 | 0 1 2 3 4 5``)."""
    a = [v for v in range(VALUES) if subset >> v & 1]
    b = [v for v in range(VALUES) if not subset >> v & 1]
    first, second = (a, b) if 9 in a else (b, a)
    return " ".join(map(str, first)) + (" | " + " ".join(map(str, second)) if second else " (every value)")


__all__ = ["BURN", "CHOICES", "DECISIONS", "FIRST_FOUR", "Glimpsed", "Pattern", "by_value", "count", "outcome_pays",
           "seen_label", "sort_groups", "sort_label", "value_sorts"]
