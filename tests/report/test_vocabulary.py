"""The JSON contract's vocabulary, over the committed golden reports (held to the code by test_docs)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from oddscalc.report.json import CONTRACT

REPORTS = sorted((Path(__file__).resolve().parents[2] / "docs" / "reports").glob("*.json"))
STRATEGY_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def _load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text())
    assert isinstance(data, dict)
    return data


def test_every_shipped_table_has_a_report() -> None:
    assert len(REPORTS) >= 20


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.stem)
def test_contract_ids_and_words(path: Path) -> None:
    data = _load(path)
    assert list(data)[0] == "contract" and data["contract"] == CONTRACT == 2
    assert not [k for k in data["rules"] if "punto" in k or "banca" in k]  # player/banker everywhere
    for w in data["wagers"]:
        assert STRATEGY_ID.match(w["strategy"]), w["strategy"]  # an id; the words are beside it
        assert w["strategy_title"] and w["strategy_title"] != w["strategy"]
        for r in w["rows"]:
            units, event = r["units"], r["event"]
            if units == "0":  # the stake comes back: a push, however it came about
                assert event == "push" or event.startswith("push_"), (w["wager"], event)
            elif units.startswith("-"):  # nothing won: lose, or a fold (the antes staked so far)
                assert event == "lose" or event.startswith(("lose_", "fold_")) or event == "fold", (w["wager"], event)
            else:
                assert not event.startswith(("lose", "push", "no_")), (w["wager"], event)


def test_the_same_bet_has_the_same_ids_in_every_table() -> None:
    ids: dict[tuple[str, str], set[frozenset[str]]] = {}
    for path in REPORTS:
        data = _load(path)
        for w in data["wagers"]:
            if w["wager"] in ("player_pair", "banker_pair", "player", "tie"):
                ids.setdefault((data["game"], w["wager"]), set()).add(frozenset(r["event"] for r in w["rows"]))
    assert ids[("punto-banco", "player_pair")] == ids[("punto-banco", "banker_pair")] == {frozenset({"pair", "lose"})}
    assert ids[("punto-banco", "player")] == {frozenset({"win", "push", "lose"})}
    assert ids[("punto-banco", "tie")] == {frozenset({"win", "lose_banker_wins", "lose_player_wins"})}
