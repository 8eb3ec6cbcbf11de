"""Counting a side bet on the first four cards (Lucky Nines): its exact EV from any shoe equals a plain brute force
over every ordered four of a small shoe's cards and the multinomial count of the nines; off the top it is the
report's figure; its removal effects balance exactly and agree with full recounts (card_count); a small study's
shoes replayed plainly give the same bets, winnings and exact EVs."""

from __future__ import annotations

import functools
import tomllib
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from oracles import baccarat_brute
from oracles.first_four_brute import brute_ev, nines_ev, units

from oddscalc.analysis import Session
from oddscalc.cards import RANK_CHARS
from oddscalc.catalog import tables_dir
from oddscalc.games.punto_banco.card_count import count_conditions
from oddscalc.games.punto_banco.coup_features import CELLS, features
from oddscalc.games.punto_banco.game import PuntoBancoRules, settle
from oddscalc.protection import counting, study
from oddscalc.protection.counting_cards import first_four_bets
from oddscalc.results import RunOptions

NINE = RANK_CHARS.index("9")


@functools.cache
def _rules(decks: int) -> PuntoBancoRules:
    rules = Session("punto-banco", RunOptions(brief=True, decks=decks)).resolve("lucky-nines")
    assert isinstance(rules, PuntoBancoRules)
    return rules


@functools.cache
def _bet() -> dict[str, Any]:
    data = tomllib.loads((tables_dir() / "punto-banco" / "lucky-nines.toml").read_text())
    bet: dict[str, Any] = data["pays"]["lucky_nines"]
    return bet


def _nines(copies: tuple[int, ...]) -> tuple[list[int], int]:
    nines = [copies[NINE * 4 + s] for s in range(4)]
    return nines, sum(copies) - sum(nines)


def test_the_ev_from_a_small_shoe_equals_every_ordered_four_of_its_cards() -> None:
    """10 cards: two nines of diamonds, one of each other suit, five others (5,040 ordered fours)."""
    shoe = [("9", 1), ("9", 1), ("9", 0), ("9", 2), ("9", 3), ("K", 0), ("2", 1), ("5", 2), ("T", 3), ("A", 0)]
    copies = [0] * 52
    for rank, suit in shoe:
        copies[RANK_CHARS.index(rank) * 4 + suit] += 1
    f = first_four_bets(_rules(1))["lucky_nines"]
    want = brute_ev(_bet(), shoe)
    assert f.ev(copies) == want == nines_ev(_bet(), [1, 2, 1, 1], 5)


def test_off_the_top_it_is_the_reports_figure() -> None:
    """8 decks: the study's EV of the full shoe is the report's exact EV (counted by card_count) and the
    multinomial count's."""
    rules = _rules(8)
    f = first_four_bets(rules)["lucky_nines"]
    report = next(w for w in Session("punto-banco", RunOptions(brief=True)).analyze("lucky-nines").wagers
                  if w.wager == "lucky_nines")
    assert f.ev(rules.cards.copies) == report.expected_value == nines_ev(_bet(), *_nines(rules.cards.copies))


def test_removal_effects_balance_exactly_and_equal_full_recounts() -> None:
    """One deck: the nine's effect is the mean over its suits of a full recount of the depleted shoe (card_count's
    pass by outcome and pattern, settled by the table); weighted by the cards, the effects add to exactly 0."""
    rules = _rules(1)
    fx = counting.removal_effects(rules)
    assert fx.wagers[-1] == "lucky_nines" and fx.balance("lucky_nines") == 0
    conditions = rules.model.pays.side_bets["lucky_nines"].card_conditions()

    def recount(copies: tuple[int, ...]) -> Fraction:
        got = count_conditions(copies, rules.drawing, False, conditions)
        w = next(w for w in settle(_cells(int(got[0].sum())), rules.model.pays, {"lucky_nines": got})
                 if w.wager == "lucky_nines")
        return w.expected_value

    base = recount(rules.cards.copies)
    assert base == fx.base["lucky_nines"]
    fewer = [tuple(n - (c == NINE * 4 + s) for c, n in enumerate(rules.cards.copies)) for s in range(4)]
    assert fx.effect["lucky_nines"][NINE] == sum(recount(x) - base for x in fewer) / 4  # a nine of each suit


def _cells(total: int) -> np.ndarray:
    """Cells holding every coup in one possible cell: the bet on the cards reads only their sum (its total)."""
    cells = np.zeros(CELLS, dtype=object)
    cells[int(np.flatnonzero(features().possible)[0])] = total
    return cells


def test_a_small_studys_shoes_replayed_plainly() -> None:
    """Two one-deck shoes bet on every coup: each coup's units from its own first four cards by the table's plain
    rules, its exact EV from the cards not seen by the multinomial count, summed per shoe."""
    rules = _rules(1)
    fx, fast = counting.removal_effects(rules), counting.coup_ev(rules)
    shoes, seed = 2, 7
    st = study.run(rules, fast, fx, "lucky_nines", shoes, study.Procedure(14, 1), seed, trigger=-1e9,
                   cards=first_four_bets(rules)["lucky_nines"])
    copies = rules.cards.copies
    won, expected, coups = [Fraction(0)] * shoes, [Fraction(0)] * shoes, 0
    for shoe in range(shoes):
        laid = np.roll(np.arange(52), 4)  # the unshuffled shoe: aces first, then 2..K
        order = [int(c) for c in np.random.default_rng((seed, shoe)).permutation(
            np.repeat(laid, np.asarray(copies)[laid]))]
        cards = [(RANK_CHARS[c // 4], c % 4) for c in order]
        unseen = Counter(order)
        i = 1  # one card burnt
        while len(order) - i > 14:
            nines = [unseen[NINE * 4 + s] for s in range(4)]
            expected[shoe] += nines_ev(_bet(), nines, sum(unseen.values()) - sum(nines))
            won[shoe] += units(_bet(), cards[i:i + 4])
            _, pn, _, bn = baccarat_brute.play([baccarat_brute.VALUE[r] for r, _ in cards[i:i + 6]], rules.model.rules)
            for c in order[i:i + pn + bn]:
                unseen[c] -= 1
            i += pn + bn
            coups += 1
    assert st.coups == coups
    play = st.plays[0]
    assert int(play.bets.sum()) == coups  # a trigger no count is below: every coup is bet
    assert [float(w) for w in play.won] == pytest.approx([float(w) for w in won], abs=1e-9)
    assert play.expected is not None
    assert [float(e) for e in play.expected] == pytest.approx([float(e) for e in expected], abs=1e-9)
