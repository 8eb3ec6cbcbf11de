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

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated, Any, ClassVar

import numpy as np
from pydantic import BeforeValidator, Field, PlainSerializer

from ..exact import Row, WagerResult, decimal_str, frac_str, parse_fraction, percent_str
from ..tables import Ratio, Strict, Table, TableModel, ratio_text
from . import Analysis, OptionError, RunOptions, Section
from .shoe import (
    STANDARD_TABLEAU,
    Multisets,
    Shoe,
    Tableau,
    Totals,
    WinPay,
    exact_dot,
    falling,
    multiset_keys,
    tableau_array,
    tableau_markdown,
    totals_mask,
    value_grid,
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
    text = decimal_str(x * 100, 6).rstrip("0").rstrip(".")
    return f"{text}%"


Percent = Annotated[Fraction, BeforeValidator(parse_percent), PlainSerializer(percent_text)]


class BankerPay(Strict):
    win: Ratio
    commission: Percent = Fraction(1, 20)  # taken from every banker win
    win_with_6: Ratio | None = None  # Super 6: a banker win with a total of 6 pays this instead
    three_card_7_pushes: bool = False  # EZ baccarat: a banker win with a three-card 7 is a push


class PuntoBancoPays(Strict):
    player: WinPay
    banker: BankerPay
    tie: WinPay
    player_pair: WinPay | None = None
    banker_pair: WinPay | None = None
    dragon_7: WinPay | None = None  # banker wins with a three-card 7
    panda_8: WinPay | None = None  # player wins with a three-card 8


class PuntoBancoRules(Strict):
    decks: int = Field(8, ge=1)
    punto_draws_on: Totals = (0, 1, 2, 3, 4, 5)
    banca_tableau: Tableau = STANDARD_TABLEAU
    banca_draws_when_punto_stands: Totals = (0, 1, 2, 3, 4, 5)


class PuntoBancoTable(TableModel):
    rules: PuntoBancoRules
    pays: PuntoBancoPays

    GAME: ClassVar[str] = "punto-banco"


# --- stage 1: count the coups (no pays) --------------------------------------------------

Outcome = tuple[int, int, int, int]  # (punto total, punto cards, banca total, banca cards)
_OUTCOMES = 400  # 10 totals x 2 card counts, for each side


@cache
def _outcome_orderings(punto_draws_on: tuple[int, ...], tableau: tuple[str, ...],
                       banca_when_punto_stands: tuple[int, ...]) -> np.ndarray:
    """(5005, 400) int64: value orderings of each six-value multiset that end in each outcome."""
    p1, p2, b1, b2, x, y = value_grid(6)  # x is the fifth card dealt, y the sixth
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
    idx = ms.index(multiset_keys((p1, p2, b1, b2, x, y)))
    cells = np.broadcast_to(idx * _OUTCOMES + outcome, (10,) * 6).ravel()
    return np.bincount(cells, minlength=len(ms) * _OUTCOMES).reshape(len(ms), _OUTCOMES)


@dataclass(frozen=True)
class Coups:
    """Every coup of one shoe, counted as ordered six-card sequences."""

    shoe: Shoe
    total: int
    outcomes: Mapping[Outcome, int]  # only outcomes that happen
    pair_sequences: int  # six-card sequences whose first two cards of one side are a pair

    def count(self, pred: Any) -> int:
        return sum(n for o, n in self.outcomes.items() if pred(*o))


def count_coups(shoe: Shoe, rules: PuntoBancoRules) -> Coups:
    """Stage 1 for a shoe: exact counts of every (punto, banca) final hand."""
    orderings = _outcome_orderings(rules.punto_draws_on, rules.banca_tableau, rules.banca_draws_when_punto_stands)
    counts = exact_dot(Multisets.of_size(6).weights(shoe), orderings)
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
    return Coups(shoe, total, outcomes, shoe.pair_sequences * falling(shoe.size - 2, 4))


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
                pay_text, bp.win * keep, banker_wins - three_card_7 - with_6)]
    if bp.win_with_6 is not None:
        six_text = ratio_text(bp.win_with_6) + (f" less {percent_text(bp.commission)}" if bp.commission else "")
        rows.append(Row("banker_wins_with_6", "Banker wins with 6", six_text, bp.win_with_6 * keep, with_6))
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
        Row("player_wins", "Player wins", ratio_text(pays.player.win), pays.player.win, player_wins),
        Row("tie", "Tie", "push", push, ties),
        Row("banker_wins", "Banker wins", "", lose, banker_wins),
    ), "unit staked", extras=nat))

    wagers.append(WagerResult("tie", "Tie", strategy, total, (
        Row("tie", "Tie", ratio_text(pays.tie.win), pays.tie.win, ties),
        Row("banker_wins", "Banker wins", "", lose, banker_wins),
        Row("player_wins", "Player wins", "", lose, player_wins),
    ), "unit staked"))

    for side, pay in (("player", pays.player_pair), ("banker", pays.banker_pair)):
        if pay is not None:
            wagers.append(WagerResult(f"{side}_pair", f"{side.capitalize()} pair", strategy, total, (
                Row(f"{side}_pair", f"{side.capitalize()}'s first two cards are a pair (same rank)",
                    ratio_text(pay.win), pay.win, c.pair_sequences),
                Row(f"no_{side}_pair", "No pair", "", lose, total - c.pair_sequences),
            ), "unit staked", notes=("A pair is two cards of the same rank: a 10 and a king are no pair.",)))

    if pays.dragon_7 is not None:
        n = c.count(lambda pt, pn, bt, bn: bt > pt and bt == 7 and bn == 3)
        wagers.append(WagerResult("dragon_7", "Dragon 7", strategy, total, (
            Row("dragon_7", "Banker wins with a three-card 7", ratio_text(pays.dragon_7.win), pays.dragon_7.win, n),
            Row("no_dragon_7", "Anything else", "", lose, total - n),
        ), "unit staked"))
    if pays.panda_8 is not None:
        n = c.count(lambda pt, pn, bt, bn: pt > bt and pt == 8 and pn == 3)
        wagers.append(WagerResult("panda_8", "Panda 8", strategy, total, (
            Row("panda_8", "Player wins with a three-card 8", ratio_text(pays.panda_8.win), pays.panda_8.win, n),
            Row("no_panda_8", "Anything else", "", lose, total - n),
        ), "unit staked"))
    return tuple(wagers)


# --- the game ---------------------------------------------------------------------------------


def _drawing_markdown(rules: PuntoBancoRules) -> str:
    return "\n".join([
        "A two-card 8 or 9 on either side is a natural: both hands stand.",
        "",
        f"- Punto draws on {_totals_text(rules.punto_draws_on)} and stands otherwise.",
        ("- When punto stood, banca stands whatever its total." if not rules.banca_draws_when_punto_stands else
         f"- When punto stood, banca draws on {_totals_text(rules.banca_draws_when_punto_stands)}."),
        "- When punto drew, banca follows the tableau (banca's total down, punto's third card across):",
        "",
        tableau_markdown(rules.banca_tableau, "banca", "punto's third card"),
    ])


def _totals_text(totals: tuple[int, ...]) -> str:
    return ", ".join(str(t) for t in totals) if totals else "no total (never draws)"


class PuntoBanco:
    key = "punto-banco"
    title = "Punto banco"
    default_table = "standard"
    options: frozenset[str] = frozenset({"decks"})

    @property
    def table_model(self) -> type[TableModel]:
        return PuntoBancoTable

    def analyze(self, table: Table, options: RunOptions) -> Analysis:
        model = table.model
        if not isinstance(model, PuntoBancoTable):
            raise OptionError(f"{table.path}: not a punto-banco table")
        unused = [n for n in ("strategy", "players") if getattr(options, n) is not None]
        if unused:
            raise OptionError(f"--{unused[0]} does not apply to punto-banco")
        decks = options.decks if options.decks is not None else model.rules.decks
        if decks < 1:
            raise OptionError("--decks must be at least 1")
        rules = model.rules.model_copy(update={"decks": decks})
        shoe = Shoe.of_decks(decks)
        wagers = settle(count_coups(shoe, rules), model.pays)
        resolved: dict[str, Any] = {
            "decks": decks,
            "punto_draws_on": list(rules.punto_draws_on),
            "banca_draws_when_punto_stands": list(rules.banca_draws_when_punto_stands),
            "banca_tableau": list(rules.banca_tableau),
        }
        sections = [Section("Drawing rules", _drawing_markdown(rules), resolved)]
        convention = (
            f"one combination is one ordered sequence of the first six cards of a shoe of {shoe.label}: "
            f"{shoe.size}P6 = {shoe.ordered(6):,}, the published convention; a coup that leaves cards "
            "undealt counts once for every way those cards can lie"
        )
        return Analysis(self.key, table, resolved, convention, wagers, headline=_headline(wagers),
                        sections=tuple(sections), assumptions=tuple(model.assumptions),
                        published_applies=decks == model.rules.decks)


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


GAME = PuntoBanco()
