"""`oddscalc simulate` for game files with a dealer: the exact analysis's solved decisions played round by round,
every bet settled by the simulator's own evaluator; each round's settlement equals a plain one written apart
(tests/oracles/stud_round_brute.py), and seeded runs hold the exact figures in their 99% intervals."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from oracles.stud_brute import three
from oracles.stud_round_brute import Rules, settle

from oddscalc.analysis import Session
from oddscalc.cards import FULL_DECK, parse_cards, reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.games.stud.capabilities import declared_in
from oddscalc.games.stud.game import StudGame, build_class
from oddscalc.games.stud.table import StudTable
from oddscalc.protocol import OptionError
from oddscalc.results import RunOptions
from oddscalc.simulate import run
from oddscalc.simulate.evaluator import three_card_strength
from oddscalc.simulate.plan import tally
from oddscalc.simulate.stats import Estimate
from oddscalc.simulate.stud_dealer import THREE, Dealt, Strategy, class_index, dealer_plan, plan
from oddscalc.tables import Table, load_table_file

FILES = Path(__file__).resolve().parents[1] / "games" / "stud" / "files"
QUEEN_HIGH, ACE_KING = (0, 10), (1, 12, 11)  # the oracles' keys: (high card category, ranks from the top)
# Three Card Poker: (player, dealer, plays) -> what the oracle must call it, and a few nets worked by hand
TCP_DEALS = [
    ("7s 4d 2c", "Ks 8h 3d", False, "fold"),
    ("Ah 9d 5c", "Js 8h 3d", True, "not_qualified"),  # jack-high: the ante wins, the play pushes
    ("Kh Kd 5c", "Qs 8h 3d", True, "win"),
    ("Ah 9d 5c", "As 9c 5h", True, "tie"),
    ("Qh 6d 4c", "Ks 8h 3d", True, "lose"),
    ("5h 6d 7c", "2s 3s 4s", True, "lose"),  # a straight loses to a straight flush, its ante bonus paid
    ("Ah 2d 3c", "2h 3d 4s", True, "lose"),  # A-2-3 is the lowest straight
    ("Ah Kh Qh", "Js Td 9c", True, "win"),  # a mini royal: pair plus pays it as a straight flush
    ("8h 8d Kc", "8s 8c Qd", True, "win"),  # equal pairs: the kicker decides
    ("2h 7h 9h", "4s 5d 6c", True, "lose"),  # a straight beats a flush
    ("2h 7h 9h", "Jh 4h 3c", True, "not_qualified"),  # the six cards make a flush
    ("Qs Qd Qc", "Qh 2s 3s", True, "win"),
]
CARIBBEAN_DEALS = [  # the dealer's first card is his up card
    ("Ah Kh Qh Jh Th", "2c 3d 4s 5h 7c", True, "not_qualified"),
    ("9s 9d 4c 5h 7s", "Ac Kd 2s 3h 6c", True, "win"),
    ("As Kd Qc Jh 9s", "Ah Kc Qd Js 9h", True, "tie"),
    ("9s 9d 4c 5h 7s", "Tc Td 2s 3h 6c", True, "lose"),
    ("Ah 2d 3c 4s 5h", "Kc Kd 2s 8h 6c", True, "win"),  # the wheel, a raise paid 4:1
    ("Kc Kd Ks Kh 2c", "Ac As 2s 8h 6c", True, "win"),
    ("Jc 8d 5s 4h 2c", "Ac As 2s 8h 6c", False, "fold"),
]


def test_the_simulators_three_card_strength_orders_every_hand_as_the_oracle() -> None:
    # all 22,100 hands: equal strengths exactly where the oracle's keys are equal, and in the same order
    hands = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    s = three_card_strength(hands)
    keys = [three(h, FULL_DECK) for h in hands.tolist()]
    order = sorted({k for _, k in keys})
    rank = {k: i for i, k in enumerate(order)}
    by_oracle = np.array([rank[k] for _, k in keys])
    dense = np.unique(s, return_inverse=True)[1].ravel()  # each hand's place among the distinct strengths
    assert (dense == by_oracle).all()
    assert (np.array(THREE)[class_index(s, "three-card")] == np.array([c for c, _ in keys])).all()


def _oracle_rules(model: StudTable, qualifier: tuple[int, ...]) -> Rules:
    main = model.pays.main
    (decision,) = [s.decision for s in model.rules.stages if s.decision is not None]
    return Rules(model.rules.ranking, qualifier, decision.bets[0],
                 main.ante_bonus.pays() if main.ante_bonus else {},
                 main.bet_win_by_hand.pays() if main.bet_win_by_hand else {},
                 sides={n: (b.cards, b.ranking, b.pays()) for n, b in (model.pays.model_extra or {}).items()})


def _settled(model: StudTable, deals: list[tuple[str, str, bool, str]]) -> list[dict[str, float]]:
    cards = np.array([parse_cards(p) + parse_cards(d) for p, d, _, _ in deals], dtype=np.int64)
    out = Dealt.of(model).settle(cards, np.array([plays for _, _, plays, _ in deals]))
    return [{w: float(o.units[i]) for w, o in out.items()} for i in range(len(deals))]


@pytest.fixture(scope="module")
def caribbean() -> StudGame:
    (found,) = [c for c in declared_in(FILES) if c.key == "caribbean-stud"]
    return build_class(found)()


def _caribbean_table(game: StudGame, tid: str) -> Table:
    return load_table_file(FILES / "caribbean-stud" / f"{tid}.toml", {game.key: game.table_model})


def test_each_round_settles_as_the_rules_say_three_card_poker() -> None:
    model = resolve_table("three-card-poker").model
    assert isinstance(model, StudTable)
    oracle = _oracle_rules(model, QUEEN_HIGH)
    simulated = _settled(model, TCP_DEALS)
    seen = set()
    for (p, d, plays, event), sim in zip(TCP_DEALS, simulated, strict=True):
        happened, nets = settle(oracle, parse_cards(p), parse_cards(d), plays)
        assert happened == event, (p, d)
        assert sim == {w: float(v) for w, v in nets.items()}, (p, d)
        seen.add(happened)
    assert seen == {"fold", "not_qualified", "win", "tie", "lose"}
    # worked by hand: ante 1 + play 1 + ante bonus 5; pair plus 40 (a straight flush's); the best five a straight
    assert simulated[7] == {"main": 7.0, "pair_plus": 40.0, "six_card_bonus": 10.0}
    assert simulated[5]["main"] == -1.0 and simulated[1]["main"] == 1.0 and simulated[10]["six_card_bonus"] == 20.0


def test_each_round_settles_as_the_rules_say_caribbean_file(caribbean: StudGame) -> None:
    model = _caribbean_table(caribbean, "spain").model
    assert isinstance(model, StudTable)
    oracle = _oracle_rules(model, ACE_KING)
    simulated = _settled(model, CARIBBEAN_DEALS)
    for (p, d, plays, event), sim in zip(CARIBBEAN_DEALS, simulated, strict=True):
        happened, nets = settle(oracle, parse_cards(p), parse_cards(d), plays)
        assert happened == event, (p, d)
        assert sim == {w: float(v) for w, v in nets.items()}, (p, d)
    assert [s["main"] for s in simulated] == [1.0, 3.0, 0.0, -3.0, 9.0, 41.0, -1.0]  # quads' raise 20:1 (Spain)
    assert simulated[0]["jackpot"] == 49999.0


def test_a_tie_the_file_gives_the_player_is_paid_as_a_win_and_a_four_card_ranking_is_refused() -> None:
    model = resolve_table("three-card-poker").model
    assert isinstance(model, StudTable)
    tie_wins = model.model_copy(update={"pays": model.pays.model_copy(
        update={"main": model.pays.main.model_copy(update={"tie": "win"})})})
    oracle = replace(_oracle_rules(model, QUEEN_HIGH), tie_wins=True)
    simulated = _settled(tie_wins, TCP_DEALS)
    for (p, d, plays, _), sim in zip(TCP_DEALS, simulated, strict=True):
        assert sim == {w: float(v) for w, v in settle(oracle, parse_cards(p), parse_cards(d), plays)[1].items()}
    assert simulated[3]["main"] == 2.0 and _settled(model, TCP_DEALS)[3]["main"] == 0.0  # A-9-5 against A-9-5
    four = model.model_copy(update={"rules": model.rules.model_copy(update={"ranking": "four-card"})})
    with pytest.raises(OptionError, match="best four"):
        Dealt.of(four)


def test_the_solved_strategy_is_played_three_card_poker(sessions: Callable[[str], Session]) -> None:
    strategy = Strategy(sessions("three-card-poker").analyze(None), 3, 0)  # published: play Q-6-4 or better
    hands = np.array([parse_cards(h) for h in ("Qs 6d 4c", "Qh 6c 3d", "Qd 5s 4h", "Kc 2d 3h", "2c 2d 3h")])
    assert strategy.lookup(hands, np.zeros((5, 0), dtype=np.int64)).tolist() == [True, False, False, True, True]


def test_three_card_poker_seeded_inside_the_99_percent_interval() -> None:
    sim = run("three-card-poker", None, 30_000, seed=2026)
    assert {(e.wager, e.figure) for e in sim.checked} == {
        ("main", "expected_value"), ("main", "hit_frequency"), ("main", "average_stake"),
        ("pair_plus", "expected_value"), ("pair_plus", "hit_frequency"),
        ("six_card_bonus", "expected_value"), ("six_card_bonus", "hit_frequency")}
    assert not sim.outside, [(e.wager, e.figure, e.mean, e.low, e.high, float(e.exact or 0)) for e in sim.outside]
    assert not any("not simulated" in n for n in sim.notes)


def test_caribbean_file_on_a_reduced_deck_inside_the_99_percent_interval(caribbean: StudGame) -> None:
    deck = reduced_deck("9", 2)
    table = _caribbean_table(caribbean, "spain")
    analysis = Session(caribbean, RunOptions(deck=deck)).analyze(table)  # the run's store: counted once a run
    assert isinstance(table.model, StudTable)
    p = dealer_plan(table.model, analysis, deck)
    sums = tally(p.play, np.random.Generator(np.random.PCG64(7)), 30_000, p.chunk)
    checked = [Estimate.of(w, f, s, Fraction(getattr(analysis.wager(w), f)))
               for (w, f), s in sums.items() if w == "main"]
    assert len(checked) == 3
    assert all(e.low <= float(e.exact or 0) <= e.high for e in checked), checked


def test_a_dealer_game_with_several_bet_sizes_is_refused(tmp_path: Path) -> None:
    text = resolve_table("three-card-poker").path.read_text().replace("bets = [1]", "bets = [1, 2]")
    path = tmp_path / "two-sizes.toml"
    path.write_text(text)
    table = resolve_table("three-card-poker", str(path))
    with pytest.raises(OptionError, match="fold or one bet size; Three Card Poker allows 1, 2 antes"):
        plan(table, RunOptions())
