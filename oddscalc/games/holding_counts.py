"""Let It Ride's count kernel: every hand added to the pay class tally of its four- and three-card sets."""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def fill(hands: np.ndarray, cls: np.ndarray, binom: np.ndarray, c3: np.ndarray, c4: np.ndarray) -> None:
    """Add every hand's pay class to each of its four- and three-card sets (colex indices)."""
    for h in range(hands.shape[0]):
        p = hands[h]
        k = cls[h]
        for a in range(5):
            i4 = 0
            r = 1
            for i in range(5):
                if i != a:
                    i4 += binom[p[i], r]
                    r += 1
            c4[i4, k] += 1
            for b in range(a + 1, 5):
                i3 = 0
                r = 1
                for i in range(5):
                    if i != a and i != b:
                        i3 += binom[p[i], r]
                        r += 1
                c3[i3, k] += 1
