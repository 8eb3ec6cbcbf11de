"""Where a pay falls in each row of the raise table's sorted keys: a binary search per row, compiled.

``optimal`` needs, for each of the ~134,000 hand rows, how many of its ~47 sorted keys lie below (or at) a
bound. Comparing the whole (rows, keys) matrix against the bounds costs two passes over 6.3 million floats per
pay edit (most of the workbench's 100 ms); a binary search per row reads six keys of each.

>>> import numpy as np
>>> keys = np.array([[0.5, 1.0, 1.0, np.inf], [2.0, 3.0, np.inf, np.inf]])
>>> below(keys, np.array([1.0, 9.0]), False).tolist(), below(keys, np.array([1.0, 9.0]), True).tolist()
([1, 2], [3, 2])
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _search(keys: np.ndarray, bound: np.ndarray, inclusive: bool) -> np.ndarray:  # pragma: no cover - compiled
    m, nu = keys.shape
    out = np.empty(m, np.int64)
    for r in range(m):
        lo, hi = 0, nu
        b = bound[r]
        while lo < hi:
            mid = (lo + hi) // 2
            if keys[r, mid] < b or (inclusive and keys[r, mid] == b):
                lo = mid + 1
            else:
                hi = mid
        out[r] = lo
    return out


def below(keys: np.ndarray, bound: np.ndarray, inclusive: bool) -> np.ndarray:
    """Per row, the number of keys ``< bound[row]`` (``<=`` when ``inclusive``): the same as
    ``np.count_nonzero(keys < bound[:, None], axis=1)`` for rows sorted ascending with no NaN (``inf`` sorts last),
    which is how the raise table stores them."""
    return np.asarray(_search(np.ascontiguousarray(keys, dtype=np.float64),
                              np.ascontiguousarray(bound, dtype=np.float64), inclusive))
