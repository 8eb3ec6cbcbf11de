"""Caribbean Stud Poker with the fixed-prize Jackpot side bet.

Counting argument. A deal is the player's five cards (a set), the dealer's up card (one of
the 47 others) and the dealer's four hole cards (a set from the 46 left):
C(52,5) * 47 * C(46,4) = 19,933,230,517,200 equally likely deals (the up card is ordered,
the published convention).

Stage 1 (pay-free, cached). For a player hand P, up card u and a strength threshold x, the
number of dealer hands that contain u, avoid P and are weaker than x is, by inclusion and
exclusion over the cards of P that a hand might share,

    L(P, u, x) = sum over S subset of P of (-1)^|S| * g(S + {u}, x),

where g(T, x) counts the five-card hands containing T that are weaker than x: a sorted list
of the strengths of the C(n-k, 5-k) hands containing each k-card set T (k = 1..4) is
searched, and a five-card T is looked up directly. Three thresholds give everything:
L(Q) hands do not qualify, L(s) - L(Q) lose to the player, L(s+1) - L(s) tie, the rest win
(Q = the qualifier's strength, s = the player's). This runs over the 134,459 suit classes of
player hands (with their weights) times the 47 up cards, in a parallel numba kernel. The
counts carry no pays, so they are cached on disk and reused for every pay table and strategy.

Stage 2 (per pay table). Raising is worth (nq + win * (1 + 2 * pay) - 3 * lose) / C(46,4) antes
against -1 for folding; the optimal strategy raises exactly when that is larger (an exact
tie folds: the same EV at a lower stake). Integer arithmetic throughout (pays scaled to a
common denominator).
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

import numba
import numpy as np
from pydantic import field_validator

from .. import cache
from ..cards import FULL_DECK, RANK_CHARS, Deck, cards_str, parse_rank
from ..exact import Row, WagerResult, decimal_str, frac_str, percent_str
from ..hands import BINOM, HAND_CLASSES, HandClass, hand_table
from ..symmetry import suit_classes
from ..tables import Amount, HandPays, Ratio, Strict, Table, TableModel, ratio_text
from . import Analysis, Decisions, OptionError, RunOptions, Section

ENGINE_VERSION = 1  # bump when stage 1 changes what it computes

STRATEGIES = ("optimal", "raise-pair-plus", "raise-ak-plus", "always-raise", "rules-of-thumb")

# --- table file -------------------------------------------------------------------------


def parse_qualifier(text: str) -> tuple[HandClass, tuple[int, ...]]:
    """"ace-king" -> (high card, (A, K)); "pair of fours" / "pair-of-4s" -> (pair, (4,)); "ace-queen" ..."""
    t = text.strip().lower().replace("_", " ").replace("-", " ")
    m = re.fullmatch(r"(?:a )?pair of (\w+)", t) or re.fullmatch(r"pair (\w+)", t)
    if m:
        return HandClass.PAIR, (parse_rank(m.group(1)),)
    parts = t.split()
    if len(parts) == 2:
        hi, lo = parse_rank(parts[0]), parse_rank(parts[1])
        if hi > lo:
            return HandClass.HIGH_CARD, (hi, lo)
    if t in ("any", "none", "no qualifier"):
        return HandClass.HIGH_CARD, ()
    raise ValueError(f"not a qualifier: {text!r} (use e.g. 'ace-king', 'ace-queen', 'pair of fours')")


class Rules(Strict):
    dealer_qualifier: str = "ace-king"
    strategy: str = "optimal"
    jackpot_paid_on_fold: bool = True

    @field_validator("dealer_qualifier")
    @classmethod
    def _q(cls, v: str) -> str:
        parse_qualifier(v)
        return v

    @field_validator("strategy")
    @classmethod
    def _s(cls, v: str) -> str:
        if v not in STRATEGIES:
            raise ValueError(f"unknown strategy {v!r}; one of: {', '.join(STRATEGIES)}")
        return v


class RaisePays(HandPays):
    """What the raise (call) bet pays when the player beats a qualifying dealer, "to 1"."""

    high_card: Ratio  # only ace-king (or whatever beats a qualifying dealer) can win with it


class JackpotPays(Strict):
    """Fixed prizes (amounts, not odds) paid on the player's own five cards."""

    stake: Amount
    royal_flush: Amount
    straight_flush: Amount | None = None
    four_of_a_kind: Amount | None = None
    full_house: Amount | None = None
    flush: Amount | None = None


class Pays(Strict):
    main: RaisePays
    jackpot: JackpotPays | None = None


class CaribbeanTable(TableModel):
    GAME: ClassVar[str] = "caribbean"
    rules: Rules = Rules()
    pays: Pays


# --- stage 1: dealer counts per (player class, up card) ---------------------------------


@numba.njit(cache=True)
def _colex(pos: np.ndarray, k: int, binom: np.ndarray) -> int:
    idx = 0
    for i in range(k):
        idx += binom[pos[i], i + 1]
    return idx


@numba.njit(cache=True)
def _build_lists(combos_pos: np.ndarray, strength: np.ndarray, order: np.ndarray, n: int, n_levels: int,
                 binom: np.ndarray, lens: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What g(T, x) needs, for every k-set T.

    k = 1, 2: cumulative tables cum[t, x] = hands containing t weaker than x (direct lookup);
    k = 3, 4: the ascending strengths of the hands containing t (binary search), which come out
    sorted because hands are visited in ascending strength.
    """
    cum1 = np.zeros((binom[n, 1], n_levels + 1), dtype=np.int32)
    cum2 = np.zeros((binom[n, 2], n_levels + 1), dtype=np.int32)
    l3 = np.empty(binom[n, 3] * lens[2], dtype=np.int16)
    l4 = np.empty(binom[n, 4] * lens[3], dtype=np.int16)
    f3 = np.zeros(binom[n, 3], dtype=np.int64)
    f4 = np.zeros(binom[n, 4], dtype=np.int64)
    sub = np.empty(5, dtype=np.int64)
    for oi in range(order.shape[0]):
        h = order[oi]
        s = strength[h]
        for mask in range(1, 31):
            k = 0
            for i in range(5):
                if mask >> i & 1:
                    sub[k] = combos_pos[h, i]
                    k += 1
            if k == 5:
                continue
            t = _colex(sub, k, binom)
            if k == 1:
                cum1[t, s + 1] += 1
            elif k == 2:
                cum2[t, s + 1] += 1
            elif k == 3:
                l3[t * lens[2] + f3[t]] = s
                f3[t] += 1
            else:
                l4[t * lens[3] + f4[t]] = s
                f4[t] += 1
    for t in range(cum1.shape[0]):
        for x in range(1, n_levels + 1):
            cum1[t, x] += cum1[t, x - 1]
    for t in range(cum2.shape[0]):
        for x in range(1, n_levels + 1):
            cum2[t, x] += cum2[t, x - 1]
    return cum1, cum2, l3, l4


@numba.njit(cache=True)
def _count_below(lst: np.ndarray, start: int, length: int, x: int) -> int:
    lo = start
    hi = start + length
    while lo < hi:
        mid = (lo + hi) >> 1
        if lst[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo - start


@numba.njit(cache=True)
def _below_each(lst: np.ndarray, length: int, x: int) -> np.ndarray:
    """For every k-set's list, how many of its hands are weaker than x."""
    m = lst.shape[0] // length
    out = np.empty(m, dtype=np.int32)
    for t in range(m):
        out[t] = _count_below(lst, t * length, length, x)
    return out


@numba.njit(cache=True)
def _count_below_and_equal(lst: np.ndarray, start: int, length: int, x: int) -> tuple[int, int]:
    lo = _count_below(lst, start, length, x)
    eq = 0
    while lo + eq < length and lst[start + lo + eq] == x:
        eq += 1
    return lo, eq


@numba.njit(cache=True, parallel=True)
def _dealer_counts(reps_pos: np.ndarray, n: int, q: int, strength: np.ndarray, binom: np.ndarray,
                   lens: np.ndarray, cum1: np.ndarray, cum2: np.ndarray, l3: np.ndarray, l4: np.ndarray,
                   q3: np.ndarray, q4: np.ndarray) -> np.ndarray:
    """(m, n-5, 3) int32: dealer hands that do not qualify / lose to the player / tie, per up card.

    Up cards are the deck positions not in the player's hand, in ascending order. ``qk[t]`` is
    g(t, Q) precomputed for every k-set; only hands that reach the qualifier need the two
    searches at the player's own strength.
    """
    m = reps_pos.shape[0]
    out = np.zeros((m, n - 5, 3), dtype=np.int32)
    for i in numba.prange(m):
        p = reps_pos[i]
        sp = strength[_colex(p, 5, binom)]
        need = sp >= q
        merged = np.empty(6, dtype=np.int64)
        sub = np.empty(5, dtype=np.int64)
        ui = 0
        for u in range(n):
            inp = False
            for j in range(5):
                if p[j] == u:
                    inp = True
            if inp:
                continue
            ins = 0
            while ins < 5 and p[ins] < u:
                ins += 1
            for a in range(6):
                merged[a] = u if a == ins else (p[a] if a < ins else p[a - 1])
            cq = 0
            cs = 0
            ce = 0
            for mask in range(31):  # S = cards of P picked by mask; all five plus u is six cards: none
                k = 0
                bits = 0
                for a in range(6):
                    if a == ins:
                        sub[k] = merged[a]
                        k += 1
                    else:
                        j = a if a < ins else a - 1
                        if mask >> j & 1:
                            sub[k] = merged[a]
                            k += 1
                            bits += 1
                sign = -1 if bits & 1 else 1
                t = _colex(sub, k, binom)
                if k == 5:
                    s = strength[t]
                    cq += sign * (s < q)
                    cs += sign * (s < sp)
                    ce += sign * (s == sp)
                    continue
                if k <= 2:
                    cum = cum1 if k == 1 else cum2
                    cq += sign * cum[t, q]
                    if need:
                        cs += sign * cum[t, sp]
                        ce += sign * (cum[t, sp + 1] - cum[t, sp])
                    continue
                cq += sign * (q3[t] if k == 3 else q4[t])
                if need:
                    lst = l3 if k == 3 else l4
                    ln = lens[k - 1]
                    lo, eq = _count_below_and_equal(lst, t * ln, ln, sp)
                    cs += sign * lo
                    ce += sign * eq
            out[i, ui, 0] = cq
            if need:
                out[i, ui, 1] = cs - cq
                out[i, ui, 2] = ce
            ui += 1
    return out


@dataclass(frozen=True)
class DealerCounts:
    """Stage 1: for each player-hand suit class and up card, the dealer-hand counts."""

    deck: Deck
    qualifier: str
    reps: np.ndarray  # (m, 5) int8 card ids
    weights: np.ndarray  # (m,) int64
    counts: np.ndarray  # (m, n-5, 3) int32: not qualifying, player wins, push; up cards ascending
    pay_class: np.ndarray  # (m,) int8: 0..8 royal flush..pair, 9 ace-king, 10 other high card
    holes: int  # dealer hole-card sets per (hand, up card): C(n-6, 4)

    @property
    def total(self) -> int:
        return math.comb(self.deck.size, 5) * (self.deck.size - 5) * self.holes

    def up_cards(self, i: int) -> list[int]:
        """The up cards of row i, in the order its counts are stored."""
        hand = set(self.reps[i].tolist())
        return [c for c in self.deck.cards if c not in hand]


def _progress(enabled: bool, text: str) -> None:
    if enabled:
        print(f"\r{text}", end="", file=sys.stderr, flush=True)


def _pay_classes(deck: Deck, reps: np.ndarray) -> np.ndarray:
    ht = hand_table(deck)
    pos = np.sort(ht.position[reps].astype(np.int64), axis=1)
    idx = sum(BINOM[pos[:, i], i + 1] for i in range(5))
    cls = ht.hand_class[idx].astype(np.int64)
    srt = np.sort(reps.astype(np.int64) >> 2, axis=1)
    ak = (srt[:, 4] == 12) & (srt[:, 3] == 11)
    return np.where(cls <= 8, cls, np.where(ak, AK, OTHER_HIGH)).astype(np.int8)


def _counter(deck: Deck, qualifier: str) -> Callable[[np.ndarray], np.ndarray]:
    """Build g's lookup tables once; return stage 1 for rows of player-hand card ids."""
    cls, ranks = parse_qualifier(qualifier)
    ht = hand_table(deck)
    q = ht.strength_at_least(cls, ranks)
    lens = np.array([math.comb(deck.size - k, 5 - k) for k in range(1, 5)], dtype=np.int64)
    order = np.argsort(ht.strength, kind="stable")  # hands in ascending strength: every list comes out sorted
    lists = _build_lists(ht.position[ht.combos], ht.strength, order, deck.size, ht.n_levels, BINOM, lens)
    below_q = tuple(_below_each(lst, int(ln), q) for lst, ln in zip(lists[2:], lens[2:]))

    def count(hands: np.ndarray) -> np.ndarray:
        reps_pos = np.sort(ht.position[np.asarray(hands)], axis=1).astype(np.int64)
        return _dealer_counts(reps_pos, deck.size, q, ht.strength, BINOM, lens, *lists, *below_q)

    return count


def counts_for_hands(deck: Deck, qualifier: str, hands: np.ndarray) -> np.ndarray:
    """Stage 1 for the given player hands (rows of card ids), without symmetry or cache (for checks)."""
    return _counter(deck, qualifier)(hands)


def dealer_counts(deck: Deck, qualifier: str, progress: bool = False, use_cache: bool = True,
                  symmetry: bool = True) -> DealerCounts:
    """Stage 1 over the suit classes of player hands (or, with ``symmetry=False``, every hand)."""
    cls, ranks = parse_qualifier(qualifier)
    key = {"game": "caribbean", "stage": "dealer_counts", "version": ENGINE_VERSION, "symmetry": symmetry,
           "deck": [list(deck.ranks), deck.n_suits], "qualifier": [cls.value, list(ranks)]}
    holes = math.comb(deck.size - 6, 4)

    def build() -> dict[str, np.ndarray]:
        if symmetry:
            reps, weights = suit_classes(5, deck)
        else:
            reps, weights = hand_table(deck).combos, np.ones(math.comb(deck.size, 5), dtype=np.int64)
        _progress(progress, "caribbean: indexing dealer hands ...")
        count = _counter(deck, qualifier)
        # independent chunks: progress between them, and the unit of work to spread wider one day
        chunks = np.array_split(np.arange(len(reps)), 16)
        parts = []
        for c, idx in enumerate(chunks):
            _progress(progress, f"caribbean: counting dealer hands {100 * c // len(chunks):3d}% ")
            parts.append(count(reps[idx]))
        _progress(progress, "caribbean: counting dealer hands 100%\n")
        return {"reps": np.asarray(reps), "weights": np.asarray(weights), "counts": np.concatenate(parts),
                "pay_class": _pay_classes(deck, np.asarray(reps))}

    memo_key = repr((str(cache.cache_dir()), sorted(key.items())))
    if use_cache and memo_key in _LOADED:
        return _LOADED[memo_key]
    arrays = cache.load_or_build(key, build) if use_cache else build()
    dc = DealerCounts(deck, qualifier, arrays["reps"], arrays["weights"], arrays["counts"], arrays["pay_class"], holes)
    if use_cache:
        _LOADED[memo_key] = dc  # solve and compare settle many tables in one process: read the cache once
    return dc


_LOADED: dict[str, DealerCounts] = {}


# --- stage 2: settle a pay table under a strategy ---------------------------------------

N_PAY = 12  # pay classes: 0..8 royal..pair, 9 ace-king high, 10 other high card (11 unused)
AK, OTHER_HIGH = 9, 10
N_CLOSE = 10  # closest decisions reported


def _rep_features(reps: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per player hand: bit mask of the ranks held, third- and fourth-highest rank."""
    ranks = np.sort(reps.astype(np.int64) >> 2, axis=1)[:, ::-1]
    bits = np.bitwise_or.reduce(np.left_shift(1, ranks), axis=1)
    return bits, np.ascontiguousarray(ranks[:, 2]), np.ascontiguousarray(ranks[:, 3])


@numba.njit(cache=True)
def _settle(counts: np.ndarray, weights: np.ndarray, pay_class: np.ndarray, reps: np.ndarray, rank_bits: np.ndarray,
            third: np.ndarray, fourth: np.ndarray, cards: np.ndarray, pays: np.ndarray, den: int, holes: int,
            chosen: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Decide every (hand class, up card) under every named strategy and tally the weighted deals.

    Strategies by index: 0 optimal (raise iff its exact EV beats folding's), 1 raise pair or
    better, 2 raise ace-king or better, 3 always raise, 4 rules of thumb. Returns
    tally[strategy, pay class, outcome] (0 fold, 1 dealer not qualified, 2 player wins, 3 push,
    4 dealer wins); for the ``chosen`` strategy the ace-king chart (raised, total) by
    [third-highest rank, up-card rank] and the N_CLOSE entries with the smallest raise-minus-fold gap.
    """
    m, nu = counts.shape[0], counts.shape[1]
    tally = np.zeros((5, N_PAY, 5), dtype=np.int64)
    ak_raised = np.zeros((13, 13), dtype=np.int64)
    ak_total = np.zeros((13, 13), dtype=np.int64)
    close_gap = np.full(N_CLOSE, np.iinfo(np.int64).max, dtype=np.int64)
    close_idx = np.full(N_CLOSE, -1, dtype=np.int64)
    close_dec = np.zeros(N_CLOSE, dtype=np.bool_)
    close_signed = np.zeros(N_CLOSE, dtype=np.int64)
    chosen_dec = np.zeros((m, nu), dtype=np.bool_)
    dec = np.zeros(5, dtype=np.bool_)
    for i in range(m):
        c = pay_class[i]
        w = weights[i]
        bits = rank_bits[i]
        has_q = (bits >> 10) & 1 == 1
        has_qj = has_q or (bits >> 9) & 1 == 1
        ui = 0
        for card in cards:
            if card == reps[i, 0] or card == reps[i, 1] or card == reps[i, 2] or card == reps[i, 3] or card == reps[i, 4]:
                continue
            u = card >> 2
            nq = np.int64(counts[i, ui, 0])
            win = np.int64(counts[i, ui, 1])
            push = np.int64(counts[i, ui, 2])
            lose = holes - nq - win - push
            g = nq * den + win * (den + 2 * pays[c]) - 3 * lose * den + holes * den
            made = c <= 8
            ak = c == AK
            matches = (bits >> u) & 1 == 1
            dec[0] = g > 0
            dec[1] = made
            dec[2] = made or ak
            dec[3] = True
            dec[4] = made or (ak and ((u <= 10 and matches) or (u >= 11 and has_qj)
                                      or (not matches and has_q and u < fourth[i])))
            for k in range(5):
                if dec[k]:
                    tally[k, c, 1] += w * nq
                    tally[k, c, 2] += w * win
                    tally[k, c, 3] += w * push
                    tally[k, c, 4] += w * lose
                else:
                    tally[k, c, 0] += w * holes
            r = dec[chosen]
            chosen_dec[i, ui] = r
            if ak:
                ak_total[third[i], u] += w * holes
                if r:
                    ak_raised[third[i], u] += w * holes
            a = abs(g)
            if a < close_gap[N_CLOSE - 1]:
                k = N_CLOSE - 1
                while k > 0 and close_gap[k - 1] > a:
                    close_gap[k] = close_gap[k - 1]
                    close_idx[k] = close_idx[k - 1]
                    close_dec[k] = close_dec[k - 1]
                    close_signed[k] = close_signed[k - 1]
                    k -= 1
                close_signed[k] = g
                close_gap[k] = a
                close_idx[k] = i * nu + ui
                close_dec[k] = r
            ui += 1
    return tally, ak_raised, ak_total, close_signed, close_idx, close_dec, chosen_dec


@dataclass(frozen=True)
class Settled:
    strategy: str
    tallies: dict[str, np.ndarray]  # strategy -> (N_PAY, 5)
    ak_raised: np.ndarray  # (13, 13) by [third-highest rank, up-card rank], chosen strategy
    ak_total: np.ndarray
    closest: tuple[tuple[int, int, Fraction, bool], ...]  # (row, up-card index, raise - fold EV, raised)
    decision: np.ndarray | None = None  # (m, n-5) bool: raise, for the chosen strategy

    @property
    def tally(self) -> np.ndarray:
        return self.tallies[self.strategy]


def settle(dc: DealerCounts, pays: RaisePays, strategy: str = "optimal") -> Settled:
    """Settle one pay table under every named strategy in one pass (``strategy`` picks the chart)."""
    if strategy not in STRATEGIES:
        raise OptionError(f"unknown strategy {strategy!r} for caribbean; one of: {', '.join(STRATEGIES)}")
    pay_list = [getattr(pays, c.value) for c in HAND_CLASSES[:9]] + [pays.high_card, pays.high_card, Fraction(0)]
    den = math.lcm(*(p.denominator for p in pay_list))
    pay_int = np.array([int(p * den) for p in pay_list], dtype=np.int64)
    bits, third, fourth = _rep_features(dc.reps)
    tally, ak_raised, ak_total, gap, idx, dec, decision = _settle(
        dc.counts, dc.weights, dc.pay_class.astype(np.int64), dc.reps.astype(np.int64), bits, third, fourth,
        np.array(dc.deck.cards, dtype=np.int64), pay_int, den, dc.holes, STRATEGIES.index(strategy))
    nu = dc.counts.shape[1]
    closest = tuple((int(f) // nu, int(f) % nu, Fraction(int(g), den * dc.holes), bool(d))
                    for g, f, d in zip(gap, idx, dec) if f >= 0)
    return Settled(strategy, {name: tally[k] for k, name in enumerate(STRATEGIES)}, ak_raised, ak_total, closest,
                   decision)


# --- the report --------------------------------------------------------------------------

WIN_LABELS = [c.label for c in HAND_CLASSES[:9]] + ["Ace-king", "Other high card"]
WIN_EVENTS = [c.value for c in HAND_CLASSES[:9]] + ["ace_king", "other_high_card"]


def main_wager(dc: DealerCounts, pays: RaisePays, st: Settled) -> WagerResult:
    t = [[int(x) for x in row] for row in st.tally.tolist()]
    pay_list = [getattr(pays, c.value) for c in HAND_CLASSES[:9]] + [pays.high_card, pays.high_card]
    rows = []
    for k in range(11):
        key = HAND_CLASSES[min(k, 9)].value
        rows.append(Row(f"win_{WIN_EVENTS[k]}", f"Player wins with {WIN_LABELS[k].lower()}",
                        ratio_text(pay_list[k]), 1 + 2 * pay_list[k], t[k][2], Fraction(3),
                        pay_ref=f"main.{key}", pay_coef=Fraction(2)))
    rows.append(Row("dealer_not_qualified", "Dealer does not qualify", "1:1 (raise returned)", Fraction(1),
                    sum(t[k][1] for k in range(N_PAY)), Fraction(3)))
    rows.append(Row("push", "Push", "", Fraction(0), sum(t[k][3] for k in range(N_PAY)), Fraction(3)))
    rows.append(Row("fold", "Fold", "", Fraction(-1), sum(t[k][0] for k in range(N_PAY)), Fraction(1)))
    rows.append(Row("dealer_wins", "Dealer wins", "", Fraction(-3), sum(t[k][4] for k in range(N_PAY)), Fraction(3)))
    raised = dc.total - rows[-2].combinations
    return WagerResult(
        wager="main", title="Caribbean Stud (ante and raise)", strategy=st.strategy,
        total_combinations=dc.total, rows=tuple(rows), unit="ante", stake_varies=True,
        extras={"raise_frequency": Fraction(raised, dc.total),
                "win_pair_or_ace_king": rows[8].combinations + rows[9].combinations},
        notes=("Units are net antes won: a win pays the ante 1:1 and the raise (2 antes) at the table's odds; "
               "an exact tie between raising and folding folds (same EV, lower stake).",),
    )


def _money(x: Fraction) -> str:
    return f"{x.numerator:,}" if x.denominator == 1 else decimal_str(x, 2)


def jackpot_wager(dc: DealerCounts, jp: JackpotPays, st: Settled, paid_on_fold: bool) -> WagerResult:
    per_class_total = np.zeros(N_PAY, dtype=object)
    np.add.at(per_class_total, dc.pay_class.astype(np.int64), dc.weights.astype(object))
    rows = []
    won = 0
    for c in HAND_CLASSES[:5]:
        amount = getattr(jp, c.value)
        if amount is None:
            continue
        code = HAND_CLASSES.index(c)
        if paid_on_fold:
            n = int(per_class_total[code]) * dc.counts.shape[1] * dc.holes
        else:
            n = sum(int(x) for x in st.tally[code, 1:])
        won += n
        rows.append(Row(c.value, c.label, f"{_money(amount)} (amount)", amount / jp.stake - 1, n,
                        pay_ref=f"jackpot.{c.value}", pay_coef=1 / jp.stake))
    rows.append(Row("no_prize", "No prize" + ("" if paid_on_fold else " (or folded)"), "", Fraction(-1), dc.total - won))
    return WagerResult(
        wager="jackpot", title=f"Jackpot (fixed prizes, stake {_money(jp.stake)})", strategy=st.strategy,
        total_combinations=dc.total, rows=tuple(rows), unit=f"stake of {_money(jp.stake)}",
        notes=("Prizes are fixed amounts paid on the player's own five cards; the stake is kept by the house, so a "
               "prize of A is a net win of A/stake - 1 stakes.",
               "A folded hand " + ("keeps" if paid_on_fold else "forfeits") + " its jackpot (rule `jackpot_paid_on_fold`).",
               ),
    )


def _ak_section(dc: DealerCounts, st: Settled) -> Section:
    """The ace-king decisions as a chart: player's third-highest card against the up card's rank."""
    raised, total = st.ak_raised, st.ak_total
    cols = [r for r in range(12, -1, -1) if total[:, r].any()]
    rowsr = [r for r in range(12, -1, -1) if total[r].any()]
    md = ["Share of ace-king deals raised, by the player's third-highest card (rows) and the dealer's up card "
          "(columns). `all` and `-` mean every and no such deal is raised.", "",
          "| AK + | " + " | ".join(RANK_CHARS[c] for c in cols) + " |",
          "|---|" + "---:|" * len(cols)]
    chart = {}
    for r in rowsr:
        cells = []
        for c in cols:
            if total[r, c] == 0:
                cells.append("")
            elif raised[r, c] == total[r, c]:
                cells.append("all")
            elif raised[r, c] == 0:
                cells.append("-")
            else:
                cells.append(f"{100 * raised[r, c] / total[r, c]:.0f}%")
            chart[f"AK{RANK_CHARS[r]}_vs_{RANK_CHARS[c]}"] = [int(raised[r, c]), int(total[r, c])]
        md.append(f"| AK{RANK_CHARS[r]} | " + " | ".join(cells) + " |")
    ak_total = int(total.sum())
    ak_raised = int(raised.sum())
    share = percent_str(Fraction(ak_raised, ak_total or 1), 2)
    md += ["", f"Ace-king deals raised: {ak_raised:,} of {ak_total:,} ({share}); folded: {ak_total - ak_raised:,}."]
    md += ["", "Closest decisions (EV of raising minus EV of folding, in antes; each line stands for its suit "
           "pattern):", "", "| Player hand | Up card | Raise - fold | Decision |", "|---|---|---:|---|"]
    closest = []
    for i, ui, ev_gap, raised_it in st.closest:
        hand = cards_str(sorted(dc.reps[i].tolist(), reverse=True))
        upc = cards_str([dc.up_cards(i)[ui]])
        dec = "raise" if raised_it else "fold"
        md.append(f"| {hand} | {upc} | {decimal_str(ev_gap, 6)} | {dec} |")
        closest.append({"hand": hand, "up_card": upc, "gap": frac_str(ev_gap), "decision": dec})
    return Section("Strategy: ace-king hands", "\n".join(md),
                   {"ak_raised": ak_raised, "ak_total": ak_total, "chart": chart, "closest": closest})


class Caribbean:
    key = "caribbean"
    title = "Caribbean Stud Poker"
    default_table = "us"
    options = frozenset({"strategy"})
    table_model = CaribbeanTable

    def analyze(self, table: Table, options: RunOptions, deck: Deck = FULL_DECK) -> Analysis:
        model = table.model
        assert isinstance(model, CaribbeanTable)
        strategy = options.strategy or model.rules.strategy
        if strategy not in STRATEGIES:
            raise OptionError(f"unknown strategy {strategy!r} for caribbean; one of: {', '.join(STRATEGIES)}")
        dc = dealer_counts(deck, model.rules.dealer_qualifier, progress=options.progress)
        st = settle(dc, model.pays.main, strategy)
        main = main_wager(dc, model.pays.main, st)
        wagers = [main]
        if model.pays.jackpot is not None:
            wagers.append(jackpot_wager(dc, model.pays.jackpot, st, model.rules.jackpot_paid_on_fold))
        sections = [] if options.brief else [_ak_section(dc, st), _comparison_section(dc, model.pays.main, st)]
        rules = {"deck": deck.describe(), "dealer_qualifier": model.rules.dealer_qualifier,
                 "raise": "2 antes", "strategy": strategy, "jackpot_paid_on_fold": model.rules.jackpot_paid_on_fold}
        decisions = Decisions(
            "raise", "raise (else fold), per player hand suit pattern and dealer up card",
            st.decision.ravel() if st.decision is not None else np.zeros(0, dtype=np.bool_),
            np.repeat(dc.weights * dc.holes, dc.counts.shape[1]),
            lambda f: _describe_point(dc, f))
        return Analysis(
            game=self.key, table=table, rules=rules, decisions=(decisions,),
            published_applies=strategy == model.rules.strategy,
            convention=(f"one combination is one deal: the player's five cards (a set), the dealer's up card "
                        f"(ordered) and the dealer's four hole cards (a set): C({deck.size},5) x {deck.size - 5} x "
                        f"C({deck.size - 6},4) = {dc.total:,}"),
            wagers=tuple(wagers), sections=tuple(sections), assumptions=tuple(model.assumptions),
        )


def _describe_point(dc: DealerCounts, flat: int) -> str:
    i, ui = divmod(flat, dc.counts.shape[1])
    return f"{cards_str(sorted(dc.reps[i].tolist(), reverse=True))} against up card {cards_str([dc.up_cards(i)[ui]])}"


def _comparison_section(dc: DealerCounts, pays: RaisePays, st: Settled) -> Section:
    md = ["| Strategy | Expected value per ante | House edge | Element of risk | Raise frequency |",
          "|---|---:|---:|---:|---:|"]
    data = {}
    for name in STRATEGIES:
        w = main_wager(dc, pays, Settled(name, st.tallies, st.ak_raised, st.ak_total, ()))
        eor = w.element_of_risk
        assert eor is not None
        mark = " (this report)" if name == st.strategy else ""
        md.append(f"| {name}{mark} | {decimal_str(w.expected_value, 6)} | {percent_str(w.house_edge)} | "
                  f"{percent_str(eor)} | {percent_str(Fraction(w.extras['raise_frequency']), 2)} |")
        data[name] = {"expected_value": w.expected_value, "house_edge": w.house_edge, "element_of_risk": eor}
    return Section("Named strategies compared", "\n".join(md), data)


GAME = Caribbean()
