"""Fuzzers over everything a user can hand oddscalc: every text and number field of the shipped tables, strategy
cards and profiles, and every option of every command (found by walking the CLI, so a new option is fuzzed the
day it is added).

Each case must end within its time limit, with an exit code of the documented set, without a traceback; a
failure is one line starting ``oddscalc:`` (or click's usage error); no input file changes; and text from a
file stays text in every format it reaches (no forged Markdown line, no raw ``<script>``, no control character
in the HTML, no formula cell in the workbook, a whole PDF). The fast suite runs a fixed sample of each fuzzer;
``make verify`` runs many more.
"""

from __future__ import annotations

import contextlib
import csv
import faulthandler
import functools
import hashlib
import io
import json
import re
import signal
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

import click
import openpyxl
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.proof_fixtures import NEVER, PAY, SHOE, without_pairs
from oracles.seat_fixtures import seat_counter

from oddscalc.cli.main import main
from oddscalc.cli.options import GameChoice
from oddscalc.games.house_baccarat import game as house_game
from oddscalc.games.shoe import Shoe
from oddscalc.report.xlsx_sheet import own_formula
from oddscalc.seats.proof.search import best_common

COMMANDS = main.loaded()  # every command, its module imported (the group loads them lazily)

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTED = {0, 2, 3, 4, 5, 6}  # README "Exit codes", less 1 (internal error) and 130 (interrupted)
SOFT_LIMIT = 60  # seconds a case may take: the slowest legitimate case here is a cold Caribbean count
HARD_LIMIT = 180  # past this a case stuck in C (where no signal is seen) kills the worker, with its stack

PAYLOAD = 'x\n# FORGED\n<script>alert(1)</script>\n=HYPERLINK("h")\x07 **0.0000%** | a | \u20ac'
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")

TEXTS = st.one_of(
    st.just(PAYLOAD), st.text(max_size=30),
    st.sampled_from(["", " ", "\x00", "=1+1", "@SUM(A1)", "-2+3", "\u202e\u0663", "\ud7ff\U0010ffff",
                     "word " * 20_000, "[x](javascript:1)", "\\", '"', "\r\n"]),
)
NUMBERS = st.one_of(
    st.sampled_from(['"1e-999999999%"', '"1e999999999:1"', '"1e999999999"', "1e308", "nan", "inf", "-inf", "-1", "0",
                     "-0", '"-0"', "99999999999999999999999999", '"0x10"', '"\u0663"', '"1/0"', '"1:0"', '"0:0"',
                     '"0.' + "0" * 70 + '1"', "1.5", "true", '"NaN%"', '"5%"', '"\u00bd"', '"1e-5:1"', '"-3:1"',
                     '"100%"', '"2%"', "[]", "{}", '"1,000"', '"1_000"']),
    st.integers(-10**70, 10**70).map(str),
    st.integers(0, 10**40).map(lambda n: f'"{n}:1"'),
    st.floats(allow_nan=True, allow_infinity=True).map(lambda x: json.dumps(str(x))),
)


# --- running one case ------------------------------------------------------------------------------------------

class SlowCase(Exception):
    """A case that ran past its time limit."""


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise SlowCase in the case once ``seconds`` pass (checked between Python instructions); past HARD_LIMIT a
    case stuck inside one C call is killed with every thread's stack printed, which fails the run loudly."""
    def late(signum: int, frame: FrameType | None) -> None:
        raise SlowCase(f"past {seconds} s")

    old = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    faulthandler.dump_traceback_later(HARD_LIMIT, exit=True)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        faulthandler.cancel_dump_traceback_later()


def digests(paths: list[Path]) -> dict[Path, str]:
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths if p.is_file()}


@dataclass
class Case:
    """One command line, the files it reads (which must not change) and the output file it may write."""

    args: list[str]
    inputs: list[Path] = field(default_factory=list)
    output: Path | None = None
    fmt: str = "md"
    text: str | None = None  # text put into a file, to look for in the output
    edits: list[str] = field(default_factory=list)  # the lines changed, to reproduce a failure by hand
    env: dict[str, str] = field(default_factory=dict)  # environment of the run (cache: a stores' folder of its own)


def run(case: Case) -> tuple[int, str]:
    """Run the case in this process; check what every case must hold; the exit code and its standard output."""
    before = digests(case.inputs)
    seats = house_game.FINITE_EXACT_MAX_PLAYERS
    house_game.FINITE_EXACT_MAX_PLAYERS = 2  # a filing's edge by seats filled, as far as a case's time allows
    try:
        with time_limit(SOFT_LIMIT):
            r = CliRunner().invoke(main, case.args, env=case.env or None)
    finally:
        house_game.FINITE_EXACT_MAX_PLAYERS = seats
    said = r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), (case.args, repr(r.exception))
    assert r.exit_code in DOCUMENTED, (case.args, r.exit_code, said[-2000:])
    assert "Traceback" not in said, (case.args, said[-2000:])
    if r.exit_code in (2, 3, 4):
        last = said.rstrip("\n").splitlines()[-1] if said.strip() else ""
        assert last.startswith(("oddscalc: ", "Error: ", "Try ")) or "oddscalc: " in said, (case.args, said[-2000:])
    assert digests(case.inputs) == before, ("an input changed", case.args)
    return r.exit_code, r.stdout  # what a format is checked on: stdout alone (a run's timing goes to stderr)


def check_escaped(case: Case, said: str) -> None:
    """Text from a file stays text in the format written (stdout, or the output file)."""
    out = case.output
    if case.fmt == "md":
        body = out.read_text() if out is not None and out.exists() else said
        assert not [s for s in body.splitlines() if s.lstrip().startswith("# FORGED")], case.args
        assert "<script>" not in body, case.args
    elif case.fmt == "html" and out is not None and out.exists():
        page = out.read_text()
        assert "<script>alert" not in page and not CONTROL.search(page), case.args
    elif case.fmt == "xlsx" and out is not None and out.exists():
        wb = openpyxl.load_workbook(io.BytesIO(out.read_bytes()))
        for ws in wb.worksheets:
            for row in ws.iter_rows():
                for c in row:
                    assert c.data_type != "f" or own_formula(c), (case.args, c.coordinate, c.value)
                    assert not (isinstance(c.value, str) and CONTROL.search(c.value)), (case.args, c.coordinate)
    elif case.fmt == "pdf" and out is not None and out.exists():
        blob = out.read_bytes()
        assert blob.startswith(b"%PDF-") and blob.rstrip().endswith(b"%%EOF"), case.args
    elif case.fmt == "csv":
        body = out.read_text() if out is not None and out.exists() else said
        for row in csv.DictReader(io.StringIO(body)):
            for key in ("table", "strategy", "label", "pays"):
                assert (row.get(key) or "x")[:1] not in ("=", "+", "-", "@"), (case.args, key, row.get(key))
    elif case.fmt == "json":
        body = out.read_text() if out is not None and out.exists() else said
        json.loads(body)


# --- the file fuzzer -------------------------------------------------------------------------------------------

KEYED = re.compile(r'^(\s*(?:[A-Za-z0-9_.-]+|"[^"\n]*")\s*=\s*)(.+)$')
TABLE_FILES = sorted((ROOT / "tables").glob("*/*.toml"))
CARD_FILES = sorted((ROOT / "cards").glob("*/*.toml"))
PROFILE_FILES = sorted((ROOT / "profiles").glob("*.toml"))
FILES = TABLE_FILES + CARD_FILES + PROFILE_FILES
REPORT_FORMATS = tuple(str(c) for p in COMMANDS["report"].params if "--format" in p.opts
                       for c in getattr(p.type, "choices", ()))
BINARY = ("html", "xlsx", "pdf")


def editable_lines(text: str) -> list[int]:
    """The lines holding one ``key = value`` outside a multi-line string."""
    found, inside = [], False
    for i, line in enumerate(text.splitlines()):
        if line.count('"""') % 2:
            inside = not inside
            continue
        if not inside and not line.lstrip().startswith("#") and KEYED.match(line):
            found.append(i)
    return found


def games_of(command: str) -> tuple[str, ...]:
    cmd = COMMANDS[command]
    return tuple(next(p.type for p in cmd.params if isinstance(p.type, GameChoice)).choices)


@st.composite
def file_cases(draw: st.DrawFn, folder: Path) -> Case:
    """A shipped file with one to three of its values replaced by hostile text or numbers, and a command that
    reads it, in a format of its own."""
    source = draw(st.sampled_from(FILES))
    lines = source.read_text().splitlines()
    text, edits = None, []
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.sampled_from(editable_lines("\n".join(lines))))
        m = KEYED.match(lines[i])
        assert m is not None
        if draw(st.booleans()):
            text = draw(TEXTS)
            lines[i] = m.group(1) + json.dumps(text)  # a JSON string is a TOML basic string
        else:
            lines[i] = m.group(1) + draw(NUMBERS)
        edits.append(f"{source.relative_to(ROOT)}:{i + 1}: {lines[i][:200]}")
    kind = source.parent.parent.name if source.parent.parent.name in ("tables", "cards") else "profiles"
    path = folder / (source.parent.name if kind != "profiles" else "p") / source.name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    fmt = draw(st.sampled_from(REPORT_FORMATS))
    out = folder / f"out.{fmt}" if fmt in BINARY or draw(st.booleans()) else None
    tail = ["--format", fmt] + (["-o", str(out)] if out else [])
    if kind == "tables":
        game = source.parent.name
        command = draw(st.sampled_from(["report", "report", "validate", "hold", "exposure", "check"]))
        if command == "validate":
            return Case(["validate", str(path)], [path], text=text, edits=edits)
        if command != "report" and game not in games_of(command):
            command = "report"
        if command == "report":
            return Case(["report", game, "--table", str(path), *tail], [path], out, fmt, text, edits)
        extra = ["--profile", "gli-11"] if command == "check" else []
        return Case([command, game, "--table", str(path), *extra], [path], text=text, edits=edits)
    if kind == "cards":
        game = source.parent.name
        return Case(["report", game, "--strategy", str(path), *tail], [path], out, fmt, text, edits)
    game = draw(st.sampled_from(games_of("check")))
    command = draw(st.sampled_from(["check", "report"]))
    if command == "check":
        return Case(["check", game, "--profile", str(path)], [path], text=text, edits=edits)
    return Case(["report", game, "--profile", str(path), *tail], [path], out, fmt, text, edits)


def fuzzed(data: st.DataObject, cases: Callable[[Path], st.SearchStrategy[Case]]) -> None:
    """Draw one case in a folder of its own, run it, and check its output when it wrote one."""
    with tempfile.TemporaryDirectory() as d:
        case = data.draw(cases(Path(d)))
        code, out = run(case)
        if code in (0, 5, 6):
            check_escaped(case, out)


def fuzzing(examples: int) -> settings:
    """The fuzzers' settings: a fixed sample (``derandomize``, so CI runs the cases a developer ran), no deadline
    (``time_limit`` bounds a case), and fixture checks off (each case makes its own folder)."""
    return settings(max_examples=examples, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


# ten: each example runs a command on a fuzzed file (0.2 s of CPU or more); the deep test below runs 200
@fuzzing(10)
@given(data=st.data())
def test_fuzzed_files_fail_cleanly_or_report_safely(data: st.DataObject) -> None:
    fuzzed(data, file_cases)


@pytest.mark.deep
@fuzzing(200)
@given(data=st.data())
def test_fuzzed_files_fail_cleanly_or_report_safely_deep(data: st.DataObject) -> None:
    fuzzed(data, file_cases)


def test_every_shipped_file_has_fields_to_fuzz() -> None:
    assert TABLE_FILES and CARD_FILES and PROFILE_FILES
    assert all(editable_lines(p.read_text()) for p in FILES)


# --- the option fuzzer ----------------------------------------------------------------------------------------

BASES = {  # a cheap run of each command, the start of each case (a test checks every command has one)
    "audit": ["audit", "@log"],
    "cache": ["cache"],
    "card": ["card", "caribbean", "--within", "100%", "--most-rules", "1"],
    "check": ["check", "caribbean", "--profile", "gli-11"],
    "collusion": ["collusion", "caribbean", "--situations", "3"],
    "compare": ["compare", "punto-banco", "standard", "ez-baccarat"],
    "counting": ["counting", "punto-banco", "--shoes", "2"],
    "ev": ["ev", "caribbean", "--hand", "As Kd Jh 8c 3s", "--up", "Qc"],
    "exposure": ["exposure", "caribbean"],
    "flash": ["flash", "caribbean"],
    "glimpse": ["glimpse", "punto-banco", "--model", "edge-sort-first-card"],
    "hold": ["hold", "let-it-ride"],
    "midcoup": ["midcoup", "punto-banco", "--decks", "1"],
    "profiles": ["profiles"],
    "proof": ["proof", "@checkpoint"],
    "report": ["report", "let-it-ride"],
    "seats": ["seats", "house-baccarat", "--players", "2"],
    # a server never returns: --check builds it, loads its page and exits (a chosen --check stays --check)
    "serve": ["serve", "--check"],
    "simulate": ["simulate", "punto-banco", "-n", "100"],
    "solve": ["solve", "let-it-ride", "--pay", "main.straight", "--edge", "3%"],
    "tables": ["tables", "caribbean"],
    "validate": ["validate", "@table"],
    "verify": ["verify", "@table"],
}
INTS = ["-1", "0", "1", "1e999999999", "nan", "99999999999999999999999999", "\u0663", "", "1.5", "0x10", " 7",
        "-99999999999999999999"]
FLOATS = ["nan", "inf", "-inf", "1e999", "-0", "0", "0.5", "-1", "x", "1e-999999999"]
TEXT_VALUES = [PAYLOAD, "", " ", "-", "us", "standard", "gli-11", "main.straight", "main", "3%", "1e-999999999",
               "1e999999999%", "nan", "-5", "main=1e999999999", "main=5", "jackpot=-1", "x=1", "0.5", "1/0",
               "tcp://127.0.0.1:1", "all", "none", "optimal", "\x00", "\u20ac"]
OUTPUTS = ("-o", "--output", "--chart")
PLACES = ["@table", "@card", "@profile", "@checkpoint", "@folder", "@missing", "@garbage", "@loop", "/dev/null",
          "@new", "@log"]


@functools.cache
def small_proof() -> bytes:
    """A finished proof of three seats on a small shoe: ``proof`` values its best met again in seconds, where the
    shipped six-seat proof takes minutes cold."""
    with tempfile.TemporaryDirectory() as d, pytest.MonkeyPatch.context() as m:
        path = Path(d) / "three-seats.checkpoint"
        without_pairs(m)
        best_common(seat_counter(1, 3, Shoe.from_ranks(SHOE)), 3, PAY, NEVER, checkpoint=path)
        return path.read_bytes()


def _materialise(folder: Path, game: str) -> dict[str, Path]:
    """The files a case may name: copies of a shipped table, card, profile and checkpoint (inputs an output must
    never replace), a folder, a missing file, garbage, a loop of links and a fresh output path."""
    places = {}
    table = next((p for p in TABLE_FILES if p.parent.name == game), TABLE_FILES[0])
    card = next((p for p in CARD_FILES if p.parent.name == game), CARD_FILES[0])
    for name, source in (("table", table), ("card", card), ("profile", PROFILE_FILES[0])):
        path = folder / name / source.parent.name / source.name
        path.parent.mkdir(parents=True)
        path.write_bytes(source.read_bytes())
        places[name] = path
    places["checkpoint"] = folder / "checkpoint" / "three-seats.checkpoint"  # written when a case names it
    places["folder"] = folder / "table"
    places["missing"] = folder / "missing.toml"
    places["garbage"] = folder / "garbage.toml"
    places["garbage"].write_bytes(b"\xff\xfe[[[ = \x00\n" * 3)
    places["loop"] = folder / "loop.toml"
    places["loop"].symlink_to(places["loop"])
    places["new"] = folder / "out" / "new.out"
    places["log"] = folder / "log" / "hands.jsonl"  # a hand log (oddscalc audit): an input like a table
    places["log"].parent.mkdir()
    places["log"].write_bytes(_hand_log())
    return places


@functools.cache
def _hand_log() -> bytes:
    """A small punto banco hand log, written once per run."""
    from oddscalc.simulate.log import write_log

    with tempfile.TemporaryDirectory() as folder:
        return write_log("punto-banco", Path(folder) / "log.jsonl", rounds=20, mispay="0.1").path.read_bytes()


def _value(draw: st.DrawFn, param: click.Parameter, places: dict[str, Path]) -> str:
    """A hostile or borderline value for ``param``, by its type."""
    t = param.type
    if isinstance(t, GameChoice):
        return draw(st.sampled_from([*map(str, t.choices), "baccarat", ""]))
    if isinstance(t, click.Choice):
        return draw(st.sampled_from([*map(str, t.choices), "nonsense"]))
    if isinstance(t, click.IntRange):
        low = [str(t.min), str(t.min - 1)] if t.min is not None else []  # above the least may be hours of work
        high = [str(t.max + 1)] if t.max is not None else []
        return draw(st.sampled_from([*INTS, *low, *high]))
    if isinstance(t, (click.types.IntParamType, click.types.FloatParamType)):
        return draw(st.sampled_from(INTS if isinstance(t, click.types.IntParamType) else FLOATS))
    place = draw(st.sampled_from(PLACES))
    if isinstance(t, click.Path) or draw(st.booleans()):
        return str(places[place[1:]]) if place.startswith("@") else place
    return draw(st.one_of(st.sampled_from(TEXT_VALUES), TEXTS))


@st.composite
def option_cases(draw: st.DrawFn, folder: Path) -> Case:
    """A command's cheap run with one to three of its parameters replaced by hostile values."""
    name = draw(st.sampled_from(sorted(BASES)))
    command = COMMANDS[name]
    base = BASES[name]
    game = base[1] if len(base) > 1 and not base[1].startswith("@") else "caribbean"
    places = _materialise(folder, game)
    chosen: dict[str, list[str]] = {}
    params = [p for p in command.params if p.name != "help"]
    picked = draw(st.lists(st.sampled_from(params), min_size=1, max_size=3, unique_by=lambda p: p.name)) if params \
        else []
    for p in picked:
        if isinstance(p, click.Option) and p.is_flag:
            chosen[p.name] = [p.opts[0]]
        elif isinstance(p, click.Option):
            values = [_value(draw, p, places) for _ in range(draw(st.integers(1, 2)) if p.multiple else 1)]
            chosen[p.name] = [x for v in values for x in (p.opts[0], v)]
        else:
            n = draw(st.integers(0, 3)) if p.nargs == -1 else 1
            chosen[p.name] = [_value(draw, p, places) for _ in range(n)]
    if draw(st.integers(0, 3)) == 0:  # an output named as one of the inputs, the lost-file case
        outputs = [p for p in params if isinstance(p.type, click.Path) and isinstance(p, click.Option)]
        reads = [p for p in params if p.name in ("table_ref", "strategy", "profile_refs", "checkpoint", "log")]
        if outputs and reads:
            o, r = draw(st.sampled_from(outputs)), draw(st.sampled_from(reads))
            kind = {"table_ref": "table", "strategy": "card", "profile_refs": "profile",
                    "log": "log"}.get(str(r.name), "checkpoint")
            chosen[str(o.name)] = [o.opts[0], str(places[kind])]
            chosen[str(r.name)] = [r.opts[0], str(places[kind])] if isinstance(r, click.Option) else [str(places[kind])]
    args = _merge(command, base, chosen, places)
    if str(places["checkpoint"]) in args:
        places["checkpoint"].parent.mkdir()
        places["checkpoint"].write_bytes(small_proof())
    written = {args[i + 1] for i, a in enumerate(args[:-1]) if a in OUTPUTS}
    inputs = [f for k in ("table", "card", "profile", "checkpoint", "log") if (f := places[k]) and str(f) in args
              and (str(f) not in written or args.count(str(f)) > 1)]  # what the command reads must not change
    fmt = next((args[i + 1] for i, a in enumerate(args[:-1]) if a == "--format"), "md")
    out = next((Path(args[i + 1]) for i, a in enumerate(args[:-1]) if a in OUTPUTS[:2]), None)
    # cache --clear empties the stores' folder it is given: the case's own, holding the files it must never remove
    env = {"ODDSCALC_CACHE_DIR": str(folder)} if name == "cache" else {}
    return Case(args, [*inputs, *(places[k] for k in ("table", "card", "profile") if env)], out, fmt, PAYLOAD, env=env)


def _merge(command: click.Command, base: list[str], chosen: dict[str, list[str]],
           places: dict[str, Path]) -> list[str]:
    """The base command line with the chosen parameters' values in place of its own."""
    args = [base[0]]
    rest = [str(places[a[1:]]) if a.startswith("@") else a for a in base[1:]]
    positional = [p for p in command.params if isinstance(p, click.Argument)]
    given_args, i = [], 0
    while i < len(rest):  # the base's options by name, its arguments in order
        opt = next((p for p in command.params if isinstance(p, click.Option) and rest[i] in p.opts), None)
        if opt is None:
            given_args.append(rest[i])
            i += 1
        elif opt.name in chosen:
            i += 1 if opt.is_flag else 2
        else:
            args += rest[i:i + (1 if opt.is_flag else 2)]
            i += 1 if opt.is_flag else 2
    for k, a in enumerate(positional):
        if a.name in chosen:
            args += chosen[a.name]
        elif k < len(given_args):
            args += given_args[k:] if a.nargs == -1 else [given_args[k]]
    for o in command.params:
        if isinstance(o, click.Option) and o.name in chosen:
            args += chosen[o.name]
    return args


# five: each example runs a command (a second of CPU or more); the deep test below runs 200
@fuzzing(5)
@given(data=st.data())
def test_fuzzed_options_fail_cleanly(data: st.DataObject) -> None:
    fuzzed(data, option_cases)


@pytest.mark.deep
@fuzzing(200)
@given(data=st.data())
def test_fuzzed_options_fail_cleanly_deep(data: st.DataObject) -> None:
    fuzzed(data, option_cases)


def test_every_command_has_a_cheap_run_to_fuzz() -> None:
    assert sorted(BASES) == sorted(COMMANDS)
