"""Punto banco's second method: the 400 outcomes counted from point values alone (the tests hold the coup-feature
count to it).

For each multiset of six point values, the value orderings that end in each outcome (a side's two cards count
in either order, so each unordered pair is played once with weight 2, or 1 for equal values), times the
multiset's falling product in the shoe (``shoe.Multisets``).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from oddscalc.games.punto_banco.coup_features import OUTCOMES, Drawing
from oddscalc.games.shoe import VALUES, Multisets, Shoe, exact_dot, multiset_keys, tableau_array, totals_mask

Outcome = tuple[int, int, int, int]  # (punto total, punto cards, banca total, banca cards)


@cache
def _outcome_orderings(punto_draws_on: tuple[int, ...], tableau: tuple[str, ...],
                       banca_when_punto_stands: tuple[int, ...], banca_natural_stops: bool) -> np.ndarray:
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
    natural = (pt0 >= 8) | ((bt0 >= 8) & banca_natural_stops)
    pdraw = ~natural & totals_mask(punto_draws_on)[pt0]
    bdraw = ~natural & np.where(pdraw, tableau_array(tableau)[bt0, x], totals_mask(banca_when_punto_stands)[bt0])
    b3 = np.where(pdraw, y, x)  # banca takes the fifth card when punto stood
    pt = (pt0 + x * pdraw) % 10
    bt = (bt0 + b3 * bdraw) % 10
    outcome = ((pt * 2 + pdraw) * 10 + bt) * 2 + bdraw
    ms = Multisets.of_size(6)
    idx = ms.index(np.broadcast_to(multiset_keys((p1, p2, b1, b2, x, y)), shape))
    cells = np.broadcast_to(idx * OUTCOMES + outcome, shape).ravel()
    ways = np.broadcast_to(twice[pi] * twice[bi], shape).ravel()
    counts = np.bincount(cells, weights=ways, minlength=len(ms) * OUTCOMES)  # at most 10**6: exact
    return counts.astype(np.int64).reshape(len(ms), OUTCOMES)


def count_coups(shoe: Shoe, rules: Drawing) -> dict[Outcome, int]:
    """Card sequences of every (punto total, cards, banca total, cards) that happens, from point values."""
    orderings = _outcome_orderings(rules.punto_draws_on, rules.banca_tableau, rules.banca_draws_when_punto_stands,
                                   rules.banca_natural_stops_punto)
    counts = exact_dot(Multisets.of_size(6).weights(shoe), orderings)
    out: dict[Outcome, int] = {}
    for k, n in enumerate(counts):
        if n:
            rest, bn = divmod(k, 2)
            rest, bt = divmod(rest, 10)
            pt, pn = divmod(rest, 2)
            out[(pt, pn + 2, bt, bn + 2)] = int(n)
    return out
