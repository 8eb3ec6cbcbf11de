"""The stud engine's settle: the decision chosen by exact EV, the main wager's rows, the side bets.

Decision (backward induction over what the player has seen: his own cards). For each suit class of the player's
hand, the EV of each action in antes, summed over the dealer's hands (integers times exact pays):

- fold: ``-H`` (the ante lost on each of the ``H`` dealer hands);
- bet ``b``: ``nq * a_nq + w * (ante_win + b * bet_win) - l * (1 + b) + H * bonus`` (the tie pushes both), with
  ``a_nq`` the ante's settlement when the dealer does not qualify (``ante_win`` or 0) plus ``b * bet_win`` when the
  bets win then too, and ``bonus`` the ante bonus of the player's class, paid whatever the dealer holds.

The best action is taken; between equal EVs the smaller stake (folding first), as the other games do. Every deal
then lands in one row: the action, the dealer's outcome and, where the ante bonus makes the units differ, the
player's class.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.games.stud.count import LOSE, NOT_QUALIFIED, TIE, WIN, MainCounts
from oddscalc.games.stud.table import CLASSES, Decision, MainPays, SideBet
from oddscalc.results import Row, WagerResult
from oddscalc.tables import ratio_text

FOLD = 0  # the action code of a fold; a bet of b antes is b
OUTCOMES = ((NOT_QUALIFIED, "dealer_not_qualified", "Dealer does not qualify"), (WIN, "win", "Player wins"),
            (TIE, "push", "Push (equal hands)"), (LOSE, "lose", "Dealer wins"))


@dataclass(frozen=True)
class Played:
    """The chosen action of each player class and the EVs that chose it."""

    action: np.ndarray  # (m,) int: 0 fold, else the bet in antes
    ev: tuple[Fraction, ...]  # the chosen action's EV in antes per deal of the class
    gap: tuple[Fraction, ...]  # best bet's EV minus folding's (closest decisions)


def _bonus(pays: MainPays, name: str) -> Fraction:
    block = pays.ante_bonus
    pay = block.pay_of(name) if block is not None else None
    return pay if pay is not None else Fraction(0)


def net(pays: MainPays, outcome: int, bet: int, bonus: Fraction) -> Fraction:
    """Net antes won on one deal the player bets ``bet`` antes on, by the dealer's outcome."""
    if outcome == NOT_QUALIFIED:
        ante = pays.ante_win if pays.ante_when_dealer_does_not_qualify == "win" else Fraction(0)
        bets = bet * pays.bet_win if pays.bets_when_dealer_does_not_qualify == "win" else Fraction(0)
        return ante + bets + bonus
    if outcome == WIN:
        return pays.ante_win + bet * pays.bet_win + bonus
    if outcome == TIE:
        return bonus
    return bonus - 1 - bet


def decide(counts: MainCounts, pays: MainPays, decision: Decision, ranking: str) -> Played:
    """The optimal action of each player class (see the module's docstring)."""
    names = CLASSES[ranking]
    hands = counts.dealer_hands
    actions, evs, gaps = [], [], []
    for cls, row in zip(counts.player_class.tolist(), counts.outcomes.tolist()):
        bonus = _bonus(pays, names[cls])
        options: list[tuple[Fraction, int]] = []
        if decision.fold:
            options.append((Fraction(-hands), FOLD))
        best_bet = None
        for b in sorted(decision.bets):
            ev = sum((row[o] * net(pays, o, b, bonus) for o in range(4)), Fraction(0))
            options.append((ev, b))
            best_bet = ev if best_bet is None or ev > best_bet else best_bet
        ev, action = max(options, key=lambda x: x[0])  # max keeps the first of equals: fold, then smaller bets
        actions.append(action)
        evs.append(ev / hands)
        gaps.append(((best_bet or Fraction(0)) + hands) / hands if decision.fold else Fraction(0))
    return Played(np.array(actions, dtype=np.int64), tuple(evs), tuple(gaps))


def _event(outcome: str, units: Fraction) -> str:
    """The outcome's id, unless an ante bonus turns its sign: the contract's ``push`` nets 0 and ``lose`` loses, so
    equal hands paid a bonus are a ``tie``, a dealer's win the bonus outweighs ``dealer_wins``."""
    if outcome == "push" and units != 0:
        return "tie" if units > 0 else "lose_tie"
    if outcome == "lose" and units >= 0:
        return "dealer_wins" if units > 0 else "push_dealer_wins"
    return outcome


def main_rows(counts: MainCounts, pays: MainPays, played: Played, ranking: str, sizes: Sequence[int]) -> list[Row]:
    """Every deal in one row: fold, or the dealer's outcome (by the player's class where the ante bonus pays it)."""
    names = CLASSES[ranking]
    tally: dict[tuple[int, int, str], int] = {}
    for w, cls, action, row in zip(counts.weights.tolist(), counts.player_class.tolist(), played.action.tolist(),
                                   counts.outcomes.tolist()):
        if action == FOLD:
            tally[(FOLD, -1, "")] = tally.get((FOLD, -1, ""), 0) + w * counts.dealer_hands
            continue
        paid = pays.ante_bonus.paid_as(names[cls]) if pays.ante_bonus is not None else None
        bonus_class = paid if paid is not None and _bonus(pays, paid) else ""
        for o in range(4):
            key = (action, o, bonus_class)
            tally[key] = tally.get(key, 0) + w * row[o]
    rows: list[Row] = []
    several = len(sizes) > 1
    bonus_keys = pays.ante_bonus.pays() if pays.ante_bonus is not None else {}
    bonus_classes = [n for n in names if bonus_keys.get(n)]
    for b in sorted(sizes):
        for o, event, label in OUTCOMES:
            for bc in ("", *bonus_classes):
                n = tally.get((b, o, bc), 0)
                if bc and not n:
                    continue  # a class the outcome never meets (a straight flush never loses to the dealer)
                suffix = (f"_{bc}" if bc else "") + (f"_{b}x" if several else "")
                text = label + (f" (ante bonus: {bc.replace('_', ' ')})" if bc else "") + (
                    f", {b}x bet" if several else "")
                units = net(pays, o, b, _bonus(pays, bc) if bc else Fraction(0))
                rows.append(Row(_event(event, units) + suffix, text, ratio_text(_bonus(pays, bc)) if bc else "",
                                units, n, Fraction(1 + b), pay_ref=f"main.ante_bonus.{bc}" if bc else "",
                                pay_coef=Fraction(1 if bc else 0)))
    rows.append(Row("fold", "Fold", "", Fraction(-1), tally.get((FOLD, -1, ""), 0), Fraction(1)))
    return rows


def main_wager(counts: MainCounts, pays: MainPays, played: Played, ranking: str, decision: Decision,
               title: str) -> WagerResult:
    """The ante and the bets made at the decision, per ante."""
    rows = main_rows(counts, pays, played, ranking, decision.bets)
    folded = rows[-1].combinations
    return WagerResult(
        wager="main", title=f"{title} (ante and play)", strategy="optimal", total_combinations=counts.total,
        rows=tuple(rows), unit="ante", stake_varies=True,
        extras={"play_frequency": Fraction(counts.total - folded, counts.total)},
        strategy_title="optimal: play exactly when playing's EV beats folding's",
        notes=("Units are net antes won; an ante bonus is paid on the ante by the player's hand whatever the "
               "dealer holds, when the player plays; an exact tie between playing and folding folds (same EV, "
               "lower stake).",))


def side_wager(name: str, bet: SideBet, counts: np.ndarray, per_set: int) -> WagerResult:
    """A side bet paid by the class of its cards: ``counts`` the card sets by class, ``per_set`` deals each."""
    names = CLASSES[bet.ranking]
    paid = bet.pays()
    sets: dict[str, int] = {}  # by the pay key each class is paid by (a mini royal not named is a straight flush)
    for i, c in enumerate(names):
        key = bet.paid_as(c)
        if key is not None:
            sets[key] = sets.get(key, 0) + int(counts[i])
    lowest = f" of {bet.pair_minimum} or better" if bet.pair_minimum is not None else ""
    rows = [Row(c, c.replace("_", " ").capitalize() + (lowest if c == "pair" else ""), ratio_text(paid[c]), paid[c],
                sets[c] * per_set, pay_ref=f"{name}.{c}", pay_coef=Fraction(1)) for c in names if c in sets]
    won = sum(r.combinations for r in rows)
    total = int(counts.sum()) * per_set
    rows.append(Row("lose", "No paying hand", "", Fraction(-1), total - won))
    cards = "the player's cards" if bet.cards == "player" else "the player's and the dealer's cards"
    how = {"five-card": "the best five of ", "four-card": "the best four of "}.get(bet.ranking, "")
    return WagerResult(wager=name, title=name.replace("_", " ").capitalize(), strategy="none",
                       strategy_title="none (paid on the cards dealt, whatever the player decides)",
                       total_combinations=total, rows=tuple(rows), unit="unit staked",
                       notes=(f"Paid on {how}{cards} ranked {bet.ranking}, whatever the dealer holds and the player "
                              "decides.",))
