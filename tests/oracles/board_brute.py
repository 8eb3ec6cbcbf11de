"""A brute force of a game with community cards beside a dealer (Casino Hold'em's kind), written apart from the
engine: its own five-card ranking, every deal of a reduced deck dealt with no symmetry (the player's seen cards, the
board seen, then every set of the player's later cards, the later board and the dealer's cards), the player's
decision at each seen pair chosen by direct enumeration of its completions, every deal settled as the rules say.

Vectorised with numpy over the deals (the ranking is plain Python, once per distinct hand: a reduced deck has few).
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

CLASS_NAMES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
               "four_of_a_kind", "straight_flush", "royal_flush")  # worst first: the index is the category


def five_value(cards: Sequence[int]) -> tuple[int, ...]:
    """(category, tiebreak ranks...) of five cards (card id = rank * 4 + suit, rank 0 the deuce): higher better;
    A-2-3-4-5 the lowest straight; a royal flush an ace-high straight flush (category 9, named apart)."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    counts = Counter(ranks)
    distinct = sorted(counts, reverse=True)
    top = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            top = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            top = 3
    if top is not None and flush:
        return (9 if top == 12 else 8, top)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    order = tuple(r for r, _ in groups)
    if shape[0] == 4:
        return (7, *order)
    if shape == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *ranks)
    if top is not None:
        return (4, top)
    if shape[0] == 3:
        return (3, *order)
    if shape[:2] == [2, 2]:
        return (2, *order)
    if shape[0] == 2:
        return (1, *order)
    return (0, *ranks)


@functools.cache
def _five(cards: tuple[int, ...]) -> tuple[int, ...]:
    return five_value(cards)


def best_value(cards: tuple[int, ...]) -> tuple[int, ...]:
    """The best five of the cards (given in ascending order)."""
    return max(_five(five) for five in itertools.combinations(cards, 5))


def qualifies(value: tuple[int, ...], minimum: tuple[int, int]) -> bool:
    """At least ``minimum`` (category, its first rank): (1, 2) a pair of fours or better, (2, 0) two pair."""
    return value[:2] >= minimum


def _deals(n: int, shape: tuple[int, int, int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Every deal as (the player's hand, the dealer's hand) bit masks, (seen pairs, completions) each."""
    p0, b0, pl, bl, d = shape
    states, frees = [], []
    for hole in itertools.combinations(range(n), p0):
        rest = [i for i in range(n) if i not in hole]
        for board in itertools.combinations(rest, b0):
            states.append((sum(1 << i for i in hole), sum(1 << i for i in board)))
            frees.append([1 << i for i in rest if i not in board])
    f = n - p0 - b0
    mine_part, his_part = [], []  # each completion as index sets into the cards not seen: (player's, dealer's)
    for later in itertools.combinations(range(f), pl):
        left = [i for i in range(f) if i not in later]
        for more in itertools.combinations(left, bl):
            last = [i for i in left if i not in more]
            for his in itertools.combinations(last, d):
                mine_part.append([*later, *more])
                his_part.append([*more, *his])
    free = np.array(frees, dtype=np.int64)  # (states, f) the bit of each card not seen
    hole_mask = np.array([h for h, _ in states], dtype=np.int64)[:, None]
    board_mask = np.array([b for _, b in states], dtype=np.int64)[:, None]
    mine_mask = hole_mask | board_mask | free[:, np.array(mine_part, dtype=np.int64).reshape(-1, pl + bl)].sum(axis=2)
    his_mask = board_mask | free[:, np.array(his_part, dtype=np.int64).reshape(-1, bl + d)].sum(axis=2)
    return mine_mask, his_mask


def deal_values(cards: Sequence[int], shape: tuple[int, int, int, int, int],
                minimum: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every deal (seen pairs, completions; in the order of itertools.combinations: the player's seen cards, the
    board seen, then the player's later cards, the later board, the dealer's): the player's strength, the dealer's,
    the player's category (``CLASS_NAMES``) and whether the dealer qualifies."""
    p0, b0, pl, bl, d = shape
    n = len(cards)
    mine_mask, his_mask = _deals(n, shape)
    values: dict[int, tuple[int, ...]] = {}  # every hand of the two sizes, by the bit mask of its cards
    for k in {p0 + pl + b0 + bl, d + b0 + bl}:
        for hand in itertools.combinations(range(n), k):
            values[sum(1 << i for i in hand)] = best_value(tuple(cards[i] for i in hand))
    dense = {v: k for k, v in enumerate(sorted(set(values.values())))}
    strength = np.zeros(1 << n, dtype=np.int64)
    category = np.zeros(1 << n, dtype=np.int64)
    qual = np.zeros(1 << n, dtype=bool)
    for m, v in values.items():
        strength[m], category[m], qual[m] = dense[v], v[0], qualifies(v, minimum)
    x, y, cls, q = strength[mine_mask], strength[his_mask], category[mine_mask], qual[his_mask]
    return x, y, cls, q


def brute(cards: Sequence[int], shape: tuple[int, int, int, int, int], minimum: tuple[int, int],
          ante_pays: dict[str, Fraction], bets: Sequence[int]) -> tuple[Counter[tuple[str, Fraction, int]], Fraction]:
    """Every deal's (event, net antes, stake) and the total won; ``shape`` (seen player, seen board, later player,
    later board, dealer). The ante is won at its pay by class (else 1:1) against a qualifying dealer beaten or one
    who does not qualify; each bet wins 1:1 against a qualifying dealer beaten, pushes when he does not qualify;
    equal hands push; a fold loses the ante."""
    x, y, cls, q = deal_values(cards, shape, minimum)
    ante = [ante_pays.get(CLASS_NAMES[c], Fraction(1)) for c in range(10)]
    scale = 1
    for a in ante:
        scale = scale * a.denominator // np.gcd(scale, a.denominator)
    ante_int = np.array([int(a * scale) for a in ante], dtype=np.int64)[cls]
    nets = {}
    for b in bets:
        won = ante_int + b * scale
        nets[b] = np.where(~q, ante_int, np.where(x > y, won, np.where(x == y, 0, -(1 + b) * scale)))
    fold_ev = -scale * x.shape[1]
    best = np.full(len(x), 0)  # 0: fold
    best_ev = np.full(len(x), fold_ev)
    for b in sorted(bets):
        ev = nets[b].sum(axis=1)
        better = ev > best_ev  # equal EVs keep the smaller stake
        best = np.where(better, b, best)
        best_ev = np.where(better, ev, best_ev)
    out: Counter[tuple[str, Fraction, int]] = Counter()
    won_total = Fraction(0)
    per = x.shape[1]
    out[("fold", Fraction(-1), 1)] = int((best == 0).sum()) * per
    won_total -= out[("fold", Fraction(-1), 1)]
    for b in sorted(bets):
        rows = best == b
        outcome = np.where(~q, 0, np.where(x > y, 1, np.where(x == y, 2, 3)))[rows]
        c = cls[rows]
        tallies = np.bincount(outcome.ravel() * 10 + c.ravel(), minlength=40)
        for code in np.flatnonzero(tallies).tolist():
            o, k = divmod(code, 10)
            count = int(tallies[code])
            name = CLASS_NAMES[k]
            paid = name if name in ante_pays and o in (0, 1) else ""
            event = ("dealer_not_qualified", "win", "push", "lose")[o] + (f"_{paid}" if paid else "")
            units = [ante_pays.get(name, Fraction(1)), ante_pays.get(name, Fraction(1)) + b, Fraction(0),
                     Fraction(-1 - b)][o]
            out[(event, units, 1 + b)] += count
            won_total += units * count
    return out, won_total
