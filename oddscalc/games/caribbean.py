"""Caribbean Stud Poker with the fixed-prize Jackpot side bet.

Counting argument. A deal is the player's five cards (a set), the dealer's up card (one of
the 47 others) and the dealer's four hole cards (a set from the 46 left):
C(52,5) * 47 * C(46,4) = 19,933,230,517,200 equally likely deals (the up card is ordered,
the published convention).

Count (pay-free, stored). For each of the 134,459 suit classes of player hands (with their
weights) and each of the 47 up cards, the dealer hands that do not qualify, lose to the player
or tie, by inclusion and exclusion over the player's cards (``dealer_counts``). The counts
depend on the deck and the qualifier only, so one count serves every pay table and strategy.

Settle (per pay table). Raising is worth (nq + win * (1 + 2 * pay) - 3 * lose) / C(46,4) antes
against -1 for folding; the optimal strategy raises exactly when that is larger (an exact tie
folds: the same EV at a lower stake). Integer arithmetic throughout (pays scaled to a common
denominator), refused where int64 cannot hold it exactly.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import numba
import numpy as np
from pydantic import field_validator

from ..cache import Store
from ..cards import FULL_DECK, RANK_CHARS, Deck, cards_str, parse_rank
from ..exact import decimal_str, percent_str
from ..hands import BINOM, HAND_CLASSES, HandClass, hand_table
from ..interrupts import held
from ..progress import Progress
from ..protocol import OptionError, Rules, count_key
from ..results import Analysis, Cell, Chart, Column, Decisions, Heatmap, Row, RunOptions, Section, WagerResult
from ..symmetry import suit_classes
from ..tables import Amount, HandPays, Ratio, Strict, Table, TableModel, ratio_text
from . import dealer_counts

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


class TableRules(Strict):
    """The ``[rules]`` of a Caribbean Stud table."""

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

    @field_validator("stake")
    @classmethod
    def _positive(cls, v: Fraction) -> Fraction:
        if v <= 0:
            raise ValueError("the stake must be more than 0")
        return v


class Pays(Strict):
    """The ``[pays]`` of a Caribbean Stud table."""

    main: RaisePays
    jackpot: JackpotPays | None = None


class CaribbeanTable(TableModel):
    """A Caribbean Stud table file."""

    GAME: ClassVar[str] = "caribbean"
    rules: TableRules = TableRules()
    pays: Pays


@dataclass(frozen=True)
class CaribbeanRules(Rules):
    """A Caribbean Stud table resolved for a run."""

    deck: Deck
    qualifier: str
    jackpot_paid_on_fold: bool

    @property
    def model(self) -> CaribbeanTable:
        """The table file's model."""
        model = self.table.model
        assert isinstance(model, CaribbeanTable)
        return model

    def count_key(self) -> dict[str, Any]:
        """Deck and qualifier: nothing else changes the dealer counts."""
        cls, ranks = parse_qualifier(self.qualifier)
        return {"deck": [list(self.deck.ranks), self.deck.n_suits], "qualifier": [cls.value, list(ranks)]}

    def shown(self) -> dict[str, Any]:
        """The rules as the report states them."""
        return {"deck": self.deck.describe(), "dealer_qualifier": self.qualifier, "raise": "2 antes",
                "strategy": self.strategy, "jackpot_paid_on_fold": self.jackpot_paid_on_fold}


# --- count: dealer hands per (player-hand suit class, up card) -------------------------------------


N_PAY = 12  # pay classes: 0..8 royal..pair, 9 ace-king high, 10 other high card (11 unused)
AK, OTHER_HIGH = 9, 10
N_CLOSE = 10  # closest decisions reported


@dataclass(frozen=True)
class DealerCounts:
    """For each player-hand suit class and up card, the dealer-hand counts (pay-free)."""

    deck: Deck
    reps: np.ndarray  # (m, 5) int8 card ids
    weights: np.ndarray  # (m,) int64
    counts: np.ndarray  # (m, n-5, 3) int32: not qualifying, player wins, push; up cards ascending
    pay_class: np.ndarray  # (m,) int8: 0..8 royal flush..pair, 9 ace-king, 10 other high card

    @property
    def holes(self) -> int:
        """Dealer hole-card sets per (hand, up card): C(n-6, 4)."""
        return math.comb(self.deck.size - 6, 4)

    @property
    def total(self) -> int:
        """Every deal: C(n,5) x (n-5) x C(n-6,4)."""
        return math.comb(self.deck.size, 5) * (self.deck.size - 5) * self.holes

    def up_cards(self, i: int) -> list[int]:
        """The up cards of row i, in the order its counts are stored."""
        hand = set(self.reps[i].tolist())
        return [c for c in self.deck.cards if c not in hand]


def _pay_classes(deck: Deck, reps: np.ndarray) -> np.ndarray:
    ht = hand_table(deck)
    pos = np.sort(ht.position[reps].astype(np.int64), axis=1)
    idx = sum(BINOM[pos[:, i], i + 1] for i in range(5))
    cls = ht.hand_class[idx].astype(np.int64)
    srt = np.sort(reps.astype(np.int64) >> 2, axis=1)
    ak = (srt[:, 4] == 12) & (srt[:, 3] == 11)
    return np.where(cls <= 8, cls, np.where(ak, AK, OTHER_HIGH)).astype(np.int8)


def qualifier_strength(deck: Deck, qualifier: str) -> int:
    """The weakest dealer strength that qualifies, in ``deck``'s dense strengths."""
    cls, ranks = parse_qualifier(qualifier)
    return hand_table(deck).strength_at_least(cls, ranks)


def dealer_counts_of(deck: Deck, qualifier: str, symmetry: bool = True,
                     progress: Progress | None = None) -> DealerCounts:
    """Count over the suit classes of player hands (or, with ``symmetry=False``, every hand), unstored."""
    if symmetry:
        reps, weights = suit_classes(5, deck)
    else:
        reps, weights = hand_table(deck).combos, np.ones(math.comb(deck.size, 5), dtype=np.int64)
    counts = dealer_counts.count_all(deck, qualifier_strength(deck, qualifier), np.asarray(reps),
                                     progress or Progress(False, ""))
    return DealerCounts(deck, np.asarray(reps), np.asarray(weights), counts, _pay_classes(deck, np.asarray(reps)))


# --- settle: a pay table under every named strategy at once ---------------------------------------


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
            if (card == reps[i, 0] or card == reps[i, 1] or card == reps[i, 2] or card == reps[i, 3]
                    or card == reps[i, 4]):
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
    """One pay table settled: tallies of every named strategy, the chosen strategy's charts."""

    strategy: str
    tallies: dict[str, np.ndarray]  # strategy -> (N_PAY, 5)
    ak_raised: np.ndarray  # (13, 13) by [third-highest rank, up-card rank], chosen strategy
    ak_total: np.ndarray
    closest: tuple[tuple[int, int, Fraction, bool], ...]  # (row, up-card index, raise - fold EV, raised)
    decision: np.ndarray | None = None  # (m, n-5) bool: raise, for the chosen strategy

    @property
    def tally(self) -> np.ndarray:
        """The chosen strategy's tally."""
        return self.tallies[self.strategy]


_INT64_LIMIT = 2**62  # headroom below 2**63 for the sums the kernel forms


def pay_integers(pays: RaisePays, holes: int) -> tuple[np.ndarray, int]:
    """Pays scaled to a common denominator as int64, refused when the kernel's sums could overflow."""
    pay_list = [getattr(pays, c.value) for c in HAND_CLASSES[:9]] + [pays.high_card, pays.high_card, Fraction(0)]
    den = math.lcm(*(p.denominator for p in pay_list))
    ints = [int(p * den) for p in pay_list]
    # the largest term: holes * (den + 2 * pay), four of them added
    if 4 * holes * (3 * den + 2 * max(ints)) >= _INT64_LIMIT:
        raise OptionError("caribbean: pays this large (or with this many digits) do not fit the exact integer "
                          f"strategy solver (largest pay about {float(max(pay_list)):.4g}:1 over a common "
                          f"denominator of {den:,}; it holds pay x denominator up to about 3e12)")
    return np.array(ints, dtype=np.int64), den


def settle_counts(dc: DealerCounts, pays: RaisePays, strategy: str = "optimal") -> Settled:
    """Settle one pay table under every named strategy in one pass (``strategy`` picks the chart)."""
    if strategy not in STRATEGIES:
        raise OptionError(f"unknown strategy {strategy!r} for caribbean; one of: {', '.join(STRATEGIES)}")
    pay_int, den = pay_integers(pays, dc.holes)
    bits, third, fourth = _rep_features(dc.reps)
    with held():
        tally, ak_raised, ak_total, gap, idx, dec, decision = _settle(
            dc.counts, dc.weights, dc.pay_class.astype(np.int64), dc.reps.astype(np.int64), bits, third, fourth,
            np.array(dc.deck.cards, dtype=np.int64), pay_int, den, dc.holes, STRATEGIES.index(strategy))
    nu = dc.counts.shape[1]
    closest = tuple((int(f) // nu, int(f) % nu, Fraction(int(g), den * dc.holes), bool(d))
                    for g, f, d in zip(gap, idx, dec) if f >= 0)
    return Settled(strategy, {name: tally[k] for k, name in enumerate(STRATEGIES)}, ak_raised, ak_total, closest,
                   decision)


# --- the wagers ---------------------------------------------------------------------------------

WIN_LABELS = [c.label for c in HAND_CLASSES[:9]] + ["Ace-king", "Other high card"]
WIN_EVENTS = [c.value for c in HAND_CLASSES[:9]] + ["ace_king", "other_high_card"]


def main_wager(dc: DealerCounts, pays: RaisePays, st: Settled) -> WagerResult:
    """The ante and raise, per ante."""
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
                "win_pair_or_ace_king": rows[8].combinations + rows[9].combinations,
                "ace_king_deals": int(st.ak_total.sum()), "ace_king_deals_raised": int(st.ak_raised.sum())},
        notes=("Units are net antes won: a win pays the ante 1:1 and the raise (2 antes) at the table's odds; "
               "an exact tie between raising and folding folds (same EV, lower stake).",),
    )


def _money(x: Fraction) -> str:
    return f"{x.numerator:,}" if x.denominator == 1 else decimal_str(x, 2)


def jackpot_wager(dc: DealerCounts, jp: JackpotPays, st: Settled, paid_on_fold: bool) -> WagerResult:
    """The Jackpot, per stake: fixed amounts on the player's own five cards."""
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
    no_prize = "No prize" + ("" if paid_on_fold else " (or folded)")
    rows.append(Row("no_prize", no_prize, "", Fraction(-1), dc.total - won))
    return WagerResult(
        wager="jackpot", title=f"Jackpot (fixed prizes, stake {_money(jp.stake)})", strategy=st.strategy,
        total_combinations=dc.total, rows=tuple(rows), unit=f"stake of {_money(jp.stake)}",
        notes=("Prizes are fixed amounts paid on the player's own five cards; the stake is kept by the house, so a "
               "prize of A is a net win of A/stake - 1 stakes.",
               "A folded hand " + ("keeps" if paid_on_fold else "forfeits")
               + " its jackpot (rule jackpot_paid_on_fold).",
               ),
    )


# --- sections ----------------------------------------------------------------------------------------


def _ak_section(st: Settled) -> Section:
    """The ace-king decisions as a chart: player's third-highest card against the up card's rank."""
    raised, total = st.ak_raised, st.ak_total
    cols = [r for r in range(12, -1, -1) if total[:, r].any()]
    rows_r = [r for r in range(12, -1, -1) if total[r].any()]
    rows: list[tuple[Cell, ...]] = []
    for r in rows_r:
        cells: list[Cell] = [f"AK{RANK_CHARS[r]}"]
        cells += [Fraction(int(raised[r, c]), int(total[r, c])) if total[r, c] else None for c in cols]
        rows.append(tuple(cells))
    ak_total, ak_raised = int(total.sum()), int(raised.sum())
    share = percent_str(Fraction(ak_raised, ak_total or 1), 2)
    return Section(
        "ace_king_chart", "Strategy: ace-king hands",
        (Column("hand", "AK +"), *(Column(f"up_{RANK_CHARS[c]}", RANK_CHARS[c], "share") for c in cols)),
        tuple(rows),
        intro=("Share of ace-king deals raised, by the player's third-highest card (rows) and the dealer's up card "
               "(columns). all and - mean every and no such deal is raised.",),
        notes=(f"Ace-king deals raised: {ak_raised:,} of {ak_total:,} ({share}); folded: {ak_total - ak_raised:,}.",))


def _closest_section(dc: DealerCounts, st: Settled) -> Section:
    rows: list[tuple[Cell, ...]] = []
    for i, ui, ev_gap, raised_it in st.closest:
        hand = cards_str(sorted(dc.reps[i].tolist(), reverse=True))
        rows.append((hand, cards_str([dc.up_cards(i)[ui]]), ev_gap, "raise" if raised_it else "fold"))
    return Section(
        "closest_decisions", "Closest decisions",
        (Column("hand", "Player hand"), Column("up_card", "Up card"),
         Column("raise_minus_fold", "Raise - fold", "decimal", 6), Column("decision", "Decision")),
        tuple(rows),
        intro=("EV of raising minus EV of folding, in antes, for the decisions nearest to a tie; each line stands "
               "for its suit pattern.",))


def _comparison_section(dc: DealerCounts, pays: RaisePays, st: Settled) -> Section:
    rows: list[tuple[Cell, ...]] = []
    for name in STRATEGIES:
        w = main_wager(dc, pays, Settled(name, st.tallies, st.ak_raised, st.ak_total, ()))
        mark = " (this report)" if name == st.strategy else ""
        rows.append((name + mark, w.expected_value, w.house_edge, w.element_of_risk,
                     Fraction(w.extras["raise_frequency"])))
    return Section(
        "strategies_compared", "Named strategies compared",
        (Column("strategy", "Strategy"), Column("expected_value", "Expected value per ante", "decimal", 6),
         Column("house_edge", "House edge", "percent"), Column("element_of_risk", "Element of risk", "percent"),
         Column("raise_frequency", "Raise frequency", "percent", 2)),
        tuple(rows))


def _describe_point(dc: DealerCounts, flat: int) -> str:
    i, ui = divmod(flat, dc.counts.shape[1])
    return f"{cards_str(sorted(dc.reps[i].tolist(), reverse=True))} against up card {cards_str([dc.up_cards(i)[ui]])}"


# --- the game ------------------------------------------------------------------------------------------


class Caribbean:
    """Caribbean Stud Poker: ante, raise or fold against the dealer's hand, and the Jackpot."""

    key: ClassVar[str] = "caribbean"
    title: ClassVar[str] = "Caribbean Stud Poker"
    default_table: ClassVar[str] = "us"
    options: ClassVar[frozenset[str]] = frozenset({"strategy"})
    engine_version: ClassVar[int] = 2
    table_model: ClassVar[type[TableModel]] = CaribbeanTable

    def resolve(self, table: Table, options: RunOptions) -> CaribbeanRules:
        """The table's rules, with ``--strategy`` applied."""
        model = table.model
        assert isinstance(model, CaribbeanTable)
        strategy = options.strategy or model.rules.strategy
        if strategy not in STRATEGIES:
            raise OptionError(f"unknown strategy {strategy!r} for caribbean; one of: {', '.join(STRATEGIES)}")
        return CaribbeanRules(table=table, options=options, strategy=strategy,
                              published_applies=strategy == model.rules.strategy and options.deck is None,
                              deck=options.deck or FULL_DECK, qualifier=model.rules.dealer_qualifier,
                              jackpot_paid_on_fold=model.rules.jackpot_paid_on_fold)

    def count(self, rules: CaribbeanRules, store: Store) -> DealerCounts:
        """The dealer counts of the rules' deck and qualifier, from the store when it has them."""
        progress = Progress(rules.options.progress, "caribbean: counting dealer hands")

        def build() -> dict[str, np.ndarray]:
            dc = dealer_counts_of(rules.deck, rules.qualifier, progress=progress)
            return {"reps": dc.reps, "weights": dc.weights, "counts": dc.counts, "pay_class": dc.pay_class}

        arrays = store.get(count_key(self, rules), build)
        return DealerCounts(rules.deck, arrays["reps"], arrays["weights"], arrays["counts"], arrays["pay_class"])

    def settle(self, counts: DealerCounts, rules: CaribbeanRules) -> Analysis:
        """Every wager, the ace-king chart, the closest decisions and the named strategies compared."""
        dc, model = counts, rules.model
        st = settle_counts(dc, model.pays.main, rules.strategy)
        wagers = [main_wager(dc, model.pays.main, st)]
        if model.pays.jackpot is not None:
            wagers.append(jackpot_wager(dc, model.pays.jackpot, st, rules.jackpot_paid_on_fold))
        sections = () if rules.options.brief else (
            _ak_section(st), _closest_section(dc, st), _comparison_section(dc, model.pays.main, st))
        decisions = Decisions(
            "raise", "raise (else fold), per player hand suit pattern and dealer up card",
            st.decision.ravel() if st.decision is not None else np.zeros(0, dtype=np.bool_),
            np.repeat(dc.weights * dc.holes, dc.counts.shape[1]),
            lambda f: _describe_point(dc, f))
        deck = rules.deck
        return Analysis(
            game=self.key, table=rules.table, rules=rules.shown(), decisions=(decisions,),
            published_applies=rules.published_applies,
            convention=(f"one combination is one deal: the player's five cards (a set), the dealer's up card "
                        f"(ordered) and the dealer's four hole cards (a set): C({deck.size},5) x {deck.size - 5} x "
                        f"C({deck.size - 6},4) = {dc.total:,}"),
            wagers=tuple(wagers), sections=sections, assumptions=tuple(model.assumptions),
        )

    def charts(self, analysis: Analysis, rerun: Callable[[RunOptions], Analysis]) -> tuple[Chart, ...]:
        """The ace-king raising chart as a heat map."""
        try:
            sec = analysis.section("ace_king_chart")
        except KeyError:
            return ()
        cols = tuple(c.title for c in sec.columns[1:])
        cells = tuple(tuple(x if isinstance(x, Fraction) else None for x in r[1:]) for r in sec.rows)
        return (Heatmap("caribbean-ace-king", f"Caribbean Stud ({analysis.table.id}): share of ace-king deals raised",
                        tuple(str(r[0]) for r in sec.rows), cols, cells, "dealer's up card",
                        "player's ace-king hand, by third card"),)
