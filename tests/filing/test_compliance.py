"""Compliance profiles: each rule's figure against a count done by hand, the verdicts, the exit code,
and bad profile files refused with file, line and key."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from oddscalc.analysis import Session
from oddscalc.catalog import profiles_dir
from oddscalc.cli.main import EXIT_CHECK, EXIT_INPUT, EXIT_TABLE, main
from oddscalc.filing.compliance import FAIL, PASS, findings, load_profile, returned_share
from oddscalc.results import Analysis

HANDS = 2_598_960  # C(52,5): the Jackpot is paid on the player's own five cards
ROYALS, STRAIGHT_FLUSHES, QUADS = 4, 36, 624


def cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def spain(sessions: Callable[[str], Session]) -> Analysis:
    return sessions("caribbean").analyze("spain")


def _profile(tmp_path: Path, body: str, name: str = "house.toml") -> Path:
    p = tmp_path / name
    p.write_text('title = "House rules"\nsource = "a test"\n' + body)
    return p


def test_the_rule_sheets_jackpot_fails_a_75_percent_minimum_and_the_main_game_passes(spain: Analysis) -> None:
    # by hand: the Jackpot's stake of 0.50 buys 25,000 / 2,500 / 1,250 for a royal / straight flush / quads
    jackpot_return = Fraction(ROYALS * 25_000 + STRAIGHT_FLUSHES * 2_500 + QUADS * 1_250, HANDS) / Fraction(1, 2)
    assert jackpot_return == Fraction(24_250, 32_487)  # 74.65%
    found = {f.wager: f for f in findings(load_profile(profiles_dir() / "nevada-minimum-return.toml"), spain)}
    assert found["jackpot"].figure == jackpot_return and found["jackpot"].verdict == FAIL
    main_wager = spain.wager("main")
    assert found["main"].figure == 1 - main_wager.element_of_risk and found["main"].verdict == PASS  # type: ignore[operator]
    r = cli("check", "caribbean", "--profile", "nevada-minimum-return")
    assert r.exit_code == EXIT_CHECK, r.output
    assert "| minimum_return | jackpot | return per unit (1 + EV) | 24250/32487 | 74.6452% | at least 75.00% | FAIL" \
        in r.output
    assert "1 of 2 check(s) pass; 1 FAIL." in r.output and "1 compliance check(s) fail" in r.output


def test_a_report_with_a_profile_carries_its_section_and_exit_code(tmp_path: Path) -> None:
    out = tmp_path / "spain.json"
    r = cli("report", "caribbean", "--format", "json", "-o", str(out), "--profile", "nevada-minimum-return")
    assert r.exit_code == EXIT_CHECK, r.output
    rows = json.loads(out.read_text())["sections"]["compliance_nevada-minimum-return"]["rows"]
    assert [(row["wager"], row["verdict"]) for row in rows] == [("main", PASS), ("jackpot", FAIL)]
    r = cli("report", "caribbean", "--table", "us", "--profile", "nevada-minimum-return")
    assert r.exit_code == 0 and "## Compliance: Nevada" in r.output


def test_award_frequency_and_displayed_odds(tmp_path: Path, spain: Analysis) -> None:
    rule = '[[rules]]\nrule = "award_frequency"\nonce_in = 100_000\n'
    found = findings(load_profile(_profile(tmp_path, rule)), spain)
    jackpot = {f.subject: f for f in found if f.wager == "jackpot"}
    royal = jackpot["award jackpot.royal_flush (25,000 (amount))"]
    assert royal.figure == Fraction(ROYALS, HANDS) and royal.verdict == FAIL  # 1 in 649,740
    assert jackpot["award jackpot.four_of_a_kind (1,250 (amount))"].verdict == PASS
    shown = findings(load_profile(_profile(tmp_path, rule + 'odds_displayed = ["jackpot.royal_flush", '
                                                          '"jackpot.straight_flush", "main.royal_flush", '
                                                          '"main.straight_flush"]\n')), spain)
    assert all(f.verdict == PASS for f in shown)


def test_top_award_odds_and_the_return_basis(tmp_path: Path, sessions: Callable[[str], Session]) -> None:
    lir = sessions("let-it-ride").analyze("standard")
    body = ('[[rules]]\nrule = "top_award_odds"\nat_most_one_in = 600_000\n'
            '[[rules]]\nrule = "minimum_return"\nminimum = "97%"\nbasis = "per_unit"\nwagers = ["main"]\n'
            '[[rules]]\nrule = "minimum_return"\nminimum = "97%"\nwagers = ["main"]\n')
    found = findings(load_profile(_profile(tmp_path, body)), lir)
    top = [f for f in found if f.rule == "top_award_odds"]
    # the royal comes in 1 of 649,740 final hands, whatever the bets in play
    assert [(f.wager, f.figure, f.verdict) for f in top] == [("main", Fraction(1, 649_740), FAIL),
                                                             ("three_card_bonus", Fraction(4, 22_100), PASS)]
    per_unit, per_amount = [f for f in found if f.rule == "minimum_return"]
    main_wager = lir.wager("main")
    assert per_unit.figure == 1 + main_wager.expected_value and per_unit.verdict == FAIL  # 96.49% per base bet
    assert per_amount.figure == returned_share(main_wager, "amount_wagered") == 1 - main_wager.element_of_risk  # type: ignore[operator]
    assert per_amount.verdict == PASS  # 97.14% of all amounts wagered


@pytest.mark.parametrize("body,code,message", [
    ('[[rules]]\nrule = "maximum_bet"\n', EXIT_TABLE, "house.toml:3: rules.0: Input tag 'maximum_bet'"),
    ('[[rules]]\nrule = "minimum_return"\nminimum = "120%"\n', EXIT_TABLE, "a share is between 0% and 100%"),
    ('[[rules]]\nrule = "minimum_return"\nminimum = 0.75\n', EXIT_TABLE, "write a share as a percent"),
    ('[[rules]]\nrule = "award_frequency"\nonce_in = 0\n', EXIT_TABLE,
     "house.toml:5: rules.0.once_in: Input should be greater than 0"),
    ('[[rules]]\nrule = "minimum_return"\nminimum = "75%"\nwagers = ["side"]\n', EXIT_TABLE,
     "house.toml:6: rules.0.wagers: no wager 'side' in caribbean; wagers: main, jackpot"),
    ('[[rules]]\nrule = "minimum_return"\nminimum = "75%"\nwagers = []\n', EXIT_TABLE,
     "house.toml:6: rules.0.wagers: names no wager, so the rule would check nothing"),
    ('[[rules]]\nrule = "award_frequency"\nonce_in = 1000\nodds_displayed = ["jackpot.royal_flsh"]\n', EXIT_TABLE,
     "house.toml:6: rules.0.odds_displayed: no award 'jackpot.royal_flsh' in caribbean's table spain; awards"),
    ("rules = []\n", EXIT_TABLE, "a profile needs at least one rule"),
])
def test_bad_profiles_are_refused_with_file_line_and_key(tmp_path: Path, body: str, code: int, message: str) -> None:
    r = cli("check", "caribbean", "--profile", str(_profile(tmp_path, body)))
    assert r.exit_code == code and "oddscalc: bad profile:" in r.output and message in r.output, r.output
    assert "Traceback" not in r.output


def test_an_unknown_profile_id_lists_the_shipped_ones() -> None:
    r = cli("check", "caribbean", "--profile", "atlantis")
    assert r.exit_code == EXIT_INPUT and "shipped: gli-11, nevada-minimum-return, new-jersey-slots" in r.output


def test_every_shipped_profile_cites_its_source() -> None:
    shipped = sorted(profiles_dir().glob("*.toml"))
    assert len(shipped) == 3
    for path in shipped:
        p = load_profile(path)
        assert "http" in p.model.source and all(rule.citation for rule in p.model.rules)


def test_a_payout_cap_reads_the_exposure_at_the_tables_limits(tmp_path: Path, spain: Analysis) -> None:
    body = ('[[rules]]\nrule = "payout_cap"\nmaximum = 50000\n'
            '[[rules]]\nrule = "payout_cap"\nmaximum = 250000\nscope = "table"\n')
    seat, table = findings(load_profile(_profile(tmp_path, body)), spain)
    # a raised royal flush at the 100 EUR ante with the Jackpot's royal: 100 + 200 x 100 + 25,000 - 0.50
    assert seat.figure == Fraction(90_199, 2) and seat.verdict == PASS
    assert table.figure == 7 * seat.figure and table.verdict == FAIL
    us = CliRunner().invoke(main, ["check", "caribbean", "--table", "us", "--profile", str(_profile(tmp_path, body))])
    assert us.exit_code == EXIT_CHECK and "not known: the table states no \\[limits\\]" in us.output
