"""What one Let It Ride hand is worth: riding or pulling bet 1 on three cards, bet 2 on four, exact.

Counting argument. Each of the three equal bets is settled on the same final hand: the pay of its class (a pair
from the table's minimum up) or -1. Holding four cards, the final hand is one of the n - 4 cards left (48 on a full
deck), equally likely: bet 2 ridden is worth S4 = the mean of the bet's value over them, pulled 0; every bet still
in play is worth S4 too. Holding three, the two community cards are any pair of the n - 3 left (C(49,2) = 1,176):
bet 1 ridden is worth S3, their mean, pulled 0. The whole hand with bet 1 ridden is worth S3 (bet 1) + S3 (bet 3,
which always plays) + the mean over the first community card of max(S4, 0) (bet 2, played optimally once the
fourth card is seen; a tie rides only where the table's ``ride_on_zero`` says, the same EV either way). The
engine's optimal EV is the mean over every three-card hand of the better of the two (a test holds them equal).

Side bets: the three-card bonus is paid on the player's three cards alone, so its value is known given them; the
five-card bonus on the final hand, its EV the mean over the completions (no decision changes the final hand).

:func:`hand_ev` is the in-process function (the workbench calls it); :func:`ev_sections` is what
``oddscalc ev let-it-ride`` shows.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.cards import CardError, Deck, card_str, cards_str, parse_cards
from oddscalc.exact import frac_str
from oddscalc.games.ev import Choice, actions_section, decimal
from oddscalc.games.let_it_ride.count import LOSS, PAYING, pay_classes, three_card_event
from oddscalc.games.let_it_ride.game import LetItRideRules
from oddscalc.hands import colex_indices, hand_table
from oddscalc.protocol import OptionError
from oddscalc.results import Section
from oddscalc.tables import prize_units

if TYPE_CHECKING:
    from oddscalc.analysis import Session


@dataclass(frozen=True)
class HandEV:
    """One holding of three or four cards: each bet's EV riding, per unit bet, and the whole hand's."""

    cards: tuple[int, ...]
    completions: int  # the community cards still to come: pairs (three held) or single cards (four held)
    bet: Fraction  # the EV of one bet in play on this holding: S3 with three cards, S4 with four
    later: Fraction  # three cards: bet 2's EV, played optimally once the fourth card is seen (0 with four)
    three_card_bonus: Fraction | None  # per unit staked (None: the table has none)
    five_card_bonus: Fraction | None  # per stake

    @property
    def deciding(self) -> str:
        """The bet decided now: bet 1 on three cards, bet 2 on four."""
        return "bet1" if len(self.cards) == 3 else "bet2"

    @property
    def ride(self) -> Fraction:
        """The bet decided now, ridden: its EV (pulled, 0)."""
        return self.bet

    def hand_total(self, ride: bool, bet1_rides: bool = True) -> Fraction:
        """The three bets together, per unit bet, with the bet decided now ridden or pulled (four cards: with bet
        1 ridden or pulled before)."""
        if len(self.cards) == 3:
            return self.bet * (1 + ride) + self.later
        return self.bet * (1 + ride + bet1_rides)


@functools.cache
def pay_classes_cached(deck: Deck, min_rank: int) -> np.ndarray:
    """The pay class of every final hand of the deck (colex rows), computed once per deck and minimum pair."""
    out = pay_classes(deck, min_rank)
    out.flags.writeable = False
    return out


def _mean(classes: np.ndarray, pays: list[Fraction]) -> Fraction:
    """The mean of one bet's value over final hands, from their pay classes, exactly."""
    counts = np.bincount(classes.astype(np.int64), minlength=LOSS + 1)
    units = sum((int(n) * p for n, p in zip(counts[:LOSS].tolist(), pays)), Fraction(-int(counts[LOSS])))
    return units / len(classes)


def check_cards(deck: Deck, cards: tuple[int, ...]) -> None:
    """Refuse a holding that is not three or four cards of the deck."""
    if len(cards) not in (3, 4):
        raise CardError(f"--hand: Let It Ride is decided on 3 cards (bet 1) or 4 (bet 2, with the first community "
                        f"card), not {len(cards)} ({cards_str(cards)})")
    outside = [c for c in cards if c not in deck.cards]
    if outside:
        raise CardError(f"{card_str(outside[0])} is not in the deck ({deck.describe()})")


def hand_ev(rules: LetItRideRules, cards: tuple[int, ...]) -> HandEV:
    """The exact EV of riding the bet decided on ``cards`` (three: bet 1; four: bet 2), per unit bet, over every
    completion, with the table's pays, minimum pair and side bets."""
    deck = rules.deck
    check_cards(deck, cards)
    model = rules.model
    pays = [getattr(model.pays.main, c.value) for c in PAYING]
    classes = pay_classes_cached(deck, rules.min_rank)
    ht = hand_table(deck)
    held = sorted(int(ht.position[c]) for c in cards)
    left = np.setdiff1d(np.arange(deck.size), held)
    k = 5 - len(cards)
    if k == 1:
        rows = colex_indices(np.sort(np.column_stack([np.broadcast_to(held, (len(left), 4)), left]), axis=1))
        later = Fraction(0)
    else:
        firsts, seconds = np.triu_indices(len(left), 1)
        pairs = np.column_stack([left[firsts], left[seconds]])
        rows = colex_indices(np.sort(np.column_stack([np.broadcast_to(held, (len(pairs), 3)), pairs]), axis=1))
        # bet 2 after each first community card: its four-card S4 over the n - 4 cards left
        full = np.zeros((len(left), len(left)), dtype=np.int64)
        full[firsts, seconds] = rows
        full[seconds, firsts] = rows
        later = Fraction(0)
        for i in range(len(left)):
            s4 = _mean(classes[np.delete(full[i], i)], pays)
            later += max(s4, Fraction(0))
        later /= len(left)
    final = classes[rows]
    three = five = None
    bonus3 = model.pays.three_card_bonus
    if bonus3 is not None:
        event = three_card_event(cards[:3], deck)  # the player's own three: the community card comes last
        three = Fraction(-1) if event == "loss" else getattr(bonus3, event)
    bonus5 = model.pays.five_card_bonus
    if bonus5 is not None:
        meter = bonus5.meter.shown if bonus5.meter else None
        by_class = np.bincount(ht.hand_class[rows].astype(np.int64), minlength=10).tolist()
        five = Fraction(0)
        for code, n in enumerate(by_class):
            prize = bonus5.prizes().get(PAYING[code].value) if code < len(PAYING) else None
            five += n * (Fraction(-1) if prize is None else prize_units(prize, bonus5.stake, meter)[1])
        five /= len(rows)
    return HandEV(tuple(cards), len(rows), _mean(final, pays), later, three, five)


def ev_sections(session: Session, table_ref: str | None, hand: str | None) -> list[Section]:
    """The ``ev`` command for Let It Ride (the game's declaration names it): ride or pull the bet decided on the
    cards held, the whole hand's EV either way, and the side bets' value on this hand."""
    rules = session.resolve(table_ref)
    assert isinstance(rules, LetItRideRules)
    if hand is None:
        raise OptionError("--hand: give the player's 3 cards, or 4 with the first community card (e.g. "
                          "--hand \"Th Jh 4c\")")
    r = hand_ev(rules, parse_cards(hand))
    n = len(r.cards)
    bet = "bet 1" if n == 3 else "bet 2"
    seen = "the player's three cards" if n == 3 else "the player's three cards and the first community card"
    coming = ("both community cards: every pair of the cards left" if n == 3 else
              "the second community card: every card left")
    intro = (f"Holding {cards_str(r.cards)} ({seen}); counted over {coming}, {r.completions:,}.",)
    choices = [Choice("pull", f"Pull {bet}", Fraction(0)), Choice("ride", f"Let {bet} ride", r.ride)]
    if rules.ride_on_zero:  # a tie goes to the first listed: this table rides on an EV of exactly 0
        choices.reverse()
    sections = [actions_section(f"{r.deciding}", f"{bet.capitalize()}: pull or let it ride", choices, "unit bet",
                                intro=intro,
                                notes=("A bet pulled is worth 0; a bet ridden is settled on the final hand: its "
                                       "pay, or -1.",))]
    if n == 3:
        whole = [Choice("pull", "Pull bet 1", r.hand_total(False)),
                 Choice("ride", "Let bet 1 ride", r.hand_total(True))]
        if rules.ride_on_zero:
            whole.reverse()
        sections.append(actions_section(
            "hand", "The whole hand: the three bets together", whole, "unit bet",
            intro=("Bet 3 always plays; bet 2 is played the best way once the first community card is seen: it is "
                   f"worth {decimal(r.later)} (exact {frac_str(r.later)}) here.",)))
    else:
        whole = [Choice(f"{one}_{two}", f"Bet 1 {one.replace('_', ' ')}, bet 2 {two.replace('_', ' ')}",
                        r.hand_total(two == "rides", one == "rides"))
                 for one in ("pulled", "rides") for two in ("pulled", "rides")]
        sections.append(actions_section(
            "hand", "The whole hand: the three bets together", whole, "unit bet", decide=False,
            intro=("Bet 3 always plays; bet 1 was decided on the three cards: each way is shown.",)))
    side = [Choice(w, label, v) for w, label, v in
            (("three_card_bonus", "Three-card bonus (per unit staked)", r.three_card_bonus),
             ("five_card_bonus", "Five-card bonus (per stake)", r.five_card_bonus)) if v is not None]
    if side:
        sections.append(actions_section(
            "side_bets", "Side bets on this hand", side, "stake", decide=False,
            intro=("The three-card bonus is paid on the player's three cards, the five-card bonus on the final hand "
                   "(its EV over the completions); no decision on the main bets changes either.",)))
    return sections
