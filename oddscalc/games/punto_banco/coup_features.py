"""The joint distribution of punto banco coup features: what every wager, main or side, is settled from.

A cell of the distribution is one combination of

- the outcome: punto's final total and card count, banca's final total and card count
  (400 cells, indexed ``((pt * 2 + punto drew) * 10 + bt) * 2 + banca drew``), and
- for each side, how its first two cards relate: same rank or not, same suit or not (4 x 4).

Every feature a wager can name (winner, margin, naturals, cards dealt, pairs, suited cards; see
FEATURES) is a function of the cell, so 6,400 exact counts settle any wager on the coup.

Counting argument. Cards are dealt punto, banca, punto, banca, then the two cards a coup may draw
(x, the fifth, and y, the sixth); every coup counts as an ordered sequence of six cards (the
published convention, size P 6). Rank and suit matter only for the first four cards, and how many
of each point value remain after them does not depend on their ranks or suits. So

    count(cell) = sum over the point values v of the first four cards and (x, y) of
        W(v, relations) x [the coup with values v, x, y has the cell's outcome] x F(x, y | v)

where F is the falling product of the values left for the fifth and sixth cards and W counts the
ordered four-card sequences with values v and the given same-rank / same-suit relations.

W is counted over card classes (rank, suit). For a shoe of ``copies`` cards of every (rank, suit)
of a set of ranks times a set of suits (every standard shoe), a four-card sequence is a rank
sequence and a suit sequence; which positions share a class is the meet of the two equality
patterns, so W splits into rank tuples (13 ** 4) times suit tuples (4 ** 4) times the falling
products of ``copies`` over the meet's blocks: exact for any number of decks. Any other shoe is
counted over its class tuples directly (at most 52 ** 4), with int64 sums that are checked to fit.

The infinite shoe draws every card with replacement, each class in proportion to its copies: the
same sums with powers instead of falling products (every standard shoe then has 52 ** 6 sequences).
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from functools import cache
from typing import Protocol

import numpy as np

from oddscalc.cards import N_SUITS, RANK_CHARS
from oddscalc.games.shoe import VALUES, Shoe, exact_matmul, falling, tableau_array, totals_mask

OUTCOMES = 400
RELATIONS = 4  # bit 0: the side's first two cards share a rank; bit 1: they share a suit
CELLS = OUTCOMES * RELATIONS * RELATIONS
RANKS = RANK_CHARS  # one rank order for card integers: cards.py's, "2".."A" (a class is its card id there)
RANK_POINTS = tuple(1 if r == "A" else 0 if r in "TJQK" else int(r) for r in RANKS)  # baccarat point values
SUITS = N_SUITS
CLASSES = len(RANKS) * SUITS  # a card class is rank index * 4 + suit, as cards.card(rank, suit)
FOUR = 10**4  # point-value sequences of the first four cards (punto, banca, punto, banca)


class Drawing(Protocol):
    """The drawing rules a table states (punto banco's ``[rules]``)."""

    @property
    def punto_draws_on(self) -> tuple[int, ...]:
        """Punto's two-card totals that draw."""

    @property
    def banca_tableau(self) -> tuple[str, ...]:
        """Banca's draws when punto drew: rows totals 0-7, letters punto's third card 0-9."""

    @property
    def banca_draws_when_punto_stands(self) -> tuple[int, ...]:
        """Banca's totals that draw when punto stood."""

    @property
    def banca_natural_stops_punto(self) -> bool:
        """A banca two-card 8 or 9 ends the coup before punto draws."""


def play(p1: np.ndarray, b1: np.ndarray, p2: np.ndarray, b2: np.ndarray, x: np.ndarray, y: np.ndarray,
         drawing: Drawing) -> np.ndarray:
    """The outcome index of each (broadcast) value sequence dealt p1, b1, p2, b2, x, y."""
    pt0 = (p1 + p2) % 10
    bt0 = (b1 + b2) % 10
    natural = (pt0 >= 8) | ((bt0 >= 8) & drawing.banca_natural_stops_punto)
    pdraw = ~natural & totals_mask(drawing.punto_draws_on)[pt0]
    # rows 8 and 9 of the tableau stand: a banca natural never draws
    bdraw = ~natural & np.where(pdraw, tableau_array(drawing.banca_tableau)[bt0, x],
                                totals_mask(drawing.banca_draws_when_punto_stands)[bt0])
    b3 = np.where(pdraw, y, x)  # banca takes the fifth card when punto stood
    pt = (pt0 + x * pdraw) % 10
    bt = (bt0 + b3 * bdraw) % 10
    return np.asarray(((pt * 2 + pdraw) * 10 + bt) * 2 + bdraw)


# --- the cells and their features ------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Features:
    """Every feature of every cell, as (CELLS,) arrays."""

    player_total: np.ndarray
    player_cards: np.ndarray
    banker_total: np.ndarray
    banker_cards: np.ndarray
    player_pair: np.ndarray
    player_suited: np.ndarray
    banker_pair: np.ndarray
    banker_suited: np.ndarray

    @functools.cached_property
    def winner(self) -> np.ndarray:
        """ "player", "banker" or "tie"."""
        return np.where(self.player_total > self.banker_total, "player",
                        np.where(self.banker_total > self.player_total, "banker", "tie"))

    @functools.cached_property
    def player_natural(self) -> np.ndarray:
        """Punto's first two cards make 8 or 9."""
        return np.asarray((self.player_cards == 2) & (self.player_total >= 8))

    @functools.cached_property
    def banker_natural(self) -> np.ndarray:
        """Banca's first two cards make 8 or 9."""
        return np.asarray((self.banker_cards == 2) & (self.banker_total >= 8))

    @functools.cached_property
    def natural(self) -> np.ndarray:
        """Either side has a natural."""
        return np.asarray(self.player_natural | self.banker_natural)

    @functools.cached_property
    def cards(self) -> np.ndarray:
        """Cards dealt in the coup, 4 to 6."""
        return np.asarray(self.player_cards + self.banker_cards)

    @functools.cached_property
    def margin(self) -> np.ndarray:
        """The winner's total minus the loser's (0 on a tie)."""
        return np.asarray(np.abs(self.player_total - self.banker_total))

    def value(self, name: str) -> np.ndarray:
        """A feature by its name in FEATURES."""
        if name not in FEATURES:
            raise KeyError(name)
        return np.asarray(getattr(self, name))

    @functools.cached_property
    def possible(self) -> np.ndarray:
        """Cells some drawing rules and some shoe can produce: a punto natural ends the coup at two cards
        each (a banca natural stands, and stops punto only under the usual rule)."""
        return np.asarray(~self.player_natural | (self.banker_cards == 2))


@cache
def features() -> Features:
    """The features of the CELLS cells (index outcome * 16 + punto relation * 4 + banca relation)."""
    cell = np.arange(CELLS)
    outcome, rel = np.divmod(cell, RELATIONS * RELATIONS)
    prel, brel = np.divmod(rel, RELATIONS)
    rest, bdrew = np.divmod(outcome, 2)
    rest, bt = np.divmod(rest, 10)
    pt, pdrew = np.divmod(rest, 2)
    return Features(pt, pdrew + 2, bt, bdrew + 2, (prel & 1) == 1, (prel & 2) == 2, (brel & 1) == 1,
                    (brel & 2) == 2)


# Feature name -> the values it takes (booleans: True, False). Totals 0-9, cards per side 2-3.
FEATURES: dict[str, tuple[object, ...]] = {
    "winner": ("player", "banker", "tie"),
    "player_total": tuple(range(10)), "banker_total": tuple(range(10)),
    "player_cards": (2, 3), "banker_cards": (2, 3), "cards": (4, 5, 6),
    "margin": tuple(range(10)),
    "player_natural": (True, False), "banker_natural": (True, False), "natural": (True, False),
    "player_pair": (True, False), "banker_pair": (True, False),
    "player_suited": (True, False), "banker_suited": (True, False),
}


# --- the shoe as card classes ----------------------------------------------------------------


@dataclass(frozen=True)
class Cards:
    """A shoe as copies of each card class (rank index * 4 + suit); what pair and suited bets read."""

    copies: tuple[int, ...]  # (CLASSES,)

    def __post_init__(self) -> None:
        if len(self.copies) != CLASSES or any(c < 0 for c in self.copies):
            raise ValueError("a shoe's cards are 52 non-negative counts")

    @classmethod
    def of_decks(cls, decks: int) -> Cards:
        """``decks`` standard decks."""
        return cls((decks,) * CLASSES)

    @classmethod
    def from_cards(cls, cards: dict[tuple[str, int], int]) -> Cards:
        """Copies per (rank letter, suit 0-3); "10" is "T"."""
        copies = [0] * CLASSES
        for (rank, suit), n in cards.items():
            r = RANKS.index("T" if rank == "10" else rank.upper())
            if not 0 <= suit < SUITS:
                raise ValueError(f"suit {suit} is not 0-3")
            copies[r * SUITS + suit] += n
        return cls(tuple(copies))

    @property
    def shoe(self) -> Shoe:
        """The value-count shoe (for the counts that read point values only)."""
        ranks: dict[str, int] = {}
        for c, n in enumerate(self.copies):
            if n:
                ranks[RANKS[c // SUITS]] = ranks.get(RANKS[c // SUITS], 0) + n
        shoe = Shoe.from_ranks(ranks)
        if len(set(self.copies)) == 1:
            d = self.copies[0]
            return Shoe(shoe.counts, shoe.same_rank_pairs, f"{d} deck{'s' if d != 1 else ''} ({shoe.size} cards)")
        return shoe

    def product(self) -> tuple[tuple[int, ...], tuple[int, ...], int] | None:
        """(ranks, suits, copies) when the shoe holds ``copies`` of every class of ranks x suits."""
        present = [c for c, n in enumerate(self.copies) if n]
        if not present:
            return None
        ranks = tuple(sorted({c // SUITS for c in present}))
        suits = tuple(sorted({c % SUITS for c in present}))
        d = self.copies[present[0]]
        if len(present) == len(ranks) * len(suits) and all(self.copies[c] == d for c in present):
            return ranks, suits, d
        return None


# --- counting ----------------------------------------------------------------------------------


def _partitions(labels: np.ndarray) -> np.ndarray:
    """Canonical equality pattern of each row of 4 labels, as an int: first-occurrence relabelling."""
    n = labels.shape[0]
    canon = np.zeros((n, 4), dtype=np.int64)
    for i in range(1, 4):
        fresh = canon[:, :i].max(axis=1) + 1
        same = np.full(n, -1)
        for j in range(i - 1, -1, -1):
            same = np.where(labels[:, j] == labels[:, i], canon[:, j], same)
        canon[:, i] = np.where(same >= 0, same, fresh)
    return np.asarray(((canon[:, 0] * 4 + canon[:, 1]) * 4 + canon[:, 2]) * 4 + canon[:, 3])


@cache
def _patterns() -> tuple[int, ...]:
    """The 15 equality patterns of four positions."""
    return tuple(sorted({int(p) for p in _partitions(np.array(list(itertools.product(range(4), repeat=4))))}))


def _pattern_labels(code: int) -> tuple[int, int, int, int]:
    a, b, c, d = code // 64, code // 16 % 4, code // 4 % 4, code % 4
    return a, b, c, d


def _relation(code_rank: int, code_suit: int) -> int:
    """The cell's relation index (punto * 4 + banca) for rank and suit patterns of p1, b1, p2, b2."""
    r, s = _pattern_labels(code_rank), _pattern_labels(code_suit)
    punto = (r[0] == r[2]) + 2 * (s[0] == s[2])
    banca = (r[1] == r[3]) + 2 * (s[1] == s[3])
    return int(punto * RELATIONS + banca)


def _meet_weight(code_rank: int, code_suit: int, copies: int, infinite: bool) -> int:
    r, s = _pattern_labels(code_rank), _pattern_labels(code_suit)
    blocks: dict[tuple[int, int], int] = {}
    for i in range(4):
        blocks[(r[i], s[i])] = blocks.get((r[i], s[i]), 0) + 1
    return math.prod(copies**k if infinite else falling(copies, k) for k in blocks.values())


def _value_index(v: np.ndarray) -> np.ndarray:
    """Index of point values dealt p1, b1, p2, b2 among the FOUR sequences."""
    return np.asarray(((v[:, 0] * 10 + v[:, 1]) * 10 + v[:, 2]) * 10 + v[:, 3])


@cache
def _rank_tuples(ranks: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Every rank sequence of four cards: its value index and its equality pattern."""
    r = np.array(ranks, dtype=np.int64)
    t = r[np.indices((len(r),) * 4).reshape(4, -1).T]
    return _value_index(np.array(RANK_POINTS)[t]), _partitions(t)


def first_four_product(ranks: tuple[int, ...], suits: int, copies: int,
                        infinite: bool) -> tuple[np.ndarray, np.ndarray]:
    """W for a ranks x suits shoe as (FOUR, patterns) int64 rank sequences by value index and rank
    pattern, times (patterns, 16) object: suit sequences x falling products of the meet, by relation."""
    vidx, rpat = _rank_tuples(ranks)
    spat = _partitions(np.array(list(itertools.product(range(suits), repeat=4)), dtype=np.int64))
    suit_count = {int(p): int(n) for p, n in zip(*np.unique(spat, return_counts=True))}
    patterns = _patterns()
    # each rank tuple's pattern index looked up in an array (a code is below 4**4): a Python loop over the 13**4
    # tuples was tens of milliseconds of every cold report
    pat_index = np.zeros(4**4, dtype=np.int64)
    pat_index[list(patterns)] = np.arange(len(patterns))
    by_rank = np.zeros((FOUR, len(patterns)), dtype=np.int64)
    np.add.at(by_rank, (vidx, pat_index[rpat]), 1)
    k = np.zeros((len(patterns), RELATIONS * RELATIONS), dtype=object)
    for i, pr in enumerate(patterns):
        for ps, n in suit_count.items():
            k[i, _relation(pr, ps)] += n * _meet_weight(pr, ps, copies, infinite)
    return by_rank, k


def first_four_classes(copies: tuple[int, ...], infinite: bool) -> np.ndarray:
    """(FOUR, 16) int64: W for any shoe, over its class tuples; refuses a shoe too big for int64 sums."""
    size = sum(copies)
    if (size**4 if infinite else falling(size, 4)) >= 2**63:
        raise ValueError(f"a shoe of {size:,} cards that is not whole decks is too large to count exactly here")
    present = [c for c, n in enumerate(copies) if n]
    a = np.array(copies, dtype=np.int64)
    rest = np.array(list(itertools.product(present, repeat=3)), dtype=np.int64).reshape(-1, 3)
    out = np.zeros((FOUR, RELATIONS * RELATIONS), dtype=np.int64)
    for c0 in present:  # one first card at a time: at most 52 ** 3 tuples in memory
        t = np.concatenate([np.full((len(rest), 1), c0), rest], axis=1)
        weight = np.ones(len(t), dtype=np.int64)
        for i in range(4):
            earlier = 0 if infinite else (t[:, :i] == t[:, i:i + 1]).sum(axis=1)
            weight = weight * np.maximum(a[t[:, i]] - earlier, 0)
        ranks, suits = t // SUITS, t % SUITS
        rel = (((ranks[:, 0] == ranks[:, 2]) + 2 * (suits[:, 0] == suits[:, 2])) * RELATIONS
               + (ranks[:, 1] == ranks[:, 3]) + 2 * (suits[:, 1] == suits[:, 3]))
        np.add.at(out, (_value_index(np.array(RANK_POINTS)[ranks]), rel), weight)
    return out


@cache
def _outcomes(punto_draws_on: tuple[int, ...], tableau: tuple[str, ...], banca_stood: tuple[int, ...],
              banca_natural_stops: bool) -> np.ndarray:
    """(10, 10, 10, 10) outcome index by punto's two-card total, banca's, the fifth and the sixth card."""
    @dataclass(frozen=True)
    class Rules:
        punto_draws_on: tuple[int, ...]
        banca_tableau: tuple[str, ...]
        banca_draws_when_punto_stands: tuple[int, ...]
        banca_natural_stops_punto: bool

    pt, bt, x, y = np.indices((VALUES,) * 4)
    zero = np.zeros_like(pt)
    # a two-card total t is dealt here as the values (t, 0)
    return play(pt, bt, zero, zero, x, y, Rules(punto_draws_on, tableau, banca_stood, banca_natural_stops))


@cache
def _groups() -> tuple[np.ndarray, np.ndarray]:
    """The first four cards' value sequences grouped by what the fifth and sixth cards depend on (the two
    two-card totals and the multiset of values taken): each sequence's group, and one sequence per group."""
    v = np.arange(FOUR)
    p1, b1, p2, b2 = v // 1000, v // 100 % 10, v // 10 % 10, v % 10
    taken = np.sort(np.stack([p1, b1, p2, b2], axis=1), axis=1) @ np.array([1000, 100, 10, 1])
    key = (((p1 + p2) % 10) * 10 + (b1 + b2) % 10) * FOUR + taken
    _, first, group = np.unique(key, return_index=True, return_inverse=True)
    return group.ravel(), v[first]


def _draws(values: tuple[int, ...], drawing: Drawing, infinite: bool) -> np.ndarray:
    """(groups, OUTCOMES) int64: for each group of first-four value sequences (``_groups``), the fifth and
    sixth cards by outcome."""
    outcome = _outcomes(tuple(drawing.punto_draws_on), tuple(drawing.banca_tableau),
                        tuple(drawing.banca_draws_when_punto_stands), bool(drawing.banca_natural_stops_punto))
    v = _groups()[1]
    n = len(v)
    p1, b1, p2, b2 = v // 1000, v // 100 % 10, v // 10 % 10, v % 10
    rows = np.arange(n)
    left = np.tile(np.array(values, dtype=np.int64), (n, 1))
    if not infinite:
        for f in (p1, b1, p2, b2):
            np.subtract.at(left, (rows, f), 1)
    left = np.maximum(left, 0)  # value sequences the shoe cannot deal have W = 0 anyway
    second = left[:, None, :] - (0 if infinite else np.eye(VALUES, dtype=np.int64)[None, :, :])
    ways = left[:, :, None] * np.maximum(second, 0)  # (groups, fifth, sixth)
    if int(ways.max(initial=0)) * VALUES**2 >= 2**53:
        raise ValueError("a shoe too large for the exact draw counts")
    cells = rows[:, None, None] * OUTCOMES + outcome[(p1 + p2) % 10, (b1 + b2) % 10]
    # float sums are exact here: a cell sums at most 100 terms, all below 2**53 / 100
    out = np.bincount(cells.ravel(), weights=ways.ravel().astype(np.float64), minlength=n * OUTCOMES)
    return np.rint(out).astype(np.int64).reshape(n, OUTCOMES)


def _by_group(first: np.ndarray) -> np.ndarray:
    """Rows of a (FOUR, k) int64 array summed by group (int64: the caller checked the sums fit)."""
    group = _groups()[0]
    out = np.zeros((int(group.max()) + 1, first.shape[1]), dtype=np.int64)
    np.add.at(out, group, first)
    return out


def _prepared(cards: Cards, drawing: Drawing, infinite: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """What the cell counts multiply: (OUTCOMES, groups) fifth and sixth cards, (groups, k) first four cards by
    group, and the (k, 16) relation weights of a ranks x suits shoe (None: k is the 16 relations already)."""
    copies = cards.copies
    if not any(copies):
        raise ValueError("an empty shoe")
    if infinite:
        g = math.gcd(*copies)
        copies = tuple(n // g for n in copies)
    product = Cards(copies).product()
    draws = _draws(Cards(copies).shoe.counts, drawing, infinite).T  # (OUTCOMES, groups)
    if product is not None:
        ranks, suits, d = product
        by_rank, k = first_four_product(ranks, len(suits), d, infinite)
        return draws, _by_group(by_rank), k
    return draws, _by_group(first_four_classes(copies, infinite)), None


def count_cells(cards: Cards, drawing: Drawing, infinite: bool = False) -> np.ndarray:
    """(CELLS,) object: exact six-card sequences of every cell (drawn with replacement when ``infinite``,
    each class in proportion to its copies, reduced by their common divisor)."""
    draws, first, k = _prepared(cards, drawing, infinite)
    cells = exact_matmul(draws, first)
    return np.asarray(cells if k is None else cells.dot(k), dtype=object).ravel()


def count_cells_by_totals(cards: Cards, drawing: Drawing, infinite: bool = False) -> np.ndarray:
    """(10, 10, CELLS) object: :func:`count_cells` split by punto's and banca's two-card totals (what a mid-coup
    table conditions on). Each group of first-four sequences has one pair of totals, so the split is the same
    product taken over each pair's groups: about the work of one count."""
    draws, first, k = _prepared(cards, drawing, infinite)
    v = _groups()[1]
    totals = ((v // 1000 + v // 10 % 10) % 10) * 10 + (v // 100 % 10 + v % 10) % 10
    out = np.zeros((10 * 10, CELLS), dtype=object)
    for t in range(10 * 10):
        cols = np.flatnonzero(totals == t)
        cells = np.asarray(exact_matmul(draws[:, cols], first[cols]), dtype=object)
        if k is not None:  # most outcomes cannot follow two given totals: only the others are weighted
            some = np.flatnonzero(cells.any(axis=1))
            cells, weighted = np.zeros((OUTCOMES, k.shape[1]), dtype=object), cells[some].dot(k)
            cells[some] = weighted
        out[t] = cells.ravel()
    return out.reshape(10, 10, CELLS)
