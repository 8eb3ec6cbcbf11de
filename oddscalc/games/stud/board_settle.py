"""The stud engine's settle with community cards beside a dealer: the decision per seen pair by exact EV, the main
wager's rows and the return by hand (counts from :mod:`oddscalc.games.stud.board`).

Decision (backward induction over what the player has seen: his cards and the board so far). For each suit class
of that pair, the EV of each action in antes, summed over its ``H`` completions (integers times exact pays), with
``n[c, o]`` the completions where the player ends with class ``c`` and the dealer's outcome is ``o``:

- fold: ``-H``;
- bet ``b``: ``sum_c n[c, nq] * (a_nq(c) + b * b_nq) + n[c, win] * (ante_c + b * bet_win) - n[c, lose] * (1 + b)``
  (a tie pushes both, or is a win where the file says ``tie = "win"``), with ``ante_c`` the ante's pay for class
  ``c`` (``ante_win_by_hand``'s where it names the class, else ``ante_win``), ``a_nq(c)`` that pay or 0 as the ante
  wins or pushes when the dealer does not qualify, ``b_nq`` ``bet_win`` or 0 as the bets do.

The pays are scaled by their least common denominator so the EVs compare as integers; the best is played, between
equal EVs the smaller stake (folding first). Every deal then lands in one row: the bet, the dealer's outcome and,
where it changes the units, the class the ante is paid by.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.cards import cards_str
from oddscalc.games.stud.board import BoardCounts
from oddscalc.games.stud.count import LOSE, NOT_QUALIFIED, TIE, WIN
from oddscalc.games.stud.sections import return_by_hand
from oddscalc.games.stud.table import CLASSES, Decision, MainPays
from oddscalc.results import Decisions, Row, Section, WagerResult
from oddscalc.tables import ratio_text

FOLD = 0
NAMES = CLASSES["five-card"]
OUTCOMES = ((NOT_QUALIFIED, "dealer_not_qualified", "Dealer does not qualify"), (WIN, "win", "Player wins"),
            (TIE, "push", "Push (equal hands)"), (LOSE, "lose", "Dealer wins"))


def ante_keys(pays: MainPays) -> tuple[str, ...]:
    """Per class of the ranking, the ``ante_win_by_hand`` key its won ante is paid by ("" at ``ante_win``)."""
    block = pays.ante_win_by_hand
    return tuple((block.paid_as(n) or "") if block is not None else "" for n in NAMES)


def net(pays: MainPays, outcome: int, bet: int, key: str) -> Fraction:
    """Net antes won on one deal the player bets ``bet`` antes on, by the dealer's outcome; ``key`` the class the
    ante is paid by when won ("" at ``ante_win``)."""
    block = pays.ante_win_by_hand
    ante = block.pays()[key] if key and block is not None else pays.ante_win
    if outcome == TIE and pays.tie == "win":
        outcome = WIN
    if outcome == NOT_QUALIFIED:
        return (ante if pays.ante_when_dealer_does_not_qualify == "win" else Fraction(0)) + \
            (bet * pays.bet_win if pays.bets_when_dealer_does_not_qualify == "win" else Fraction(0))
    if outcome == WIN:
        return ante + bet * pays.bet_win
    if outcome == TIE:
        return Fraction(0)
    return Fraction(-1 - bet)


@dataclass(frozen=True)
class Played:
    """The chosen action of each seen pair, the EV gap to folding, and the deals by action, class and outcome."""

    action: np.ndarray  # (m,) int: 0 fold, else the bet in antes
    tally: dict[tuple[int, int, int], int]  # (action, class, outcome) -> deals; a fold's outcome is -1


def _nets(pays: MainPays, bets: list[int]) -> tuple[int, dict[int, np.ndarray]]:
    """The scale and, per bet, each (class, outcome)'s net in scaled integers."""
    keys = ante_keys(pays)
    table = {b: [[net(pays, o, b, keys[c]) for o in range(4)] for c in range(len(NAMES))] for b in bets}
    scale = math.lcm(*(x.denominator for rows in table.values() for row in rows for x in row))
    return scale, {b: np.array([[int(x * scale) for x in row] for row in rows], dtype=np.int64)
                   for b, rows in table.items()}


def decide(counts: BoardCounts, pays: MainPays, decision: Decision) -> Played:
    """The optimal action of each seen pair (see the module's docstring), and the deals it makes."""
    bets = sorted(decision.bets)
    scale, nets = _nets(pays, bets)
    o = counts.outcomes
    options: list[np.ndarray] = []
    codes: list[int] = []
    if decision.fold:
        options.append(np.full(len(o), -counts.completions * scale, dtype=np.int64))
        codes.append(FOLD)
    for b in bets:
        options.append((o * nets[b]).sum(axis=(1, 2)))
        codes.append(b)
    action = np.array(codes, dtype=np.int64)[np.argmax(np.stack(options), axis=0)]  # the first of equals
    tally: dict[tuple[int, int, int], int] = {}
    for a in codes:
        mine = action == a
        if not mine.any():
            continue
        if a == FOLD:
            tally[(a, -1, -1)] = int(counts.weights[mine].sum()) * counts.completions
            continue
        by = (counts.weights[mine][:, None, None] * o[mine]).sum(axis=0)  # (classes, 4); object-free: int64 fits
        for c in range(len(NAMES)):
            for k in range(4):
                if by[c, k]:
                    tally[(a, c, k)] = int(by[c, k])
    return Played(action, tally)


def main_rows(pays: MainPays, played: Played, sizes: list[int]) -> list[Row]:
    """Every deal in one row: fold, or the bet and the dealer's outcome, split by the class the ante is paid by
    where it is won at a pay of its own."""
    keys = ante_keys(pays)
    grouped: dict[tuple[int, int, str], int] = {}
    for (a, c, k), n in played.tally.items():
        if a == FOLD:
            continue
        won = k == WIN or (k == TIE and pays.tie == "win") or \
            (k == NOT_QUALIFIED and pays.ante_when_dealer_does_not_qualify == "win")
        cell = (a, k, keys[c] if won else "")
        grouped[cell] = grouped.get(cell, 0) + n
    several = len(sizes) > 1
    paid = [n for n in NAMES if n in set(keys) and n]
    block = pays.ante_win_by_hand
    rows: list[Row] = []
    for b in sorted(sizes):
        for k, event, label in OUTCOMES:
            for key in (*paid, ""):
                n = grouped.get((b, k, key), 0)
                if key and not n:
                    continue  # a class the outcome never meets
                units = net(pays, k, b, key)
                eid = event + (f"_{key}" if key else "") + (f"_{b}x" if several else "")
                text = label + (f", ante paid as {key.replace('_', ' ')}" if key else "") + \
                    (f", {b}x bet" if several else "")
                shown = ratio_text(block.pays()[key]) if key and block is not None else ""
                rows.append(Row(eid, text, shown, units, n, Fraction(1 + b)))
    folded = sum(n for (a, _, _), n in played.tally.items() if a == FOLD)
    rows.append(Row("fold", "Fold", "", Fraction(-1), folded, Fraction(1)))
    return rows


def main_wager(counts: BoardCounts, pays: MainPays, played: Played, decision: Decision, title: str) -> WagerResult:
    """The ante and the bet made at the decision, per ante."""
    rows = main_rows(pays, played, list(decision.bets))
    folded = rows[-1].combinations
    return WagerResult(
        wager="main", title=f"{title} (ante and bet)", strategy="optimal", total_combinations=counts.total,
        rows=tuple(rows), unit="ante", stake_varies=True,
        extras={"play_frequency": Fraction(counts.total - folded, counts.total)},
        strategy_title="optimal: bet exactly when betting's EV beats folding's, on the player's cards and the "
                       "community cards seen",
        notes=("Units are net antes won; a won ante is paid by the player's final hand class where the table names "
               "it; an exact tie between betting and folding folds (same EV, lower stake).",))


def by_hand_section(counts: BoardCounts, played: Played, pays: MainPays) -> Section:
    """Per final class of the player's hand: the deals, the share played and its net return per ante."""
    keys = ante_keys(pays)
    deals = [0] * len(NAMES)
    play = [0] * len(NAMES)
    units = [Fraction(0)] * len(NAMES)
    folded = played.action == FOLD
    for c, n in enumerate((counts.weights[folded][:, None] * counts.outcomes[folded].sum(axis=2)).sum(axis=0)
                          .tolist()):
        deals[c] += n
        units[c] -= n
    for (a, c, k), n in played.tally.items():
        if a == FOLD:
            continue
        deals[c] += n
        play[c] += n
        units[c] += n * net(pays, k, a, keys[c])
    return return_by_hand(NAMES, deals, play, units, counts.total, ", the player's final hand, the community "
                                                                   "cards seen at the decision")


def decisions(counts: BoardCounts, played: Played) -> Decisions:
    """The play (else fold) at each seen pair, named by its cards."""
    return Decisions("play", "play (else fold), per suit pattern of the player's cards and the community cards "
                             "seen", played.action != FOLD, counts.weights * counts.completions,
                     lambda i: cards_str(sorted(counts.hole[i].tolist(), reverse=True)) + " with board "
                     + cards_str(sorted(counts.board[i].tolist(), reverse=True)))
