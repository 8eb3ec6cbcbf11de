"""The evidence as report sections: stable ids, exact EVs, the verdict first, every format renders (md, csv, json,
pdf), and the chart of the cumulative evidence draws."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from oracles.evidence_deals import caribbean_deals, play

from oddscalc.analysis import Session
from oddscalc.audit.evidence import THRESHOLD, Assessed, PlayerModel, weigh
from oddscalc.audit.evidence_caribbean import assess
from oddscalc.audit.evidence_log import default_models, weigh_log
from oddscalc.audit.evidence_sections import chart, sections, verdict
from oddscalc.audit.observed import Observed
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.protocol import OptionError
from oddscalc.report.document import sections_document
from oddscalc.report.pdf import pdf_of
from oddscalc.report.sections import render_sections
from oddscalc.report.svg import render_chart

_RULES = Session("caribbean").resolve(None)
assert isinstance(_RULES, CaribbeanRules)
RULES: CaribbeanRules = _RULES


def _weighed(knows: tuple[int, ...]) -> tuple[object, Assessed]:
    d = caribbean_deals(RULES.deck, 300, seed=8)
    honest, model = assess(RULES, d, ()), assess(RULES, d, (0,), "knows-1", "Knows one hole card")
    actor = model if knows else honest
    return weigh("caribbean", (d.lines * 2).tolist(), play(actor, 0.0, 9), honest, [model]), model


def test_a_flagged_log_says_so_first_with_the_round_and_line() -> None:
    ev, model = _weighed((0,))
    s = sections(ev)  # type: ignore[arg-type]
    assert [x.id for x in s] == ["evidence_summary", "evidence_rounds", "evidence_cumulative"]
    summary = s[0]
    w = ev.suspects[0]  # type: ignore[attr-defined]
    assert summary.intro[0].startswith("FLAGGED: Knows one hole card") and f"line {2 * w.first_flagged:,}" in \
        summary.intro[0]
    assert "e = 1/100" in summary.intro[1]
    row = summary.records()[0]
    assert row["flagged"] == "yes" and row["first_line"] == 2 * w.first_flagged
    # the EV won is exact: the model's EV of each action taken less the honest best's, summed by hand here
    honest_best = ev.honest.best  # type: ignore[attr-defined]
    by_hand = sum((model.ev(i, a) - model.ev(i, ("fold", "raise")[int(honest_best[i])])
                   for i, a in enumerate(ev.actions)), Fraction(0))  # type: ignore[attr-defined]
    assert row["gain"] == by_hand > 0
    assert math.isclose(float(row["log10_factor"]), w.log10_factor, abs_tol=0.005)  # type: ignore[arg-type]
    rounds = s[1].records()
    factors = [r["log10_factor"] for r in rounds]
    assert len(rounds) == 10 and factors == sorted(factors, reverse=True)  # type: ignore[type-var]
    for r in rounds:  # each a decision the model explains: its best action taken, not the honest best
        line = r["line"]
        assert isinstance(line, int)
        assert r["action"] == r["model_best"] != r["honest_best"] == ("fold", "raise")[int(honest_best[line // 2 - 1])]


def test_an_honest_log_is_not_flagged_and_every_format_renders() -> None:
    ev, _ = _weighed(())
    assert verdict(ev).startswith(f"Not flagged: for no model is the Bayes factor against honest play above "  # type: ignore[arg-type]
                                  f"{THRESHOLD:,}")
    s = sections(ev)  # type: ignore[arg-type]
    data = json.loads(render_sections(s, "json", "Audit", {"log": "x.jsonl"}))
    assert set(data["sections"]) == {"evidence_summary", "evidence_rounds", "evidence_cumulative"}
    assert data["sections"]["evidence_summary"]["rows"][0]["flagged"] == "no"
    assert "evidence_cumulative" in render_sections(s, "csv", "Audit", {"log": "x.jsonl"})
    assert "## Evidence of information" in render_sections(s, "md", "Audit", {})
    assert pdf_of(sections_document("Audit", ["log: x.jsonl"], s)).startswith(b"%PDF")
    c = chart(ev)  # type: ignore[arg-type]
    assert len(c.xs) == 200 and c.xs[-1] == 300 and all(0 <= p <= 1 for p in c.series[0][1])
    assert render_chart(c).startswith("<svg")


def test_an_empty_log_weighs_nothing() -> None:
    empty = Assessed("honest", "honest", ("fold", "raise"), np.zeros((0, 2), dtype=np.int64), 1,
                     np.zeros(0, dtype=np.int64))
    ev = weigh("caribbean", [], [], empty, [empty], PlayerModel(Fraction(1, 20), "stated"))
    assert ev.suspects[0].log10_factor == 0 and ev.suspects[0].first_flagged is None
    assert [len(x.rows) for x in sections(ev)] == [1, 0, 0] and chart(ev).xs == ()
    assert "e = 1/20" in sections(ev)[0].intro[1]


def test_a_log_weighed_in_one_call_against_the_games_default_models() -> None:
    d = caribbean_deals(RULES.deck, 50, seed=12)
    actions = play(assess(RULES, d, ()), 0.0, 13)
    log = [Observed(i + 1, "caribbean", (*map(int, d.players[i]), int(d.up[i])), tuple(map(int, d.holes[i])),
                    actions[i], Fraction(0)) for i in range(50)]
    ev = weigh_log("caribbean", "us", log)
    assert [w.assessed.model for w in ev.suspects] == [f"knows-{k}-hole-cards" for k in range(1, 5)]
    assert ev.realised == 0 and not any(w.flagged for w in ev.suspects)
    assert [m.id for m in default_models("punto-banco")] == ["edge-sort-first-card"]
    assert [m.id for m in default_models("let-it-ride")] == ["let-it-ride-flash-first-community"]
    with pytest.raises(OptionError, match="not house-baccarat"):
        weigh_log("house-baccarat", None, [])
