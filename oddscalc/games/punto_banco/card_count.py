"""The second pass for side bets on the cards: coups counted by outcome and by which card conditions hold.

The coup-feature count (``coup_features``) reads the first four cards' ranks and suits only through the pair and
suited relations. A bet with card conditions (``card_conditions``) is counted again, restricted to what it reads:

    count(outcome, pattern) = sum over atom sequences a of the read slots (the cards its conditions name) of
        w(a) x sum over the point values u of the other slots of F(u | a) x [outcome(a, u)] x [pattern(a, drew)]

where w(a) is the falling product of the atoms' copies (ordered cards of those atoms, exactly: atoms are
disjoint), F the falling product of the point values left for the slots nobody reads (counting the read slots
first is the same count: ordered sequences do not depend on the order positions are filled in), and the pattern
the set of conditions that hold, which for a condition on a third card depends on which side drew (part of the
outcome). Sequences are grouped by the values of the read slots: per group the F sums by outcome (int64), per
group and draw state the weights by pattern (int64, checked to fit), and one exact product of the two.

A pass over four read slots and 40 atoms (nines by suit, as Lucky Nines) is 2.6 million sequences; a bet that
reads more than ``LIMIT`` sequences is refused when its table loads (``check_size``), naming the conditions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from oddscalc.games.punto_banco.card_conditions import FIRST_FOUR, Atoms, CardCondition, atoms, holds
from oddscalc.games.punto_banco.coup_features import CLASSES, OUTCOMES, Drawing, play
from oddscalc.games.shoe import exact_matmul

LIMIT = 8_000_000  # atom sequences one bet's pass may read (the time of about one second on one core)
STATES = ((False, False), (False, True), (True, False), (True, True))  # (punto drew, banca drew)


def read_slots(conditions: Sequence[CardCondition]) -> tuple[int, ...]:
    """The slots of the six dealt cards the conditions read (a banker's third card may be the fifth or sixth)."""
    named = {p for c in conditions for p in c.cards}
    slots = {FIRST_FOUR[p] for p in named if p in FIRST_FOUR}
    if "player3" in named:
        slots.add(4)
    if "banker3" in named:
        slots |= {4, 5}
    return tuple(sorted(slots))


def size(conditions: Sequence[CardCondition]) -> int:
    """The atom sequences a pass reads for a standard shoe (every class present)."""
    return int(len(atoms(conditions, (1,) * CLASSES).copies) ** len(read_slots(conditions)))


def check_size(conditions: Sequence[CardCondition]) -> None:
    """Refuse a list of conditions too fine to count here (ValueError naming the size)."""
    n = size(conditions)
    if n > LIMIT:
        raise ValueError(f"these card conditions read {len(read_slots(conditions))} cards finely enough that counting "
                         f"them takes {n:,} card sequences (at most {LIMIT:,}): name fewer cards, or fewer filters")


def _state_of_outcomes() -> np.ndarray:
    o = np.arange(OUTCOMES)
    return np.asarray(((o // 20) % 2) * 2 + o % 2)  # outcome ((pt * 2 + pdrew) * 10 + bt) * 2 + bdrew


def count_conditions(copies: Sequence[int], drawing: Drawing, infinite: bool,
                     conditions: Sequence[CardCondition]) -> tuple[np.ndarray, np.ndarray]:
    """(OUTCOMES, P) object exact counts of six-card sequences by outcome and pattern, and the (P,) patterns
    (bit k set: condition k holds). ``copies`` per card class; ``infinite`` draws with replacement."""
    if infinite:
        g = math.gcd(*copies)
        copies = tuple(n // g for n in copies)
    at = atoms(conditions, copies)
    slots = read_slots(conditions)
    a, r = len(at.copies), len(slots)
    if (sum(copies) ** r) >= 2**62:
        raise ValueError("a shoe too large to count card conditions exactly here")
    grid = np.indices((a,) * r, dtype=np.int8).reshape(r, -1).T if r else np.zeros((1, 0), dtype=np.int8)
    weight = np.ones(len(grid), dtype=np.int64)
    for i in range(r):
        earlier = 0 if infinite else (grid[:, :i] == grid[:, i:i + 1]).sum(axis=1)
        weight = weight * np.maximum(at.copies[grid[:, i]] - earlier, 0)
    keep = weight > 0
    grid, weight = grid[keep], weight[keep]
    if r == 6:  # every card read: each sequence's outcome is its own, no other slot to sum over
        return _every_slot_read(at, conditions, grid, weight, drawing)
    dealt = {s: grid[:, i] for i, s in enumerate(slots)}
    bits = np.zeros((len(STATES), len(grid)), dtype=np.int64)
    for si, (pd, bd) in enumerate(STATES):
        memo: dict[object, np.ndarray] = {}
        for k, cond in enumerate(conditions):
            bits[si] |= holds(k, cond, at, dealt, pd, bd, memo).astype(np.int64) << k
    vals = at.value[grid] if r else np.zeros((1, 0), dtype=np.int64)
    vkey = (vals * (10 ** np.arange(r)[::-1])).sum(axis=1) if r else np.zeros(1, dtype=np.int64)
    groups, group = np.unique(vkey, return_inverse=True)
    group = group.ravel()
    patterns = np.unique(bits)
    pidx = np.searchsorted(patterns, bits)
    w = np.zeros((len(STATES), len(groups), len(patterns)), dtype=np.int64)
    for si in range(len(STATES)):
        np.add.at(w[si], (group, pidx[si]), weight)
    fsum = _draws(np.asarray(copies), drawing, infinite, slots, groups)  # (OUTCOMES, groups)
    state = _state_of_outcomes()
    out = np.zeros((OUTCOMES, len(patterns)), dtype=object)
    for si in range(len(STATES)):
        rows = np.flatnonzero(state == si)
        out[rows] = np.asarray(exact_matmul(fsum[rows], w[si]), dtype=object)
    return out, patterns


def _every_slot_read(at: Atoms, conditions: Sequence[CardCondition], grid: np.ndarray, weight: np.ndarray,
                     drawing: Drawing) -> tuple[np.ndarray, np.ndarray]:
    """The count when the conditions read all six slots: each sequence's outcome (so its draw state) from its
    six values, its conditions tried in that state only, its weight summed into (outcome, pattern) exactly."""
    vals = at.value[grid]
    outcome = _outcome_table(drawing)[(vals[:, 0] + vals[:, 2]) % 10, (vals[:, 1] + vals[:, 3]) % 10, vals[:, 4],
                                      vals[:, 5]]
    state = _state_of_outcomes()[outcome]
    bits_of = np.zeros(len(grid), dtype=np.int64)
    for si, (pd, bd) in enumerate(STATES):
        rows = np.flatnonzero(state == si)
        if not len(rows):
            continue
        dealt = {s: grid[rows, s] for s in range(6)}
        memo: dict[object, np.ndarray] = {}
        for k, cond in enumerate(conditions):
            bits_of[rows] |= holds(k, cond, at, dealt, pd, bd, memo).astype(np.int64) << k
    seen = np.bincount(bits_of)  # patterns are below 2**MAX_CONDITIONS: a lookup, not a sort of millions
    patterns = np.flatnonzero(seen)
    lookup = np.zeros(len(seen), dtype=np.int64)
    lookup[patterns] = np.arange(len(patterns))
    cell = outcome * len(patterns) + lookup[bits_of]
    size = OUTCOMES * len(patterns)
    if int(weight.sum()) < 2**53:  # every partial sum an integer below 2**53: exact in float64, and far faster
        flat = np.rint(np.bincount(cell, weights=weight.astype(np.float64), minlength=size)).astype(np.int64)
    else:
        flat = np.zeros(size, dtype=np.int64)
        np.add.at(flat, cell, weight)
    return flat.astype(object).reshape(OUTCOMES, len(patterns)), patterns


def _draws(copies: np.ndarray, drawing: Drawing, infinite: bool, slots: tuple[int, ...],
           groups: np.ndarray) -> np.ndarray:
    """(OUTCOMES, groups) int64: for each value sequence of the read slots, the point values of the other
    slots by outcome, each weighted by its falling product in what the read cards left."""
    per_value = np.zeros(10, dtype=np.int64)
    np.add.at(per_value, np.array([1 if r == 12 else 0 if r >= 8 else r + 2 for r in range(13)]).repeat(4),
              copies)
    r = len(slots)
    free = [s for s in range(6) if s not in slots]
    read_vals = np.asarray((groups[:, None] // (10 ** np.arange(r)[::-1])) % 10 if r
                           else np.zeros((len(groups), 0), dtype=np.int64))
    combos = (np.indices((10,) * len(free)).reshape(len(free), -1).T if free
              else np.zeros((1, 0), dtype=np.int64))
    left = np.tile(per_value, (len(groups), 1))
    if not infinite:
        for i in range(r):
            np.subtract.at(left, (np.arange(len(groups)), read_vals[:, i]), 1)
    # (groups, combos): the falling product of the free slots' values in what each group's read cards left
    f = np.ones((len(groups), len(combos)), dtype=np.int64)
    for i in range(len(free)):
        earlier = 0 if infinite else (combos[:, :i] == combos[:, i:i + 1]).sum(axis=1)
        f *= np.maximum(left[:, combos[:, i]] - earlier, 0)
    value = [np.broadcast_to(read_vals[:, [slots.index(s)]], f.shape) if s in slots
             else np.broadcast_to(combos[:, free.index(s)], f.shape) for s in range(6)]
    outcome = _outcome_table(drawing)[(value[0] + value[2]) % 10, (value[1] + value[3]) % 10, value[4], value[5]]
    cell = (outcome * len(groups) + np.arange(len(groups))[:, None]).ravel()
    if int(f.max(initial=0)) * len(combos) < 2**53:  # every sum exact in float64: bincount, far faster
        out = np.rint(np.bincount(cell, weights=f.ravel().astype(np.float64), minlength=OUTCOMES * len(groups)))
        return out.astype(np.int64).reshape(OUTCOMES, len(groups))
    exact = np.zeros(OUTCOMES * len(groups), dtype=np.int64)
    np.add.at(exact, cell, f.ravel())
    return exact.reshape(OUTCOMES, len(groups))


def _outcome_table(drawing: Drawing) -> np.ndarray:
    """(10, 10, 10, 10) outcome by the player's two-card total, the banker's, the fifth and the sixth card."""
    pt, bt, x, y = np.indices((10,) * 4)
    zero = np.zeros_like(pt)
    return play(pt, bt, zero, zero, x, y, drawing)  # a two-card total t is dealt here as the values (t, 0)
