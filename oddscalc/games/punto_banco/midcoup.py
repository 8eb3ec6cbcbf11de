"""Punto banco mid-coup tables: each outcome's exact probability, and every wager's exact EV, once part of the coup
is seen: after the player's two cards, after the banker's two, after all four. Late-bet and squeeze games are
priced from these.

Counting argument. A coup is an ordered sequence of six cards of the shoe (the published convention: cards the coup
leaves undrawn count once for every way they can lie). What is seen is a two-card total, punto's (cards 1 and 3),
banca's (cards 2 and 4) or both; the table's row for a total counts exactly the sequences whose first four cards'
point values give that total (``coup_features.count_cells_by_totals``), so each probability is the count of the
row's coups with the outcome over the count of the row's coups, and each wager is settled by the table's own pays
on those coups alone (``game.settle``: the commission and every side bet's rules as the table states them). The
seen cards are removed from the shoe: a row is the coup conditioned on the total, averaged over every pair of
cards that makes it, each weighted by how often the shoe deals it. The rows weighted by their shares add up to the
full shoe's figures exactly.

Side bets on the cards (``cards_when``: ranks and suits of named cards) are left out, and said: a row is known
by its totals, and a bet on ranks and suits needs its own count by total and by which conditions hold (a pass
of ``card_count`` per row, about 0.05 s CPU each at 8 decks, not yet written). The report names every bet it leaves out
in a ``left_out`` section (text and JSON), as the counting study does (``left_out_section``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.games.punto_banco.coup_features import Cards, count_cells_by_totals, features
from oddscalc.games.punto_banco.game import PuntoBancoRules, settle
from oddscalc.protocol import OptionError
from oddscalc.results import Cell, Column, Section

if TYPE_CHECKING:
    from oddscalc.analysis import Session

# what is seen: the two-card totals it reads, by name (--after)
STAGES = {"player": "the player's two cards", "banker": "the banker's two cards", "four": "all four cards"}


@dataclass(frozen=True)
class Row:
    """One total (or pair of totals) seen: how often it is seen, then each outcome and wager given it."""

    seen: tuple[int, ...]  # the player's total, the banker's, or both (player first)
    coups: int  # ordered six-card sequences with these totals
    share: Fraction  # of every coup of the shoe
    player: Fraction  # the player wins
    banker: Fraction
    tie: Fraction
    ev: dict[str, Fraction]  # wager -> EV per unit staked given the totals


@dataclass(frozen=True)
class Table:
    """A mid-coup table: the rows seen at one stage, and the full shoe's figures (the row before anything is
    seen)."""

    after: str
    rows: tuple[Row, ...]
    full: Row


def _row(seen: tuple[int, ...], cells: np.ndarray, every: int, rules: PuntoBancoRules,
         wagers: Sequence[str] | None) -> Row | None:
    """A row from its cells (None when the shoe never deals it)."""
    coups = int(cells.sum())
    if not coups:
        return None
    winner = features().winner
    p, b, t = (Fraction(int(cells[winner == w].sum()), coups) for w in ("player", "banker", "tie"))
    ev = {w.wager: w.expected_value for w in settle(cells, rules.model.pays) if wagers is None or w.wager in wagers}
    return Row(seen, coups, Fraction(coups, every), p, b, t, ev)


def table(rules: PuntoBancoRules, cards: Cards, after: str, wagers: Sequence[str] | None = None) -> Table:
    """The mid-coup table of ``cards`` (copies per card class) at stage ``after`` (``player``, ``banker`` or
    ``four``): one row per total seen that the shoe deals; ``wagers`` limits the EVs to those named."""
    if after not in STAGES:
        raise OptionError(f"--after: one of {', '.join(STAGES)}, not {after!r}")
    if sum(cards.copies) < (1 if rules.infinite else 6):
        raise OptionError(f"a shoe of {sum(cards.copies)} cards cannot deal a coup (six cards may be drawn)")
    split = count_cells_by_totals(cards, rules.drawing, rules.infinite)  # [player total, banker total, cell]
    everything = split.sum(axis=(0, 1))
    every = int(everything.sum())
    full = _row((), everything, every, rules, wagers)
    assert full is not None  # a shoe of six cards or more deals some coup
    if after == "four":
        found = [_row((p, b), split[p, b], every, rules, wagers) for p in range(10) for b in range(10)]
    elif after == "player":
        found = [_row((t,), split[t].sum(axis=0), every, rules, wagers) for t in range(10)]
    else:
        found = [_row((t,), split[:, t].sum(axis=0), every, rules, wagers) for t in range(10)]
    rows = [r for r in found if r is not None]
    return Table(after, tuple(rows), full)


def section(tab: Table, shoe_label: str, wagers: Sequence[str], notes: Sequence[str] = ()) -> Section:
    """The table as a report section: one row per total seen, then the full shoe's row ("any")."""
    heads: tuple[Column, ...] = (
        (Column("player_total", "Player total", "int"),) if tab.after == "player" else
        (Column("banker_total", "Banker total", "int"),) if tab.after == "banker" else
        (Column("player_total", "Player total", "int"), Column("banker_total", "Banker total", "int")))
    columns = (*heads, Column("share", "Share of coups", "decimal", 6),
               Column("player_wins", "Player wins", "decimal", 6), Column("banker_wins", "Banker wins", "decimal", 6),
               Column("tie", "Tie", "decimal", 6),
               *(Column(f"ev_{w}", f"EV {w}", "signed_percent", 4) for w in wagers))

    def cells(r: Row, label: tuple[Cell, ...]) -> tuple[Cell, ...]:
        return (*label, r.share, r.player, r.banker, r.tie, *(r.ev[w] for w in wagers))

    rows = [cells(r, r.seen) for r in tab.rows]
    rows.append(cells(tab.full, ("any",) * len(heads)))
    return Section(
        f"midcoup_{tab.after}", f"Mid-coup: after {STAGES[tab.after]}",
        columns, tuple(rows),
        intro=(f"{shoe_label}. Each row: the coups in which {STAGES[tab.after]} make the total(s) shown, those "
               "cards removed from the shoe; every probability and EV (per unit staked, the table's commission and "
               "rules applied) is exact given that total. The last row (any) is the full shoe before a card is "
               "seen; the rows weighted by their shares add up to it.",
               "Counted over every ordered sequence of the coup's six cards (cards a coup leaves undrawn count once "
               "for every way they can lie); the JSON format gives each figure as an exact fraction."),
        notes=tuple(notes))


def card_bets(rules: PuntoBancoRules) -> dict[str, str]:
    """The table's side bets on the cards (``cards_when``), by wager, with their titles."""
    return {w: b.title for w, b in rules.model.pays.side_bets.items() if b.card_conditions()}


def left_out_section(rules: PuntoBancoRules, why: str, only: tuple[str, ...] | None = None) -> list[Section]:
    """The side bets on the cards a command leaves out (all, or ``only`` those), one row each (none: no section),
    with the reason."""
    bets = {w: t for w, t in card_bets(rules).items() if only is None or w in only}
    if not bets:
        return []
    return [Section(
        "left_out", "Left out: side bets on the cards",
        (Column("wager", "Wager"), Column("title", "Title")),
        tuple((w, t) for w, t in bets.items()),
        intro=(f"These side bets read the ranks and suits of named cards (cards_when), not only the coup: {why}",))]


def midcoup_sections(session: Session, table_ref: str | None, after: str, shoe: str | None,
                     removed: str | None) -> list[Section]:
    """``oddscalc midcoup punto-banco`` (the game's declaration names it): the table at one stage, for the table's
    shoe, a shoe by point value (``--shoe``) or the table's shoe less cards removed (``--removed``)."""
    from oddscalc.cards import cards_str
    from oddscalc.games.punto_banco.ev import by_value, parse_removed, value_wagers, without

    rules = session.resolve(table_ref)
    assert isinstance(rules, PuntoBancoRules)
    if shoe is not None and removed is not None:
        raise OptionError("--shoe and --removed: give one (the shoe by value, or the cards gone from the table's)")
    notes: tuple[str, ...] = ()
    if shoe is not None:
        cards = by_value(shoe)
        keep, unsettled = value_wagers(rules)
        label = f"The shoe given by point value, 0 to 9: {shoe.strip()} ({sum(cards.copies):,} cards)"
        if unsettled:
            notes = (f"Not settled from a shoe by value (they read pairs or suits): {', '.join(unsettled)}; give the "
                     "cards removed instead.",)
    elif removed is not None:
        gone = parse_removed(removed)
        cards = without(rules, gone)
        keep = set()
        label = f"The table's shoe ({rules.cards.shoe.label}) less {cards_str(gone)}: {sum(cards.copies):,} cards"
    else:
        cards, keep = rules.cards, set()
        label = (f"The table's shoe, drawn with replacement (infinite; {rules.cards.shoe.label} in proportion)"
                 if rules.infinite else f"The table's full shoe ({rules.cards.shoe.label})")
    tab = table(rules, cards, after, sorted(keep) if shoe is not None else None)
    wagers = list(tab.full.ev)
    return [section(tab, label, wagers, notes), *left_out_section(rules, (
        "a mid-coup row is known by the totals seen, and these bets need a count of their own by total and by "
        "which of their conditions hold, which this table does not make. They are not in the table above."))]
