"""verify, solve, check and hold in every format (issue 42): CSV and JSON say what the text says, in the JSON
contract's words, parse back, go to -o FILE like the other commands' output, and keep their exit codes."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_CHECK, EXIT_MISMATCH, EXIT_TABLE
from oddscalc.report.json import CONTRACT

ROOT = Path(__file__).resolve().parents[2]
STANDARD = ROOT / "tables" / "punto-banco" / "standard.toml"
US = ROOT / "tables" / "caribbean" / "us.toml"
SPAIN = ROOT / "tables" / "caribbean" / "spain.toml"
LET_IT_RIDE = ROOT / "tables" / "let-it-ride" / "standard.toml"


def run(args: list[str], code: int = 0) -> Result:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == code, (args, r.output[-2000:])
    assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception))
    return r


def cells(text: str) -> list[dict[str, str]]:
    """A section document's CSV: one dict per line (every one with the same columns)."""
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and all(None not in row for row in rows)  # no line longer than the header
    return rows


def named(path: Path) -> dict[str, Any]:
    """The fields naming a table in the report's JSON contract, computed here from the file."""
    return {"game": path.parent.name, "table": path.stem, "table_sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


# --- verify ---------------------------------------------------------------------------------------------------

def test_verify_as_json_and_csv_holds_every_figure_of_the_text(tmp_path: Path) -> None:
    table = tmp_path / "punto-banco" / "standard.toml"
    table.parent.mkdir()
    shutil.copy(STANDARD, table)
    text = run(["verify", str(table)]).stdout
    data = json.loads(run(["verify", str(table), "--format", "json"]).stdout)
    assert list(data)[:2] == ["contract", "oddscalc_version"] and data["contract"] == CONTRACT
    rows = data["sections"]["published_checks"]["rows"]
    lines = text.splitlines()
    assert len(rows) == len(lines) - 3 > 5  # a header, its rule, a line per figure, the summary
    for row, line in zip(rows, lines[2:]):
        assert row["figure"] in line and row["stated"] in line and row["computed"] in line, (row, line)
        assert line.split()[-1] == row["verdict"] == "ok"
        assert {k: row[k] for k in ("game", "table", "table_sha256")} == {**named(STANDARD), "table": "standard"}
        assert row["file"] == str(table) and row["block"] in ("published", "claimed") and row["note"] is None
    assert f"{len(rows)} of {len(rows)} figure(s) hold in 1 table(s)" in text
    assert data["sections"]["published_checks"]["notes"] == [f"{len(rows)} of {len(rows)} figure(s) hold"]
    [file] = data["sections"]["tables_verified"]["rows"]
    assert (file["figures"], file["hold"], file["verdict"]) == (len(rows), len(rows), "all hold")
    found = cells(run(["verify", str(table), "--format", "csv"]).stdout)
    verdicts = [c["value"] for c in found if c["section"] == "published_checks" and c["column"] == "verdict"]
    assert verdicts == ["ok"] * len(rows)
    stated = [c["value"] for c in found if c["section"] == "published_checks" and c["column"] == "stated"]
    assert stated == [row["stated"] for row in rows]


@pytest.mark.parametrize("fmt", ["md", "csv", "json"])
def test_verify_exits_5_on_a_mismatch_whatever_the_format(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "us.toml"
    text = US.read_text()
    assert text.count('"rows.push.combinations" = 321623100') == 1
    path.write_text(text.replace('"rows.push.combinations" = 321623100', '"rows.push.combinations" = 321623101'))
    out = tmp_path / f"out.{fmt}"
    r = run(["verify", str(path), "--format", fmt, "-o", str(out)], EXIT_MISMATCH)
    assert r.stdout == "" and "rows.push.combinations: expected 321623101, computed 321623100" in r.stderr
    written = out.read_text()
    if fmt == "json":
        rows = json.loads(written)["sections"]["published_checks"]["rows"]
        wrong = [row for row in rows if row["verdict"] != "ok"]
        assert [(w["figure"], w["stated"], w["computed"], w["verdict"]) for w in wrong] == [
            ("rows.push.combinations", "321623101", "321623100", "MISMATCH")]
        assert json.loads(written)["sections"]["tables_verified"]["rows"][0]["verdict"] == "1 do not hold"
    elif fmt == "csv":
        assert [c["row"] for c in cells(written) if c["column"] == "verdict" and c["value"] == "MISMATCH"] != []
    else:
        assert "37 of 38 figure(s) hold in 1 table(s)" in written


def test_verify_names_an_invalid_table_in_json_and_exits_3(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "caribbean"\n[pays\n')
    r = run(["verify", str(bad), str(STANDARD), "--format", "json"], EXIT_TABLE)
    files = json.loads(r.stdout)["sections"]["tables_verified"]["rows"]
    assert [(f["file"], f["verdict"]) for f in files] == [(str(bad), "invalid"), ("punto-banco/standard", "all hold")]
    assert files[0]["table_sha256"] is None and "1 table file(s) invalid" in r.stderr


# --- solve -----------------------------------------------------------------------------------------------------

def test_solve_as_json_and_csv_gives_the_exact_pay_of_the_text() -> None:
    args = ["solve", "let-it-ride", "--pay", "main.straight", "--edge", "3%"]
    text = run(args).stdout
    exact = re.search(r"exact pay:\s+(\S+) to 1", text)
    assert exact is not None
    data = json.loads(run([*args, "--format", "json"]).stdout)
    assert data["contract"] == CONTRACT and {k: data[k] for k in ("game", "table")} == {
        "game": "let-it-ride", "table": "standard"}
    assert data["table_sha256"] == named(LET_IT_RIDE)["table_sha256"]
    [solution] = data["sections"]["solved_pay"]["rows"]
    assert solution == {"pay": "main.straight", "wager": "main", "target_house_edge": "3/100", "units": exact[1]}
    printable = data["sections"]["printable_pays"]["rows"]
    assert printable and all(f"printable:   {p['pays']}  -> house edge" in text for p in printable)
    for p in printable:  # each lands on the side it says, and its pays are its units
        side = Fraction(p["house_edge"]) - Fraction(3, 100)
        assert p["side"] == ("above" if side > 0 else "below" if side < 0 else "exactly")
        assert p["pays"] == f"{Fraction(p['units'])}:1"
    steps = data["sections"]["solve_steps"]["rows"]
    assert [s["step"] for s in steps] == list(range(1, len(steps) + 1)) and Fraction(steps[-1]["units"]) == Fraction(
        exact[1])
    found = cells(run([*args, "--format", "csv"]).stdout)
    assert {(c["section"], c["column"], c["value"]) for c in found} >= {("solved_pay", "units", exact[1])}


# --- check ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["md", "csv", "json"])
def test_check_exits_6_on_a_failed_rule_whatever_the_format(fmt: str, tmp_path: Path) -> None:
    # spain's Jackpot returns 74.65%: nevada-minimum-return fails it (the README's line)
    args = ["check", "caribbean", "--profile", "nevada-minimum-return"]
    r = run([*args, "--format", fmt], EXIT_CHECK)
    assert "compliance check(s) fail" in r.stderr
    if fmt == "json":
        data = json.loads(r.stdout)
        assert {k: data[k] for k in ("game", "table", "table_sha256")} == named(SPAIN)
        rows = data["sections"]["compliance_nevada-minimum-return"]["rows"]
        assert [(row["wager"], row["verdict"]) for row in rows if row["verdict"] != "pass"] == [("jackpot", "FAIL")]
    elif fmt == "csv":
        failed = [c for c in cells(r.stdout) if c["column"] == "verdict" and c["value"] == "FAIL"]
        assert len(failed) == 1 and failed[0]["table"] == "spain"
    else:
        assert r.stdout == run(args, EXIT_CHECK).stdout  # the default is Markdown, as it always was
        assert r.stdout.startswith("# ") and "| FAIL |" in r.stdout
    out = tmp_path / "out"
    assert run([*args, "--format", fmt, "-o", str(out)], EXIT_CHECK).stdout == ""
    assert out.read_text() == r.stdout


# --- hold -------------------------------------------------------------------------------------------------------

def test_hold_as_json_and_csv_has_the_rows_of_the_table(tmp_path: Path) -> None:
    args = ["hold", "caribbean", "--stake", "main=5", "--stake", "jackpot=1"]  # and the seat playing both
    text = run(args).stdout
    table_rows = [line for line in text.splitlines() if line.startswith("|")][2:]  # below the header and its rule
    data = json.loads(run([*args, "--format", "json"]).stdout)
    assert {k: data[k] for k in ("game", "table", "table_sha256")} == named(SPAIN)
    [section] = data["sections"].values()
    assert len(section["rows"]) == len(table_rows) > 3
    for row, line in zip(section["rows"], table_rows):
        assert line.startswith(f"| {row['subject']} | {row['rounds']:,} |"), (row, line)
    found = cells(run([*args, "--format", "csv"]).stdout)
    assert len({c["row"] for c in found}) == len(table_rows)
    out = tmp_path / "hold.json"
    run([*args, "--format", "json", "-o", str(out)])
    assert json.loads(out.read_text()) == data
