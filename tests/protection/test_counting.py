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


def _effects_balance_and_tags_are_balanced(dragon: PuntoBancoRules,
                                           sessions: Callable[[str], Session]) -> counting.Effects:
    fx = counting.removal_effects(dragon)
    assert set(fx.wagers) == {"banker", "player", "tie", "dragon_bonus_player", "dragon_bonus_banker"}
    assert all(fx.balance(w) == 0 for w in fx.wagers)  # burning a random card changes nothing
    pairs = counting.removal_effects(_rules(sessions, "standard"))
    assert set(pairs.effect["player_pair"]) == {0}  # every rank alike: one card cannot tilt a pair bet
    notes = " ".join(counting.tags_section(fx).notes)
    for w in fx.wagers:
        tags = counting.balanced_tags(fx.effect[w], fx.cards)
        assert sum(n * t for n, t in zip(fx.cards, tags)) == 0 and max(map(abs, tags)) <= 4
        # the printed betting correlation, against numpy's with the cards as frequency weights
        cov = np.cov(np.array([[float(e) for e in fx.effect[w]], tags]), fweights=list(fx.cards))
        assert f"{w} {cov[0, 1] / math.sqrt(cov[0, 0] * cov[1, 1]):.4f}" in notes
    return fx


def test_removal_effects_balance_exactly(dragon: PuntoBancoRules, sessions: Callable[[str], Session]) -> None:
    fx = _effects_balance_and_tags_are_balanced(dragon, sessions)
    assert fx.base == _recount(dragon.cards, dragon)
    for rank in (0, 9):  # the ace, and the ten for every card worth 0: against a recount of the depleted shoe
        depleted = _recount(counting._without(dragon.cards, rank), dragon)
        assert {w: fx.base[w] + fx.effect[w][rank] for w in fx.wagers} == depleted


def test_removal_effects_balance_and_their_tags_are_balanced(dragon: PuntoBancoRules,
                                                             sessions: Callable[[str], Session]) -> None:
    # the fast tier's case of the test above, without its three recounts of a whole shoe: each effect is the
    # per-coup EV of the shoe less one card, which test_the_per_coup_ev_equals_a_full_recount_of_the_depleted_shoe
    # checks against a recount of shoes dealt unevenly
    _effects_balance_and_tags_are_balanced(dragon, sessions)


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
    st = study.run(dragon, counting.coup_ev(dragon), fx, "banker", 30, study.Procedure(14, 1), 11, trigger=-1e9)
    always = study.section(st).records()[0]
    assert always["bets"] == st.coups  # a trigger no count is below: every coup is bet
    edge, half = Fraction(always["edge"]), Fraction(always["edge_ci"])  # type: ignore[arg-type]
    assert abs(edge - fx.base["banker"]) < half
    again = study.run(dragon, counting.coup_ev(dragon), fx, "banker", 30, study.Procedure(14, 1), 11, trigger=-1e9)
    assert (again.plays[0].won == st.plays[0].won).all()  # the seed decides every shoe


# (procedure, cut card as a number of cards or a share dealt, burn: a number or "turn", coups after the cut card)
PROCEDURES: dict[str, tuple[study.Procedure, int | Fraction, int | str, int]] = {
    "penetration 7/8, as before": (study.Procedure.penetration(Fraction(7, 8)), Fraction(7, 8), 0, 0),
    "cut card 14, one burnt": (study.Procedure(14, 1), 14, 1, 0),
    "cut card 20, turn and burn, one coup more": (study.Procedure(20, None, 1), 20, "turn", 1),
}


@pytest.mark.parametrize("case", sorted(PROCEDURES))
def test_a_studys_shoes_replayed_plainly(dragon: PuntoBancoRules, case: str) -> None:
    """Each shoe of a study dealt again from its stream by the procedure stated and played as the table reads
    (baccarat_brute's coup and settlement): the bets, winnings and squared winnings of both plays, the count's at its
    trigger and the exact EV's above 0, knowing only the cards turned up (burnt cards are never seen)."""
    procedure, cut_card, burn, after_cut = PROCEDURES[case]
    fx, fast = counting.removal_effects(dragon), counting.coup_ev(dragon)
    wager = "dragon_bonus_player"
    shoes = 4
    st = study.run(dragon, fast, fx, wager, shoes, procedure, 5, trigger=1.0)
    assert all(0 < p.bets.sum() < st.coups for p in st.plays)  # each play bets some coups, not all
    copies = dragon.cards.copies
    bets = [[0] * shoes for _ in st.plays]
    won = [[Fraction(0)] * shoes for _ in st.plays]
    squares = [[Fraction(0)] * shoes for _ in st.plays]
    coups = 0
    for shoe in range(shoes):
        laid = np.roll(np.arange(52), 4)  # the unshuffled shoe: aces first, then 2..K
        shoe_laid = np.repeat(laid, np.asarray(copies)[laid])
        order = [int(c) for c in np.random.default_rng((5, shoe)).permutation(shoe_laid)]
        cards = [(RANK_CHARS[c // 4], c % 4) for c in order]  # a card is 4 x rank + suit, as cards.card
        unseen, running = Counter(c // 4 for c in order), 0
        if burn == "turn":  # the first card shown, then as many burnt face down as it counts (a ten or face: 10)
            unseen[order[0] // 4] -= 1
            running += st.tags[order[0] // 4]
            i = 1 + (baccarat_brute.VALUE[cards[0][0]] or 10)
        else:
            i = int(burn)
        behind = len(order) - int(len(order) * cut_card) if isinstance(cut_card, Fraction) else cut_card
        extra = after_cut
        while len(order) - i > 6:
            if len(order) - i <= behind:  # the cut card is out: only the coups due after it
                if not extra:
                    break
                extra -= 1
            ev = fast.ev([unseen[r] for r in range(13)])[wager]
            true_count = running / (sum(unseen.values()) / 52)
            six = cards[i:i + 6]
            pt, pn, bt, bn = baccarat_brute.play([baccarat_brute.VALUE[r] for r, _ in six], dragon.model.rules)
            (r1, s1), (r2, s2), (r3, s3), (r4, s4) = six[:4]
            coup = (pt, pn, bt, bn, r1 == r3, s1 == s3, r2 == r4, s2 == s4)
            (units,) = baccarat_brute.settle_by_hand(Counter({coup: 1}), dragon.model.pays)[wager]
            for k, bet in enumerate((true_count >= st.trigger, ev > 0)):
                bets[k][shoe] += bet
                won[k][shoe] += units * bet
                squares[k][shoe] += units * units * bet
            for c in order[i:i + pn + bn]:
                unseen[c // 4] -= 1
                running += st.tags[c // 4]
            i += pn + bn
            coups += 1
    assert st.coups == coups
    for k, play in enumerate(st.plays):
        assert [int(b) for b in play.bets] == bets[k]
        assert [float(w) for w in play.won] == pytest.approx([float(w) for w in won[k]], abs=1e-9)
        assert [float(w) for w in play.squares] == pytest.approx([float(w) for w in squares[k]], abs=1e-9)


def test_counting_needs_a_finite_shoe_and_a_covered_wager(sessions: Callable[[str], Session]) -> None:
    with pytest.raises(OptionError, match="infinite shoe"):
        counting.removal_effects(_rules(sessions, "infinite"))
    r = CliRunner().invoke(main, ["counting", "punto-banco", "--wager", "dragon_7"])
    assert r.exit_code == EXIT_INPUT and "'dragon_7' is not one of them (banker, player, tie" in r.output
    r = CliRunner().invoke(main, ["counting", "punto-banco", "--table", "dragon-bonus", "--format", "json",
                                  "--wager", "dragon_bonus_player", "--shoes", "3"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)["sections"]
    assert set(data) == {"removal_effects", "count_tags", "counting_study_dragon_bonus_player",
                         "counting_metrics_dragon_bonus_player", "counting_expected_dragon_bonus_player"}


def test_a_study_deals_the_same_shoes_however_it_is_split(dragon: PuntoBancoRules) -> None:
    fx = counting.removal_effects(dragon)
    fast = counting.coup_ev(dragon)
    runs = [study.run(dragon, fast, fx, "dragon_bonus_player", 6, study.Procedure(200), 5, chunk=k) for k in (1, 4, 6)]
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
    runs = [house_study.run(rules, fx, 4, study.Procedure(200), 9, chunk=k) for k in (1, 3)]
    assert runs[0].coups == runs[1].coups > 0
    assert all((a.won == b.won).all() and (a.bets == b.bets).all() for a, b in zip(*(r.plays for r in runs)))
    always = house_study.run(rules, fx, 4, study.Procedure(200), 9, trigger=-1e9)
    assert int(always.plays[0].bets.sum()) == always.coups  # a trigger no count is below: every coup is bet
    r = CliRunner().invoke(main, ["counting", "house-baccarat", "--wager", "house_game", "--shoes", "2",
                                  "--format", "json"])
    assert r.exit_code == 0 and "counting_study_house_game" in json.loads(r.output)["sections"], r.output
    r = CliRunner().invoke(main, ["counting", "house-baccarat", "--wager", "dragon_7"])
    assert r.exit_code == EXIT_INPUT and "--wager house_game" in r.output


def test_the_metrics_are_the_studys_win_and_variance_worked_by_hand(sessions: Callable[[str], Session]) -> None:
    """DI, SCORE, N0 and the risk of ruin of each play against arithmetic done here on the study's own totals (exact
    units: dragon_7 pays 40 to 1), each checked by what it means as well as by its formula."""
    ez = _rules(sessions, "ez-baccarat")
    st = study.run(ez, counting.coup_ev(ez), counting.removal_effects(ez), "dragon_7", 12, study.Procedure(14, 1), 3)
    section = study.metrics_section(st, 500).records()
    for play, shown in zip(st.plays, section):
        total, squares = Fraction(int(play.won.sum())), Fraction(int(play.squares.sum()))
        assert total == Fraction(play.won.sum()) and squares == Fraction(play.squares.sum())  # whole units
        w = total / st.coups
        v = squares / st.coups - w * w
        m = study.metrics(play, st.coups)
        assert m.win == pytest.approx(float(w), rel=1e-12) and m.variance == pytest.approx(float(v), rel=1e-12)
        sd = math.sqrt(v)
        assert m.di == pytest.approx(1000 * float(w) / sd, rel=1e-12)
        if w > 0:
            # SCORE: stake k units a bet so that 10,000 units are ruined with chance e^-2; win per 100 coups
            k = 10_000 * w / v
            assert math.exp(-2 * float(k * w) * 10_000 / float(k * k * v)) == pytest.approx(math.exp(-2))
            assert m.score == pytest.approx(float(100 * k * w), rel=1e-12) == pytest.approx(m.di**2, rel=1e-12)
            # N0: after N0 coups the expected win is one standard deviation of the total
            assert float(m.n0 * w) == pytest.approx(math.sqrt(m.n0 * v), rel=1e-12)
            assert m.ruin(500) == pytest.approx(math.exp(-1000 * float(w / v)), rel=1e-12)
            assert shown["n0"] == round(float(v / (w * w)))
        else:
            assert (m.score, m.n0, m.ruin(500)) == (0.0, math.inf, 1.0) and shown["n0"] is None
        assert float(shown["di"]) == pytest.approx(m.di, abs=1e-8)  # type: ignore[arg-type]
        per_shoe = [float(x) for x in play.won]
        mean = sum(per_shoe) / len(per_shoe)
        spread = math.sqrt(sum((x - mean) ** 2 for x in per_shoe) / (len(per_shoe) - 1))
        half = 1.959963984540054 * spread / math.sqrt(st.shoes) * st.shoes / st.coups  # W's half-width per coup
        assert float(shown["di_ci"]) == pytest.approx(1000 * half / sd, abs=1e-8)  # type: ignore[arg-type]
        assert float(shown["win_100"]) == pytest.approx(100 * float(w), abs=1e-8)  # type: ignore[arg-type]


def test_the_procedure_is_stated_and_checked(dragon: PuntoBancoRules) -> None:
    fx, fast = counting.removal_effects(dragon), counting.coup_ev(dragon)
    with pytest.raises(OptionError, match="would deal no coup; at most 399 cards behind the cut card"):
        study.run(dragon, fast, fx, "banker", 1, study.Procedure(400, 11), 1)
    with pytest.raises(OptionError, match="--penetration is the share"):
        study.Procedure.penetration(Fraction(1))
    assert study.Procedure(14, 1).label(416).startswith("1 card burnt; the cut card 14 cards from the end")
    assert study.Procedure.penetration(Fraction(4, 5)).cut(416) == 416 - 332
    # a burn of every card but the last coup's, the cut card behind none: one coup a shoe, after the turned card
    st = study.run(dragon, fast, fx, "banker", 3, study.Procedure(0, 409), 1, trigger=-1e9)
    assert st.coups == 3
    turned = study.Procedure(0, None)
    assert turned.burnt(np.array([0, 5, 5])) == (11, 1) and turned.burnt(np.array([7])) == (8, 1)


@pytest.mark.parametrize(("args", "said"), [
    (["--penetration", "0.8", "--cut-card", "20"], "--penetration and --cut-card: give one"),
    (["--burn", "two"], "--burn: a whole number of cards (0 to 1,000,000) or 'turn', not 'two'"),
    (["--burn", "\u0663"], "--burn: a whole number"),
    (["--cut-card", "420"], "a shoe of 416 cards would deal no coup"),
    (["--penetration", "x"], "--penetration: not a number: 'x'"),
])
def test_the_counting_commands_procedure_options_fail_cleanly(args: list[str], said: str) -> None:
    r = CliRunner().invoke(main, ["counting", "punto-banco", "--wager", "banker", "--shoes", "1", *args])
    assert r.exit_code == EXIT_INPUT and said in r.output, r.output


def test_the_deprecated_penetration_still_runs_and_says_so() -> None:
    r = CliRunner().invoke(main, ["counting", "punto-banco", "--wager", "banker", "--shoes", "1", "--penetration",
                                  "0.5"])
    assert r.exit_code == 0, r.output
    assert "dealt to 50% (the deprecated --penetration: the cut card 208 cards from the end, no burn)" in r.output


def test_side_bets_on_the_cards_are_named_as_left_out_and_refused_as_a_wager() -> None:
    """Perfect 9 reads the coup (a player natural 9) and the first two cards' suits: the counting command lists it
    by name (text and JSON) with no removal-effect column, and ``--wager perfect_9`` is a one-line exit-4 error.
    Lucky Nines, on the first four cards alone, is counted (test_counting_cards) and not listed."""
    nines = ["counting", "punto-banco", "--decks", "1", "--table", "perfect-9"]
    r = CliRunner().invoke(main, [*nines, "--format", "json"])
    assert r.exit_code == 0, r.output
    sections = json.loads(r.output)["sections"]
    assert sections["left_out"]["rows"] == [{"wager": "perfect_9", "title": "Perfect 9 Bonus"}]
    assert [c["id"] for c in sections["removal_effects"]["columns"]][2:] == ["banker", "player", "tie"]
    r = CliRunner().invoke(main, nines)
    assert r.exit_code == 0 and "| perfect_9 | Perfect 9 Bonus |" in r.output
    r = CliRunner().invoke(main, [*nines, "--wager", "perfect_9", "--shoes", "1"])
    assert r.exit_code == EXIT_INPUT
    assert r.output.startswith("oddscalc: --wager perfect_9: Perfect 9 Bonus is a side bet on the cards")
    assert r.output.count("\n") == 1
    r = CliRunner().invoke(main, ["counting", "punto-banco", "--decks", "1", "--table", "lucky-nines", "--format",
                                  "json"])
    assert r.exit_code == 0 and "left_out" not in json.loads(r.output)["sections"]
    assert [c["id"] for c in json.loads(r.output)["sections"]["removal_effects"]["columns"]][-1] == "lucky_nines"
