"""oddscalc proof dates a proof by its checkpoint's own record, never by the file's mtime (issue 42: a clone, a copy
or a download sets the mtime to its own time); a checkpoint from before they recorded it says so."""

from __future__ import annotations

import datetime
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from oracles.proof_fixtures import NEVER, PAY
from oracles.seat_fixtures import seat_counter

from oddscalc.cli.main import EXIT_INPUT, main
from oddscalc.games.shoe import Shoe
from oddscalc.seats.proof.checkpoint import MAGIC, Checkpoint
from oddscalc.seats.proof.search import best_common

ROOT = Path(__file__).resolve().parents[2]
OLDER = "date not recorded in the file (an older checkpoint)"


@pytest.fixture(scope="module")
def proven(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, datetime.datetime, datetime.datetime]:
    """A finished proof of two seats on a small shoe, written now (between the two times given)."""
    path = tmp_path_factory.mktemp("proof") / "two-seats.checkpoint"
    began = datetime.datetime.now(datetime.UTC)
    best_common(seat_counter(1, 2, Shoe.from_ranks({"3": 4, "9": 3, "7": 4})), 2, PAY, NEVER, checkpoint=path)
    return path, began, datetime.datetime.now(datetime.UTC)


def body_of(path: Path) -> dict[str, Any]:
    head, _, body = path.read_bytes().partition(b"\n")
    assert head.decode().startswith(MAGIC)
    state = json.loads(body)
    assert isinstance(state, dict)
    return state


def resigned(path: Path, edit: Callable[[dict[str, Any]], object], to: Path) -> Path:
    """``path``'s checkpoint with its state edited and its header recomputed, as anyone can."""
    state = body_of(path)
    edit(state)
    body = json.dumps(state, sort_keys=True).encode()
    to.write_bytes(f"{MAGIC} {hashlib.sha256(body).hexdigest()}\n".encode() + body)
    return to


def rows(path: Path) -> dict[str, str]:
    r = CliRunner().invoke(main, ["proof", str(path), "--format", "json"])
    assert r.exit_code == 0, r.output
    return {row["item"]: row["value"] for row in json.loads(r.output)["sections"]["proof"]["rows"]}


def test_a_proof_is_dated_by_its_own_record_not_the_files_mtime(
        proven: tuple[Path, datetime.datetime, datetime.datetime], tmp_path: Path) -> None:
    path, began, ended = proven
    written = datetime.datetime.strptime(body_of(path)["written"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.UTC)
    assert began.replace(microsecond=0) <= written <= ended
    copy = tmp_path / "cloned.checkpoint"
    copy.write_bytes(path.read_bytes())
    os.utime(copy, (978_307_200, 978_307_200))  # 2001-01-01: what a clone or an unpacked archive may set
    found = rows(copy)
    assert found["state"] == "proven: no box left open"
    assert found["proven on"] == written.strftime("%Y-%m-%d %H:%M UTC") and "last written" not in found
    assert "2001-01-01" not in json.dumps(found)


def test_an_older_checkpoint_says_its_date_is_not_recorded(
        proven: tuple[Path, datetime.datetime, datetime.datetime], tmp_path: Path) -> None:
    older = resigned(proven[0], lambda s: s.pop("written"), tmp_path / "older.checkpoint")
    found = rows(older)
    assert found["proven on"] == OLDER and found["state"] == "proven: no box left open"
    md = CliRunner().invoke(main, ["proof", str(older)])
    assert md.exit_code == 0 and f"| proven on | {OLDER} |" in md.output, md.output


@pytest.mark.parametrize("seats", [6, 7])
def test_the_shipped_proofs_are_older_checkpoints_still_proven(seats: int) -> None:
    # read as `proof` reads them (its figures derived again is a deep test's: minutes cold); nothing added to them
    path = ROOT / "proofs" / f"house-baccarat-{seats}-seats.checkpoint"
    kept = Checkpoint(path, {}).read()
    assert kept is not None and kept[2].done and kept[2].written is None
    assert "written" not in body_of(path)


@pytest.mark.parametrize("written", ["yesterday", "2026-02-30T00:00:00Z", "2026-12-05 20:02:11", 1765000000, None])
def test_a_time_written_that_is_no_time_is_refused(proven: tuple[Path, datetime.datetime, datetime.datetime],
                                                   tmp_path: Path, written: object) -> None:
    bad = resigned(proven[0], lambda s: s.update(written=written), tmp_path / "bad.checkpoint")
    r = CliRunner().invoke(main, ["proof", str(bad)])
    if written is None:  # JSON null: no time recorded, as an older file
        assert r.exit_code == 0 and f"| proven on | {OLDER} |" in r.output, r.output
        return
    assert r.exit_code == EXIT_INPUT and r.output.startswith(f"oddscalc: checkpoint {bad}: its state does not read ")
    assert len(r.output.strip().splitlines()) == 1 and "Traceback" not in r.output, r.output
