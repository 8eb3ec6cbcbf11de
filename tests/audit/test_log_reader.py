"""The hand-log format and its reader: validation with file, line and key; streaming; the Observed decisions."""

from __future__ import annotations

import json
import tracemalloc
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from oddscalc.audit.logformat import FORMAT
from oddscalc.audit.reader import decisions, header, rounds, split
from oddscalc.cards import parse_cards
from oddscalc.catalog import resolve_table
from oddscalc.datafile import TableError

SPAIN = resolve_table("caribbean", "spain")


def head(**over: Any) -> dict[str, Any]:
    return {"format": FORMAT, "version": 1, "game": "caribbean", "table": "spain", "table_sha256": SPAIN.sha256,
            "seats": 1, **over}


def a_round(n: int, **over: Any) -> dict[str, Any]:
    return {"round": n, "seat": 1, "cards": {"player": ["As", "Kd", "Jh", "8c", "3s"],
                                             "dealer": ["Qc", "2c", "2d", "9h", "9s"]},
            "decisions": [{"decision": "raise", "action": "raise", "seen": ["As", "Kd", "Jh", "8c", "3s", "Qc"]}],
            "stakes": {"main": 1}, "paid": {"main": -3}, **over}


def write(path: Path, *records: dict[str, Any], raw: str = "") -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + raw)
    return path


def problem(path: Path) -> str:
    with pytest.raises(TableError) as e:
        header(path)
        list(rounds(path))
    assert e.value.what == "hand log"
    return str(e.value)


def test_a_good_log_reads(tmp_path: Path) -> None:
    log = write(tmp_path / "a.jsonl", head(), a_round(1), a_round(2, paid={"main": "-3"}))
    assert header(log).table == "spain"
    got = list(rounds(log))
    assert [line for line, _ in got] == [2, 3]
    assert got[1][1].paid == {"main": "-3"}


@pytest.mark.parametrize(("record", "where"), [
    (head(version=2), "a.jsonl:1: version:"),
    (head(format="csv"), "a.jsonl:1: format:"),
    (head(table_sha256="abc"), "a.jsonl:1: table_sha256:"),
    (head(extra=1), "a.jsonl:1: extra: unknown key"),
])
def test_a_bad_header_names_line_and_key(tmp_path: Path, record: dict[str, Any], where: str) -> None:
    assert where in problem(write(tmp_path / "a.jsonl", record))


@pytest.mark.parametrize(("record", "where"), [
    (a_round(1, cards={"player": ["As", "Kd", "Xx"], "dealer": []}), "a.jsonl:3: cards.player.2:"),
    (a_round(1, stakes={"main": 0}), "a.jsonl:3: stakes:"),
    (a_round(1, stakes={"main": 1.5}), "a.jsonl:3: stakes.main."),  # a float is never an amount
    (a_round(1, paid={"main": "1e9"}), "a.jsonl:3: paid.main."),
    (a_round(0), "a.jsonl:3: round:"),
    (a_round(1, dealt=1), "a.jsonl:3: dealt: unknown key"),
])
def test_a_bad_round_names_line_and_key(tmp_path: Path, record: dict[str, Any], where: str) -> None:
    assert where in problem(write(tmp_path / "a.jsonl", head(), a_round(1), record))


def test_garbage_lines_and_order(tmp_path: Path) -> None:
    assert "a.jsonl:2: not a JSON object" in problem(write(tmp_path / "a.jsonl", head(), raw="{nope\n"))
    assert "a.jsonl:3: round: round 1 after round 5" in problem(write(tmp_path / "a.jsonl", head(), a_round(5),
                                                                       a_round(1)))
    assert "the first line must be the header" in problem(write(tmp_path / "a.jsonl", a_round(1)))
    assert "an empty file" in problem(write(tmp_path / "a.jsonl"))
    long = tmp_path / "long.jsonl"
    long.write_bytes(json.dumps(head()).encode() + b"\n" + b" " * 70_000 + b"\n")
    assert "a line longer than" in problem(long)


def test_reading_streams(tmp_path: Path) -> None:
    """A bad line far down is not read before the first rounds are handed out, and reading every round holds a
    bounded amount of memory, not the log."""
    log = write(tmp_path / "a.jsonl", head(), *(a_round(n) for n in range(1, 5001)), raw="garbage\n")
    first = next(rounds(log))
    assert first[0] == 2
    tracemalloc.start()
    try:
        with pytest.raises(TableError):
            for _ in rounds(log):
                pass
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert log.stat().st_size > 1_300_000
    assert peak < 200_000  # a few rounds at a time, whatever the log's length


def test_split_reads_every_round_once(tmp_path: Path) -> None:
    log = write(tmp_path / "a.jsonl", head(), *(a_round(n) for n in range(1, 301)))
    whole = [line for line, _ in rounds(log)]
    for parts in (1, 2, 3, 7):
        assert [line for p in split(log, parts) for line, _ in rounds(log, p)] == whole


def test_decisions_are_observed_as_documented(tmp_path: Path) -> None:
    log = write(tmp_path / "a.jsonl", head(), a_round(1), a_round(2, decisions=[
        {"decision": "raise", "action": "fold", "seen": ["As", "Kd", "Jh", "8c", "3s", "Qc"]}],
        paid={"main": -1}))
    got = list(decisions(log))
    assert [(d.line, d.action, d.won) for d in got] == [(2, "raise", Fraction(-3)), (3, "fold", Fraction(-1))]
    assert got[0].seen == parse_cards("As Kd Jh 8c 3s Qc")
    assert got[0].hidden == parse_cards("2c 2d 9h 9s")  # the four hole cards, in dealing order
    bank = resolve_table("punto-banco", None)
    coup = {"round": 1, "seat": 1, "cards": {"shoe": ["Qc", "Kh", "6h", "7d", "2s"]},
            "decisions": [{"decision": "bet", "action": "banker"}], "stakes": {"banker": 2},
            "paid": {"banker": "19/10"}}
    log = write(tmp_path / "b.jsonl", head(game="punto-banco", table=bank.id, table_sha256=bank.sha256), coup)
    (d,) = decisions(log)
    assert (d.game, d.seen, d.hidden, d.action, d.won) == ("punto-banco", (), parse_cards("Qc Kh 6h 7d 2s"),
                                                          "banker", Fraction(19, 20))


def test_a_chunk_is_observed_as_its_rounds_one_by_one(tmp_path: Path) -> None:
    from oddscalc.audit.reader import observed, observed_all

    lir = resolve_table("let-it-ride", None)
    bets = {"round": 1, "seat": 1, "cards": {"player": ["As", "Kd", "Jh"], "community": ["8c", "3s"]},
            "decisions": [{"decision": "ride_1", "action": "pull", "seen": ["As", "Kd", "Jh"]},
                          {"decision": "ride_2", "action": "ride", "seen": ["As", "Kd", "Jh", "8c"]}],
            "stakes": {"main": 1}, "paid": {"main": -2}}
    log = write(tmp_path / "l.jsonl", head(game="let-it-ride", table=lir.id, table_sha256=lir.sha256), bets,
                {**bets, "round": 2, "paid": {"main": 2}})
    chunk = list(rounds(log))
    got = observed_all("let-it-ride", chunk)
    assert got == [d for line, r in chunk for d in observed("let-it-ride", line, r)] == list(decisions(log))
    assert [(d.line, d.seen, d.hidden, d.action, d.won) for d in got] == [
        (2, parse_cards("As Kd Jh"), parse_cards("8c 3s"), "pull", Fraction(-2)),
        (2, parse_cards("As Kd Jh 8c"), parse_cards("3s"), "ride", Fraction(-2)),  # the first community card seen
        (3, parse_cards("As Kd Jh"), parse_cards("8c 3s"), "pull", Fraction(2)),
        (3, parse_cards("As Kd Jh 8c"), parse_cards("3s"), "ride", Fraction(2))]
