"""A proof of the best common strategy stopped and resumed from its checkpoint: the same best strategy and the
same nodes as one run, whichever node it stops after; and every checkpoint that cannot be trusted refused
with a message naming the file (the seats command exiting 4, without a traceback)."""

from __future__ import annotations

import hashlib
import json
import os
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from oracles.proof_fixtures import NEVER, PAY, SHOE, TWO, one_run, small_tree, stopped_after
from oracles.seat_fixtures import seat_counter

from oddscalc import replay
from oddscalc.cache import Store
from oddscalc.cli.main import main
from oddscalc.games.house_baccarat.count import SeatCounter
from oddscalc.games.shoe import Shoe
from oddscalc.replay import closure, code_digest
from oddscalc.seats.proof import checkpoint as proof_checkpoint
from oddscalc.seats.proof.branch import CommonSearch
from oddscalc.seats.proof.checkpoint import Checkpoint, CheckpointError
from oddscalc.seats.proof.search import best_common, problem


def test_a_stopped_proof_resumes_to_the_same_best_strategy_and_nodes(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from oddscalc.seats import game as seat_game
    from oddscalc.seats.proof import search as common_search

    small_tree(monkeypatch)
    counter = seat_counter(1, 3, Shoe.from_ranks(SHOE))
    whole, ev, _, nodes = one_run()
    path = tmp_path / "proof.json"
    left = []
    for stop in (3, 6):  # stopped, resumed and stopped again
        stopped_after(counter, path, stop)
        assert b'"nodes": %d' % stop in path.read_bytes()
        kept_state = Checkpoint(path, {}).read()
        assert kept_state is not None
        left.append(kept_state[2].left)
        said = CliRunner().invoke(main, ["proof", str(path)])
        assert said.exit_code == 0 and f"| nodes, evaluations | {stop}," in said.output, said.output
        assert "box(es) open" in said.output and "| this code resumes it | yes |" in said.output
        sizes = sorted((len(high - low) for low, high in kept_state[2].open), reverse=True)
        assert f"| open boxes, by compositions still free | {', '.join(map(str, sizes))} |" in said.output
        assert "| last written | 20" in said.output and " UTC |" in said.output  # is a run still going?
        if stop == 6:
            (tmp_path / "again.json").write_bytes(path.read_bytes())
    assert 1 > left[0] > left[1] > 0  # the open boxes hold fewer strategies as the proof goes on
    again, ev_again, resumed = best_common(counter, 3, PAY, NEVER, checkpoint=path)
    assert (again.draws, ev_again) == (whole.draws, ev)
    assert resumed.nodes == nodes and resumed.runs == 3
    done, ev_done, kept = best_common(counter, 3, PAY, NEVER, checkpoint=path)  # finished: read, not searched
    assert (done.draws, ev_done, kept.nodes, kept.runs) == (whole.draws, ev, nodes, 3)
    assert kept.evaluations == resumed.evaluations
    said = CliRunner().invoke(main, ["proof", str(path)])
    assert said.exit_code == 0 and "| state | proven: no box left open |" in said.output, said.output
    assert f"| its EV per seat | {ev} (" in said.output and "| strategies still open | 0.000000% of 2^" in said.output
    assert "| proven by | this version of the search |" in said.output
    assert "| open boxes, by compositions still free | none |" in said.output
    proved_by = code_digest(proof_checkpoint.SEARCH)[:16]
    with monkeypatch.context() as m:  # the search changed since: a finished proof is still read, not searched
        m.setattr(proof_checkpoint, "code_digest", lambda module=None: "0" * 64)
        read, ev_read, kept = best_common(counter, 3, PAY, NEVER, checkpoint=path)
        assert (read.draws, ev_read, kept.nodes) == (whole.draws, ev, nodes)
        assert not Checkpoint(path, {}).proven_here()
        with pytest.raises(CheckpointError, match="another version"):  # one under way is not resumed
            best_common(counter, 3, PAY, NEVER, checkpoint=tmp_path / "again.json")
    with monkeypatch.context() as m:  # the search changed since: the finished proof stands as that version's
        m.setattr(replay, "code_digest", lambda module=None: "0" * 64)
        said = CliRunner().invoke(main, ["proof", str(path)])
        assert said.exit_code == 0 and f"| proven by | another version of the search ({proved_by}...) |" in said.output
        said = CliRunner().invoke(main, ["proof", str(tmp_path / "again.json")])
        assert "| this code resumes it | no: written by another version of the search; seats --take-over" in said.output

    def not_again(*args: object, **kw: object) -> None:
        raise AssertionError("the search by composition ran again")

    monkeypatch.setattr(seat_game, "improve", not_again)  # the seats command resumes without it
    row = seat_game.cooperative_row(counter, 3, PAY, NEVER, "never", [],
                                    prove=common_search.Proof(checkpoint=tmp_path / "again.json"))
    assert row[1:3] == (seat_game.text_of(whole), ev)
    assert isinstance(row[4], str) and "resumed from the checkpoint again.json" in row[4] and "over 3 run(s)" in row[4]
    for digest, text in ((code_digest(proof_checkpoint.SEARCH), "read from the finished checkpoint again.json;"),
                         ("0" * 64, "again.json, proven by an earlier version of the search;")):
        monkeypatch.setattr(proof_checkpoint, "code_digest", lambda module=None, d=digest: d)
        row = seat_game.cooperative_row(counter, 3, PAY, NEVER, "never", [],
                                        prove=common_search.Proof(checkpoint=tmp_path / "again.json"))
        assert row[2] == ev and isinstance(row[4], str) and text in row[4], row[4]


def test_another_version_takes_a_proof_over_and_the_file_names_both(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A proof stopped by one version and finished by another (``take_over``): the same best strategy and nodes as
    one run, the file naming the version that handed it over with its tallies; refused without ``take_over``, and
    refused when the taker values the best met otherwise (two seats: a tree of seven nodes)."""
    small_tree(monkeypatch)
    counter = seat_counter(1, 2, Shoe.from_ranks(TWO))
    whole, ev, _, nodes = one_run(2)
    path = tmp_path / "proof.json"
    stopped_after(counter, path, 3, players=2)
    first = code_digest(proof_checkpoint.SEARCH)
    stopped = Checkpoint(path, {}).read()
    assert stopped is not None
    left = stopped[2].left
    (tmp_path / "again.json").write_bytes(path.read_bytes())
    monkeypatch.setattr(proof_checkpoint, "code_digest", lambda module=None: "1" * 64)  # a new version
    with pytest.raises(CheckpointError, match="another version.*--take-over"):
        best_common(counter, 2, PAY, NEVER, checkpoint=path)
    real = CommonSearch.value
    with monkeypatch.context() as m:  # a version that counts otherwise cannot go on from the boxes it left
        m.setattr(CommonSearch, "value", lambda self, draws: real(self, draws) + 1)
        with pytest.raises(CheckpointError, match="values its best met at .* cannot take the proof over"):
            best_common(counter, 2, PAY, NEVER, checkpoint=path, take_over=True)
    assert path.read_bytes() == (tmp_path / "again.json").read_bytes()  # nothing refused is written over
    done, ev_done, search = best_common(counter, 2, PAY, NEVER, checkpoint=path, take_over=True)
    assert (done.draws, ev_done, search.nodes, search.runs) == (whole.draws, ev, nodes, 2)
    read = Checkpoint(path, {}).read()
    assert read is not None and read[1] == "1" * 64 and read[2].done
    (handed,) = read[2].earlier
    assert (handed.code, handed.nodes, handed.runs, handed.left) == (first, 3, 1, left)
    monkeypatch.setattr(replay, "code_digest", lambda module=None: "1" * 64)
    said = CliRunner().invoke(main, ["proof", str(path)])
    assert said.exit_code == 0, said.output
    assert f"| handed over by | the search {first[:16]}... after 3 nodes, " in said.output
    assert f"with {float(left):.6%} of the strategies open |" in said.output
    assert "| proven by | this version of the search, after the 1 version(s) that handed it over |" in said.output
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--decks", "1", "--players", "3", "--take-over"])
    assert r.exit_code == 4 and "--take-over goes on from a proof's checkpoint" in r.output, r.output


def test_checkpoints_that_cannot_be_trusted_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small_tree(monkeypatch)  # a tree of more than two nodes
    counter = seat_counter(1, 2, Shoe.from_ranks(TWO))
    path = tmp_path / "proof.json"
    stopped_after(counter, path, 2, players=2)
    whole = path.read_bytes()
    head, _, body = whole.partition(b"\n")
    for name, blob, said in (
        ("edited", head + b"\n" + body.replace(b'"nodes": 2', b'"nodes": 1'), "damaged, cut short or edited"),
        ("cut", whole[:-9], "damaged, cut short or edited"),
        ("empty", b"", "damaged, cut short or edited"),
    ):
        path.write_bytes(blob)
        with pytest.raises(CheckpointError, match=said) as e:
            best_common(counter, 2, PAY, NEVER, checkpoint=path)
        assert str(path) in str(e.value), name
    path.write_bytes(whole)
    with pytest.raises(CheckpointError, match="another problem.*players 2 there, 3 here"):
        best_common(seat_counter(1, 3, Shoe.from_ranks(TWO)), 3, PAY, NEVER, checkpoint=path)
    with pytest.raises(CheckpointError, match="another problem.*pay '19/20' there, '1' here"):
        best_common(counter, 2, Fraction(1), NEVER, checkpoint=path)
    monkeypatch.setattr(proof_checkpoint, "code_digest", lambda module=None: "0" * 64)
    with pytest.raises(CheckpointError, match="another version of oddscalc's search"):
        best_common(counter, 2, PAY, NEVER, checkpoint=path)
    assert path.read_bytes() == whole  # nothing refused is written over


def test_a_state_that_reads_badly_under_a_sound_header_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "proof.json"
    kept = Checkpoint(path, {"proof": "test"})
    for state, said in (({"problem": {"proof": "test"}}, "does not read"),
                        ([], "does not read"),
                        ({"problem": {"proof": "test"}, "code": code_digest(proof_checkpoint.SEARCH),
                          "best": {"value": "1", "draws": [99]}, "open": [], "nodes": 0, "evaluations": 0,
                          "seconds": 0, "runs": 1}, "does not read"),
                        *(({"problem": {"proof": "test"}, "code": code_digest(proof_checkpoint.SEARCH),
                            "best": {"value": "1", "draws": [1]}, "open": [], "nodes": 0, "evaluations": 0,
                            "seconds": 0, "runs": 1, "earlier": earlier}, "does not read")
                          for earlier in (7, [7], [{"code": "x"}], [{"code": "x", "nodes": 1, "evaluations": 1,
                                                                     "seconds": 1, "runs": 1, "left": "1/0"}]))):
        body = json.dumps(state).encode()
        path.write_bytes(f"{proof_checkpoint.MAGIC} {hashlib.sha256(body).hexdigest()}\n".encode() + body)
        with pytest.raises(CheckpointError, match=said):
            kept.load()


def test_the_seats_command_refuses_a_checkpoint_it_cannot_use(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("not a checkpoint\n")
    cut = tmp_path / "cut.json"
    cut.write_text(f"{proof_checkpoint.MAGIC} {'0' * 64}\n{{")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # read, it would wait for a writer forever
    runner = CliRunner()
    for args, said in ((["--checkpoint", str(bad)], "--checkpoint"),
                       (["--prove-common", "--scheduler", "local", "--checkpoint", str(bad)],
                        f"checkpoint {bad}: not a proof checkpoint"),  # refused before a cluster is started
                       (["--prove-common", "--checkpoint", str(bad)], f"checkpoint {bad}: not a proof checkpoint"),
                       (["--prove-common", "--checkpoint", str(cut)], f"checkpoint {cut}: not a whole checkpoint"),
                       (["--prove-common", "--checkpoint", str(fifo)], f"checkpoint {fifo}: not a regular file"),
                       (["--prove-common", "--checkpoint", str(tmp_path)], "")):
        r = runner.invoke(main, ["seats", "house-baccarat", "--decks", "1", "--players", "3", *args])
        assert r.exit_code in (2, 4) and said in r.output and "Traceback" not in r.output, r.output
        assert str(bad) not in r.output or "delete" not in r.output  # never advice to delete what is no checkpoint
    assert bad.read_text() == "not a checkpoint\n"
    for path, code, said in ((bad, 4, f"checkpoint {bad}: not a proof checkpoint"),
                             (cut, 4, f"checkpoint {cut}: not a whole checkpoint"),
                             (fifo, 4, f"checkpoint {fifo}: not a regular file"),
                             (tmp_path / "none.json", 4, f"checkpoint {tmp_path / 'none.json'}: no such file"),
                             (tmp_path, 2, "is a directory")):
        r = runner.invoke(main, ["proof", str(path)])
        assert r.exit_code == code and said in r.output and "Traceback" not in r.output, r.output
    assert bad.read_text() == "not a checkpoint\n"


def test_a_checkpoint_depends_on_the_search_and_everything_it_imports_only() -> None:
    package = Path(proof_checkpoint.__file__).resolve().parents[2]
    needed = {p.relative_to(package).as_posix() for p in closure(proof_checkpoint.SEARCH)}
    # what the bounds and counts run, found through relative, absolute and in-function imports
    assert {"__init__.py", "games/__init__.py", "seats/proof/search.py", "seats/proof/branch.py",
            "seats/proof/anchors.py", "seats/proof/quadratic.py", "games/house_baccarat/count.py", "seats/search.py",
            "games/shoe.py", "exact.py", "analysis.py"} <= needed
    # the reports (the house game's own too), the command line and the other games can change under a proof of days
    assert not needed & {"cli/main.py", "games/caribbean/game.py", "games/punto_banco/game.py",
                         "games/let_it_ride/game.py", "games/house_baccarat/game.py",
                         "games/house_baccarat/sections.py"}
    assert not any(p.startswith("report/") for p in needed)
    assert code_digest(proof_checkpoint.SEARCH) != code_digest()



PROOFS = Path(__file__).resolve().parents[3] / "proofs"


def test_the_proofs_kept_in_the_repository_pose_a_problem_this_code_poses() -> None:
    """Each file in proofs/ reads whole, is listed in its README, and names a problem this code poses again from
    the file alone (``proof`` re-derives its figures on it: the deep test below): its unit follows from its shoe
    and seats, its compositions are those the shoe deals."""
    from oddscalc.seats.proof.named import rules_named
    from oddscalc.seats.search import dealt, gain_terms

    kept = sorted(PROOFS.glob("house-baccarat-*-seats.checkpoint"))
    listed = {line.split("|")[1].strip(" `") for line in (PROOFS / "README.md").read_text().splitlines()
              if line.startswith("| `")}
    assert kept and {p.name for p in kept} <= listed
    base = seat_counter(8, 2)
    for path in kept:
        read = Checkpoint(path, {}).read()
        assert read is not None
        asked, _, state = read
        rules, players = rules_named(asked, base.rules)
        assert players == int(path.name.split("-")[2]) and problem(rules, players, rules.pay) == asked
        counter = SeatCounter(rules, Store(None), base.game)
        assert state.compositions == len(dealt(counter, gain_terms(counter, rules.pay)[0])) == 44


@pytest.mark.deep  # one evaluation of the other seats each, cold: a minute or two with seven seats on 8 decks
def test_the_proofs_kept_in_the_repository_are_this_searchs_and_say_so() -> None:
    """proofs/ keeps long proofs (``make prove``): each reads whole and names the seats its file says; one under
    way is resumed by this code or, written by an earlier version, taken over (``make prove`` does). A finished
    one is a record of the version that proved it, and says which: its best met's value derived again."""
    kept = sorted(PROOFS.glob("house-baccarat-*-seats.checkpoint"))
    assert kept
    listed = {line.split("|")[1].strip(" `"): line for line in (PROOFS / "README.md").read_text().splitlines()
              if line.startswith("| `")}
    for path in kept:
        r = CliRunner().invoke(main, ["proof", str(path)])
        assert r.exit_code == 0, r.output
        assert f"| seats | {path.name.split('-')[2]} |" in r.output and "| infinite | False |" in r.output
        read = Checkpoint(path, {}).read()
        assert read is not None and path.name in listed, f"{path.name}: not in proofs/README.md"
        _, code, state = read
        if "| state | proven: no box left open |" in r.output:
            assert "| proven by | " in r.output
            assert f"{state.nodes:,}, {state.evaluations:,}" in listed[path.name] and code[:12] in listed[path.name]
        else:
            assert "| this code resumes it | yes |" in r.output or "seats --take-over (make prove)" in r.output
            assert "under way" in listed[path.name]


def test_a_checkpoint_behind_a_symbolic_link_is_kept_through_it(tmp_path: Path) -> None:
    """seats --checkpoint LINK keeps the proof in the file the link names; the link stays a link."""
    from oddscalc.cli.options import open_session
    from oddscalc.cli.seats import _usable

    rules = open_session("house-baccarat", decks=1, players=3).resolve(None)
    link = tmp_path / "link.json"
    link.symlink_to("proofs/real.json")
    assert _usable(link, rules, 3) == Path(os.path.realpath(tmp_path)) / "proofs" / "real.json" and link.is_symlink()
    assert _usable(None, rules, 3) is None


def test_the_proof_command_lists_the_largest_open_boxes_first() -> None:
    from oddscalc.cli.seats import _sizes
    from oddscalc.seats.proof.checkpoint import State

    boxes = tuple((frozenset(range(k % 2)), frozenset(range(k + k % 2))) for k in range(20))  # k free
    state = State((0, frozenset()), boxes, 20, 40, 1.0, 1, 44)
    assert _sizes(state) == "19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8 and 8 more"
