"""Caribbean Stud's report sections: the ace-king chart, the closest decisions, the strategies compared."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from oddscalc.cards import RANK_CHARS, cards_str
from oddscalc.exact import percent_str
from oddscalc.games.caribbean import raise_table
from oddscalc.games.caribbean.raise_table import STRATEGIES, RaiseTable
from oddscalc.games.caribbean.settle import CARD, Settled
from oddscalc.games.caribbean.table import RaisePays
from oddscalc.games.caribbean.wagers import main_wager
from oddscalc.results import Cell, Column, Section

if TYPE_CHECKING:
    from oddscalc.games.caribbean.card import Card


def ak_section(st: Settled) -> Section:
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


def closest_section(dc: RaiseTable, st: Settled, card: Card | None = None) -> Section:
    """The decisions nearest to a tie between raising and folding, with whose decision each column shows: the
    optimal one (raise exactly when raising's EV is the higher), and the played strategy's when it is another."""
    who = "optimal" if st.strategy == "optimal" else \
        f"card {card.path.name}" if st.strategy == CARD and card is not None else st.strategy
    rows: list[tuple[Cell, ...]] = []
    for i, ui, ev_gap, raised_it in st.closest:
        hand = cards_str(sorted(dc.reps[i].tolist(), reverse=True))
        up = raise_table.up_cards(dc.deck, dc.reps[i:i + 1])[0, ui]
        optimal = ("raise" if ev_gap > 0 else "fold",) if who != "optimal" else ()
        rows.append((hand, cards_str([int(up)]), ev_gap, *optimal, "raise" if raised_it else "fold"))
    columns = (Column("hand", "Player hand"), Column("up_card", "Up card"),
               Column("raise_minus_fold", "Raise - fold", "decimal", 6),
               *((Column("optimal_decision", "Decision (optimal)"),) if who != "optimal" else ()),
               Column("decision", f"Decision ({who})"))
    player = f"the {who}" if st.strategy == CARD else f"the strategy {who}"
    whose = ("" if who == "optimal" else f" Raise - fold is the same EV whoever plays; the last column is what "
             f"{player} does, beside the optimal decision.")
    return Section(
        "closest_decisions", "Closest decisions", columns, tuple(rows),
        intro=("EV of raising minus EV of folding, in antes, for the decisions nearest to a tie; each line stands "
               "for its suit pattern." + whose,))


def comparison_section(dc: RaiseTable, pays: RaisePays, st: Settled, card: Card | None) -> Section:
    """Every named strategy (and the card) played on this table's pays."""
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


def describe_point(dc: RaiseTable, flat: int) -> str:
    """A decision point (hand and up card, in raise-key order) in words."""
    i, j = divmod(flat, dc.keys.shape[1])
    up = int(raise_table.up_cards(dc.deck, dc.reps[i:i + 1])[0, int(dc.perm[i, j])])
    return f"{cards_str(sorted(dc.reps[i].tolist(), reverse=True))} against up card {cards_str([up])}"
