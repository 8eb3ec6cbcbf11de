"""Let It Ride: three equal bets, the first two may be pulled back.

Counting argument. A deal is the player's three cards (a set) and the two community cards
in the order they are shown: C(52,3) * 49 * 48 = 51,979,200 equally likely deals. A deal is
a four-card set q (the player's three and the first community card), which of q's cards was
shown (4 ways, leaving the three-card set t), and the last card (48 ways).

Count (pay-free, stored). Permuting the suits changes no outcome, so every count is kept per
suit class of holdings (16,432 four-card and 1,755 three-card classes on 52 cards, with their
sizes): for a four-card class, how many of its 48 completions end in each final pay class
(royal flush .. the minimum pair, or a loss), ``c4``, found by evaluating those hands; for a
three-card class t, how many of its C(49,2) completions do, ``c3``: half the sum of ``c4`` over
the 49 four-card sets holding t (each hand holding t is reached through two of them); and the
classes of each four-card class's four three-card subsets, ``sub3``.

Decisions. Each bet is paid on the same final hand, so the bets are independent: bet 1 rides
exactly when E[pay | three cards] > 0 and bet 2 exactly when E[pay | four cards] > 0, whatever
was done with the other. With v the net units of one bet by pay class, those expectations are
proportional to S3 = c3 . v and S4 = c4 . v, exact integers (pays scaled to a common
denominator). An EV of exactly zero pulls the bet back (the cheaper of two equal choices)
unless the table sets ``ride_on_zero``. The deals by (final class, bets in play) are then
sums of c4 rows: q with its card j shown has 1 + ride1[q minus j] + ride2[q] bets in play,
times the class size.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from pydantic import field_validator

from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, Deck, cards_str, parse_rank, rank_name, rank_of, suit_of
from oddscalc.exact import decimal_str, percent_str
from oddscalc.files import is_path
from oddscalc.games.let_it_ride import holdings as ride_holdings
from oddscalc.games.let_it_ride.wording import strategy_section
from oddscalc.games.progressive import StakedPrizes, progressive
from oddscalc.games.progressive import section as progressive_section
from oddscalc.hands import HAND_CLASSES, HandClass, colex_combos, colex_indices, hand_table
from oddscalc.keys import DEFAULT_TABLES
from oddscalc.protocol import OptionError, Rules, count_key
from oddscalc.results import Analysis, Bars, Cell, Chart, Column, Decisions, Row, RunOptions, Section, WagerResult
from oddscalc.symmetry import suit_class_index, suit_classes
from oddscalc.tables import (
    HandPays,
    Odds,
    Prize,
    Ratio,
    Strict,
    Table,
    TableModel,
    money_text,
    prize_units,
    ratio_text,
)
from oddscalc.verify import named_sections

if TYPE_CHECKING:
    from oddscalc.games.let_it_ride.card import Card

# --- table file -------------------------------------------------------------------------


class TableRules(Strict):
    """The ``[rules]`` of a Let It Ride table."""

    min_pair: str = "tens"
    ride_on_zero: bool = False

    @field_validator("min_pair")
    @classmethod
    def _rank(cls, v: str) -> str:
        parse_rank(v)
        return v


class BonusPays(Strict):
    """The three-card bonus: pays on the player's own three cards."""

    mini_royal: Ratio
    straight_flush: Ratio
    three_of_a_kind: Ratio
    straight: Ratio
    flush: Ratio
    pair: Ratio


class FiveCardBonus(StakedPrizes):
    """A bonus with its own stake, paid on the final five-card hand: amounts, odds or meter shares
    (see ``tables.Prize``; a progressive has a ``meter`` block)."""

    royal_flush: Prize
    straight_flush: Prize | None = None
    four_of_a_kind: Prize | None = None
    full_house: Prize | None = None
    flush: Prize | None = None
    straight: Prize | None = None
    three_of_a_kind: Prize | None = None
    two_pair: Prize | None = None
    pair: Prize | None = None  # any pair: the bonus does not read the main bet's minimum


class Pays(Strict):
    """The ``[pays]`` of a Let It Ride table."""

    main: HandPays  # the pair pays only from the table's min_pair up
    three_card_bonus: BonusPays | None = None
    five_card_bonus: FiveCardBonus | None = None


class LetItRideTable(TableModel):
    """A Let It Ride table file."""

    GAME: ClassVar[str] = "let-it-ride"
    rules: TableRules = TableRules()
    pays: Pays


HOLDING_ARRAYS = ("reps3", "weights3", "reps4", "weights4", "c3", "c4", "sub3", "bonus")
PAYING = HAND_CLASSES[:9]  # royal flush .. pair (high card never pays)
LOSS = 9  # pay-class code of a losing hand
CLASSES = 10
BONUS_EVENTS = ("mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair")


@dataclass(frozen=True)
class LetItRideRules(Rules):
    """A Let It Ride table resolved for a run."""

    deck: Deck
    min_rank: int
    ride_on_zero: bool
    card: Card | None = None  # a strategy card file played instead of the optimal strategy

    @property
    def model(self) -> LetItRideTable:
        """The table file's model."""
        model = self.table.model
        assert isinstance(model, LetItRideTable)
        return model

    def count_key(self) -> dict[str, Any]:
        """Deck and the minimum paying pair: what decides each hand's pay class."""
        return {"deck": [list(self.deck.ranks), self.deck.n_suits], "min_rank": self.min_rank}

    def shown(self) -> dict[str, Any]:
        """The rules as the report states them."""
        return {"deck": self.deck.describe(), "min_pair": f"pair of {rank_name(self.min_rank, True)}",
                "ride_on_zero": self.ride_on_zero, "strategy": self.strategy_text}

    @property
    def strategy_id(self) -> str:
        """The strategy's id: optimal, or the strategy card's (its file name without .toml)."""
        return "optimal" if self.card is None else self.card.path.stem

    @property
    def strategy_text(self) -> str:
        """The strategy as the report names it."""
        if self.card is None:
            return "optimal"
        return f"card {self.card.path.name}: {self.card.model.title} (sha256 {self.card.sha256[:12]})"


# --- count ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HoldingCounts:
    """Pay-free counts per suit class of three- and four-card holdings, by final pay class."""

    deck: Deck
    reps3: np.ndarray  # (m3, 3) int8 card ids of each three-card class
    weights3: np.ndarray  # (m3,) int64 class sizes
    reps4: np.ndarray  # (m4, 4)
    weights4: np.ndarray  # (m4,)
    c3: np.ndarray  # (m3, 10): completions of each three-card class (C(n-3,2) of them), by pay class
    c4: np.ndarray  # (m4, 10): completions of each four-card class (n-4 of them), by pay class
    sub3: np.ndarray  # (m4, 4): the three-card class of the four-card class without its j-th card
    bonus: np.ndarray  # (7,): three-card hands of each BONUS_EVENTS class, then the losers

    @property
    def total(self) -> int:
        """Every deal: C(n,3) x (n-3) x (n-4)."""
        n = self.deck.size
        return math.comb(n, 3) * (n - 3) * (n - 4)


def pay_classes(deck: Deck, min_rank: int) -> np.ndarray:
    """(C(n,5),) int8 pay class of every hand (colex): 0..8 as PAYING, 9 a loss (pairs below min_rank too)."""
    ht = hand_table(deck)
    threshold = ht.strength_at_least(HandClass.PAIR, (min_rank,))
    cls = ht.hand_class.astype(np.int8)
    low_pair = (cls == HandClass.PAIR.code) & (ht.strength < threshold)
    return np.where((cls == HandClass.HIGH_CARD.code) | low_pair, LOSS, cls).astype(np.int8)


def _extended(deck: Deck, reps: np.ndarray) -> np.ndarray:
    """(m, n - k, k + 1) sorted deck positions of each holding plus each card it does not hold."""
    position = np.full(52, -1, dtype=np.int64)
    position[list(deck.cards)] = np.arange(deck.size)
    pos = position[reps.astype(np.int64)]
    free = np.ones((len(reps), deck.size), dtype=bool)
    free[np.arange(len(reps))[:, None], pos] = False
    other = np.nonzero(free)[1].reshape(len(reps), deck.size - reps.shape[1])
    both = np.concatenate([np.broadcast_to(pos[:, None, :], other.shape + (reps.shape[1],)), other[..., None]], axis=2)
    both.sort(axis=2)
    return both


def count_holdings(deck: Deck, min_rank: int) -> HoldingCounts:
    """The pay-free counts (numpy only: a few hundred thousand hand lookups, no pays involved)."""
    cls = pay_classes(deck, min_rank)
    reps3, weights3 = suit_classes(3, deck)
    reps4, weights4 = suit_classes(4, deck)
    hands = colex_indices(_extended(deck, reps4))  # (m4, n-4): the completed hands of each class
    m4 = len(reps4)
    c4 = np.bincount((np.arange(m4)[:, None] * CLASSES + cls[hands]).ravel(),
                     minlength=m4 * CLASSES).reshape(m4, CLASSES)
    class4 = suit_class_index(4, deck)
    supersets = class4[colex_indices(_extended(deck, reps3))]  # (m3, n-3): class of t plus each other card
    c3 = c4[supersets].sum(axis=1) // 2
    position = np.full(52, -1, dtype=np.int64)
    position[list(deck.cards)] = np.arange(deck.size)
    pos4 = np.sort(position[reps4.astype(np.int64)], axis=1)
    class3 = suit_class_index(3, deck)
    sub3 = np.stack([class3[colex_indices(np.delete(pos4, j, axis=1))] for j in range(4)], axis=1)
    return HoldingCounts(deck, np.asarray(reps3), np.asarray(weights3), np.asarray(reps4), np.asarray(weights4),
                         c3.astype(np.int32), c4.astype(np.int32), sub3.astype(np.int32), _bonus_counts(deck))


def three_card_event(cards: Sequence[int], deck: Deck = FULL_DECK) -> str:
    """Three-card poker class: straight flush > trips > straight > flush > pair; mini royal = suited A-K-Q."""
    ranks = sorted(rank_of(c) for c in cards)
    flush = len({suit_of(c) for c in cards}) == 1
    distinct = len(set(ranks))
    if distinct == 1:
        return "three_of_a_kind"
    if distinct == 2:
        return "pair"
    straight = ranks[2] - ranks[0] == 2 or (ranks == [0, 1, 12] and {0, 1, 12} <= set(deck.ranks))
    if straight and flush:
        return "mini_royal" if ranks == [10, 11, 12] else "straight_flush"
    if straight:
        return "straight"
    return "flush" if flush else "loss"


def _bonus_counts(deck: Deck) -> np.ndarray:
    """Three-card hands of each BONUS_EVENTS class, then the losers (vectorised ``three_card_event``)."""
    c = np.array(deck.cards, dtype=np.int64)[colex_combos(deck.size, 3)]
    r, suit = np.sort(c >> 2, axis=1), c & 3
    flush = (suit == suit[:, :1]).all(axis=1)
    distinct = 1 + (r[:, 1] != r[:, 0]) + (r[:, 2] != r[:, 1])  # rows are sorted
    wheel = (r[:, 0] == 0) & (r[:, 1] == 1) & (r[:, 2] == 12) & all(x in deck.ranks for x in (0, 1, 12))
    straight = (distinct == 3) & ((r[:, 2] - r[:, 0] == 2) | wheel)
    royal = straight & flush & (r[:, 0] == 10)
    kind = np.select([royal, straight & flush, distinct == 1, straight, flush & (distinct == 3), distinct == 2],
                     [0, 1, 2, 3, 4, 5], 6)
    return np.bincount(kind, minlength=7).astype(np.int64)


# --- settle -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Solution:
    """The solved decisions and the deals by (pay class, bets in play)."""

    ride1: np.ndarray  # (m3,) bool: bet 1 rides on this three-card class
    ride2: np.ndarray  # (m4,) bool, per four-card class
    s3: np.ndarray  # (m3,) S3 in units of 1/denominator (int64, or Python ints for huge pays)
    s4: np.ndarray  # (m4,)
    denominator: int
    tally: dict[tuple[int, int], int]  # (pay class, bets) -> deals


def solve(counts: HoldingCounts, pays: Sequence[Fraction], ride_on_zero: bool = False,
          rides: tuple[np.ndarray, np.ndarray] | None = None) -> Solution:
    """Decide both pull-backs exactly (or take ``rides``, a strategy card's decisions per three- and
    four-card class) and count every deal by final hand and bets in play."""
    den = math.lcm(*(p.denominator for p in pays))
    values = [int(p * den) for p in pays] + [-den]
    # int64 dot products are exact while the largest possible |S3| fits; past that, Python ints
    exact_int64 = max(abs(x) for x in values) * math.comb(counts.deck.size - 3, 2) < 2**62
    v = np.array(values, dtype=np.int64 if exact_int64 else object)
    c3 = counts.c3.astype(np.int64 if exact_int64 else object)
    c4 = counts.c4.astype(np.int64 if exact_int64 else object)
    s3, s4 = c3 @ v, c4 @ v
    if rides is not None:
        ride1, ride2 = rides
    else:
        ride1 = s3 >= 0 if ride_on_zero else s3 > 0
        ride2 = s4 >= 0 if ride_on_zero else s4 > 0
    bets = 1 + ride1[counts.sub3].astype(np.int64) + ride2[:, None].astype(np.int64)  # (m4, 4)
    ways = np.stack([(bets == b).sum(axis=1) for b in (1, 2, 3)], axis=1) * counts.weights4[:, None]
    by = counts.c4.astype(np.int64).T @ ways  # (10, 3)
    tally = {(k, b): int(by[k, b - 1]) for k in range(CLASSES) for b in (1, 2, 3)}
    return Solution(np.asarray(ride1, dtype=bool), np.asarray(ride2, dtype=bool), s3, s4, den, tally)


OPTIMAL = "optimal"
OPTIMAL_TITLE = "optimal: each bet rides iff its EV > 0"
LOSE = "lose"  # the event id of a row that wins nothing (the public vocabulary, DESIGN.md)


def main_wager(counts: HoldingCounts, sol: Solution, pays: Sequence[Fraction], min_rank: int,
               ride_on_zero: bool, strategy: str = OPTIMAL, strategy_title: str = OPTIMAL_TITLE) -> WagerResult:
    """The three bets, per base bet."""
    rows = []
    for k in range(CLASSES):
        if k < 9:
            cls = PAYING[k]
            label = cls.label if k < 8 else f"Pair of {rank_name(min_rank, True)} or better"
            pay, ev, unit = pays[k], cls.value, pays[k]
        else:
            label, pay, ev, unit = "Losing hand", Fraction(0), LOSE, Fraction(-1)
        for bets in (1, 2, 3):
            rows.append(Row(
                event=f"{ev}_{bets}_bet{'s' if bets > 1 else ''}",
                label=f"{label}, {bets} bet{'s' if bets > 1 else ''} in play",
                pays=ratio_text(pay) if k < 9 else "",
                units=unit * bets, combinations=sol.tally.get((k, bets), 0), stake=Fraction(bets),
                pay_ref=f"main.{ev}" if k < 9 else "", pay_coef=Fraction(bets if k < 9 else 0),
            ))
    w3, w4 = counts.weights3.astype(object), counts.weights4.astype(object)  # sums of class sizes: exact
    size = counts.deck.size
    n3, n4 = math.comb(size, 3), math.comb(size, 4)
    bet1_return = Fraction(int((w3 * sol.s3)[sol.ride1].sum()), sol.denominator * n3 * math.comb(size - 3, 2))
    bet2_return = Fraction(int((w4 * sol.s4)[sol.ride2].sum()), sol.denominator * n4 * (size - 4))
    zero3, zero4 = int(counts.weights3[sol.s3 == 0].sum()), int(counts.weights4[sol.s4 == 0].sum())
    ride3, ride4 = int(counts.weights3[sol.ride1].sum()), int(counts.weights4[sol.ride2].sum())
    extras: dict[str, Fraction | int] = {
        "bet1_ride_hands": ride3,
        "bet1_ride_probability": Fraction(ride3, n3),
        "bet1_expected_return": bet1_return,
        "bet2_ride_hands": ride4,
        "bet2_ride_probability": Fraction(ride4, n4),
        "bet2_expected_return": bet2_return,
        "bet1_zero_ev_hands": zero3,
        "bet2_zero_ev_hands": zero4,
    }
    result = WagerResult(
        wager="main", title="Let It Ride (three equal bets)", strategy=strategy,
        total_combinations=counts.total, rows=tuple(rows), unit="base bet (one of the three equal bets)",
        stake_varies=True, extras=extras, strategy_title=strategy_title,
    )
    if strategy != OPTIMAL:
        note = ("Bet 3 (the $ bet) always plays; bets 1 and 2 ride as the strategy card decides, on "
                f"{ride3:,} of {n3:,} three-card and {ride4:,} of {n4:,} four-card holdings.")
        return WagerResult(result.wager, result.title, result.strategy, result.total_combinations, result.rows,
                           result.unit, result.stake_varies, result.extras, (note, UNSEEN_NOTE), strategy_title)
    # Zero-EV holdings change the stake, never the EV: the other convention's figures follow exactly.
    shift = Fraction(zero3, n3) + Fraction(zero4, n4)
    other = result.average_stake + (-shift if ride_on_zero else shift)
    note = ("Bet 3 (the $ bet) always plays; bets 1 and 2 ride exactly when their expected value at the moment "
            f"of decision is positive. {zero3:,} three-card and {zero4:,} four-card holdings have an EV of exactly "
            "zero; they " + ("ride, as the table asks" if ride_on_zero else "are pulled back (same EV, lower stake)")
            + f". {'Pulling them back' if ride_on_zero else 'Riding them'} instead leaves the EV unchanged and "
            f"gives {decimal_str(other, 6)} bets in play and an element of risk of "
            f"{percent_str(result.house_edge / other)}.")
    return WagerResult(result.wager, result.title, result.strategy, result.total_combinations, result.rows,
                       result.unit, result.stake_varies, result.extras, (note, UNSEEN_NOTE), strategy_title)


UNSEEN_NOTE = ("Cards dealt to other seats and never seen change no expected value: to the player they are like the "
               "cards left in the deck; only cards seen do (oddscalc collusion: a partner's cards seen).")


def bonus_wager(counts: HoldingCounts, pays: BonusPays) -> WagerResult:
    """The three-card bonus, per unit staked."""
    rows = [Row(e, e.replace("_", " ").capitalize(), ratio_text(getattr(pays, e)), getattr(pays, e),
                int(counts.bonus[i]), pay_ref=f"three_card_bonus.{e}", pay_coef=Fraction(1))
            for i, e in enumerate(BONUS_EVENTS)]
    rows.append(Row(LOSE, "No pair or better", "", Fraction(-1), int(counts.bonus[-1])))
    n = counts.deck.size
    return WagerResult(
        wager="three_card_bonus", title="Three-card bonus", strategy="none", strategy_title="none (no decision)",
        total_combinations=math.comb(n, 3), rows=tuple(rows), unit="unit staked",
        notes=(f"Counted over the C({n},3) = {math.comb(n, 3):,} three-card hands: the community cards do not "
               "matter.",),
    )


def five_card_bonus_wager(deck: Deck, bonus: FiveCardBonus) -> WagerResult:
    """The five-card bonus, per stake: the final hand is any of the C(n,5) hands, equally likely."""
    by_class = np.bincount(hand_table(deck).hand_class.astype(np.int64), minlength=len(HAND_CLASSES))
    rows, won = [], 0
    for k, cls in enumerate(HAND_CLASSES[:9]):
        prize = getattr(bonus, cls.value)
        if prize is None:
            continue
        text, units, coef = prize_units(prize, bonus.stake, bonus.meter.shown if bonus.meter else None)
        n = int(by_class[k])
        won += n
        rows.append(Row(cls.value, cls.label, text, units, n, pay_ref=f"five_card_bonus.{cls.value}", pay_coef=coef))
    total = math.comb(deck.size, 5)
    rows.append(Row(LOSE, "No prize", "", Fraction(-1), total - won))
    return WagerResult(
        wager="five_card_bonus",
        title=f"Five-card bonus ({'progressive, ' if bonus.meter else ''}stake {money_text(bonus.stake)})",
        strategy="none", strategy_title="none (no decision)",
        total_combinations=total, rows=tuple(rows), unit=f"stake of {money_text(bonus.stake)}",
        notes=(f"Counted over the C({deck.size},5) = {total:,} final hands (the player's three cards and the two "
               "community cards as a set): the decisions on the main bets do not change the final hand.",
               *(["A prize stated as an amount is all the player gets back (the stake is kept)."]
                 if any(not isinstance(getattr(bonus, c.value), Odds) for c in HAND_CLASSES[:9]
                        if getattr(bonus, c.value) is not None) else [])),
    )


def _by_hand_section(sol: Solution, pays: Sequence[Fraction], min_rank: int) -> Section:
    rows: list[tuple[Cell, ...]] = []
    every = sum(sol.tally.values())
    for k in range(CLASSES):
        deals = sum(sol.tally.get((k, b), 0) for b in (1, 2, 3))
        bets = sum(b * sol.tally.get((k, b), 0) for b in (1, 2, 3))
        name = (PAYING[k].label if k < 8 else f"Pair of {rank_name(min_rank, True)} or better" if k == 8
                else "Losing hand")
        rows.append((name, ratio_text(pays[k]) if k < 9 else "loses", deals, Fraction(bets, deals) if deals else None,
                     Fraction(bets * (pays[k] if k < 9 else -1), every)))
    return Section("return_by_hand", "Return by final hand",
                   (Column("hand", "Final hand"), Column("pays", "Pays"), Column("deals", "Deals", "int"),
                    Column("average_bets", "Bets in play (average)", "decimal", 4),
                    Column("return", "Net return per base bet", "signed_percent", 4)),
                   tuple(rows),
                   notes=("The net returns add up to the main wager's EV per base bet: what each final hand wins "
                          "(its pay on every bet in play) or loses, over every deal.",))


def _play_card(card: Card, counts: HoldingCounts, pays: Sequence[Fraction], optimal: Solution,
               shapes3: ride_holdings.Shapes, shapes4: ride_holdings.Shapes, min_rank: int) -> tuple[Solution, Section]:
    """The card's decisions counted like the optimal ones, and its cost by rule, checked against the EVs."""
    from oddscalc.games.let_it_ride import card as ride_card  # only a card run needs it

    played = {"bet1": ride_card.play(card, "bet1", shapes3, counts.reps3),
              "bet2": ride_card.play(card, "bet2", shapes4, counts.reps4)}
    sol = solve(counts, pays, rides=(played["bet1"].ride, played["bet2"].ride))
    section, whole = ride_card.cost_section(card, played, {"bet1": counts.weights3, "bet2": counts.weights4},
                                            {"bet1": optimal.s3, "bet2": optimal.s4}, optimal.denominator,
                                            counts.deck)
    # the two EVs come from the deal tallies, the cost from the holding sums: two ways to one number
    gap = main_wager(counts, optimal, pays, min_rank, False).expected_value \
        - main_wager(counts, sol, pays, min_rank, False).expected_value
    if whole != gap:
        raise AssertionError(f"the card's cost by rule {whole} does not add up to optimal minus card {gap}")
    return sol, section


def _cards(rep: np.ndarray) -> str:
    return cards_str(sorted(rep.tolist(), reverse=True))


# --- the game ---------------------------------------------------------------------------


class LetItRide:
    """Let It Ride: pull back or let ride two of three equal bets, paid on a five-card hand."""

    key: ClassVar[str] = "let-it-ride"
    title: ClassVar[str] = "Let It Ride"
    default_table: ClassVar[str] = DEFAULT_TABLES["let-it-ride"]
    options: ClassVar[frozenset[str]] = frozenset({"strategy"})
    engine_version: ClassVar[int] = 3  # 3: counts per suit class
    table_model: ClassVar[type[TableModel]] = LetItRideTable
    strategies = ("optimal",)

    def resolve(self, table: Table, options: RunOptions) -> LetItRideRules:
        """The table's rules, with ``--strategy`` (optimal, or a strategy card file) applied."""
        model = table.model
        assert isinstance(model, LetItRideTable)
        card = None
        if options.strategy is not None and is_path(options.strategy):
            from oddscalc.games.let_it_ride.card import load_card

            card = load_card(Path(options.strategy))
        elif options.strategy not in (None, "optimal"):
            raise OptionError(f"unknown strategy {options.strategy!r} for let-it-ride; known: optimal, or a strategy "
                              "card file (a path)")
        return LetItRideRules(table=table, options=options, strategy="card" if card else "optimal",
                              published_applies=options.deck is None and card is None,
                              deck=options.deck or FULL_DECK, min_rank=parse_rank(model.rules.min_pair),
                              ride_on_zero=model.rules.ride_on_zero, card=card)

    def count(self, rules: LetItRideRules, store: Store) -> HoldingCounts:
        """The pay-free holding counts of the rules' deck and minimum pair, from the store when it has them."""
        def build() -> dict[str, np.ndarray]:
            h = count_holdings(rules.deck, rules.min_rank)
            return {name: getattr(h, name) for name in HOLDING_ARRAYS}

        a = store.get(count_key(self, rules), build)
        return HoldingCounts(rules.deck, **{name: a[name] for name in HOLDING_ARRAYS})

    def settle(self, counts: HoldingCounts, rules: LetItRideRules) -> Analysis:
        """Both pull-back decisions solved (or played from a strategy card), every wager, the strategy in
        words and the expected return per holding class."""
        model, deck = rules.model, rules.deck
        pays = [getattr(model.pays.main, c.value) for c in PAYING]
        sol = solve(counts, pays, rules.ride_on_zero)
        wanted = not rules.options.brief
        named = named_sections(rules.table)
        shapes3 = shapes4 = None
        if rules.card is not None or wanted or named & {"bet1_holdings", "bet2_holdings"}:
            shapes3 = ride_holdings.shapes(counts.reps3, deck, rules.min_rank)
            shapes4 = ride_holdings.shapes(counts.reps4, deck, rules.min_rank)
        card_cost = None
        if rules.card is not None:
            assert shapes3 is not None and shapes4 is not None
            sol, card_cost = _play_card(rules.card, counts, pays, sol, shapes3, shapes4, rules.min_rank)
        wagers = [main_wager(counts, sol, pays, rules.min_rank, rules.ride_on_zero,
                             rules.strategy_id, OPTIMAL_TITLE if rules.card is None else rules.strategy_text)]
        if model.pays.three_card_bonus is not None:
            wagers.append(bonus_wager(counts, model.pays.three_card_bonus))
        sections = [_by_hand_section(sol, pays, rules.min_rank)]
        bonus = model.pays.five_card_bonus
        if bonus is not None:
            wagers.append(five_card_bonus_wager(deck, bonus))
            if bonus.meter is not None:
                sections.append(progressive_section(progressive(wagers[-1], bonus.meter_shares(), bonus.stake,
                                                                bonus.meter)))
        if wanted:
            sections.append(strategy_section("bet1_strategy", "Strategy: bet 1 (after the player's three cards)",
                                             counts.reps3, counts.weights3, sol.ride1, sol.s3, deck, rules.min_rank,
                                             rules.ride_on_zero))
            sections.append(strategy_section("bet2_strategy", "Strategy: bet 2 (after the first community card)",
                                             counts.reps4, counts.weights4, sol.ride2, sol.s4, deck, rules.min_rank,
                                             rules.ride_on_zero))
        for sid, title, sh, w, sums, ride in (
                ("bet1_holdings", "Bet 1: expected return by three-card holding", shapes3, counts.weights3,
                 sol.s3, sol.ride1),
                ("bet2_holdings", "Bet 2: expected return by four-card holding", shapes4, counts.weights4,
                 sol.s4, sol.ride2)):
            if sh is not None and (wanted or sid in named):
                sections.append(ride_holdings.holdings_section(sid, title, sh, w, sums, sol.denominator, ride, deck,
                                                               rules.min_rank))
        if card_cost is not None:
            sections.append(card_cost)
        decisions = (
            Decisions("bet1", "let bet 1 ride, per three-card hand (one point per suit pattern)", sol.ride1,
                      counts.weights3 * (deck.size - 3) * (deck.size - 4), lambda i: _cards(counts.reps3[i])),
            Decisions("bet2", "let bet 2 ride, per four cards seen (one point per suit pattern)", sol.ride2,
                      counts.weights4 * 4 * (deck.size - 4), lambda i: _cards(counts.reps4[i])),
        )
        return Analysis(
            game=self.key, table=rules.table, rules=rules.shown(), decisions=decisions,
            published_applies=rules.published_applies,
            convention=(f"one combination is one deal: the player's three cards (a set) and the two community "
                        f"cards in the order shown, C({deck.size},3) x {deck.size - 3} x {deck.size - 4} = "
                        f"{counts.total:,} equally likely deals"),
            wagers=tuple(wagers), sections=tuple(sections), assumptions=tuple(model.assumptions),
        )

    def charts(self, analysis: Analysis, rerun: Callable[[RunOptions], Analysis]) -> tuple[Chart, ...]:
        """The share of each kind of holding that lets bet 1 and bet 2 ride."""
        out: list[Chart] = []
        for sid, name in (("bet1_strategy", "bet 1"), ("bet2_strategy", "bet 2")):
            try:
                sec = analysis.section(sid)
            except KeyError:
                continue
            rows = [r for r in sec.records() if r["ride"]]
            ride, of = sum(int(r["ride"] or 0) for r in sec.records()), sum(int(r["of"] or 0) for r in sec.records())
            out.append(Bars(f"let-it-ride-{name.replace(' ', '')}",
                            f"Let It Ride ({analysis.table.id}): holdings that let {name} ride",
                            tuple(str(r["holding"]) for r in rows),
                            tuple(Fraction(int(r["ride"] or 0), int(r["of"] or 1)) for r in rows),
                            f"{ride:,} of {of:,} holdings ride; every other holding pulls back."))
        return tuple(out)
