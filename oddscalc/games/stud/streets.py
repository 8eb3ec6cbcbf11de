"""The stud engine for games without a dealer (Mississippi Stud): every bet paid by the final five-card hand, a
decision before each card.

Counting argument. A deal is the player's first ``k0`` cards (a set) and the cards that follow one at a time, in
order: ``C(n, k0) * (n - k0) * ... * (n - 4)`` deals (155,937,600 for Mississippi Stud, k0 = 2). What the player
knows at a decision is the set of cards he holds (every card is his: the order they came in changes nothing that
follows), so a state is a ``k``-card set, taken one per suit class with its size (169, 1,755 and 16,432 classes of
2, 3 and 4 cards on 52). The count (pay-free, stored) is, for each ``k``-class, the class of each ``k + 1``-card set
it grows into (one per card it does not hold), and for each four-card class its completions by final category: the
five-card class, a pair by its rank (the pay table splits pairs: paid, pushed, lost).

Settle: backward induction over what the player holds and what he has already bet. At the last decision the value
of a four-card class with ``S`` antes in play is, summed over its ``n - 4`` completions, ``-S (n - 4)`` for a fold and
``(S + b) * E`` for a bet of ``b`` (``E`` the completions' net multipliers summed: every bet is paid at the final
hand's odds); one card earlier, a bet's value is the sum of the values of the classes it grows into with ``S + b``
in play, and so on back to the first decision. A decision offers the bet sizes its stage allows (``0``: a check, add
nothing) and a fold where the stage allows one; a card dealt with no decision before it is a check forced. Let It
Ride is the same game with a one-unit ante (bet 3, which always plays), ``{0, 1}`` and no fold at each decision
(letting bet 1, then bet 2, ride). Integers throughout (pays scaled to a common denominator); between equal values
the smaller stake (a fold first). A forward pass then counts the deals reaching each state with each amount in play,
and every deal lands in one row: its final event and its total stake, or the fold and the stake lost.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.cards import Deck, rank_name
from oddscalc.hands import HAND_CLASSES, HandClass, colex_indices, hand_table
from oddscalc.results import Cell, Column, Row, Section
from oddscalc.symmetry import suit_class_index, suit_classes
from oddscalc.tables import ratio_text

PAIR = HandClass.PAIR.code
CATEGORIES = 10 + 13  # the ten classes (the pair's column unused), then a pair by its rank
FOLD = -1  # the action code of a fold; a bet of b antes is b (0: a check)


def _positions(deck: Deck, reps: np.ndarray) -> np.ndarray:
    position = np.full(52, -1, dtype=np.int64)
    position[list(deck.cards)] = np.arange(deck.size)
    return np.sort(position[reps.astype(np.int64)], axis=1)


def _grown(deck: Deck, reps: np.ndarray) -> np.ndarray:
    """(m, n - k, k + 1) sorted deck positions of each set plus each card it does not hold."""
    pos = _positions(deck, reps)
    free = np.ones((len(reps), deck.size), dtype=bool)
    free[np.arange(len(reps))[:, None], pos] = False
    other = np.nonzero(free)[1].reshape(len(reps), deck.size - reps.shape[1])
    both = np.concatenate([np.broadcast_to(pos[:, None, :], other.shape + (reps.shape[1],)), other[..., None]], axis=2)
    both.sort(axis=2)
    return both


def categories(deck: Deck) -> np.ndarray:
    """(C(n, 5),) the category of every five-card hand: its class code, a pair 10 + the pair's rank."""
    table = hand_table(deck)
    code = table.hand_class.astype(np.int64)
    pair_rank = (table.level_keys[table.strength.astype(np.int64)] % 13**5) // 13**4  # the tiebreak's first rank
    return np.where(code == PAIR, 10 + pair_rank, code)


def count_streets(deck: Deck, first: int) -> dict[str, np.ndarray]:
    """The pay-free counts of a dealer-less game whose first decision holds ``first`` cards (see the docstring)."""
    out: dict[str, np.ndarray] = {}
    for k in range(first, 5):
        reps, weights = suit_classes(k, deck)
        out[f"reps{k}"], out[f"weights{k}"] = np.asarray(reps), np.asarray(weights, dtype=np.int64)
        grown = colex_indices(_grown(deck, reps))
        if k < 4:
            out[f"child{k}"] = suit_class_index(k + 1, deck)[grown].astype(np.int32)
        else:
            cats = categories(deck)[grown]
            m = len(reps)
            out["final"] = np.bincount((np.arange(m)[:, None] * CATEGORIES + cats).ravel(),
                                       minlength=m * CATEGORIES).reshape(m, CATEGORIES).astype(np.int64)
    return out


@dataclass(frozen=True)
class Streets:
    """The counts as arrays by level (cards held at a decision)."""

    deck: Deck
    first: int
    arrays: dict[str, np.ndarray]

    @property
    def total(self) -> int:
        """Every deal: the first cards as a set, the rest in order."""
        n = self.deck.size
        return math.comb(n, self.first) * math.prod(range(n - 4, n - self.first + 1))


def multipliers(hand: dict[str, Fraction], pair_min: int | None, push_min: int | None) -> list[Fraction]:
    """Net antes per ante bet of each category: its class's pay, 0 for a pushed pair, -1 for a loss."""
    out = []
    for c in range(CATEGORIES):
        if c < 10 and c != PAIR:
            pay = hand.get(HAND_CLASSES[c].value)
            out.append(pay if pay is not None else Fraction(-1))
            continue
        rank = c - 10
        if c == PAIR or (pair_min is not None and rank < pair_min):
            out.append(Fraction(0) if c != PAIR and push_min is not None and rank >= push_min else Fraction(-1))
        else:
            out.append(hand.get("pair", Fraction(-1)))
    return out


@dataclass(frozen=True)
class Solved:
    """The decisions (``FOLD``, else the bet: 0 a check) of every class at every level for every amount in play,
    and the deals by final category and total stake, and folded by stake lost."""

    actions: dict[int, np.ndarray]  # level k -> (m_k, most stake + 1) int
    finished: dict[tuple[int, int], int]  # (category, total stake) -> deals
    folded: dict[int, int]  # stake lost -> deals
    reached: dict[int, np.ndarray]  # level k -> (m_k, most stake + 1) deals reaching the state with that stake


def solve(s: Streets, net: list[Fraction], sizes: dict[int, list[int]], prefer_larger: bool = False,
          folds: Collection[int] | None = None) -> Solved:
    """Backward induction, then the forward count of deals (see the module's docstring).

    ``sizes``: the bet sizes allowed at each decision, keyed by the cards held (0: a check); a level without a
    decision is a check forced. ``folds``: the levels whose decision allows a fold (None: every decision's)."""
    n, a = s.deck.size, s.arrays
    scale = math.lcm(*(x.denominator for x in net))
    whole = np.array([int(x * scale) for x in net], dtype=object)
    most = 1 + sum(max(v) for v in sizes.values())
    levels = list(range(s.first, 5))
    folding = set(sizes) if folds is None else set(folds) & set(sizes)
    value: dict[int, np.ndarray] = {}
    actions: dict[int, np.ndarray] = {}
    gain = a["final"].astype(object) @ whole  # (m4,) net multipliers summed over the completions, scaled
    for k in reversed(levels):
        m = len(a[f"weights{k}"])
        ways = math.prod(range(n - 4, n - k + 1))  # ordered completions from k cards
        options = sorted(sizes.get(k, [0]))
        v = np.zeros((m, most + 1), dtype=object)
        act = np.zeros((m, most + 1), dtype=np.int64)
        for stake in range(1, most + 1 - options[-1]):
            best: np.ndarray | None = None
            if k in folding:
                best, chosen = np.full(m, -stake * ways * scale, dtype=object), np.full(m, FOLD, dtype=np.int64)
            for b in options:
                if k == 4:
                    bet = gain * (stake + b)
                else:
                    bet = value[k + 1][a[f"child{k}"], stake + b].sum(axis=1)
                if best is None:  # no fold: the smallest bet is the first choice
                    best, chosen = bet, np.full(m, b, dtype=np.int64)
                    continue
                better = bet >= best if prefer_larger else bet > best
                best = np.where(better, bet, best)
                chosen = np.where(better, b, chosen)
            assert best is not None
            v[:, stake], act[:, stake] = best, chosen
        value[k], actions[k] = v, act
    reached: dict[int, np.ndarray] = {}
    mass = np.zeros((len(a[f"weights{s.first}"]), most + 1), dtype=np.int64)
    mass[:, 1] = a[f"weights{s.first}"]
    finished: dict[tuple[int, int], int] = {}
    folded: dict[int, int] = {}
    for k in levels:
        reached[k] = mass
        ways = math.prod(range(n - 4, n - k + 1))
        act = actions[k]
        states, stakes = np.nonzero(mass)
        moves = act[states, stakes]
        for stake in np.unique(stakes[moves == FOLD]).tolist():
            pick = (moves == FOLD) & (stakes == stake)
            folded[stake] = folded.get(stake, 0) + int(mass[states[pick], stake].astype(object).sum()) * ways
        go = moves != FOLD
        if k == 4:
            tally = np.zeros((most + 1, CATEGORIES), dtype=np.int64)  # at most C(n,2) x n^3 deals: int64 holds it
            contrib = a["final"][states[go]] * mass[states[go], stakes[go]][:, None]
            np.add.at(tally, stakes[go] + moves[go], contrib)
            for stake, c in zip(*np.nonzero(tally)):
                finished[(int(c), int(stake))] = int(tally[stake, c])
            continue
        nxt = np.zeros((len(a[f"weights{k + 1}"]), most + 1), dtype=np.int64)
        children = a[f"child{k}"][states[go]]  # (g, n - k)
        np.add.at(nxt, (children, (stakes[go] + moves[go])[:, None]), mass[states[go], stakes[go]][:, None])
        mass = nxt
    return Solved(actions, finished, folded, reached)


def event_of(category: int, net: list[Fraction]) -> tuple[str, str]:
    """The row event and label of a final category: its class (a pair by how it is paid), or a push, or a loss."""
    if category < 10:
        cls = HAND_CLASSES[category]
        # a class paid 0:1 (a pay solved through zero) pushes: a row's units are one figure, a loss's -1
        return (cls.value, cls.label) if net[category] > 0 else ("push", "Pushing hand") if net[category] == 0 \
            else ("lose", "Losing hand")
    if net[category] > 0:
        return "pair", "Paying pair"
    return ("push", "Pushing pair") if net[category] == 0 else ("lose", "Losing hand")


def rows(solved: Solved, net: list[Fraction], pays: dict[str, Fraction]) -> list[Row]:
    """Every deal in one row: its event and total stake (in antes), or a fold and the stake lost."""
    grouped: dict[tuple[str, int], tuple[str, Fraction, int]] = {}
    for (c, stake), deals in sorted(solved.finished.items(), key=lambda x: (-float(net[x[0][0]]), x[0][1])):
        event, label = event_of(c, net)
        old = grouped.get((event, stake))
        grouped[(event, stake)] = (label, net[c], deals + (old[2] if old else 0))
    # a paid row's units are its stake times its pay: the pay named as MainPays.pay_items names it, for solve
    out = [Row(f"{event}_stake_{stake}", f"{label}, {stake} antes bet", ratio_text(pays[event]) if event in pays
               else "", unit * stake, deals, Fraction(stake), pay_ref=f"main.hand.{event}" if event in pays else "",
               pay_coef=Fraction(stake) if event in pays else Fraction(0))
           for (event, stake), (label, unit, deals) in grouped.items()]
    out += [Row(f"fold_stake_{stake}", f"Fold, {stake} antes lost", "", Fraction(-stake), deals, Fraction(stake))
            for stake, deals in sorted(solved.folded.items())]
    return out


def share_section(s: Streets, solved: Solved, sizes: dict[int, list[int]],
                  folds: Collection[int] | None = None) -> Section:
    """Per decision (cards held), the share of the deals reaching it that fold (where a fold is offered), check
    (where a check is) or bet each size."""
    n = s.deck.size
    rows_: list[tuple[Cell, ...]] = []
    every = sorted({b for v in sizes.values() for b in v})
    choices = ([FOLD] if folds is None or set(folds) & set(sizes) else []) + every
    for k in sorted(sizes):
        mass = solved.reached[k].astype(object) * math.prod(range(n - 4, n - k + 1))
        act = solved.actions[k]
        total = int(mass.sum())
        cells: list[Cell] = [f"{k} cards held", total]
        for b in choices:
            cells.append(Fraction(int(mass[act == b].sum()), total) if total else None)
        rows_.append(tuple(cells))
    columns = [Column("fold", "Fold", "percent", 2) if b == FOLD else Column("check", "Check (add nothing)",
                                                                             "percent", 2) if b == 0
               else Column(f"bet_{b}x", f"Bet {b}x", "percent", 2) for b in choices]
    return Section("decision_share", "Decisions: share of the deals reaching each",
                   (Column("decision", "Decision"), Column("deals", "Deals reaching it", "int"), *columns),
                   tuple(rows_),
                   notes=("Between equal EVs the smaller stake is taken (a fold first), as in every game here.",))


def _hand_label(c: int) -> str:
    return HAND_CLASSES[c].label if c < 10 else f"Pair of {rank_name(c - 10, True)}"


def by_hand_section(solved: Solved, net: list[Fraction], total: int) -> Section:
    """Per final hand (a pair by its rank): the deals played to the end, the average stake and the net return per
    ante over every deal; then the folds."""
    deals: dict[str, int] = {}
    staked: dict[str, int] = {}
    returns: dict[str, Fraction] = {}
    for (c, stake), n in sorted(solved.finished.items(), key=lambda x: (-float(net[x[0][0]]), x[0][0])):
        label = _hand_label(c)
        deals[label] = deals.get(label, 0) + n
        staked[label] = staked.get(label, 0) + n * stake
        returns[label] = returns.get(label, Fraction(0)) + n * stake * net[c]
    table: list[tuple[Cell, ...]] = [(label, deals[label], Fraction(staked[label], deals[label]),
                                      returns[label] / total) for label in deals]
    folded = sum(solved.folded.values())
    lost = sum(stake * n for stake, n in solved.folded.items())
    table.append(("Folded", folded, Fraction(lost, folded) if folded else None, Fraction(-lost, total)))
    return Section("return_by_hand", "Return by final hand",
                   (Column("hand", "Final hand"), Column("deals", "Deals", "int"),
                    Column("average_stake", "Antes bet (average)", "decimal", 4),
                    Column("return", "Net return per ante", "signed_percent", 4)), tuple(table),
                   notes=("The net returns add up to the main wager's EV per ante: what each final hand wins or "
                          "loses on every bet in play, and the folds, over every deal.",))
