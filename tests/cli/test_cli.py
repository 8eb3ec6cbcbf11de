"""The CLI as a user meets it: exit codes, messages, no tracebacks."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from oddscalc.cli.main import EXIT_INPUT, EXIT_TABLE, main

ROOT = Path(__file__).resolve().parents[2]


def test_tables_lists_shipped_tables() -> None:
    r = CliRunner().invoke(main, ["tables"])
    assert r.exit_code == 0
    assert any(line.split()[:2] == ["let-it-ride", "standard"] for line in r.output.splitlines())


def test_validate_ok_and_bad(tmp_path: Path) -> None:
    good = ROOT / "tables" / "let-it-ride" / "standard.toml"
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text().replace('pair = "1:1"', 'pair = "x"', 1))
    r = CliRunner().invoke(main, ["validate", str(good), str(bad)])
    assert r.exit_code == EXIT_TABLE
    assert f"{good}: ok" in r.output
    assert "bad ratio 'x'" in r.output
    assert "Traceback" not in r.output


def test_report_with_broken_table_exits_3_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "let-it-ride"\ntitle = "x"\n[pays.main]\nroyal_flush = "1:0"\n')
    r = CliRunner().invoke(main, ["report", "let-it-ride", "--table", str(bad)])
    assert r.exit_code == EXIT_TABLE
    assert "zero denominator" in r.output and "pays.main.flush: missing" in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_unknown_table_id() -> None:
    r = CliRunner().invoke(main, ["report", "let-it-ride", "--table", "nonesuch"])
    assert r.exit_code == EXIT_TABLE
    assert "no 'let-it-ride' table with this id" in r.output


def test_option_that_does_not_apply() -> None:
    r = CliRunner().invoke(main, ["report", "let-it-ride", "--decks", "2"])
    assert r.exit_code == EXIT_INPUT
    assert "--decks does not apply to let-it-ride" in r.output


def test_unknown_strategy() -> None:
    r = CliRunner().invoke(main, ["report", "let-it-ride", "--strategy", "yolo"])
    assert r.exit_code == EXIT_INPUT
    assert "unknown strategy 'yolo'" in r.output


def test_report_json_to_file(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    r = CliRunner().invoke(main, ["report", "let-it-ride", "--format", "json", "-o", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert data["game"] == "let-it-ride" and data["table"] == "standard"
    assert {w["wager"] for w in data["wagers"]} == {"main", "three_card_bonus"}


def test_python_dash_m_and_shell_completion() -> None:
    r = subprocess.run([sys.executable, "-m", "oddscalc", "--version"], capture_output=True, text=True, check=False)
    assert r.returncode == 0 and r.stdout.startswith("oddscalc, version ")
    env = {**os.environ, "_ODDSCALC_COMPLETE": "bash_source"}
    r = subprocess.run([sys.executable, "-m", "oddscalc"], capture_output=True, text=True, env=env, check=False)
    assert r.returncode == 0 and "_oddscalc_completion" in r.stdout


def test_an_id_is_never_a_file_in_the_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a file named like a shipped id must not replace the shipped table, and a folder must not break it
    monkeypatch.chdir(tmp_path)
    (tmp_path / "standard").write_text('game = "let-it-ride"\ntitle = "impostor"\n')
    (tmp_path / "royal-500").mkdir()
    for ident in ("standard", "royal-500"):
        r = CliRunner().invoke(main, ["report", "let-it-ride", "--table", ident, "--format", "json"])
        assert r.exit_code == 0, r.output
        assert json.loads(r.output)["table_title"] != "impostor"
    r = CliRunner().invoke(main, ["report", "let-it-ride", "--table", "./standard"])
    assert r.exit_code == EXIT_TABLE and "pays: missing" in r.output


def test_output_never_overwrites_the_table_it_reads(tmp_path: Path) -> None:
    table = tmp_path / "let-it-ride" / "mine.toml"
    table.parent.mkdir()
    text = (ROOT / "tables" / "let-it-ride" / "standard.toml").read_text()
    table.write_text(text)
    r = CliRunner().invoke(main, ["report", "let-it-ride", "--table", str(table), "-o", str(table)])
    assert r.exit_code == EXIT_INPUT and "is a file this command reads" in r.output
    assert table.read_text() == text


def test_output_goes_through_links_and_into_pipes_never_in_their_place(tmp_path: Path) -> None:
    """-o replaces a file atomically keeping its mode, writes through a symbolic link to the file it names (the
    link stays, and a link to the table read is refused as the table), writes into a pipe being read, and
    refuses a pipe nobody reads rather than wait; a pipe is never replaced by a file (nor would /dev/null be)."""
    target = tmp_path / "report.md"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.md"
    link.symlink_to(target.name)
    r = CliRunner().invoke(main, ["report", "punto-banco", "-o", str(link)])
    assert r.exit_code == 0 and link.is_symlink() and target.read_text().startswith("# Punto banco")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    table = tmp_path / "mine.toml"
    table.write_text((ROOT / "tables" / "punto-banco" / "standard.toml").read_text())
    to_table = tmp_path / "table-link.md"
    to_table.symlink_to(table.name)
    r = CliRunner().invoke(main, ["report", "punto-banco", "--table", str(table), "-o", str(to_table)])
    assert r.exit_code == EXIT_INPUT and "is a file this command reads" in r.output
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = CliRunner().invoke(main, ["report", "punto-banco", "-o", str(fifo)])
    assert r.exit_code == EXIT_INPUT and "a pipe with no reader" in r.output and stat.S_ISFIFO(fifo.lstat().st_mode)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, so the report (a few KB) fits the pipe
    try:
        r = CliRunner().invoke(main, ["report", "punto-banco", "-o", str(fifo)])
        assert r.exit_code == 0, r.output
        assert os.read(reader, 1 << 16).startswith(b"# Punto banco") and stat.S_ISFIFO(fifo.lstat().st_mode)
    finally:
        os.close(reader)


def test_a_table_that_is_not_a_regular_file_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    r = CliRunner().invoke(main, ["validate", str(fifo), str(ROOT / "tables" / "let-it-ride" / "standard.toml")])
    assert r.exit_code == EXIT_TABLE
    assert "not a regular file" in r.output and "standard.toml: ok" in r.output


def test_completion_offers_shipped_table_and_profile_ids() -> None:
    def complete(words: str) -> list[str]:
        env = {"COMP_WORDS": f"oddscalc {words}", "COMP_CWORD": str(len(words.split()) + (words[-1] == " "))}
        r = CliRunner().invoke(main, [], env={**env, "_ODDSCALC_COMPLETE": "bash_complete"}, prog_name="oddscalc")
        return [line.split(",", 1)[1] for line in r.output.splitlines() if line.startswith("plain,")]

    assert {"us", "spain", "progressive"} <= set(complete("report caribbean --table "))
    assert complete("check caribbean --profile ne") == ["nevada-minimum-return", "new-jersey-slots"]
    assert complete("report caribbean --profile g") == ["gli-11"]
