"""Punto banco coups for a hand log: which bet the player makes (a named one, or the best given what an information
model shows of the coup's first cards), and what it pays.

The coup is drawn by the simulator's own drawing code (``baccarat.coup_features``); the bet is settled on the coup's
cell by the table's own rules (``audit.punto.cell_settlement``: the engine's settlement, one cell at a time). A
player under an information model (``--knows edge-sort-first-card``) bets, on each coup, the choice with the best
exact EV given what the model's glimpses show (``protection.sorting.count``: every pattern's return per choice).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from oddscalc.audit.punto import CellSettlement
from oddscalc.games.punto_banco.game import PuntoBancoRules
from oddscalc.protection import sorting
from oddscalc.protection.glimpse import Model
from oddscalc.protocol import OptionError
from oddscalc.simulate.arrays import IntArray
from oddscalc.simulate.baccarat import coup_features, tableau_grid, totals_mask

Bettor = Callable[[IntArray], list[str]]  # (n, 6) shoe-order cards -> the bet of each coup ("none": no bet)
POSITIONS = ("player_1", "banker_1", "player_2", "banker_2")


def cells(cards: IntArray, rules: PuntoBancoRules) -> tuple[IntArray, IntArray]:
    """Each coup's cell (``coup_features``' index) and the number of cards it dealt, by the simulator's drawing."""
    d = rules.drawing
    f = coup_features(cards, totals_mask(d.punto_draws_on), tableau_grid(d.banca_tableau),
                      totals_mask(d.banca_draws_when_punto_stands), d.banca_natural_stops_punto)
    pdrew, bdrew = f["player_cards"] - 2, f["banker_cards"] - 2
    outcome = ((f["player_total"] * 2 + pdrew) * 10 + f["banker_total"]) * 2 + bdrew
    prel = f["player_pair"].astype(np.int64) + 2 * f["player_suited"]
    brel = f["banker_pair"].astype(np.int64) + 2 * f["banker_suited"]
    return outcome * 16 + prel * 4 + brel, np.asarray(f["cards"])


def named_bettor(bet: str, settlement: CellSettlement) -> Bettor:
    """The same bet every coup: a wager of the table (``banker``, ``player``, ``tie``, a side bet) or ``none``."""
    if bet != "none" and bet not in settlement.events:
        raise OptionError(f"unknown bet {bet!r} for punto-banco; one of: {', '.join(settlement.events)} or none")
    return lambda cards: [bet] * len(cards)


def informed_bettor(model: Model, rules: PuntoBancoRules) -> Bettor:
    """The best choice of the model's, coup by coup, given what its glimpses show of the first four cards."""
    if any(g.position not in POSITIONS for g in model.glimpses):
        raise OptionError(f"--knows {model.id}: simulate reads glimpses of the first four cards, not the burn card")
    choices = model.choices or ("player", "banker", "tie", "none")
    counted = sorting.count(rules.cards, rules.drawing, model.glimpses, choices,
                            sorting.outcome_pays(rules.model.pays, choices), rules.infinite)
    best: Mapping[tuple[int, ...], str] = {p.seen: counted.choices[p.best()] for p in counted.patterns}
    order = [POSITIONS.index(g.position) for g in counted.glimpses]

    def bets(cards: IntArray) -> list[str]:
        rows = cards.tolist()
        return [best[tuple(sorting.seen(g, row[i]) for g, i in zip(counted.glimpses, order))] for row in rows]

    return bets


__all__ = ["Bettor", "cells", "informed_bettor", "named_bettor"]
