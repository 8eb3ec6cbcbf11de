"""Caribbean Stud with the dealer's cards seen: what a flash of the hole cards is worth, exact.

k = 1 is the game as dealt (the up card); k = 5 is every dealer card seen. With all five known the
player's best play on each deal is plain: raise when the dealer does not qualify (+1 ante against
-1), when the player wins (1 + 2 x pay) or ties (0), fold when the dealer wins (-1 against -3). So
the exact EV over every deal is read off the always-raise tally of the ordinary count, deal class by
deal class: no new enumeration. k = 2 to 4 need the dealer's completions counted per known set of
cards and are not computed here.

The Jackpot is paid on the player's own five cards; where the table pays it on a folded hand the
dealer's cards change nothing about it. Where a fold forfeits it, a player who knows he loses
folds anyway here (the main game's figures); that understates the value of a prize hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .games.caribbean import RaisePays, Settled, pay_list
from .games.raise_table import RaiseTable
from .hands import HAND_CLASSES
from .results import Cell, Column, Section

FOLD, NOT_QUALIFIED, WIN, PUSH, LOSE = range(5)
CLASS_LABELS = [c.label for c in HAND_CLASSES[:9]] + ["Ace-king", "Other high card"]


@dataclass(frozen=True)
class Seen:
    """The main game's exact figures with k of the dealer's cards seen."""

    k: int
    ev: Fraction  # per ante
    raised: int  # deals raised
    total: int

    @property
    def average_stake(self) -> Fraction:
        """1 ante, plus 2 on every raised deal."""
        return 1 + Fraction(2 * self.raised, self.total)


def _units(tally: np.ndarray, pays: list[Fraction]) -> Fraction:
    t = [[int(x) for x in row] for row in tally.tolist()]
    return sum((-r[FOLD] + r[NOT_QUALIFIED] + r[WIN] * (1 + 2 * pays[k]) - 3 * r[LOSE] for k, r in enumerate(t)),
               Fraction(0))


def one_card(rt: RaiseTable, st: Settled, pays: RaisePays) -> Seen:
    """k = 1: the ordinary game, optimal play."""
    t = st.tallies["optimal"]
    raised = int(t[:, 1:].sum())
    return Seen(1, _units(t, pay_list(pays)) / rt.total, raised, rt.total)


def all_cards(rt: RaiseTable, st: Settled, pays: RaisePays) -> Seen:
    """k = 5: every dealer card seen; raise on every deal the player does not lose."""
    t = np.array(st.tallies["always-raise"], dtype=np.int64)
    p = pay_list(pays)
    units = sum((int(r[NOT_QUALIFIED]) + int(r[WIN]) * (1 + 2 * p[k]) - int(r[LOSE]) for k, r in enumerate(t)),
                Fraction(0))
    raised = int(t[:, NOT_QUALIFIED:LOSE].sum())
    return Seen(5, units / rt.total, raised, rt.total)


def section(seen: list[Seen], st: Settled) -> Section:
    """The edge against the dealer cards seen, and where the raises move."""
    rows: list[tuple[Cell, ...]] = []
    for s in seen:
        rows.append((s.k, s.ev, -s.ev, Fraction(s.raised, s.total), s.average_stake, -s.ev / s.average_stake))
    opt, every = st.tallies["optimal"], st.tallies["always-raise"]
    moves = []
    for k, label in enumerate(CLASS_LABELS):
        n = int(every[k].sum())
        if not n:
            continue
        before = Fraction(int(opt[k, 1:].sum()), n)
        after = Fraction(int(every[k, NOT_QUALIFIED:LOSE].sum()), n)
        moves.append(f"{label}: raised {float(before):.1%} of deals with the up card seen, {float(after):.1%} with "
                     "all five")
    return Section(
        "dealer_cards_seen", "Caribbean Stud: the dealer's cards seen",
        (Column("seen", "Dealer cards seen", "int"), Column("ev", "EV per ante", "signed_percent", 4),
         Column("house_edge", "House edge", "signed_percent", 4), Column("raised", "Deals raised", "percent", 2),
         Column("average_stake", "Average stake (antes)", "decimal", 4),
         Column("element_of_risk", "Element of risk", "signed_percent", 4)),
        tuple(rows),
        intro=("Exact over every deal. 1 card seen is the game as dealt; with all 5 seen the player raises exactly "
               "when the dealer does not qualify or the player does not lose. 2 to 4 cards are not computed yet.",),
        notes=("Where the raises move, by the player's hand: " + "; ".join(moves) + ".",))
