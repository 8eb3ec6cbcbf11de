"""A careless user is never misled (issue 42): figures published for one table are not compared with a copy whose
rules or pays differ, and a real mismatch still fails."""

from __future__ import annotations

import json
import re
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from oddscalc.analysis import analyze
from oddscalc.catalog import load_table, resolve_table, shipped_tables
from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_INPUT, EXIT_MISMATCH
from oddscalc.tables import FIGURE_BLOCKS, rules_and_pays, rules_and_pays_sha256

US = resolve_table("caribbean", "us").path
NOT_COMPARED = "this table differs from the one these figures describe in pays.main.straight_flush"


def copy_of_us(tmp_path: Path, old: str = "", new: str = "", name: str = "my-casino.toml") -> Path:
    """A copy of the shipped us table, with one line changed."""
    text = US.read_text()
    if old:
        assert text.count(old) == 1
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text)
    return path


# --- published figures apply to the table they were published for -------------------------------------------


@pytest.mark.parametrize("path", [p for p in shipped_tables() if any(
    b in tomllib.loads(p.read_text()) for b in FIGURE_BLOCKS)], ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_every_shipped_block_states_the_table_it_describes(path: Path) -> None:
    t = load_table(path)
    own = rules_and_pays_sha256(t.model)
    for name in FIGURE_BLOCKS:
        block = getattr(t.model, name)
        if block is not None:
            assert block.rules_and_pays_sha256 == own, f"{path} [{name}]: write rules_and_pays_sha256 = \"{own}\""


def test_the_fingerprint_is_of_rules_and_pays_only(tmp_path: Path) -> None:
    us = load_table(US)
    # a title, a comment, a ratio spelt another way and a default written out are the same table
    same = load_table(copy_of_us(tmp_path, 'flush = "5:1"', 'flush = "10:2"  # five to one', "a.toml"))
    assert rules_and_pays_sha256(same.model) == rules_and_pays_sha256(us.model) and same.sha256 != us.sha256
    other = load_table(copy_of_us(tmp_path, 'straight_flush = "50:1"', 'straight_flush = "40:1"', "b.toml"))
    assert rules_and_pays_sha256(other.model) != rules_and_pays_sha256(us.model)
    differ = {k for k, v in rules_and_pays(us.model).items() if rules_and_pays(other.model)[k] != v}
    assert differ == {"pays.main.straight_flush"}


def test_a_copy_with_one_pay_changed_is_not_compared(tmp_path: Path) -> None:
    path = copy_of_us(tmp_path, 'straight_flush = "50:1"', 'straight_flush = "40:1"')
    r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code == 0, r.output
    assert f"[published] not compared: {NOT_COMPARED}" in r.output and "MISMATCH" not in r.output
    r = CliRunner().invoke(main, ["report", "caribbean", "--table", str(path)])
    assert r.exit_code == 0, r.output
    assert f"Not compared (published): {NOT_COMPARED} (they describe the shipped table 'us')." in r.output
    assert "MISMATCH" not in r.output and "| published |" not in r.output
    r = CliRunner().invoke(main, ["report", "caribbean", "--table", str(path), "--format", "json"])
    checks = json.loads(r.output)["published_checks"]
    assert [c["verdict"] for c in checks] == ["not compared"] and checks[0]["note"].startswith(NOT_COMPARED)


def test_a_block_for_no_shipped_table_is_not_compared_either(tmp_path: Path) -> None:
    own = rules_and_pays_sha256(load_table(US).model)
    path = copy_of_us(tmp_path, own, "0" * 64)
    r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code == 0, r.output
    assert f"the figures' {'0' * 64}" in r.output and "MISMATCH" not in r.output


def test_a_true_mismatch_still_fails(tmp_path: Path) -> None:
    # same rules and pays, a wrong published number: compared, and it does not hold
    path = copy_of_us(tmp_path, '"rows.push.combinations" = 321623100', '"rows.push.combinations" = 321623101')
    r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code == EXIT_MISMATCH, r.output
    assert "rows.push.combinations: expected 321623101, computed 321623100" in r.output
    assert "37 of 38 figure(s) hold in 1 table(s)" in r.output and "not compared" not in r.output


def test_the_shipped_tables_are_all_compared() -> None:
    r = CliRunner().invoke(main, ["verify", str(US), str(US.parent.parent / "let-it-ride" / "standard.toml")])
    assert r.exit_code == 0, r.output
    assert "not compared" not in r.output and "MISMATCH" not in r.output
    assert "figure(s) hold in 2 table(s)" in r.output


# --- pays that do not rise with their hand's rarity ------------------------------------------------------------

FLUSH_50 = ("pays.main.flush (50:1, 1 in 509) pays more than the rarer pays.main.four_of_a_kind (20:1, 1 in 4,165), "
            "pays.main.full_house (7:1, 1 in 694): pays should rise with the hand's rarity (a typo?)")


def test_a_flush_at_50_to_1_warns_and_the_report_says_who_wins(tmp_path: Path) -> None:
    path = copy_of_us(tmp_path, 'flush = "5:1"', 'flush = "50:1"', "flush-50.toml")
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 0 and r.stdout.startswith(f"{path}: ok")
    assert r.stderr == f"warning: {path}: {FLUSH_50}\n"
    for _ in range(2):  # the second report is replayed from the store, and warns all the same
        r = CliRunner().invoke(main, ["report", "caribbean", "--table", str(path)])
        assert r.exit_code == 0 and r.stderr == f"warning: {path}: {FLUSH_50}\n"
        first = r.stdout.splitlines()[2]  # the title, a blank line, the verdict
        assert first.startswith("> This game favours the PLAYER: wager main (Caribbean Stud (ante and raise)) has an "
                                "expected value of +")
    r = CliRunner().invoke(main, ["report", "caribbean", "--table", str(path), "--format", "json"])
    assert json.loads(r.stdout)["verdict"]["player_wagers"] == ["main"] and "pays.main.flush" in r.stderr


def test_rarity_is_the_games_own_count(tmp_path: Path) -> None:
    # the five-card classes among C(52,5) = 2,598,960 hands (known values), ace-king as Caribbean's paid high card
    known = {"royal_flush": 4, "straight_flush": 36, "four_of_a_kind": 624, "full_house": 3744, "flush": 5108,
             "straight": 10200, "three_of_a_kind": 54912, "two_pair": 123552, "pair": 1098240,
             "high_card": 164 * 1020}  # 164 non-straight rank sets under A-K, 4^5 - 4 suitings
    a = analyze("caribbean", "us", brief=True)
    assert dict(a.rarity) == {f"main.{k}": Fraction(n, 2598960) for k, n in known.items()}
    # three cards: a straight (720 of 22,100) is rarer than a flush (1,096), the other way round from five cards,
    # so a three-card flush paid above the straight warns, and only the three-card bonus is named
    text = resolve_table("let-it-ride", "standard").path.read_text()
    assert text.count('flush = "3:1"') == 1
    path = tmp_path / "flush-7.toml"
    path.write_text(text.replace('flush = "3:1"', 'flush = "7:1"'))
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 0
    assert r.stderr == (f"warning: {path}: pays.three_card_bonus.flush (7:1, 1 in 20.16) pays more than the rarer "
                        "pays.three_card_bonus.straight (6:1, 1 in 30.69): pays should rise with the hand's rarity "
                        "(a typo?)\n")


def test_no_shipped_table_warns_and_side_bets_without_an_order_are_skipped() -> None:
    r = CliRunner().invoke(main, ["validate", *map(str, shipped_tables())])
    assert r.exit_code == 0 and r.stderr == ""  # equal pays (a pair and ace-king at 1:1) are not flagged
    # punto banco's bets (a margin, a pair, a natural, a total) are no ranks of one hand: the game ranks none
    assert analyze("punto-banco", "dragon-bonus", brief=True).rarity == {}


def test_a_shipped_table_of_each_game_validates_without_a_warning() -> None:
    # the fast tier's case of the test above (every shipped table, deep): the same command and the same check on
    # the tables of each game whose counts are cheap (the tables with side bets counted apart stay deep)
    ids = {"caribbean": "us", "let-it-ride": "standard", "punto-banco": "standard", "house-baccarat": "seed",
           "mississippi-stud": "standard"}
    r = CliRunner().invoke(main, ["validate", *(str(resolve_table(g, t).path) for g, t in ids.items())])
    assert r.exit_code == 0 and r.stderr == "", r.output
    assert analyze("punto-banco", "dragon-bonus", brief=True).rarity == {}


# --- solve says on which side of the target a printable pay lands ---------------------------------------------


def test_solve_says_which_side_of_the_target(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["solve", "caribbean", "--table", "us", "--pay", "royal_flush", "--edge", "5%"])
    assert r.exit_code == 0, r.output
    lines = {m.group(1): m for m in re.finditer(
        r"printable:\s+(\d+:1)\s+-> house edge [\d.]+% \(([\d.]+)%, (just )?(above|below) the 5% asked\)", r.output)}
    assert set(lines) == {"1433:1", "1434:1"}
    for pay, m in lines.items():
        # the edge at that pay, from a report of a copy paying it: the side and the digits printed agree with it
        path = copy_of_us(tmp_path, 'royal_flush = "100:1"', f'royal_flush = "{pay}"', f"royal-{pay[:4]}.toml")
        report = CliRunner().invoke(main, ["report", "caribbean", "--table", str(path), "--format", "json"])
        edge = Fraction(json.loads(report.stdout)["wagers"][0]["house_edge"])
        shown = Fraction(m.group(2)) / 100
        places = len(m.group(2).split(".")[1]) + 2
        assert abs(edge - shown) <= Fraction(1, 2 * 10**places)
        assert m.group(4) == ("above" if edge > Fraction(1, 20) else "below")


# --- a new table from a shipped one ------------------------------------------------------------------------


@pytest.mark.parametrize("path", shipped_tables(), ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_tables_copy_leaves_the_figures_out(path: Path, tmp_path: Path) -> None:
    ref = path.stem if sum(p.stem == path.stem for p in shipped_tables()) == 1 else f"{path.parent.name}/{path.stem}"
    dest = tmp_path / "my-casino.toml"
    r = CliRunner().invoke(main, ["tables", "copy", ref, str(dest)])
    assert r.exit_code == 0, r.output
    copy, shipped = load_table(dest), load_table(path)
    assert copy.model.published is None and copy.model.claimed is None
    assert rules_and_pays(copy.model) == rules_and_pays(shipped.model)  # the same table, every pay and rule
    assert "[published" not in dest.read_text() and "[claimed" not in dest.read_text()


def test_tables_copy_never_overwrites(tmp_path: Path) -> None:
    dest = tmp_path / "mine.toml"
    dest.write_text("mine")
    r = CliRunner().invoke(main, ["tables", "copy", "us", str(dest)])
    assert r.exit_code == EXIT_INPUT and "never overwrites" in r.output and dest.read_text() == "mine"
    r = CliRunner().invoke(main, ["tables", "copy", "seed", str(tmp_path / "seed.toml")])
    assert r.exit_code == EXIT_INPUT and "house-baccarat/seed, punto-banco/seed" in r.output
    assert not (tmp_path / "seed.toml").exists()
    r = CliRunner().invoke(main, ["tables", "copy", "us"])
    assert r.exit_code == EXIT_INPUT
    r = CliRunner().invoke(main, ["tables", "caribbean"])
    assert r.exit_code == 0 and r.output.count("caribbean ") == len(shipped_tables("caribbean"))


# --- a strategy card is named, and the closest decisions say whose they are ------------------------------------


def test_a_card_is_named_and_the_closest_decisions_say_whose() -> None:
    card = str(Path(__file__).resolve().parents[2] / "cards" / "caribbean" / "matching-rank.toml")
    r = CliRunner().invoke(main, ["report", "caribbean", "--table", "us", "--strategy", card])
    assert r.exit_code == 0, r.output
    assert "- Strategy: the card matching-rank.toml (Matching rank: raise a pair or better;" in r.stdout
    assert "| Player hand | Up card | Raise - fold | Decision (optimal) | Decision (card matching-rank.toml) |" \
        in r.stdout
    r = CliRunner().invoke(main, ["report", "caribbean", "--table", "us", "--strategy", card, "--format", "json"])
    rows = json.loads(r.stdout)["sections"]["closest_decisions"]["rows"]
    assert rows and all(row["optimal_decision"] == ("raise" if Fraction(row["raise_minus_fold"]) > 0 else "fold")
                        for row in rows)
    # the card folds ace-king hands the optimal strategy raises: the two columns are not the same
    assert any(row["optimal_decision"] != row["decision"] for row in rows)
    r = CliRunner().invoke(main, ["report", "caribbean", "--table", "us", "--format", "json"])
    columns = json.loads(r.stdout)["sections"]["closest_decisions"]["columns"]
    assert [c["title"] for c in columns][-1] == "Decision (optimal)" and len(columns) == 4


# --- the headline figures are the wager's own; the figures published analyses state go apart, labelled ----------


def test_other_figures_are_apart_and_labelled() -> None:
    md = CliRunner().invoke(main, ["report", "caribbean", "--table", "us"]).stdout
    data = json.loads(CliRunner().invoke(main, ["report", "caribbean", "--table", "us", "--format", "json"]).stdout)
    facts = md[md.index("## Caribbean Stud (ante and raise)"):md.index("| Event |")]
    for key in data["wagers"][0]["extras"]:
        assert key.replace("_", " ") not in facts.lower()
    published = md[md.index("## Published figures"):]
    frequency = Fraction(data["wagers"][0]["extras"]["raise_frequency"])
    assert frequency == Fraction(5316167, 10179260)  # 52.2255% (52.22547...)
    assert "| main | Raise frequency | raise_frequency | 52.2255% | 5316167/10179260 |" in published
    assert "| main | Win pair or ace king | win_pair_or_ace_king | 2,343,248,003,808 |  |" in published
