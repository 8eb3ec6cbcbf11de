"""The stud engine's settle with community cards beside a dealer: each decision by exact EV (backward induction
over what the player has seen), the main wager's rows and the return by hand (counts from
:mod:`oddscalc.games.stud.board_levels`).

Decisions. At decision ``t`` a state (a class of the player's cards and the board so far) has ``n[c, o]``
completions ending with his final class ``c`` and outcome ``o`` (the dealer qualifies or not; the player beats, ties
or loses to him). With ``S`` the forced stake (the ante, and the blind where the file has one), in antes, summed
over the state's ``H_t`` completions:

- fold: ``-S * H_t``;
- bet ``b`` (a bet ends the decisions: one raise at most; at the last decision ``b = 0`` is a check to the
  showdown): ``sum n[c, o] * net(o, b, c)``, the net of the ante, the bet and the blind as the file settles them
  (:func:`net`);
- check (``0`` before the last decision): the sum of the values of the states it grows into at the next decision.

The last decision is valued first, then each earlier one from it. The pays are scaled by their least common
denominator so the EVs compare as integers; the best is played, between equal EVs the smaller stake (folding first,
then checking). Then the deals are followed forward: the states each reaches, and where the player folds or bets,
its completions by final class and outcome land in the rows.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.cards import cards_str
from oddscalc.games.stud.board import NQ_WIN, OUTCOMES, WIN
from oddscalc.games.stud.board_levels import BoardCounts, Level
from oddscalc.games.stud.sections import return_by_hand
from oddscalc.games.stud.table import CLASSES, Decision, MainPays
from oddscalc.results import Decisions, Row, Section, WagerResult
from oddscalc.tables import ratio_text

FOLD = -1
NAMES = CLASSES["five-card"]
BASES = (("dealer_not_qualified", "Dealer does not qualify"), ("win", "Player wins"),
         ("win_dealer_not_qualified", "Player beats a dealer who does not qualify"), ("push", "Push (equal hands)"),
         ("push_dealer_not_qualified", "Push (equal hands), dealer not qualified"), ("lose", "Dealer wins"),
         ("lose_dealer_not_qualified", "Dealer wins without qualifying"))


def forced(pays: MainPays) -> int:
    """The antes in play before any decision: the ante, and the blind where there is one."""
    return 1 + (pays.blind is not None)


def _won(pays: MainPays, outcome: int) -> tuple[bool, int]:
    """(the dealer qualifies, 0 the player wins, 1 tie, 2 he loses), a tie won where the file says so."""
    q, cmp = outcome >= WIN, outcome % 3
    return q, 0 if cmp == 1 and pays.tie == "win" else cmp


def net(pays: MainPays, outcome: int, bet: int, name: str | None) -> Fraction:
    """Net antes won on one deal with ``bet`` antes bet, by outcome (``board.NQ_WIN`` ... ``board.LOSE``) and the
    player's final class ``name`` (None: a class no pay names)."""
    q, cmp = _won(pays, outcome)
    by = pays.ante_win_by_hand
    ante_pay = (by.pay_of(name) if by is not None and name is not None else None) or pays.ante_win

    def part(mode: str, on_win: Fraction, stake: int) -> Fraction:
        if q or mode == "compare":
            return (on_win, Fraction(0), Fraction(-stake))[cmp]
        return on_win if mode == "win" else Fraction(0)

    total = part(pays.ante_when_dealer_does_not_qualify, ante_pay, 1) + \
        part(pays.bets_when_dealer_does_not_qualify, bet * pays.bet_win, bet)
    if pays.blind is not None:
        blind = (pays.blind.pay_of(name) if name is not None else None) or Fraction(0)
        total += (blind, Fraction(0), Fraction(-1))[cmp]
    return total


def paid_key(pays: MainPays, outcome: int, name: str) -> str:
    """The class a deal's units name (its own pay applied: the ante by hand, or the blind), else ""."""
    q, cmp = _won(pays, outcome)
    mode = pays.ante_when_dealer_does_not_qualify
    ante_won = (cmp == 0 and (q or mode == "compare")) or (not q and mode == "win")
    by, blind = pays.ante_win_by_hand, pays.blind
    if (ante_won and by is not None and by.paid_as(name)) or (cmp == 0 and blind is not None and blind.paid_as(name)):
        return name
    return ""


def _shown(pays: MainPays, name: str) -> str:
    """The pay a row's class is paid at, as its row shows it: the ante's by hand, the blind's, or both named."""
    by, blind = pays.ante_win_by_hand, pays.blind
    parts = [(label, table) for label, table in (("ante", by), ("blind", blind))
             if name and table is not None and table.paid_as(name)]
    return ", ".join((f"{label} " if blind is not None else "") + ratio_text(table.pay_of(name) or Fraction(0))
                     for label, table in parts)


def event(pays: MainPays, outcome: int, bet: int, name: str | None) -> str:
    """The row's outcome id: against a dealer who does not qualify, named apart where it changes the units."""
    q, cmp = _won(pays, outcome)
    if q:
        return ("win", "push", "lose")[cmp]
    if "compare" not in (pays.ante_when_dealer_does_not_qualify, pays.bets_when_dealer_does_not_qualify) and \
            pays.blind is None:
        return "dealer_not_qualified"
    base = ("win", "push", "lose")[cmp]
    same = net(pays, outcome, bet, name) == net(pays, outcome + 3, bet, name)
    return base if same else f"{base}_dealer_not_qualified"


@dataclass(frozen=True)
class Played:
    """Each decision's chosen action per state, and the deals by action."""

    actions: tuple[np.ndarray, ...]  # per decision (m_t,) int: FOLD, or the bet in antes (0: a check)
    bets: dict[int, np.ndarray]  # the bet made (0: none, to the showdown) -> (classes, 6) deals
    folded: np.ndarray  # (classes,) deals folded, by the final class they would have had
    reach: tuple[np.ndarray, ...]  # per decision (m_t,) the raw states of each class reached still deciding


def _nets(pays: MainPays, bets: set[int]) -> tuple[int, dict[int, np.ndarray]]:
    """The scale and, per bet, each (class, outcome)'s net in scaled integers."""
    table = {b: [[net(pays, o, b, n) for o in range(OUTCOMES)] for n in NAMES] for b in bets}
    scale = math.lcm(*(x.denominator for rows in table.values() for row in rows for x in row))
    return scale, {b: np.array([[int(x * scale) for x in row] for row in rows], dtype=np.int64)
                   for b, rows in table.items()}


def decide(counts: BoardCounts, pays: MainPays, decisions: list[Decision]) -> Played:
    """Every decision by backward induction (see the module's docstring), then the deals followed forward."""
    last = len(decisions) - 1
    scale, nets = _nets(pays, {b for d in decisions for b in d.bets})
    actions: list[np.ndarray] = [np.zeros(0, dtype=np.int64)] * len(decisions)
    value = np.zeros(0, dtype=np.int64)
    for t in range(last, -1, -1):
        n = counts.counts(t)
        options: list[np.ndarray] = []
        codes: list[int] = []
        if decisions[t].fold:
            options.append(np.full(len(n), -forced(pays) * counts.completions(t) * scale, dtype=np.int64))
            codes.append(FOLD)
        for b in sorted(decisions[t].bets):
            nxt = counts.levels[t].next
            options.append(value[nxt].sum(axis=1) if b == 0 and nxt is not None else (n * nets[b]).sum(axis=(1, 2)))
            codes.append(b)
        stacked = np.stack(options)
        best = np.argmax(stacked, axis=0)  # the first of equals: the smaller stake
        actions[t] = np.array(codes, dtype=np.int64)[best]
        value = np.take_along_axis(stacked, best[None, :], axis=0)[0]
    bets: dict[int, np.ndarray] = {}
    folded = np.zeros(len(NAMES), dtype=np.int64)
    empty = np.zeros((len(NAMES), OUTCOMES), dtype=np.int64)
    reach = [counts.levels[0].weights.astype(np.int64)]
    for t in range(len(decisions)):
        n, act, here = counts.counts(t), actions[t], reach[t]
        fold = act == FOLD
        folded += (here[fold][:, None] * n[fold].sum(axis=2)).sum(axis=0)
        for b in np.unique(act[~fold]).tolist():
            mine = act == b
            if b == 0 and t < last:
                continue  # a check: on to the next decision
            bets[b] = bets.get(b, empty) + (here[mine][:, None, None] * n[mine]).sum(axis=0)
        nxt = counts.levels[t].next
        if nxt is not None:
            grown = np.zeros(len(counts.levels[t + 1].weights), dtype=np.int64)
            going = act == 0
            np.add.at(grown, nxt[going].ravel(), np.repeat(here[going], nxt.shape[1]))
            reach.append(grown)
    return Played(tuple(actions), bets, folded, tuple(reach))


def main_rows(pays: MainPays, played: Played) -> list[Row]:
    """Every deal in one row: fold, or the bet and the outcome, split by the class whose own pay it is paid by."""
    grouped: dict[tuple[int, str, str], tuple[Fraction, int]] = {}
    for b, cells in played.bets.items():
        for c, name in enumerate(NAMES):
            for o in range(OUTCOMES):
                if cells[c, o]:
                    cell = (b, event(pays, o, b, name), paid_key(pays, o, name))
                    units = net(pays, o, b, name)
                    old = grouped.get(cell, (units, 0))
                    assert old[0] == units  # an id names one amount
                    grouped[cell] = (units, old[1] + int(cells[c, o]))
    sizes = sorted(played.bets)
    several = len(sizes) > 1
    paid = [n for n in NAMES if any(k == n for (_, _, k) in grouped)]
    plain = {"win", "push", "lose"} | ({"dealer_not_qualified"} if event(pays, NQ_WIN, 1, None) ==
                                       "dealer_not_qualified" else set())
    rows: list[Row] = []
    for b in sizes:
        for base, label in BASES:
            for key in (*paid, ""):
                units, n = grouped.get((b, base, key), (Fraction(0), 0))
                if not n and (key or base not in plain):
                    continue  # a class or an outcome the deals never meet
                if not n:
                    units = net(pays, {"dealer_not_qualified": NQ_WIN, "win": WIN, "push": WIN + 1,
                                       "lose": WIN + 2}[base], b, None)
                eid = base + (f"_{key}" if key else "") + (f"_{b}x" if several else "")
                text = label + (f", paid as {key.replace('_', ' ')}" if key else "") + (f", {b}x bet" if several
                                                                                        else "")
                rows.append(Row(eid, text, _shown(pays, key), units, n, Fraction(forced(pays) + b)))
    stake = forced(pays)
    rows.append(Row("fold", "Fold", "", Fraction(-stake), int(played.folded.sum()), Fraction(stake)))
    return rows


def main_wager(counts: BoardCounts, pays: MainPays, played: Played, title: str) -> WagerResult:
    """The ante (the blind where there is one) and the bet, per ante."""
    rows = main_rows(pays, played)
    folded = rows[-1].combinations
    blind = " and blind" if pays.blind is not None else ""
    return WagerResult(
        wager="main", title=f"{title} (ante{blind} and bet)", strategy="optimal", total_combinations=counts.total,
        rows=tuple(rows), unit="ante", stake_varies=True,
        extras={"play_frequency": Fraction(counts.total - folded, counts.total)},
        strategy_title="optimal: each decision by exact EV over the player's cards and the community cards seen",
        notes=(f"Units are net antes won (the ante{blind} and the bet); a class's own pay names the row it is paid "
               f"in{' (' + ratio_text(pays.ante_win) + ' otherwise)' if pays.ante_win_by_hand is not None else ''};"
               " between equal EVs the smaller stake is taken (a fold first, then a check).",))


def by_hand_section(counts: BoardCounts, played: Played, pays: MainPays) -> Section:
    """Per final class of the player's hand: the deals, the share played and its net return per ante."""
    deals = [int(x) for x in played.folded.tolist()]
    play = [0] * len(NAMES)
    units = [Fraction(-forced(pays) * x) for x in deals]
    for b, cells in played.bets.items():
        for c, name in enumerate(NAMES):
            for o in range(OUTCOMES):
                n = int(cells[c, o])
                deals[c] += n
                play[c] += n
                units[c] += n * net(pays, o, b, name)
    return return_by_hand(NAMES, deals, play, units, counts.total, ", the player's final hand, the community "
                                                                   "cards seen at each decision")


def _named(level: Level, i: int) -> str:
    """A state in words: the player's cards, and the board where there is one."""
    board = " with board " + cards_str(sorted(level.board[i].tolist(), reverse=True)) if level.board.size else ""
    return cards_str(sorted(level.hole[i].tolist(), reverse=True)) + board


def decisions(counts: BoardCounts, played: Played) -> tuple[Decisions, ...]:
    """Each decision's play at each state, named by its cards: play (else fold) where there is one decision, bet
    (else check or fold) at each of several."""
    out = []
    one = len(counts.levels) == 1
    for t, level in enumerate(counts.levels):
        act = played.actions[t]
        out.append(Decisions("play" if one else f"bet_{t + 1}",
                             "play (else fold), per suit pattern of the player's cards and the community cards seen"
                             if one else f"bet (else check or fold) at decision {t + 1}, per suit pattern of the "
                             "player's cards and the community cards seen",
                             act != FOLD if one else act > 0,
                             level.weights * (counts.total // int(level.weights.sum())),  # the deals through each
                             functools.partial(_named, level)))
    return tuple(out)
