"""The compiled loop of a side bet's count: the best five of each row's cards (six or more), one row at a time.

numpy would gather the strength of every five-card subset as a whole column and keep the largest (a pass and a
temporary per subset); this loop reads them row by row. Imported only by a bet whose cards number six or more,
so a game that deals none loads no numba.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def best_strengths(pos: np.ndarray, subsets: np.ndarray, binom: np.ndarray, strength: np.ndarray) -> np.ndarray:
    """(rows,) the largest ``strength[sum binom[pos[r, s_i], i + 1]]`` over the five-card ``subsets`` of each
    row's ascending deck positions ``pos`` (the colex row of each five, as ``hands.colex_index``)."""
    out = np.empty(pos.shape[0], dtype=np.int16)
    for r in range(pos.shape[0]):
        best = -1
        for c in range(subsets.shape[0]):
            index = 0
            for i in range(5):
                index += binom[pos[r, subsets[c, i]], i + 1]
            s = strength[index]
            if s > best:
                best = s
        out[r] = best
    return out
