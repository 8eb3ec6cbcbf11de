"""Let It Ride: three equal bets, the first two may be pulled back.

Counting argument. A deal is the player's three cards (a set) and the two community cards
in the order they are shown: C(52,3) * 49 * 48 = 51,979,200 equally likely deals. Each
five-card hand h arises from exactly 20 deals (10 ways to split off the player's three
cards times 2 orders of the community cards), so the whole space is walked by visiting
every hand once and its 20 splits.

Decisions. Each bet is paid on the same final hand, so the three bets are independent: bet 1
rides exactly when E[pay | three cards] > 0 and bet 2 exactly when E[pay | four cards] > 0,
whatever was done with the other. With v(h) the net units of one bet on final hand h,
E[pay | 4 cards q] is proportional to S4(q) = sum of v over the 48 hands containing q, and
E[pay | 3 cards t] to S3(t) = sum of v over the C(49,2) hands containing t. Both sums are
exact integers (pays scaled to a common denominator). An EV of exactly zero pulls the bet
back (the cheaper of two equal choices) unless the table sets ``ride_on_zero``.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

import numba
import numpy as np
from pydantic import field_validator

from ..cards import FULL_DECK, RANK_CHARS, Deck, cards_str, parse_rank, rank_name, rank_of, suit_of
from ..exact import Row, WagerResult, decimal_str, percent_str
from ..hands import HAND_CLASSES, HandClass, hand_table
from ..symmetry import suit_classes
from ..tables import HandPays, Ratio, Strict, Table, TableModel, ratio_text
from . import Analysis, Decisions, RunOptions, Section

# --- table file -------------------------------------------------------------------------


class Rules(Strict):
    min_pair: str = "tens"
    ride_on_zero: bool = False

    @field_validator("min_pair")
    @classmethod
    def _rank(cls, v: str) -> str:
        parse_rank(v)
        return v


class BonusPays(Strict):
    mini_royal: Ratio
    straight_flush: Ratio
    three_of_a_kind: Ratio
    straight: Ratio
    flush: Ratio
    pair: Ratio


class Pays(Strict):
    main: HandPays  # the pair pays only from the table's min_pair up
    three_card_bonus: BonusPays | None = None


class LetItRideTable(TableModel):
    GAME: ClassVar[str] = "let-it-ride"
    rules: Rules = Rules()
    pays: Pays


# --- the enumeration --------------------------------------------------------------------

PAYING = HAND_CLASSES[:9]  # royal flush .. pair (high card never pays)
LOSS = 9  # pay-class code of a losing hand


def _binom_table(n: int, k: int) -> np.ndarray:
    return np.array([[math.comb(i, j) for j in range(k + 1)] for i in range(n + 1)], dtype=np.int64)


@dataclass(frozen=True)
class Layout:
    """Pay-free facts about every hand of a deck: its deck positions and pay class."""

    deck: Deck
    pos: np.ndarray  # (N, 5) int8 ascending deck positions; row = colex rank
    pay_class: np.ndarray  # (N,) int8: 0..8 = PAYING index, 9 = loses
    n3: int
    n4: int


PAIRS = tuple(itertools.combinations(range(5), 2))  # the two community positions of a split


@functools.lru_cache(maxsize=4)
def layout(deck: Deck, min_rank: int) -> Layout:
    ht = hand_table(deck)
    if deck.is_full:
        pos = ht.combos  # card id == deck position
    else:
        pos_of = np.full(52, -1, dtype=np.int8)
        pos_of[np.array(deck.cards)] = np.arange(deck.size, dtype=np.int8)
        pos = pos_of[ht.combos]
    threshold = ht.strength_at_least(HandClass.PAIR, (min_rank,))
    pay_class = _pay_classes(ht.hand_class, ht.strength, threshold)
    return Layout(deck, np.ascontiguousarray(pos), pay_class, math.comb(deck.size, 3), math.comb(deck.size, 4))


@numba.njit(cache=True)
def _pay_classes(hand_class: np.ndarray, strength: np.ndarray, threshold: int) -> np.ndarray:
    out = np.empty(hand_class.shape[0], dtype=np.int8)
    for h in range(hand_class.shape[0]):
        c = hand_class[h]
        out[h] = c if c < 8 or (c == 8 and strength[h] >= threshold) else LOSS
    return out


@numba.njit(cache=True)
def _leave_out(p: np.ndarray, a: int, b: int, binom: np.ndarray) -> int:
    """Colex index of the hand's positions without positions a and b (b = -1: only a)."""
    idx = 0
    k = 1
    for i in range(5):
        if i != a and i != b:
            idx += binom[p[i], k]
            k += 1
    return idx


N_CHUNKS = 8  # independent slices of the hands; each thread keeps its own partial sums


@numba.njit(cache=True, parallel=True)
def _subset_sums(pos: np.ndarray, v: np.ndarray, binom: np.ndarray, n3: int, n4: int) -> tuple[np.ndarray, np.ndarray]:
    part3 = np.zeros((N_CHUNKS, n3), dtype=np.int64)
    part4 = np.zeros((N_CHUNKS, n4), dtype=np.int64)
    n = pos.shape[0]
    for c in numba.prange(N_CHUNKS):
        for h in range(c * n // N_CHUNKS, (c + 1) * n // N_CHUNKS):
            p = pos[h]
            x = v[h]
            for a in range(5):
                part4[c, _leave_out(p, a, -1, binom)] += x
                for b in range(a + 1, 5):
                    part3[c, _leave_out(p, a, b, binom)] += x
    return part3.sum(axis=0), part4.sum(axis=0)


@numba.njit(cache=True, parallel=True)
def _tally(pos: np.ndarray, pay_class: np.ndarray, ride1: np.ndarray, ride2: np.ndarray,
           binom: np.ndarray) -> np.ndarray:
    parts = np.zeros((N_CHUNKS, 10, 4), dtype=np.int64)
    n = pos.shape[0]
    for c in numba.prange(N_CHUNKS):
        r2 = np.empty(5, dtype=np.int64)
        for h in range(c * n // N_CHUNKS, (c + 1) * n // N_CHUNKS):
            p = pos[h]
            for a in range(5):
                r2[a] = ride2[_leave_out(p, a, -1, binom)]
            k = pay_class[h]
            for a in range(5):
                for b in range(a + 1, 5):
                    r1 = ride1[_leave_out(p, a, b, binom)]
                    # the community card shown second is b (so bet 2 saw the four cards without b), or a
                    parts[c, k, 1 + r1 + r2[b]] += 1
                    parts[c, k, 1 + r1 + r2[a]] += 1
    return parts.sum(axis=0)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Solution:
    """The solved decisions and the tally of deals by (pay class, bets in play)."""

    ride1: np.ndarray  # (n3,) bool: bet 1 rides on this three-card set
    ride2: np.ndarray  # (n4,) bool
    s3: np.ndarray  # (n3,) S3 in units of 1/denominator
    s4: np.ndarray  # (n4,)
    denominator: int
    tally: dict[tuple[int, int], int]  # (pay class, bets) -> deals


def solve(lay: Layout, pays: Sequence[Fraction], ride_on_zero: bool = False) -> Solution:
    """Decide both pull-backs exactly and count every deal by final hand and bets in play."""
    den = math.lcm(*(p.denominator for p in pays))
    values = [int(p * den) for p in pays] + [-den]
    # int64 sums are exact while the largest possible |sum| fits; checked rather than assumed.
    if max(abs(x) for x in values) * math.comb(lay.deck.size, 5) >= 2**63:
        raise OverflowError("pays too large for exact int64 accumulation")
    v = np.array(values, dtype=np.int64)[lay.pay_class]
    binom = _binom_table(lay.deck.size, 5)
    s3, s4 = _subset_sums(lay.pos, v, binom, lay.n3, lay.n4)
    ride1 = s3 >= 0 if ride_on_zero else s3 > 0
    ride2 = s4 >= 0 if ride_on_zero else s4 > 0
    counts = _tally(lay.pos, lay.pay_class, ride1.astype(np.int64), ride2.astype(np.int64), binom)
    tally = {(k, b): int(counts[k, b]) for k in range(10) for b in (1, 2, 3)}
    return Solution(ride1, ride2, s3, s4, den, tally)


# --- three-card bonus ---------------------------------------------------------------------

BONUS_EVENTS = ("mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair")


def three_card_event(cards: Sequence[int], deck: Deck = FULL_DECK) -> str:
    """Three-card poker class: straight flush > trips > straight > flush > pair; mini royal = suited A-K-Q."""
    ranks = sorted(rank_of(c) for c in cards)
    flush = len({suit_of(c) for c in cards}) == 1
    distinct = len(set(ranks))
    if distinct == 1:
        return "three_of_a_kind"
    if distinct == 2:
        return "pair"
    straight = ranks[2] - ranks[0] == 2 or (ranks == [0, 1, 12] and {0, 1, 12} <= set(deck.ranks))
    if straight and flush:
        return "mini_royal" if ranks == [10, 11, 12] else "straight_flush"
    if straight:
        return "straight"
    return "flush" if flush else "loss"


@functools.lru_cache(maxsize=4)
def _bonus_counts(deck: Deck) -> Counter[str]:
    return Counter(three_card_event(t, deck) for t in itertools.combinations(deck.cards, 3))


def bonus_wager(deck: Deck, pays: BonusPays) -> WagerResult:
    counts = _bonus_counts(deck)
    rows = [
        Row(e, e.replace("_", " ").capitalize(), ratio_text(getattr(pays, e)), getattr(pays, e), counts[e],
            pay_ref=f"three_card_bonus.{e}", pay_coef=Fraction(1))
        for e in BONUS_EVENTS
    ]
    rows.append(Row("loss", "No pair or better", "", Fraction(-1), counts["loss"]))
    return WagerResult(
        wager="three_card_bonus", title="Three-card bonus", strategy="none (no decision)",
        total_combinations=math.comb(deck.size, 3), rows=tuple(rows), unit="unit staked",
        notes=("Counted over the C(52,3) = 22,100 three-card hands: the community cards do not matter.",),
    )


# --- strategy in words ------------------------------------------------------------------


def _sf_shape(ranks: list[int], deck_ranks: frozenset[int]) -> tuple[int, int] | None:
    """(spread, lowest) of the best straight window the ranks fit in, or None if none fits."""
    best: tuple[int, int] | None = None
    for low in range(-1, 9):  # low = -1 is the wheel window A-2-3-4-5
        window = {12 if r == -1 else r for r in range(low, low + 5)}
        if not window <= deck_ranks:  # a straight the deck cannot complete
            continue
        if set(ranks) <= window:
            lo = [(-1 if r == 12 and low == -1 else r) for r in ranks]
            spread = max(lo) - min(lo) + 1
            if best is None or spread < best[0]:
                best = (spread, low)
    return best


def describe(cards: Sequence[int], min_rank: int, deck: Deck = FULL_DECK) -> str:
    """Group a three- or four-card holding the way strategy cards are written."""
    ranks = sorted(rank_of(c) for c in cards)
    counts = sorted(Counter(ranks).values(), reverse=True)
    suited = len({suit_of(c) for c in cards}) == 1
    high = sum(r >= min_rank for r in ranks)
    hi_txt = f"{high} high card{'s' if high != 1 else ''}"
    n = len(cards)
    n_txt = {3: "three", 4: "four"}.get(n, str(n))
    dr = frozenset(deck.ranks)
    if counts[0] == 4:
        return "four of a kind"
    if counts[0] == 3:
        return "three of a kind"
    if counts[0] == 2:
        if counts[1] == 2:
            return "two pair"
        pr = max(r for r in ranks if ranks.count(r) == 2)
        return f"pair of {rank_name(pr, True)}" + (" (pays)" if pr >= min_rank else "")
    shape = _sf_shape(ranks, dr)
    if suited and shape is not None:
        if min(ranks) >= 8 and max(ranks) == 12 and 8 in dr:
            return f"{n_txt} to a royal flush"
        return f"{n_txt} to a straight flush, spread {shape[0]}, {hi_txt}"
    if n == 4 and suited:
        return "four to a flush"
    if n == 4 and shape is not None:
        outside = shape[0] == 4 and 12 not in ranks
        return f"four to an {'outside' if outside else 'inside'} straight, {hi_txt}"
    return f"no pair, {hi_txt}"


@dataclass
class _Group:
    ride: int = 0
    zero: int = 0  # holdings whose EV is exactly zero (either choice gives the same EV)
    total: int = 0
    best: tuple[int, ...] = ()
    patterns: dict[str, list[int]] | None = None  # rank pattern -> [ride, total]


def _pattern(cards: Sequence[int]) -> str:
    ranks = sorted((rank_of(c) for c in cards), reverse=True)
    suited = len({suit_of(c) for c in cards}) == 1
    return "".join(RANK_CHARS[r] for r in ranks) + ("s" if suited else "")


def _strategy_rows(n: int, ride: np.ndarray, sums: np.ndarray, lay: Layout, min_rank: int) -> list[tuple[str, _Group]]:
    """Every category of n-card holdings with how many ride, riders first.

    Walks the suit-permutation classes (1,755 three-card and 16,432 four-card ones on 52 cards)
    with their weights: the decision and the category are the same for every member of a class.
    """
    binom = _binom_table(lay.deck.size, n)
    pos_of = {c: i for i, c in enumerate(lay.deck.cards)}
    reps, weights = suit_classes(n, lay.deck)
    groups: dict[str, _Group] = {}
    for rep, w in zip(reps.tolist(), weights.tolist()):
        idx = sum(int(binom[pos_of[c], k + 1]) for k, c in enumerate(sorted(rep, key=pos_of.__getitem__)))
        g = groups.setdefault(describe(rep, min_rank, lay.deck), _Group(patterns={}))
        r = int(ride[idx])
        g.ride += w * r
        g.zero += w * int(sums[idx] == 0)
        g.total += w
        g.best = max(g.best, tuple(sorted((rank_of(c) for c in rep), reverse=True)))
        assert g.patterns is not None
        pt = g.patterns.setdefault(_pattern(rep), [0, 0])
        pt[0] += w * r
        pt[1] += w
    rows = list(groups.items())
    rows.sort(key=lambda kv: (-Fraction(kv[1].ride, kv[1].total), tuple(-x for x in kv[1].best), kv[0]))
    return rows


def _strategy_section(title: str, rows: list[tuple[str, _Group]], total_ride: int, total: int,
                      ride_on_zero: bool) -> Section:
    zero = sum(g.zero for _, g in rows)
    md = [f"{total_ride:,} of {total:,} holdings let the bet ride."]
    if zero:
        md.append(f"{zero:,} holdings have an expected value of exactly zero on this bet; they are "
                  + ("let ride (table rule `ride_on_zero`)." if ride_on_zero else
                     "pulled back (same EV, lower stake; set `ride_on_zero` to ride them)."))
    md += ["", "| Holding | Let it ride | Of | Decision |", "|---|---:|---:|---|"]
    data = []
    for cat, g in rows:
        if g.ride == g.total:
            decision = "ride" + (" (EV exactly 0)" if g.zero == g.total else "")
        elif g.ride == 0:
            decision = "pull back" + (" (EV exactly 0)" if g.zero == g.total else "")
        else:
            assert g.patterns is not None
            rides = sorted(p for p, (r, t) in g.patterns.items() if r == t)
            pulls = sorted(p for p, (r, t) in g.patterns.items() if r == 0)
            if len(pulls) <= len(rides):
                decision = "ride, except " + ", ".join(pulls[:12]) + (" ..." if len(pulls) > 12 else "")
            else:
                decision = "pull back, except " + ", ".join(rides[:12]) + (" ..." if len(rides) > 12 else "")
        md.append(f"| {cat} | {g.ride:,} | {g.total:,} | {decision} |")
        data.append({"holding": cat, "ride": g.ride, "of": g.total, "ev_zero": g.zero, "decision": decision})
    md += ["", "Rank patterns read high to low; a trailing `s` means suited."]
    return Section(title, "\n".join(md), {"ride": total_ride, "of": total, "ev_zero": zero, "groups": data})


# --- the game ---------------------------------------------------------------------------


def _describe_set(deck: Deck, k: int, index: int) -> str:
    """The k cards at this colex index of deck positions, high to low."""
    positions = []
    rest = index
    for j in range(k, 0, -1):
        p = j - 1
        while math.comb(p + 1, j) <= rest:
            p += 1
        positions.append(p)
        rest -= math.comb(p, j)
    return cards_str(sorted((deck.cards[p] for p in positions), reverse=True))


class LetItRide:
    key = "let-it-ride"
    title = "Let It Ride"
    default_table = "standard"
    options = frozenset({"strategy"})
    table_model = LetItRideTable
    strategies = ("optimal",)

    def analyze(self, table: Table, options: RunOptions, deck: Deck = FULL_DECK,
                with_strategy_text: bool | None = None) -> Analysis:
        from . import OptionError

        model = table.model
        assert isinstance(model, LetItRideTable)
        if options.strategy not in (None, "optimal"):
            raise OptionError(f"unknown strategy {options.strategy!r} for let-it-ride; known: optimal")
        min_rank = parse_rank(model.rules.min_pair)
        lay = layout(deck, min_rank)
        pays = [getattr(model.pays.main, c.value) for c in PAYING]
        sol = solve(lay, pays, model.rules.ride_on_zero)
        main = self._main_wager(deck, lay, sol, pays, min_rank, model.rules.ride_on_zero)
        wagers = [main]
        if model.pays.three_card_bonus is not None:
            wagers.append(bonus_wager(deck, model.pays.three_card_bonus))
        sections: list[Section] = [self._by_hand_section(sol, pays, min_rank)]
        if with_strategy_text if with_strategy_text is not None else not options.brief:
            sections.append(_strategy_section(
                "Strategy: bet 1 (after the player's three cards)",
                _strategy_rows(3, sol.ride1, sol.s3, lay, min_rank), int(sol.ride1.sum()), lay.n3,
                model.rules.ride_on_zero))
            sections.append(_strategy_section(
                "Strategy: bet 2 (after the first community card)",
                _strategy_rows(4, sol.ride2, sol.s4, lay, min_rank), int(sol.ride2.sum()), lay.n4,
                model.rules.ride_on_zero))
        rules = {"deck": deck.describe(), "min_pair": f"pair of {rank_name(min_rank, True)}",
                 "ride_on_zero": model.rules.ride_on_zero, "strategy": "optimal"}
        decisions = (
            Decisions("bet1", "let bet 1 ride, per three-card hand", sol.ride1, np.full(lay.n3, (deck.size - 3) * (deck.size - 4)),
                      lambda i: _describe_set(deck, 3, i)),
            Decisions("bet2", "let bet 2 ride, per four cards seen", sol.ride2, np.full(lay.n4, 4 * (deck.size - 4)),
                      lambda i: _describe_set(deck, 4, i)),
        )
        return Analysis(
            game=self.key, table=table, rules=rules, decisions=decisions,
            convention=(f"one combination is one deal: the player's three cards (a set) and the two community "
                        f"cards in the order shown, C({deck.size},3) x {deck.size - 3} x {deck.size - 4} = "
                        f"{main.total_combinations:,} equally likely deals"),
            wagers=tuple(wagers), sections=tuple(sections), assumptions=tuple(model.assumptions),
        )

    def _main_wager(self, deck: Deck, lay: Layout, sol: Solution, pays: Sequence[Fraction],
                    min_rank: int, ride_on_zero: bool) -> WagerResult:
        rows = []
        for k in range(10):
            if k < 9:
                cls = PAYING[k]
                label = cls.label if k < 8 else f"Pair of {rank_name(min_rank, True)} or better"
                pay, ev, unit = pays[k], cls.value, pays[k]
            else:
                label, pay, ev, unit = "Losing hand", Fraction(0), "loss", Fraction(-1)
            for bets in (1, 2, 3):
                rows.append(Row(
                    event=f"{ev}_{bets}_bet{'s' if bets > 1 else ''}",
                    label=f"{label}, {bets} bet{'s' if bets > 1 else ''} in play",
                    pays=ratio_text(pay) if k < 9 else "",
                    units=unit * bets, combinations=sol.tally.get((k, bets), 0), stake=Fraction(bets),
                    pay_ref=f"main.{ev}" if k < 9 else "", pay_coef=Fraction(bets if k < 9 else 0),
                ))
        total = math.comb(deck.size, 3) * (deck.size - 3) * (deck.size - 4)
        pairs_after3 = math.comb(deck.size - 3, 2)
        bet1_return = Fraction(int(sol.s3[sol.ride1].sum()), sol.denominator * lay.n3 * pairs_after3)
        bet2_return = Fraction(int(sol.s4[sol.ride2].sum()), sol.denominator * lay.n4 * (deck.size - 4))
        extras: dict[str, Fraction | int] = {
            "bet1_ride_hands": int(sol.ride1.sum()),
            "bet1_ride_probability": Fraction(int(sol.ride1.sum()), lay.n3),
            "bet1_expected_return": bet1_return,
            "bet2_ride_hands": int(sol.ride2.sum()),
            "bet2_ride_probability": Fraction(int(sol.ride2.sum()), lay.n4),
            "bet2_expected_return": bet2_return,
        }
        result = WagerResult(
            wager="main", title="Let It Ride (three equal bets)", strategy="optimal: each bet rides iff its EV > 0",
            total_combinations=total, rows=tuple(rows), unit="base bet (one of the three equal bets)",
            stake_varies=True, extras=extras,
        )
        # Zero-EV holdings change the stake, never the EV: the other convention's figures follow exactly.
        zero3, zero4 = int((sol.s3 == 0).sum()), int((sol.s4 == 0).sum())
        shift = Fraction(zero3, lay.n3) + Fraction(zero4, lay.n4)
        other = result.average_stake + (-shift if ride_on_zero else shift)
        note = ("Bet 3 (the $ bet) always plays; bets 1 and 2 ride exactly when their expected value at the moment "
                f"of decision is positive. {zero3:,} three-card and {zero4:,} four-card holdings have an EV of exactly "
                "zero; they " + ("ride, as the table asks" if ride_on_zero else "are pulled back (same EV, lower stake)")
                + f". {'Pulling them back' if ride_on_zero else 'Riding them'} instead leaves the EV unchanged and "
                f"gives {decimal_str(other, 6)} bets in play and an element of risk of "
                f"{percent_str(result.house_edge / other)}.")
        return replace(result, notes=(note,))

    def _by_hand_section(self, sol: Solution, pays: Sequence[Fraction], min_rank: int) -> Section:
        md = ["| Final hand | Pays | Deals | Bets in play (average) |", "|---|---|---:|---:|"]
        data = []
        for k in range(10):
            deals = sum(sol.tally.get((k, b), 0) for b in (1, 2, 3))
            bets = sum(b * sol.tally.get((k, b), 0) for b in (1, 2, 3))
            name = PAYING[k].label if k < 8 else f"Pair of {rank_name(min_rank, True)} or better" if k == 8 else "Losing hand"
            avg = Fraction(bets, deals) if deals else Fraction(0)
            md.append(f"| {name} | {ratio_text(pays[k]) if k < 9 else 'loses'} | {deals:,} | {float(avg):.4f} |")
            data.append({"hand": name, "deals": deals, "average_bets": avg})
        return Section("Return by final hand", "\n".join(md), data)


GAME = LetItRide()
