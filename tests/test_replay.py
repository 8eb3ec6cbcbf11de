"""Reports answered again from the report store: same bytes, checked, and never stale."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from oddscalc import replay
from oddscalc.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def report(*args: str) -> str:
    r = CliRunner().invoke(main, ["report", "punto-banco", *args])
    assert r.exit_code == 0, r.output
    return r.output


def test_a_repeated_report_is_the_same_bytes_and_checked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ODDSCALC_CACHE_DIR", str(tmp_path))
    first = report("--format", "json")
    (kept,) = list((tmp_path / "reports").glob("*.txt"))
    assert report("--format", "json") == first
    kept.write_bytes(kept.read_bytes().replace(b'"punto-banco"', b'"punto-bunco"', 1))  # damaged: not used
    assert report("--format", "json") == first
    assert report("--format", "json", "--decks", "6") != first  # the options are part of the key
    assert len(list((tmp_path / "reports").glob("*.txt"))) == 2


def test_a_changed_table_or_code_is_a_new_report(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ODDSCALC_CACHE_DIR", str(tmp_path / "store"))
    table = tmp_path / "punto-banco" / "mine.toml"
    table.parent.mkdir()
    text = (ROOT / "tables" / "punto-banco" / "standard.toml").read_text()
    table.write_text(text)
    before = report("--table", str(table))
    table.write_text(text.replace('win = "8:1"', 'win = "9:1"', 1))
    assert report("--table", str(table)) != before
    key = replay.key("punto-banco", table, {"format": "md"})
    monkeypatch.setattr(replay, "code_digest", lambda: "another engine")
    assert replay.key("punto-banco", table, {"format": "md"}) != key


def test_no_cache_keeps_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ODDSCALC_CACHE_DIR", str(tmp_path))
    report("--no-cache")
    assert not (tmp_path / "reports").exists()


def test_the_code_digest_is_of_the_contents_only_in_no_order(tmp_path: Path) -> None:
    # what a proof's checkpoint records (``code_digest`` of the search's closure): moving files must not orphan it
    a, b = tmp_path / "a.py", tmp_path / "pkg" / "b.py"
    b.parent.mkdir()
    a.write_text("x = 1\n")
    b.write_text("y = 2\n")
    digest = replay.contents_digest([a, b])
    assert replay.contents_digest([b, a]) == digest  # in no order
    moved = tmp_path / "elsewhere" / "renamed.py"
    moved.parent.mkdir()
    moved.write_bytes(b.read_bytes())
    assert replay.contents_digest([a, moved]) == digest  # a pure move keeps it
    moved.write_text("y = 3\n")
    assert replay.contents_digest([a, moved]) != digest  # a changed byte does not
    assert replay.contents_digest([a]) != digest and replay.contents_digest([a, b, b]) != digest
    search = "oddscalc.seats.proof.search"
    assert replay.code_digest(search) == replay.contents_digest(replay.closure(search))
