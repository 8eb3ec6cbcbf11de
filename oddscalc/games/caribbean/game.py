"""Caribbean Stud Poker with the fixed-prize Jackpot side bet.

Counting argument. A deal is the player's five cards (a set), the dealer's up card (one of
the 47 others) and the dealer's four hole cards (a set from the 46 left):
C(52,5) * 47 * C(46,4) = 19,933,230,517,200 equally likely deals (the up card is ordered,
the published convention).

Count (pay-free, stored). For each of the 134,459 suit classes of player hands (with their
weights) and each of the 47 up cards, the dealer hands that do not qualify, lose to the player
or tie, by inclusion and exclusion over the player's cards, in one sweep over the dealer's hands
in ascending strength (``dealer_sweep``). Then, per hand, the up cards sorted by the pay above
which raising beats folding (``raise_table``). None of it depends on the pays: one count serves
every pay table and strategy.

Settle (per pay table). Raising is worth (nq + win * (1 + 2 * pay) - 3 * lose) / C(46,4) antes
against -1 for folding; the optimal strategy raises exactly when that is larger (an exact tie
folds: the same EV at a lower stake). With the up cards sorted by that threshold, a pay table's
optimal decisions are a prefix of each hand's up cards, decided exactly, for any pay.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from pydantic import field_validator

from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, RANK_CHARS, Deck, cards_str, parse_rank
from oddscalc.exact import percent_str
from oddscalc.files import is_path
from oddscalc.games.caribbean import raise_table
from oddscalc.games.caribbean.raise_table import AK, FIXED, N_PAY, STRATEGIES, RaiseTable, fixed_decisions
from oddscalc.games.progressive import StakedPrizes, progressive
from oddscalc.games.progressive import section as progressive_section
from oddscalc.hands import BINOM, HAND_CLASSES, HandClass, hand_table
from oddscalc.keys import DEFAULT_TABLES
from oddscalc.progress import Progress
from oddscalc.protocol import OptionError, Rules, count_key
from oddscalc.results import Analysis, Cell, Chart, Column, Decisions, Heatmap, Row, RunOptions, Section, WagerResult
from oddscalc.symmetry import suit_classes
from oddscalc.tables import (
    HandPays,
    Odds,
    Prize,
    Ratio,
    Strict,
    Table,
    TableModel,
    money_text,
    prize_units,
    ratio_text,
)
from oddscalc.verify import named_sections

if TYPE_CHECKING:
    from oddscalc.games.caribbean.card import Card

RAISE_TABLE_ARRAYS = ("reps", "weights", "pay_class", "keys", "perm", "prefix", "fixed_tally", "fixed_ak", "ak_total",
                      "shortlist")
OTHER_HIGH = 10

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


class JackpotPays(StakedPrizes):
    """Prizes paid on the player's own five cards: amounts (2500, "0.50"; the stake is kept), odds ("50:1";
    the stake comes back) or shares of a progressive meter ("100% meter", with a ``meter`` block)."""

    royal_flush: Prize
    straight_flush: Prize | None = None
    four_of_a_kind: Prize | None = None
    full_house: Prize | None = None
    flush: Prize | None = None


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
    card: Card | None = None  # a strategy card file played instead of a named strategy

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
        strategy = self.strategy if self.card is None else (
            f"card {self.card.path.name}: {self.card.model.title} (sha256 {self.card.sha256[:12]})")
        return {"deck": self.deck.describe(), "dealer_qualifier": self.qualifier, "raise": "2 antes",
                "strategy": strategy, "jackpot_paid_on_fold": self.jackpot_paid_on_fold}


# --- count: dealer hands per (player-hand suit class, up card) -------------------------------------


N_CLOSE = 10  # closest decisions reported
STRATEGY_TITLES = {  # each named strategy in words, beside its id in the report
    "optimal": "optimal: raise exactly when raising's EV beats folding's",
    "raise-pair-plus": "raise a pair or better",
    "raise-ak-plus": "raise ace-king or better",
    "always-raise": "always raise",
    "rules-of-thumb": "rules of thumb: a pair or better; ace-king by the up card and the queens and jacks held",
    "ace-king-jack-8-3": "raise a pair or better, and any other hand at or above A-K-J-8-3",
    "matching-rank": "raise a pair or better; ace-king when a card matches the up card's rank",
}
LOSE = "lose"  # the event id of a row that wins nothing (the public vocabulary, DESIGN.md)
CARD = "card"  # the strategy name of a strategy card file


@dataclass(frozen=True)
class DealerCounts:
    """For each player-hand suit class and up card, the dealer-hand counts (pay-free)."""

    deck: Deck
    reps: np.ndarray  # (m, 5) int8 card ids
    weights: np.ndarray  # (m,) int64
    counts: np.ndarray  # (m, n-5, 3) int32: not qualifying, player wins, push; up cards ascending
    pay_class: np.ndarray  # (m,) int8: 0..8 royal flush..pair, 9 ace-king, 10 other high card

    def table(self) -> RaiseTable:
        """The counts in the form settling wants."""
        return raise_table.build(self.deck, self.reps, self.weights, self.pay_class, self.counts)


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


def dealer_counts_of(deck: Deck, qualifier: str, symmetry: bool = True, progress: Progress | None = None,
                     method: str = "sweep") -> DealerCounts:
    """Count over the suit classes of player hands (or, with ``symmetry=False``, every hand), unstored.

    ``method`` "sweep" visits the dealer hands once in ascending strength (``dealer_sweep``);
    "search" is the earlier binary-search kernel (``dealer_counts``), kept as the second method.
    """
    if symmetry:
        reps, weights = suit_classes(5, deck)
    else:
        reps, weights = hand_table(deck).combos, np.ones(math.comb(deck.size, 5), dtype=np.int64)
    if method == "sweep":
        from oddscalc.games.caribbean import dealer_sweep as kernel
    else:
        from oddscalc.games.caribbean import dealer_counts as kernel  # type: ignore[no-redef]
    counts = kernel.count_all(deck, qualifier_strength(deck, qualifier), np.asarray(reps),
                              progress or Progress(False, ""))
    return DealerCounts(deck, np.asarray(reps), np.asarray(weights), counts, _pay_classes(deck, np.asarray(reps)))


# --- settle: a pay table under every named strategy at once ---------------------------------------


@dataclass(frozen=True)
class Settled:
    """One pay table settled: tallies of every named strategy, the chosen strategy's charts."""

    strategy: str
    tallies: dict[str, np.ndarray]  # strategy -> (N_PAY, 5)
    ak_raised: np.ndarray  # (13, 13) by [third-highest rank, up-card rank], chosen strategy
    ak_total: np.ndarray
    closest: tuple[tuple[int, int, Fraction, bool], ...]  # (row, up-card slot, raise - fold EV, raised)
    decision: Callable[[], np.ndarray] | None = None  # (m, n-5) bool by sorted position: raise (chosen strategy)
    card_cost: Section | None = None  # a strategy card's cost against optimal, rule by rule

    @property
    def tally(self) -> np.ndarray:
        """The chosen strategy's tally."""
        return self.tallies[self.strategy]


def pay_list(pays: RaisePays) -> list[Fraction]:
    """The raise pay of each pay class (ace-king and other high card share high_card)."""
    return [getattr(pays, c.value) for c in HAND_CLASSES[:9]] + [pays.high_card, pays.high_card, Fraction(0)]


def settle_counts(rt: RaiseTable, pays: RaisePays, strategy: str = "optimal", closest: bool = True,
                  card: Card | None = None) -> Settled:
    """Settle one pay table under every named strategy, and the card when given (``strategy`` picks the
    charts and decisions: a name, or CARD)."""
    if strategy not in STRATEGIES and not (strategy == CARD and card is not None):
        raise OptionError(f"unknown strategy {strategy!r} for caribbean; one of: {', '.join(STRATEGIES)}")
    by_class = pay_list(pays)
    opt = raise_table.optimal(rt, by_class)
    nu = rt.keys.shape[1]
    tallies = {"optimal": opt.tally, **{name: rt.fixed_tally[i] for i, name in enumerate(FIXED)}}
    from oddscalc.games.caribbean import card as raise_card  # only a card run needs it

    played = raise_card.play(card, rt) if card is not None else None
    if played is not None:
        tallies[CARD] = raise_card.tally(rt, played.raised, N_PAY)

    def by_slot(rows: slice) -> np.ndarray:  # (rows, nu) bool by up-card slot, for a fixed strategy or the card
        if played is not None:
            return played.raised[rows]
        ups = raise_table.up_cards(rt.deck, rt.reps[rows])
        return fixed_decisions(strategy, rt.pay_class[rows], rt.reps[rows], ups)

    def decision() -> np.ndarray:  # by (hand, sorted position): the same points for every pay table
        if strategy == "optimal":
            return opt.sorted_raised(nu)
        return np.take_along_axis(by_slot(slice(None)), rt.perm.astype(np.int64), axis=1)

    if strategy == "optimal":
        ak_raised = raise_table.ak_chart(rt, opt)
    elif played is not None:
        ak_raised = raise_card.ak_chart(rt, played.raised)
    else:
        ak_raised = rt.fixed_ak[FIXED.index(strategy)]
    nearest = _closest(rt, by_class, strategy, by_slot) if closest else ()
    cost = None
    if played is not None and card is not None and closest:
        section, whole = raise_card.cost_section(card, rt, played, opt.sorted_raised(nu), by_class)
        cost = section
        gap = _ev(rt, pays, opt.tally) - _ev(rt, pays, tallies[CARD])
        if whole != gap:
            raise AssertionError(f"the card's cost by rule {whole} does not add up to optimal minus card {gap}")
    return Settled(strategy, tallies, ak_raised, rt.ak_total, nearest, decision, cost)


def _ev(rt: RaiseTable, pays: RaisePays, tally: np.ndarray) -> Fraction:
    p = pay_list(pays)
    t = [[int(x) for x in row] for row in tally.tolist()]
    units = sum(-r[0] + r[1] + r[2] * (1 + 2 * p[k]) - 3 * r[4] for k, r in enumerate(t))
    return Fraction(units, rt.total)


def _closest(rt: RaiseTable, by_class: list[Fraction], strategy: str,
             by_slot: Callable[[slice], np.ndarray]) -> tuple[tuple[int, int, Fraction, bool], ...]:
    """The N_CLOSE decisions with the smallest |raise EV - fold EV|, with the chosen strategy's decision."""
    out = []
    for i, ui, gap in raise_table.closest(rt, by_class, N_CLOSE):
        raised = gap > 0 if strategy == "optimal" else bool(by_slot(slice(i, i + 1))[0, ui])
        out.append((i, ui, gap, raised))
    return tuple(out)


# --- the wagers ---------------------------------------------------------------------------------

UNSEEN_NOTE = ("Cards dealt to other seats and never seen change no expected value: to the player they are like the "
               "cards left in the deck; only cards seen do")
WIN_LABELS = [c.label for c in HAND_CLASSES[:9]] + ["Ace-king", "Other high card"]
WIN_EVENTS = [c.value for c in HAND_CLASSES[:9]] + ["ace_king", "other_high_card"]


def main_wager(dc: RaiseTable, pays: RaisePays, st: Settled) -> WagerResult:
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
    rows.append(Row(LOSE, "Dealer wins", "", Fraction(-3), sum(t[k][4] for k in range(N_PAY)), Fraction(3)))
    raised = dc.total - rows[-2].combinations
    return WagerResult(
        wager="main", title="Caribbean Stud (ante and raise)", strategy=st.strategy,
        total_combinations=dc.total, rows=tuple(rows), unit="ante", stake_varies=True,
        extras={"raise_frequency": Fraction(raised, dc.total),
                "win_pair_or_ace_king": rows[8].combinations + rows[9].combinations,
                "ace_king_deals": int(st.ak_total.sum()), "ace_king_deals_raised": int(st.ak_raised.sum())},
        notes=("Units are net antes won: a win pays the ante 1:1 and the raise (2 antes) at the table's odds; "
               "an exact tie between raising and folding folds (same EV, lower stake).",
               UNSEEN_NOTE + " (oddscalc flash: the dealer's cards seen).",),
    )


def jackpot_wager(dc: RaiseTable, jp: JackpotPays, st: Settled, paid_on_fold: bool) -> WagerResult:
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
            n = int(per_class_total[code]) * dc.keys.shape[1] * dc.holes
        else:
            n = sum(int(x) for x in st.tally[code, 1:])
        won += n
        text, units, coef = prize_units(amount, jp.stake, jp.meter.shown if jp.meter else None)
        rows.append(Row(c.value, c.label, text, units, n, pay_ref=f"jackpot.{c.value}", pay_coef=coef))
    no_prize = "No prize" + ("" if paid_on_fold else " (or folded)")
    rows.append(Row(LOSE, no_prize, "", Fraction(-1), dc.total - won))
    kind = "progressive" if jp.meter is not None else "fixed prizes"
    return WagerResult(
        wager="jackpot", title=f"Jackpot ({kind}, stake {money_text(jp.stake)})", strategy=st.strategy,
        total_combinations=dc.total, rows=tuple(rows), unit=f"stake of {money_text(jp.stake)}",
        notes=(*_prize_notes(jp), "A folded hand " + ("keeps" if paid_on_fold else "forfeits")
               + " its jackpot (rule jackpot_paid_on_fold)."),
    )


_OUTCOME_EVENTS = ("fold", "dealer_not_qualified", None, "push", LOSE)  # tally columns; None: a win


def joint_main_jackpot(st: Settled, jp: JackpotPays, paid_on_fold: bool) -> dict[tuple[str, str], int]:
    """Deals by (main event, jackpot event): both wagers settle on the same player hand."""
    out: dict[tuple[str, str], int] = {}
    for k in range(st.tally.shape[0]):
        prize = getattr(jp, HAND_CLASSES[k].value) if k < 5 else None
        for o, event in enumerate(_OUTCOME_EVENTS):
            n = int(st.tally[k, o])
            if not n:
                continue
            main_event = event or f"win_{WIN_EVENTS[k]}"
            jp_event = HAND_CLASSES[k].value if prize is not None and (paid_on_fold or o != 0) else LOSE
            out[(main_event, jp_event)] = out.get((main_event, jp_event), 0) + n
    return out


def _prize_notes(jp: JackpotPays) -> tuple[str, ...]:
    prizes = [getattr(jp, c.value) for c in HAND_CLASSES[:5] if getattr(jp, c.value) is not None]
    notes = []
    if any(not isinstance(p, Odds) for p in prizes):
        notes.append("Prizes stated as amounts are paid on the player's own five cards and the stake is kept by "
                     "the house, so a prize of A is a net win of A/stake - 1 stakes.")
    if any(isinstance(p, Odds) for p in prizes):
        notes.append("Prizes stated as odds (a:b) pay a/b stakes on the player's own five cards and return the "
                     "stake.")
    if jp.meter is not None:
        notes.append("A share of the meter is paid as an amount; the rows are settled at the meter of "
                     f"{money_text(jp.meter.shown)} (see the progressive meter section for every meter).")
    return tuple(notes)


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


def _closest_section(dc: RaiseTable, st: Settled) -> Section:
    rows: list[tuple[Cell, ...]] = []
    for i, ui, ev_gap, raised_it in st.closest:
        hand = cards_str(sorted(dc.reps[i].tolist(), reverse=True))
        up = raise_table.up_cards(dc.deck, dc.reps[i:i + 1])[0, ui]
        rows.append((hand, cards_str([int(up)]), ev_gap, "raise" if raised_it else "fold"))
    return Section(
        "closest_decisions", "Closest decisions",
        (Column("hand", "Player hand"), Column("up_card", "Up card"),
         Column("raise_minus_fold", "Raise - fold", "decimal", 6), Column("decision", "Decision")),
        tuple(rows),
        intro=("EV of raising minus EV of folding, in antes, for the decisions nearest to a tie; each line stands "
               "for its suit pattern.",))


def _comparison_section(dc: RaiseTable, pays: RaisePays, st: Settled, card: Card | None) -> Section:
    rows: list[tuple[Cell, ...]] = []
    for name in (*STRATEGIES, *([CARD] if CARD in st.tallies else [])):
        w = main_wager(dc, pays, Settled(name, st.tallies, st.ak_raised, st.ak_total, ()))
        loss = -w.expected_value * w.total_combinations  # antes lost over every deal; whole for whole pays
        shown = f"card {card.path.name}" if name == CARD and card is not None else name
        rows.append((shown, "yes" if name == st.strategy else "", w.expected_value,
                     int(loss) if loss.denominator == 1 else loss, w.house_edge,
                     w.element_of_risk, Fraction(w.extras["raise_frequency"])))
    return Section(
        "strategies_compared", "Named strategies compared",
        (Column("strategy", "Strategy"), Column("this_report", "This report"),
         Column("expected_value", "Expected value per ante", "decimal", 6),
         Column("total_loss", "Antes lost over every deal", "int"),
         Column("house_edge", "House edge", "percent"), Column("element_of_risk", "Element of risk", "percent"),
         Column("raise_frequency", "Raise frequency", "percent", 2)),
        tuple(rows),
        intro=("Every named strategy played on this table's pays. The optimal one reads the pays; the others "
               "do not (see the strategy option).",))


def _describe_point(dc: RaiseTable, flat: int) -> str:
    i, j = divmod(flat, dc.keys.shape[1])
    up = int(raise_table.up_cards(dc.deck, dc.reps[i:i + 1])[0, int(dc.perm[i, j])])
    return f"{cards_str(sorted(dc.reps[i].tolist(), reverse=True))} against up card {cards_str([up])}"


# --- the game ------------------------------------------------------------------------------------------


class Caribbean:
    """Caribbean Stud Poker: ante, raise or fold against the dealer's hand, and the Jackpot."""

    key: ClassVar[str] = "caribbean"
    title: ClassVar[str] = "Caribbean Stud Poker"
    default_table: ClassVar[str] = DEFAULT_TABLES["caribbean"]
    options: ClassVar[frozenset[str]] = frozenset({"strategy"})
    engine_version: ClassVar[int] = 5  # 3: the stored raise table; 4: its shortlist; 5: six pay-free strategies
    table_model: ClassVar[type[TableModel]] = CaribbeanTable

    def resolve(self, table: Table, options: RunOptions) -> CaribbeanRules:
        """The table's rules, with ``--strategy`` applied."""
        model = table.model
        assert isinstance(model, CaribbeanTable)
        strategy = options.strategy or model.rules.strategy
        card = None
        if is_path(strategy):
            from oddscalc.games.caribbean.card import load_card

            card = load_card(Path(strategy))
        elif strategy not in STRATEGIES:
            raise OptionError(f"unknown strategy {strategy!r} for caribbean; one of: {', '.join(STRATEGIES)}, "
                              "or a strategy card file (a path)")
        return CaribbeanRules(table=table, options=options, strategy=CARD if card else strategy,
                              published_applies=strategy == model.rules.strategy and options.deck is None,
                              deck=options.deck or FULL_DECK, qualifier=model.rules.dealer_qualifier,
                              jackpot_paid_on_fold=model.rules.jackpot_paid_on_fold, card=card)

    def count(self, rules: CaribbeanRules, store: Store) -> RaiseTable:
        """The raise table of the rules' deck and qualifier, from the store when it has them."""
        progress = Progress(rules.options.progress, "caribbean: counting dealer hands")

        def build() -> dict[str, np.ndarray]:
            rt = dealer_counts_of(rules.deck, rules.qualifier, progress=progress).table()
            return {name: getattr(rt, name) for name in RAISE_TABLE_ARRAYS}

        arrays = store.get(count_key(self, rules), build)
        return RaiseTable(rules.deck, **{name: arrays[name] for name in RAISE_TABLE_ARRAYS})

    def settle(self, counts: RaiseTable, rules: CaribbeanRules) -> Analysis:
        """Every wager, the ace-king chart, the closest decisions and the named strategies compared."""
        dc, model = counts, rules.model
        st = settle_counts(dc, model.pays.main, rules.strategy, closest=not rules.options.brief, card=rules.card)
        wagers = [main_wager(dc, model.pays.main, st)]
        meter_sections: list[Section] = []
        if model.pays.jackpot is not None:
            jp = model.pays.jackpot
            wagers.append(jackpot_wager(dc, jp, st, rules.jackpot_paid_on_fold))
        # the strategy as an id (a name, or the card's file name without .toml) and in words beside it
        sid = rules.strategy if rules.card is None else rules.card.path.stem
        title = STRATEGY_TITLES.get(sid, sid) if rules.card is None else str(rules.shown()["strategy"])
        wagers = [dataclasses.replace(w, strategy=sid, strategy_title=title) for w in wagers]
        jackpot = model.pays.jackpot
        if jackpot is not None and jackpot.meter is not None:
            meter_sections.append(progressive_section(progressive(wagers[-1], jackpot.meter_shares(), jackpot.stake,
                                                                  jackpot.meter)))
        compared = _comparison_section(dc, model.pays.main, st, rules.card)
        if not rules.options.brief:
            sections: tuple[Section, ...] = (_ak_section(st), _closest_section(dc, st), compared,
                                              *([st.card_cost] if st.card_cost is not None else []))
        elif "strategies_compared" in named_sections(rules.table):  # for verify
            sections = (compared,)
        else:
            sections = ()
        sections = (*sections, *meter_sections)
        decide = st.decision
        decisions = Decisions(
            "raise", "raise (else fold), per player hand suit pattern and dealer up card (in raise-key order)",
            (lambda: decide().ravel()) if decide is not None else np.zeros(0, dtype=np.bool_),
            lambda: dc.point_weights,
            lambda f: _describe_point(dc, f))
        deck = rules.deck
        return Analysis(
            game=self.key, table=rules.table, rules=rules.shown(), decisions=(decisions,),
            published_applies=rules.published_applies,
            convention=(f"one combination is one deal: the player's five cards (a set), the dealer's up card "
                        f"(ordered) and the dealer's four hole cards (a set): C({deck.size},5) x {deck.size - 5} x "
                        f"C({deck.size - 6},4) = {dc.total:,}"),
            wagers=tuple(wagers), sections=sections, assumptions=tuple(model.assumptions),
            joint={} if model.pays.jackpot is None else {
                ("main", "jackpot"): joint_main_jackpot(st, model.pays.jackpot, rules.jackpot_paid_on_fold)},
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
