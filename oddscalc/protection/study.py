"""A counting study: deal shoes to a penetration, know each wager's exact EV at every coup, and bet it
by a count (and, as a bound no counter reaches, whenever its exact EV is positive).

Each shoe is shuffled from the seed, then dealt coup by coup as punto banco deals (punto, banca,
punto, banca, then the cards the tableau draws) until the stated share of the shoe is dealt. Before
each coup the exact EV of the wager is taken from the cards left (``counting.CoupEV``: exact, under
a millisecond), the balanced count is read, and the bettor stakes one unit when the rule says so; the
coup's real cards then settle it. A study is a sample of shoes: its figures carry 95% intervals
across shoes (the edge by the delta method on the ratio of totals).

The count's trigger is the true count (running count per deck left) at which the wager's EV
crosses zero on the linear estimate EV = EV(full shoe) + s x decks x true count, with s the least
squares scale of the effects on the tags; ``trigger`` overrides it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from oddscalc.exact import rounded
from oddscalc.games.punto_banco.coup_features import RANK_POINTS, RANKS, SUITS, play
from oddscalc.games.punto_banco.game import PuntoBancoRules
from oddscalc.protection.counting import CoupEV, Effects, balanced_tags
from oddscalc.protocol import OptionError
from oddscalc.results import Z_SCORES, Cell, Column, Section

Z95 = Z_SCORES["95"]


@dataclass(frozen=True)
class Play:
    """One way of betting: per shoe, the bets made and the units won."""

    name: str
    bets: np.ndarray  # (shoes,)
    won: np.ndarray  # (shoes,) net units (float: a sum of exact units, printed rounded)


@dataclass(frozen=True)
class Study:
    """What a counting study saw."""

    wager: str
    shoes: int
    coups: int
    penetration: Fraction
    trigger: float
    tags: tuple[int, ...]
    plays: tuple[Play, ...]
    seed: int


def default_trigger(fx: Effects, wager: str, tags: tuple[int, ...], decks: int) -> float:
    """The true count at which ``wager`` turns in the player's favour under the tags' linear fit of the cards'
    effects (infinity when the tags never favour it): a study's trigger when none is given."""
    effects = fx.effect[wager]
    num = sum(n * float(e) * t for n, e, t in zip(fx.cards, effects, tags))
    den = sum(n * t * t for n, t in zip(fx.cards, tags))
    scale = num / den if den else 0.0
    if scale <= 0:
        return math.inf
    return -float(fx.base[wager]) / (scale * decks)


@dataclass(frozen=True)
class Shoes:
    """A run of shoes of a study (its own random stream per shoe: any split deals the same cards)."""

    rules: PuntoBancoRules
    fast: CoupEV
    wager: str
    tags: tuple[int, ...]
    trigger: float
    penetration: Fraction
    seed: int
    first: int
    last: int


def deal(job: Shoes) -> tuple[np.ndarray, int]:
    """((4, shoes) int64: count bets, count won x den, EV bets, EV won x den per shoe), coups dealt."""
    cards = job.rules.cards
    # the unshuffled shoe lists the aces first, then 2..K, as it did before the card classes took cards.py's
    # rank order: a seed deals the same shoes as it did then
    laid = np.roll(np.arange(len(RANKS) * SUITS), SUITS)
    deck = np.repeat(laid, np.asarray(cards.copies)[laid])
    tag_of = np.array(job.tags, dtype=np.int64)
    settle_unit, side, _ = _payout(job.fast, job.wager)
    out = np.zeros((4, job.last - job.first), dtype=np.int64)
    coups = 0
    points = np.array(RANK_POINTS)
    for s in range(job.first, job.last):
        order = np.random.default_rng((job.seed, s)).permutation(deck)
        ranks = order // SUITS
        values = points[ranks]
        left = np.bincount(ranks, minlength=len(RANKS))
        stop = len(order) - int(len(order) * job.penetration)
        i = running = 0
        col = s - job.first
        while len(order) - i > max(stop, 6):
            ev = job.fast.ev(left.tolist())[job.wager]
            true_count = running / ((len(order) - i) / 52)
            p1, b1, p2, b2, x, y = (np.array(values[i + k]) for k in range(6))
            outcome = int(play(p1, b1, p2, b2, x, y, job.rules.drawing))
            pair = bool(ranks[i + side] == ranks[i + side + 2])  # punto holds cards 1 and 3, banca 2 and 4
            won = settle_unit(outcome, pair)
            if true_count >= job.trigger:
                out[0, col] += 1
                out[1, col] += won
            if ev > 0:
                out[2, col] += 1
                out[3, col] += won
            used = 4 + _drew(outcome)
            for k in range(used):
                left[ranks[i + k]] -= 1
                running += int(tag_of[ranks[i + k]])
            i += used
            coups += 1
    return out, coups


# maps a deal function over runs of shoes (of any study), results in order
Runner = Callable[[Callable[[Any], tuple[np.ndarray, int]], Sequence[Any]], list[tuple[np.ndarray, int]]]


def run(rules: PuntoBancoRules, fast: CoupEV, fx: Effects, wager: str, shoes: int, penetration: Fraction,
        seed: int, trigger: float | None = None, runner: Runner | None = None, chunk: int = 25) -> Study:
    """Deal ``shoes`` shoes and bet ``wager`` by the count and by its exact EV; ``runner`` maps ``deal``
    over runs of ``chunk`` shoes (default: here, in order; a cluster's map deals the same shoes)."""
    if wager not in fast.outcome_wagers and wager not in fast.pair_units:
        known = ", ".join((*fast.outcome_wagers, *fast.pair_units))
        raise OptionError(f"the study bets a wager settled on the coup's outcome or a pair; {wager!r} is not one "
                          f"of them ({known})")
    if not 0 < penetration < 1:
        raise OptionError("--penetration is the share of the shoe dealt, between 0 and 1 (e.g. 0.8)")
    tags = balanced_tags(fx.effect[wager], fx.cards)
    trig = default_trigger(fx, wager, tags, rules.decks) if trigger is None else trigger
    jobs = [Shoes(rules, fast, wager, tags, trig, penetration, seed, a, min(a + chunk, shoes))
            for a in range(0, shoes, chunk)]
    results = (runner or (lambda fn, js: [fn(j) for j in js]))(deal, jobs)
    table = np.concatenate([r[0] for r in results], axis=1)
    coups = sum(r[1] for r in results)
    den = _payout(fast, wager)[2]
    plays = (Play("count", table[0], table[1] / den), Play("exact EV positive (a bound)", table[2], table[3] / den))
    return Study(wager, shoes, coups, penetration, trig, tags, plays, seed)


def _drew(outcome: int) -> int:
    """Cards drawn after the first four: punto's and banca's draw bits of the outcome index."""
    return (outcome // 20 % 2) + outcome % 2


def _payout(fast: CoupEV, wager: str) -> tuple[Callable[[int, bool], int], int, int]:
    """How one unit on the wager settles: (units won x den given the outcome and whether the side paired,
    the side whose pair it reads, den)."""
    if wager in fast.pair_units:
        side, yes, no = fast.pair_units[wager]
        den = math.lcm(yes.denominator, no.denominator)
        up, down = int(yes * den), int(no * den)
        return (lambda _o, pair: up if pair else down), side, den
    j = fast.outcome_wagers.index(wager)
    units = fast.scaled[:, j].tolist()
    return (lambda o, _p: int(units[o])), 0, fast.denominators[j]


def section(st: Study) -> Section:
    """The study's figures with 95% intervals across shoes."""
    rows: list[tuple[Cell, ...]] = []
    for p in st.plays:
        bets, won = p.bets.astype(float), p.won.astype(float)
        total_bets = bets.sum()
        edge = won.sum() / total_bets if total_bets else 0.0
        # delta method: the ratio of two sums over shoes
        resid = won - edge * bets
        edge_half = Z95 * math.sqrt((resid**2).sum() / st.shoes) / (total_bets / st.shoes) / math.sqrt(st.shoes) \
            if total_bets else 0.0
        per_shoe = won.mean()
        shoe_half = Z95 * won.std(ddof=1) / math.sqrt(st.shoes) if st.shoes > 1 else 0.0
        per_100 = 100 * won.sum() / st.coups
        rows.append((p.name, int(total_bets), rounded(bets.mean()), rounded(edge), rounded(edge_half), rounded(per_100),
                     rounded(100 * shoe_half * st.shoes / st.coups), rounded(per_shoe), rounded(shoe_half)))
    return Section(
        f"counting_study_{st.wager}", f"Counting study: {st.wager}",
        (Column("play", "Bets when"), Column("bets", "Bets", "int"),
         Column("bets_per_shoe", "Bets per shoe", "decimal", 2),
         Column("edge", "Player's edge", "signed_percent", 3), Column("edge_ci", "+/- (95%)", "percent", 3),
         Column("per_100", "Won per 100 coups", "decimal", 4), Column("per_100_ci", "+/- (95%)", "decimal", 4),
         Column("per_shoe", "Won per shoe", "decimal", 4), Column("per_shoe_ci", "+/- (95%)", "decimal", 4)),
        tuple(rows),
        intro=(f"{st.shoes:,} shoes dealt to {float(st.penetration):.0%} (seed {st.seed}), {st.coups:,} coups; "
               f"one unit bet on {st.wager} when the rule says, settled by the coup's cards.",
               "Count: tags " + ", ".join(f"{r} {t:+d}" for r, t in zip(RANKS, st.tags))
               + (f"; bet when the true count (running count per deck left) is at least {st.trigger:.2f}."
                  if math.isfinite(st.trigger) else
                  "; the count says nothing about this wager (no card's removal moves its EV linearly): it never "
                  "bets."),
               "Exact EV positive: bet whenever the exact EV from the cards left is above 0, a bound on any count."),
        notes=("The intervals are 95% across shoes (normal approximation); the edge is won / bet, by the delta "
               "method.",))






def run_counted(rules: PuntoBancoRules, fx: Effects, wager: str, shoes: int, penetration: Fraction, seed: int,
                trigger: float | None = None, runner: Runner | None = None) -> Study:
    """:func:`run` with the per-coup EV of ``rules`` (the ``counting`` command's study; the declaration names it)."""
    from oddscalc.protection.counting import coup_ev

    return run(rules, coup_ev(rules), fx, wager, shoes, penetration, seed, trigger, runner)
