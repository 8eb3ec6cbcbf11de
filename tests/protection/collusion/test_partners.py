"""Caribbean Stud with partners' cards seen: each sampled situation settled exactly (against the plain
evaluator), seeing never hurting, and the ordinary column estimating the exact game."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from click.testing import CliRunner

from oddscalc.cards import reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.cli.main import EXIT_INPUT, main
from oddscalc.games.caribbean.count import dealer_counts_of
from oddscalc.games.caribbean.settle import pay_list, settle_counts
from oddscalc.games.caribbean.wagers import main_wager
from oddscalc.hands import HAND_CLASSES, HandClass, hand_value
from oddscalc.protection.collusion import caribbean as partners
from oddscalc.symmetry import suit_classes

PAYS = resolve_table("caribbean", "us").model.pays.main  # type: ignore[attr-defined]
DECK = reduced_deck("7", 2)  # 16 cards: the player, one partner, the up card and five left


@cache  # a reduced deck's few thousand hands are each met many times
def _key(hand: frozenset[int]) -> tuple[int, tuple[int, ...]]:
    cls, tie = hand_value(tuple(sorted(hand)))
    return 9 - HAND_CLASSES.index(cls), tie


def _plain(player: list[int], up: int, pool: list[int]) -> Fraction:
    def key(hand: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        return _key(frozenset(hand))

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


def test_the_caribbean_collusion_command_on_a_few_situations() -> None:
    # the fast tier's run of the command above: the same table and partners, five situations sampled, not forty
    r = CliRunner().invoke(main, ["collusion", "caribbean", "--partners", "6", "--situations", "5", "--table", "us"])
    assert r.exit_code == 0 and "| 6 | 5 |" in r.output and "exact EV is -5.2243%" in r.output, r.output


def test_every_situation_counted_against_a_plain_count_per_player_hand() -> None:
    deck = reduced_deck("T", 3)  # 15 cards: the player, one partner, the up card and four hole cards
    reps, _ = suit_classes(5, deck)
    for r in reps[:: max(1, len(reps) // 3)][:3]:
        player = [int(x) for x in r]
        got = partners.settle_rep(partners.Rep(deck, "ace-king", PAYS, 1, tuple(player), 1))
        rest = [c for c in deck.cards if c not in player]
        want = [Fraction(0), Fraction(0)]
        # the ordinary player's EV of raising sees his hand and the up card only: once per up card
        alone_of = {up: _plain(player, up, [c for c in rest if c != up]) for up in rest}
        for shown in itertools.combinations(rest, 5):
            for up in (c for c in rest if c not in shown):
                pool = [c for c in rest if c not in shown and c != up]
                raised = _plain(player, up, pool)
                alone = alone_of[up]
                want[0] += max(raised, Fraction(-1))
                want[1] += raised if alone > -1 else Fraction(-1)
        seen, ordinary = (tuple(tuple(int(x) for x in row) for row in got[k]) for k in (0, 1))
        ex = partners.Exact(1, seen, ordinary, tuple(pay_list(PAYS)))
        count = math.comb(10, 5) * 5
        assert (ex.ev(ex.seen), ex.ev(ex.ordinary)) == (want[0] / count, want[1] / count), player


def test_every_situation_counted_gives_the_game_to_the_unit_for_the_ordinary_player() -> None:
    deck = reduced_deck("T", 3)
    ex = partners.exact(deck, "ace-king", PAYS, 1)
    rt = dealer_counts_of(deck, "ace-king").table()
    game = main_wager(rt, PAYS, settle_counts(rt, PAYS, closest=False)).expected_value
    assert ex.ev(ex.ordinary) == game and ex.ev(ex.seen) > game
    assert sum(map(sum, ex.seen)) == sum(map(sum, ex.ordinary)) == partners.situations(15, 1)
    r = CliRunner().invoke(main, ["collusion", "caribbean", "--exact", "--reduced-deck", "8:3"])
    assert r.exit_code == EXIT_INPUT and "core-hours; run it on a cluster" in r.output


def test_an_exact_count_too_large_for_one_machine_is_refused() -> None:
    # the fast tier's case of the refusal above (whose exact count of every situation is deep): 20 cards, about
    # 2,000 core-seconds, on a deck whose ordinary game is counted in a moment
    r = CliRunner().invoke(main, ["collusion", "caribbean", "--exact", "--reduced-deck", "T:4"])
    assert r.exit_code == EXIT_INPUT and "core-hours; run it on a cluster" in r.output, r.output


@pytest.mark.deep  # the same count as the test above, through the command
def test_the_exact_collusion_command_reports_every_situation() -> None:
    r = CliRunner().invoke(main, ["collusion", "caribbean", "--exact", "--reduced-deck", "T:3", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["sections"]["partners_seen_exact"]["rows"][0]["deals"] == 3783780


def test_a_deck_too_small_for_the_hands_is_refused() -> None:
    for extra in (["--exact"], ["--partners", "6"]):
        r = CliRunner().invoke(main, ["collusion", "caribbean", "--reduced-deck", "2:1", *extra])
        assert r.exit_code == EXIT_INPUT and "too small" in r.output, r.output
