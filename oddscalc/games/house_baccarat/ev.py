"""What one seat's two cards are worth at the house baccarat: drawing and standing, exact, with the seats filled.

Counting argument. The game's count (``count.SeatCounter``) gives your seat's exact combinations of win, push, loss
and sitting out, by your two cards' point values and your action, with the other seats playing a given strategy
(every round an ordered sequence of the 3N + 3 cards it can use). Holding two cards of values u and w, the rounds
that deal them are those of the compositions (u, w) and (w, u); drawing is worth (pay x wins - losses) over those
rounds with the action "draw", standing the same with "stand". A natural (8 or 9) does not decide: it is shown at
once. Only point values matter (no pair is paid), so any two cards of those values are worth the same.

The other seats play the table's strategy (with several seats the optimum is a symmetric equilibrium: the play
that is a best reply when every other seat plays it too), or the one ``--others`` names; you may deviate.

:func:`values_ev` is the in-process function on a seat's counts (the workbench calls it with the counts it keeps);
:func:`ev_sections` is what ``oddscalc ev house-baccarat`` shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from oddscalc.cards import RANK_CHARS, CardError, cards_str, parse_cards, rank_of
from oddscalc.games.ev import Choice, actions_section
from oddscalc.games.house_baccarat.count import HouseBaccaratRules, SeatCounter, SeatCounts
from oddscalc.games.house_baccarat.game import refuse_shown
from oddscalc.games.house_baccarat.others import NATURAL
from oddscalc.games.house_baccarat.settle import plays
from oddscalc.games.shoe import RANK_VALUES
from oddscalc.protocol import OptionError
from oddscalc.results import RunOptions, Section

if TYPE_CHECKING:
    from oddscalc.analysis import Session


@dataclass(frozen=True)
class SeatEV:
    """A seat's two cards (by point value): the rounds that deal them and the EV of drawing and of standing, per
    unit staked."""

    first: int
    second: int
    rounds: int  # the round's combinations that deal you these two values
    draw: Fraction
    stand: Fraction

    @property
    def natural(self) -> bool:
        """An 8 or 9 in two cards: shown at once, no decision."""
        return bool(NATURAL[self.first, self.second])


def values_ev(sc: SeatCounts, pay: Fraction, first: int, second: int) -> SeatEV:
    """The EV of drawing and of standing on two cards of point values ``first`` and ``second``, from your seat's
    counts ``sc`` (the other seats' play is in them) at the table's ``pay``; refused when the shoe cannot deal
    them."""
    cells = {(first, second), (second, first)}
    ev = sc.ev(pay)
    rounds = sum(int(sum(sc.counts[:, u, w, 0])) for u, w in cells)
    if not rounds:
        raise CardError(f"the shoe cannot deal two cards of values {first} and {second}")
    return SeatEV(first, second, rounds, Fraction(sum(ev[u, w, 1] for u, w in cells), rounds),
                  Fraction(sum(ev[u, w, 0] for u, w in cells), rounds))


def seat_ev(session: Session, rules: HouseBaccaratRules, cards: tuple[int, ...]) -> tuple[SeatEV, str]:
    """The EV of drawing and standing on a seat's two ``cards`` (card ids) with the seats of ``rules`` filled and
    the others playing its strategy; and that strategy's name."""
    if len(cards) != 2:
        raise CardError(f"--hand: a seat holds 2 cards, not {len(cards)} ({cards_str(cards)})")
    refuse_shown(rules)
    counter = session.counts(rules)
    assert isinstance(counter, SeatCounter)
    _, played = plays(counter, rules)
    u, w = (RANK_VALUES[RANK_CHARS[rank_of(c)]] for c in cards)
    return values_ev(played.counts, rules.pay, u, w), played.strategy.name


def ev_sections(session: Session, table_ref: str | None, hand: str | None, players: int | None,
                others: str | None) -> list[Section]:
    """The ``ev`` command for the house baccarat (the game's declaration names it): draw or stand on a seat's
    two cards, with the seats filled and what the others play."""
    if hand is None:
        raise OptionError("--hand: give the seat's two cards (e.g. --hand \"5h Kd\")")
    rules = session.resolve(table_ref, RunOptions(players=players, strategy=others))
    assert isinstance(rules, HouseBaccaratRules)
    cards = parse_cards(hand)
    r, play = seat_ev(session, rules, cards)
    total = (r.first + r.second) % 10
    seats = f"{rules.players} seat{'s' if rules.players > 1 else ''} filled"
    who = (f"the {rules.players - 1} other seat{'s' if rules.players > 2 else ''} playing {play}"
           if rules.players > 1 else "no other seat")
    intro = (f"Your seat holds {cards_str(cards)} (values {r.first} and {r.second}, total {total}); {seats}, {who}; "
             f"{rules.decks} deck{'s' if rules.decks > 1 else ''}. Counted over every round that deals you these "
             f"values: {r.rounds:,} combinations.",)
    if r.natural:
        return [actions_section("actions", "A natural: shown at once", [Choice("natural", "Show the natural",
                                                                              r.stand)],
                                "unit staked", intro=intro, decide=False)]
    choices = [Choice("stand", "Stand on two cards", r.stand), Choice("draw", "Draw one card", r.draw)]
    sit_out = ("A round where another seat shows a natural is a push for you (you sit out): it counts as 0 in "
               "both.",) if rules.players > 1 else ()
    return [actions_section("actions", "Draw or stand", choices, "unit staked", intro=intro,
                            notes=(*sit_out, "An exact tie stands."))]
