"""Collusion at Caribbean Stud: a player who sees the five cards of each of n partners, estimated from
an unbiased sample of situations, each settled exactly.

A situation is the player's five cards, the partners' five each and the dealer's up card, drawn
uniformly. In it the player's EV is exact: the dealer's four hole cards range over every set of the
cards left, C(47 - 5n, 4) of them, each dealer hand's strength read from the hand table; the player
raises exactly when raising beats folding on those completions. Beside it, in the same situation and
on the same completions, the ordinary player's result: he decides on his own cards and the up card
alone (every C(46, 4) hole set), then plays out the completions the partners' cards leave. Dealing
partners' cards unseen changes nothing, so that second figure is an unbiased estimate of the
ordinary game's exact EV, and the paired difference measures what seeing the partners is worth,
with far less noise than either figure alone. Intervals are 95% (normal approximation).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.cards import Deck
from oddscalc.games.caribbean.count import pay_classes, qualifier_strength
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.games.caribbean.settle import pay_list
from oddscalc.games.caribbean.table import RaisePays
from oddscalc.hands import BINOM, hand_table
from oddscalc.protection.collusion import paired
from oddscalc.protection.collusion.paired import Sample
from oddscalc.protocol import OptionError
from oddscalc.results import Column, Section
from oddscalc.symmetry import suit_classes

if TYPE_CHECKING:
    from oddscalc.analysis import Session
    from oddscalc.progress import Progress


@cache
def _holes(k: int) -> np.ndarray:
    return np.array(list(combinations(range(k), 4)), dtype=np.int64).reshape(-1, 4)


class _Table:
    def __init__(self, deck: Deck, qualifier: str, pays: RaisePays):
        ht = hand_table(deck)
        self.strength = np.asarray(ht.strength, dtype=np.int64)
        self.cls = np.asarray(ht.hand_class, dtype=np.int64)
        self.position = np.asarray(ht.position, dtype=np.int64)
        self.q = qualifier_strength(deck, qualifier)
        self.pays = pay_list(pays)

    def strengths(self, cards: np.ndarray) -> np.ndarray:
        """(rows,) strengths of rows of five card ids."""
        pos = np.sort(self.position[cards], axis=1)
        out: np.ndarray = self.strength[(BINOM[pos, np.arange(1, 6)]).sum(axis=1)]
        return out

    def outcome(self, player: np.ndarray, up: int, pool: np.ndarray) -> tuple[Fraction, Fraction]:
        """(raise EV, fold EV) in antes over every four hole cards from ``pool``, exactly."""
        holes = pool[_holes(len(pool))]
        dealer = np.concatenate([np.full((len(holes), 1), up), holes], axis=1)
        d = self.strengths(dealer)
        s = int(self.strengths(player[None, :])[0])
        qualified = d >= self.q
        nq = int((~qualified).sum())
        win = int((qualified & (d < s)).sum())
        lose = int((qualified & (d > s)).sum())
        n = len(d)
        pay = self._pay(player)
        raised = Fraction(nq) + win * (1 + 2 * pay) - 3 * lose
        return raised / n, Fraction(-1)

    def _pay(self, player: np.ndarray) -> Fraction:
        """The raise pay of the player's hand class (a high card wins only as ace-king: high_card)."""
        pos = np.sort(self.position[player])
        return self.pays[min(int(self.cls[int((BINOM[pos, np.arange(1, 6)]).sum())]), 9)]


def sample(deck: Deck, qualifier: str, pays: RaisePays, partners: int, situations: int, seed: int,
           progress: Callable[[int, int], None] | None = None) -> Sample:
    """Draw ``situations`` situations with ``partners`` partners and settle each exactly both ways."""
    if not 1 <= partners <= 6:
        raise OptionError("partners: 1 to 6 (a table seats 7)")
    t = _Table(deck, qualifier, pays)
    cards = np.array(deck.cards, dtype=np.int64)
    if len(cards) < 5 * (partners + 2) + 1:
        raise OptionError("the deck is too small for that many hands")
    rng = np.random.default_rng(seed)
    seen = np.empty(situations)
    ordinary = np.empty(situations)
    for i in range(situations):
        order = rng.permutation(cards)
        player, up = order[:5], int(order[5])
        shown = order[6:6 + 5 * partners]
        pool = order[6 + 5 * partners:]  # the cards the dealer's holes come from, seeing the partners
        raise_seen, fold = t.outcome(player, up, pool)
        seen[i] = float(max(raise_seen, fold))
        raise_alone, _ = t.outcome(player, up, np.concatenate([shown, pool]))  # what he knows alone
        ordinary[i] = float(raise_seen if raise_alone > fold else fold)  # played out on the same cards
        if progress is not None and i % 16 == 0:
            progress(i + 1, situations)
    return Sample(partners, seen, ordinary, seed)


def section(sample_: Sample, exact_ordinary: Fraction) -> Section:
    """The estimates with their intervals, beside the ordinary game's exact EV."""
    return paired.section(
        "partners_seen", "Caribbean Stud with partners' cards seen (sampled situations, each exact)", sample_,
        exact_ordinary, "Each situation (the player's cards, the partners', the up card) is drawn uniformly and "
        "settled exactly over every set of the dealer's hole cards left; the ordinary player's figure plays the "
        "same cards deciding on his own hand and the up card alone.")


# --- every situation, exactly (reduced decks here; a cluster for more) ---------------------------------


@dataclass(frozen=True)
class Exact:
    """Every situation counted: deals by the player's pay class and [fold, not qualified, win, push, lose],
    seeing the partners (``seen``) and not (``ordinary``), both played out on the same cards."""

    partners: int
    seen: tuple[tuple[int, ...], ...]
    ordinary: tuple[tuple[int, ...], ...]
    pays: tuple[Fraction, ...]

    def ev(self, tally: tuple[tuple[int, ...], ...]) -> Fraction:
        """EV per ante of one tally."""
        units = sum((-r[0] + r[1] + r[2] * (1 + 2 * self.pays[c]) - 3 * r[4] for c, r in enumerate(tally)),
                    Fraction(0))
        return units / sum(map(sum, tally))


@dataclass(frozen=True)
class Rep:
    """One chunk of the exact count: a player hand (one per suit class) and its class size."""

    deck: Deck
    qualifier: str
    pays: RaisePays
    partners: int
    player: tuple[int, ...]
    weight: int


def situations(n: int, partners: int) -> int:
    """Deals the exact count visits: player, the partners' cards (as one set), up card, hole cards."""
    left = n - 5 - 5 * partners
    return math.comb(n, 5) * math.comb(n - 5, 5 * partners) * left * math.comb(left - 1, 4)


def settle_rep(job: Rep) -> np.ndarray:
    """(2, classes, 5) object: the rep's deals seeing the partners and not, weighted by its class size.

    Every dealer hand of the cards left is classed against the player once; a hand counts for each of
    its five cards as the up card. The ordinary player decides on the up card over every hand of the
    47 (n - 5) cards; the one who sees the partners over the hands their cards leave."""
    t = _Table(job.deck, job.qualifier, job.pays)
    player = np.array(job.player, dtype=np.int64)
    rest = np.array([c for c in job.deck.cards if c not in job.player], dtype=np.int64)
    hands = np.array(list(combinations(range(len(rest)), 5)), dtype=np.int64)
    d = t.strengths(rest[hands])
    s = int(t.strengths(player[None, :])[0])
    klass = np.where(d < t.q, 1, np.where(d < s, 2, np.where(d == s, 3, 4)))  # a qualifying hand beats any below it
    pay = t._pay(player)
    den = pay.denominator
    win_units = int((1 + 2 * pay) * den)
    if (win_units + 4 * den) * math.comb(len(rest), 4) >= 2**62:
        raise OptionError("these pays are too large for the exact int64 decisions of the partners count")
    c = int(pay_classes(job.deck, player[None, :])[0])
    member = np.zeros((len(hands), len(rest)), dtype=np.int64)
    np.put_along_axis(member, hands, 1, axis=1)
    onehot = np.zeros((len(hands), 5), dtype=np.int64)
    onehot[np.arange(len(hands)), klass] = 1
    by_up = (member[:, :, None] * onehot[:, None, :]).reshape(len(hands), -1)  # (hands, up card x class)

    def raises(counts: np.ndarray) -> np.ndarray:
        """Raising beats folding on counts [..., (-, nq, win, push, lose)] (ties fold)."""
        n = counts[..., 1:].sum(axis=-1)
        gain = counts[..., 1] * den + counts[..., 2] * win_units - 3 * counts[..., 4] * den
        out: np.ndarray = gain > -n * den
        return out

    alone = raises((member.T @ onehot)[None])  # (1, up cards): what the ordinary player does
    shown = np.array(list(combinations(range(len(rest)), 5 * job.partners)), dtype=np.int64)
    dead = np.zeros((len(shown), len(rest)), dtype=np.int64)
    np.put_along_axis(dead, shown, 1, axis=1)
    keep = (dead @ member.T) == 0  # (shown sets, hands): dealer hands the partners' cards leave
    counts = (keep.astype(np.int64) @ by_up).reshape(len(shown), len(rest), 5)  # the completions per up card
    live = dead == 0
    out = np.zeros((2, 11, 5), dtype=object)
    for row, decide in ((0, raises(counts)), (1, np.broadcast_to(alone, live.shape))):
        out[row, c, 1:] = counts[live & decide][:, 1:].sum(axis=0).astype(object)
        out[row, c, 0] = int(counts[live & ~decide][:, 1:].sum())
    return out * job.weight


def exact(deck: Deck, qualifier: str, pays: RaisePays, partners: int,
          runner: Callable[[Callable[[Rep], np.ndarray], Sequence[Rep]], list[np.ndarray]] | None = None) -> Exact:
    """Every situation with ``partners`` partners seen, one chunk per suit class of player hands (``runner``
    maps ``settle_rep`` over them: here in order by default, or on a cluster)."""
    if not 1 <= partners <= 6:
        raise OptionError("partners: 1 to 6 (a table seats 7)")
    if deck.size < 5 * (partners + 1) + 5:
        raise OptionError("the deck is too small for that many hands and the dealer's")
    reps, weights = suit_classes(5, deck)
    jobs = [Rep(deck, qualifier, pays, partners, tuple(int(x) for x in r), int(w)) for r, w in zip(reps, weights)]
    parts = (runner or (lambda fn, js: [fn(j) for j in js]))(settle_rep, jobs)
    total = sum(parts, np.zeros((2, 11, 5), dtype=object))
    rows = [tuple(tuple(int(x) for x in total[k, c]) for c in range(11)) for k in (0, 1)]
    return Exact(partners, rows[0], rows[1], tuple(pay_list(pays)))


RATE = 3 * 10**7  # situations a core settles per second (measured on a 16- and an 18-card deck)
CHUNK_CELLS = 2 * 10**8  # partners' sets x dealer hands one chunk may hold


def plan(deck: Deck, partners: int) -> tuple[int, float, int]:
    """(situations, estimated core-seconds, cells one chunk holds) of the exact count."""
    n = deck.size
    if n < 5 * (partners + 1) + 5:
        raise OptionError(f"{deck.describe()} is too small for the player's, {partners} partners' and the dealer's "
                          "hands")
    rest = n - 5
    return situations(n, partners), situations(n, partners) / RATE, math.comb(rest, 5 * partners) * math.comb(rest, 5)


def exact_section(ex: Exact, exact_ordinary: Fraction) -> Section:
    """Every situation counted: EV seeing the partners, not seeing them (the game's exact EV), the difference."""
    seen, ordinary = ex.ev(ex.seen), ex.ev(ex.ordinary)
    if ordinary != exact_ordinary:
        raise AssertionError("the exact partners count does not give the game's EV for a player who ignores them")
    deals = sum(map(sum, ex.seen))
    return Section(
        "partners_seen_exact", "Caribbean Stud with partners' cards seen (every situation, exact)",
        (Column("partners", "Partners seen", "int"), Column("deals", "Deals", "int"),
         Column("ev_seen", "EV seeing them", "signed_percent", 4), Column("ev_seen_exact", "exact", "fraction"),
         Column("ev_ordinary", "EV not seeing them", "signed_percent", 4),
         Column("gain", "What seeing them is worth", "signed_percent", 4), Column("gain_exact", "exact", "fraction")),
        ((ex.partners, deals, seen, seen, ordinary, seen - ordinary, seen - ordinary),),
        intro=("Every situation: the player's hand, the partners' cards (one set), the up card and the dealer's "
               "hole cards, each a set. The player who sees the partners decides on the completions their cards "
               "leave; the ordinary player on his hand and the up card alone, played out on the same cards. His EV "
               "equals the game's exact EV to the unit (checked on every run): unseen cards change nothing.",))


def collusion_sections(session: Session, table_ref: str | None, partners: int, situations: int | None, seed: int,
                       exact_count: bool, scheduler: str | None, workers: int | None,
                       progress: Progress) -> list[Section]:
    """The ``collusion`` command for Caribbean Stud (its declaration names this): ``partners``' cards seen,
    sampled (``situations``, default 200) or with ``exact_count`` every situation counted (reduced decks, or on
    a cluster), against the table's exact EV."""
    import contextlib

    from oddscalc import cluster

    rules = session.resolve(table_ref)
    assert isinstance(rules, CaribbeanRules)
    pays = rules.model.pays.main
    ordinary = session.analyze(table_ref).wager("main").expected_value
    if not exact_count:
        got = sample(rules.deck, rules.qualifier, pays, partners, situations or 200, seed, progress.step)
        progress.finish()
        return [section(got, ordinary)]
    deals, core_seconds, cells = plan(rules.deck, partners)
    where = cluster.address(scheduler)
    if cells > CHUNK_CELLS:
        raise OptionError(f"--exact on {rules.deck.describe()}: one chunk would hold {cells:,} cells (at most "
                          f"{CHUNK_CELLS:,}); the count is for reduced decks (sample instead)")
    if where is None and core_seconds > 600:
        raise OptionError(f"--exact: {deals:,} situations, about {core_seconds / 3600:,.1f} core-hours; run "
                          "it on a cluster (--scheduler) or sample")
    with contextlib.ExitStack() as stack:
        runner = None if where is None else cluster.mapper(stack.enter_context(cluster.client(where, workers)),
                                                           progress.step)
        counted = exact(rules.deck, rules.qualifier, pays, partners, runner)
    progress.finish()
    return [exact_section(counted, ordinary)]
