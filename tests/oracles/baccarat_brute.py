"""Plain brute force for punto banco: every ordered six-card sequence of actual cards, played as the
rules read, and wagers settled one coup at a time. Shares no code with the engine, except
:func:`by_coup`, which reads the engine's cell layout to compare with it."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from oddscalc.games.punto_banco.coup_features import features

VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0}

# (punto total, punto cards, banca total, banca cards, punto pair, punto suited, banca pair, banca suited)
Coup = tuple[int, int, int, int, bool, bool, bool, bool]
Card = tuple[str, int]  # rank letter, suit


def play(vals: Sequence[int], rules: Any) -> tuple[int, int, int, int]:
    """Six point values dealt punto, banca, punto, banca, fifth, sixth: the final totals and card counts."""
    p1, b1, p2, b2, c5, c6 = vals
    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
    pn = bn = 2
    if pt >= 8 or (bt >= 8 and rules.banca_natural_stops_punto):
        return pt, pn, bt, bn
    third = None
    nxt = c5
    if pt in rules.punto_draws_on:
        third = c5
        pt, pn, nxt = (pt + c5) % 10, 3, c6
    if bt < 8:
        draws = bt in rules.banca_draws_when_punto_stands if third is None else rules.banca_tableau[bt][third] == "D"
        if draws:
            bt, bn = (bt + nxt) % 10, 3
    return pt, pn, bt, bn


def coups(cards: Sequence[Card], rules: Any) -> Counter[Coup]:
    """Every ordered six-card sequence of the physical cards (a repeated card is two cards)."""
    out: Counter[Coup] = Counter()
    vals = [VALUE[r] for r, _ in cards]
    for seq in itertools.permutations(range(len(cards)), 6):
        pt, pn, bt, bn = play([vals[i] for i in seq], rules)
        (r1, s1), (r2, s2), (r3, s3), (r4, s4) = (cards[i] for i in seq[:4])
        out[(pt, pn, bt, bn, r1 == r3, s1 == s3, r2 == r4, s2 == s4)] += 1
    return out


def coups_with_replacement(cards: Sequence[Card], rules: Any) -> Counter[Coup]:
    """Every sequence of six draws with replacement, each card equally likely."""
    out: Counter[Coup] = Counter()
    vals = [VALUE[r] for r, _ in cards]
    for seq in itertools.product(range(len(cards)), repeat=6):
        pt, pn, bt, bn = play([vals[i] for i in seq], rules)
        (r1, s1), (r2, s2), (r3, s3), (r4, s4) = (cards[i] for i in seq[:4])
        out[(pt, pn, bt, bn, r1 == r3, s1 == s3, r2 == r4, s2 == s4)] += 1
    return out


def features_of(c: Coup) -> dict[str, object]:
    """The coup's features by the names a table uses."""
    pt, pn, bt, bn, ppair, psuit, bpair, bsuit = c
    pnat, bnat = pn == 2 and pt >= 8, bn == 2 and bt >= 8
    return {"winner": "player" if pt > bt else "banker" if bt > pt else "tie",
            "player_total": pt, "banker_total": bt, "player_cards": pn, "banker_cards": bn, "cards": pn + bn,
            "margin": abs(pt - bt), "player_natural": pnat, "banker_natural": bnat, "natural": pnat or bnat,
            "player_pair": ppair, "banker_pair": bpair, "player_suited": psuit, "banker_suited": bsuit}


def holds(when: Mapping[str, Sequence[object]], feats: Mapping[str, object]) -> bool:
    """Every condition: the feature has one of the values listed."""
    return all(feats[name] in values for name, values in when.items())


def units(pay: Fraction | str, keep: Fraction = Fraction(1)) -> Fraction:
    """Net units of a pay, a winning ratio reduced by the commission ``keep``."""
    if pay == "push":
        return Fraction(0)
    if pay == "lose":
        return Fraction(-1)
    assert isinstance(pay, Fraction)
    return pay * keep


def settle_by_hand(tally: Counter[Coup], pays: Any) -> dict[str, Counter[Fraction]]:
    """Each wager's net units by combinations, one coup at a time, straight from the table's words."""
    out: dict[str, Counter[Fraction]] = {}
    b = pays.banker
    keep = 1 - b.commission
    for c, n in tally.items():
        f = features_of(c)
        won = f["winner"]
        units_by: dict[str, Fraction] = {}
        for name, bet, k in (("banker", b, keep), ("player", pays.player, Fraction(1))):
            rule = next((r for r in bet.rules if holds(r.when, f)), None)
            if rule is not None:
                units_by[name] = units(rule.pays, k)
            elif won == name:
                units_by[name] = bet.win * k
            elif won == "tie":
                units_by[name] = Fraction(0) if bet.tie == "push" else Fraction(-1)
            else:
                units_by[name] = Fraction(-1)
        rule = next((r for r in pays.tie.rules if holds(r.when, f)), None)
        units_by["tie"] = units(rule.pays) if rule else pays.tie.win if won == "tie" else Fraction(-1)
        for name, side in pays.side_bets.items():
            rule = next((r for r in side.rules if holds(r.when, f)), None)
            units_by[name] = units(rule.pays) if rule else units(side.otherwise.pays)
        for k2, u in units_by.items():
            out.setdefault(k2, Counter())[u] += n
    return out


def by_coup(cells: np.ndarray) -> Counter[Coup]:
    """The engine's cell counts keyed as this module keys a coup."""
    f = features()
    out: Counter[Coup] = Counter()
    for k in np.flatnonzero(cells != 0).tolist():
        out[(int(f.player_total[k]), int(f.player_cards[k]), int(f.banker_total[k]), int(f.banker_cards[k]),
             bool(f.player_pair[k]), bool(f.player_suited[k]), bool(f.banker_pair[k]),
             bool(f.banker_suited[k]))] += int(cells[k])
    return out
