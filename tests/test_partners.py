"""Caribbean Stud with partners' cards seen: each sampled situation settled exactly (against the plain
evaluator), seeing never hurting, and the ordinary column estimating the exact game."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from click.testing import CliRunner

from oddscalc import partners
from oddscalc.cards import reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.cli import main
from oddscalc.games.caribbean import dealer_counts_of, main_wager, settle_counts
from oddscalc.hands import HAND_CLASSES, HandClass, hand_value

PAYS = resolve_table("caribbean", "us").model.pays.main  # type: ignore[attr-defined]
DECK = reduced_deck("7", 2)  # 16 cards: the player, one partner, the up card and five left


def _plain(player: list[int], up: int, pool: list[int]) -> Fraction:
    def key(hand: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        cls, tie = hand_value(hand)
        return 9 - HAND_CLASSES.index(cls), tie

    ak = (9 - HAND_CLASSES.index(HandClass.HIGH_CARD), (12, 11))
    p = key(tuple(player))
    cls, _ = hand_value(tuple(player))
    pay = getattr(PAYS, cls.value) if cls != HandClass.HIGH_CARD else PAYS.high_card
    total, n = Fraction(0), 0
    for holes in itertools.combinations(pool, 4):
        d = key((up, *holes))
        total += 1 if d < ak else (1 + 2 * pay) if p > d else 0 if p == d else -3
        n += 1
    return total / n


def test_each_situation_is_settled_exactly() -> None:
    t = partners._Table(DECK, "ace-king", PAYS)
    rng = np.random.default_rng(3)
    for _ in range(20):
        order = rng.permutation(np.array(DECK.cards))
        player, up, pool = order[:5], int(order[5]), order[11:]
        assert t.outcome(player, up, pool)[0] == _plain(player.tolist(), up, pool.tolist())


def test_seeing_never_hurts_and_the_ordinary_column_estimates_the_game() -> None:
    s = partners.sample(DECK, "ace-king", PAYS, 1, 400, 11)
    assert (s.seen >= s.ordinary).all()
    rt = dealer_counts_of(DECK, "ace-king").table()
    exact = main_wager(rt, PAYS, settle_counts(rt, PAYS, closest=False)).expected_value
    mean, half = s.interval(s.ordinary)
    assert abs(mean - float(exact)) < half  # unseen cards change nothing: an unbiased estimate


def test_the_caribbean_collusion_command() -> None:
    r = CliRunner().invoke(main, ["collusion", "caribbean", "--partners", "6", "--situations", "40", "--table", "us"])
    assert r.exit_code == 0 and "| 6 | 40 |" in r.output and "exact EV is -5.2243%" in r.output, r.output
