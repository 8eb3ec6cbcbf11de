"""The stud engine's settle against a dealer with up cards: the decision per (player class, up cards) by exact EV,
the main wager's rows and the return by hand (counts from :mod:`oddscalc.games.stud.dealer`).

Decision (backward induction over what the player has seen: his cards and the dealer's up cards). For each suit
class of the player's hand and each set of up cards, the EV of each action in antes, summed over the ``H`` hole
completions (integers times exact pays):

- fold: ``-H``;
- bet ``b``: ``nq * (a_nq + b * b_nq) + w * (ante_win + b * bet_c) - l * (1 + b) + H * bonus_c`` (a tie pushes
  both, or counts in ``w`` where the file says ``tie = "win"``), with ``a_nq``, ``b_nq`` what the ante and each
  bet get when the dealer does not qualify (``ante_win`` or 0, ``bet_win`` or 0), ``bet_c`` what a bet wins with
  the player's class ``c`` (``bet_win_by_hand``'s pay for it, else ``bet_win``) and ``bonus_c`` the ante bonus of
  his class, paid whatever the dealer holds.

Every pay is scaled by the least common denominator so that the EVs are compared as integers over millions of
decisions at once (numpy int64: a row's counts are at most C(46, 4) = 163,185, far from overflow); the best is
played, between equal EVs the smaller stake (folding first). Every deal then lands in one row: the bet, the
dealer's outcome and, where they make the units differ, the class a winning bet is paid by and the ante bonus.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.games.stud.count import LOSE, NOT_QUALIFIED, TIE, WIN
from oddscalc.games.stud.dealer import DealerCounts
from oddscalc.games.stud.sections import return_by_hand
from oddscalc.games.stud.table import CLASSES, Decision, MainPays
from oddscalc.results import Row, Section, WagerResult
from oddscalc.tables import ratio_text

FOLD = 0
OUTCOMES = ((NOT_QUALIFIED, "dealer_not_qualified", "Dealer does not qualify"), (WIN, "win", "Player wins"),
            (TIE, "push", "Push (equal hands)"), (LOSE, "lose", "Dealer wins"))


@dataclass(frozen=True)
class Pays:
    """The pays per class of the player's hand, as the decision and the rows need them."""

    bonus: tuple[Fraction, ...]  # the ante bonus of each class (0: none)
    bet: tuple[Fraction, ...]  # what each bet wins when the class beats a qualifying dealer
    bonus_key: tuple[str, ...]  # the pay key the bonus is paid by ("" none)
    bet_key: tuple[str, ...]  # the ``bet_win_by_hand`` key a win is paid by ("" at bet_win)

    @classmethod
    def of(cls, pays: MainPays, ranking: str) -> Pays:
        """Each class's pays from the file's ``[pays.main]``."""
        names = CLASSES[ranking]
        bonus_key = tuple((pays.ante_bonus.paid_as(n) or "") if pays.ante_bonus is not None else "" for n in names)
        bet_key = tuple((pays.bet_win_by_hand.paid_as(n) or "") if pays.bet_win_by_hand is not None else ""
                        for n in names)
        bonus = tuple(pays.ante_bonus.pays()[k] if k and pays.ante_bonus is not None else Fraction(0)
                      for k in bonus_key)
        bet = tuple(pays.bet_win_by_hand.pays()[k] if k and pays.bet_win_by_hand is not None else pays.bet_win
                    for k in bet_key)
        return cls(bonus, bet, tuple(k if b else "" for k, b in zip(bonus_key, bonus)), bet_key)


def net(pays: MainPays, outcome: int, bet: int, bet_pay: Fraction, bonus: Fraction) -> Fraction:
    """Net antes won on one deal the player bets ``bet`` antes on, by the dealer's outcome."""
    if outcome == NOT_QUALIFIED:
        ante = pays.ante_win if pays.ante_when_dealer_does_not_qualify == "win" else Fraction(0)
        bets = bet * pays.bet_win if pays.bets_when_dealer_does_not_qualify == "win" else Fraction(0)
        return ante + bets + bonus
    if outcome == WIN:
        return pays.ante_win + bet * bet_pay + bonus
    if outcome == TIE:
        return bonus
    return bonus - 1 - bet


@dataclass(frozen=True)
class Played:
    """The chosen action of each (player class, up set) and the deals by action, class and outcome."""

    action: np.ndarray  # (m, K) int: 0 fold, else the bet in antes
    tally: dict[tuple[int, int, int], int]  # (action, class, outcome) -> deals; a fold's outcome is -1


def decide(counts: DealerCounts, pays: MainPays, decision: Decision, ranking: str) -> Played:
    """The optimal action of each (player class, up set) (see the module's docstring), and the deals it makes."""
    per = Pays.of(pays, ranking)
    nq_ante = pays.ante_win if pays.ante_when_dealer_does_not_qualify == "win" else Fraction(0)
    nq_bet = pays.bet_win if pays.bets_when_dealer_does_not_qualify == "win" else Fraction(0)
    scale = math.lcm(*(f.denominator for f in (*per.bonus, *per.bet, nq_ante, nq_bet, pays.ante_win)))
    bonus = np.array([int(b * scale) for b in per.bonus], dtype=np.int64)[counts.player_class.astype(np.int64)]
    bet = np.array([int(b * scale) for b in per.bet], dtype=np.int64)[counts.player_class.astype(np.int64)]
    o = counts.outcomes
    if pays.tie == "win":  # equal hands win for the player (Four Card Poker): a tie is settled as a win
        o = o.copy()
        o[..., WIN] += o[..., TIE]
        o[..., TIE] = 0
    nq, w, lose, holes = o[..., NOT_QUALIFIED], o[..., WIN], o[..., LOSE], counts.holes
    options: list[np.ndarray] = []
    codes: list[int] = []
    if decision.fold:
        options.append(np.full(nq.shape, -holes * scale, dtype=np.int64))
        codes.append(FOLD)
    for b in sorted(decision.bets):
        ev = nq * int((nq_ante + b * nq_bet) * scale) + w * (int(pays.ante_win * scale) + b * bet[:, None]) \
            - lose * ((1 + b) * scale) + holes * bonus[:, None]
        options.append(ev)
        codes.append(b)
    action = np.array(codes, dtype=np.int64)[np.argmax(np.stack(options), axis=0)]  # the first of equals
    tally: dict[tuple[int, int, int], int] = {}
    weights = np.broadcast_to(counts.weights[:, None], action.shape)
    classes = np.broadcast_to(counts.player_class.astype(np.int64)[:, None], action.shape)
    for a in codes:
        mine = action == a
        if not mine.any():
            continue
        for c in np.unique(classes[mine]).tolist():
            cell = mine & (classes == c)
            if a == FOLD:
                tally[(a, c, -1)] = int(weights[cell].sum()) * holes
                continue
            for k in range(4):
                tally[(a, c, k)] = int((weights[cell] * o[..., k][cell]).sum())
    return Played(action, tally)


def main_rows(pays: MainPays, played: Played, ranking: str, sizes: Sequence[int]) -> list[Row]:
    """Every deal in one row: fold, or the bet and the dealer's outcome (split by the class a win is paid by and
    by the ante bonus, where they make the units differ)."""
    per = Pays.of(pays, ranking)
    names = CLASSES[ranking]
    grouped: dict[tuple[int, int, str, str], int] = {}
    for (a, c, k), n in played.tally.items():
        if a == FOLD:
            continue
        key = (a, k, per.bet_key[c] if k == WIN else "", per.bonus_key[c])
        grouped[key] = grouped.get(key, 0) + n
    several = len(sizes) > 1
    rows: list[Row] = []
    bet_keys = [*(n for n in names if n in set(per.bet_key) and n), ""]  # a win at bet_win last (ace-king high)
    bonus_keys = ["", *(n for n in names if n in set(per.bonus_key) and n)]
    bet_of = {k: per.bet[per.bet_key.index(k)] for k in bet_keys if k}
    bonus_of = {k: per.bonus[per.bonus_key.index(k)] for k in bonus_keys if k}
    for b in sorted(sizes):
        for k, event, label in OUTCOMES:
            for bk in bet_keys if k == WIN else [""]:
                for xk in bonus_keys:
                    n = grouped.get((b, k, bk, xk), 0)
                    if (bk or xk) and not n:
                        continue  # a class the outcome never meets (a royal flush never loses to the dealer)
                    units = net(pays, k, b, bet_of.get(bk, pays.bet_win), bonus_of.get(xk, Fraction(0)))
                    eid = _event(event, units) + (f"_{bk}" if bk else "") + (f"_{xk}" if xk else "") + (
                        f"_{b}x" if several else "")
                    text = label + (f" with {bk.replace('_', ' ')}" if bk else "") + (
                        f" (ante bonus: {xk.replace('_', ' ')})" if xk else "") + (f", {b}x bet" if several else "")
                    shown = ratio_text(bet_of[bk]) if bk else ratio_text(bonus_of[xk]) if xk else ""
                    rows.append(Row(eid, text, shown, units, n, Fraction(1 + b)))
    folded = sum(n for (a, _, _), n in played.tally.items() if a == FOLD)
    rows.append(Row("fold", "Fold", "", Fraction(-1), folded, Fraction(1)))
    return rows


def _event(outcome: str, units: Fraction) -> str:
    """The outcome's id, unless an ante bonus turns its sign (as :func:`oddscalc.games.stud.settle._event`)."""
    if outcome == "push" and units != 0:
        return "tie" if units > 0 else "lose_tie"
    if outcome == "lose" and units >= 0:
        return "dealer_wins" if units > 0 else "push_dealer_wins"
    return outcome


def main_wager(counts: DealerCounts, pays: MainPays, played: Played, ranking: str, decision: Decision,
               title: str) -> WagerResult:
    """The ante and the bets made at the decision, per ante."""
    rows = main_rows(pays, played, ranking, decision.bets)
    folded = rows[-1].combinations
    return WagerResult(
        wager="main", title=f"{title} (ante and bet)", strategy="optimal", total_combinations=counts.total,
        rows=tuple(rows), unit="ante", stake_varies=True,
        extras={"play_frequency": Fraction(counts.total - folded, counts.total)},
        strategy_title="optimal: bet exactly when betting's EV beats folding's, on the player's cards and the "
                       "dealer's up cards",
        notes=("Units are net antes won; a winning bet is paid by the player's hand class where the table names it; "
               "an exact tie between betting and folding folds (same EV, lower stake).",))


def by_hand_section(counts: DealerCounts, played: Played, pays: MainPays, ranking: str) -> Section:
    """Per class of the player's hand: the deals, the share played and its net return per ante over every deal."""
    per = Pays.of(pays, ranking)
    names = CLASSES[ranking]
    deals = [0] * len(names)
    play = [0] * len(names)
    units = [Fraction(0)] * len(names)
    for (a, c, k), n in played.tally.items():
        deals[c] += n
        if a == FOLD:
            units[c] -= n
            continue
        play[c] += n
        units[c] += n * net(pays, k, a, per.bet[c], per.bonus[c])
    return return_by_hand(names, deals, play, units, counts.total, ", the dealer's up cards seen")
