"""An independent Monte Carlo check of the exact figures: shuffle real cards, play the rules as written.

Independence. The exact engine is checked, not reused: this package deals card ids from a shuffled
deck or shoe, evaluates poker hands with its own small vectorised evaluator (``evaluator``), and
plays every game's rules (drawing tableaux, qualifiers, pull-backs, raises, naturals) itself. From
the rest of oddscalc it takes only card/rank parsing (``cards``), colex indexing of card sets
(``hands.colex_indices``), the validated table file (``catalog.resolve_table`` and the games' table
models, to read pays and rule switches), and ``analysis.Session`` for the exact values it compares
against. The one thing read from an analysis besides those values is house baccarat's solved
draw/stand chart (its ``draw`` decisions: a composition key and a value per two-card hand), played
as data.

Dealing (``dealing``). A round takes the top k cards of a freshly, uniformly shuffled deck or shoe,
produced by the first k steps of a Fisher-Yates shuffle of every card (vectorised over many rounds
at once). Baccarat rounds each come from a new shoe, without a cut card, so the exact finite-shoe
figures apply; the cards are then taken in table order (a drawing hand takes the next card of the
shoe). House baccarat beyond the players the engine enumerates on a finite shoe deals each round
twice from the same uniforms, from the finite shoe and from the infinite one (see Statistics).

Strategies. Let It Ride rides each bet exactly when the exact EV of riding is positive given the
cards seen, found by enumerating the unseen cards with the simulator's evaluator (C(49,2) = 1,176
completions after three cards, 48 after four), cached per suit-permutation class. Caribbean Stud's
optimal strategy needs, per hand and up card, the counts of all C(46,4) dealer completions, which is
too slow per hand; the simulator plays a named strategy instead (``rules-of-thumb`` by default) and
compares with the exact value the engine computes for that same strategy. House baccarat plays the
exact engine's solved chart when its analysis exposes one, else ``draw-0-5``.

Statistics (``stats``). Each figure is the mean of an i.i.d. per-round quantity (net units won per
unit bet, whether the bet won, units staked); its 99% confidence interval is mean +- z * sd / sqrt(N)
with z = z_0.995 = 2.5758 and sd the sample standard deviation. For house baccarat with several seats
a round's value is the average over the seats, which are exchangeable and play the same strategy.
With more seats than ``games.house_baccarat.FINITE_EXACT_MAX_PLAYERS`` the exact analysis is for an
infinite shoe, so nothing exact is compared with the finite-shoe rounds; the extra figure
``paired_expected_value`` = exact infinite-shoe EV + mean(finite - infinite) on common random
numbers estimates the finite-shoe EV with a much narrower interval (``baccarat.paired_estimate``).

Layout. Each game has a plan (``let_it_ride``, ``caribbean``, ``baccarat``; ``stud`` for the games a game file
declares, ``stud_dealer`` for those with a dealer, which play the stud analysis's ``play`` decisions, one per suit
pattern of the player's cards and the dealer's up cards, read as data): ``plan(table, options)``
returns a :class:`~oddscalc.simulate.plan.Plan` (what to deal, how to settle it, the exact options
that match) and the exact analysis when it needed one. Each game's declaration (``games/<game>/capabilities.py``)
names its plan and default rounds; :data:`PLANS` and :data:`DEFAULT_ROUNDS` read them by game key;
:func:`run` plays one and compares; ``render`` prints the result.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from fractions import Fraction

import numpy as np

from oddscalc.analysis import Session, check_options, game_of
from oddscalc.catalog import resolve_table
from oddscalc.games import DECLARED
from oddscalc.progress import Progress
from oddscalc.protocol import OptionError, load
from oddscalc.results import Analysis, RunOptions
from oddscalc.simulate.baccarat import paired_estimate, solved_chart
from oddscalc.simulate.dealing import deal, deal_paired, full_shoe
from oddscalc.simulate.evaluator import (
    CATEGORY_NAMES,
    category_of,
    hand_name,
    is_royal,
    strength,
    three_card_classes,
    top_rank_of,
)
from oddscalc.simulate.let_it_ride import RideDecisions
from oddscalc.simulate.plan import Plan, PlanMaker, tally
from oddscalc.simulate.render import RENDERERS, render_json, render_text, summary_line
from oddscalc.simulate.stats import FEW_WINS, Z_995, Estimate, RunningSum, Simulation

DEFAULT_SEED = 1
DEFAULT_ROUNDS: Mapping[str, int] = {key: c.simulate.rounds for key, c in DECLARED.items()}
PLANS: Mapping[str, str] = {key: c.simulate.plan for key, c in DECLARED.items()}  # "module:function", a PlanMaker
_FIGURES = ("expected_value", "hit_frequency", "average_stake")  # the figures an exact WagerResult has


def run(game: str, table_ref: str | None = None, rounds: int | None = None, seed: int = DEFAULT_SEED,
        strategy: str | None = None, decks: int | None = None, players: int | None = None,
        exact: bool = True, progress: bool = False) -> Simulation:
    """Simulate ``rounds`` rounds of ``game`` with a PCG64 generator seeded with ``seed``, and compare each
    figure with the exact engine's value (``exact=False`` skips the exact analysis where the simulation
    does not need it). Raises ``OptionError`` for bad input and ``TableError`` for a bad table file."""
    definition = game_of(game)
    if game not in PLANS:
        raise OptionError(f"simulate does not know how to play {game!r} yet; it plays: {', '.join(PLANS)}")
    n_rounds = DEFAULT_ROUNDS.get(game, 1_000_000) if rounds is None else rounds
    if isinstance(n_rounds, bool) or not isinstance(n_rounds, int) or n_rounds <= 0:
        raise OptionError(f"the number of rounds (-n) must be a positive integer, got {n_rounds!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise OptionError(f"the seed must be a non-negative integer, got {seed!r}")
    options = RunOptions(strategy=strategy, decks=decks, players=players, progress=progress)
    check_options(definition, options)
    table = resolve_table(game, table_ref)

    t0 = time.perf_counter()
    make: PlanMaker = load(PLANS[game])
    plan, analysis = make(table, options)
    if exact and analysis is None:
        analysis = Session(definition, dataclasses.replace(plan.exact_options, progress=progress)).analyze(table)
    seconds_exact = time.perf_counter() - t0 if analysis is not None else 0.0

    t1 = time.perf_counter()
    rng = np.random.Generator(np.random.PCG64(seed))
    sums = tally(plan.play, rng, n_rounds, plan.chunk, Progress(progress, f"simulate {game}"))
    seconds_simulating = time.perf_counter() - t1

    estimates, notes = _compare(sums, analysis, plan)
    return Simulation(game, table.id, table.sha256, n_rounds, seed, plan.strategy, plan.rules, estimates,
                      notes, seconds_simulating, seconds_exact)


def _compare(sums: Mapping[tuple[str, str], RunningSum], analysis: Analysis | None,
             plan: Plan) -> tuple[tuple[Estimate, ...], tuple[str, ...]]:
    """Each simulated figure as an estimate, with the exact value it should match when there is one;
    and the plan's notes, plus notes on what could not be compared."""
    notes = list(plan.notes)
    estimates = []
    for wager, figure in sums:
        value: Fraction | None = None
        if analysis is not None and plan.compare_exact and figure in _FIGURES:
            try:
                result = analysis.wager(wager)
            except KeyError:
                if figure == "expected_value":
                    notes.append(f"The exact analysis has no wager {wager!r}: nothing to compare it with.")
            else:
                value = Fraction(getattr(result, figure))
        wins = round(sums[(wager, "hit_frequency")].s1)
        estimates.append(Estimate.of(wager, figure, sums[(wager, figure)], value, wins))
    simulated = dict.fromkeys(w for w, _ in sums)
    if analysis is not None:
        notes += [f"The table's wager {w.wager!r} is not simulated." for w in analysis.wagers
                  if w.wager not in simulated]
    for wager in simulated:
        won = round(sums[(wager, "hit_frequency")].s1)
        if won < FEW_WINS:
            notes.append(f"{wager}: only {won:,} winning round(s) in the sample; its normal interval is a rough "
                         "guide (the payoff is long-tailed: more rounds make it sound).")
    return tuple(estimates), tuple(notes)


__all__ = [
    "CATEGORY_NAMES", "DEFAULT_ROUNDS", "DEFAULT_SEED", "PLANS", "RENDERERS", "Z_995",
    "Estimate", "Plan", "RideDecisions", "Simulation",
    "category_of", "deal", "deal_paired", "full_shoe", "hand_name", "is_royal", "paired_estimate",
    "render_json", "render_text", "run", "solved_chart", "strength", "summary_line", "three_card_classes",
    "top_rank_of",
]
