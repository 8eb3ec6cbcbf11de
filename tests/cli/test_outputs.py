"""No output ever replaces an input: every output option of every command refuses a file the command reads."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_INPUT

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("kind", "args"), [
    ("card", ["report", "caribbean", "--strategy", "{card}", "-o", "{card}"]),
    ("card", ["compare", "caribbean", "us", "spain", "--strategy", "{card}", "-o", "{card}"]),
    ("profile", ["report", "caribbean", "--table", "us", "--profile", "{profile}", "-o", "{profile}"]),
    ("table", ["flash", "caribbean", "--table", "{table}", "--chart", "{table}"]),
    ("table", ["report", "caribbean", "--table", "{table}", "-o", "{link}"]),
    ("table", ["verify", "{table}", "--format", "json", "-o", "{table}"]),
    ("table", ["verify", "{folder}", "-o", "{link}"]),
    ("table", ["solve", "caribbean", "--table", "{table}", "--pay", "main.royal_flush", "--edge", "5%", "-o",
               "{table}"]),
    ("card", ["solve", "caribbean", "--table", "us", "--strategy", "{card}", "--pay", "main.royal_flush", "--edge",
              "5%", "--format", "csv", "-o", "{card}"]),
    ("profile", ["check", "caribbean", "--table", "us", "--profile", "{profile}", "--format", "csv", "-o",
                 "{profile}"]),
    ("table", ["check", "caribbean", "--table", "{table}", "--profile", "gli-11", "-o", "{table}"]),
    ("table", ["hold", "caribbean", "--table", "{table}", "--format", "json", "-o", "{link}"]),
    ("card", ["hold", "caribbean", "--table", "us", "--strategy", "{card}", "-o", "{card}"]),
])
def test_an_output_naming_an_input_is_refused_and_the_input_kept(tmp_path: Path, kind: str, args: list[str]) -> None:
    files = {"card": tmp_path / "c.toml", "profile": tmp_path / "p.toml", "table": tmp_path / "caribbean" / "t.toml"}
    shutil.copy(ROOT / "cards" / "caribbean" / "matching-rank.toml", files["card"])
    shutil.copy(ROOT / "profiles" / "gli-11.toml", files["profile"])
    files["table"].parent.mkdir()
    shutil.copy(ROOT / "tables" / "caribbean" / "us.toml", files["table"])
    link = tmp_path / "link.md"
    link.symlink_to(files["table"])  # an output through a link to an input is the input
    before = files[kind].read_bytes()
    r = CliRunner().invoke(main, [a.format(link=link, folder=files["table"].parent, **files) for a in args])
    assert r.exit_code == EXIT_INPUT, r.output
    assert "is a file this command reads" in r.output and "Traceback" not in r.output
    assert files[kind].read_bytes() == before


def test_what_one_command_read_does_not_bind_the_next(tmp_path: Path) -> None:
    card = tmp_path / "c.toml"
    shutil.copy(ROOT / "cards" / "caribbean" / "matching-rank.toml", card)
    assert CliRunner().invoke(main, ["report", "caribbean", "--strategy", str(card)]).exit_code == 0
    out = tmp_path / "out.md"
    card.rename(out)  # the next command reads no card: its output may go where the card was
    r = CliRunner().invoke(main, ["report", "caribbean", "-o", str(out)])
    assert r.exit_code == 0 and out.read_text().startswith("# Caribbean Stud Poker")
