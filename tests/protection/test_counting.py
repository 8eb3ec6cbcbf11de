"""Card counting: removal effects that balance exactly, the per-coup EV against a full recount of the
same depleted shoe, and a counting study whose always-bet play lands on the exact edge."""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from oracles import baccarat_brute
from oracles.house_brute import VALUE, brute_one

from oddscalc.analysis import Session
from oddscalc.cards import RANK_CHARS
from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_INPUT
from oddscalc.games.house_baccarat.count import HouseBaccaratRules
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.punto_banco.coup_features import Cards, count_cells
from oddscalc.games.punto_banco.game import PuntoBancoRules, settle
from oddscalc.protection import counting, study
from oddscalc.protocol import OptionError


def _rules(sessions: Callable[[str], Session], table: str) -> PuntoBancoRules:
    rules = sessions("punto-banco").resolve(table)
    assert isinstance(rules, PuntoBancoRules)
    return rules


@pytest.fixture(scope="module")
def dragon(sessions: Callable[[str], Session]) -> PuntoBancoRules:
    return _rules(sessions, "dragon-bonus")


def _recount(cards: Cards, rules: PuntoBancoRules) -> dict[str, Fraction]:
    return {w.wager: w.expected_value for w in settle(count_cells(cards, rules.drawing), rules.model.pays)}


def test_removal_effects_balance_exactly(dragon: PuntoBancoRules, sessions: Callable[[str], Session]) -> None:
    fx = counting.removal_effects(dragon)
    assert set(fx.wagers) == {"banker", "player", "tie", "dragon_bonus_player", "dragon_bonus_banker"}
    assert all(fx.balance(w) == 0 for w in fx.wagers)  # burning a random card changes nothing
    assert fx.base == _recount(dragon.cards, dragon)
    for rank in (0, 9):  # the ace, and the ten for every card worth 0: against a recount of the depleted shoe
        depleted = _recount(counting._without(dragon.cards, rank), dragon)
        assert {w: fx.base[w] + fx.effect[w][rank] for w in fx.wagers} == depleted
    pairs = counting.removal_effects(_rules(sessions, "standard"))
    assert set(pairs.effect["player_pair"]) == {0}  # every rank alike: one card cannot tilt a pair bet
    notes = " ".join(counting.tags_section(fx).notes)
    for w in fx.wagers:
        tags = counting.balanced_tags(fx.effect[w], fx.cards)
        assert sum(n * t for n, t in zip(fx.cards, tags)) == 0 and max(map(abs, tags)) <= 4
        # the printed betting correlation, against numpy's with the cards as frequency weights
        cov = np.cov(np.array([[float(e) for e in fx.effect[w]], tags]), fweights=list(fx.cards))
        assert f"{w} {cov[0, 1] / math.sqrt(cov[0, 0] * cov[1, 1]):.4f}" in notes


@pytest.mark.deep  # about 0.8 s a rank
@pytest.mark.parametrize("rank", range(1, 9))
def test_every_other_ranks_removal_effect_against_a_recount(dragon: PuntoBancoRules, rank: int) -> None:
    fx = counting.removal_effects(dragon)
    depleted = _recount(counting._without(dragon.cards, rank), dragon)
    assert {w: fx.base[w] + fx.effect[w][rank] for w in fx.wagers} == depleted


@pytest.mark.parametrize("seed", [1, 2])
def test_the_per_coup_ev_equals_a_full_recount_of_the_depleted_shoe(dragon: PuntoBancoRules, seed: int) -> None:
    rng = random.Random(seed)
    copies = list(dragon.cards.copies)
    for _ in range(rng.randrange(50, 300)):  # a shoe part dealt, unevenly
        c = rng.randrange(len(copies))
        copies[c] -= bool(copies[c])
    depleted = Cards(tuple(copies))
    fast = counting.coup_ev(dragon)
    assert not fast.uncovered
    assert fast.ev(counting.with_ranks(depleted)) == _recount(depleted, dragon)


def test_a_study_that_always_bets_lands_on_the_exact_edge(dragon: PuntoBancoRules) -> None:
    fx = counting.removal_effects(dragon)
    st = study.run(dragon, counting.coup_ev(dragon), fx, "banker", 30, Fraction(4, 5), 11, trigger=-1e9)
    always = study.section(st).records()[0]
    assert always["bets"] == st.coups  # a trigger no count is below: every coup is bet
    edge, half = Fraction(always["edge"]), Fraction(always["edge_ci"])  # type: ignore[arg-type]
    assert abs(edge - fx.base["banker"]) < half
    again = study.run(dragon, counting.coup_ev(dragon), fx, "banker", 30, Fraction(4, 5), 11, trigger=-1e9)
    assert (again.plays[0].won == st.plays[0].won).all()  # the seed decides every shoe


def test_a_studys_shoes_replayed_plainly(dragon: PuntoBancoRules) -> None:
    """Each shoe of a study dealt again from its stream and played as the table reads (baccarat_brute's coup and
    settlement): the bets and winnings of both plays, the count's at its trigger and the exact EV's above 0."""
    fx, fast = counting.removal_effects(dragon), counting.coup_ev(dragon)
    wager = "dragon_bonus_player"
    shoes, dealt = 4, Fraction(7, 8)
    st = study.run(dragon, fast, fx, wager, shoes, dealt, 5, trigger=1.0)
    assert all(0 < p.bets.sum() < st.coups for p in st.plays)  # each play bets some coups, not all
    copies = dragon.cards.copies
    bets = [[0] * shoes for _ in st.plays]
    won = [[Fraction(0)] * shoes for _ in st.plays]
    for shoe in range(shoes):
        laid = np.roll(np.arange(52), 4)  # the unshuffled shoe: aces first, then 2..K
        shoe_laid = np.repeat(laid, np.asarray(copies)[laid])
        order = [int(c) for c in np.random.default_rng((5, shoe)).permutation(shoe_laid)]
        cards = [(RANK_CHARS[c // 4], c % 4) for c in order]  # a card is 4 x rank + suit, as cards.card
        left, i, running = [0] * 13, 0, 0
        for c in order:
            left[c // 4] += 1
        stop = len(order) - int(len(order) * dealt)
        while len(order) - i > max(stop, 6):
            ev = fast.ev(left)[wager]
            true_count = running / ((len(order) - i) / 52)
            six = cards[i:i + 6]
            pt, pn, bt, bn = baccarat_brute.play([baccarat_brute.VALUE[r] for r, _ in six], dragon.model.rules)
            (r1, s1), (r2, s2), (r3, s3), (r4, s4) = six[:4]
            coup = (pt, pn, bt, bn, r1 == r3, s1 == s3, r2 == r4, s2 == s4)
            (units,) = baccarat_brute.settle_by_hand(Counter({coup: 1}), dragon.model.pays)[wager]
            for k, bet in enumerate((true_count >= st.trigger, ev > 0)):
                bets[k][shoe] += bet
                won[k][shoe] += units * bet
            for c in order[i:i + pn + bn]:
                left[c // 4] -= 1
                running += st.tags[c // 4]
            i += pn + bn
    for k, play in enumerate(st.plays):
        assert [int(b) for b in play.bets] == bets[k]
        assert [float(w) for w in play.won] == pytest.approx([float(w) for w in won[k]], abs=1e-9)


def test_counting_needs_a_finite_shoe_and_a_covered_wager(sessions: Callable[[str], Session]) -> None:
    with pytest.raises(OptionError, match="infinite shoe"):
        counting.removal_effects(_rules(sessions, "infinite"))
    r = CliRunner().invoke(main, ["counting", "punto-banco", "--wager", "dragon_7"])
    assert r.exit_code == EXIT_INPUT and "'dragon_7' is not one of them (banker, player, tie" in r.output
    r = CliRunner().invoke(main, ["counting", "punto-banco", "--table", "dragon-bonus", "--format", "json",
                                  "--wager", "dragon_bonus_player", "--shoes", "3"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)["sections"]
    assert set(data) == {"removal_effects", "count_tags", "counting_study_dragon_bonus_player"}


def test_a_study_deals_the_same_shoes_however_it_is_split(dragon: PuntoBancoRules) -> None:
    fx = counting.removal_effects(dragon)
    fast = counting.coup_ev(dragon)
    runs = [study.run(dragon, fast, fx, "dragon_bonus_player", 6, Fraction(1, 2), 5, chunk=k) for k in (1, 4, 6)]
    for other in runs[1:]:
        assert other.coups == runs[0].coups
        assert all((a.won == b.won).all() and (a.bets == b.bets).all() for a, b in zip(other.plays, runs[0].plays))


def test_the_house_games_removal_effects_balance_exactly(sessions: Callable[[str], Session]) -> None:
    s = sessions("house-baccarat")
    rules = s.resolve("seed")
    assert isinstance(rules, HouseBaccaratRules)
    fx = counting.house_effects(rules)
    assert fx.base["house_game"] == s.analyze("seed").wager("main").expected_value  # the one-seat optimum
    assert fx.balance("house_game") == 0  # the full shoe's play held fixed: burning a card changes nothing
    tens = slice(RANK_CHARS.index("T"), RANK_CHARS.index("K") + 1)
    assert len(set(fx.effect["house_game"][tens])) == 1  # T, J, Q and K are all worth 0


def _house_rules(sessions: Callable[[str], Session]) -> HouseBaccaratRules:
    rules = sessions("house-baccarat").resolve("seed")
    assert isinstance(rules, HouseBaccaratRules)
    return rules


def test_the_house_games_per_coup_ev_against_a_brute_force_and_a_full_recount(
        sessions: Callable[[str], Session]) -> None:
    from oddscalc.games.house_baccarat.count import LOSS, WIN, seat_counts
    from oddscalc.games.house_baccarat.settle import seat_ev
    from oddscalc.games.house_baccarat.table import TableRules
    from oddscalc.protection import house_study

    rules = _house_rules(sessions)
    fast = house_study.coup_ev(rules)
    assert fast.ev(rules.shoe.counts)[0] == Fraction(317218834208, 2789284751955)  # the one-seat report
    ranks = list("AA3567QK9")  # nine cards: every ordered deal, both choices, played plainly
    tally = brute_one(ranks, TableRules(house_tableau=rules.house_tableau,
                                        house_draws_when_all_stand=rules.all_stand))  # type: ignore[arg-type]
    net = {(u, w, a): sum(rules.pay * n if o == WIN else -n if o == LOSS else 0
                          for (x, y, b, o), n in tally.items() if (x, y, b) == (u, w, a))
           for u in range(10) for w in range(10) for a in (0, 1)}
    best = sum(max(net[u, w, 0] + net[w, u, 0], net[u, w, 1] + net[w, u, 1]) * (Fraction(1, 2) if u == w else 1)
               for u in range(10) for w in range(u, 10))
    values = [sum(VALUE[r] == v for r in ranks) for v in range(10)]
    assert fast.ev(values)[0] == best / math.perm(len(ranks), 6)
    copies = list(rules.shoe.counts)
    rng = random.Random(3)
    for _ in range(150):  # a shoe part dealt: the chart's EV against a full count of that shoe
        v = rng.randrange(10)
        copies[v] -= bool(copies[v])
    depleted = dataclasses.replace(rules.shoe, counts=tuple(copies))
    sc = seat_counts(depleted, 1, Strategy.by_totals("stand", []), rules.house_tableau, rules.all_stand, False)
    chart = Strategy.of("chart", fast.chart.reshape(10, 10).astype(bool))
    assert fast.ev(copies)[1] == seat_ev(sc, chart, rules.pay)


def test_the_house_game_study_deals_the_same_shoes_however_it_is_split(sessions: Callable[[str], Session]) -> None:
    from oddscalc.protection import house_study

    rules = _house_rules(sessions)
    fx = counting.house_effects(rules)
    runs = [house_study.run(rules, fx, 4, Fraction(1, 2), 9, chunk=k) for k in (1, 3)]
    assert runs[0].coups == runs[1].coups > 0
    assert all((a.won == b.won).all() and (a.bets == b.bets).all() for a, b in zip(*(r.plays for r in runs)))
    always = house_study.run(rules, fx, 4, Fraction(1, 2), 9, trigger=-1e9)
    assert int(always.plays[0].bets.sum()) == always.coups  # a trigger no count is below: every coup is bet
    r = CliRunner().invoke(main, ["counting", "house-baccarat", "--wager", "house_game", "--shoes", "2",
                                  "--format", "json"])
    assert r.exit_code == 0 and "counting_study_house_game" in json.loads(r.output)["sections"], r.output
    r = CliRunner().invoke(main, ["counting", "house-baccarat", "--wager", "dragon_7"])
    assert r.exit_code == EXIT_INPUT and "--wager house_game" in r.output
