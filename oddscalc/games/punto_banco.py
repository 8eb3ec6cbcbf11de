"""Punto banco: players bet on punto (player), banca (banker) or a tie; nobody makes a choice.

Rules. Cards are dealt punto, banca, punto, banca. A two-card 8 or 9 on either side is a natural
and both hands stand. Otherwise punto draws one card on the totals the table lists (standard: 0-5)
and stands on the others. If punto drew, banca consults the tableau, an 8 x 10 grid of banca's
total (0-7) by punto's third card (0-9); if punto stood, banca draws on the totals the table lists
(standard: 0-5). Higher final total wins; equal totals tie. All of this is data in the table file.

Counting argument. A coup is decided by at most six cards. Every coup is counted as an ordered
sequence of the first six cards of the shoe, the published convention, so the total is
``size P 6`` (8 decks: 416P6 = 4,998,398,275,503,360). Baccarat reads point values only, so the
10**6 ordered value sequences are played once with numpy (no pays, no shoe): for each multiset of
six values and each outcome (punto total and card count, banca total and card count) the number of
value orderings. Multiplying by each multiset's falling product of value counts (see ``shoe``)
and summing gives the exact number of card sequences of every outcome, for any number of decks.
Pays then settle every wager from these 400 counts. The pair bets read ranks (a 10 and a king are
no pair): ``(ordered same-rank pairs) x (size - 2) P 4``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated, Any, ClassVar

import numpy as np
from pydantic import BeforeValidator, Field, PlainSerializer

from ..cache import Store
from ..exact import decimal_str, frac_str, parse_fraction, percent_str
from ..keys import DEFAULT_TABLES
from ..protocol import OptionError, Rules, count_key
from ..results import Analysis, Chart, Lines, Row, RunOptions, Section, WagerResult
from ..tables import Ratio, Strict, Table, TableModel, ratio_text
from .shoe import (
    STANDARD_TABLEAU,
    VALUES,
    Multisets,
    Shoe,
    Tableau,
    Totals,
    WinPay,
    exact_dot,
    falling,
    multiset_keys,
    tableau_array,
    tableau_section,
    totals_mask,
)


def parse_percent(value: Any) -> Fraction:
    """A commission written as a percentage string: "5%", "2.5%", "0%"."""
    if not isinstance(value, str) or not value.strip().endswith("%"):
        raise ValueError(f'write the commission as a percentage string such as "5%", not {value!r}')
    try:
        v = parse_fraction(value)
    except ValueError:
        raise ValueError(f"bad percentage {value!r}") from None
    if not 0 <= v < 1:
        raise ValueError(f"a commission is from 0% to below 100%, got {value!r}")
    return v


def percent_text(x: Fraction) -> str:
    """A commission as a table writes it: "5%"."""
    text = decimal_str(x * 100, 6).rstrip("0").rstrip(".")
    return f"{text}%"


Percent = Annotated[Fraction, BeforeValidator(parse_percent), PlainSerializer(percent_text)]


class BankerPay(Strict):
    """The banker bet: its pay, the commission, and the house variants' banker rules."""

    win: Ratio
    commission: Percent = Fraction(1, 20)  # taken from every banker win
    win_with_6: Ratio | None = None  # Super 6: a banker win with a total of 6 pays this instead
    three_card_7_pushes: bool = False  # EZ baccarat: a banker win with a three-card 7 is a push


class PuntoBancoPays(Strict):
    """The ``[pays]`` of a punto banco table."""

    player: WinPay
    banker: BankerPay
    tie: WinPay
    player_pair: WinPay | None = None
    banker_pair: WinPay | None = None
    dragon_7: WinPay | None = None  # banker wins with a three-card 7
    panda_8: WinPay | None = None  # player wins with a three-card 8


class TableRules(Strict):
    """The ``[rules]`` of a punto banco table: the shoe and the drawing rules."""

    decks: int = Field(8, ge=1)
    punto_draws_on: Totals = (0, 1, 2, 3, 4, 5)
    banca_tableau: Tableau = STANDARD_TABLEAU
    banca_draws_when_punto_stands: Totals = (0, 1, 2, 3, 4, 5)


class PuntoBancoTable(TableModel):
    """A punto banco table file."""

    rules: TableRules
    pays: PuntoBancoPays

    GAME: ClassVar[str] = "punto-banco"


@dataclass(frozen=True)
class PuntoBancoRules(Rules):
    """A punto banco table resolved for a run."""

    decks: int
    drawing: TableRules

    @property
    def model(self) -> PuntoBancoTable:
        """The table file's model."""
        model = self.table.model
        assert isinstance(model, PuntoBancoTable)
        return model

    @property
    def shoe(self) -> Shoe:
        """The shoe of ``decks`` standard decks."""
        return Shoe.of_decks(self.decks)

    def count_key(self) -> dict[str, Any]:
        """The shoe and the drawing rules."""
        r = self.drawing
        return {"shoe": list(self.shoe.counts), "pairs": list(self.shoe.same_rank_pairs),
                "punto_draws_on": list(r.punto_draws_on), "banca_tableau": list(r.banca_tableau),
                "banca_draws_when_punto_stands": list(r.banca_draws_when_punto_stands)}

    def shown(self) -> dict[str, Any]:
        """The rules as the report states them."""
        r = self.drawing
        return {"decks": self.decks, "punto_draws_on": list(r.punto_draws_on),
                "banca_draws_when_punto_stands": list(r.banca_draws_when_punto_stands),
                "banca_tableau": list(r.banca_tableau)}


# --- stage 1: count the coups (no pays) --------------------------------------------------

Outcome = tuple[int, int, int, int]  # (punto total, punto cards, banca total, banca cards)
_OUTCOMES = 400  # 10 totals x 2 card counts, for each side


@cache
def _outcome_orderings(punto_draws_on: tuple[int, ...], tableau: tuple[str, ...],
                       banca_when_punto_stands: tuple[int, ...]) -> np.ndarray:
    """(5005, 400) int64: value orderings of each six-value multiset that end in each outcome.

    A side's two cards count in either order, so each unordered pair of values is played once
    with weight 2 (1 for a pair of equal values): 55 x 55 x 100 sequences instead of 10**6.
    """
    first, second = np.triu_indices(VALUES)
    twice = np.where(first == second, 1, 2)
    shape = (len(first), len(first), VALUES, VALUES)
    pi, bi, x, y = np.ix_(np.arange(len(first)), np.arange(len(first)), np.arange(VALUES), np.arange(VALUES))
    p1, p2, b1, b2 = first[pi], second[pi], first[bi], second[bi]  # x is the fifth card dealt, y the sixth
    pt0 = (p1 + p2) % 10
    bt0 = (b1 + b2) % 10
    natural = (pt0 >= 8) | (bt0 >= 8)
    pdraw = ~natural & totals_mask(punto_draws_on)[pt0]
    bdraw = ~natural & np.where(pdraw, tableau_array(tableau)[bt0, x], totals_mask(banca_when_punto_stands)[bt0])
    b3 = np.where(pdraw, y, x)  # banca takes the fifth card when punto stood
    pt = (pt0 + x * pdraw) % 10
    bt = (bt0 + b3 * bdraw) % 10
    outcome = ((pt * 2 + pdraw) * 10 + bt) * 2 + bdraw
    ms = Multisets.of_size(6)
    idx = ms.index(np.broadcast_to(multiset_keys((p1, p2, b1, b2, x, y)), shape))
    cells = np.broadcast_to(idx * _OUTCOMES + outcome, shape).ravel()
    ways = np.broadcast_to(twice[pi] * twice[bi], shape).ravel()
    counts = np.bincount(cells, weights=ways, minlength=len(ms) * _OUTCOMES)  # at most 10**6: exact
    return counts.astype(np.int64).reshape(len(ms), _OUTCOMES)


@dataclass(frozen=True)
class Coups:
    """Every coup of one shoe, counted as ordered six-card sequences."""

    shoe: Shoe
    total: int
    outcomes: Mapping[Outcome, int]  # only outcomes that happen
    pair_sequences: int  # six-card sequences whose first two cards of one side are a pair

    def count(self, pred: Any) -> int:
        """Coups whose (punto total, cards, banca total, cards) satisfy ``pred``."""
        return sum(n for o, n in self.outcomes.items() if pred(*o))


def count_coups(shoe: Shoe, rules: TableRules) -> Coups:
    """Stage 1 for a shoe: exact counts of every (punto, banca) final hand."""
    orderings = _outcome_orderings(rules.punto_draws_on, rules.banca_tableau, rules.banca_draws_when_punto_stands)
    counts = exact_dot(Multisets.of_size(6).weights(shoe), orderings)
    return _coups(shoe, counts, shoe.pair_sequences * falling(shoe.size - 2, 4))


def _coups(shoe: Shoe, counts: np.ndarray, pair_sequences: int) -> Coups:
    """Coups from the 400 outcome counts (index ((pt * 2 + punto drew) * 10 + bt) * 2 + banca drew)."""
    outcomes: dict[Outcome, int] = {}
    for k, n in enumerate(counts):
        if n:
            rest, bn = divmod(k, 2)
            rest, bt = divmod(rest, 10)
            pt, pn = divmod(rest, 2)
            outcomes[(pt, pn + 2, bt, bn + 2)] = int(n)
    total = shoe.ordered(6)
    if sum(outcomes.values()) != total:
        raise AssertionError("outcome counts do not add up to the ordered six-card total")
    return Coups(shoe, total, outcomes, pair_sequences)


# --- stage 2: settle the wagers ------------------------------------------------------------


def _banker_wins(pt: int, pn: int, bt: int, bn: int) -> bool:
    return bt > pt


def _player_wins(pt: int, pn: int, bt: int, bn: int) -> bool:
    return pt > bt


def _tie(pt: int, pn: int, bt: int, bn: int) -> bool:
    return pt == bt


def settle(coups: Coups, pays: PuntoBancoPays) -> tuple[WagerResult, ...]:
    """Every wager on the layout, exactly, from the outcome counts."""
    c = coups
    total = c.total
    banker_wins = c.count(_banker_wins)
    player_wins = c.count(_player_wins)
    ties = c.count(_tie)
    strategy = "none (the drawing rules decide)"
    push = Fraction(0)
    lose = Fraction(-1)

    # banker
    bp = pays.banker
    keep = 1 - bp.commission
    pay_text = ratio_text(bp.win) + (f" less {percent_text(bp.commission)}" if bp.commission else "")
    three_card_7 = c.count(lambda pt, pn, bt, bn: bt > pt and bt == 7 and bn == 3) if bp.three_card_7_pushes else 0
    with_6 = c.count(lambda pt, pn, bt, bn: bt > pt and bt == 6) if bp.win_with_6 is not None else 0
    rows = [Row("banker_wins", "Banker wins" + (" (every other hand)" if with_6 or three_card_7 else ""),
                pay_text, bp.win * keep, banker_wins - three_card_7 - with_6, pay_ref="banker.win", pay_coef=keep)]
    if bp.win_with_6 is not None:
        six_text = ratio_text(bp.win_with_6) + (f" less {percent_text(bp.commission)}" if bp.commission else "")
        rows.append(Row("banker_wins_with_6", "Banker wins with 6", six_text, bp.win_with_6 * keep, with_6,
                        pay_ref="banker.win_with_6", pay_coef=keep))
    if bp.three_card_7_pushes:
        rows.append(Row("banker_wins_three_card_7", "Banker wins with a three-card 7", "push", push, three_card_7))
    rows += [Row("tie", "Tie", "push", push, ties), Row("player_wins", "Player wins", "", lose, player_wins)]
    notes = ["Banker and player bets push on a tie."]
    if bp.commission:
        notes.append(f"A winning banker bet pays {ratio_text(bp.win)} less {percent_text(bp.commission)} commission.")
    nat = {f"banker_natural_{t}": c.count(lambda pt, pn, bt, bn, t=t: bt == t and bn == 2) for t in (8, 9)}
    wagers = [WagerResult("banker", "Banker (banca)", strategy, total, tuple(rows), "unit staked",
                          extras=nat, notes=tuple(notes))]

    nat = {f"player_natural_{t}": c.count(lambda pt, pn, bt, bn, t=t: pt == t and pn == 2) for t in (8, 9)}
    wagers.append(WagerResult("player", "Player (punto)", strategy, total, (
        Row("player_wins", "Player wins", ratio_text(pays.player.win), pays.player.win, player_wins,
            pay_ref="player.win", pay_coef=Fraction(1)),
        Row("tie", "Tie", "push", push, ties),
        Row("banker_wins", "Banker wins", "", lose, banker_wins),
    ), "unit staked", extras=nat))

    wagers.append(WagerResult("tie", "Tie", strategy, total, (
        Row("tie", "Tie", ratio_text(pays.tie.win), pays.tie.win, ties, pay_ref="tie.win", pay_coef=Fraction(1)),
        Row("banker_wins", "Banker wins", "", lose, banker_wins),
        Row("player_wins", "Player wins", "", lose, player_wins),
    ), "unit staked"))

    for side, pay in (("player", pays.player_pair), ("banker", pays.banker_pair)):
        if pay is not None:
            wagers.append(WagerResult(f"{side}_pair", f"{side.capitalize()} pair", strategy, total, (
                Row(f"{side}_pair", f"{side.capitalize()}'s first two cards are a pair (same rank)",
                    ratio_text(pay.win), pay.win, c.pair_sequences, pay_ref=f"{side}_pair.win", pay_coef=Fraction(1)),
                Row(f"no_{side}_pair", "No pair", "", lose, total - c.pair_sequences),
            ), "unit staked", notes=("A pair is two cards of the same rank: a 10 and a king are no pair.",)))

    if pays.dragon_7 is not None:
        n = c.count(lambda pt, pn, bt, bn: bt > pt and bt == 7 and bn == 3)
        wagers.append(WagerResult("dragon_7", "Dragon 7", strategy, total, (
            Row("dragon_7", "Banker wins with a three-card 7", ratio_text(pays.dragon_7.win), pays.dragon_7.win, n,
                pay_ref="dragon_7.win", pay_coef=Fraction(1)),
            Row("no_dragon_7", "Anything else", "", lose, total - n),
        ), "unit staked"))
    if pays.panda_8 is not None:
        n = c.count(lambda pt, pn, bt, bn: pt > bt and pt == 8 and pn == 3)
        wagers.append(WagerResult("panda_8", "Panda 8", strategy, total, (
            Row("panda_8", "Player wins with a three-card 8", ratio_text(pays.panda_8.win), pays.panda_8.win, n,
                pay_ref="panda_8.win", pay_coef=Fraction(1)),
            Row("no_panda_8", "Anything else", "", lose, total - n),
        ), "unit staked"))
    return tuple(wagers)


# --- the game ---------------------------------------------------------------------------------


def _drawing_section(rules: TableRules) -> Section:
    stood = ("When punto stood, banca stands whatever its total." if not rules.banca_draws_when_punto_stands else
             f"When punto stood, banca draws on {_totals_text(rules.banca_draws_when_punto_stands)}.")
    return tableau_section(
        "drawing_rules", "Drawing rules", rules.banca_tableau, "Banca total", "punto's third card",
        intro=("A two-card 8 or 9 on either side is a natural: both hands stand.",
               f"Punto draws on {_totals_text(rules.punto_draws_on)} and stands otherwise.", stood,
               "When punto drew, banca follows the tableau (banca's total down, punto's third card across):"))


def _totals_text(totals: tuple[int, ...]) -> str:
    return ", ".join(str(t) for t in totals) if totals else "no total (never draws)"


class PuntoBanco:
    """Punto banco: bets on punto, banca or a tie, and the side bets; nobody makes a choice."""

    key: ClassVar[str] = "punto-banco"
    title: ClassVar[str] = "Punto banco"
    default_table: ClassVar[str] = DEFAULT_TABLES["punto-banco"]
    options: ClassVar[frozenset[str]] = frozenset({"decks"})
    engine_version: ClassVar[int] = 1
    table_model: ClassVar[type[TableModel]] = PuntoBancoTable

    def resolve(self, table: Table, options: RunOptions) -> PuntoBancoRules:
        """The table's rules, with ``--decks`` applied."""
        model = table.model
        assert isinstance(model, PuntoBancoTable)
        decks = options.decks if options.decks is not None else model.rules.decks
        if decks < 1:
            raise OptionError("--decks must be at least 1")
        return PuntoBancoRules(table=table, options=options, strategy="none",
                               published_applies=decks == model.rules.decks, decks=decks, drawing=model.rules)

    def count(self, rules: PuntoBancoRules, store: Store) -> Coups:
        """Every coup of the shoe by final hands, from the store when it has them."""
        def build() -> dict[str, np.ndarray]:
            shoe, r = rules.shoe, rules.drawing
            orderings = _outcome_orderings(r.punto_draws_on, r.banca_tableau, r.banca_draws_when_punto_stands)
            pairs = shoe.pair_sequences * falling(shoe.size - 2, 4)
            return {"outcomes": np.asarray(exact_dot(Multisets.of_size(6).weights(shoe), orderings), dtype=object),
                    "pair_sequences": np.array([pairs], dtype=object)}

        a = store.get(count_key(self, rules), build)
        return _coups(rules.shoe, a["outcomes"], int(a["pair_sequences"][0]))

    def settle(self, counts: Coups, rules: PuntoBancoRules) -> Analysis:
        """Every wager on the layout."""
        shoe = rules.shoe
        wagers = settle(counts, rules.model.pays)
        convention = (
            f"one combination is one ordered sequence of the first six cards of a shoe of {shoe.label}: "
            f"{shoe.size}P6 = {shoe.ordered(6):,}, the published convention; a coup that leaves cards "
            "undealt counts once for every way those cards can lie"
        )
        return Analysis(self.key, rules.table, rules.shown(), convention, wagers, headline=_headline(wagers),
                        sections=(_drawing_section(rules.drawing),), assumptions=tuple(rules.model.assumptions),
                        published_applies=rules.published_applies)

    def charts(self, analysis: Analysis, rerun: Callable[[RunOptions], Analysis]) -> tuple[Chart, ...]:
        """House edge of the banker and player bets against the number of decks."""
        decks = tuple(range(1, 9))
        series: dict[str, list[Fraction]] = {}
        for d in decks:
            for w in rerun(RunOptions(decks=d, brief=True)).wagers:
                if w.wager in ("banker", "player"):
                    series.setdefault(w.wager, []).append(w.house_edge)
        if not series:
            return ()
        return (Lines("punto-banco-decks", f"Punto banco ({analysis.table.id}): house edge against decks in the shoe",
                      decks, tuple((k, tuple(v)) for k, v in series.items()), "decks", "house edge"),)


def _headline(wagers: tuple[WagerResult, ...]) -> tuple[str, ...]:
    """Who each wager favours, worst news for the house first."""
    favourable = [w for w in wagers if w.expected_value > 0]
    lines = [f"The {w.title.lower()} bet favours the BETTOR: expected value {percent_str(w.expected_value)} per unit "
             f"staked (exact {frac_str(w.expected_value)})." for w in favourable]
    rest = [w for w in wagers if w.expected_value <= 0]
    if rest:
        best = min(rest, key=lambda w: w.house_edge)
        lines.append(("Every other" if favourable else "Every") + " wager favours the house; the lowest house edge is "
                     f"{best.title.lower()}, {percent_str(best.house_edge)} (exact {frac_str(best.house_edge)}).")
    return tuple(lines)

