"""The stud engine's count against a dealer by inclusion-exclusion over the player's cards: the same integers as
the plain count (:mod:`oddscalc.games.stud.dealer`), without visiting a dealer hand per player hand.

Counting argument. For a player hand ``R`` (``P`` cards, strength ``p``) and an up card ``u`` (or none), the
plain count wants the dealer's ``D``-card hands ``h`` that hold ``u`` and none of ``R``, by outcome (below the
qualifier; else below, equal to or above ``p``). By inclusion-exclusion over the sets ``S`` of the player's cards,

    #{h : u in h, h and R disjoint, s(h) < x} = sum over S of (-1)^|S| #{h : h holds u and S, s(h) < x},

where ``h`` now ranges over every ``D``-card hand of the whole deck. The right side depends on the set ``T = S +
{u}`` only, so it is read from tables built once: for each ``k``-set ``T`` of the deck, the hands holding it by
strength (a cumulative histogram where ``T`` has many supersets, the sorted strengths where it has few). Each
player hand and up card is then ``2^P`` reads of three counts (below the qualifier, below ``p``, at most ``p``)
instead of C(n - P - U, D - U) hands: Four Card Poker's full deck (134,459 player classes, 47 up cards, 10,737,573
dealer hands each) is 2 x 10^8 reads after a table build of 20,358,520 hands, not 1.44 x 10^12 visits.

Exactness: every count is an integer sum of integer counts (int64; the largest, C(52, 6) = 20,358,520, is far
from its bound). The sieve and the plain count are checked equal to the unit on reduced decks for the three
rankings, with and without an up card, and on full-deck player classes (tests/games/stud/test_sieve.py).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from oddscalc.cards import Deck
from oddscalc.games.stud.dealer_chunk import Chunk, ranking_table
from oddscalc.hands import colex_combos

# Bytes the tables may take before the plain count is used instead (Four Card Poker's full deck: about 1.2 GB)
TABLE_BUDGET = 3 * 2**30
ANY: tuple[str, tuple[int, ...]] = ("high_card", ())  # any qualifier: the strengths the tables hold do not depend on it


@dataclass(frozen=True)
class SieveTables:
    """The dealer's hands holding each ``k``-set of the deck (``k`` = 0..D), by dense rank of strength, flat: set
    size ``k``'s cumulative histograms (``kind`` 0, rows ``stride`` long: hands below each rank) or sorted ranks
    (``kind`` 1, ``width[k]`` = C(n - k, D - k) a set) start at ``at[k]`` of ``hist`` or ``seg``."""

    levels: np.ndarray  # the distinct dealer strengths, ascending (dense rank i is levels[i])
    hist: np.ndarray  # int32
    seg: np.ndarray  # int16 or int32 dense ranks
    at: np.ndarray  # (D + 1,) int64
    kind: np.ndarray  # (D + 1,) int64
    width: np.ndarray  # (D + 1,) int64

    @property
    def stride(self) -> int:
        """A histogram row's length: one more than the distinct strengths."""
        return len(self.levels) + 1


def _kinds(n: int, d: int, levels: int) -> list[int]:
    """Per set size: a histogram (0) where it is no larger than the sorted strengths of the set's supersets."""
    return [0 if levels + 1 <= math.comb(n - k, d - k) else 1 for k in range(d + 1)]


def table_bytes(n: int, d: int, levels: int) -> int:
    """The tables' size for ``d``-card dealer hands of an ``n``-card deck with ``levels`` distinct strengths."""
    size = 2 if levels < 2**15 else 4
    return sum(math.comb(n, k) * ((levels + 1) * 4 if kind == 0 else math.comb(n - k, d - k) * size)
               for k, kind in enumerate(_kinds(n, d, levels)))


@functools.cache
def sieve_tables(deck: Deck, ranking: str, d: int) -> SieveTables:
    """The tables of ``d``-card dealer hands of ``deck`` under ``ranking`` (built once a process)."""
    from oddscalc.games.stud.sieve_kernel import fill_histograms, fill_segments

    n = deck.size
    strength = ranking_table(deck, ranking, ANY, d).strength  # the qualifier is read per chunk, not tabled
    levels, inverse = np.unique(strength, return_inverse=True)
    rank = inverse.astype(np.int32).reshape(-1)
    kinds = _kinds(n, d, len(levels))
    width = np.array([math.comb(n - k, d - k) for k in range(d + 1)], dtype=np.int64)
    stride = len(levels) + 1
    sizes = [math.comb(n, k) * (stride if kind == 0 else int(width[k])) for k, kind in enumerate(kinds)]
    at = np.zeros(d + 1, dtype=np.int64)
    hist = np.zeros(sum(sz for sz, kind in zip(sizes, kinds, strict=True) if kind == 0), dtype=np.int32)
    seg = np.zeros(sum(sz for sz, kind in zip(sizes, kinds, strict=True) if kind == 1),
                   dtype=np.int16 if len(levels) < 2**15 else np.int32)
    rank_of_seg = rank.astype(seg.dtype)
    order = np.argsort(rank, kind="stable") if 1 in kinds else np.zeros(0, dtype=np.int64)
    combos = colex_combos(n, d)  # the cards of every dealer hand, row i the hand of colex rank i
    filled = [0, 0]
    for k, kind in enumerate(kinds):
        at[k] = filled[kind]
        if kind == 0:
            view = hist[at[k]:at[k] + sizes[k]].reshape(math.comb(n, k), stride)
            fill_histograms(rank, combos, k, _binom(), view)
            np.cumsum(view, axis=1, out=view)
        else:
            fill_segments(order, rank_of_seg, combos, k, _binom(), int(width[k]), seg[at[k]:at[k] + sizes[k]])
        filled[kind] += sizes[k]
    return SieveTables(levels, hist, seg, at, np.array(kinds, dtype=np.int64), width)


@functools.cache
def _binom() -> np.ndarray:
    return np.array([[math.comb(x, k) for k in range(8)] for x in range(54)], dtype=np.int64)



def sieve_chunk(chunk: Chunk) -> np.ndarray:
    """The chunk's dealer hands by up set and outcome, as :func:`oddscalc.games.stud.dealer.count_chunk` gives
    them, by inclusion-exclusion (no up card, or one)."""
    from oddscalc.games.stud.sieve_kernel import sieve_rows

    if chunk.up_cards > 1:
        raise ValueError("the sieve counts a dealer showing no card or one")
    n, d = chunk.deck.size, chunk.dealer_cards
    tables = sieve_tables(chunk.deck, chunk.ranking, d)
    uniq = tables.levels
    q = ranking_table(chunk.deck, chunk.ranking, chunk.qualifier, d).qualifies_from
    rows, f = chunk.free.shape
    free = np.ones((rows, n), dtype=bool)
    np.put_along_axis(free, chunk.free.astype(np.int64), False, axis=1)
    held = np.nonzero(free)[1].reshape(rows, n - f).astype(np.int64)  # the player's positions, ascending
    s = chunk.strength.astype(np.int64)
    thresholds = np.stack([np.full(rows, np.searchsorted(uniq, q)), np.searchsorted(uniq, np.maximum(s, q)),
                           np.searchsorted(uniq, np.maximum(s + 1, q))], axis=1).astype(np.int64)
    out = np.zeros((rows, f if chunk.up_cards else 1, 4), dtype=np.int64)
    sieve_rows(held, chunk.free.astype(np.int64), thresholds, chunk.up_cards, d, _binom(), tables.hist, tables.seg,
               tables.at, tables.kind, tables.width, tables.stride, out)
    return out
