"""Side bets on the cards in card counting: a bet settled on the first four cards alone (its rules name the
player's and banker's first two cards and no coup feature, as Lucky Nines does), its exact EV from any remaining
shoe by card class in microseconds, and its settlement on a coup's actual cards.

Counting argument. Such a bet's result is a function of the first four cards of the coup (an ordered
sequence), and through them only of what its conditions tell apart: the atoms of ``card_conditions.atoms`` with
the point value dropped (a card's value reaches the bet only through the coup, which it does not read). Lucky
Nines has five: the nine of each suit and every other card. Every ordered sequence of four atoms is tried once,
when the study starts, against the table's own rules (``side_bets.card_rule_lines`` on a probe: no second copy
of the rules), giving its units won. From a composition n (copies per card class) the sequences of atoms
a_1..a_4 are dealt prod_i (m_{a_i} - #{j < i: a_j = a_i}) ways out of N (N-1) (N-2) (N-3), m the atoms' copies:
the EV is the weighted sum of the units over that (625 products for Lucky Nines, about 0.1 ms; exact int64: every
term is at most N^4 times the largest units x their denominator, checked).

Removal effects of a rank (the counting page's per-rank table) are the copies-weighted mean over its suits of
removing that card: a rank count cannot tell a nine of diamonds from a nine of clubs, and the mean keeps the
effects balanced exactly (removing a uniformly random card leaves every EV as it was). A bet on the cards that
reads a third card or a coup feature is left out of counting, and said (``counting.left_out_sections``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.games.punto_banco.card_conditions import Atoms, atoms, holds
from oddscalc.games.punto_banco.card_count import read_slots
from oddscalc.games.punto_banco.coup_features import OUTCOMES, features
from oddscalc.games.punto_banco.game import PuntoBancoRules
from oddscalc.games.punto_banco.side_bets import SideBet, card_rule_lines, pay_units

SLOTS = 4  # the first four cards: player1, banker1, player2, banker2 in dealing order


@dataclass(frozen=True)
class FirstFourEV:
    """A side bet on the first four cards: per card class its atom, per ordered sequence of four atoms the units
    won (times ``den``), and each atom's copies in the full shoe."""

    wager: str
    title: str
    atom_of_class: np.ndarray  # (card classes,) int64
    grid: np.ndarray  # (A**4, 4) int64: the atoms of each ordered sequence, first card first
    scaled: np.ndarray  # (A**4,) int64: units won x den
    den: int
    atoms: int

    def ev(self, copies: Sequence[int]) -> Fraction:
        """The exact EV per unit from a shoe of ``copies`` per card class (at least four cards)."""
        m = np.bincount(self.atom_of_class, weights=np.asarray(copies, dtype=np.float64),
                        minlength=self.atoms).round().astype(np.int64)
        total = int(m.sum())
        if total < SLOTS:
            raise ValueError("fewer than four cards left")
        ways = np.ones(len(self.grid), dtype=np.int64)
        for i in range(SLOTS):
            earlier = (self.grid[:, :i] == self.grid[:, i:i + 1]).sum(axis=1)
            ways *= np.maximum(m[self.grid[:, i]] - earlier, 0)
        if total ** SLOTS * max(int(np.abs(self.scaled).max(initial=0)), 1) >= 2**63:
            raise ValueError("a shoe too large for the exact int64 sums")
        return Fraction(int(ways @ self.scaled), math.perm(total, SLOTS) * self.den)

    def won(self, first_four: Sequence[int]) -> int:
        """Units won x den on a coup whose first four cards are these card classes (in dealing order)."""
        index = 0
        for c in first_four:
            index = index * self.atoms + int(self.atom_of_class[int(c)])
        return int(self.scaled[index])


def first_four(bet: SideBet) -> bool:
    """Whether a side bet on the cards is settled on the first four cards alone (no coup feature, no third card)."""
    conditions = bet.card_conditions()
    return bool(conditions) and all(not r.when for r in bet.rules) and set(read_slots(conditions)) <= set(
        range(SLOTS))


def first_four_bets(rules: PuntoBancoRules) -> dict[str, FirstFourEV]:
    """Every side bet of the table settled on the first four cards alone, by wager."""
    return {w: _first_four_ev(rules, w, b) for w, b in rules.model.pays.side_bets.items() if first_four(b)}


def _first_four_ev(rules: PuntoBancoRules, wager: str, bet: SideBet) -> FirstFourEV:
    conditions = bet.card_conditions()
    n_classes = len(rules.cards.copies)
    # the signature of each card class, as the count's own atoms see it (one class at a time), its value dropped
    signature = []
    for c in range(n_classes):
        one = atoms(conditions, [int(k == c) for k in range(n_classes)])
        signature.append((int(one.rank[0]), int(one.suit[0]), int(one.colour[0]),
                          tuple(bool(p) for p in one.passes[:, 0])))
    kinds = sorted(set(signature))
    atom_of_class = np.array([kinds.index(s) for s in signature], dtype=np.int64)
    a = len(kinds)
    merged = Atoms(np.ones(a, dtype=np.int64), np.zeros(a, dtype=np.int64),
                          np.array([k[0] for k in kinds]), np.array([k[1] for k in kinds]),
                          np.array([k[2] for k in kinds]),
                          np.array([k[3] for k in kinds], dtype=bool).T.reshape(len(conditions), a))
    grid = np.indices((a,) * SLOTS).reshape(SLOTS, -1).T.astype(np.int64)
    dealt = {s: grid[:, s] for s in range(SLOTS)}
    bits = np.zeros(len(grid), dtype=np.int64)
    for k, cond in enumerate(conditions):
        bits |= holds(k, cond, merged, dealt, False, False).astype(np.int64) << k
    patterns, of_row = np.unique(bits, return_inverse=True)
    units = _pattern_units(bet, patterns)
    den = math.lcm(*(u.denominator for u in units))
    scaled = np.array([int(units[p] * den) for p in of_row.ravel()], dtype=np.int64)
    return FirstFourEV(wager, bet.title, atom_of_class, grid, scaled, den, a)


def _pattern_units(bet: SideBet, patterns: np.ndarray) -> list[Fraction]:
    """The units won on each pattern of the bet's conditions, by the table's own rule lines
    (``side_bets.card_rule_lines``, first match wins): a probe count of 2**j coups on pattern j (at one possible
    outcome: the bet reads none) tells which line takes each pattern; a line's units are its pay's
    (``side_bets.pay_units``; a ratio is the units won, as the report's rows read it)."""
    possible = np.flatnonzero(features().possible.reshape(OUTCOMES, -1).any(axis=1))
    counts = np.zeros((OUTCOMES, len(patterns)), dtype=object)
    counts[int(possible[0])] = [1 << j for j in range(len(patterns))]
    lines, counted = card_rule_lines(bet, counts, patterns)
    units: list[Fraction | None] = [None] * len(patterns)
    for line in lines:
        taken = int(counted[line.mask].sum()) if line.mask.any() else 0
        for j in range(len(patterns)):
            if (taken >> j) & 1:
                units[j] = pay_units(line.pays)
    if any(u is None for u in units):
        raise AssertionError(f"{bet.title}: a pattern of its conditions no line takes")
    return [u for u in units if u is not None]


def rank_effects(f: FirstFourEV, copies: Sequence[int], suits: int) -> tuple[Fraction, tuple[Fraction, ...]]:
    """The bet's EV on the shoe ``copies`` and the removal effect of each rank: the copies-weighted mean over the
    rank's suits of the EV with that card removed, less the EV (card class = rank x ``suits`` + suit)."""
    base = f.ev(copies)
    out = []
    for r in range(len(copies) // suits):
        classes = [r * suits + s for s in range(suits) if copies[r * suits + s]]
        n = sum(copies[c] for c in classes)
        total = Fraction(0)
        for c in classes:
            fewer = list(copies)
            fewer[c] -= 1
            total += copies[c] * (f.ev(fewer) - base)
        out.append(total / n if n else Fraction(0))
    return base, tuple(out)
