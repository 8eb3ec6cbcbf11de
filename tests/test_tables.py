"""Every error message of table validation, provoked by a broken file."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from oddscalc.analysis import Session
from oddscalc.catalog import load_table as load_table_file
from oddscalc.catalog import shipped_tables
from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_TABLE
from oddscalc.datafile import TableError, key_lines
from oddscalc.tables import parse_ratio

ROOT = Path(__file__).resolve().parent.parent
STANDARD = (ROOT / "tables" / "let-it-ride" / "standard.toml").read_text()


def _write(tmp_path: Path, text: str, folder: str = "mine", name: str = "t.toml") -> Path:
    d = tmp_path / folder
    d.mkdir(exist_ok=True)
    p = d / name
    p.write_text(text)
    return p


def _problems(path: Path) -> list[str]:
    with pytest.raises(TableError) as e:
        load_table_file(path)
    return [str(p) for p in e.value.problems]


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("path", shipped_tables(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_shipped_table_is_valid(path: Path) -> None:
    t = load_table_file(path)
    assert t.game == path.parent.name and t.id == path.stem and len(t.sha256) == 64


@pytest.mark.parametrize("text,value", [("100:1", 100), ("1:2", Fraction(1, 2)), ("0.95:1", Fraction(19, 20)),
                                        ("8 to 1", 8), (5, 5)])
def test_ratios(text: object, value: Fraction) -> None:
    assert parse_ratio(text) == value


def test_unknown_key_names_file_line_and_key(tmp_path: Path) -> None:
    text = STANDARD.replace('pair = "1:1"\n\n[pays.three', 'pair = "1:1"\nfive_aces = "2000:1"\n\n[pays.three')
    p = _write(tmp_path, text)
    (msg,) = _problems(p)
    assert msg == f"{p}:{_line_of(text, 'five_aces')}: pays.main.five_aces: unknown key"


def test_missing_hand_class(tmp_path: Path) -> None:
    text = STANDARD.replace('flush = "8:1"\n', "", 1)
    p = _write(tmp_path, text)
    (msg,) = _problems(p)
    assert msg.endswith(": pays.main.flush: missing")
    assert f"{p}:{_line_of(text, '[pays.main]')}:" in msg


def test_bad_ratio_and_negative_pay_reported_together(tmp_path: Path) -> None:
    text = STANDARD.replace('straight = "5:1"', 'straight = "five to one"')
    text = text.replace('two_pair = "2:1"', 'two_pair = "-2:1"')
    p = _write(tmp_path, text)
    msgs = _problems(p)
    assert len(msgs) == 2
    assert any(f":{_line_of(text, 'five to one')}: pays.main.straight: bad ratio 'five to one'" in m for m in msgs)
    assert any(f":{_line_of(text, '-2:1')}: pays.main.two_pair: negative pay '-2:1'" in m for m in msgs)


def test_float_pay_refused(tmp_path: Path) -> None:
    p = _write(tmp_path, STANDARD.replace('full_house = "11:1"', "full_house = 11.0"))
    (msg,) = _problems(p)
    assert "pays.main.full_house: write pays as exact ratio strings" in msg


def test_game_must_match_folder(tmp_path: Path) -> None:
    p = _write(tmp_path, STANDARD, folder="caribbean")
    msgs = _problems(p)
    assert any("game: says 'let-it-ride' but the file is in the 'caribbean' folder" in m for m in msgs)


def test_unknown_game(tmp_path: Path) -> None:
    p = _write(tmp_path, STANDARD.replace('game = "let-it-ride"', 'game = "blackjack"'))
    (msg,) = _problems(p)
    assert f"{p}:{_line_of(STANDARD, 'game =')}: game: unknown game 'blackjack'" in msg


def test_bad_rule_value(tmp_path: Path) -> None:
    p = _write(tmp_path, STANDARD.replace('min_pair = "tens"', 'min_pair = "elevens"'))
    (msg,) = _problems(p)
    assert "rules.min_pair: not a rank: 'elevens'" in msg


def test_invalid_toml_names_the_line(tmp_path: Path) -> None:
    text = STANDARD.replace('flush = "8:1"', 'flush = "8:1')
    p = _write(tmp_path, text)
    (msg,) = _problems(p)
    line = _line_of(text, 'flush = "8:1')
    assert msg.startswith(f"{p}:{line}: not valid TOML")


def test_unreadable_file(tmp_path: Path) -> None:
    (msg,) = _problems(tmp_path / "nope.toml")
    assert "cannot read file" in msg


def test_key_lines_dotted_and_headers() -> None:
    lines = key_lines('a = 1\n[b.c]\nd = 2\ne.f = 3\n')
    assert lines[("a",)] == 1 and lines[("b", "c")] == 2 and lines[("b", "c", "d")] == 3
    assert lines[("b", "c", "e", "f")] == 4


@pytest.mark.parametrize(("key", "edit"), [
    ("limits.bets.jakpot", ("jackpot = { min", "jakpot = { min")),
    ("published.mian", ("[published.main]", "[published.mian]")),
])
def test_a_key_naming_no_wager_is_refused_when_the_file_is_loaded(tmp_path: Path, key: str,
                                                                     edit: tuple[str, str]) -> None:
    text = (ROOT / "tables" / "caribbean" / "spain.toml").read_text()
    if key.startswith("published"):
        text = (ROOT / "tables" / "caribbean" / "us.toml").read_text()
    assert edit[0] in text
    path = tmp_path / "caribbean" / "x.toml"
    path.parent.mkdir()
    path.write_text(text.replace(edit[0], edit[1], 1))
    line = next(n for n, s in enumerate(path.read_text().splitlines(), start=1) if edit[1] in s)
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == EXIT_TABLE, r.output
    assert f"{path}:{line}: {key}: no wager '{key.split('.')[-1]}' in this table" in r.output
    assert "Traceback" not in r.output


# tables/information holds information models (``oddscalc glimpse --model``) and tables/counts count systems
# (``oddscalc counting --count``), not tables
@pytest.mark.parametrize("path", sorted(p for p in (ROOT / "tables").glob("*/*.toml")
                                         if p.parent.name not in ("information", "counts")),
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_tables_wagers_are_its_pays_blocks(path: Path, sessions: Callable[[str], Session]) -> None:
    # the load-time check names wagers by the [pays] blocks: they must be the analysis's wagers
    table = load_table_file(path)
    analysis = sessions(table.game).analyze(table)
    assert sorted(table.model.wager_ids()) == sorted(w.wager for w in analysis.wagers)


def test_validate_refuses_a_figure_the_analysis_has_not_so_that_verify_never_does_later(tmp_path: Path) -> None:
    text = (ROOT / "tables" / "caribbean" / "us.toml").read_text().replace("[published.main]\n",
                                                                       "[published.main]\nhous_edge = \"5.22%\"\n", 1)
    path = tmp_path / "caribbean" / "x.toml"
    path.parent.mkdir()
    path.write_text(text)
    line = text.splitlines().index('hous_edge = "5.22%"') + 1
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == EXIT_TABLE, r.output
    assert f"{path}:{line}: published.main.hous_edge: unknown figure 'hous_edge'" in r.output
    ok = CliRunner().invoke(main, ["validate", str(ROOT / "tables" / "caribbean" / "us.toml")])
    assert ok.exit_code == 0 and "ok (caribbean" in ok.output
