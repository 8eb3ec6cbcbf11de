"""Collusion at Let It Ride: a player who sees a partner's three cards, exact over every deal.

Counting argument. A deal is the player's three cards t, the partner's three P (from the others),
and the two community cards in order: C(n,3) x C(n-3,3) x (n-6) x (n-7) deals. The player plays
optimally knowing P; the partner's own bets are not counted. With v(h) the net units of one bet on
the final hand h, the three bets pay v(final) x (1 + ride1 + ride2), so the EV splits in three:

- every deal's v(final): each five-card hand is the final hand of C(5,3) x 2 x C(n-5,3) deals;
- bet 1 rides on (t, P) exactly when S1 = sum of v(t + {x, y}) over the pairs avoiding P is
  positive, and then earns 2 S1 (the pair comes in either order). By inclusion and exclusion over
  P, S1 = S3(t) - sum_p S4(t + p) + sum_{p<q} v(t + {p, q}), from the pay-free counts (S3 and S4 are
  the full-deck sums of a three- and a four-card holding);
- bet 2 rides on a four-card q and P when S2 = S4(q) - sum_p v(q + p) is positive, and earns S2; a
  four-card set arises from 4 (t, first card) splits.

Every sum is taken once per suit class of t or q (with its size) over all partner sets P of the
cards left, in int64 (checked to fit): exact, and about 10^9 small operations in numpy on 52 cards.
Cards dealt to a partner and never seen change nothing: the same sums with P unknown average back
to the ordinary game, which the tests check on a reduced deck.
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
from oddscalc.games.let_it_ride.count import PAYING, HoldingCounts, count_holdings, pay_classes
from oddscalc.games.let_it_ride.game import LetItRideRules
from oddscalc.games.let_it_ride.settle import solve
from oddscalc.games.let_it_ride.wagers import main_wager
from oddscalc.hands import colex_indices
from oddscalc.protection.collusion import paired
from oddscalc.protection.collusion.paired import Sample
from oddscalc.protocol import OptionError
from oddscalc.results import Cell, Column, Section
from oddscalc.symmetry import suit_class_index

if TYPE_CHECKING:
    from oddscalc.analysis import Session
    from oddscalc.progress import Progress


@cache
def _triples(n: int) -> np.ndarray:
    return np.array(list(combinations(range(n), 3)), dtype=np.int64).reshape(-1, 3)


@dataclass(frozen=True)
class Partnered:
    """The game with one partner's three cards seen, against the ordinary game."""

    deals: int
    ev: Fraction  # per base bet, the player's three bets
    ev_unseen: Fraction  # the ordinary game's (the partner's cards dealt, not seen)
    bet1_rides: int  # (t, P) situations where bet 1 rides, of C(n,3) C(n-3,3)
    bet1_situations: int
    bet2_rides: int  # (q, P) situations where bet 2 rides, of C(n,4) C(n-4,3)
    bet2_situations: int


def _positions(deck: Deck) -> np.ndarray:
    position = np.full(52, -1, dtype=np.int64)
    position[list(deck.cards)] = np.arange(deck.size)
    return position


@dataclass(frozen=True)
class Chunk:
    """A piece of the partner analysis: bet 1 over three-card classes [start, stop), or bet 2 over
    four-card classes. Its result is exact integers, so pieces add up the same in any grouping."""

    deck: Deck
    min_rank: int
    pays: tuple[Fraction, ...]
    bet: int  # 1 or 2
    start: int
    stop: int


@dataclass(frozen=True)
class _Prepared:
    counts: HoldingCounts
    den: int
    v5: np.ndarray
    s3: np.ndarray
    s4: np.ndarray
    class4: np.ndarray
    pos: np.ndarray


@cache
def _prepared(deck: Deck, min_rank: int, pays: tuple[Fraction, ...]) -> _Prepared:
    """The pay-free counts and the sums of a deck, once per process (a worker keeps them for its chunks)."""
    counts = count_holdings(deck, min_rank)
    sol = solve(counts, list(pays))
    den = sol.denominator
    values = np.array([int(p * den) for p in pays] + [-den], dtype=np.int64)
    v5 = values[pay_classes(deck, min_rank)]  # every five-card hand (colex), net units x den
    if int(np.abs(v5).max()) * math.comb(deck.size, 2) * 8 >= 2**62:
        raise OptionError("pays too large for the exact int64 sums of the partner analysis")
    return _Prepared(counts, den, v5, np.asarray(sol.s3, dtype=np.int64), np.asarray(sol.s4, dtype=np.int64),
                     suit_class_index(4, deck), _positions(deck))


def run_chunk(chunk: Chunk) -> tuple[int, int]:
    """(sum of the riding bets' net units x den, situations where the bet rides) over the chunk's classes."""
    p = _prepared(chunk.deck, chunk.min_rank, chunk.pays)
    everyone = np.arange(chunk.deck.size)
    total = rides = 0
    if chunk.bet == 1:
        for i in range(chunk.start, chunk.stop):
            own = np.sort(p.pos[p.counts.reps3[i].astype(np.int64)])
            rest = np.setdiff1d(everyone, own)
            b = p.s4[p.class4[colex_indices(np.sort(np.concatenate([np.broadcast_to(own, (len(rest), 3)),
                                                                      rest[:, None]], axis=1), axis=1))]]
            pairs = _pairs(len(rest))
            five = np.sort(np.concatenate([np.broadcast_to(own, (len(pairs), 3)), rest[pairs]], axis=1), axis=1)
            vv = np.zeros((len(rest), len(rest)), dtype=np.int64)
            vv[pairs[:, 0], pairs[:, 1]] = p.v5[colex_indices(five)]
            vv += vv.T
            tr = _triples(len(rest))
            x, y, z = tr[:, 0], tr[:, 1], tr[:, 2]
            s1 = p.s3[i] - b[x] - b[y] - b[z] + vv[x, y] + vv[x, z] + vv[y, z]
            w = int(p.counts.weights3[i])
            total += 2 * w * int(np.maximum(s1, 0).sum())  # the pair comes in either order
            rides += w * int((s1 > 0).sum())
        return total, rides
    for j in range(chunk.start, chunk.stop):
        own = np.sort(p.pos[p.counts.reps4[j].astype(np.int64)])
        rest = np.setdiff1d(everyone, own)
        a = p.v5[colex_indices(np.sort(np.concatenate([np.broadcast_to(own, (len(rest), 4)), rest[:, None]], axis=1),
                                       axis=1))]
        tr = _triples(len(rest))
        s2 = p.s4[j] - a[tr[:, 0]] - a[tr[:, 1]] - a[tr[:, 2]]
        w = int(p.counts.weights4[j])
        total += 4 * w * int(np.maximum(s2, 0).sum())  # four (three cards, first community card) splits
        rides += w * int((s2 > 0).sum())
    return total, rides


@cache
def _pairs(n: int) -> np.ndarray:
    return np.array(list(combinations(range(n), 2)), dtype=np.int64).reshape(-1, 2)


Runner = Callable[[Callable[[Chunk], tuple[int, int]], Sequence[Chunk]], list[tuple[int, int]]]


def _in_process(fn: Callable[[Chunk], tuple[int, int]], chunks: Sequence[Chunk]) -> list[tuple[int, int]]:
    return [fn(c) for c in chunks]


def chunks(deck: Deck, min_rank: int, pays: Sequence[Fraction], size: int) -> list[Chunk]:
    """The analysis cut into pieces of at most ``size`` classes."""
    counts = _prepared(deck, min_rank, tuple(pays)).counts
    out = []
    for bet, m in ((1, len(counts.reps3)), (2, len(counts.reps4))):
        out += [Chunk(deck, min_rank, tuple(pays), bet, a, min(a + size, m)) for a in range(0, m, size)]
    return out


def partner_seen(counts: HoldingCounts, pays: list[Fraction], min_rank: int, run: Runner | None = None,
                 chunk_size: int = 2048) -> Partnered:
    """Exact EV of Let It Ride when the player sees one partner's three cards, for the count's deck.

    ``run`` maps ``run_chunk`` over the pieces (default: here, one after the other); a cluster's map gives
    the same integers in any order and with any ``chunk_size``."""
    deck = counts.deck
    n = deck.size
    p = _prepared(deck, min_rank, tuple(pays))
    pieces = chunks(deck, min_rank, pays, chunk_size)
    results = (run or _in_process)(run_chunk, pieces)
    term2 = sum(r[0] for c, r in zip(pieces, results) if c.bet == 1)
    rides1 = sum(r[1] for c, r in zip(pieces, results) if c.bet == 1)
    term3 = sum(r[0] for c, r in zip(pieces, results) if c.bet == 2)
    rides2 = sum(r[1] for c, r in zip(pieces, results) if c.bet == 2)
    term1 = int(p.v5.sum()) * math.comb(5, 3) * 2 * math.comb(n - 5, 3)  # every deal's final hand
    deals = math.comb(n, 3) * math.comb(n - 3, 3) * (n - 6) * (n - 7)
    ev = Fraction(term1 + term2 + term3, p.den * deals)
    unseen = main_wager(counts, solve(counts, pays), pays, min_rank, False).expected_value
    return Partnered(deals, ev, unseen, rides1, math.comb(n, 3) * math.comb(n - 3, 3), rides2,
                     math.comb(n, 4) * math.comb(n - 4, 3))


def sample_partners(deck: Deck, min_rank: int, pays: list[Fraction], partners: int, situations: int,
                    seed: int) -> Sample:
    """Let It Ride with ``partners`` partners' three cards seen: situations (the player's three cards and the
    partners') drawn uniformly, each settled exactly over every ordered pair of community cards left; beside
    it the ordinary player's result on the same cards (deciding on his own cards and the community card)."""
    p = _prepared(deck, min_rank, tuple(pays))
    class3, pos = suit_class_index(3, deck), p.pos
    cards = np.array(deck.cards, dtype=np.int64)
    if len(cards) < 3 * (partners + 1) + 2:
        raise OptionError("the deck is too small for that many partners")
    rng = np.random.default_rng(seed)
    seen, ordinary = np.empty(situations), np.empty(situations)
    for i in range(situations):
        order = rng.permutation(cards)
        own = np.sort(pos[order[:3]])
        pool = np.sort(pos[order[3 * (partners + 1):]])
        k = len(pool)
        x, y = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
        valid = x != y  # (first community card, second): ordered, distinct
        five = np.sort(np.concatenate([np.broadcast_to(own, (k, k, 3)), pool[x][..., None], pool[y][..., None]],
                                      axis=2), axis=2)
        v = np.where(valid, p.v5[np.where(valid, colex_indices(five), 0)], 0)  # (k, k) net units x den
        ride2_seen = v.sum(axis=1) > 0  # after the first card c1: the second from the pool less c1
        ride1_seen = v.sum() > 0
        # the ordinary player decides on the full-deck sums of his holding (the partners' cards unseen)
        ride1_plain = p.s3[class3[colex_indices(own[None, :])[0]]] > 0
        four = np.sort(np.concatenate([np.broadcast_to(own, (k, 3)), pool[:, None]], axis=1), axis=1)
        ride2_plain = p.s4[p.class4[colex_indices(four)]] > 0
        pairs = k * (k - 1) * p.den
        seen[i] = float((v.sum() * (1 + int(ride1_seen)) + (v.sum(axis=1) * ride2_seen).sum()) / pairs)
        ordinary[i] = float((v.sum() * (1 + int(ride1_plain)) + (v.sum(axis=1) * ride2_plain).sum()) / pairs)
    return Sample(partners, seen, ordinary, seed)


def sampled_section(s: Sample, exact_ordinary: Fraction) -> Section:
    """The sampled estimates with 95% intervals, beside the ordinary game's exact EV."""
    return paired.section(
        "partners_seen_sampled", f"Let It Ride with {s.partners} partners' cards seen (sampled situations, each "
        "exact)", s, exact_ordinary, "Each situation (the player's three cards and the partners') is drawn "
        "uniformly and settled exactly over every ordered pair of community cards left; the ordinary player's "
        "figure plays the same cards deciding on his own cards alone.")


def community_card_early(counts: HoldingCounts, pays: list[Fraction], min_rank: int) -> Fraction:
    """Exact EV per base bet when the first community card is seen before bet 1 is decided: both pull-backs
    are then decided on the same four cards, so each bet rides exactly when S4 > 0."""
    p = _prepared(counts.deck, min_rank, tuple(pays))
    every = int(p.v5.sum()) * math.comb(5, 3) * 2  # each final hand: 10 splits, 2 orders of the community cards
    # bets 1 and 2 both ride on (t, first card) when the four cards' sum is positive: 2 x S4 each time,
    # and a four-card set is reached from 4 (t, first card) splits
    riding = 2 * 4 * int((counts.weights4.astype(np.int64) * np.maximum(p.s4, 0)).sum())
    return Fraction(every + riding, p.den * counts.total)


def section(p: Partnered, early: Fraction | None = None) -> Section:
    """The partner's cards seen, against the ordinary game."""
    rows: tuple[tuple[Cell, ...], ...] = (
        ("ordinary game (the partner's cards unseen)", p.ev_unseen, -p.ev_unseen, None, None),
        ("one partner's three cards seen", p.ev, -p.ev, Fraction(p.bet1_rides, p.bet1_situations),
         Fraction(p.bet2_rides, p.bet2_situations)),
        ("what seeing them is worth", p.ev - p.ev_unseen, None, None, None),
        *((("the first community card seen before bet 1 (no partner)", early, -early, None, None),
           ("what seeing it early is worth", early - p.ev_unseen, None, None, None)) if early is not None else ()),
    )
    return Section(
        "partner_seen", "Let It Ride with one partner's cards seen",
        (Column("play", "Play"), Column("ev", "EV per base bet", "signed_percent", 4),
         Column("house_edge", "House edge", "signed_percent", 4),
         Column("bet1_ride", "Bet 1 rides", "percent", 3), Column("bet2_ride", "Bet 2 rides", "percent", 3)),
        rows,
        intro=(f"Exact over all {p.deals:,} deals: the player's three cards, the partner's three, and the two "
               "community cards in order. The player lets each bet ride exactly when its EV given every card seen "
               "(its own and the partner's) is positive.",),
        notes=("Cards dealt to another seat and never seen change no expected value: the ordinary game's row is the "
               "same whether or not a partner was dealt (the tests check it on a reduced deck).",))


def collusion_sections(session: Session, table_ref: str | None, partners: int, situations: int | None, seed: int,
                       exact_count: bool, scheduler: str | None, workers: int | None,
                       progress: Progress) -> list[Section]:
    """The ``collusion`` command for Let It Ride (its declaration names this): one partner's cards seen, exact
    over every deal (on a cluster with ``scheduler``), with the community card seen early beside; 2 to 6 partners
    sampled (``situations``, default 5000), each situation settled exactly. Every count is exact here:
    ``exact_count`` asks nothing more."""
    from oddscalc import cluster

    rules = session.resolve(table_ref)
    assert isinstance(rules, LetItRideRules)
    counts = session.counts(rules)
    pays = [getattr(rules.model.pays.main, c.value) for c in PAYING]
    if partners > 1:  # beyond one partner: sampled situations, each settled exactly
        sampled = sample_partners(rules.deck, rules.min_rank, pays, partners, situations or 5000, seed)
        ordinary = session.analyze(table_ref).wager("main").expected_value
        return [sampled_section(sampled, ordinary)]
    where = cluster.address(scheduler)
    if where is None:
        result = partner_seen(counts, pays, rules.min_rank)
    else:
        with cluster.client(where, workers) as c:
            result = partner_seen(counts, pays, rules.min_rank, cluster.mapper(c, progress.step), chunk_size=256)
    progress.finish()
    early = community_card_early(counts, pays, rules.min_rank)
    return [section(result, early)]
