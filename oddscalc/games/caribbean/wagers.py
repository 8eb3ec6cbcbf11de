"""Caribbean Stud's wagers: the ante and raise, and the Jackpot, from a settled pay table."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from oddscalc.games.caribbean.raise_table import N_PAY, RaiseTable
from oddscalc.games.caribbean.settle import Settled
from oddscalc.games.caribbean.table import JackpotPays, RaisePays
from oddscalc.hands import HAND_CLASSES
from oddscalc.results import Row, WagerResult
from oddscalc.tables import Odds, money_text, prize_units, ratio_text

UNSEEN_NOTE = ("Cards dealt to other seats and never seen change no expected value: to the player they are like the "
               "cards left in the deck; only cards seen do")
WIN_LABELS = [c.label for c in HAND_CLASSES[:9]] + ["Ace-king", "Other high card"]
WIN_EVENTS = [c.value for c in HAND_CLASSES[:9]] + ["ace_king", "other_high_card"]


LOSE = "lose"  # the event id of a row that wins nothing (the public vocabulary, DESIGN.md)

def main_wager(dc: RaiseTable, pays: RaisePays, st: Settled) -> WagerResult:
    """The ante and raise, per ante."""
    t = [[int(x) for x in row] for row in st.tally.tolist()]
    pay_list = [getattr(pays, c.value) for c in HAND_CLASSES[:9]] + [pays.high_card, pays.high_card]
    rows = []
    for k in range(11):
        key = HAND_CLASSES[min(k, 9)].value
        rows.append(Row(f"win_{WIN_EVENTS[k]}", f"Player wins with {WIN_LABELS[k].lower()}",
                        ratio_text(pay_list[k]), 1 + 2 * pay_list[k], t[k][2], Fraction(3),
                        pay_ref=f"main.{key}", pay_coef=Fraction(2)))
    rows.append(Row("dealer_not_qualified", "Dealer does not qualify", "1:1 (raise returned)", Fraction(1),
                    sum(t[k][1] for k in range(N_PAY)), Fraction(3)))
    rows.append(Row("push", "Push", "", Fraction(0), sum(t[k][3] for k in range(N_PAY)), Fraction(3)))
    rows.append(Row("fold", "Fold", "", Fraction(-1), sum(t[k][0] for k in range(N_PAY)), Fraction(1)))
    rows.append(Row(LOSE, "Dealer wins", "", Fraction(-3), sum(t[k][4] for k in range(N_PAY)), Fraction(3)))
    raised = dc.total - rows[-2].combinations
    return WagerResult(
        wager="main", title="Caribbean Stud (ante and raise)", strategy=st.strategy,
        total_combinations=dc.total, rows=tuple(rows), unit="ante", stake_varies=True,
        extras={"raise_frequency": Fraction(raised, dc.total),
                "win_pair_or_ace_king": rows[8].combinations + rows[9].combinations,
                "ace_king_deals": int(st.ak_total.sum()), "ace_king_deals_raised": int(st.ak_raised.sum())},
        notes=("Units are net antes won: a win pays the ante 1:1 and the raise (2 antes) at the table's odds; "
               "an exact tie between raising and folding folds (same EV, lower stake).",
               UNSEEN_NOTE + " (oddscalc flash: the dealer's cards seen).",),
    )


def jackpot_wager(dc: RaiseTable, jp: JackpotPays, st: Settled, paid_on_fold: bool) -> WagerResult:
    """The Jackpot, per stake: fixed amounts on the player's own five cards."""
    per_class_total = np.zeros(N_PAY, dtype=object)
    np.add.at(per_class_total, dc.pay_class.astype(np.int64), dc.weights.astype(object))
    rows = []
    won = 0
    for c in HAND_CLASSES[:5]:
        amount = getattr(jp, c.value)
        if amount is None:
            continue
        code = HAND_CLASSES.index(c)
        if paid_on_fold:
            n = int(per_class_total[code]) * dc.keys.shape[1] * dc.holes
        else:
            n = sum(int(x) for x in st.tally[code, 1:])
        won += n
        text, units, coef = prize_units(amount, jp.stake, jp.meter.shown if jp.meter else None)
        rows.append(Row(c.value, c.label, text, units, n, pay_ref=f"jackpot.{c.value}", pay_coef=coef))
    no_prize = "No prize" + ("" if paid_on_fold else " (or folded)")
    rows.append(Row(LOSE, no_prize, "", Fraction(-1), dc.total - won))
    kind = "progressive" if jp.meter is not None else "fixed prizes"
    return WagerResult(
        wager="jackpot", title=f"Jackpot ({kind}, stake {money_text(jp.stake)})", strategy=st.strategy,
        total_combinations=dc.total, rows=tuple(rows), unit=f"stake of {money_text(jp.stake)}",
        notes=(*_prize_notes(jp), "A folded hand " + ("keeps" if paid_on_fold else "forfeits")
               + " its jackpot (rule jackpot_paid_on_fold)."),
    )


_OUTCOME_EVENTS = ("fold", "dealer_not_qualified", None, "push", LOSE)  # tally columns; None: a win


def joint_main_jackpot(st: Settled, jp: JackpotPays, paid_on_fold: bool) -> dict[tuple[str, str], int]:
    """Deals by (main event, jackpot event): both wagers settle on the same player hand."""
    out: dict[tuple[str, str], int] = {}
    for k in range(st.tally.shape[0]):
        prize = getattr(jp, HAND_CLASSES[k].value) if k < 5 else None
        for o, event in enumerate(_OUTCOME_EVENTS):
            n = int(st.tally[k, o])
            if not n:
                continue
            main_event = event or f"win_{WIN_EVENTS[k]}"
            jp_event = HAND_CLASSES[k].value if prize is not None and (paid_on_fold or o != 0) else LOSE
            out[(main_event, jp_event)] = out.get((main_event, jp_event), 0) + n
    return out


def _prize_notes(jp: JackpotPays) -> tuple[str, ...]:
    prizes = [getattr(jp, c.value) for c in HAND_CLASSES[:5] if getattr(jp, c.value) is not None]
    notes = []
    if any(not isinstance(p, Odds) for p in prizes):
        notes.append("Prizes stated as amounts are paid on the player's own five cards and the stake is kept by "
                     "the house, so a prize of A is a net win of A/stake - 1 stakes.")
    if any(isinstance(p, Odds) for p in prizes):
        notes.append("Prizes stated as odds (a:b) pay a/b stakes on the player's own five cards and return the "
                     "stake.")
    if jp.meter is not None:
        notes.append("A share of the meter is paid as an amount; the rows are settled at the meter of "
                     f"{money_text(jp.meter.shown)} (see the progressive meter section for every meter).")
    return tuple(notes)
