"""Let It Ride hand logs end to end: ``simulate --log`` writes them (the engine's optimal pull-backs, or a player
who sees the first community card), ``audit`` re-settles every round into the report's main rows, lists a mispaid
round by its line, and weighs the decisions; each decision's EV against a plain brute force over the cards left.

Small seeded logs (a few hundred rounds): every outcome is deterministic. The rounds it takes to flag the flash
over many seeds is a deep test (``test_let_it_ride_log_deep.py``).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from oracles.lir_brute import ev_of

from oddscalc.analysis import Session
from oddscalc.audit import evidence_let_it_ride as lir
from oddscalc.audit.conformance import Conformance, audit
from oddscalc.audit.evidence import Evidence
from oddscalc.audit.evidence_log import weigh_path
from oddscalc.audit.observed import Observed
from oddscalc.cards import FULL_DECK, parse_cards, parse_rank
from oddscalc.catalog import resolve_table
from oddscalc.games.let_it_ride.game import LetItRideRules
from oddscalc.hands import HandClass
from oddscalc.protection.information import load_model
from oddscalc.protocol import OptionError
from oddscalc.simulate.log import write_log

FLASH = "let-it-ride-flash-first-community"
ROUNDS = 300


def _rules() -> LetItRideRules:
    rules = Session("let-it-ride").resolve(None)
    assert isinstance(rules, LetItRideRules)
    return rules


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("lir")
    return {
        "honest": write_log("let-it-ride", folder / "h.jsonl", None, ROUNDS, 7).path,
        "mispaid": write_log("let-it-ride", folder / "m.jsonl", None, ROUNDS, 7, mispay="2%").path,
        "flash": write_log("let-it-ride", folder / "f.jsonl", None, ROUNDS, 7, knows=FLASH).path,
    }


def conform(path: Path) -> Conformance:
    t = resolve_table("let-it-ride", None)
    return audit(path, t, Session("let-it-ride").analyze(t), "table")


def weighed(path: Path) -> Evidence:
    return weigh_path("let-it-ride", None, path, [load_model(FLASH, "let-it-ride")[0]])


def test_an_honest_log_conforms_and_is_not_flagged(logs: dict[str, Path]) -> None:
    c = conform(logs["honest"])
    assert (c.rounds, c.mispaid_count, c.unreadable_count) == (ROUNDS, 0, 0)  # the simulator's own settlement
    assert not c.failures()
    # the outcomes are tallied into the exact report's main rows (the final hand's class, the bets in play)
    t = resolve_table("let-it-ride", None)
    rows = [r.event for w in Session("let-it-ride").analyze(t).wagers if w.wager == "main" for r in w.rows]
    (main,) = [w for w in c.wagers if w.wager == "main"]
    assert [e for e, _, _, _ in main.rows] == rows and sum(n for _, _, n, _ in main.rows) == ROUNDS
    assert all(p > 0 for _, p, n, _ in main.rows if n)  # every outcome dealt is one the exact analysis has
    ev = weighed(logs["honest"])
    assert len(ev.actions) == 2 * ROUNDS
    # the engine's solved pull-backs (what the log plays) are the evidence's honest best at every decision
    assert [ev.honest.actions[i] for i in ev.honest.best.tolist()] == list(ev.actions)
    w = ev.suspects[0]
    assert w.log10_factor < 0 and not w.flagged  # a Bayes factor below 1
    assert ev.realised is not None


def test_a_player_who_sees_the_first_community_card_is_flagged(logs: dict[str, Path]) -> None:
    ev = weighed(logs["flash"])
    w = ev.suspects[0]
    assert w.flagged and w.log10_factor > 3 and w.first_flagged is not None
    # the simulator's own enumeration on four cards (what the log plays) is the evidence's best under the model
    assert [w.assessed.actions[i] for i in w.assessed.best.tolist()] == list(ev.actions)
    assert w.gain > 0  # his decisions won against honest play, as the model prices them
    header = json.loads(logs["flash"].read_text().splitlines()[0])
    assert header["generator"]["knows"] == FLASH


def test_the_report_states_the_measured_false_positive_rate(logs: dict[str, Path]) -> None:
    from oddscalc.audit import evidence_sections, false_positives

    r = false_positives.rate("let-it-ride", FLASH)
    assert r is not None and r.runs >= 100 and r.rounds >= 10_000  # measured (tests/oracles/false_positives.py)
    ev = weighed(logs["flash"])
    assert f"false positives of the rule: {r.describe()}" in evidence_sections.verdict(ev)
    assert "not measured" not in evidence_sections.verdict(ev)
    (row,) = evidence_sections.summary_section(ev).rows
    bound = row[-1]
    assert row[-2] == r.describe() and isinstance(bound, Fraction) and bound >= Fraction(r.upper)


def test_a_mispaid_round_is_listed_by_its_line(logs: dict[str, Path]) -> None:
    honest, bad = (p.read_text().splitlines() for p in (logs["honest"], logs["mispaid"]))
    changed = [n for n, (a, b) in enumerate(zip(honest, bad), 1) if a != b and n > 1]
    c = conform(logs["mispaid"])
    assert changed and [m.line for m in c.mispaid] == changed
    assert all(m.paid - m.due == 1 and m.wager == "main" for m in c.mispaid)


HANDS = ["As Ks Qs Js Ts", "2c 7d 9h 3s 3d", "Th Jh 4c 8s 8h", "5d 6d 7d Ac Kc"]


@pytest.mark.parametrize("hand", HANDS)
def test_each_decisions_ev_is_a_brute_force_over_the_cards_left(hand: str) -> None:
    rules = _rules()
    pays: dict[HandClass, Fraction] = {c: Fraction(getattr(rules.model.pays.main, c.value)) for c in HandClass
                                       if c != HandClass.HIGH_CARD}
    cards = parse_cards(hand)
    ds = [Observed(1, "let-it-ride", cards[:3], cards[3:], "pull", Fraction(-1)),
          Observed(1, "let-it-ride", cards[:4], cards[4:], "pull", Fraction(-1))]
    d = lir.deals(rules.deck, ds, lir.actions(rules))
    values = lir.Values(rules)
    honest = lir.assess(values, lir.actions(rules), d, ())
    flash = lir.assess(values, lir.actions(rules), d, (0,), "f", "f")
    min_rank = parse_rank("T")
    three, four = ev_of(cards[:3], FULL_DECK, pays, min_rank), ev_of(cards[:4], FULL_DECK, pays, min_rank)
    assert [honest.ev(0, "ride"), honest.ev(1, "ride")] == [three, four]
    assert [flash.ev(0, "ride"), flash.ev(1, "ride")] == [four, four]  # he knows the fourth card at bet 1 too
    assert honest.ev(0, "pull") == flash.ev(1, "pull") == 0


def test_a_model_the_evidence_does_not_read_is_refused(tmp_path: Path) -> None:
    groups = load_model("let-it-ride-first-community-group-ak", "let-it-ride")[0]
    with pytest.raises(OptionError, match="community cards seen outright"):
        lir.community_positions(groups)
    with pytest.raises(OptionError, match="first community card outright"):
        write_log("let-it-ride", tmp_path / "g.jsonl", None, 10, 1, knows=groups.id)
    with pytest.raises(OptionError, match="known: optimal"):
        write_log("let-it-ride", tmp_path / "s.jsonl", None, 10, 1, strategy="always-ride")


def test_a_card_dealt_twice_is_not_settled(tmp_path: Path) -> None:
    log = write_log("let-it-ride", tmp_path / "d.jsonl", None, 200, 3, damage=("doubled:As",) * 3).path
    c = conform(log)
    assert c.rounds == 200 and c.mispaid_count == 0 and c.unreadable_count > 0
    assert all("dealt twice" in why for _, why in c.unreadable)


def test_a_log_read_in_parts_is_the_log_read_at_once(logs: dict[str, Path]) -> None:
    from oddscalc.audit.evidence import join
    from oddscalc.audit.evidence_log import read_log
    from oddscalc.audit.reader import decisions, split

    path = logs["flash"]
    parts = split(path, 3)
    assert len(parts) == 3
    whole = read_log("let-it-ride", None, decisions(path)).weighed()
    joined = join([read_log("let-it-ride", None, decisions(path, p)) for p in parts]).weighed()
    assert joined.actions == whole.actions and joined.realised == whole.realised
    assert joined.lines.tolist() == whole.lines.tolist()
    for a, b in zip(joined.suspects, whole.suspects):
        assert (a.gain, a.changed, a.first_flagged) == (b.gain, b.changed, b.first_flagged)
        assert a.assessed.num[a.assessed.row].tolist() == b.assessed.num[b.assessed.row].tolist()


def test_the_commands(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from oddscalc.cli.main import EXIT_CHECK, main

    runner = CliRunner()
    honest, flash = tmp_path / "h.jsonl", tmp_path / "f.jsonl"
    r = runner.invoke(main, ["simulate", "let-it-ride", "--log", str(honest), "-n", "100", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == {"log": str(honest), "game": "let-it-ride", "rounds": 100, "mispaid": 0,
                                    "strategy": "optimal"}
    assert runner.invoke(main, ["audit", str(honest)]).exit_code == 0
    r = runner.invoke(main, ["simulate", "let-it-ride", "--log", str(flash), "-n", "100", "--knows", FLASH])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["audit", str(flash), "--format", "json"])
    assert r.exit_code == EXIT_CHECK and "decisions flag The first community card flashed before bet 1" in r.output
