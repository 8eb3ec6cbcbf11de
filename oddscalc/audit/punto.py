"""Punto banco coups settled one by one, in the exact engine's vocabulary: each coup's cell, then each wager's event
and units on that cell.

The engine settles every wager of a table on the 6,400 cells of the coup (``coup_features``: the outcome, punto's
and banca's final totals and card counts, and how each side's first two cards relate). Settling one bit per cell
(the combinations of cell c are 2**c, as ``protection.sorting`` reads pays) turns each wager's rows into the set
of cells each event holds, so a dealt coup is settled by the table's own rules: its cell, then a lookup.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.games.punto_banco.coup_features import CELLS, RANK_POINTS, RELATIONS, play
from oddscalc.games.punto_banco.game import PuntoBancoPays, PuntoBancoRules, settle


@dataclass(frozen=True)
class CellSettlement:
    """Per wager of a table, the event and the units per unit staked of every cell."""

    events: dict[str, tuple[str, ...]]  # wager -> event id per cell
    units: dict[str, tuple[Fraction, ...]]  # wager -> units per cell


_KEPT: dict[str, CellSettlement] = {}


def cell_settlement(pays: PuntoBancoPays) -> CellSettlement:
    """Every wager of ``pays`` settled on each cell (one bit per cell; see the module's docstring), kept per pay
    table for the process: an audit reads it twice (its rounds settled, then judged), a log written once more."""
    key = pays.model_dump_json()
    if key not in _KEPT:
        _KEPT[key] = _settle_cells(pays)
    return _KEPT[key]


def _settle_cells(pays: PuntoBancoPays) -> CellSettlement:
    cells = np.array([1 << c for c in range(CELLS)], dtype=object)
    events: dict[str, tuple[str, ...]] = {}
    units: dict[str, tuple[Fraction, ...]] = {}
    for w in settle(cells, pays):
        ev = [""] * CELLS
        un = [Fraction(0)] * CELLS
        for row in w.rows:
            bits = int(row.combinations)
            while bits:
                low = bits & -bits
                c = low.bit_length() - 1
                ev[c], un[c] = row.event, Fraction(row.units)
                bits ^= low
        events[w.wager], units[w.wager] = tuple(ev), tuple(un)
    return CellSettlement(events, units)


@functools.cache
def _values() -> np.ndarray:
    return np.array(RANK_POINTS, dtype=np.int64)


def coup_cells(cards: np.ndarray, dealt: np.ndarray, rules: PuntoBancoRules) -> tuple[np.ndarray, np.ndarray]:
    """For (n, 6) card ids in shoe order (a coup's unused places any card) and the cards each coup dealt: each
    coup's cell, and whether the cards dealt are the ones the drawing rules call for (False: too few or too many
    cards were dealt for the coup)."""
    ranks, suits = cards >> 2, cards & 3
    v = _values()[ranks]
    outcome = play(v[:, 0], v[:, 1], v[:, 2], v[:, 3], v[:, 4], v[:, 5], rules.drawing)
    pdrew, bdrew = (outcome // 20) % 2, outcome % 2
    prel = (ranks[:, 0] == ranks[:, 2]) + 2 * (suits[:, 0] == suits[:, 2])
    brel = (ranks[:, 1] == ranks[:, 3]) + 2 * (suits[:, 1] == suits[:, 3])
    cell = outcome * RELATIONS * RELATIONS + prel * RELATIONS + brel
    return cell, 4 + pdrew + bdrew == dealt


def units_of(settlement: CellSettlement, wager: str, cells: Sequence[int]) -> list[Fraction]:
    """The units per unit staked of ``wager`` on each cell."""
    table = settlement.units[wager]
    return [table[c] for c in cells]


__all__ = ["CellSettlement", "cell_settlement", "coup_cells", "units_of"]
