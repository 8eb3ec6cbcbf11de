"""Hardening: never a wrong figure with exit 0, never a traceback, never a lost file (one test per defect found)."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import random
import re
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.baccarat_brute import by_coup, settle_by_hand

from oddscalc.analysis import Session
from oddscalc.cache import Store, entry_path
from oddscalc.catalog import shipped_tables
from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_INPUT, EXIT_MISMATCH, EXIT_TABLE
from oddscalc.datafile import MAX_TABLE_BYTES
from oddscalc.files import write_atomic
from oddscalc.games.caribbean.raise_table import RaiseTable
from oddscalc.games.punto_banco.coup_features import features
from oddscalc.games.punto_banco.game import PuntoBanco
from oddscalc.protocol import count_key
from oddscalc.results import RunOptions

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "tables"
GOLDEN = ROOT / "docs" / "reports"


def cli(*args: str) -> Result:
    r = CliRunner().invoke(main, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    return r


def table_copy(tmp_path: Path, game: str, name: str, edit: Callable[[str], str] = lambda t: t) -> Path:
    p = tmp_path / game / f"{name}.toml"
    p.parent.mkdir(exist_ok=True)
    p.write_text(edit((TABLES / game / f"{name}.toml").read_text()))
    return p


# --- wrong figures with exit 0 -----------------------------------------------------------------------


def test_a_tampered_store_entry_gives_the_exact_figures(tmp_path: Path, sessions: Callable[[str], Session]) -> None:
    # shift one offset in the entry's header (the old sidecar's failure) and re-sign nothing: recounted
    game = PuntoBanco()
    rules = game.resolve(Session("punto-banco").resolve("standard").table, RunOptions())
    store = Store(tmp_path)
    game.count(rules, store)
    path = entry_path(tmp_path, count_key(game, rules))
    blob = bytearray(path.read_bytes())
    at = blob.index(b'"offset": 0')
    blob[at + 10:at + 11] = b"4"
    path.write_bytes(bytes(blob))
    a = Session("punto-banco", store=store).analyze("standard")
    assert a.wager("banker").house_edge == sessions("punto-banco").analyze("standard").wager("banker").house_edge
    assert path.read_bytes() != bytes(blob)  # repaired


def test_caribbean_pays_past_int64_are_exact(tmp_path: Path) -> None:
    # a royal of 1e14:1 overflowed the int64 solver and folded most royals with exit 0
    p = table_copy(tmp_path, "caribbean", "us", lambda t: t.replace('royal_flush = "100:1"', 'royal_flush = "1e14:1"'))
    assert cli("report", "caribbean", "--table", str(p)).exit_code == EXIT_TABLE  # not a ratio
    p = table_copy(tmp_path, "caribbean", "us",
                   lambda t: t.replace('royal_flush = "100:1"', 'royal_flush = "100000000000000:1"'))
    r = cli("report", "caribbean", "--table", str(p), "--format", "json")
    assert r.exit_code == 0, r.output
    big = next(w for w in json.loads(r.output)["wagers"] if w["wager"] == "main")
    base = next(w for w in json.loads((GOLDEN / "caribbean-us.json").read_text())["wagers"] if w["wager"] == "main")
    wins = {row["event"]: row["combinations"] for row in base["rows"]}["win_royal_flush"]
    # every royal was raised already: only its pay moves the EV, by 2 x (pay difference) x P(win with a royal)
    assert {row["event"]: row["combinations"] for row in big["rows"]}["win_royal_flush"] == wins
    gain = 2 * (10**14 - 100) * Fraction(wins, base["total_combinations"])
    assert Fraction(big["expected_value"]) - Fraction(base["expected_value"]) == gain


@pytest.mark.parametrize("game,edge", [("let-it-ride", "-1e12"), ("let-it-ride", "2000000"), ("caribbean", "-1e7")])
def test_solve_with_absurd_edges_says_so(game: str, edge: str) -> None:
    r = cli("solve", game, "--pay", "main.full_house", "--edge", edge)
    assert r.exit_code == EXIT_INPUT and r.output.startswith("oddscalc: ")


@pytest.mark.parametrize("game,pay", [("let-it-ride", "360966698753/1560"),
                                      ("caribbean", "35342609559070153/58952040")])
def test_solve_with_a_huge_edge_is_exact(game: str, pay: str) -> None:
    # every game holds any pay exactly: the answer is a pay whose report gives exactly that edge
    table = ["--table", "us"] if game == "caribbean" else []
    r = cli("solve", game, *table, "--pay", "main.full_house", "--edge", "-1e6")
    assert r.exit_code == 0 and f"exact pay:   {pay} to 1" in r.output
    assert "edge -100000000.000000%" in r.output


def test_let_it_ride_pays_past_int64_are_exact(tmp_path: Path, sessions: Callable[[str], Session]) -> None:
    big = "99999999999999999999999999"
    p = table_copy(tmp_path, "let-it-ride", "standard", lambda t: t.replace('royal_flush = "1000:1"',
                                                                            f'royal_flush = "{big}:1"'))
    r = cli("report", "let-it-ride", "--table", str(p), "--format", "json")
    assert r.exit_code == 0, r.output
    main_ = next(w for w in json.loads(r.output)["wagers"] if w["wager"] == "main")
    ev = Fraction(main_["expected_value"])
    # an independent reference from the pay-free counts: EV = E[bet 3] + E[bet 1 if it rides] + E[bet 2 if it rides]
    assert ev == _lir_reference(sessions("let-it-ride"), p)


# --- tracebacks and hangs --------------------------------------------------------------------------------


def test_table_files_that_are_not_small_regular_files(tmp_path: Path) -> None:
    folder = tmp_path / "let-it-ride"
    folder.mkdir()
    (folder / "zero.toml").symlink_to("/dev/zero")
    (folder / "random.toml").symlink_to("/dev/urandom")
    os.mkfifo(folder / "pipe.toml")
    (folder / "huge.toml").write_text("# x\n" * (MAX_TABLE_BYTES // 4 + 10))
    good = table_copy(tmp_path, "let-it-ride", "standard")
    t0 = time.perf_counter()
    r = cli("verify", str(folder))
    assert time.perf_counter() - t0 < 30
    assert r.exit_code == EXIT_TABLE
    assert r.output.count("not a regular file") == 3 and "too large for a table file" in r.output
    assert f"{good}" in r.output and "56 of 56 figure(s) hold" in r.output  # the good file was still checked


def test_deep_nesting_and_a_bom(tmp_path: Path) -> None:
    deep = table_copy(tmp_path, "let-it-ride", "standard", lambda t: t + "\nextra = " + "[" * 600 + "]" * 600 + "\n")
    bom = tmp_path / "let-it-ride" / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + (TABLES / "let-it-ride" / "standard.toml").read_bytes())
    r = cli("validate", str(deep), str(bom))
    assert r.exit_code == EXIT_TABLE
    assert f"{bom}: ok" in r.output and ("nested too deeply" in r.output or "extra: unknown key" in r.output)


def test_zero_jackpot_stake_is_a_table_error(tmp_path: Path) -> None:
    p = table_copy(tmp_path, "caribbean", "spain", lambda t: t.replace('stake = "0.50"', 'stake = "0"'))
    r = cli("report", "caribbean", "--table", str(p))
    assert r.exit_code == EXIT_TABLE and "pays.jackpot.stake: the stake must be more than 0" in r.output


@pytest.mark.parametrize("value,message", [
    ('"1:1e26"', "bad ratio"),
    ('"1' + "0" * 4000 + ':1"', "digits; a pay or amount has at most"),
    ('"0.' + "0" * 3999 + '1:1"', "digits; a pay or amount has at most"),
    ('"\u0661\u0662:1"', "bad ratio"),  # Arabic-Indic digits are not numbers here
])
def test_odd_numbers_in_a_pay(tmp_path: Path, value: str, message: str) -> None:
    p = table_copy(tmp_path, "let-it-ride", "standard", lambda t: t.replace('flush = "8:1"', f"flush = {value}", 1))
    r = cli("report", "let-it-ride", "--table", str(p))
    assert r.exit_code == EXIT_TABLE and message in r.output


@pytest.mark.parametrize("args", [
    ["report", "house-baccarat", "--decks", "2300", "--players", "2"],
    ["report", "house-baccarat", "--decks", str(10**23)],
    ["simulate", "punto-banco", "--decks", "100000000", "-n", "10"],
])
def test_huge_shoes_are_refused(args: list[str]) -> None:
    r = cli(*args)
    assert r.exit_code in (2, EXIT_INPUT) and "Traceback" not in r.output


# --- files -------------------------------------------------------------------------------------------------


def test_a_failed_store_write_warns_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    store = Store(blocked)
    store.store({"k": 1}, {"a": np.arange(3)})
    store.store({"k": 2}, {"a": np.arange(3)})
    err = capsys.readouterr().err
    assert err.count("cannot store counts") == 1


def test_csv_carries_the_digest_and_no_formulas(tmp_path: Path) -> None:
    evil = tmp_path / "let-it-ride" / "=cmd.toml"
    evil.parent.mkdir()
    evil.write_text((TABLES / "let-it-ride" / "standard.toml").read_text())
    r = cli("report", "let-it-ride", "--table", str(evil), "--format", "csv")
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(r.output)))
    assert rows[0]["table"] == "'=cmd" and len(rows[0]["table_sha256"]) == 64
    text = {"game", "table", "wager", "strategy", "event", "label", "pays"}
    assert not any(row[c].startswith(("=", "+", "-", "@")) for row in rows for c in text)


def test_markdown_text_from_a_table_cannot_inject(tmp_path: Path) -> None:
    def edit(t: str) -> str:
        t = t.replace('title = "', 'title = "<script>x</script> ', 1)
        return t.replace('description = """', 'description = """\n# Injected heading\n<img src=x>\n', 1)

    r = cli("report", "let-it-ride", "--table", str(table_copy(tmp_path, "let-it-ride", "standard", edit)))
    assert r.exit_code == 0, r.output
    assert "<script>" not in r.output and "<img" not in r.output
    assert "\n# Injected heading" not in r.output and "\\# Injected heading" in r.output


# --- strictness ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game,name,old,new,message", [
    ("punto-banco", "standard", "decks = 8", "decks = true", "rules.decks: must be a whole number"),
    ("punto-banco", "standard", "decks = 8", 'decks = "8"', "rules.decks: must be a whole number"),
    ("punto-banco", "standard", "decks = 8", "decks = 8.0", "rules.decks: must be a whole number"),
    ("caribbean", "spain", "jackpot_paid_on_fold = true", 'jackpot_paid_on_fold = "no"', "must be true or false"),
])
def test_rules_are_typed_strictly(tmp_path: Path, game: str, name: str, old: str, new: str, message: str) -> None:
    p = table_copy(tmp_path, game, name, lambda t: t.replace(old, new, 1))
    r = cli("validate", str(p))
    assert r.exit_code == EXIT_TABLE and message in r.output


@pytest.mark.parametrize("command", [["report", "let-it-ride", "--table"], ["simulate", "let-it-ride", "--table"],
                                     ["validate"], ["verify"]])
def test_an_unreadable_file_is_exit_3_everywhere(tmp_path: Path, command: list[str]) -> None:
    r = cli(*command, str(tmp_path / "missing.toml"))
    assert r.exit_code == EXIT_TABLE and "cannot read file" in r.output


def test_validate_lines_skip_multiline_strings(tmp_path: Path) -> None:
    def edit(t: str) -> str:
        return t.replace('description = """', 'description = """\n[pays.main]\nflush = "text, not a key"\n', 1).replace(
            'flush = "8:1"', 'flush = "eight"', 1)

    p = table_copy(tmp_path, "let-it-ride", "standard", edit)
    text = p.read_text()
    real = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith('flush = "eight"'))
    r = cli("validate", str(p))
    assert f"{p}:{real}: pays.main.flush: bad ratio 'eight'" in r.output


@pytest.mark.parametrize("game,pay,edge", [("punto-banco", "tie.win", "5%"), ("house-baccarat", "main.win", "2%"),
                                           ("caribbean", "jackpot.royal_flush", "20%")])
def test_solve_works_for_every_game(game: str, pay: str, edge: str) -> None:
    table = ["--table", "spain"] if game == "caribbean" else []
    r = cli("solve", game, *table, "--pay", pay, "--edge", edge)
    assert r.exit_code == 0, r.output
    assert "exact pay:" in r.output


def test_solve_says_plainly_when_a_value_is_no_pay_of_the_outcomes() -> None:
    r = cli("solve", "punto-banco", "--pay", "banker.commission", "--edge", "1%")
    assert r.exit_code == EXIT_INPUT and "no pay 'banker.commission' in this table; pays: player.win" in r.output
    r = cli("solve", "punto-banco", "--pay", "player_pair.pair", "--edge", "1%")
    assert r.exit_code == 0 and "exact pay:" in r.output


def test_a_forged_entry_is_the_documented_risk_and_fresh_ignores_it(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # someone who can write to the store can write a consistent forgery: verify catches the wrong
    # figures, and --fresh (--no-cache) does not read the store at all
    monkeypatch.setenv("ODDSCALC_CACHE_DIR", str(tmp_path))
    game = PuntoBanco()
    rules = game.resolve(Session("punto-banco").resolve("standard").table, RunOptions())
    key = count_key(game, rules)
    game.count(rules, Store(tmp_path))
    arrays = Store(tmp_path).load(key)
    assert arrays is not None
    forged = {name: np.array(a, dtype=object) if a.dtype == object else np.array(a) for name, a in arrays.items()}
    winner = features().winner
    moved = [int(np.flatnonzero((forged["cells"] != 0) & (winner == w))[0]) for w in ("banker", "player")]
    forged["cells"][moved] += np.array([1, -1], dtype=object)  # the same total, one coup moved to the banker
    Store(tmp_path).store(key, forged)
    assert cli("verify", str(TABLES / "punto-banco" / "standard.toml")).exit_code == EXIT_MISMATCH
    assert cli("verify", "--fresh", str(TABLES / "punto-banco" / "standard.toml")).exit_code == 0


# --- a fuzzer over the shipped table files ----------------------------------------------------------------------

_VALUES = ['"1:1"', '"0:1"', '"7:2"', '"99999999999999999999:1"', "5", "-3", "1.5", "true", '""', '"x"', "[]",
           "[1, 2]", '["DDDDDDDDDD"]', "{}", '"1:0"', '"ace-king"', '"pair of nines"', '"draw-0-4"', "0", "9", '"5%"',
           '"50%"', '"0.50"', '"\u0663:1"', "[" * 50 + "]" * 50]
FUZZ_TABLES = [p for p in shipped_tables() if p.parent.name != "caribbean"] + [TABLES / "caribbean" / "spain.toml"]


def _plausible(draw: st.DrawFn, value: str) -> str:
    """Another value of the same kind: what a casino's table file would hold."""
    if re.fullmatch(r'"[0-9.]+:[0-9.]+"', value):
        return f'"{draw(st.integers(0, 10**draw(st.integers(0, 12))))}:{draw(st.sampled_from([1, 1, 2, 5, 20]))}"'
    if value in ("true", "false"):
        return "false" if value == "true" else "true"
    if re.fullmatch(r"[0-9]+", value):
        return str(draw(st.integers(1, 12)))
    if re.fullmatch(r'"[0-9.]+"', value):
        return f'"{draw(st.integers(0, 30000))}.{draw(st.integers(0, 99)):02d}"'
    return draw(st.sampled_from(_VALUES))


@st.composite
def mutated(draw: st.DrawFn) -> tuple[Path, str]:
    path = draw(st.sampled_from(FUZZ_TABLES))
    lines = path.read_text().splitlines()
    keyed = [i for i, line in enumerate(lines) if " = " in line and not line.startswith((" ", "#", '"'))]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.sampled_from(keyed))
        key, _, value = lines[i].partition(" = ")
        op = draw(st.sampled_from(["plausible", "plausible", "plausible", "value", "drop", "unknown", "duplicate"]))
        if op == "plausible":
            lines[i] = f"{key} = {_plausible(draw, value.strip())}"
        elif op == "value":
            lines[i] = f"{key} = {draw(st.sampled_from(_VALUES))}"
        elif op == "drop":
            lines[i] = "#"
        elif op == "unknown":
            lines[i] = f"{key}_x = {draw(st.sampled_from(_VALUES))}"
        else:
            lines.insert(i, lines[i])
            keyed = [k + (k >= i) for k in keyed]
    return path, "\n".join(lines) + "\n"


# 25 fuzzed tables in the suite, 80 deep: the same check, more examples
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=mutated())
def test_fuzzed_tables_fail_cleanly_or_are_exact(case: tuple[Path, str], tmp_path: Path,
                                                 sessions: Callable[[str], Session]) -> None:
    _fails_cleanly_or_is_exact(case, tmp_path, sessions)


@pytest.mark.deep
@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=mutated())
def test_fuzzed_tables_fail_cleanly_or_are_exact_deep(case: tuple[Path, str], tmp_path: Path,
                                                      sessions: Callable[[str], Session]) -> None:
    _fails_cleanly_or_is_exact(case, tmp_path, sessions)


def _fails_cleanly_or_is_exact(case: tuple[Path, str], tmp_path: Path, sessions: Callable[[str], Session]) -> None:
    """A mutated table either fails with a clean message and its exit code, or reports exactly."""
    source, text = case
    game = source.parent.name
    p = tmp_path / game / source.name
    p.parent.mkdir(exist_ok=True)
    p.write_text(text)
    r = cli("report", game, "--table", str(p), "--format", "json")
    assert r.exit_code in (0, EXIT_TABLE, EXIT_INPUT), r.output
    if r.exit_code:
        assert r.output.startswith("oddscalc: ") and "\n" in r.output
        return
    data = json.loads(r.stdout)  # a mutated pay may draw a warning on standard error (a pay below a rarer hand's)
    for w in data["wagers"]:  # the report is self-consistent: EV is the sum of its rows' returns
        assert sum(Fraction(row["return"]) for row in w["rows"]) == Fraction(w["expected_value"])
        assert sum(row["combinations"] for row in w["rows"]) == w["total_combinations"]
    reference = {"let-it-ride": _lir_reference, "punto-banco": _punto_banco_reference,
                 "caribbean": _caribbean_reference}.get(game)
    if reference is not None:
        wager = "banker" if game == "punto-banco" else "main"
        ev = Fraction(next(w for w in data["wagers"] if w["wager"] == wager)["expected_value"])
        assert ev == reference(sessions(game), p)


@pytest.mark.parametrize("game", ["let-it-ride", "punto-banco", "caribbean"])
def test_the_fuzzers_references_agree_on_every_shipped_table(game: str, sessions: Callable[[str], Session]) -> None:
    reference = {"let-it-ride": _lir_reference, "punto-banco": _punto_banco_reference,
                 "caribbean": _caribbean_reference}[game]
    for path in shipped_tables(game):
        a = sessions(game).analyze(path.stem, RunOptions(brief=True))
        assert a.wager("banker" if game == "punto-banco" else "main").expected_value == reference(sessions(game), path)


def _lir_reference(session: Session, path: Path) -> Fraction:
    """Optimal EV per base bet from the pay-free counts, by the definition (independent of settle)."""
    rules = session.resolve(str(path))
    counts = session.counts(rules)
    model = rules.table.model
    pays = [getattr(model.pays.main, c) for c in ("royal_flush", "straight_flush", "four_of_a_kind",  # type: ignore[attr-defined]
                                                  "full_house", "flush", "straight", "three_of_a_kind", "two_pair",
                                                  "pair")] + [Fraction(-1)]
    den = math.lcm(*(x.denominator for x in pays))
    ints = [int(x * den) for x in pays]
    wide = max(abs(x) for x in ints) * 2**11 >= 2**62  # beyond int64 sums, Python ints
    v = np.array(ints, dtype=object if wide else np.int64)
    s3 = counts.c3.astype(v.dtype) @ v  # per suit class, to be weighted by the class sizes
    s4 = counts.c4.astype(v.dtype) @ v
    w3, w4 = counts.weights3.astype(object), counts.weights4.astype(object)
    n3, n4, hands = int(counts.weights3.sum()), int(counts.weights4.sum()), int(counts.c3[0].sum())
    # EV = E[bet 3] + E[bet 1 when it rides] + E[bet 2 when it rides]: a bet rides exactly on a positive sum
    return (Fraction(int((w3 * s3).sum()), den * n3 * hands) + Fraction(int((w3 * s3)[s3 > 0].sum()), den * n3 * hands)
            + Fraction(int((w4 * s4)[s4 > 0].sum()), den * n4 * 48))


def _punto_banco_reference(session: Session, path: Path) -> Fraction:
    """The banker bet settled by hand, coup by coup, from the engine's cell counts."""
    rules = session.resolve(str(path))
    cells = session.counts(rules)
    tally = settle_by_hand(by_coup(cells), rules.table.model.pays)["banker"]  # type: ignore[attr-defined]
    return Fraction(sum(u * n for u, n in tally.items()), int(cells.sum()))


def _caribbean_reference(session: Session, path: Path) -> Fraction:
    """Optimal EV per ante from the dealer counts, each up card's choice made by the definition."""
    rules = session.resolve(str(path))
    dc: RaiseTable = session.counts(rules)
    if rules.strategy != "optimal":
        pytest.skip("reference is for the optimal strategy")
    pays = rules.table.model.pays.main  # type: ignore[attr-defined]
    by_class = [getattr(pays, c) for c in ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
                                           "straight", "three_of_a_kind", "two_pair", "pair")]
    values = by_class + [pays.high_card, pays.high_card, Fraction(0)]
    den = math.lcm(*(x.denominator for x in values))
    pay = np.array([int(x * den) for x in values], dtype=np.int64)[dc.pay_class.astype(np.int64)]  # fits: exit 0
    slots = np.diff(dc.prefix.astype(np.int64), axis=1)  # per up card, in the table's sorted order
    nq, win, push = (slots[:, :, j] for j in range(3))
    lose = dc.holes - nq - win - push
    raise_gain = (nq + win - 3 * lose) * den + 2 * win * pay[:, None]  # in antes x den, per hole set
    best = np.maximum(raise_gain, -dc.holes * den)  # folding loses the ante
    per_hand = [int(x) for x in best.sum(axis=1)]
    return Fraction(sum(w * x for w, x in zip(dc.weights.tolist(), per_hand)), dc.total * den)


# --- faults: killed runs and killed writes ---------------------------------------------------------------------


@pytest.mark.deep
def test_killed_runs_leave_nothing_wrong_behind(tmp_path: Path) -> None:
    """Twenty kills (SIGINT and SIGKILL in turn) at random points: ten of a cold Caribbean count, each in a store
    of its own, and ten of a report being written over an old one; every store entry left is whole, the old file is
    whole or the new one is, and a following run on a killed store is exact."""
    rng = random.Random(20261201)
    out = tmp_path / "report.json"
    out.write_text("the old report\n")
    stores = []
    for i in range(20):
        kind = signal.SIGINT if i % 2 == 0 else signal.SIGKILL
        store = tmp_path / f"store-{i}" if i < 10 else tmp_path / "store-writes"
        if i < 10:  # a cold Caribbean count, killed as it starts its kernels or in the middle of counting
            args, wait = ["report", "caribbean", "--format", "json"], rng.uniform(0.3, 6.0)
            stores.append(store)
        else:  # a report being written over an existing file
            args, wait = ["report", "let-it-ride", "--format", "json", "-o", str(out)], rng.uniform(0.3, 2.5)
        p = subprocess.Popen([sys.executable, "-m", "oddscalc", *args], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, env={**os.environ, "ODDSCALC_CACHE_DIR": str(store)})
        time.sleep(wait)
        p.send_signal(kind)
        _, err = p.communicate(timeout=300)
        # -SIGINT: stopped before Python set up its handler (still starting); 130: "Aborted!"; 0: it had finished
        assert p.returncode in (0, 1, 130, -signal.SIGINT, -signal.SIGKILL), (i, p.returncode, err[-500:])
        assert b"Segmentation fault" not in err and p.returncode != -signal.SIGSEGV
        assert out.read_text() in ("the old report\n", (GOLDEN / "let-it-ride-standard.json").read_text())
    for store in [*stores, tmp_path / "store-writes"]:  # every entry left behind is whole
        entries = list(store.glob("*.counts"))
        assert all(e.read_bytes().startswith(b"oddscalc-counts\n") for e in entries) and len(entries) <= 2
    for store in stores[:2]:  # one store killed by SIGINT, one by SIGKILL: the next run on it is exact
        done = subprocess.run([sys.executable, "-m", "oddscalc", "report", "caribbean", "--format", "json"],
                              env={**os.environ, "ODDSCALC_CACHE_DIR": str(store)}, capture_output=True, check=True)
        assert done.stdout == (GOLDEN / "caribbean-spain.json").read_bytes()  # the default table


def test_a_loop_of_links_and_a_deep_nest_of_folders_are_clear_errors(tmp_path: Path) -> None:
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    loop = str(tmp_path / "a.toml")
    for args, code in ((["validate", loop], EXIT_TABLE), (["report", "caribbean", "--table", loop], EXIT_TABLE),
                       (["verify", loop], EXIT_TABLE)):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == code and "Too many levels of symbolic links" in r.output, r.output
        assert "Traceback" not in r.output and not isinstance(r.exception, RuntimeError)
    deep = tmp_path / "deep"
    os.makedirs(deep / "/".join(["d"] * 40))
    r = CliRunner().invoke(main, ["verify", str(deep)])
    assert r.exit_code == EXIT_INPUT and "folders nested more than 32 deep" in r.output, r.output


def test_a_write_sets_the_mode_before_the_file_appears_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    write_atomic(target, b"text", mode=0o640)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 and target.read_bytes() == b"text"
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"]
    with pytest.raises(KeyboardInterrupt):  # Ctrl-C in the middle of the write
        write_atomic(target, _Interrupted())
    assert target.read_bytes() == b"text" and [p.name for p in tmp_path.iterdir()] == ["out.md"]


class _Interrupted(list[bytes]):
    """Pieces of a file whose writing is interrupted after the first."""

    def __iter__(self) -> Iterator[bytes]:
        yield b"half"
        raise KeyboardInterrupt
