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


def test_every_default_model_has_its_measured_rate() -> None:
    for game in GAMES:
        for m in default_models(game):
            r = rate(game, m.id)
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


def test_the_let_it_ride_measurement_tells_a_flash_from_honest_play() -> None:
    """The honest logs of the measurement are not flagged, and the same deals played with the flash are: the
    measured rate is of a rule that can fire on these logs (the deep test measures the 200 logs again)."""
    from oracles.evidence_deals import let_it_ride_deals, play

    from oddscalc.analysis import Session
    from oddscalc.audit import evidence_let_it_ride as lir
    from oddscalc.audit.evidence import weigh
    from oddscalc.games.let_it_ride.game import LetItRideRules

    rules = Session("let-it-ride").resolve(None)
    assert isinstance(rules, LetItRideRules)
    (flash,) = default_models("let-it-ride")
    values, vocabulary = lir.Values(rules), lir.actions(rules)
    d = let_it_ride_deals(rules.deck, 500, seed=5)
    assert (d.seen == [3, 4] * 500).all() and (d.lines[::2] == d.lines[1::2]).all()
    assert all(len(set(row)) == 5 for row in d.cards[::2].tolist())
    honest = lir.assess(values, vocabulary, d, ())
    model = lir.assess(values, vocabulary, d, lir.community_positions(flash), flash.id, flash.title)
    lines = d.lines.tolist()
    assert not weigh("let-it-ride", lines, play(honest, 0.01, 6, vocabulary), honest, [model]).suspects[0].flagged
    assert weigh("let-it-ride", lines, play(model, 0.01, 6, vocabulary), honest, [model]).suspects[0].flagged
