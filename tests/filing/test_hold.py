"""Hold tolerance and the petition's odds sheet: exact moments against the wagers' own figures, a
seat's joint counts against both wagers' rows, and the bands' coverage against sampled shoes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from click.testing import CliRunner

from oddscalc.analysis import Session
from oddscalc.cli.main import EXIT_INPUT, main
from oddscalc.filing import hold, odds_sheet
from oddscalc.report.cells import cell_text


def test_a_wagers_hold_and_spread_are_its_edge_and_variance(sessions: Callable[[str], Session]) -> None:
    a = sessions("punto-banco").analyze("standard")
    for w in a.wagers:  # fixed stakes: the hold is the house edge, n Var(H_n) the variance
        s = hold.of_wager(w)
        assert s.hold == w.house_edge and s.spread() == w.variance
    lir = sessions("let-it-ride").analyze("standard").wager("main")
    assert hold.of_wager(lir).hold == lir.element_of_risk  # the stake varies: per amount wagered


def test_the_seat_counts_add_up_to_each_wager_and_give_the_combined_hold(sessions: Callable[[str], Session]) -> None:
    a = sessions("caribbean").analyze("spain")
    joint = a.joint[("main", "jackpot")]
    for side, wager in ((0, "main"), (1, "jackpot")):
        margin: Counter[str] = Counter()
        for events, n in joint.items():
            margin[events[side]] += n
        assert dict(margin) == {r.event: r.combinations for r in a.wager(wager).rows if r.combinations}
    main_w, jp = a.wager("main"), a.wager("jackpot")
    ante, stake = Fraction(5), Fraction(1, 2)
    s = hold.seat(a, "main", "jackpot", ante, stake)
    by_hand = -(ante * main_w.expected_value + stake * jp.expected_value) / (ante * main_w.average_stake + stake)
    assert s.hold == by_hand
    # the same hand pays both: the seat's variance is not the sum of the two
    apart = (ante**2 * main_w.variance + stake**2 * jp.variance) / (ante * main_w.average_stake + stake) ** 2
    assert s.spread() != apart


def test_the_95_percent_band_covers_95_percent_of_sampled_sessions(sessions: Callable[[str], Session]) -> None:
    w = sessions("punto-banco").analyze("standard").wager("banker")
    s = hold.of_wager(w)
    units = np.array([float(r.units) for r in w.rows])
    p = np.array([r.combinations for r in w.rows], dtype=float) / w.total_combinations
    rng = np.random.default_rng(20261201)
    rounds, sessions_n = 1000, 4000
    draws = rng.choice(len(units), size=(sessions_n, rounds), p=p)
    held = -units[draws].sum(axis=1) / rounds
    low, high, _, _ = hold.bands(s, rounds)
    covered = float(((held >= float(low)) & (held <= float(high))).mean())
    assert 0.93 < covered < 0.97, covered


def test_the_odds_sheet_gives_true_odds_exactly(sessions: Callable[[str], Session]) -> None:
    a = sessions("punto-banco").analyze("standard")
    sheet = odds_sheet.section(a)
    tie = next(r for r in sheet.records() if r["wager"] == "tie" and r["payout_odds"] == "8:1")
    p = Fraction(475_627_426_473_216, 4_998_398_275_503_360)  # the tie's published count
    assert tie["probability"] == p and tie["true_odds"] == (1 - p) / p
    edges = [r["house_advantage"] for r in sheet.records() if r["house_advantage"] is not None]
    assert edges == [w.house_edge for w in a.wagers]
    # printed as a petition prints odds, in the grouped style of the document's "1 in 1,189,352"
    column = next(c for c in sheet.columns if c.id == "true_odds")
    assert cell_text(Fraction(2_378_703, 2), column) == "1,189,351.50 to 1"
    assert cell_text((1 - p) / p, column) == f"{float((1 - p) / p):,.2f} to 1"


def test_the_hold_command() -> None:
    r = CliRunner().invoke(main, ["hold", "caribbean", "--stake", "main=5", "--stake", "jackpot=0.50"])
    assert r.exit_code == 0, r.output
    assert "| seat: main (1 ante = 5) + jackpot (1 stake of 0.50 = 0.50) | 100,000,000 | 3.6368% |" in r.output
    r = CliRunner().invoke(main, ["hold", "caribbean", "--stake", "raise=10"])
    assert r.exit_code == EXIT_INPUT and "write WAGER=AMOUNT with a wager of this table (main, jackpot)" in r.output
    r = CliRunner().invoke(main, ["hold", "punto-banco", "--stake", "banker=5", "--stake", "player=5"])
    assert r.exit_code == EXIT_INPUT and "no two of these wagers are played together" in r.output
