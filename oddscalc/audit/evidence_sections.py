"""A weighed log (``evidence.Evidence``) as the project's report sections and a chart, for every format.

Sections (stable ids): ``evidence_summary`` (per suspected model: the decisions it plays otherwise, the log's
Bayes factor against honest play, flagged or not and from which round, the EV won against honest optimal play
under its information), ``evidence_rounds`` (the rounds that weigh most, by line), ``evidence_cumulative`` (the
cumulative log10 Bayes factor at round milestones); the chart ``evidence_cumulative`` draws, per model, the
probability of the model against honest play at even prior odds (BF / (1 + BF)) round by round. Log10 factors are
rounded to 0.01 (likelihoods, not figures of the game); EVs are exact.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from oddscalc.audit import false_positives
from oddscalc.audit.evidence import THRESHOLD, Evidence, Weighed
from oddscalc.results import Cell, Column, Lines, Section

POINTS = 200  # the chart's rounds at most
MILESTONES = 20  # the cumulative table's rows at most


def _log10(x: float) -> Fraction:
    return Fraction(round(x * 100), 100)


def _factor_text(log10: float) -> str:
    """A Bayes factor in words: 1.2e+45, 0.03, 4.5e-120."""
    if abs(log10) < 300:
        return f"{10 ** log10:.3g}"
    exponent = math.floor(log10)
    return f"{10 ** (log10 - exponent):.2f}e{exponent:+d}"


def verdict(ev: Evidence) -> str:
    """The report's first words: which models the log's decisions flag, or that none does."""
    flagged = [w for w in ev.suspects if w.flagged]
    if not ev.suspects:
        return "No information model was weighed."
    if not flagged:
        return (f"Not flagged: for no model is the Bayes factor against honest play above {THRESHOLD:,} over "
                f"{len(ev.actions):,} decisions.")
    return "FLAGGED: " + "; ".join(
        f"{w.assessed.title} (Bayes factor {_factor_text(w.log10_factor)}, above {THRESHOLD:,} from decision "
        f"{w.first_flagged:,}, line {int(ev.lines[(w.first_flagged or 1) - 1]):,}; {_false_positives(ev, w)})"
        for w in flagged) + "."


def _false_positives(ev: Evidence, w: Weighed) -> str:
    """The rule's measured false positives for the model, in words."""
    measured = false_positives.rate(ev.game, w.assessed.model)
    return f"false positives of the rule: {measured.describe()}" if measured else \
        "false positives of the rule: not measured for this model"


def summary_section(ev: Evidence) -> Section:
    """One row per suspected model."""
    n = len(ev.actions)
    columns = (Column("model", "Model"), Column("title", "What the player knows"),
               Column("changed", "Decisions it plays otherwise", "int"),
               Column("log10_factor", "log10 Bayes factor", "decimal", 2), Column("factor", "Bayes factor"),
               Column("flagged", "Flagged"), Column("first_round", "Above 1,000 from decision", "int"),
               Column("first_line", "at line", "int"),
               Column("gain", "EV won against honest optimal play", "fraction"),
               Column("gain_per_decision", "per decision", "signed_percent", 4),
               Column("false_positives", "False positives of the rule (measured on honest logs)"),
               Column("false_positive_upper", "their rate: 95% upper bound", "percent", 2))
    rows: list[tuple[Cell, ...]] = []
    for w in ev.suspects:
        first = w.first_flagged
        measured = false_positives.rate(ev.game, w.assessed.model)
        rows.append((w.assessed.model, w.assessed.title, w.changed, _log10(w.log10_factor),
                     _factor_text(w.log10_factor), "yes" if w.flagged else "no", first,
                     int(ev.lines[first - 1]) if first else None, w.gain, w.gain / n if n else None,
                     measured.describe() if measured else "not measured for this model",
                     _bound(measured.upper) if measured else None))
    honest_play = sorted({r.honest_play for r in false_positives.measured() if r.game == ev.game})
    realised = ("" if ev.realised is None else
                f"On the cards dealt, the decisions won {ev.realised} ({float(ev.realised):+,.2f}) units of the base "
                "wager against honest optimal play. ")
    return Section("evidence_summary", "Evidence of information", columns, tuple(rows),
                   intro=(verdict(ev), ev.player.describe(),
                          f"{n:,} decisions. A Bayes factor above {THRESHOLD:,} flags the log (decisive on "
                          "Jeffreys' scale); the EV won is the exact sum, under what the model says the player "
                          "knew, of the EV of each action taken less that of the honest best action, per unit of "
                          f"the base wager. {realised}".strip(),
                          "False positives: how many seeded honest logs the same rule (a Bayes factor above "
                          f"{THRESHOLD:,}) flagged for the model, measured at the log size stated (the honest player: "
                          + ("; ".join(honest_play) or "none measured for this game") + "), with the exact "
                          "(Clopper-Pearson) 95% upper bound on the rate."))


def _bound(upper: float) -> Fraction:
    """A rate's upper bound as a report cell, rounded up to 1e-6 (a bound must not shrink in print)."""
    return Fraction(math.ceil(upper * 1_000_000), 1_000_000)


def _best(w: Weighed, honest_best: np.ndarray, i: int) -> tuple[str, str]:
    a = w.assessed
    return a.actions[int(honest_best[i])], a.actions[int(a.best[i])]


def rounds_section(ev: Evidence, most: int = 10) -> Section:
    """The decisions that weigh most for each model, either way, by line."""
    columns = (Column("model", "Model"), Column("line", "Line", "int"), Column("action", "Action"),
               Column("honest_best", "Honest best"), Column("model_best", "Model's best"),
               Column("honest_ev", "Honest EV of the action", "signed_percent", 2),
               Column("honest_best_ev", "Honest EV of its best", "signed_percent", 2),
               Column("model_ev", "Model's EV of the action", "signed_percent", 2),
               Column("model_honest_best_ev", "Model's EV of the honest best", "signed_percent", 2),
               Column("log10_factor", "log10 factor", "decimal", 2))
    honest_best = ev.honest.best
    rows: list[tuple[Cell, ...]] = []
    for w in ev.suspects:
        for i in w.heaviest(ev.honest, most):
            hb, mb = _best(w, honest_best, i)
            action = ev.actions[i]
            rows.append((w.assessed.model, int(ev.lines[i]), action, hb, mb, ev.honest.ev(i, action),
                         ev.honest.ev(i, hb), w.assessed.ev(i, action), w.assessed.ev(i, hb),
                         _log10(float(w.log10_factors[i]))))
    return Section("evidence_rounds", "The rounds that weigh most", columns, tuple(rows),
                   intro=("Each model's heaviest decisions in its favour: the largest factors, and among equal "
                          "factors those where the model's information was worth most (then the earliest). A "
                          "negative factor is a decision honest play explains better.",))


def _milestones(n: int, most: int) -> list[int]:
    if n == 0:
        return []
    return sorted({max(1, round(n * (i + 1) / most)) for i in range(min(n, most))})


def cumulative_section(ev: Evidence) -> Section:
    """The cumulative log10 Bayes factor of each model at round milestones."""
    columns = (Column("decision", "Decisions", "int"), Column("line", "Line", "int"),
               *(Column(f"log10_{w.assessed.model}", f"log10 BF: {w.assessed.model}", "decimal", 2)
                 for w in ev.suspects))
    rows: tuple[tuple[Cell, ...], ...] = tuple(
        (r, int(ev.lines[r - 1]), *(_log10(float(w.cumulative[r - 1])) for w in ev.suspects))
                 for r in _milestones(len(ev.actions), MILESTONES))
    return Section("evidence_cumulative", "Cumulative evidence, round by round", columns, rows)


def _posterior(log10: float) -> Fraction:
    """BF / (1 + BF) from log10 BF, rounded to a millionth (a chart's point)."""
    p = 1 / (1 + 10 ** -log10) if log10 > -300 else 0.0
    return Fraction(round(p * 1_000_000), 1_000_000)


def chart(ev: Evidence) -> Lines:
    """The probability of each model against honest play at even prior odds, round by round."""
    xs = tuple(_milestones(len(ev.actions), POINTS))
    series = tuple((w.assessed.model, tuple(_posterior(float(w.cumulative[x - 1])) for x in xs))
                   for w in ev.suspects)
    return Lines("evidence_cumulative", "Evidence of information: the model against honest play (even prior odds)",
                 xs, series, "decisions", "probability of the model")


def sections(ev: Evidence) -> list[Section]:
    """Every evidence section, in report order."""
    return [summary_section(ev), rounds_section(ev), cumulative_section(ev)]


__all__ = ["MILESTONES", "POINTS", "chart", "cumulative_section", "rounds_section", "sections", "summary_section",
           "verdict"]
