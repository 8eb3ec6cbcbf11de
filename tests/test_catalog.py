"""Pays changed without a file (``analyze(..., pays=...)``, ``catalog.with_pays``): the same figures as a table file
with that pay edited, the file's errors for a bad value, a clear one for a key that names no pay, and the file's
published figures not compared with a table they do not describe."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from oddscalc import analyze
from oddscalc.analysis import Session
from oddscalc.catalog import resolve_table, tables_dir, with_pays
from oddscalc.datafile import TableError
from oddscalc.results import NOT_COMPARED, Analysis

STANDARD = (tables_dir() / "punto-banco" / "standard.toml").read_text(encoding="utf-8")
FINGERPRINT = 'rules_and_pays_sha256 = "1649cc5646e4c77e732da4c847c0e8966f7508ea652db6730f635908d0491d24"'


def edited(tmp_path: Path, old: str, new: str, text: str = STANDARD) -> Path:
    """The shipped standard punto banco file with one line changed, as a user edits a copy (the independent path:
    TOML text, read by the loader every table file goes through)."""
    assert text.count(old) == 1, old
    path = tmp_path / "punto-banco-copy.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def figures(a: Analysis) -> list[tuple[str, object]]:
    return [(w.wager, (w.rows, w.total_combinations, w.expected_value, w.variance)) for w in a.wagers]


@pytest.mark.parametrize(("key", "value", "old", "new"), [
    ("tie.win", "9:1", '[pays.tie]\nwin = "8:1"', '[pays.tie]\nwin = "9:1"'),
    ("player_pair.pair", "12:1", '{ player_pair = true }\npays = "11:1"', '{ player_pair = true }\npays = "12:1"'),
    ("pays.banker.commission", "4%", 'commission = "5%"', 'commission = "4%"'),
])
def test_pays_gives_the_figures_of_the_file_with_the_pay_changed(tmp_path: Path, key: str, value: str, old: str,
                                                                   new: str) -> None:
    by_argument = analyze("punto-banco", table="standard", pays={key: value})
    by_file = analyze("punto-banco", table=str(edited(tmp_path, old, new)))
    assert figures(by_argument) == figures(by_file)
    assert figures(by_argument) != figures(analyze("punto-banco", table="standard"))
    name = key.removeprefix("pays.")
    assert by_argument.table.id == f"standard[{name}={value}]"
    assert by_argument.table.sha256 != resolve_table("punto-banco", "standard").sha256


def test_the_published_figures_are_not_compared_with_a_table_they_do_not_describe() -> None:
    a = analyze("punto-banco", table="standard", pays={"tie.win": "9:1"})
    (check,) = a.checks  # one line for the block, no MISMATCH rows
    assert check.verdict == NOT_COMPARED and check.table == "punto-banco/standard[tie.win=9:1]"
    assert check.message == ("this table differs from the one these figures describe in pays.tie.win (they describe "
                             "the shipped table 'standard')")
    assert "not compared: this table differs" in repr(a) and "MISMATCH" not in repr(a)


def test_figures_stating_no_fingerprint_describe_the_file_they_are_in(tmp_path: Path) -> None:
    path = edited(tmp_path, FINGERPRINT, "")  # a [published] block as older files wrote it
    assert all(c.ok and c.verdict == "ok" for c in analyze("punto-banco", table=str(path)).checks)
    (check,) = analyze("punto-banco", table=str(path), pays={"tie.win": "9:1"}).checks
    assert check.verdict == NOT_COMPARED and "pays.tie.win" in check.message  # not 14.36% against a 4.84% edge


def test_the_same_pays_leave_the_figures_compared() -> None:
    a = analyze("punto-banco", table="standard", pays={"tie.win": "8:1"})
    assert a.checks and all(c.verdict == "ok" for c in a.checks)


def test_a_key_naming_no_pay_is_refused_listing_the_pays(tmp_path: Path) -> None:
    with pytest.raises(TableError) as e:
        analyze("punto-banco", table="standard", pays={"tie.wins": "9:1", "tie": "9:1", "jackpot.win": "9:1"})
    assert [(p.file, p.key) for p in e.value.problems] == [
        ("punto-banco/standard with pays=", "pays.tie.wins"), ("punto-banco/standard with pays=", "pays.tie"),
        ("punto-banco/standard with pays=", "pays.jackpot.win")]
    assert str(e.value.problems[0]) == (
        "punto-banco/standard with pays=: pays.tie.wins: unknown key: no pay 'tie.wins' in this table (write "
        "<wager>.<key>); its pays: player.win, banker.win, banker.commission, tie.win, player_pair.pair, "
        "banker_pair.pair")


def test_a_bad_value_gives_the_files_error_naming_the_key(tmp_path: Path) -> None:
    with pytest.raises(TableError) as by_argument:
        analyze("punto-banco", table="standard", pays={"tie.win": "9:x", "tie.wins": "1:1", "banker.win": -1})
    with pytest.raises(TableError) as by_file:
        analyze("punto-banco", table=str(edited(tmp_path, '[pays.tie]\nwin = "8:1"', '[pays.tie]\nwin = "9:x"')))
    (file_problem,) = by_file.value.problems
    unknown, *bad = by_argument.value.problems  # every problem at once: the unknown key, then the file model's
    assert unknown.key == "pays.tie.wins" and unknown.message.startswith("unknown key: no pay 'tie.wins'")
    assert [(p.key, p.message) for p in bad] == [("pays.banker.win", "negative pay -1"),
                                                 ("pays.tie.win", file_problem.message)]
    assert file_problem.message == "bad ratio '9:x' (write it as \"a:b\", e.g. \"100:1\")"


def test_the_issues_example_on_the_caribbean_us_table(sessions: Callable[[str], Session]) -> None:
    sessions("caribbean").analyze("us")  # the count the suite shares, stored for analyze() to read
    a = analyze("caribbean", table="us", pays={"main.straight_flush": "40:1"})
    assert a.table.id == "us[main.straight_flush=40:1]"
    (check,) = a.checks
    assert check.verdict == NOT_COMPARED and check.message.startswith(
        "this table differs from the one these figures describe in pays.main.straight_flush")
    win = a.wager("main").row("win_straight_flush")
    assert win.pays == "40:1" and win.combinations == 156929720  # the count the Wizard of Odds publishes


def test_no_pays_is_the_table_itself_and_a_table_changed_in_memory_is_refused() -> None:
    table = resolve_table("punto-banco", "standard")
    assert with_pays(table, {}) is table
    changed = dataclasses.replace(table, sha256="0" * 64)
    with pytest.raises(TableError, match="changed since it was read"):
        with_pays(changed, {"tie.win": "9:1"})
