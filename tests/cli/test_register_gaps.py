"""Classes of issues 9 and 41 that had no test of their own when docs/hardening.md was written: each case here
provokes the hostile input and checks what oddscalc does with it (the register names these tests)."""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from click.testing import CliRunner, Result
from oracles.children import Ran, run_in_one_child

from oddscalc.cache import Store, entry_path
from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_INPUT, EXIT_MISMATCH, EXIT_TABLE
from oddscalc.files import write_atomic
from oddscalc.report.xlsx_sheet import own_formula

ROOT = Path(__file__).resolve().parents[2]
FORGED = "X\n\n# FORGED <script>alert(1)</script>"


def _cli(args: list[str]) -> Result:
    r = CliRunner().invoke(main, args)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    return r


def _copy(tmp_path: Path, source: Path, old: str, new: str, folder: str | None = None) -> Path:
    """``source`` with ``old`` replaced once by ``new``, in a folder named like the source's (a table's game)."""
    text = source.read_text()
    assert old in text, (source, old)  # the edit happens, or the case provokes nothing
    path = tmp_path / (folder or source.parent.name) / source.name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.replace(old, new, 1))
    return path


def _title(tmp_path: Path, game: str, table: str) -> Path:
    return _copy(tmp_path, ROOT / "tables" / game / f"{table}.toml", '\ntitle = "',
                 f"\ntitle = {json.dumps(FORGED)[:-1]} ")


# --- issue 41, forged output: every text from a file escaped in every Markdown it reaches -------------------------

def _side_bet_notes(tmp_path: Path) -> list[str]:
    table = _copy(tmp_path, ROOT / "tables" / "punto-banco" / "standard.toml", 'notes = ["A pair is two',
                  f'notes = [{json.dumps(FORGED)}, "A pair is two')
    return ["report", "punto-banco", "--table", str(table), "--no-cache"]


def _card_title(tmp_path: Path) -> list[str]:
    card = _copy(tmp_path, ROOT / "cards" / "let-it-ride" / "wizard-of-odds.toml", '\ntitle = "',
                 f"\ntitle = {json.dumps(FORGED)[:-1]} ")
    return ["report", "let-it-ride", "--strategy", str(card)]


def _currency(tmp_path: Path) -> list[str]:
    table = _copy(tmp_path, ROOT / "tables" / "caribbean" / "spain.toml", 'currency = "EUR"',
                  f"currency = {json.dumps(FORGED)}")
    return ["exposure", "caribbean", "--table", str(table)]


CASES: dict[str, Callable[[Path], list[str]]] = {
    "side-bet-notes": _side_bet_notes,
    "card-title": _card_title,
    "limits-currency": _currency,
    "title-in-exposure": lambda p: ["exposure", "caribbean", "--table", str(_title(p, "caribbean", "spain"))],
    "title-in-flash": lambda p: ["flash", "caribbean", "--table", str(_title(p, "caribbean", "us"))],
    "title-in-collusion": lambda p: ["collusion", "caribbean", "--table", str(_title(p, "caribbean", "us")),
                                     "--situations", "3"],
    "title-in-counting": lambda p: ["counting", "punto-banco", "--table", str(_title(p, "punto-banco", "standard")),
                                    "--shoes", "2"],
    "title-in-seats": lambda p: ["seats", "house-baccarat", "--table", str(_title(p, "house-baccarat", "seed")),
                                 "--players", "2", "--decks", "1"],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_file_text_cannot_forge_a_line_in_any_markdown_report(tmp_path: Path, case: str) -> None:
    r = _cli(CASES[case](tmp_path))
    assert r.exit_code == 0, r.output
    assert "FORGED" in r.output  # the text reached the report: the case provokes what it means to
    assert not [s for s in r.output.splitlines() if s.lstrip().startswith("# FORGED")], r.output
    assert "<script>" not in r.output


# --- issue 41, forged output: the workbook --------------------------------------------------------------------------

def _cells(path: Path) -> list[Any]:
    wb = openpyxl.load_workbook(io.BytesIO(path.read_bytes()))
    return [c for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value is not None]


def test_a_title_beginning_with_equals_is_text_in_the_workbook(tmp_path: Path) -> None:
    table = _copy(tmp_path, ROOT / "tables" / "punto-banco" / "ez-baccarat.toml", 'title = "Dragon 7"',
                  'title = "=1+1"')
    table.write_text(table.read_text().replace('\ntitle = "', '\ntitle = "=SUM(A1:A9) ', 1))  # the table's too
    out = tmp_path / "ez.xlsx"
    r = _cli(["report", "punto-banco", "--table", str(table), "--format", "xlsx", "-o", str(out), "--no-cache"])
    assert r.exit_code == 0, r.output
    cells = _cells(out)
    assert not [c.coordinate for c in cells if c.data_type == "f" and not own_formula(c)]  # only oddscalc's formulas
    texts = {c.value for c in cells if isinstance(c.value, str)}
    assert "=1+1" in texts and any(t.startswith("=SUM(A1:A9) ") for t in texts)


def test_a_text_longer_than_a_cell_is_cut_in_the_workbook_with_a_note(tmp_path: Path) -> None:
    label = "w " * 20_000  # 40,000 characters; a cell holds 32,767
    table = _copy(tmp_path, ROOT / "tables" / "punto-banco" / "ez-baccarat.toml",
                  'label = "Banker wins with a three-card 7"', f"label = {json.dumps(label)}")
    out = tmp_path / "ez.xlsx"
    r = _cli(["report", "punto-banco", "--table", str(table), "--format", "xlsx", "-o", str(out), "--no-cache"])
    assert r.exit_code == 0, r.output
    long = [c.value for c in _cells(out) if isinstance(c.value, str) and c.value.startswith("w w w")]
    assert long, "the label is in the workbook"
    assert all(len(v) <= 32_767 for v in long)
    assert all(v.endswith("[cut: 40,000 characters; a cell holds 32,767]") for v in long)


# --- issue 41, hangs: a huge exponent in a file or an option ---------------------------------------------------------

def _progressive(tmp_path: Path, old: str, new: str) -> Path:
    return _copy(tmp_path, ROOT / "tables" / "caribbean" / "progressive.toml", old, new)


def _profile(tmp_path: Path) -> Path:
    path = tmp_path / "p.toml"
    path.write_text('title = "t"\nsource = "s"\n[[rules]]\nrule = "minimum_return"\nminimum = "1e-999999999%"\n')
    return path


EXPONENTS: dict[str, tuple[Callable[[Path], list[str]], int, str]] = {
    "meter-contribution": (lambda p: ["validate", str(_progressive(p, 'contribution = "15%"',
                                                                    'contribution = "1e-999999999%"'))],
                           EXIT_TABLE, ":40: pays.jackpot.meter.contribution: not a share: '1e-999999999%'"),
    "published-figure-validate": (lambda p: ["validate", str(_progressive(p, '= "263,205"', '= "1e999999999"'))],
                                  EXIT_TABLE, "'1e999999999': an exponent is at most 60 either way"),
    "published-figure-verify": (lambda p: ["verify", str(_progressive(p, '= "263,205"', '= "1e999999999"'))],
                                EXIT_MISMATCH, "'1e999999999': an exponent is at most 60 either way"),
    "profile-minimum": (lambda p: ["check", "caribbean", "--profile", str(_profile(p))],
                        EXIT_TABLE, "p.toml:5: rules.0.minimum: not a share: '1e-999999999%'"),
    "counting-penetration": (lambda p: ["counting", "punto-banco", "--wager", "banker", "--penetration",
                                        "1e-999999999"], EXIT_INPUT, "--penetration: not a number: '1e-999999999'"),
}


@pytest.fixture(scope="module")
def exponents_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    # in a child process with a time limit: building 10**999999999 happens in C, where no alarm interrupts it (one
    # child for every case: oddscalc's imports paid once)
    lines = {case: make(tmp_path_factory.mktemp(case)) for case, (make, _, _) in EXPONENTS.items()}
    return run_in_one_child(lines, timeout=60 * len(lines))


@pytest.mark.parametrize("case", sorted(EXPONENTS))
def test_a_huge_exponent_is_refused_before_any_arithmetic(exponents_run: dict[str, Ran], case: str) -> None:
    _, code, said = EXPONENTS[case]
    r = exponents_run[case]
    assert r.code == code, (r.stdout, r.stderr)
    assert said in r.stderr and "Traceback" not in r.stderr and r.raised is None, (r.stderr, r.raised)
    assert r.seconds < 30  # a normal run takes about a second; the hang took minutes


# --- issue 41, low: Arabic-Indic digits in a meter share --------------------------------------------------------------

def test_arabic_indic_digits_in_a_meter_share_are_refused(tmp_path: Path) -> None:
    table = _progressive(tmp_path, 'straight_flush = "10% meter"', 'straight_flush = "\u0661\u0660% meter"')
    r = _cli(["validate", str(table)])
    assert r.exit_code == EXIT_TABLE
    assert ":33: pays.jackpot.straight_flush: bad meter prize '\u0661\u0660% meter'" in r.output, r.output


# --- issue 41, low: a Ctrl-C as a write begins, and the mode set before the file appears ------------------------------

@pytest.fixture
def _ctrl_c_raises() -> Iterator[None]:
    # Python's own Ctrl-C handler, whatever the test runner set (a worker may ignore SIGINT)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.mark.usefixtures("_ctrl_c_raises")
def test_a_ctrl_c_as_the_temporary_file_is_made_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.md"
    target.write_bytes(b"old")
    made = tempfile.mkstemp

    def interrupted(*args: Any, **kwargs: Any) -> tuple[int, str]:
        fd, name = made(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)  # the Ctrl-C comes the moment the file exists
        return fd, name

    monkeypatch.setattr(tempfile, "mkstemp", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["out.md"]


def test_a_written_file_has_its_mode_before_it_appears(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    rename = os.replace

    def replace(src: str, dst: str) -> None:
        seen.append(stat.S_IMODE(os.stat(src).st_mode))  # what a reader would see the instant the file appears
        rename(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    write_atomic(tmp_path / "out.md", b"text", mode=0o644)
    assert seen == [0o644]


def test_a_full_disk_midway_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    target.write_bytes(b"the old report")

    def pieces() -> Iterator[bytes]:
        yield b"half"
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        write_atomic(target, _Full(pieces()))
    assert target.read_bytes() == b"the old report" and [p.name for p in tmp_path.iterdir()] == ["report.md"]


class _Full(list[bytes]):
    """Pieces of a file whose writing fails as a full disk does, after the first."""

    def __init__(self, pieces: Iterator[bytes]) -> None:
        super().__init__()
        self.pieces = pieces

    def __iter__(self) -> Iterator[bytes]:
        return self.pieces


# --- issue 9, files: a killed writer's temporary file in the store is removed later -----------------------------------

def test_a_killed_writers_temporary_file_in_the_store_is_removed_after_ten_minutes(tmp_path: Path) -> None:
    key = {"game": "test", "engine": 1}
    entry = entry_path(tmp_path, key)
    old = tmp_path / f".{entry.name}.killed.tmp"  # as write_atomic names its temporary files
    new = tmp_path / f".{entry.name}.writing.tmp"
    for path in (old, new):
        path.write_bytes(b"half an entry")
    eleven_minutes_ago = time.time() - 11 * 60
    os.utime(old, (eleven_minutes_ago, eleven_minutes_ago))
    Store(tmp_path).store(key, {"a": np.arange(3)})
    assert not old.exists()  # left by a killed writer: removed
    assert new.exists()  # perhaps another run writing now: kept
    assert entry.exists()


# --- issue 9, strictness: --symbolic for every game ------------------------------------------------------------------

@pytest.mark.parametrize("game", ["caribbean", "let-it-ride", "punto-banco", "house-baccarat"])
def test_symbolic_works_for_every_game(game: str) -> None:
    r = _cli(["report", game, "--symbolic", "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    rows = data["sections"]["symbolic_ev"]["rows"]
    assert {row["wager"] for row in rows} == {w["wager"] for w in data["wagers"]}
    assert all(Fraction(row["exact"]) != 0 for row in rows)


def test_the_ties_sensitivity_is_what_a_unit_of_its_pay_moves_the_edge(tmp_path: Path) -> None:
    # the case: the tie pay does change the tie's edge; checked by two plain reports, not by the expression
    def tie(table: str, *more: str) -> dict[str, Any]:
        data = json.loads(_cli(["report", "punto-banco", "--table", table, *more, "--format", "json",
                                "--no-cache"]).output)
        wager: dict[str, Any] = next(w for w in data["wagers"] if w["wager"] == "tie")
        return wager | {"sections": data["sections"]}

    shipped = ROOT / "tables" / "punto-banco" / "standard.toml"
    nine = _copy(tmp_path, shipped, 'win = "8:1"', 'win = "9:1"')
    at8, at9 = tie(str(shipped), "--symbolic"), tie(str(nine))
    (row,) = [row for row in at8["sections"]["symbolic_ev"]["rows"] if row["pay"] == "tie.win"]
    moved = Fraction(at9["expected_value"]) - Fraction(at8["expected_value"])
    assert moved > 0 and Fraction(row["exact"]) == -moved  # edge per unit of pay: minus the EV it adds


# --- found while writing the register -----------------------------------------------------------------------------

def test_validate_names_the_line_of_a_quoted_key_holding_a_dot(tmp_path: Path) -> None:
    table = _progressive(tmp_path, '"break-even meter.meter" = "263,205"', '"break-even meter.meter" = "x"')
    line = table.read_text().splitlines().index('"break-even meter.meter" = "x"') + 1
    r = _cli(["validate", str(table)])
    assert r.exit_code == EXIT_TABLE
    assert f"{table}:{line}: published.sections.progressive_jackpot.break-even meter.meter" in r.output, r.output


@pytest.mark.parametrize("args", [["report", "let-it-ride", "--table", "\x00"],  # the deep fuzzer's find
                                  ["report", "caribbean", "--table", "a\x00b.toml"],
                                  ["report", "caribbean", "-o", "x\x00.md"]])
def test_a_nul_byte_in_an_argument_is_one_line_exit_4(args: list[str]) -> None:
    r = _cli(args)
    assert r.exit_code == EXIT_INPUT and r.output == (
        "oddscalc: an argument holds a NUL byte (\\x00), which no file name, id or value may hold\n")


def test_a_nul_byte_in_a_table_files_name_is_a_table_error() -> None:
    from oddscalc.datafile import TableError, read_text

    with pytest.raises(TableError, match=r"a\\x00b.toml: cannot read file: a NUL byte in its name"):
        read_text(Path("a\x00b.toml"))
