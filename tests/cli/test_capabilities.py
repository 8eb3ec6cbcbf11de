"""Capabilities as data: each game declares what applies to it, once; the command line offers and refuses from
the declarations and never names a game or a table."""

from __future__ import annotations

import ast
import dataclasses
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner
from oracles.proof_fixtures import NEVER, PAY
from oracles.seat_fixtures import seat_counter

import oddscalc.games as registry
from oddscalc.analysis import Session
from oddscalc.catalog import shipped_tables
from oddscalc.cli.main import EXIT_INPUT, main
from oddscalc.games import DECLARED, DEFAULT_TABLES, GAME_KEYS, GAMES, disagreement, supporting
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.games.shoe import Shoe
from oddscalc.protocol import Capabilities, load
from oddscalc.seats.proof.search import best_common

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "oddscalc" / "cli"
EXIT_USAGE = 2  # click's usage error: a command a game does not support


def _named(folder: Path, names: set[str]) -> list[str]:
    """Every string constant in the Python files of ``folder`` equal to one of ``names``, as file:line: value."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    return found


def _game_and_table_names() -> set[str]:
    # written out here, not read from the registry: a game the registry forgot is still looked for
    keys = {"let-it-ride", "caribbean", "punto-banco", "house-baccarat", "mississippi-stud", "three-card-poker",
            "double-down-stud"}
    return keys | {p.stem for p in shipped_tables()}


def test_the_cli_names_no_game_and_no_table() -> None:
    assert {"us", "spain", "seed", "standard"} <= _game_and_table_names()  # the shipped tables were found
    assert _named(CLI, _game_and_table_names()) == []


def test_the_scan_finds_a_game_or_a_table_named(tmp_path: Path) -> None:
    (tmp_path / "toy.py").write_text('def run(game: str, table: str) -> bool:\n'
                                     '    """caribbean is fine in prose."""\n'
                                     '    return game == "caribbean" or table in ("us",)\n')
    assert _named(tmp_path, _game_and_table_names()) == ["toy.py:3: 'caribbean'", "toy.py:3: 'us'"]


def test_one_registration_every_game_package_declared() -> None:
    packages = {p.parent.name for p in (ROOT / "oddscalc" / "games").glob("*/game.py")}
    declared = {c.game.split(".")[2] for c in DECLARED.values()}
    assert declared == packages
    for package in packages:
        assert (ROOT / "oddscalc" / "games" / package / "capabilities.py").is_file()
    assert GAME_KEYS == ("let-it-ride", "caribbean", "punto-banco", "house-baccarat", "double-down-stud",
                         "mississippi-stud", "three-card-poker")
    assert DEFAULT_TABLES == {"let-it-ride": "standard", "caribbean": "spain", "punto-banco": "standard",
                              "house-baccarat": "seed", "mississippi-stud": "standard", "double-down-stud": "standard",
                              "three-card-poker": "standard"}


@pytest.mark.parametrize("key", GAME_KEYS)
def test_each_game_class_agrees_with_its_declaration(key: str) -> None:
    game, declared = GAMES[key], DECLARED[key]
    assert disagreement(game, declared) == []
    assert type(game).capabilities is declared
    assert (game.key, game.title, game.default_table, game.options) == \
        (declared.key, declared.title, declared.default_table, declared.options)
    assert f"{type(game).__module__}:{type(game).__name__}" == declared.game


def test_a_class_that_disagrees_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    declared = DECLARED["punto-banco"]

    class Renamed(type(GAMES["punto-banco"])):  # type: ignore[misc]
        title: ClassVar[str] = "Not punto banco"

    assert disagreement(Renamed(), declared) == ["title"]
    monkeypatch.setattr(sys.modules[__name__], "Renamed", Renamed, raising=False)
    monkeypatch.setitem(registry.DECLARED, "punto-banco", dataclasses.replace(declared, game=f"{__name__}:Renamed"))
    # the declaration registered is a new one: the class refers to the old, and its title is not the one declared
    with pytest.raises(RuntimeError, match="does not match its declaration as 'punto-banco': title, capabilities$"):
        registry._Games()["punto-banco"]


def test_every_code_a_declaration_names_exists() -> None:
    for c in DECLARED.values():
        refs = [c.game, c.simulate.plan, *c.filing]
        refs += [c.counting.effects, c.counting.study] if c.counting else []
        refs += [c.collusion.run] if c.collusion else []
        refs += [c.flash.run] if c.flash else []
        for ref in refs:
            assert callable(load(ref)), ref


def test_the_declarations_load_no_game() -> None:
    # the command line parses its arguments and the report store answers from the declarations alone
    code = ("import sys, oddscalc.cli.main, oddscalc.games; print(sorted(m for m in ('numpy', 'numba', 'pydantic', "
            "'oddscalc.tables', 'oddscalc.games.caribbean.game') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_who_supports_what() -> None:
    assert supporting("counting") == ("punto-banco", "house-baccarat")
    assert supporting("collusion") == ("let-it-ride", "caribbean")
    assert supporting("flash") == ("caribbean",)
    assert supporting("seats") == ("house-baccarat",)
    assert isinstance(DECLARED["house-baccarat"], Capabilities) and DECLARED["house-baccarat"].filing


@pytest.mark.parametrize(("args", "code", "said"), [
    (["flash", "punto-banco"], EXIT_USAGE, "flash does not apply to 'punto-banco'; it applies to caribbean"),
    (["counting", "caribbean"], EXIT_USAGE,
     "counting does not apply to 'caribbean'; it applies to punto-banco, house-baccarat"),
    (["collusion", "house-baccarat"], EXIT_USAGE,
     "collusion does not apply to 'house-baccarat'; it applies to let-it-ride, caribbean"),
    (["seats", "let-it-ride"], EXIT_USAGE, "seats does not apply to 'let-it-ride'; it applies to house-baccarat"),
    (["collusion", "let-it-ride", "--reduced-deck", "T:3"], EXIT_INPUT,
     "--reduced-deck does not apply to let-it-ride; it applies to caribbean"),
    (["collusion", "let-it-ride", "--exact"], EXIT_INPUT,
     "--exact does not apply to let-it-ride; it applies to caribbean"),
    (["counting", "house-baccarat", "--wager", "banker"], EXIT_INPUT, "--wager house_game, not 'banker'"),
    (["flash", "no-such-game"], EXIT_USAGE, "flash is for a game; not a game: 'no-such-game'; it applies to caribbean"),
    (["report", "Caribean"], EXIT_USAGE, "'Caribean' is not a game (did you mean 'caribbean'?); the games: "),
    (["report", "baccarat"], EXIT_USAGE, "'baccarat' is not a game (did you mean 'house-baccarat'?)"),
    (["flash", "carib"], EXIT_USAGE, "not a game: 'carib' (did you mean 'caribbean'?); it applies to caribbean"),
    (["report", "poker"], EXIT_USAGE, "'poker' is not a game; the games: let-it-ride, caribbean, punto-banco, "),
])
def test_a_command_a_game_does_not_support_is_refused(args: list[str], code: int, said: str) -> None:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == code and said in " ".join(r.output.split()), r.output
    assert "Traceback" not in r.output


def test_the_proof_reads_in_every_section_format(tmp_path: Path) -> None:
    # a finished proof of two seats on a small shoe: proof values its best met again, in a second here where the
    # shipped six-seat proof takes minutes cold (that one is read by a deep test); once for each format, since
    # the proof command re-derives its figures on every read
    path = tmp_path / "two-seats.checkpoint"
    best_common(seat_counter(1, 2, Shoe.from_ranks({"3": 4, "9": 3, "7": 4})), 2, PAY, NEVER, checkpoint=path)
    md = CliRunner().invoke(main, ["proof", str(path)])
    assert md.exit_code == 0 and "| state | proven: no box left open |" in md.output, md.output
    r = CliRunner().invoke(main, ["proof", str(path), "--format", "json"])
    assert r.exit_code == 0, r.output
    rows = {row["item"]: row["value"] for row in json.loads(r.output)["sections"]["proof"]["rows"]}
    assert rows["state"] == "proven: no box left open" and rows["seats"] == "2"
    csv = CliRunner().invoke(main, ["proof", str(path), "--format", "csv"])
    assert csv.exit_code == 0 and ",proof,1,item," in csv.output


def test_the_published_flash_figures_apply_by_the_tables_data(sessions: Callable[[str], Session],
                                                              tmp_path: Path) -> None:
    from oddscalc.protection.flash import published_applies

    session = sessions("caribbean")
    assert published_applies(_rules(session, "us"))
    assert published_applies(_rules(session, "progressive"))  # the same game, a jackpot beside
    assert not published_applies(_rules(session, "spain"))  # straight flush 25
    mine = tmp_path / "caribbean" / "mine.toml"
    mine.parent.mkdir()
    mine.write_text((ROOT / "tables" / "caribbean" / "us.toml").read_text().replace(
        'dealer_qualifier = "ace-king"', 'dealer_qualifier = "pair of fours"'))
    assert not published_applies(_rules(session, str(mine)))


def _rules(session: Session, ref: str) -> CaribbeanRules:
    rules = session.resolve(ref)
    assert isinstance(rules, CaribbeanRules)
    return rules


def test_a_filing_leads_with_what_the_declaration_names(sessions: Callable[[str], Session],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from oddscalc.filing import document
    from oddscalc.results import Section

    session = sessions("punto-banco")
    analysis = session.analyze("standard")
    plain = document.compose(session, analysis, "standard")
    n = len(analysis.sections)
    assert plain.sections[:n] == analysis.sections
    assert [s.id for s in plain.sections[n:]][:2] == ["odds_sheet", "hold_tolerance"]
    lead = Section("lead", "A leading section")
    monkeypatch.setattr(sys.modules[__name__], "lead_of", lambda *_: lead, raising=False)
    monkeypatch.setitem(registry.DECLARED, "punto-banco",
                        dataclasses.replace(DECLARED["punto-banco"], filing=(f"{__name__}:lead_of",)))
    assert document.compose(session, analysis, "standard").sections[0] is lead
