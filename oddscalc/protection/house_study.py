"""A counting study of the rule sheet's house game, one seat: the exact EV at every coup, bet by a count.

Per-coup EV. With one seat a round is six ordered slots (your two cards, the house's two, your third
card and the house's, the unused ones counted once for every way they can lie), so your exact EV
from any remaining composition r is

    sum over your two cards (u, w) of max over draw/stand of
        sum over four-value multisets m of the other slots of
            [shoe-free net win of those orderings]  x  [falling product of r at (u, w) + m],

over the ordered six-card count. The shoe-free factor comes once from ``house_baccarat``'s slot
orderings; a coup costs a gather and one integer product per limb (exact: the weights are split into
limbs sized so that no int64 sum overflows). Play is re-solved per composition, as the seat that
knows the cards left would play; the fixed chart (the full shoe's best play) is what a counter plays.

The study. Each shoe is shuffled from the seed, burnt and dealt round by round (your two cards and
the house's alternately, then the third cards in order) as the chart plays, until the cut card comes
out (``study.Procedure``, the same procedure as punto banco's study: what is seen is counted, the
burnt cards stay unseen); the seat's cards are dealt whether or not it bets. The counter bets one unit when the true
count of the balanced tags reaches the trigger and plays the chart; the bound bets when the exact EV
with the best play for the cards left is positive and plays that, settled on the same cards in
order (its third card is the next card; the house's follows).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.games.house_baccarat.count import LOSS, WIN, HouseBaccaratRules, seat_counts, six_index, slot_orderings
from oddscalc.games.house_baccarat.others import NATURAL, NONE_CLASS
from oddscalc.games.house_baccarat.settle import best_by_composition
from oddscalc.games.house_baccarat.strategy import TOTAL, Strategy
from oddscalc.games.punto_banco.coup_features import RANK_POINTS, RANKS, SUITS
from oddscalc.games.shoe import VALUES, Multisets, falling, tableau_array
from oddscalc.protection.counting import Effects, balanced_tags
from oddscalc.protection.study import Play, Procedure, Runner, Study, coups_left, default_trigger
from oddscalc.protocol import OptionError

WAGER = "house_game"


@dataclass(frozen=True)
class HouseCoupEV:
    """Exact EV of one seat of the house game from any remaining composition (point values 0-9)."""

    pay: Fraction
    coef: np.ndarray  # (100, 2, 715) int64: [your two cards][stand, draw][other four slots] net x pay den
    gather: np.ndarray  # (100, 715): the six-card multiset of each
    chart: np.ndarray  # (100,) int: the fixed chart's action per (first, second) card

    def per_action(self, values: Sequence[int]) -> np.ndarray:
        """(100, 2) object: net combinations x pay denominator, per two cards and action."""
        n = sum(values)
        if n < 6:
            raise ValueError("fewer than six cards left")
        if falling(n, 6) >= 2**63:
            raise OptionError("a shoe too large for the exact int64 weights of the per-coup EV")
        six = Multisets.of_size(6).counts
        table = np.ones((max(values) + 1, 7), dtype=np.int64)  # [c, k]: c (c-1) .. (c-k+1)
        for k in range(1, 7):
            table[:, k] = table[:, k - 1] * np.maximum(np.arange(max(values) + 1) - (k - 1), 0)
        w = np.prod(table[np.asarray(values)[None, :], six], axis=1)  # each partial product <= nP6
        bits = 62 - (int(np.abs(self.coef).max(initial=1)) * self.coef.shape[2]).bit_length()
        total = np.zeros((self.coef.shape[0], 2), dtype=object)
        for j in range(-(-int(w.max(initial=1)).bit_length() // bits)):
            part = ((w >> (bits * j)) & ((1 << bits) - 1))[self.gather]  # (100, 715), each below 2**bits
            total += np.einsum("cam,cm->ca", self.coef, part).astype(object) * (1 << (bits * j))
        return total

    def ev(self, values: Sequence[int]) -> tuple[Fraction, Fraction, np.ndarray]:
        """(EV with the best play for these cards, EV of the chart, the best play's action per two cards)."""
        t = self.per_action(values)
        both = t.reshape(VALUES, VALUES, 2)
        gain = both[:, :, 1] + both.transpose(1, 0, 2)[:, :, 1] - both[:, :, 0] - both.transpose(1, 0, 2)[:, :, 0]
        best = (np.array([[g > 0 for g in row] for row in gain]) & ~NATURAL).reshape(-1).astype(np.int64)
        rows = np.arange(len(t))
        den = falling(sum(values), 6) * self.pay.denominator
        return (Fraction(int(sum(t[rows, best])), den), Fraction(int(sum(t[rows, self.chart])), den), best)


def coup_ev(rules: HouseBaccaratRules) -> HouseCoupEV:
    """The per-coup EV of a house table with one seat, the chart being the full shoe's best play."""
    if rules.players != 1 or rules.infinite:
        raise OptionError("the house game's counting study is for one seat on a finite shoe (--players 1)")
    u = slot_orderings(rules.house_tableau, rules.all_stand)[:, :, :, :, NONE_CLASS]  # (4, 10 totals, 2, 715)
    p, q = rules.pay.numerator, rules.pay.denominator
    if max(p, q) * int(u.max(initial=1)) * u.shape[-1] * 2**8 >= 2**62:
        raise OptionError("the house game's pay is too large for the exact int64 per-coup EV")
    net = p * u[WIN] - q * u[LOSS]  # (10, 2, 715)
    coef = net[TOTAL.reshape(-1)].astype(np.int64)  # (100, 2, 715)
    full = seat_counts(rules.shoe, 1, Strategy.by_totals("stand", []), rules.house_tableau, rules.all_stand, False)
    chart = best_by_composition(full, rules.pay).matrix.reshape(-1).astype(np.int64)
    return HouseCoupEV(rules.pay, coef, six_index().reshape(VALUES * VALUES, -1), chart)


def _round(v: np.ndarray, i: int, draw: bool, house: np.ndarray, all_stand: str) -> tuple[int, int]:
    """(your net in units of 1/q with win paying p: +1 win, 0 push, -1 loss, cards used) on values from i."""
    yours, h = (v[i] + v[i + 2]) % 10, (v[i + 1] + v[i + 3]) % 10
    used = 4
    if yours >= 8:
        return int(np.sign(yours - h)), used
    if draw:
        x = v[i + 4]
        yours = (yours + x) % 10
        used += 1
        house_draws = bool(house[h, x])
    else:
        house_draws = h <= 5 if all_stand == "on-0-5" else False
    if house_draws:
        h = (h + v[i + used]) % 10
        used += 1
    return int(np.sign(yours - h)), used


@dataclass(frozen=True)
class HouseShoes:
    """A run of shoes of the house study (its own random stream per shoe)."""

    rules: HouseBaccaratRules
    fast: HouseCoupEV
    tags: tuple[int, ...]
    trigger: float
    procedure: Procedure
    seed: int
    first: int
    last: int


def deal(job: HouseShoes) -> tuple[np.ndarray, int]:
    """((6, shoes) int64: count bets, count won x pay den, EV bets, EV won x pay den, count and EV won squared x
    pay den**2 per shoe), coups."""
    # aces first, then 2..K: the unshuffled shoe as it was laid before the ranks took cards.py's order, so that
    # a seed deals the same shoes
    ranks_all = np.repeat(np.roll(np.arange(len(RANKS)), 1), SUITS * job.rules.decks)
    points = np.array(RANK_POINTS)
    tag_of = np.array(job.tags, dtype=np.int64)
    house = tableau_array(job.rules.house_tableau)
    p, q = job.fast.pay.numerator, job.fast.pay.denominator
    units = {1: p, 0: 0, -1: -q}
    out = np.zeros((6, job.last - job.first), dtype=np.int64)
    coups = 0
    cut = job.procedure.cut(len(ranks_all))
    for s in range(job.first, job.last):
        ranks = np.random.default_rng((job.seed, s)).permutation(ranks_all)
        v = points[ranks]
        left = np.bincount(v, minlength=VALUES)  # the cards not seen (the burnt ones stay unseen)
        i, seen = job.procedure.burnt(v)
        running = sum(int(tag_of[r]) for r in ranks[:seen])
        for x in v[:seen]:
            left[x] -= 1
        after = job.procedure.after_cut
        col = s - job.first
        while coups_left(len(v) - i, cut, after):
            after -= len(v) - i <= cut
            best_ev, _, best = job.fast.ev(left.tolist())
            true_count = running / (int(left.sum()) / 52)
            two = v[i] * VALUES + v[i + 2]
            chart_result, used = _round(v, i, bool(job.fast.chart[two]), house, job.rules.all_stand)
            if true_count >= job.trigger:
                out[0, col] += 1
                out[1, col] += units[chart_result]
                out[4, col] += units[chart_result] ** 2
            if best_ev > 0:
                result, _ = _round(v, i, bool(best[two]), house, job.rules.all_stand)
                out[2, col] += 1
                out[3, col] += units[result]
                out[5, col] += units[result] ** 2
            for k in range(used):
                left[v[i + k]] -= 1
                running += int(tag_of[ranks[i + k]])
            i += used
            coups += 1
    return out, coups


def run(rules: HouseBaccaratRules, fx: Effects, shoes: int, procedure: Procedure, seed: int,
        trigger: float | None = None, runner: Runner | None = None, chunk: int = 10) -> Study:
    """Deal ``shoes`` shoes of the house game; ``runner`` as in ``study.run``."""
    size = 52 * rules.decks
    procedure.check(size)
    fast = coup_ev(rules)
    tags = balanced_tags(fx.effect[WAGER], fx.cards)
    trig = default_trigger(fx, WAGER, tags, rules.decks) if trigger is None else trigger
    jobs = [HouseShoes(rules, fast, tags, trig, procedure, seed, a, min(a + chunk, shoes))
            for a in range(0, shoes, chunk)]
    results = (runner or (lambda fn, js: [fn(j) for j in js]))(deal, jobs)
    table = np.concatenate([r[0] for r in results], axis=1)
    coups = sum(r[1] for r in results)
    den = rules.pay.denominator
    plays = (Play("count (plays the chart)", table[0], table[1] / den, table[4] / den**2),
             Play("exact EV positive, best play for the cards left (a bound)", table[2], table[3] / den,
                  table[5] / den**2))
    return Study(WAGER, shoes, coups, procedure, size, trig, tags, plays, seed)


def run_counted(rules: HouseBaccaratRules, fx: Effects, wager: str, shoes: int, procedure: Procedure, seed: int,
                trigger: float | None = None, runner: Runner | None = None, count: object = None) -> Study:
    """:func:`run` (the ``counting`` command's study; the declaration names it): the house game has one wager,
    ``house_game``, which the declaration lists, so ``wager`` is that one. A count file (``count``) is refused: the
    house game's study bets by its derived count."""
    if count is not None:
        raise OptionError("--count: the house game's study bets by its own derived count; count files are for "
                          "punto banco's wagers")
    return run(rules, fx, shoes, procedure, seed, trigger, runner)
