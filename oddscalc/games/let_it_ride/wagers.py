"""Let It Ride's wagers: the three bets, the three-card and five-card bonuses, the return by final hand."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from oddscalc.cards import Deck, rank_name
from oddscalc.exact import decimal_str, percent_str
from oddscalc.games.let_it_ride.count import BONUS_EVENTS, CLASSES, PAYING, HoldingCounts
from oddscalc.games.let_it_ride.settle import OPTIMAL, OPTIMAL_TITLE, Solution
from oddscalc.games.let_it_ride.table import BonusPays, FiveCardBonus
from oddscalc.hands import HAND_CLASSES, hand_table
from oddscalc.results import Cell, Column, Row, Section, WagerResult
from oddscalc.tables import Odds, money_text, prize_units, ratio_text

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


def by_hand_section(sol: Solution, pays: Sequence[Fraction], min_rank: int) -> Section:
    """The deals, bets in play and net return of each final hand."""
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
