"""What one Caribbean Stud hand is worth: folding and raising, exact, against the dealer's up card.

Counting argument. With the player's five cards and the dealer's up card known, the dealer's four hole cards are
any 4-set of the n - 6 cards left: C(46,4) = 163,185 equally likely completions on a full deck. Each completion is
one five-card dealer hand (the up card and the four), read from the deck's hand table (``hands.hand_table``: its
row is the colex rank of the hand's deck positions, and the up card's place among the four only shifts the
binomial column of the cards above it). Against the player's strength s and the qualifier's Q, the completions
split into: below Q (the dealer does not qualify: +1 ante, the raise returned), qualified and below s (the
player wins: the ante 1:1 and the raise of 2 antes at the table's odds for the player's class), equal to s (a
push: 0), above s (the dealer wins: -3). Folding loses the ante: -1. A tie between the two folds (the same EV at
a lower stake), as the engine's optimal strategy does.

The Jackpot is paid on the player's own five cards alone, so its value is known given the hand: the table's prize
for the hand's class (an amount, odds or a share of the meter shown) per stake, or -1. Where a fold forfeits
it (``jackpot_paid_on_fold = false``) folding is worth -1 on the Jackpot too.

:func:`hand_ev` is the in-process function (the workbench calls it on every click; ``benchmarks/bench_ev.py``
times it); :func:`ev_sections` is what ``oddscalc ev caribbean`` shows.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.cards import CardError, Deck, card_str, cards_str, parse_card, parse_cards
from oddscalc.games.caribbean.count import pay_classes, qualifier_strength
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.games.caribbean.settle import pay_list
from oddscalc.games.ev import Choice, actions_section, counts_section
from oddscalc.hands import BINOM, HandClass, hand_table
from oddscalc.protocol import OptionError
from oddscalc.results import Section
from oddscalc.tables import prize_units, ratio_text

if TYPE_CHECKING:
    from oddscalc.analysis import Session


@dataclass(frozen=True)
class HandEV:
    """One hand against one up card: the dealer completions by outcome, and the EV of each action per ante."""

    hand: tuple[int, ...]  # the player's five cards
    up: int  # the dealer's up card
    hand_class: str  # the player's five-card class (the HandClass id)
    pays: Fraction  # what the raise pays on a win with this hand, "to 1"
    not_qualified: int  # completions where the dealer does not qualify
    wins: int  # the dealer qualifies and the player's hand is better
    pushes: int
    losses: int
    jackpot_raise: Fraction | None  # the Jackpot's EV per stake with the hand raised (None: no Jackpot)
    jackpot_fold: Fraction | None  # and folded

    @property
    def completions(self) -> int:
        """Every set of four hole cards from the cards left."""
        return self.not_qualified + self.wins + self.pushes + self.losses

    @property
    def fold(self) -> Fraction:
        """Folding loses the ante."""
        return Fraction(-1)

    @property
    def raised(self) -> Fraction:
        """Raising, per ante: +1 on a dealer who does not qualify, 1 + 2 x pay on a win, 0 on a push, -3 on a
        loss."""
        units = self.not_qualified + self.wins * (1 + 2 * self.pays) - 3 * self.losses
        return Fraction(units, self.completions)

    @property
    def best(self) -> str:
        """``raise`` when it is worth more than folding, else ``fold`` (a tie folds)."""
        return "raise" if self.raised > self.fold else "fold"

    @property
    def margin(self) -> Fraction:
        """How much the best action beats the other by, per ante."""
        return abs(self.raised - self.fold)


@functools.cache
def _four_sets(n: int) -> tuple[np.ndarray, ...]:
    """Every 4-subset of range(n) as four columns (the smallest member first), each contiguous."""
    from oddscalc.hands import colex_combos

    combos = colex_combos(n, 4).astype(np.intp)
    columns = tuple(np.ascontiguousarray(combos[:, i]) for i in range(4))
    for c in columns:
        c.flags.writeable = False
    return columns


def dealer_outcomes(deck: Deck, hand: tuple[int, ...], up: int, qualifier: str) -> tuple[int, int, int, int]:
    """Completions of the dealer's hand that do not qualify, lose to ``hand``, tie it, beat it."""
    ht = hand_table(deck)
    mine = ht.strength_of(hand)
    q = qualifier_strength(deck, qualifier)
    used = np.zeros(len(ht.cards), dtype=bool)
    used[ht.position[list(hand)]] = True
    pu = int(ht.position[up])
    used[pu] = True
    left = np.flatnonzero(~used)  # deck positions of the cards left, ascending
    # The dealer's hand is the up card and hole cards h0 < h1 < h2 < h3; its colex row is the sum of C(p, rank + 1)
    # over its five positions. A hole card below the up card keeps its rank i, one above it moves to i + 1; the up
    # card's rank is the number of hole cards below it, k, and C(pu, k + 1) = C(pu, 1) + the sum over the hole
    # cards below it of C(pu, i + 2) - C(pu, i + 1). So each hole card adds a term of its own, by its rank among the
    # four: a 46 x 4 table, and the rows are four gathers from it (no per-row sort or search).
    ranks = np.arange(4)
    below = (left < pu)[:, None]
    term = np.where(below, BINOM[left[:, None], ranks + 1] + (BINOM[pu, ranks + 2] - BINOM[pu, ranks + 1]),
                    BINOM[left[:, None], ranks + 2])
    c0, c1, c2, c3 = _four_sets(len(left))
    rows = term[:, 0][c0] + term[:, 1][c1]
    rows += term[:, 2][c2]
    rows += term[:, 3][c3]
    rows += BINOM[pu, 1]
    dealer = ht.strength[rows]
    qualified = dealer[dealer >= q]
    wins = int(np.count_nonzero(qualified < mine))
    pushes = int(np.count_nonzero(qualified == mine))
    return len(dealer) - len(qualified), wins, pushes, len(qualified) - wins - pushes


def check_cards(deck: Deck, hand: tuple[int, ...], up: int) -> None:
    """Refuse a hand that is not five cards of the deck, or an up card among them or outside it."""
    if len(hand) != 5:
        raise CardError(f"--hand: a Caribbean Stud hand is 5 cards, not {len(hand)} ({cards_str(hand)})")
    if up in hand:
        raise CardError(f"--up {card_str(up)}: the up card is one of the player's cards")
    outside = [c for c in (*hand, up) if c not in deck.cards]
    if outside:
        raise CardError(f"{card_str(outside[0])} is not in the deck ({deck.describe()})")


def hand_ev(rules: CaribbeanRules, hand: tuple[int, ...], up: int) -> HandEV:
    """The exact EV of folding and raising ``hand`` (five card ids) against the dealer's ``up`` card, per ante,
    over every completion of the dealer's hand, with the table's pays and qualifier (and its Jackpot)."""
    check_cards(rules.deck, hand, up)
    nq, win, push, lose = dealer_outcomes(rules.deck, hand, up, rules.qualifier)
    pay_class = int(pay_classes(rules.deck, np.array([hand], dtype=np.int8))[0])
    pays = pay_list(rules.model.pays.main)[pay_class]
    cls = hand_table(rules.deck).class_of(hand)
    jp_raise = jp_fold = None
    jackpot = rules.model.pays.jackpot
    if jackpot is not None:
        prize = jackpot.prizes().get(cls.value)
        jp_raise = Fraction(-1) if prize is None else prize_units(
            prize, jackpot.stake, jackpot.meter.shown if jackpot.meter else None)[1]
        jp_fold = jp_raise if rules.jackpot_paid_on_fold else Fraction(-1)
    return HandEV(tuple(hand), up, cls.value, pays, nq, win, push, lose, jp_raise, jp_fold)


def ev_sections(session: Session, table_ref: str | None, hand: str | None, up: str | None) -> list[Section]:
    """The ``ev`` command for Caribbean Stud (the game's declaration names it): the hand, the dealer's
    completions by outcome, and each action's EV with the best."""
    rules = session.resolve(table_ref)
    assert isinstance(rules, CaribbeanRules)
    if hand is None or up is None:
        raise OptionError("--hand and --up: give the player's five cards and the dealer's up card (e.g. --hand "
                          "\"As Kd Jh 8c 3s\" --up Qc)")
    r = hand_ev(rules, parse_cards(hand), parse_card(up))
    label = HandClass(r.hand_class).label.lower()
    intro = (f"The player holds {cards_str(r.hand)} ({label}); the dealer shows {card_str(r.up)} and qualifies with "
             f"{rules.qualifier}. Counted over every set of the dealer's four hole cards: {r.completions:,}.",)
    outcomes = counts_section(
        "dealer_completions", "The dealer's completions",
        (("dealer_not_qualified", "Dealer does not qualify (ante 1:1, raise returned)", r.not_qualified),
         ("player_wins", f"Player wins (ante 1:1, raise at {ratio_text(r.pays)})", r.wins),
         ("push", "Push", r.pushes), ("dealer_wins", "Dealer wins", r.losses)), intro=intro)
    choices = [Choice("fold", "Fold: the ante is lost", r.fold),
               Choice("raise", "Raise 2 antes and play against the dealer", r.raised)]
    sections = [outcomes, actions_section(
        "actions", "Fold or raise", choices, "ante",
        notes=("An exact tie between raising and folding folds (the same EV at a lower stake).",))]
    if r.jackpot_raise is not None and r.jackpot_fold is not None:
        paid = rules.jackpot_paid_on_fold
        sections.append(actions_section(
            "jackpot", "The Jackpot on this hand", [Choice("fold", "Jackpot, the hand folded", r.jackpot_fold),
                                                   Choice("raise", "Jackpot, the hand raised", r.jackpot_raise)],
            "stake", decide=False,
            intro=("Paid on the player's own five cards: its value is known given the hand. A folded hand "
                   + ("keeps" if paid else "forfeits") + " its prize (rule jackpot_paid_on_fold).",)))
    return sections
