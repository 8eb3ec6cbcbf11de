"""``oddscalc ev``: what a hand is worth, on the command line: the issue's Caribbean hand in JSON against a plain
count over the 163,185 dealer completions, every game's run, every format, and each bad input as one line with
exit 4."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from oracles import ev_brute

from oddscalc.cards import FULL_DECK, parse_card, parse_cards
from oddscalc.catalog import resolve_table
from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_INPUT
from oddscalc.games import DECLARED, supporting
from oddscalc.games.caribbean.table import CaribbeanTable, parse_qualifier
from oddscalc.hands import HAND_CLASSES
from oddscalc.protocol import load

EXIT_USAGE = 2
ISSUE = ["ev", "caribbean", "--table", "us", "--hand", "As Kd Jh 8c 3s", "--up", "Qc"]


def run(args: list[str]) -> tuple[int, str]:
    r = CliRunner().invoke(main, args)
    assert "Traceback" not in r.output and (r.exception is None or isinstance(r.exception, SystemExit)), r.output
    return r.exit_code, r.output


def test_the_issues_hand_in_json_equals_a_plain_count() -> None:
    code, out = run([*ISSUE, "--format", "json"])
    assert code == 0, out
    data = json.loads(out)
    assert (data["game"], data["table"]) == ("caribbean", "us")
    rows = {r["action"]: r for r in data["sections"]["actions"]["rows"]}
    model = resolve_table("caribbean", "us").model
    assert isinstance(model, CaribbeanTable)
    pays = {c.value: getattr(model.pays.main, c.value) for c in HAND_CLASSES}
    n, fold, raised = ev_brute.caribbean(FULL_DECK, parse_cards("As Kd Jh 8c 3s"), parse_card("Qc"),
                                         parse_qualifier(model.rules.dealer_qualifier), pays)
    assert n == 163_185 == sum(r["count"] for r in data["sections"]["dealer_completions"]["rows"])
    assert Fraction(rows["fold"]["ev_exact"]) == fold and Fraction(rows["raise"]["ev_exact"]) == raised
    assert rows["raise"]["ev_decimal"] == f"{float(raised):.6f}"
    best = "raise" if raised > fold else "fold"
    assert rows[best]["best"] is True and Fraction(rows[best]["margin_exact"]) == abs(raised - fold)


@pytest.mark.parametrize("fmt", ["md", "csv"])
def test_the_other_formats(fmt: str) -> None:
    code, out = run([*ISSUE, "--format", fmt])
    assert code == 0, out
    if fmt == "md":
        assert out.startswith("# What the hand is worth") and "| raise |" in out
    else:
        cells = list(csv.DictReader(io.StringIO(out)))
        # a leading minus sign is quoted in a sheet (it would start a formula)
        assert ("actions", "ev_exact", "'-63653/54395") in {(c["section"], c["column"], c["value"]) for c in cells}


@pytest.mark.parametrize("args,section", [
    (["ev", "let-it-ride", "--hand", "Th Jh 4c"], "bet1"),
    (["ev", "let-it-ride", "--hand", "Th Jh 4c Qh"], "bet2"),
    (["ev", "punto-banco", "--shoe", "128 32 32 32 32 32 32 32 32 32"], "wagers"),
    (["ev", "house-baccarat", "--hand", "5h Kd"], "actions"),
])
def test_every_game_answers(args: list[str], section: str) -> None:
    code, out = run([*args, "--format", "json"])
    assert code == 0, out
    assert section in json.loads(out)["sections"]


@pytest.mark.parametrize("args,said", [
    (["--hand", "As Kd Jh 8c 3x", "--up", "Qc"], "not a card: '3x'"),
    (["--hand", "As Kd Jh 8c As", "--up", "Qc"], "duplicate card"),
    (["--hand", "As Kd Jh 8c", "--up", "Qc"], "5 cards, not 4"),
    (["--hand", "As Kd Jh 8c 3s", "--up", "Kd"], "the up card is one of the player's cards"),
    (["--hand", "As Kd Jh 8c 3s"], "--hand and --up"),
    (["--hand", "As Kd Jh 8c 3s", "--up", "Qc", "--shoe", "1 2"], "--shoe does not apply to caribbean"),
])
def test_bad_input_is_one_line_exit_4(args: list[str], said: str) -> None:
    code, out = run(["ev", "caribbean", *args])
    lines = out.strip().splitlines()
    assert code == EXIT_INPUT and len(lines) == 1 and lines[0].startswith("oddscalc: ") and said in lines[0], out


@pytest.mark.parametrize("args,said", [
    (["ev", "let-it-ride", "--hand", "Th Jh"], "not 2"),
    (["ev", "let-it-ride", "--hand", "Th Jh 4c", "--up", "Qc"], "--up does not apply to let-it-ride"),
    (["ev", "punto-banco", "--shoe", "1 2 3"], "--shoe: give 10 whole numbers"),
    (["ev", "punto-banco", "--removed", "5s 5s 5s 5s 5s 5s 5s 5s 5s"], "more 5s than the shoe holds"),
    (["ev", "punto-banco", "--removed", "5s", "--shoe", "1 1 1 1 1 1 1 1 1 1"], "give one"),
    (["ev", "house-baccarat", "--hand", "5h Kd 2c"], "2 cards, not 3"),
    (["ev", "house-baccarat"], "--hand"),
])
def test_bad_input_in_each_game(args: list[str], said: str) -> None:
    code, out = run(args)
    lines = out.strip().splitlines()
    assert code == EXIT_INPUT and len(lines) == 1 and said in lines[0], out


def test_every_game_declares_its_ev_and_a_command_it_does_not_declare_is_refused_naming_those() -> None:
    # every game answers ev now (the stud family's game files through games/stud/ev.py); card is still the
    # poker games' and the house baccarat's, so a game file names the games card applies to
    assert supporting("ev") == tuple(DECLARED)
    for key in DECLARED:
        ev = DECLARED[key].ev
        assert ev is not None and callable(load(ev.run)) and ev.inputs
    carded = supporting("card")
    assert "three-card-poker" not in carded
    code, out = run(["card", "three-card-poker"])
    assert code == EXIT_USAGE and f"card does not apply to 'three-card-poker'; it applies to {', '.join(carded)}" in out
    code, out = run(["ev", "no-such-game"])
    assert code == EXIT_USAGE and "not a game" in out
