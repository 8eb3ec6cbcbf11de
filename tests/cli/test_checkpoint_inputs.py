"""A proof's checkpoint as a hostile or careless hand leaves it (issue 41): its header is the sha256 of its body,
which anyone can recompute, so a re-signed file is read as soundly as a real one. A file larger than any proof's
state, a field of the wrong type or range, JSON nested past what the reader can read, open boxes that repeat or
overlap, and figures that its shoe does not give (a best met worth another value, another unit) are refused by
``proof`` and ``seats --prove-common`` with the exit code of a bad input, one line naming the file, and no
traceback; nothing is reported as proven that this code has not derived again."""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from oracles.proof_fixtures import NEVER, PAY, SHOE, kept_proofs, one_run
from oracles.seat_fixtures import seat_counter

from oddscalc.cli.main import EXIT_INPUT, main
from oddscalc.games.shoe import Shoe
from oddscalc.seats.proof import checkpoint as proof_checkpoint
from oddscalc.seats.proof.branch import CommonSearch
from oddscalc.seats.proof.checkpoint import Checkpoint, CheckpointError, State
from oddscalc.seats.proof.search import best_common, problem


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A proof of three seats on the small shoe stopped after two nodes (boxes open), and the same finished (made
    once for the run's workers)."""
    under_way, done = kept_proofs(tmp_path_factory.mktemp("kept"))
    read = Checkpoint(under_way, {}).read()
    assert read is not None and read[2].open and not read[2].done
    return under_way, done


def _resigned(path: Path, edit: Callable[[dict[str, Any]], object], to: Path) -> Path:
    """``path``'s checkpoint with its state edited and signed again as anyone can: the header recomputed."""
    _, _, body = path.read_bytes().partition(b"\n")
    state = json.loads(body)
    edit(state)
    _signed(to, json.dumps(state).encode())
    return to


def _signed(path: Path, body: bytes) -> None:
    path.write_bytes(f"{proof_checkpoint.MAGIC} {hashlib.sha256(body).hexdigest()}\n".encode() + body)


def _refused(args: list[str], path: Path, said: str) -> None:
    """The command refuses ``path`` with the exit code of a bad input, one line naming it, and no traceback."""
    r = CliRunner().invoke(main, args)
    assert r.exit_code == EXIT_INPUT and f"checkpoint {path}: " in r.output and said in r.output, r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_a_checkpoint_larger_than_any_proofs_state_is_refused_unread(tmp_path: Path, kept: tuple[Path, Path]) -> None:
    """A checkpoint's header and body, then a sparse terabyte (``truncate -s 1T``): read whole, it would take the
    machine's memory or never end; refused by its size, at once. One byte under the bound still reads."""
    big = tmp_path / "big.checkpoint"
    big.write_bytes(kept[1].read_bytes())
    os.truncate(big, 1 << 40)
    began = time.monotonic()
    with pytest.raises(CheckpointError, match=r"1,099,511,627,776 bytes, more than any proof's state \(16 MiB"):
        Checkpoint(big, {}).read()
    _refused(["proof", str(big)], big, "more than any proof's state")
    _refused(["seats", "house-baccarat", "--decks", "1", "--players", "2", "--prove-common", "--checkpoint",
              str(big)], big, "more than any proof's state")
    assert time.monotonic() - began < 30
    os.truncate(big, proof_checkpoint.MAX_BYTES)  # at the bound: read, and refused for what it holds
    with pytest.raises(CheckpointError, match="not a whole checkpoint"):
        Checkpoint(big, {}).read()


Edit = Callable[[dict[str, Any]], object]


def _earlier(**changed: object) -> Edit:
    return lambda s: s.update(earlier=[{"code": "a" * 64, "nodes": 1, "evaluations": 1, "seconds": 1.5, "runs": 1,
                                        "left": "1/2", **changed}])


@pytest.mark.parametrize(("edit", "said"), [
    (lambda s: s.update(compositions=-5), "compositions is -5, not 1 to 44"),
    (lambda s: s.update(compositions=0), "compositions is 0, not 1 to 44"),
    (lambda s: s.update(compositions=45), "compositions is 45, not 1 to 44"),
    (lambda s: s.update(compositions=True), "compositions is true, not 1 to 44"),
    (lambda s: s.update(compositions=5.0), "compositions is 5.0, not 1 to 44"),
    (lambda s: s.update(nodes=-1), "nodes is -1, not a whole number"),
    (lambda s: s.update(nodes=True), "nodes is true, not a whole number"),
    (lambda s: s.update(evaluations=2.0), "evaluations is 2.0, not a whole number"),
    (lambda s: s.update(runs="3"), 'runs is "3", not a whole number'),
    (lambda s: s.update(seconds=float("nan")), "seconds is NaN, not a number of seconds"),
    (lambda s: s.update(seconds=float("inf")), "seconds is Infinity, not a number of seconds"),
    (lambda s: s.update(seconds=-1), "seconds is -1, not a number of seconds"),
    (lambda s: s.update(seconds=False), "seconds is false, not a number of seconds"),
    (lambda s: s["best"].update(value=" 12"), "no value in the search's units"),
    (lambda s: s["best"].update(value="1_000"), "no value in the search's units"),
    (lambda s: s["best"].update(value=12), "no value in the search's units"),
    (lambda s: s["best"].update(draws=[True]), "a list of their indices"),
    (lambda s: s.update(code="0" * 63), "its code is not a digest"),
    (lambda s: s.update(problem={"shoe": list(range(100))}), "not a short value"),
    (_earlier(), None),  # a sound earlier version reads: the refusals below are for what each changes
    (_earlier(left="3/2"), "an earlier share left is 3/2, more than all the strategies"),
    (_earlier(left="1e999999999"), 'an earlier share left is "1e999999999", not a fraction'),
    (_earlier(left="1/0"), "does not read"),
    (_earlier(left=0.5), "an earlier share left is 0.5, not a fraction"),
    (_earlier(nodes=False), "an earlier version's nodes is false"),
    (_earlier(seconds=float("-inf")), "an earlier version's seconds is -Infinity"),
])
def test_a_resigned_state_is_refused_unless_every_field_has_its_type_and_range(
        tmp_path: Path, kept: tuple[Path, Path], edit: Edit, said: str | None) -> None:
    forged = _resigned(kept[1], edit, tmp_path / "forged.json")
    if said is None:
        assert Checkpoint(forged, {}).read() is not None
        return
    with pytest.raises(CheckpointError, match=re.escape(said)) as e:
        Checkpoint(forged, {}).read()
    assert str(e.value).startswith(f"checkpoint {forged}: ")
    _refused(["proof", str(forged)], forged, said)


def test_a_state_nested_past_what_json_can_read_is_refused(tmp_path: Path) -> None:
    """JSON nested 200,000 deep: Python's reader gives up with a RecursionError, which is the file's fault."""
    path = tmp_path / "deep.json"
    for body in (b"[" * 200_000 + b"]" * 200_000, b'{"problem": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"):
        _signed(path, body)
        with pytest.raises(CheckpointError, match="nested too deep"):
            Checkpoint(path, {}).read()
        _refused(["proof", str(path)], path, "nested too deep")
    _signed(path, b"[" * 50 + b"]" * 50)  # nested, but readable: refused for what it is
    with pytest.raises(CheckpointError, match="it is not a mapping"):
        Checkpoint(path, {}).read()


def _with_open(boxes: list[list[list[int]]]) -> Edit:
    return lambda s: s.update(open=boxes)


def test_open_boxes_that_repeat_or_overlap_are_refused(tmp_path: Path, kept: tuple[Path, Path]) -> None:
    """The boxes a search leaves lie apart: one repeated three times made "300% of 2^44 still open"."""
    under_way = kept[0]
    read = Checkpoint(under_way, {}).read()
    assert read is not None
    low, high = sorted(read[2].open, key=lambda b: len(b[1] - b[0]))[-1]
    free = sorted(high - low)
    assert len(free) >= 2
    forged = tmp_path / "forged.json"
    cases: tuple[tuple[list[list[list[int]]], str | None], ...] = (
            ([[sorted(low), sorted(high)]] * 3, "open boxes are not apart"),
            ([[sorted(low), sorted(high)], [sorted(low | {free[0]}), sorted(high)]], "open boxes are not apart"),
            ([[sorted(low), sorted(high)], [sorted(low), sorted(high - {free[1]})]], "open boxes are not apart"),
            ([[sorted(low | {free[0]}), sorted(high)], [sorted(low), sorted(high - {free[0]})]], None),  # halves
            ([[[], list(range(44))]], "its open boxes hold"),  # more strategies than the shoe's compositions give
            ([[sorted(high), sorted(low)]], "a box's low end must lie in its high end"),
            ([[[], [44]]], "a list of their indices"),
            ([[[]]], "not pairs of sets of compositions"))
    for boxes, said in cases:
        _resigned(under_way, _with_open(boxes), forged)
        if said is None:
            assert Checkpoint(forged, {}).read() is not None
            continue
        with pytest.raises(CheckpointError, match=said):
            Checkpoint(forged, {}).read()
        _refused(["proof", str(forged)], forged, said)


def test_the_proof_command_reports_only_figures_it_derives_again(tmp_path: Path, kept: tuple[Path, Path]) -> None:
    """A re-signed finished proof whose best met is worth less than it says (a negative value printed -7.6679%
    "proven by this version of the search"), whose unit is another, or whose compositions are not the shoe's, is
    refused by ``proof``; the same state signed by the search itself reads, with the EV its best met has."""
    under_way, done = kept
    _, ev, _, _ = one_run()
    said = CliRunner().invoke(main, ["proof", str(done)])
    assert said.exit_code == 0 and f"| its EV per seat | {ev} (" in said.output, said.output
    assert "| proven by | this version of the search |" in said.output
    read = Checkpoint(done, {}).read()
    assert read is not None
    asked, _, state = read
    forged = tmp_path / "forged.json"
    for edit, said_here in (
            (lambda s: s["best"].update(value=str(-state.best[0])), f"its best met is worth {state.best[0]} on the "
                                                                    f"shoe it names, not the {-state.best[0]} it says"),
            (lambda s: s["best"].update(value=str(state.best[0] + 1)), "its best met is worth"),
            (lambda s: s["best"].update(draws=[]), "its best met is worth"),  # another strategy, the same value
            (lambda s: s["problem"].update(unit="-" + asked["unit"]), "not a problem this code poses (its unit:"),
            (lambda s: s["problem"].update(unit=str(2 * int(asked["unit"]))), "not a problem this code poses"),
            (lambda s: s["problem"].update(players=True), "not a problem this code poses"),
            (lambda s: s["problem"].update(pay="1e-999999999"), "its pay is not a positive fraction"),
            (lambda s: s["problem"].update(shoe=[10 ** 9] * 10), "its shoe is not 10 counts"),
            (lambda s: s["problem"].update(house_tableau=["DDDDDDDDDD\n"] * 8), "its house tableau is not"),
            (lambda s: s.update(compositions=44), "its compositions are not the")):
        _resigned(done, edit, forged)
        assert Checkpoint(forged, {}).read() is not None  # every field has its type: only the figures are off
        _refused(["proof", str(forged)], forged, said_here)
    _resigned(under_way, lambda s: s["best"].update(value=str(state.best[0] * 2)), forged)  # under way too
    _refused(["proof", str(forged), "--bound"], forged, "its best met is worth")
    with pytest.raises(CheckpointError, match="its best met is worth"):  # a run would prune by the forged best
        best_common(seat_counter(1, 3, Shoe.from_ranks(SHOE)), 3, PAY, NEVER, checkpoint=forged)


def test_the_seats_command_refuses_a_resigned_finished_proof(tmp_path: Path, kept: tuple[Path, Path]) -> None:
    """``seats --prove-common`` read a re-signed finished proof and ended in an AssertionError (its EV differing
    on its own seat counts, or the two-seat model's): refused, naming the file, and before any counting when the
    value is off."""
    from oddscalc.games.house_baccarat.settle import seat_ev
    from oddscalc.seats import two_seats
    from oddscalc.seats.game import Found, cooperative_row
    from oddscalc.seats.proof.search import Proof

    # on the command line: a finished proof of two seats on one deck whose best met is worth one unit less
    one_deck = seat_counter(1, 2)
    search = CommonSearch(one_deck, 2, one_deck.rules.pay)
    path = tmp_path / "two.json"
    best = frozenset(sorted(search.dealt)[:3])
    Checkpoint(path, problem(one_deck.rules, 2, one_deck.rules.pay)).save(
        State((search.value(best) + 1, best), (), 1, 1, 0.0, 1, len(search.dealt)))
    _refused(["seats", "house-baccarat", "--decks", "1", "--players", "2", "--prove-common", "--checkpoint",
              str(path)], path, "its best met is worth")
    # two seats on a small shoe: a finished proof whose best is another strategy, its value true
    counter = seat_counter(1, 2, Shoe.from_ranks({"3": 4, "9": 3, "7": 4}))
    genuine = tmp_path / "genuine.json"
    best_common(counter, 2, PAY, NEVER, checkpoint=genuine)
    model = two_seats.Model.of(counter, PAY)
    found = [Found(e, seat_ev(counter.seat(2, e), e, PAY), "") for e in two_seats.equilibria(model)[0]]
    row = cooperative_row(counter, 2, PAY, NEVER, "never", found, None, Proof(checkpoint=genuine))
    assert "the bounds' search agrees" in str(row[4])
    read = Checkpoint(genuine, {}).read()
    assert read is not None
    other = frozenset() if read[2].best[1] else frozenset(CommonSearch(counter, 2, PAY).dealt)
    value = CommonSearch(counter, 2, PAY).value(other)
    forged = _resigned(genuine, lambda s: s["best"].update(value=str(value), draws=sorted(other)),
                       tmp_path / "forged.json")
    with pytest.raises(CheckpointError, match=f"checkpoint {forged}: its best common strategy gives"):
        cooperative_row(counter, 2, PAY, NEVER, "never", found, None, Proof(checkpoint=forged))
    # three seats: the finished proof's value one off, which the row checked on its own seat counts
    forged = _resigned(kept[1], lambda s: s["best"].update(value=str(int(s["best"]["value"]) - 1)),
                       tmp_path / "three.json")
    with pytest.raises(CheckpointError, match=f"checkpoint {forged}: its best met is worth"):
        cooperative_row(seat_counter(1, 3, Shoe.from_ranks(SHOE)), 3, PAY, NEVER, "never", [], None,
                        Proof(checkpoint=forged))
