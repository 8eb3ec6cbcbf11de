"""A counting study: deal shoes by a stated procedure, know each wager's exact EV at every coup, and bet it by a
count (and, as a bound no counter reaches, whenever its exact EV is positive).

Procedure (:class:`Procedure`). Each shoe is shuffled from the seed. The burn: a stated number of cards burnt face
down, or the punto banco rule (the first card is turned face up, and as many cards as its point value are burnt
face down, a ten or face burning 10). The cut card lies a stated number of cards from the end of the shoe: coups
are dealt (punto, banca, punto, banca, then the cards the tableau draws) while the cut card has not come out, the
coup in which it comes out is completed, and a stated number of coups follow it (0 by default). The deprecated
penetration share states the cut card as the share of the shoe dealt (the cut card at size - floor(size x share)
cards from the end, no burn): the same shoes and figures as before the procedure was stated.

What is known. Before each coup the exact EV of the wager is taken from the cards not seen (``counting.CoupEV``:
exact, under a millisecond): the burnt cards are not seen, and since they are as likely to be any unseen card as
the next card is, the EV from every unseen card is the EV given what the table shows. The balanced count adds the
tag of every card seen (the turned card and every card of every coup); the true count is the running count per
deck not seen. The bettor stakes one unit when the rule says so; the coup's real cards then settle it.

Figures. A study is a sample of shoes: the edge and the win per 100 coups carry 95% intervals across shoes (the
edge by the delta method on the ratio of totals). The metrics a counter and a surveillance room read come from the
units won per coup dealt (a counter watches every coup and bets some: W their mean, V their variance, both over
every coup dealt): DI = 1000 W / sqrt(V), SCORE = 10**6 W**2 / V, N0 = V / W**2 and the risk of ruin of a bankroll
of B units exp(-2 W B / V) (see :func:`metrics`).

The count's trigger is the true count at which the wager's EV crosses zero on the linear estimate EV = EV(full
shoe) + s x decks x true count, with s the least squares scale of the effects on the tags; ``trigger`` overrides it.
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
from oddscalc.protection.count_system import CountSystem
from oddscalc.protection.counting import CoupEV, Effects, balanced_tags, refuse_card_bet
from oddscalc.protection.counting_cards import FirstFourEV, first_four_bets
from oddscalc.protocol import OptionError
from oddscalc.results import Z_SCORES, Cell, Column, Section

Z95 = Z_SCORES["95"]


TURN = "turn"  # the punto banco burn: turn the first card, burn as many as its point value (a ten or face: 10)
SCORE_BANKROLL = 10_000  # Schlesinger's SCORE: the win per 100 rounds with this bankroll ...
SCORE_RUIN = math.exp(-2)  # ... bet so that the risk of ruin is e**-2, 13.5%


@dataclass(frozen=True)
class Procedure:
    """How each shoe of a study is dealt: the burn at its start and the cut card near its end."""

    cut_card: int  # cards behind the cut card (from the end of the shoe)
    burn: int | None = None  # cards burnt face down at the start; None: the punto banco rule (TURN)
    after_cut: int = 0  # coups dealt after the one in which the cut card comes out
    share: Fraction | None = None  # the deprecated penetration share, when the cut card was stated by it

    @classmethod
    def penetration(cls, share: Fraction) -> Procedure:
        """The deprecated share of the shoe dealt: the cut card at size - floor(size x share), no burn."""
        if not 0 < share < 1:
            raise OptionError("--penetration is the share of the shoe dealt, between 0 and 1 (e.g. 0.8)")
        return cls(0, 0, 0, share)

    def cut(self, size: int) -> int:
        """Cards behind the cut card in a shoe of ``size`` cards."""
        return size - int(size * self.share) if self.share is not None else self.cut_card

    def check(self, size: int) -> None:
        """Refuse a procedure that deals no coup from a shoe of ``size`` cards (the most a burn takes: 11)."""
        burnt = 11 if self.burn is None else self.burn
        if self.share is None and burnt + self.cut_card + 6 > size:
            raise OptionError(f"--cut-card {self.cut_card} and --burn {TURN if self.burn is None else self.burn}: "
                              f"a shoe of {size} cards would deal no coup; at most {max(size - burnt - 6, 0)} cards "
                              "behind the cut card")

    def burnt(self, points: np.ndarray) -> tuple[int, int]:
        """(the index of the first coup's first card, cards seen before it: the turned card) of a shuffled shoe by
        point value."""
        if self.burn is not None:
            return self.burn, 0
        return 1 + (int(points[0]) or 10), 1

    def label(self, size: int) -> str:
        """The procedure as a report states it."""
        if self.share is not None:
            return (f"dealt to {float(self.share):.0%} (the deprecated --penetration: the cut card {self.cut(size)} "
                    "cards from the end, no burn)")
        burn = ("the first card turned and as many burnt as its point value (a ten or face 10)" if self.burn is None
                else f"{self.burn} card{'s' if self.burn != 1 else ''} burnt")
        more = f", then {self.after_cut} more coup{'s' if self.after_cut != 1 else ''}" if self.after_cut else ""
        return (f"{burn}; the cut card {self.cut_card} cards from the end (the coup in which it comes out is "
                f"completed{more})")


def coups_left(remaining: int, cut: int, after: int) -> bool:
    """Whether a coup starts with ``remaining`` cards in the shoe: the cut card (``cut`` from the end) not out yet,
    or ``after`` coups still due after it (``after`` counts down); never with fewer than seven cards left, so that
    no coup runs out of cards."""
    return remaining > max(cut, 6) or (after > 0 and remaining > 6)


@dataclass(frozen=True)
class Play:
    """One way of betting: per shoe, the bets made, the units won and the sum of each coup's units squared."""

    name: str
    bets: np.ndarray  # (shoes,)
    won: np.ndarray  # (shoes,) net units (float: a sum of exact units, printed rounded)
    squares: np.ndarray  # (shoes,) the sum over coups of the units won squared (what the variance reads)
    expected: np.ndarray | None = None  # (shoes,) the sum of the exact EV of every coup bet, from the cards unseen


@dataclass(frozen=True)
class Study:
    """What a counting study saw."""

    wager: str
    shoes: int
    coups: int
    procedure: Procedure
    size: int  # cards in a shoe
    trigger: float
    tags: tuple[int, ...]
    plays: tuple[Play, ...]
    seed: int
    count: CountSystem | None = None  # the count file the study bet by (None: the derived balanced count)


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
    procedure: Procedure
    seed: int
    first: int
    last: int
    count: CountSystem | None = None  # a count file's tags and rule, in place of ``tags`` and ``trigger``
    cards: FirstFourEV | None = None  # the wager is a side bet on the first four cards (counting_cards)


def deal(job: Shoes) -> tuple[np.ndarray, int]:
    """((8, shoes) float64: count bets, count won x den, EV bets, EV won x den, count and EV won squared x den**2,
    then the exact EV summed over the coups the count bets and over those the EV bets, per shoe), coups dealt.
    Rows 0-5 are whole numbers (exact in a float64 far below 2**53)."""
    cards = job.rules.cards
    # the unshuffled shoe lists the aces first, then 2..K, as it did before the card classes took cards.py's
    # rank order: a seed deals the same shoes as it did then
    laid = np.roll(np.arange(len(RANKS) * SUITS), SUITS)
    deck = np.repeat(laid, np.asarray(cards.copies)[laid])
    tag_of = np.array(job.tags, dtype=np.int64)
    settle_unit, side, _ = _payout(job.fast, job.wager, job.cards)
    out = np.zeros((8, job.last - job.first), dtype=np.float64)
    coups = 0
    points = np.array(RANK_POINTS)
    cut = job.procedure.cut(len(deck))
    for s in range(job.first, job.last):
        order = np.random.default_rng((job.seed, s)).permutation(deck)
        ranks = order // SUITS
        values = points[ranks]
        left = np.bincount(ranks, minlength=len(RANKS))  # the cards not seen (the burnt ones stay unseen)
        unseen_cards = np.bincount(order, minlength=len(cards.copies))  # and by card class (a bet on the cards)
        i, seen = job.procedure.burnt(values)
        running = sum(int(tag_of[r]) for r in ranks[:seen])
        for r in ranks[:seen]:
            left[r] -= 1
        after = job.procedure.after_cut
        col = s - job.first
        while coups_left(len(order) - i, cut, after):
            after -= len(order) - i <= cut
            ev = (job.cards.ev(unseen_cards.tolist()) if job.cards is not None
                  else job.fast.ev(left.tolist())[job.wager])
            unseen = int(left.sum())
            p1, b1, p2, b2, x, y = (np.array(values[i + k]) for k in range(6))
            outcome = int(play(p1, b1, p2, b2, x, y, job.rules.drawing))
            pair = bool(ranks[i + side] == ranks[i + side + 2])  # punto holds cards 1 and 3, banca 2 and 4
            won = settle_unit(outcome, pair) if job.cards is None else job.cards.won(order[i:i + 4].tolist())
            if (job.count.bets(running, unseen) if job.count is not None
                    else running / (unseen / 52) >= job.trigger):
                out[0, col] += 1
                out[1, col] += won
                out[4, col] += won * won
                out[6, col] += float(ev)
            if ev > 0:
                out[2, col] += 1
                out[3, col] += won
                out[5, col] += won * won
                out[7, col] += float(ev)
            used = 4 + _drew(outcome)
            for k in range(used):
                left[ranks[i + k]] -= 1
                unseen_cards[order[i + k]] -= 1
                running += int(tag_of[ranks[i + k]])
            i += used
            coups += 1
    return out, coups


# maps a deal function over runs of shoes (of any study), results in order
Runner = Callable[[Callable[[Any], tuple[np.ndarray, int]], Sequence[Any]], list[tuple[np.ndarray, int]]]


def run(rules: PuntoBancoRules, fast: CoupEV, fx: Effects, wager: str, shoes: int, procedure: Procedure,
        seed: int, trigger: float | None = None, runner: Runner | None = None, chunk: int = 25,
        count: CountSystem | None = None, cards: FirstFourEV | None = None) -> Study:
    """Deal ``shoes`` shoes and bet ``wager`` by the count and by its exact EV; ``runner`` maps ``deal``
    over runs of ``chunk`` shoes (default: here, in order; a cluster's map deals the same shoes). ``count``: a
    count file's tags and betting rule in place of the derived balanced count and its trigger; ``cards``: the
    wager's exact EV and settlement when it is a side bet on the first four cards (``counting_cards``)."""
    if count is not None and trigger is not None:
        raise OptionError("--trigger and --count: a count file states its own betting rule; give one")
    refuse_card_bet(wager, fast)
    if cards is None and wager not in fast.outcome_wagers and wager not in fast.pair_units:
        known = ", ".join((*fast.outcome_wagers, *fast.pair_units))
        raise OptionError(f"the study bets a wager settled on the coup's outcome or a pair; {wager!r} is not one "
                          f"of them ({known})")
    size = sum(rules.cards.copies)
    procedure.check(size)
    if count is not None:
        tags, trig = count.tags, math.nan
    else:
        tags = balanced_tags(fx.effect[wager], fx.cards)
        trig = default_trigger(fx, wager, tags, rules.decks) if trigger is None else trigger
    jobs = [Shoes(rules, fast, wager, tags, trig, procedure, seed, a, min(a + chunk, shoes), count, cards)
            for a in range(0, shoes, chunk)]
    results = (runner or (lambda fn, js: [fn(j) for j in js]))(deal, jobs)
    table = np.concatenate([r[0] for r in results], axis=1)
    coups = sum(r[1] for r in results)
    den = _payout(fast, wager, cards)[2]
    plays = (Play("count", table[0], table[1] / den, table[4] / den**2, table[6]),
             Play("exact EV positive (a bound)", table[2], table[3] / den, table[5] / den**2, table[7]))
    return Study(wager, shoes, coups, procedure, size, trig, tags, plays, seed, count)


def _drew(outcome: int) -> int:
    """Cards drawn after the first four: punto's and banca's draw bits of the outcome index."""
    return (outcome // 20 % 2) + outcome % 2


def _payout(fast: CoupEV, wager: str,
            cards: FirstFourEV | None = None) -> tuple[Callable[[int, bool], int], int, int]:
    """How one unit on the wager settles: (units won x den given the outcome and whether the side paired,
    the side whose pair it reads, den); a bet on the cards settles on the cards themselves (``cards.won``)."""
    if cards is not None:
        return (lambda _o, _p: 0), 0, cards.den
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
        intro=(f"{st.shoes:,} shoes of {st.size:,} cards (seed {st.seed}), {st.coups:,} coups: "
               f"{st.procedure.label(st.size)}; "
               f"one unit bet on {st.wager} when the rule says, settled by the coup's cards.",
               _count_line(st),
               "Exact EV positive: bet whenever the exact EV from the cards left is above 0, a bound on any count."),
        notes=("The intervals are 95% across shoes (normal approximation); the edge is won / bet, by the delta "
               "method.",))


def _count_line(st: Study) -> str:
    """The count the study bet by: its tags and rule."""
    tags = ", ".join(f"{r} {t:+d}" for r, t in zip(RANKS, st.tags))
    if st.count is not None:
        kind = "balanced" if st.count.balanced else "unbalanced"
        return f"Count: {st.count.title} ({st.count.id}, {kind}): tags {tags}; {st.count.rule()}."
    return ("Count: tags " + tags
            + ("; bet when the true count (running count per deck not seen: burnt cards are never seen) is at "
               f"least {st.trigger:.2f}."
               if math.isfinite(st.trigger) else
               "; the count says nothing about this wager (no card's removal moves its EV linearly): it never "
               "bets."))


@dataclass(frozen=True)
class Metrics:
    """A play's figures per coup dealt, and what counters and surveillance read from them."""

    coups: int
    win: float  # W: units won per coup dealt (0 on the coups it sits out)
    variance: float  # V: the variance of the units won per coup dealt

    @property
    def sd(self) -> float:
        """The standard deviation per coup."""
        return math.sqrt(self.variance)

    @property
    def di(self) -> float:
        """Desirability index: 1000 W / SD (Schlesinger)."""
        return 1000 * self.win / self.sd if self.variance else 0.0

    @property
    def score(self) -> float:
        """SCORE: the win per 100 coups with the bets scaled to a 10,000-unit bankroll at a risk of ruin of e**-2
        (13.5%): 100 x (10,000 W / V) x W = 10**6 W**2 / V, which is DI squared; 0 when the play loses."""
        return 100 * SCORE_BANKROLL * self.win**2 / self.variance if self.win > 0 and self.variance else 0.0

    @property
    def n0(self) -> float:
        """N0: the coups after which the expected win equals one standard deviation, V / W**2 (inf when W <= 0)."""
        return self.variance / self.win**2 if self.win > 0 else math.inf

    def ruin(self, bankroll: float) -> float:
        """The risk of ruin of ``bankroll`` units betting the play's unit stakes forever: exp(-2 W B / V) (the
        normal, or diffusion, approximation); 1 when the play loses."""
        return math.exp(-2 * self.win * bankroll / self.variance) if self.win > 0 and self.variance else 1.0


def metrics(play: Play, coups: int) -> Metrics:
    """W and V of a play over ``coups`` coups dealt, from its units won and their squares."""
    win = float(play.won.sum()) / coups
    return Metrics(coups, win, max(float(play.squares.sum()) / coups - win * win, 0.0))


def win_half(play: Play, st: Study) -> float:
    """The 95% half-width of W (units per coup) across shoes: the interval of the win per shoe, spread over the
    coups of an average shoe."""
    if st.shoes < 2:
        return 0.0
    return float(Z95 * play.won.std(ddof=1) / math.sqrt(st.shoes) * st.shoes / st.coups)


def metrics_section(st: Study, bankroll: int) -> Section:
    """DI, SCORE, N0 and the risk of ruin of each play, with the definitions stated."""
    rows: list[tuple[Cell, ...]] = []
    for p in st.plays:
        m = metrics(p, st.coups)
        rows.append((p.name, int(p.bets.sum()), rounded(100 * m.win), rounded(10 * m.sd), rounded(m.di),
                     rounded(1000 * win_half(p, st) / m.sd if m.variance else 0.0), rounded(m.score),
                     round(m.n0) if math.isfinite(m.n0) else None, rounded(m.ruin(bankroll))))
    return Section(
        f"counting_metrics_{st.wager}", f"Counting metrics: {st.wager}",
        (Column("play", "Bets when"), Column("bets", "Bets", "int"),
         Column("win_100", "W per 100 coups", "decimal", 4), Column("sd_100", "SD per 100 coups", "decimal", 3),
         Column("di", "DI", "decimal", 2), Column("di_ci", "+/- (95%)", "decimal", 2),
         Column("score", "SCORE", "decimal", 3), Column("n0", "N0 (coups)", "int"),
         Column("ruin", f"Risk of ruin, {bankroll:,} units", "percent", 3)),
        tuple(rows),
        intro=("W is the units won per coup dealt and V their variance (E[X^2] - W^2), over every coup of the "
               f"study ({st.coups:,}), the ones the play sits out counting 0: a counter watches every coup and bets "
               "some (one unit each).",
               "DI (desirability index, Schlesinger's Blackjack Attack) = 1000 W / sqrt(V). SCORE = 10^6 W^2 / V = "
               "DI^2: the win per 100 coups when the stakes are scaled to a 10,000-unit bankroll at a risk of ruin "
               "of e^-2 (13.5%), each bet 10,000 W / V units (the play's own ramp scaled, Reid's c-SCORE; "
               "Schlesinger's SCORE also optimises the ramp). N0 = V / W^2: the coups after which the expected win "
               "is one standard deviation. Risk of ruin = exp(-2 W B / V) for a bankroll of B units betting one "
               "unit as the play says, forever (normal approximation).",),
        notes=("Estimates from the study's sample. The SD is steady from a few shoes on; W is not, and DI moves with "
               "it: its 95% interval is W's across shoes (as the win per 100 coups above) over the SD. SCORE (W "
               "squared) and N0 (over W squared) follow W the same way. N0 is blank and the risk of ruin 100% where "
               "the play loses.",))


def run_counted(rules: PuntoBancoRules, fx: Effects, wager: str, shoes: int, procedure: Procedure, seed: int,
                trigger: float | None = None, runner: Runner | None = None, count: CountSystem | None = None) -> Study:
    """:func:`run` with the per-coup EV of ``rules`` (the ``counting`` command's study; the declaration names it)."""
    from oddscalc.protection.counting import coup_ev

    return run(rules, coup_ev(rules), fx, wager, shoes, procedure, seed, trigger, runner, count=count,
               cards=first_four_bets(rules).get(wager))
