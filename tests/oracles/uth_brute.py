"""A brute force of Ultimate Texas Hold'em on a reduced deck, written apart from the engine: every deal (the
player's two cards, the flop, the turn and river, the dealer's two: each a set, no symmetry) valued by
``board_brute``'s own ranking, each decision chosen by direct enumeration of what follows it (the river's over the
dealer's cards, the flop's over the turn, river and dealer with the river played at its best, the first over every
flop likewise), every deal settled as the rules say.

Rules: ante and blind of one unit each; before the flop check or play ``early`` antes (3 or 4), on the flop check
or play 2, on the river play 1 or fold (losing the ante and the blind); one play at most. Against the dealer's hand
(best five of seven): the play wins 1:1 whether he qualifies or not, the ante wins 1:1 when he qualifies (pushes
when he does not), the blind is paid by its table when the player wins (a class not in it pushes); equal hands
push all; a loss loses the play, the blind and the ante (the ante pushed when he does not qualify). Between equal
EVs the smaller stake.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from oracles.board_brute import CLASS_NAMES, deal_values

SCALE = 2  # every pay of the table in halves (a flush's 3:2)


def brute(cards: Sequence[int], minimum: tuple[int, int], blind: dict[str, Fraction],
          early: Sequence[int] = (3, 4)) -> tuple[Counter[tuple[Fraction, int]], Fraction]:
    """Every deal's (net antes, stake) and the total won."""
    n = len(cards)
    x, y, cls, q = deal_values(cards, (2, 3, 0, 2, 2), minimum)
    shape = (n * (n - 1) // 2, -1, (n - 5) * (n - 6) // 2, (n - 7) * (n - 8) // 2)  # hole, flop, turn-river, dealer
    x, y, cls, q = (a.reshape(shape) for a in (x, y, cls, q))
    win, tie = x > y, x == y
    blind_pay = np.array([int(blind.get(c, Fraction(0)) * SCALE) for c in CLASS_NAMES], dtype=np.int64)[cls]
    blind_net = np.where(win, blind_pay, np.where(tie, 0, -SCALE))
    ante_net = np.where(q, np.where(win, SCALE, np.where(tie, 0, -SCALE)), 0)

    def net(play: int) -> np.ndarray:  # in halves of an ante, every deal
        return ante_net + blind_net + np.where(win, play * SCALE, np.where(tie, 0, -play * SCALE))

    fold = -2 * SCALE
    river_bet = net(1).sum(axis=3)  # per (hole, flop, turn-river)
    dealers = x.shape[3]
    river_plays = river_bet > fold * dealers
    river_value = np.where(river_plays, river_bet, fold * dealers)
    flop_bet = net(2).sum(axis=(2, 3))
    flop_check = river_value.sum(axis=2)
    flop_plays = flop_bet > flop_check
    flop_value = np.where(flop_plays, flop_bet, flop_check)
    first = np.zeros(x.shape[0], dtype=np.int64)  # 0: check
    first_value = flop_value.sum(axis=1)
    for b in sorted(early):
        ev = net(b).sum(axis=(1, 2, 3))
        better = ev > first_value
        first = np.where(better, b, first)
        first_value = np.where(better, ev, first_value)
    play = np.where(first[:, None, None, None] > 0, first[:, None, None, None],
                    np.where(flop_plays[:, :, None, None], 2,
                             np.where(river_plays[:, :, :, None], 1, -1)))  # -1: folded on the river
    play = np.broadcast_to(play, x.shape)
    out: Counter[tuple[Fraction, int]] = Counter()
    total = Fraction(0)
    for b in (-1, 1, 2, *early):
        mine = play == b
        if not mine.any():
            continue
        if b == -1:
            out[(Fraction(-2), 2)] += int(mine.sum())
            total -= 2 * int(mine.sum())
            continue
        nets = net(b)[mine]
        low = int(nets.min())
        tallies = np.bincount(nets - low)
        for i in np.flatnonzero(tallies).tolist():
            v, k = Fraction(i + low, SCALE), int(tallies[i])
            out[(v, 2 + b)] += k
            total += v * k
    return out, total
