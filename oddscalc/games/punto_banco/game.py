"""Punto banco, the registered game: the table model, resolve, count the coup features, settle every wager.

The counting argument is the package's docstring (:mod:`oddscalc.games.punto_banco`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, ClassVar, Literal

import numpy as np
from pydantic import AliasChoices, BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, model_validator

from oddscalc.cache import Store
from oddscalc.cards import MAX_DECKS
from oddscalc.exact import decimal_str, parse_fraction
from oddscalc.games.punto_banco.capabilities import CAPABILITIES
from oddscalc.games.punto_banco.card_conditions import CardCondition
from oddscalc.games.punto_banco.card_count import count_conditions
from oddscalc.games.punto_banco.coup_features import CELLS, Cards, count_cells, features
from oddscalc.games.punto_banco.side_bets import (
    LOSE,
    PUSH,
    CoupRule,
    Line,
    SideBet,
    as_tuple,
    card_rule_lines,
    check_rules,
    event_id,
    pay_units,
    replace_pay,
    rule_lines,
)
from oddscalc.games.punto_banco.value_count import count_coups as count_coups  # its public name here before
from oddscalc.games.shoe import (
    STANDARD_TABLEAU,
    Tableau,
    Totals,
    tableau_section,
)
from oddscalc.protocol import Capabilities, OptionError, Rules, count_key
from oddscalc.results import Analysis, Chart, Lines, Row, RunOptions, Section, WagerResult
from oddscalc.tables import Ratio, Strict, Table, TableModel, ratio_text


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


def parse_decks(value: Any) -> int | str:
    """Whole decks (at least one), or "infinite" (cards drawn with replacement)."""
    if value == "infinite":
        return "infinite"
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f'must be a whole number of decks such as 8, or "infinite", not {value!r}')
    if not 1 <= value <= MAX_DECKS:
        raise ValueError(f"a shoe has 1 to {MAX_DECKS:,} decks (as --decks), not {value:,}")
    return value


Percent = Annotated[Fraction, BeforeValidator(parse_percent), PlainSerializer(percent_text)]

# The main bets' own rows, named by what happens to the bet (the public vocabulary, DESIGN.md "The JSON
# report"): the player and banker bets win, push (or lose) on a tie, lose; the tie bet wins or loses to
# either hand (two rows, kept apart so the coup's outcomes stay visible).
WIN = "win"
LOSE_ON_TIE = "lose_tie"  # the player or banker bet on a tie, when the table says a tie loses
LOSE_BANKER_WINS = "lose_banker_wins"  # the tie bet when the banker wins
LOSE_PLAYER_WINS = "lose_player_wins"  # the tie bet when the player wins
MAIN_EVENTS = (WIN, PUSH, LOSE, LOSE_ON_TIE, LOSE_BANKER_WINS, LOSE_PLAYER_WINS)


class CoupBet(Strict):
    """The tie bet: its win, and exceptions (rules) tried first."""

    win: Ratio
    rules: Annotated[tuple[CoupRule, ...], BeforeValidator(as_tuple)] = ()

    STANDARD: ClassVar[tuple[str, ...]] = MAIN_EVENTS

    @model_validator(mode="after")
    def _reach(self) -> CoupBet:
        check_rules(self.rules, covered=True, reserved=self.STANDARD)
        return self

    def pay_items(self) -> dict[str, Fraction]:
        """The win and the exceptions' ratio pays."""
        return {"win": self.win, **{r.event: r.pays for r in self.rules if isinstance(r.pays, Fraction)}}

    def with_pay(self, key: str, value: Fraction) -> CoupBet:
        """The same bet with the win or one exception's pay replaced."""
        if key == "win":
            return self.model_copy(update={"win": value})
        return self.model_copy(update={"rules": replace_pay(self.rules, key, value)})


class HandBet(CoupBet):
    """The player bet: as the tie bet, and what a tie does to it."""

    tie: Literal["push", "lose"] = PUSH


class BankerBet(HandBet):
    """The banker bet: as the player bet, less a commission on every win."""

    commission: Percent = Fraction(1, 20)


class PuntoBancoPays(BaseModel):
    """The ``[pays]`` of a punto banco table: the three main bets, and any side bets by id."""

    model_config = ConfigDict(extra="allow", frozen=True, arbitrary_types_allowed=True, strict=True)
    player: HandBet
    banker: BankerBet
    tie: CoupBet
    __pydantic_extra__: dict[str, SideBet] = Field(init=False)

    @model_validator(mode="after")
    def _ids(self) -> PuntoBancoPays:
        for key in self.side_bets:
            event_id(key)
        return self

    @property
    def side_bets(self) -> dict[str, SideBet]:
        """The side bets in table order."""
        return dict(self.__pydantic_extra__ or {})


# [rules] keys say player and banker, as [pays] does; the rule sheet's Spanish names (punto, banca) stay
# accepted as aliases, since the seed tables and the sheet they transcribe use them. Both at once is an error.
RULE_ALIASES = {
    "player_draws_on": "punto_draws_on",
    "banker_tableau": "banca_tableau",
    "banker_draws_when_player_stands": "banca_draws_when_punto_stands",
    "banker_natural_stops_player": "banca_natural_stops_punto",
}


def _either(key: str, default: Any) -> Any:
    return Field(default, validation_alias=AliasChoices(key, RULE_ALIASES[key]))


class TableRules(Strict):
    """The ``[rules]`` of a punto banco table: the shoe and the drawing rules (punto/banca names accepted as
    aliases of the player/banker ones: ``RULE_ALIASES``)."""

    decks: Annotated[int | Literal["infinite"], BeforeValidator(parse_decks)] = 8
    player_draws_on: Totals = _either("player_draws_on", (0, 1, 2, 3, 4, 5))
    banker_tableau: Tableau = _either("banker_tableau", STANDARD_TABLEAU)
    banker_draws_when_player_stands: Totals = _either("banker_draws_when_player_stands", (0, 1, 2, 3, 4, 5))
    banker_natural_stops_player: bool = _either("banker_natural_stops_player", True)  # a banker 8 or 9 ends the coup

    @model_validator(mode="before")
    @classmethod
    def _one_name(cls, data: Any) -> Any:
        if isinstance(data, dict):
            both = [f"{k} and its alias {a}" for k, a in RULE_ALIASES.items() if k in data and a in data]
            if both:
                raise ValueError(f"{'; '.join(both)} are both given: keep one")
        return data

    # The drawing code (coup_features.Drawing, the simulator, counting) reads the sheet's names.
    @property
    def punto_draws_on(self) -> tuple[int, ...]:
        """Player's (punto's) two-card totals that draw."""
        return self.player_draws_on

    @property
    def banca_tableau(self) -> tuple[str, ...]:
        """The banker's (banca's) tableau."""
        return self.banker_tableau

    @property
    def banca_draws_when_punto_stands(self) -> tuple[int, ...]:
        """The banker's (banca's) totals that draw when the player stood."""
        return self.banker_draws_when_player_stands

    @property
    def banca_natural_stops_punto(self) -> bool:
        """A banker (banca) two-card 8 or 9 ends the coup before the player draws."""
        return self.banker_natural_stops_player


class PuntoBancoTable(TableModel):
    """A punto banco table file."""

    rules: TableRules
    pays: PuntoBancoPays

    GAME: ClassVar[str] = "punto-banco"


@dataclass(frozen=True)
class PuntoBancoRules(Rules):
    """A punto banco table resolved for a run."""

    decks: int  # with infinite, the proportions of this many decks (any number: the same odds)
    infinite: bool
    drawing: TableRules

    @property
    def model(self) -> PuntoBancoTable:
        """The table file's model."""
        model = self.table.model
        assert isinstance(model, PuntoBancoTable)
        return model

    @property
    def cards(self) -> Cards:
        """The shoe by card class."""
        return Cards.of_decks(1 if self.infinite else self.decks)

    def count_key(self) -> dict[str, Any]:
        """The shoe and the drawing rules."""
        r = self.drawing
        return {"cards": list(self.cards.copies), "infinite": self.infinite,
                "punto_draws_on": list(r.punto_draws_on), "banca_tableau": list(r.banca_tableau),
                "banca_draws_when_punto_stands": list(r.banca_draws_when_punto_stands),
                "banca_natural_stops_punto": r.banca_natural_stops_punto, **self.card_key()}

    def card_key(self) -> dict[str, Any]:
        """The card conditions of the bets on the cards (none: nothing, so other tables keep their key)."""
        bets = {w: [c.key() for c in b.card_conditions()] for w, b in self.model.pays.side_bets.items()}
        return {"card_bets": {w: c for w, c in bets.items() if c}} if any(bets.values()) else {}

    def shown(self) -> dict[str, Any]:
        """The rules as the report states them."""
        r = self.drawing
        return {"decks": "infinite" if self.infinite else self.decks, "player_draws_on": list(r.player_draws_on),
                "banker_draws_when_player_stands": list(r.banker_draws_when_player_stands),
                "banker_natural_stops_player": r.banker_natural_stops_player,
                "banker_tableau": list(r.banker_tableau)}


# --- settle: every wager from the cells -------------------------------------------------------------


def _total(cells: np.ndarray, mask: np.ndarray) -> int:
    return int(cells[mask].sum()) if mask.any() else 0


def _rows(wager: str, lines: Sequence[Line], cells: np.ndarray, keep: Fraction = Fraction(1),
          less: str = "") -> list[Row]:
    """Rows of declared lines: a ratio pays ``keep`` of itself (after commission) and is the table's pay."""
    rows = []
    for ln in lines:
        n = _total(cells, ln.mask)
        if isinstance(ln.pays, Fraction):
            ref = f"{wager}.{ln.event}" if ln.is_rule else ""
            rows.append(Row(ln.event, ln.label, ratio_text(ln.pays) + less, ln.pays * keep, n, pay_ref=ref,
                            pay_coef=keep if ref else Fraction(0)))
        else:
            rows.append(Row(ln.event, ln.label, PUSH if ln.pays == PUSH else "", pay_units(ln.pays), n))
    return rows


_SIDES = {"banker": "Banker", "player": "Player"}


def _hand_bet(wager: str, title: str, bet: HandBet, cells: np.ndarray, keep: Fraction, less: str,
              notes: Sequence[str], extras: dict[str, int]) -> WagerResult:
    f = features()
    other = "player" if wager == "banker" else "banker"
    exceptions, free = rule_lines(bet.rules, np.ones(CELLS, dtype=bool))
    name = _SIDES[wager]
    won = Line(WIN, f"{name} wins" + (" (every other hand)" if bet.rules else ""), bet.win,
               free & (f.winner == wager), False)
    tie = Line(PUSH if bet.tie == PUSH else LOSE_ON_TIE, "Tie", bet.tie, free & (f.winner == "tie"), False)
    lost = Line(LOSE, f"{_SIDES[other]} wins", LOSE, free & (f.winner == other), False)
    rows = _rows(wager, [won], cells, keep, less)
    rows[0] = dataclasses.replace(rows[0], pay_ref=f"{wager}.win", pay_coef=keep)
    rows += _rows(wager, [*exceptions, tie, lost], cells, keep, less)
    total = sum(r.combinations for r in rows)
    return WagerResult(wager, title, STRATEGY, total, tuple(rows), "unit staked", extras=extras, notes=tuple(notes),
                       strategy_title=STRATEGY_TITLE)


STRATEGY = "none"  # nobody decides anything: the strategy id, and in words
STRATEGY_TITLE = "none (the drawing rules decide)"


class Counts(np.ndarray[Any, np.dtype[Any]]):
    """The coup-feature cells of a table with bets on the cards (the array every reader of the cells reads),
    carrying each such bet's own count: ``cards[wager]`` = (by outcome and pattern of its conditions, the
    patterns), from ``card_count``. A table without such bets counts to the plain cells."""

    cards: dict[str, tuple[np.ndarray, np.ndarray]]

    @classmethod
    def of(cls, cells: np.ndarray, cards: dict[str, tuple[np.ndarray, np.ndarray]]) -> Counts:
        """The cells, carrying ``cards``."""
        out = np.asarray(cells).view(cls)
        out.cards = cards
        return out

    def __array_finalize__(self, obj: Any) -> None:
        self.cards = getattr(obj, "cards", {})  # a view or slice of the cells carries them too


def settle(cells: np.ndarray, pays: PuntoBancoPays,
           cards: dict[str, tuple[np.ndarray, np.ndarray]] | None = None) -> tuple[WagerResult, ...]:
    """Every wager on the layout, exactly, from the cell counts (``coup_features.count_cells``) and, for the
    bets on the cards, their own counts (``cards``, by bet: ``card_count.count_conditions``; without them those
    bets are left out)."""
    f = features()
    bp = pays.banker
    keep = 1 - bp.commission
    less = f" less {percent_text(bp.commission)}" if bp.commission else ""
    notes = []
    if bp.tie == pays.player.tie:
        notes.append(f"Banker and player bets {'push' if bp.tie == PUSH else 'lose'} on a tie.")
    else:
        notes.append(f"The banker bet {'pushes' if bp.tie == PUSH else 'loses'} on a tie.")
    if bp.commission:
        notes.append(f"A winning banker bet pays {ratio_text(bp.win)} less {percent_text(bp.commission)} commission.")
    nat = {f"banker_natural_{t}": _total(cells, f.banker_natural & (f.banker_total == t)) for t in (8, 9)}
    wagers = [_hand_bet("banker", "Banker (banca)", bp, cells, keep, less, notes, nat)]
    nat = {f"player_natural_{t}": _total(cells, f.player_natural & (f.player_total == t)) for t in (8, 9)}
    player_notes = () if bp.tie == pays.player.tie else (
        f"The player bet {'pushes' if pays.player.tie == PUSH else 'loses'} on a tie.",)
    wagers.append(_hand_bet("player", "Player (punto)", pays.player, cells, Fraction(1), "", player_notes, nat))

    exceptions, free = rule_lines(pays.tie.rules, np.ones(CELLS, dtype=bool))
    tie_won = _rows("tie", [Line(WIN, "Tie", pays.tie.win, free & (f.winner == "tie"), False)], cells)
    tie_won[0] = dataclasses.replace(tie_won[0], pay_ref="tie.win", pay_coef=Fraction(1))
    rows = tie_won + _rows("tie", [*exceptions, Line(LOSE_BANKER_WINS, "Banker wins", LOSE,
                                                     free & (f.winner == "banker"), False),
                                   Line(LOSE_PLAYER_WINS, "Player wins", LOSE, free & (f.winner == "player"), False)],
                           cells)
    total = int(cells.sum())
    wagers.append(WagerResult("tie", "Tie", STRATEGY, total, tuple(rows), "unit staked", strategy_title=STRATEGY_TITLE))

    for wager, bet in pays.side_bets.items():
        if bet.card_conditions():
            if cards is None:  # counted from the coup features only (a mid-coup table, a counting study)
                continue
            lines, counted = card_rule_lines(bet, *cards[wager])
            wagers.append(WagerResult(wager, bet.title, STRATEGY, total, tuple(_rows(wager, lines, counted)),
                                      "unit staked", notes=bet.notes, strategy_title=STRATEGY_TITLE))
            continue
        lines, free = rule_lines(bet.rules, np.ones(CELLS, dtype=bool))
        if bet.otherwise is not None:
            o = bet.otherwise
            lines.append(Line(o.event, o.label, o.pays, free, False))
        elif _total(cells, free):
            raise AssertionError(f"{wager}: coups no rule pays (the table check should have refused it)")
        wagers.append(WagerResult(wager, bet.title, STRATEGY, total, tuple(_rows(wager, lines, cells)), "unit staked",
                                  notes=bet.notes, strategy_title=STRATEGY_TITLE))
    return tuple(wagers)


# --- the game ---------------------------------------------------------------------------------


def _drawing_section(rules: TableRules) -> Section:
    stood = ("When punto stood, banca stands whatever its total." if not rules.banca_draws_when_punto_stands else
             f"When punto stood, banca draws on {_totals_text(rules.banca_draws_when_punto_stands)}.")
    natural = ("A two-card 8 or 9 on either side is a natural: both hands stand." if rules.banca_natural_stops_punto
               else "A punto two-card 8 or 9 is a natural: both hands stand. A banca two-card 8 or 9 stands but "
                    "does not stop punto drawing.")
    return tableau_section(
        "drawing_rules", "Drawing rules", rules.banca_tableau, "Banca total", "punto's third card",
        intro=(natural, f"Punto draws on {_totals_text(rules.punto_draws_on)} and stands otherwise.", stood,
               "When punto drew, banca follows the tableau (banca's total down, punto's third card across):"))


def _totals_text(totals: tuple[int, ...]) -> str:
    return ", ".join(str(t) for t in totals) if totals else "no total (never draws)"


class PuntoBanco:
    """Punto banco: bets on punto, banca or a tie, and the side bets; nobody makes a choice."""

    key: ClassVar[str] = "punto-banco"
    title: ClassVar[str] = "Punto banco"
    default_table: ClassVar[str] = CAPABILITIES.default_table
    capabilities: ClassVar[Capabilities] = CAPABILITIES  # what applies to the game, read by the CLI
    options: ClassVar[frozenset[str]] = frozenset({"decks"})
    strategies: ClassVar[tuple[str, ...]] = ()  # nobody makes a choice
    engine_version: ClassVar[int] = 2  # 2: the coup-feature cells
    table_model: ClassVar[type[TableModel]] = PuntoBancoTable

    def resolve(self, table: Table, options: RunOptions) -> PuntoBancoRules:
        """The table's rules, with ``--decks`` applied."""
        model = table.model
        assert isinstance(model, PuntoBancoTable)
        stated = model.rules.decks
        decks = options.decks if options.decks is not None else stated
        if isinstance(decks, int) and decks < 1:
            raise OptionError("--decks must be at least 1")
        infinite = decks == "infinite"
        return PuntoBancoRules(table=table, options=options, strategy="none", published_applies=decks == stated,
                               decks=1 if infinite else int(decks), infinite=infinite, drawing=model.rules)

    def count(self, rules: PuntoBancoRules, store: Store) -> np.ndarray:
        """The coups of the shoe, cell by cell (``coup_features``), from the store when it has them; with bets on
        the cards, as ``Counts`` with each one's count by its conditions (``card_count``, stored by the list)."""
        def build() -> dict[str, np.ndarray]:
            return {"cells": count_cells(rules.cards, rules.drawing, rules.infinite)}

        key = {k: v for k, v in count_key(self, rules).items() if k != "card_bets"}
        cards = {}
        for wager, bet in rules.model.pays.side_bets.items():
            if conditions := bet.card_conditions():
                def by_cards(c: tuple[CardCondition, ...] = conditions) -> dict[str, np.ndarray]:
                    counts, patterns = count_conditions(rules.cards.copies, rules.drawing, rules.infinite, c)
                    return {"counts": counts, "patterns": patterns}

                got = store.get({**key, "card_conditions": [c.key() for c in conditions]}, by_cards)
                cards[wager] = (got["counts"], got["patterns"])
        cells = store.get(key, build)["cells"]
        return Counts.of(cells, cards) if cards else cells

    def settle(self, counts: np.ndarray, rules: PuntoBancoRules) -> Analysis:
        """Every wager on the layout."""
        wagers = settle(np.asarray(counts), rules.model.pays, counts.cards if isinstance(counts, Counts) else None)
        if rules.infinite:
            convention = ("one combination is one sequence of six cards drawn with replacement from an infinite shoe, "
                          f"each of the 52 cards equally likely: 52^6 = {52**6:,}; a coup that leaves cards undealt "
                          "counts once for every card they could be")
        else:
            shoe = rules.cards.shoe
            convention = (
                f"one combination is one ordered sequence of the first six cards of a shoe of {shoe.label}: "
                f"{shoe.size}P6 = {shoe.ordered(6):,}, the published convention; a coup that leaves cards "
                "undealt counts once for every way those cards can lie"
            )
        return Analysis(self.key, rules.table, rules.shown(), convention, wagers,
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

