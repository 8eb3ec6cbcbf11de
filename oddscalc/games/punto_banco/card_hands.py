"""The poker class of a few named baccarat cards: what a ``hand`` / ``hand_at_least`` card condition reads.

A baccarat shoe holds several decks, so a set of cards can be two classes at once (9h 9h 5h is a pair and a
flush; three identical cards are three of a kind and a flush). A set of ``k`` cards takes the first class of the
ranking of the ``k``-card game casinos deal, best first, that it makes:

- three cards (e.g. the player's three): the ranking of Three Card Poker (``hands.three``, and its Pair Plus and
  6-Card Bonus tables in every casino that deals it): straight flush > three of a kind > straight > flush > pair
  > high card (with three cards a flush is commoner than a straight). A-K-Q suited is ``royal_flush`` (the "mini
  royal"); A-2-3 is the lowest straight.
- four cards (e.g. the player's and banker's first two): the ranking of Four Card Poker (Shuffle Master; the
  four-card classes the baccarat poker bets pay on): four of a kind > straight flush > three of a kind > flush >
  straight > two pair > pair > high card. A-K-Q-J suited is ``royal_flush``; A-2-3-4 the lowest straight.

In a single deck no three or four cards make two of these classes except a straight flush (a straight and a
flush), so the poker games' own three- and four-card classes (``poker_side_count.short_class``) are the same sets
of cards; the rankings differ only where a shoe repeats a card. Five or six cards (the best five) are not counted
here: every card by rank and suit in five read positions is 380 million sequences, far past what the card count
reads (``card_count.LIMIT``), so such a condition is refused when the table loads.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from oddscalc.hands import HandClass
from oddscalc.hands.four import four_card_categories

H = HandClass
ORDER: dict[int, tuple[HandClass, ...]] = {
    3: (H.ROYAL_FLUSH, H.STRAIGHT_FLUSH, H.THREE_OF_A_KIND, H.STRAIGHT, H.FLUSH, H.PAIR, H.HIGH_CARD),
    4: (H.FOUR_OF_A_KIND, H.ROYAL_FLUSH, H.STRAIGHT_FLUSH, H.THREE_OF_A_KIND, H.FLUSH, H.STRAIGHT, H.TWO_PAIR,
        H.PAIR, H.HIGH_CARD),
}
ACE = 12  # rank index (cards.RANK_CHARS: "2".."9", "T", "J", "Q", "K", "A")


def hand_classes(ranks: NDArray[np.int64], suits: NDArray[np.int64]) -> NDArray[np.int64]:
    """(rows,) the index into ``ORDER[k]`` of each row's class, for (rows, k) rank and suit indices, k = 3 or 4
    (four: the ranking of ``hands.four``, its straight flushes to the ace apart as the royal flush)."""
    k = ranks.shape[1]
    r = np.sort(ranks, axis=1)
    if k == 4:
        cat = four_card_categories(ranks, suits)  # FOUR_CLASSES: ORDER[4] without the royal flush
        royal = (cat == 1) & (r[:, 0] != 0) & (r[:, -1] == ACE)  # ace-high, not A-2-3-4
        four: NDArray[np.int64] = np.where(cat == 0, 0, cat + 1) - royal
        return four
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = 1 + (np.diff(r, axis=1) != 0).sum(axis=1)
    wheel = (r[:, -1] == ACE) & (r[:, :-1] == np.arange(k - 1)).all(axis=1)
    straight = (distinct == k) & ((r[:, -1] - r[:, 0] == k - 1) | wheel)
    most = np.max((r[:, :, None] == r[:, None, :]).sum(axis=2), axis=1)
    made = {H.ROYAL_FLUSH: straight & flush & ~wheel & (r[:, -1] == ACE), H.STRAIGHT_FLUSH: straight & flush,
            H.FOUR_OF_A_KIND: most == 4, H.THREE_OF_A_KIND: most == 3, H.FLUSH: flush, H.STRAIGHT: straight,
            H.TWO_PAIR: (most == 2) & (distinct == k - 2), H.PAIR: most == 2}
    order = ORDER[k]
    out: NDArray[np.int64] = np.select([made[c] for c in order[:-1]], list(range(len(order) - 1)), len(order) - 1)
    return out


def pair_rank(ranks: NDArray[np.int64]) -> NDArray[np.int64]:
    """(rows,) the highest rank held twice or more in each row (-1: none), what "pair of <rank>" reads."""
    twice = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2) >= 2
    out: NDArray[np.int64] = np.where(twice, ranks, -1).max(axis=1)
    return out
