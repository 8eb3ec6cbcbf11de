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

Faster, the same counts (the tests hold them to the plain pass, ``plain=True``, and to brute forces):
- the read sequences are enumerated one per orbit (``card_orbits``: interchangeable ranks, a hand's two first
  cards in either order), weighted by the orbit's size;
- the F of the other slots are grown a slot at a time and a coup that ends after four or five cards is not
  grown further (``_free_by_state``), with a hand's two read first cards in one order (``_one_order``);
- where the conditions read all six slots, the prefixes are grown by draw state the same way (``every_slot``).
Lucky Match (six slots by rank) counts in about 0.06 s of CPU, the plain pass's 13^6 sequences in 4 s.

A plain pass over four read slots and 40 atoms is 2.6 million sequences; a bet that reads more than ``LIMIT``
(plain) sequences is refused when its table loads (``check_size``), naming the conditions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from oddscalc.games.punto_banco.card_conditions import FIRST_FOUR, Atoms, CardCondition, atoms, holds
from oddscalc.games.punto_banco.card_orbits import Prefixes, hand_swaps
from oddscalc.games.punto_banco.coup_features import CLASSES, OUTCOMES, Drawing, play
from oddscalc.games.shoe import exact_matmul
from oddscalc.protocol import OptionError

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
                     conditions: Sequence[CardCondition], plain: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(OUTCOMES, P) object exact counts of six-card sequences by outcome and pattern, and the (P,) patterns
    (bit k set: condition k holds). ``copies`` per card class; ``infinite`` draws with replacement. ``plain``:
    conditions reading all six slots are counted over every atom sequence of six, as before the pass by draw
    state (``every_slot``), the slower second method the tests hold it to."""
    if infinite:
        g = math.gcd(*copies)
        copies = tuple(n // g for n in copies)
    at = atoms(conditions, copies)
    slots = read_slots(conditions)
    r = len(slots)
    if (sum(copies) ** r) >= 2**62:  # a sequence's weight must fit int64 (infinite: per deck)
        most = math.isqrt(2**62 - 1) if r == 2 else int(2 ** (62 / r))
        while most**r >= 2**62:
            most -= 1
        raise OptionError(f"a shoe of {sum(copies):,} cards is too large to count this table's card conditions "
                          f"exactly: they read {r} cards, so at most {most:,} cards ({most // 52} decks)")
    if r == 6 and not plain:
        return every_slot(at, conditions, sum(copies), drawing, infinite)
    grid, weight = _sequences(at, conditions, slots, infinite, plain)
    if r == 6:  # every card read: each sequence's outcome is its own, no other slot to sum over
        return _every_slot_read(at, conditions, grid, weight, drawing)
    dealt = {s: grid[:, i] for i, s in enumerate(slots)}
    # a condition on a third card depends on who drew; without one, the patterns are the same in every state
    states = STATES if max(slots, default=0) >= 4 or plain else STATES[:1]
    bits = np.zeros((len(states), len(grid)), dtype=np.int64)
    for si, (pd, bd) in enumerate(states):
        memo: dict[object, np.ndarray] = {}
        for k, cond in enumerate(conditions):
            bits[si] |= holds(k, cond, at, dealt, pd, bd, memo).astype(np.int64) << k
    vals = at.value[grid] if r else np.zeros((1, 0), dtype=np.int64)
    if not plain:
        vals = _one_order(vals, slots)
    vkey = (vals * (10 ** np.arange(r)[::-1])).sum(axis=1) if r else np.zeros(1, dtype=np.int64)
    groups, group = np.unique(vkey, return_inverse=True)
    group = group.ravel()
    patterns = np.unique(bits)
    pidx = np.searchsorted(patterns, bits)
    w = np.zeros((len(states), len(groups), len(patterns)), dtype=np.int64)
    for si in range(len(states)):
        np.add.at(w[si], (group, pidx[si]), weight)
    if plain or max(slots, default=0) >= 4:
        fsum = _draws(np.asarray(copies), drawing, infinite, slots, groups)  # (OUTCOMES, groups)
    else:
        fsum = _free_by_state(np.asarray(copies), drawing, infinite, slots, groups)
    cards = sum(copies)
    small = (cards**6 if infinite else math.perm(cards, 6)) < 2**53 and not plain
    return _product(fsum, w, small), patterns


def _one_order(vals: np.ndarray, slots: tuple[int, ...]) -> np.ndarray:
    """The read slots' values with a hand's first two cards in one order where both are read: the other slots'
    count by outcome reads them only through the hand's total and the values the read cards took from the shoe,
    so the two orders are one group (Lucky Nines' 10,000 value sequences are 3,025 groups)."""
    out = vals.copy()
    for a, b in ((0, 2), (1, 3)):
        if a in slots and b in slots:
            i, j = slots.index(a), slots.index(b)
            out[:, i], out[:, j] = np.minimum(vals[:, i], vals[:, j]), np.maximum(vals[:, i], vals[:, j])
    return out


def _sequences(at: Atoms, conditions: Sequence[CardCondition], slots: tuple[int, ...], infinite: bool,
               plain: bool) -> tuple[np.ndarray, np.ndarray]:
    """The atom sequences of the read slots (N, r) and the ordered card sequences each stands for (N,): ``plain``,
    every one; else one per orbit of interchangeable ranks and of a hand's two cards' orders (``card_orbits``)."""
    r = len(slots)
    if not plain:
        prefixes = Prefixes(at, conditions, infinite)
        for i in range(r):
            prefixes.grow(last=i == r - 1)
        prefixes.fold([(slots.index(a), slots.index(b)) for a, b in hand_swaps(conditions)
                       if a in slots and b in slots])
        return prefixes.seq, prefixes.weight
    grid = np.indices((len(at.copies),) * r, dtype=np.int8).reshape(r, -1).T if r else np.zeros((1, 0), dtype=np.int8)
    weight = np.ones(len(grid), dtype=np.int64)
    for i in range(r):
        earlier = 0 if infinite else (grid[:, :i] == grid[:, i:i + 1]).sum(axis=1)
        weight = weight * np.maximum(at.copies[grid[:, i]] - earlier, 0)
    keep = weight > 0
    return grid[keep], weight[keep]


def _product(fsum: np.ndarray, w: np.ndarray, small: bool) -> np.ndarray:
    """(OUTCOMES, P) object: each outcome row of ``fsum`` (OUTCOMES, groups) times the group weights by pattern of
    its draw state, ``w`` (states, groups, P) (one state: the same in every one). ``small``: every count of the
    shoe is below 2**53, so every partial sum of the product is an integer float64 holds exactly."""
    state = _state_of_outcomes()
    out = np.zeros((OUTCOMES, w.shape[2]), dtype=object)
    for si in range(len(w)):
        rows = np.flatnonzero(state == si) if len(w) > 1 else np.arange(OUTCOMES)
        if small:
            out[rows] = np.rint(fsum[rows].astype(np.float64) @ w[si].astype(np.float64)).astype(np.int64)
        else:
            out[rows] = np.asarray(exact_matmul(fsum[rows], w[si]), dtype=object)
    return out


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
    return _by_outcome_and_pattern(outcome, bits_of, weight)


def _by_outcome_and_pattern(outcome: np.ndarray, bits_of: np.ndarray,
                            weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(OUTCOMES, P) object: the weights summed by (outcome, pattern), and the (P,) patterns seen."""
    seen = np.bincount(bits_of)  # patterns are below 2**MAX_CONDITIONS: a lookup, not a sort of millions
    patterns = np.flatnonzero(seen)
    lookup = np.zeros(len(seen), dtype=np.int64)
    lookup[patterns] = np.arange(len(patterns))
    flat = _exact_sums(outcome * len(patterns) + lookup[bits_of], weight, OUTCOMES * len(patterns))
    return flat.astype(object).reshape(OUTCOMES, len(patterns)), patterns


def _exact_sums(cell: np.ndarray, weight: np.ndarray, size: int) -> np.ndarray:
    """(size,) int64: ``weight`` summed by ``cell``, exactly: by float64 where the total is below 2**52 (every
    partial sum is then an integer float64 holds exactly, and bincount is far faster), else by int64."""
    if float(weight.astype(np.float64).sum()) < 2**52:
        return np.rint(np.bincount(cell, weights=weight.astype(np.float64), minlength=size)).astype(np.int64)
    exact = np.zeros(size, dtype=np.int64)
    np.add.at(exact, cell, weight)
    return exact


def _draws(copies: np.ndarray, drawing: Drawing, infinite: bool, slots: tuple[int, ...],
           groups: np.ndarray) -> np.ndarray:
    """(OUTCOMES, groups) int64: for each value sequence of the read slots, the point values of the other
    slots by outcome, each weighted by its falling product in what the read cards left."""
    per_value = _per_value(copies)
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
    return _exact_sums(cell, f.ravel(), OUTCOMES * len(groups)).reshape(OUTCOMES, len(groups))


def _per_value(copies: np.ndarray) -> np.ndarray:
    """(10,) the cards of each point value, from copies per card class (rank index * 4 + suit)."""
    per_value = np.zeros(10, dtype=np.int64)
    np.add.at(per_value, np.array([1 if r == 12 else 0 if r >= 8 else r + 2 for r in range(13)]).repeat(4),
              copies)
    return per_value


def _free_by_state(copies: np.ndarray, drawing: Drawing, infinite: bool, slots: tuple[int, ...],
                   groups: np.ndarray) -> np.ndarray:
    """``_draws`` when the read slots are among the first four: the other slots' values grown a slot at a time,
    the first four first, and a coup that ends after four or five cards not grown further (the cards not dealt
    lie in (n - k)P(6 - k) ways, whatever the k before them, or n^(6 - k) drawn with replacement)."""
    per_value = _per_value(copies)
    cards = int(per_value.sum())
    r, n = len(slots), len(groups)
    read_vals = np.asarray((groups[:, None] // (10 ** np.arange(r)[::-1])) % 10 if r
                           else np.zeros((n, 0), dtype=np.int64))
    base = np.tile(per_value, (n, 1))  # (groups, 10) the cards of each value the read cards left
    if not infinite:
        for i in range(r):
            np.subtract.at(base, (np.arange(n), read_vals[:, i]), 1)
    group = np.arange(n)
    weight = np.ones(n, dtype=np.int64)
    value = {s: read_vals[:, i] for i, s in enumerate(slots)}
    grown: list[int] = []  # the free slots placed so far, in order
    flat_table = _outcome_table(drawing).ravel()
    state_of = _state_of_outcomes()
    cells: list[np.ndarray] = []
    weights: list[np.ndarray] = []

    def choices() -> np.ndarray:  # (rows, 10) the ordered ways to place the next free card, by its value
        left = base[group]
        if not infinite:
            for t in grown:
                left[np.arange(len(group)), value[t]] -= 1
        return np.asarray(weight[:, None] * np.maximum(left, 0))

    def grow(s: int, keep: np.ndarray) -> None:
        nonlocal group, weight, value
        group, weight = group[keep], weight[keep]
        value = {t: v[keep] for t, v in value.items()}
        w = choices()
        rows, v = np.nonzero(w > 0)
        group, weight = group[rows], w[rows, v]
        value = {t: u[rows] for t, u in value.items()}
        value[s] = v
        grown.append(s)

    def outcome(x: np.ndarray | int = 0, y: np.ndarray | int = 0) -> np.ndarray:
        first = ((value[0] + value[2]) % 10 * 10 + (value[1] + value[3]) % 10) * 100
        return np.asarray(flat_table[first + value.get(4, x) * 10 + value.get(5, y)])

    def end(done: np.ndarray, o: np.ndarray, k: int) -> None:
        cells.append(o[done] * n + group[done])
        weights.append(weight[done] * (cards ** (6 - k) if infinite else math.perm(cards - k, 6 - k)))

    for s in range(4):
        if s not in value:
            grow(s, np.ones(len(group), dtype=bool))
    o = outcome()
    state = state_of[o]
    end(state == 0, o, 4)  # neither side drew
    grow(4, state != 0)
    o = outcome()
    state = state_of[o]
    end(state != 3, o, 5)  # one side drew: the fifth card was its third
    both = state == 3  # the sixth card, banca's third: every value at once, without growing the rows
    group, weight = group[both], weight[both]
    value = {t: v[both] for t, v in value.items()}
    last = outcome(y=np.arange(10)[:, None])  # (10, rows)
    cells.append((last * n + group).T.ravel())
    weights.append(choices().ravel())
    return _exact_sums(np.concatenate(cells), np.concatenate(weights), OUTCOMES * n).reshape(OUTCOMES, n)


def _outcome_table(drawing: Drawing) -> np.ndarray:
    """(10, 10, 10, 10) outcome by the player's two-card total, the banker's, the fifth and the sixth card."""
    pt, bt, x, y = np.indices((10,) * 4)
    zero = np.zeros_like(pt)
    return play(pt, bt, zero, zero, x, y, drawing)  # a two-card total t is dealt here as the values (t, 0)


# --- every slot read: the pass by draw state ------------------------------------------------------------------
#
# A coup deals four to six cards, so a sequence of six atoms is read only as far as the coup deals it: where
# neither side draws, the fifth and sixth atoms change neither the outcome nor a condition (a third card not dealt
# never passes), and the (n - 4)(n - 5) ways the other cards can lie are one factor. The pass grows prefixes of
# four atoms (one per orbit: ``card_orbits``), ends those whose coup ends there, and grows only the others.


def every_slot(at: Atoms, conditions: Sequence[CardCondition], cards: int, drawing: Drawing,
               infinite: bool) -> tuple[np.ndarray, np.ndarray]:
    """The count when the conditions read all six slots, ``cards`` in the shoe: prefixes grown by draw state,
    over canonical rank labels (see above); the same counts as the plain pass, exactly."""
    table = _outcome_table(drawing)
    state_of = _state_of_outcomes()
    ended: list[tuple[Prefixes, np.ndarray]] = []  # prefixes whose coup ended, and their outcomes

    def rest(k: int) -> int:  # the ways the 6 - k cards not dealt can lie, whatever the k dealt
        return cards ** (6 - k) if infinite else math.perm(cards - k, 6 - k)

    def values(p: Prefixes, s: int) -> np.ndarray:
        return np.asarray(at.value[p.cols[s]]) if s < len(p.cols) else np.zeros(len(p.weight), dtype=np.int64)

    def outcome(p: Prefixes) -> np.ndarray:
        return np.asarray(table[(values(p, 0) + values(p, 2)) % 10, (values(p, 1) + values(p, 3)) % 10,
                                values(p, 4), values(p, 5)])

    def end_or_grow(p: Prefixes) -> Prefixes:
        """End the prefixes whose coup ends at their length (the draw state settled without the next card);
        the others one card longer."""
        o = outcome(p)
        state = state_of[o]
        k = len(p.cols)
        # at four cards a side that stands has stood; at five, punto drew and banca's draw is settled too
        done = (state == 0) if k == 4 else np.ones(len(o), dtype=bool) if k == 6 else (state != 3)
        if done.all():
            p.weight = p.weight * rest(k)
            ended.append((p, o))
            return p.take(np.zeros(0, dtype=np.int64))
        if done.any():
            fin = p.take(np.flatnonzero(done))
            fin.weight = fin.weight * rest(k)
            ended.append((fin, o[done]))
        more = p.take(np.flatnonzero(~done))
        more.grow(last=k == 5)
        return more

    p = Prefixes(at, conditions, infinite)
    for _ in range(4):
        p.grow()
    p.fold(hand_swaps(conditions))
    p = end_or_grow(end_or_grow(p))
    end_or_grow(p)
    return _by_pattern(at, conditions, ended)


def _by_pattern(at: Atoms, conditions: Sequence[CardCondition],
                ended: list[tuple[Prefixes, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Each ended prefix's conditions tried in its draw state, its weight summed into (outcome, pattern)."""
    state_of = _state_of_outcomes()
    cells: list[np.ndarray] = []
    bits: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    for p, o in ended:
        state = state_of[o]
        for si, (pd, bd) in enumerate(STATES):
            rows = np.flatnonzero(state == si)
            if not len(rows):
                continue
            dealt = {s: c if len(rows) == len(c) else c[rows] for s, c in enumerate(p.cols)}
            memo: dict[object, np.ndarray] = {}
            b = np.zeros(len(rows), dtype=np.int64)
            for k, cond in enumerate(conditions):
                b |= holds(k, cond, at, dealt, pd, bd, memo).astype(np.int64) << k
            cells.append(o[rows])
            bits.append(b)
            weights.append(p.weight[rows])
    return _by_outcome_and_pattern(np.concatenate(cells), np.concatenate(bits), np.concatenate(weights))
