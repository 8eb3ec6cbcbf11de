"""Caribbean Stud with the dealer's cards seen: what a flash of the hole cards is worth, exact.

k = 1 is the game as dealt (the up card); k = 2 adds one hole card, counted by its own sweep over the
dealer's hands (``flash_sweep``: every player hand, every pair of known dealer cards, decided on
the spot); k = 3 and 4 are counted from the known set instead (``flash_known``: one set per suit
class, every player hand from the other cards, the completions by inclusion-exclusion); k = 5 is
every dealer card seen. With all five known the player's best play on each deal is plain: raise
when the dealer does not qualify (+1 ante against -1), when the player wins (1 + 2 x pay) or ties
(0), fold when the dealer wins (-1 against -3). So that exact EV is read off the always-raise
tally of the ordinary count, deal class by deal class.

The Jackpot is paid on the player's own five cards; where the table pays it on a folded hand the
dealer's cards change nothing about it. Where a fold forfeits it, a player who knows he loses
folds anyway here (the main game's figures); that understates the value of a prize hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.cards import Deck
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.games.caribbean.raise_table import RaiseTable
from oddscalc.games.caribbean.settle import Settled, pay_list, settle_counts
from oddscalc.games.caribbean.table import RaisePays, parse_qualifier
from oddscalc.hands import HAND_CLASSES
from oddscalc.progress import Progress
from oddscalc.protocol import OptionError
from oddscalc.results import Cell, Column, Lines, Section
from oddscalc.symmetry import suit_classes

if TYPE_CHECKING:
    from oddscalc.analysis import Session

FOLD, NOT_QUALIFIED, WIN, PUSH, LOSE = range(5)
CLASS_LABELS = [c.label for c in HAND_CLASSES[:9]] + ["Ace-king", "Other high card"]


@dataclass(frozen=True)
class Seen:
    """The main game's exact figures with k of the dealer's cards seen, from the deals by the player's pay
    class and outcome."""

    k: int
    ev: Fraction  # per ante
    tally: tuple[tuple[int, ...], ...]  # [pay class][fold, not qualified, win, push, lose]

    @property
    def total(self) -> int:
        """Every deal (see ``deals``)."""
        return sum(map(sum, self.tally))

    @property
    def raised(self) -> int:
        """Deals raised."""
        return self.total - sum(r[FOLD] for r in self.tally)

    @property
    def average_stake(self) -> Fraction:
        """1 ante, plus 2 on every raised deal."""
        return 1 + Fraction(2 * self.raised, self.total)


def _seen(k: int, tally: np.ndarray | list[list[int]], pays: RaisePays) -> Seen:
    p = pay_list(pays)
    t = tuple(tuple(int(x) for x in row) for row in (tally.tolist() if isinstance(tally, np.ndarray) else tally))
    units = sum((-r[FOLD] + r[NOT_QUALIFIED] + r[WIN] * (1 + 2 * p[c]) - 3 * r[LOSE] for c, r in enumerate(t)),
                Fraction(0))
    return Seen(k, units / sum(map(sum, t)), t)


def one_card(rt: RaiseTable, st: Settled, pays: RaisePays) -> Seen:
    """k = 1: the ordinary game, optimal play."""
    return _seen(1, st.tallies["optimal"], pays)


def all_cards(rt: RaiseTable, st: Settled, pays: RaisePays) -> Seen:
    """k = 5: every dealer card seen; raise on every deal the player does not lose."""
    t = np.array(st.tallies["always-raise"], dtype=object)
    # the ordinary count takes each of the five cards in turn as the up card; with all five seen that
    # choice changes nothing, so each set of five is counted five times over
    if any(int(x) % 5 for x in t.ravel()):
        raise AssertionError("the always-raise tally does not count each dealer hand five times")
    t //= 5
    t[:, FOLD] += t[:, LOSE]  # knowing he loses, the player folds
    t[:, LOSE] = 0
    return _seen(5, t, pays)


def _win_units(p: list[Fraction], deck: Deck) -> tuple[np.ndarray, int]:
    """What a raised win pays (ante and raise) per pay class, in units of 1/den, and den; refused where the
    kernels' int64 comparison of raising with folding could overflow."""
    den = math.lcm(*(x.denominator for x in p))
    units = [int((1 + 2 * x) * den) for x in p]
    if (max(units) + 3 * den) * math.comb(deck.size - 7, 3) >= 2**62:
        raise OptionError("these pays (their sizes and denominators) are too large for the exact int64 kernels of "
                          "the dealer-cards-seen count")
    return np.array(units, dtype=np.int64), den


def two_cards(deck: Deck, qualifier: str, pays: RaisePays, progress: Progress | None = None) -> Seen:
    """k = 2: the up card and one hole card seen, exact over every deal (``flash_sweep``)."""
    from oddscalc.games.caribbean.count import pay_classes, qualifier_strength  # the count's own helpers
    from oddscalc.protection.flash_sweep import tally_two_known

    reps, weights = suit_classes(5, deck)
    classes = pay_classes(deck, np.asarray(reps))
    per_class, den = _win_units(pay_list(pays), deck)
    tally = tally_two_known(deck, qualifier_strength(deck, qualifier), np.asarray(reps), per_class[classes], den,
                            progress or Progress(False, ""))
    w = [int(x) for x in weights]
    t = [[0] * 5 for _ in CLASS_LABELS]
    for row, c, wi in zip(tally.tolist(), classes.tolist(), w):
        for j in range(5):
            t[c][j] += row[j] * wi
    return _seen(2, t, pays)


def known_cards(deck: Deck, qualifier: str, pays: RaisePays, k: int, progress: Progress | None = None) -> Seen:
    """k = 3 or 4 dealer cards seen, exact over every deal (``flash_known``)."""
    from oddscalc.games.caribbean.count import qualifier_strength
    from oddscalc.protection.flash_known import every_pay_class, tally_known

    per_class, den = _win_units(pay_list(pays), deck)
    out, weights = tally_known(deck, k, qualifier_strength(deck, qualifier), every_pay_class(deck), per_class, den,
                               progress or Progress(False, ""))
    w = [int(x) for x in weights]
    return _seen(k, [[sum(int(x) * wi for x, wi in zip(out[:, c, j].tolist(), w)) for j in range(5)]
                     for c in range(out.shape[1])], pays)


# James Grosjean, Beyond Counting, as quoted by Eliot Jacobson ("Edge Sorting Caribbean Stud", APHeat,
# 31 January 2013): the player's EV per ante with k dealer cards known, up card included
PUBLISHED = {1: Fraction(-523, 10000), 2: Fraction(-174, 10000), 3: Fraction(1157, 10000), 4: Fraction(3521, 10000),
             5: Fraction(6427, 10000)}
SOURCE = ("James Grosjean, Beyond Counting, as quoted by Eliot Jacobson, 'Edge Sorting Caribbean Stud' "
          "(apheat.net, 31 January 2013)")


# the game those figures are of: the US pay table (100, 50, 20, 7, 5, 4, 3, 2, 1, and 1 for ace-king) against a
# dealer who qualifies with ace-king, on one full deck
PUBLISHED_PAYS = tuple(Fraction(p) for p in (100, 50, 20, 7, 5, 4, 3, 2, 1, 1, 1, 0))
PUBLISHED_QUALIFIER = "ace-king"


def published_applies(rules: CaribbeanRules) -> bool:
    """Whether the published figures are of this game: the pays and qualifier they assume, on a full deck (a fact
    of the table's data, whatever its id)."""
    return (rules.deck.is_full and parse_qualifier(rules.qualifier) == parse_qualifier(PUBLISHED_QUALIFIER)
            and tuple(pay_list(rules.model.pays.main)) == PUBLISHED_PAYS)


def _rows(seen: list[Seen], published: bool) -> tuple[tuple[Cell, ...], ...]:
    done = {s.k: s for s in seen}
    rows: list[tuple[Cell, ...]] = []
    for k in range(1, 6):
        s = done.get(k)
        extra: tuple[Cell, ...] = (PUBLISHED[k],) if published else ()
        if s is not None:
            rows.append((s.k, s.total, s.ev, s.ev, -s.ev, Fraction(s.raised, s.total), s.average_stake,
                         -s.ev / s.average_stake, *extra))
        elif published:
            rows.append((k, None, None, None, None, None, None, None, *extra))
    return tuple(rows)


def sections(seen: list[Seen], published: bool = False) -> list[Section]:
    """The edge against the dealer cards seen (``published``: the US table on a full deck, with the published
    figures beside), and where the raises move."""
    notes: list[str] = []
    ks = sorted(seen, key=lambda s: s.k)
    if published:
        close = [str(s.k) for s in ks if abs(s.ev - PUBLISHED[s.k]) <= Fraction(5, 10000)]
        apart = [f"{s.k} ({float(s.ev):+.4%} against {float(PUBLISHED[s.k]):+.2%})" for s in ks
                 if abs(s.ev - PUBLISHED[s.k]) > Fraction(5, 10000)]
        notes.append(f"Published EV: {SOURCE}. Within 0.05% of it: {', '.join(close) or 'none'} card(s) seen. "
                     + (f"Further off: {'; '.join(apart)}. Every count here equals a plain brute force over every "
                        "deal of reduced decks, and the two-card count a paired sample of 1,500 full-deck situations "
                        "(0.65% +/- 1.18%); the source states neither its rules nor whether its figures are for "
                        "perfect play, so the difference is stated, not tuned away." if apart else ""))
    edge = Section(
        "dealer_cards_seen", "Caribbean Stud: the dealer's cards seen",
        (Column("seen", "Dealer cards seen", "int"), Column("deals", "Deals", "int"),
         Column("ev_exact", "EV per ante (exact)", "fraction"), Column("ev", "EV per ante", "signed_percent", 4),
         Column("house_edge", "House edge", "signed_percent", 4), Column("raised", "Deals raised", "percent", 2),
         Column("average_stake", "Average stake (antes)", "decimal", 4),
         Column("element_of_risk", "Element of risk", "signed_percent", 4),
         *((Column("published", "Published EV", "signed_percent", 2),) if published else ())),
        _rows(seen, published),
        intro=("Exact over every deal. 1 card seen is the game as dealt; 2 to 4 add hole cards seen (the player "
               "decides knowing all of them); with all 5 seen the player raises exactly when the dealer does not "
               "qualify or the player does not lose. A tie between raising and folding folds.",
               "Deals count the player's hand, the dealer's seen cards and the unseen ones, each as a set: "
               "C(n,5) x C(n-5,k) x C(n-5-k,5-k) for k cards seen (with 1 seen, the up card and the four hole "
               "cards)."),
        notes=tuple(notes))
    rows: list[tuple[Cell, ...]] = []
    for c, label in enumerate(CLASS_LABELS):
        if any(sum(s.tally[c]) for s in ks):
            rows.append((label, *(Fraction(sum(s.tally[c]) - s.tally[c][FOLD], sum(s.tally[c])) if sum(s.tally[c])
                                  else None for s in ks)))
    moves = Section(
        "raises_by_hand", "Where the raises move: deals raised, by the player's hand and the cards seen",
        (Column("hand", "Player's hand"), *(Column(f"raised_{s.k}", f"{s.k} seen", "percent", 1) for s in ks)),
        tuple(rows),
        intro=("The information changes the play: with more dealer cards seen the player raises hands he would "
               "fold (ace-king and below) and folds made hands that are beaten.",))
    return [edge, moves]


def chart(seen: list[Seen], published: bool = False) -> Lines:
    """The player's EV per ante against the dealer cards seen, with the published figures beside."""
    ks = sorted(seen, key=lambda s: s.k)
    series: list[tuple[str, tuple[Fraction, ...]]] = [("exact EV", tuple(s.ev for s in ks))]
    if published:
        series.append(("published", tuple(PUBLISHED[s.k] for s in ks)))
    return Lines("dealer_cards_seen", "Caribbean Stud: EV per ante against the dealer cards seen",
                 tuple(s.k for s in ks), tuple(series), "dealer cards seen", "player's EV per ante")


def flash_sections(session: Session, table_ref: str | None, dealer_cards: tuple[int, ...],
                   show_progress: bool) -> tuple[list[Section], Lines]:
    """The ``flash`` command (the game's declaration names this): the edge against each number of
    ``dealer_cards`` seen, as sections and as a chart, with the published figures beside where they apply."""
    rules = session.resolve(table_ref)
    assert isinstance(rules, CaribbeanRules)
    rt = session.counts(rules)
    pays = rules.model.pays.main
    st = settle_counts(rt, pays, closest=False)
    seen = []
    for k in sorted(set(dealer_cards)):
        if k == 1:
            seen.append(one_card(rt, st, pays))
        elif k == 5:
            seen.append(all_cards(rt, st, pays))
        else:
            bar = Progress(show_progress, f"caribbean: {k} dealer cards seen")
            seen.append(two_cards(rules.deck, rules.qualifier, pays, bar) if k == 2 else
                        known_cards(rules.deck, rules.qualifier, pays, k, bar))
    published = published_applies(rules)
    return sections(seen, published), chart(seen, published)
