"""``oddscalc audit`` weighs the log's decisions for evidence of information beside its conformance: a log written
by a player who sees a hole card is flagged by line, an honest one is not, a suspect model is named with
``--suspect``, and a model for another game is refused with one line.

The logs are written by ``simulate --log`` (an independent dealer and, for the informed player, its own exact EV
over the hole cards consistent with what the model shows), so the flag is not the evidence engine judging itself.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from oddscalc.cli.main import EXIT_CHECK, EXIT_TABLE, main
from oddscalc.simulate.log import write_log


def _audit(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["audit", *args])
    return r.exit_code, r.stdout, r.stderr


def _summary(stdout: str) -> str:
    sections = json.loads(stdout)["sections"]
    assert {"evidence_summary", "evidence_rounds", "evidence_cumulative"} <= set(sections)
    return json.dumps(sections["evidence_summary"])


def test_a_player_who_sees_a_hole_card_is_flagged_and_an_honest_one_is_not(tmp_path: Path) -> None:
    knows, honest = tmp_path / "knows.jsonl", tmp_path / "honest.jsonl"
    write_log("caribbean", knows, rounds=80, seed=3, knows="caribbean-flash-1-hole")
    write_log("caribbean", honest, rounds=80, seed=3)
    code, out, err = _audit(str(knows), "--suspect", "caribbean-flash-1-hole", "--format", "json")
    assert code == EXIT_CHECK
    assert "decisions flag" in err or "finding" in err
    assert "FLAGGED: One hole card flashed" in _summary(out)
    code, out, err = _audit(str(honest), "--suspect", "caribbean-flash-1-hole", "--format", "json")
    assert code == 0, err
    assert "Not flagged" in _summary(out)


def test_a_suspect_model_for_another_game_is_refused_with_one_line(tmp_path: Path) -> None:
    log = tmp_path / "coups.jsonl"
    write_log("punto-banco", log, rounds=50, seed=1)
    code, out, err = _audit(str(log), "--suspect", "caribbean-flash-1-hole")
    assert code == EXIT_TABLE
    assert "this model is for caribbean, not punto-banco" in err and "Traceback" not in out + err
