"""The measured false-positive rates as the audit report states them: the shipped file read, every default model
of every game measured, and the Clopper-Pearson bound checked against the binomial tail summed exactly."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from oddscalc.audit.evidence_log import GAMES, default_models
from oddscalc.audit.false_positives import clopper_pearson_upper, measured, rate


def _cdf(k: int, n: int, p: Fraction) -> Fraction:
    return sum((comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k + 1)), Fraction(0))


@pytest.mark.parametrize(("k", "n"), [(0, 200), (1, 200), (3, 200), (7, 50)])
def test_the_upper_bound_is_where_the_lower_tail_is_2_5_percent(k: int, n: int) -> None:
    u = Fraction(clopper_pearson_upper(k, n))
    # exact arithmetic either side of the bound: the tail at it is 2.5%, to the bisection's tolerance
    assert _cdf(k, n, u - Fraction(1, 10**9)) > Fraction(1, 40) > _cdf(k, n, u + Fraction(1, 10**9))


NOT_MEASURED = ("let-it-ride",)  # its honest logs' false-positive rate was not measured: no figure is given


def test_every_default_model_has_its_measured_rate() -> None:
    for game in GAMES:
        for m in default_models(game):
            r = rate(game, m.id)
            if game in NOT_MEASURED:  # the report says "not measured" (test_let_it_ride_log checks it says so)
                assert r is None, (game, m.id)
                continue
            assert r is not None and r.runs >= 200 and r.rounds >= 10_000, (game, m.id)
            assert "honest logs of" in r.describe() and "95% upper bound" in r.describe()
    assert rate("caribbean", "a-model-of-my-own") is None
    assert len({(r.game, r.model) for r in measured()}) == len(measured())
    with pytest.raises(ValueError):
        clopper_pearson_upper(3, 2)


def test_the_report_states_the_rate_beside_each_verdict() -> None:
    from oracles.evidence_deals import caribbean_deals, play

    from oddscalc.analysis import Session
    from oddscalc.audit.evidence import weigh
    from oddscalc.audit.evidence_caribbean import assess
    from oddscalc.audit.evidence_sections import sections
    from oddscalc.games.caribbean.game import CaribbeanRules

    rules = Session("caribbean").resolve(None)
    assert isinstance(rules, CaribbeanRules)
    d = caribbean_deals(rules.deck, 200, seed=8)
    honest = assess(rules, d, ())
    shipped, own = assess(rules, d, (0,), "knows-1-hole-cards", "one"), assess(rules, d, (0,), "mine", "mine")
    ev = weigh("caribbean", d.lines.tolist(), play(shipped, 0.0, 9), honest, [shipped, own])
    summary = sections(ev)[0]
    first, second = summary.records()
    r = rate("caribbean", "knows-1-hole-cards")
    assert r is not None and first["false_positives"] == r.describe() and second["false_positive_upper"] is None
    assert first["false_positive_upper"] == Fraction(-int(-r.upper * 10**6 // 1), 10**6) >= Fraction(r.upper)
    assert second["false_positives"] == "not measured for this model"
    assert summary.intro[0].startswith("FLAGGED") and f"false positives of the rule: {r.describe()}" in \
        summary.intro[0]
    assert "Clopper-Pearson" in summary.intro[-1] and r.honest_play in summary.intro[-1]
