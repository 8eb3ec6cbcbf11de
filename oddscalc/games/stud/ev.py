"""What a hand is worth at a game declared in a game file: each action's exact EV in one situation.

With a dealer (Three Card Poker and any file of that shape): the player's cards are known, the dealer's are any
set of the cards left (C(49,3) = 18,424 on a full deck), each looked up in the ranking's table: he does not
qualify, or qualifies and the player wins, ties or loses. Folding loses the ante; betting ``b`` antes is worth the
mean of :func:`oddscalc.games.stud.settle.net` over those hands (the ante bonus of the player's class included).
Where the dealer shows cards before the decision (Caribbean Stud as a file) or the game is counted per up card
(:func:`oddscalc.games.stud.game.by_up_cards`), the same with his up cards known: the dealer's hands are the up
cards with every set of hole cards from the cards left (C(46,4) = 163,185 for Caribbean Stud), each read from the
count's own ranking table (:func:`oddscalc.games.stud.dealer.ranking_table`), and each bet is settled by
:func:`oddscalc.games.stud.dealer_settle.net` (a won bet paid by the player's class where the file names it).

Without a dealer (Mississippi Stud, Double Down Stud ...): the player holds some cards at a decision with some
antes in play. Every bet in play is paid at the final hand's odds (:func:`oddscalc.games.stud.streets.multipliers`),
so a set of cards and a stake have one value: the stake times the mean pay over the last card when one card is
left, else the best of folding (the stake lost), checking or betting each size allowed on the mean over the next
card (backward induction, memoised on the set held and the stake). Each action's EV is the mean over the next
card of the value after it. Between equal EVs the engine takes the smaller stake (a fold first); the EVs shown
are the same either way.

:func:`hand_ev` is the in-process function; :func:`ev_sections` is what ``oddscalc ev <game>`` shows.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.cards import CardError, Deck, cards_str, parse_cards, parse_rank
from oddscalc.games.ev import Choice, actions_section, counts_section
from oddscalc.games.stud import dealer_settle
from oddscalc.games.stud.count import LOSE, NOT_QUALIFIED, TIE, WIN
from oddscalc.games.stud.dealer_chunk import ranking_table
from oddscalc.games.stud.settle import net
from oddscalc.games.stud.streets import categories, multipliers
from oddscalc.games.stud.table import CLASSES, Decision, MainPays, StudRules, dealer_up_seen, parse_qualifier
from oddscalc.hands import colex_indices
from oddscalc.hands.three import qualifier_value, three_card_key, three_card_table
from oddscalc.protocol import OptionError
from oddscalc.results import Section
from oddscalc.tables import ratio_text

if TYPE_CHECKING:
    from oddscalc.analysis import Session
    from oddscalc.games.stud.game import StudRun
    from oddscalc.tables import Table


@dataclass(frozen=True)
class HandEV:
    """One situation: the cards held, the antes in play, each action's EV per ante, and (with a dealer) his
    hands by outcome."""

    cards: tuple[int, ...]
    stake: int
    choices: tuple[Choice, ...]
    outcomes: tuple[tuple[str, str, int], ...]  # with a dealer: his hands by outcome; else empty
    hand_class: str  # with a dealer: the player's class; else ""
    up: tuple[int, ...] = ()  # the dealer's up cards, where he shows some


def _cards(deck: Deck, text: str, counts: Sequence[int], what: str) -> tuple[int, ...]:
    """The cards given, each in the deck, their number one the decision takes."""
    cards = parse_cards(text)
    unknown = [c for c in cards if c not in deck.cards]
    if unknown:
        raise CardError(f"--hand: {cards_str(unknown)} is not in the deck ({deck.describe()})")
    if len(cards) not in counts:
        raise CardError(f"--hand: {len(cards)} cards given; {what}")
    return cards


def _choices(decision: Decision, value: dict[int, Fraction], stake: int) -> tuple[Choice, ...]:
    """A fold where allowed, then each bet size by its EV (``value[b]``), the smaller stake first."""
    out = [Choice("fold", f"Fold: the {stake} ante{'s' if stake > 1 else ''} in play lost", Fraction(-stake))] \
        if decision.fold else []
    for b in sorted(decision.bets):
        out.append(Choice("check", "Check: add nothing, see the next card", value[b]) if b == 0 else
                   Choice(f"bet_{b}x", f"Bet {b} ante{'s' if b > 1 else ''} more", value[b]))
    return tuple(out)


def dealer_ev(rules: StudRun, cards: Sequence[int]) -> HandEV:
    """A game with a dealer: the player's cards against every set of the dealer's (see the module)."""
    r, pays = rules.model.rules, rules.model.pays.main
    decision = next(s.decision for s in r.stages if s.decision is not None)
    table = three_card_table(rules.deck)
    free = ~np.isin(table.cards, np.array(cards, dtype=np.int8)).any(axis=1)
    value = table.value[free]
    cls, mine = three_card_key(cards, rules.deck)
    qualifies = value >= qualifier_value(*parse_qualifier(r.dealer_qualifier or "any", r.ranking))
    counts = {NOT_QUALIFIED: int((~qualifies).sum()), WIN: int((qualifies & (value < mine)).sum()),
              TIE: int((qualifies & (value == mine)).sum()), LOSE: int((qualifies & (value > mine)).sum())}
    hands = int(free.sum())
    bonus = (pays.ante_bonus.pay_of(cls) if pays.ante_bonus is not None else None) or Fraction(0)
    evs = {b: sum((n * net(pays, o, b, bonus) for o, n in counts.items()), Fraction(0)) / hands
           for b in decision.bets}
    outcomes = (("dealer_not_qualified", "Dealer does not qualify", counts[NOT_QUALIFIED]),
                ("player_wins", "Player wins", counts[WIN]), ("push", "Push (equal hands)", counts[TIE]),
                ("dealer_wins", "Dealer wins", counts[LOSE]))
    return HandEV(tuple(cards), 1, _choices(decision, evs, 1), outcomes, cls)


def _colex(rows: np.ndarray, n: int) -> np.ndarray:
    """Each row's colex rank among the sets of its size of ``n`` positions (any size: a dealer may hold six)."""
    k = rows.shape[1]
    binom = np.array([[math.comb(i, j) for j in range(k + 1)] for i in range(n)], dtype=np.int64)
    return np.asarray(binom[rows, np.arange(1, k + 1)].sum(axis=1), dtype=np.int64)


def up_ev(rules: StudRun, cards: Sequence[int], up: Sequence[int]) -> HandEV:
    """A game with a dealer counted per set of his up cards: the player's cards against the ``up`` cards and every
    set of hole cards from the cards left (see the module)."""
    r, pays = rules.model.rules, rules.model.pays.main
    decision = next(s.decision for s in r.stages if s.decision is not None)
    deck = rules.deck
    qualifier = parse_qualifier(r.dealer_qualifier or "any", r.ranking)
    # a ranking of the best four tables hands by their size: the player's five and the dealer's six apart
    table = ranking_table(deck, r.ranking, qualifier, r.dealer_cards)
    own = ranking_table(deck, r.ranking, qualifier, len(cards)) if r.ranking == "four-card" else table
    position = {c: i for i, c in enumerate(deck.cards)}
    mine = _colex(np.array([sorted(position[c] for c in cards)], dtype=np.int64), deck.size)[0]
    strength, cls = int(own.strength[mine]), int(own.hand_class[mine])
    shown = [position[c] for c in up]
    rest = [i for i in range(deck.size) if i not in {position[c] for c in (*cards, *up)}]
    holes = np.array(list(itertools.combinations(rest, r.dealer_cards - len(up))), dtype=np.int64)
    hands = np.sort(np.concatenate([np.tile(np.array(shown, dtype=np.int64), (len(holes), 1)), holes], axis=1), axis=1)
    his = table.strength[_colex(hands, deck.size)].astype(np.int64)
    qualifies = his >= table.qualifies_from
    counts = {NOT_QUALIFIED: int((~qualifies).sum()), WIN: int((qualifies & (his < strength)).sum()),
              TIE: int((qualifies & (his == strength)).sum()), LOSE: int((qualifies & (his > strength)).sum())}
    per = dealer_settle.Pays.of(pays, r.ranking)
    evs = {b: sum((n * dealer_settle.net(pays, o, b, per.bet[cls], per.bonus[cls]) for o, n in counts.items()),
                  Fraction(0)) / len(holes) for b in decision.bets}
    outcomes = (("dealer_not_qualified", "Dealer does not qualify", counts[NOT_QUALIFIED]),
                ("player_wins", "Player wins", counts[WIN]), ("push", "Push (equal hands)", counts[TIE]),
                ("dealer_wins", "Dealer wins", counts[LOSE]))
    return HandEV(tuple(cards), 1, _choices(decision, evs, 1), outcomes, CLASSES[r.ranking][cls], tuple(up))


def stakes_at(r: StudRules, held: int) -> list[int]:
    """The antes that can be in play at the decision taken holding ``held`` cards: the ante and one bet from each
    decision before it (a check adds nothing)."""
    stakes, count = {1}, 0
    for stage in r.stages:
        count += stage.dealt()
        if count >= held:
            break
        if stage.decision is not None:
            stakes = {s + b for s in stakes for b in stage.decision.bets}  # a fold ends the hand: not here
    return sorted(stakes)


def _decisions(r: StudRules) -> dict[int, Decision]:
    """Each decision by the cards the player holds when taking it."""
    out, held = {}, 0
    for stage in r.stages:
        held += stage.dealt()
        if stage.decision is not None:
            out[held] = stage.decision
    return out


class _Streets:
    """The values of a game without a dealer on one deck and pay table, memoised (see the module)."""

    def __init__(self, deck: Deck, decisions: dict[int, Decision], pays: MainPays) -> None:
        hand = pays.hand.pays() if pays.hand is not None else {}
        net_of = multipliers(hand, parse_rank(pays.pair_minimum) if pays.pair_minimum else None,
                             parse_rank(pays.push_pair_minimum) if pays.push_pair_minimum else None)
        self.pay = np.array(net_of, dtype=object)[categories(deck)]  # each five-card hand's pay, by colex row
        self.position = {c: i for i, c in enumerate(deck.cards)}
        self.size = deck.size
        self.decisions = decisions

    @functools.cache  # noqa: B019 - one instance per command: the memo is the point
    def mean_pay(self, held: frozenset[int]) -> Fraction:
        """The mean pay per ante over the last card, holding four."""
        pos = sorted(self.position[c] for c in held)
        rest = [p for p in range(self.size) if p not in pos]
        five = np.sort(np.column_stack([np.tile(pos, (len(rest), 1)), rest]), axis=1)
        return Fraction(sum(self.pay[colex_indices(five)]), len(rest))

    def after(self, held: frozenset[int], stake: int) -> Fraction:
        """The mean over the next card of the value holding one more with ``stake`` in play."""
        if len(held) == 4:
            return stake * self.mean_pay(held)
        rest = [c for c in self.position if c not in held]
        return sum((self.value(held | {c}, stake) for c in rest), Fraction(0)) / len(rest)

    @functools.cache  # noqa: B019 - as above
    def value(self, held: frozenset[int], stake: int) -> Fraction:
        """The value of holding ``held`` with ``stake`` in play, played optimally from here."""
        decision = self.decisions.get(len(held))
        if decision is None:  # a card with no decision: it comes
            return self.after(held, stake)
        options = [Fraction(-stake)] if decision.fold else []
        return max(options + [self.after(held, stake + b) for b in decision.bets])


def streets_ev(rules: StudRun, cards: Sequence[int], stake: int) -> HandEV:
    """A game without a dealer: each action at the decision taken holding ``cards`` with ``stake`` in play."""
    r = rules.model.rules
    decisions = _decisions(r)
    solver = _Streets(rules.deck, decisions, rules.model.pays.main)
    held = frozenset(cards)
    decision = decisions[len(held)]
    evs = {b: solver.after(held, stake + b) for b in decision.bets}
    return HandEV(tuple(cards), stake, _choices(decision, evs, stake), (), "")


def _up_cards(rules: StudRun, cards: Sequence[int], up: str | None) -> tuple[int, ...]:
    """The dealer's up cards given, as many as he shows at the decision, in the deck, none the player's."""
    r, deck = rules.model.rules, rules.deck
    shows = dealer_up_seen(r)
    if not shows:
        if up is not None:
            raise OptionError(f"--up: the dealer shows no card before {r.name}'s decision")
        return ()
    if up is None:
        raise OptionError(f"--up: give the dealer's {shows} up card{'s' if shows > 1 else ''} at {r.name} "
                          "(e.g. --up Qc)")
    shown = parse_cards(up)
    if len(shown) != shows:
        raise CardError(f"--up: {len(shown)} cards given; the dealer shows {shows} at {r.name}")
    if any(c in cards for c in shown):
        raise CardError(f"--up: {cards_str([c for c in shown if c in cards])} is one of the player's cards")
    unknown = [c for c in shown if c not in deck.cards]
    if unknown:
        raise CardError(f"--up: {cards_str(unknown)} is not in the deck ({deck.describe()})")
    return shown


def hand_ev(rules: StudRun, hand: str, stake: int | None, up: str | None = None) -> HandEV:
    """The ``ev`` of a game file: the cards parsed and checked against the deck and the decisions, then
    :func:`up_ev`, :func:`dealer_ev` or :func:`streets_ev`."""
    r = rules.model.rules
    if r.dealer_qualifier is not None:
        from oddscalc.games.stud.game import by_up_cards, has_board

        if has_board(r):  # the dealer counts below know no community cards: never their answer for a board game
            raise OptionError(f"ev: {r.name} deals community cards beside the dealer; what a hand is worth there is "
                              "not counted by this engine version yet (the report's decisions are)")

        if stake is not None:
            raise OptionError("--stake: a game with a dealer decides once, with the ante alone in play")
        cards = _cards(rules.deck, hand, [r.player_cards], f"{r.name} decides on the player's {r.player_cards}")
        shown = _up_cards(rules, cards, up)
        return up_ev(rules, cards, shown) if by_up_cards(rules.model) else dealer_ev(rules, cards)
    decisions = _decisions(r)
    held = sorted(decisions)
    cards = _cards(rules.deck, hand, held, f"{r.name} decides holding {' or '.join(map(str, held))} cards")
    allowed = stakes_at(r, len(cards))
    if stake is None:
        if len(allowed) > 1:
            raise OptionError(f"--stake: give the antes in play holding {len(cards)} cards, the ante included: "
                              f"one of {', '.join(map(str, allowed))}")
        stake = allowed[0]
    if stake not in allowed:
        raise OptionError(f"--stake {stake}: holding {len(cards)} cards the antes in play are one of "
                          f"{', '.join(map(str, allowed))} (the ante included)")
    return streets_ev(rules, cards, stake)


def ev_sections(session: Session, table_ref: str | Table | None, hand: str | None,
                stake: int | str | None = None, up: str | None = None) -> list[Section]:
    """The ``ev`` command for a game file (its declaration names it): the situation, with a dealer his hands by
    outcome, and each action's EV with the best (``stake`` as the command line gives it, or text from a form)."""
    if isinstance(stake, str):
        text = stake.strip()
        if not (text.isascii() and text.isdigit() and 0 < len(text) <= 6 and int(text) > 0):
            raise OptionError(f"stake: a whole number of antes from 1, not {text[:20]!r}")
        stake = int(text)
    from oddscalc.games.stud.game import StudRun

    rules = session.resolve(table_ref)
    assert isinstance(rules, StudRun)
    if hand is None:
        raise OptionError("--hand: give the player's cards at the decision (e.g. --hand \"Qs 6d 4c\")")
    ev = hand_ev(rules, hand, stake, up)
    name = rules.model.rules.name
    sections = []
    intro: tuple[str, ...] = ()
    if ev.outcomes:
        against = f" against the dealer's {cards_str(ev.up)}" if ev.up else ""
        seen = (f"The player holds {cards_str(ev.cards)} ({ev.hand_class.replace('_', ' ')}){against} at {name}; "
                f"counted over every hand of the dealer's from the cards left: {sum(n for _, _, n in ev.outcomes):,}.",)
        sections.append(counts_section("dealer_hands", "The dealer's hands", ev.outcomes, intro=seen))
    else:
        intro = (f"The player holds {cards_str(ev.cards)} at {name} with {ev.stake} ante{'s' if ev.stake > 1 else ''}"
                 " in play; every card still to come counted, each later decision taken at its best EV.",)
    bonus = rules.model.pays.main.ante_bonus
    paid = bonus.pay_of(ev.hand_class) if bonus is not None and ev.hand_class else None
    notes = ("An exact tie goes to the smaller stake (a fold first), as the engine's strategy does.",) + (
        (f"The ante bonus of this hand ({ratio_text(paid)}) is in every bet's EV.",) if paid else ())
    sections.append(actions_section("actions", "Each action's EV", ev.choices, "ante", intro=intro, notes=notes))
    return sections
