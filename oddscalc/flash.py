"""Caribbean Stud with the dealer's cards seen: what a flash of the hole cards is worth, exact.

k = 1 is the game as dealt (the up card); k = 2 adds one hole card, counted by its own sweep over the
dealer's hands (``flash_sweep``: every player hand, every pair of known dealer cards, decided on
the spot); k = 5 is every dealer card seen. With all five known the player's best play on each deal
is plain: raise when the dealer does not qualify (+1 ante against -1), when the player wins
(1 + 2 x pay) or ties (0), fold when the dealer wins (-1 against -3). So that exact EV is read off
the always-raise tally of the ordinary count, deal class by deal class. k = 3 and 4 are not computed
here: the same sweep would read 16 215 and 178 365 known sets per player hand.

The Jackpot is paid on the player's own five cards; where the table pays it on a folded hand the
dealer's cards change nothing about it. Where a fold forfeits it, a player who knows he loses
folds anyway here (the main game's figures); that understates the value of a prize hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .cards import Deck
from .games.caribbean import RaisePays, Settled, pay_list
from .games.raise_table import RaiseTable
from .hands import HAND_CLASSES
from .progress import Progress
from .results import Cell, Column, Section
from .symmetry import suit_classes

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


def two_cards(deck: Deck, qualifier: str, pays: RaisePays, progress: Progress | None = None) -> Seen:
    """k = 2: the up card and one hole card seen, exact over every deal (``flash_sweep``)."""
    from .games.caribbean import _pay_classes, qualifier_strength  # the count's own helpers
    from .games.flash_sweep import tally_two_known

    reps, weights = suit_classes(5, deck)
    classes = _pay_classes(deck, np.asarray(reps))
    p = pay_list(pays)
    den = math.lcm(*(x.denominator for x in p))
    win_units = np.array([int((1 + 2 * p[int(c)]) * den) for c in classes], dtype=np.int64)
    tally = tally_two_known(deck, qualifier_strength(deck, qualifier), np.asarray(reps), win_units, den,
                            progress or Progress(False, ""))
    w = np.asarray(weights, dtype=np.int64)
    t = [int(x) for x in (tally * w[:, None]).sum(axis=0)]  # five sums below 2**63: each at most every deal
    units = -t[FOLD] + t[NOT_QUALIFIED] - 3 * t[LOSE] + sum(
        (int((tally[classes == c, WIN] * w[classes == c]).sum()) * (1 + 2 * p[c]) for c in range(len(p))),
        Fraction(0))
    total = sum(t)
    raised = total - t[FOLD]
    return Seen(2, units / total, raised, total)


# James Grosjean, Beyond Counting, as quoted by Eliot Jacobson ("Edge Sorting Caribbean Stud", APHeat,
# 31 January 2013): the player's EV per ante with k dealer cards known, up card included
PUBLISHED = {1: Fraction(-523, 10000), 2: Fraction(-174, 10000), 3: Fraction(1157, 10000), 4: Fraction(3521, 10000),
             5: Fraction(6427, 10000)}
SOURCE = ("James Grosjean, Beyond Counting, as quoted by Eliot Jacobson, 'Edge Sorting Caribbean Stud' "
          "(apheat.net, 31 January 2013)")


def section(seen: list[Seen], st: Settled, published: bool = False) -> Section:
    """The edge against the dealer cards seen, where the raises move, and (``published``: the US table on a
    full deck) the published figures beside."""
    rows: list[tuple[Cell, ...]] = []
    done = {s.k: s for s in seen}
    for k in range(1, 6):
        s = done.get(k)
        extra: tuple[Cell, ...] = (PUBLISHED[k],) if published else ()
        if s is None:
            if published:
                rows.append((k, None, None, None, None, None, *extra))
            continue
        rows.append((s.k, s.ev, -s.ev, Fraction(s.raised, s.total), s.average_stake, -s.ev / s.average_stake,
                     *extra))
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
         Column("element_of_risk", "Element of risk", "signed_percent", 4),
         *((Column("published", "Published EV", "signed_percent", 2),) if published else ())),
        tuple(rows),
        intro=("Exact over every deal. 1 card seen is the game as dealt; 2 adds one of the dealer's hole cards "
               "(the player decides knowing both); with all 5 seen the player raises exactly when the dealer does "
               "not qualify or the player does not lose. 3 and 4 cards are not computed.",),
        notes=((f"Published EV: {SOURCE}. The exact figures here differ from it: 1 and 5 cards by a rounding "
                "(5.2243% and 64.2816% against 5.23% and 64.27%), 2 cards by more (0.6160% against 1.74%). The "
                "two-card count equals a plain brute force over every deal of 12- and 14-card decks, and a paired "
                "sample of 1,500 full-deck situations gives 0.65% +/- 1.18%; the source does not state its rules "
                "or whether its figures are for perfect play.",) if published else ())
               + ("Where the raises move, by the player's hand: " + "; ".join(moves) + ".",))
