"""Let It Ride: three equal bets, the first two may be pulled back.

Counting argument. A deal is the player's three cards (a set) and the two community cards
in the order they are shown: C(52,3) * 49 * 48 = 51,979,200 equally likely deals. A deal is
a four-card set q (the player's three and the first community card), which of q's cards was
shown (4 ways, leaving the three-card set t), and the last card (48 ways).

Count (pay-free, stored). Permuting the suits changes no outcome, so every count is kept per
suit class of holdings (16,432 four-card and 1,755 three-card classes on 52 cards, with their
sizes): for a four-card class, how many of its 48 completions end in each final pay class
(royal flush .. the minimum pair, or a loss), ``c4``, found by evaluating those hands; for a
three-card class t, how many of its C(49,2) completions do, ``c3``: half the sum of ``c4`` over
the 49 four-card sets holding t (each hand holding t is reached through two of them); and the
classes of each four-card class's four three-card subsets, ``sub3``.

Decisions. Each bet is paid on the same final hand, so the bets are independent: bet 1 rides
exactly when E[pay | three cards] > 0 and bet 2 exactly when E[pay | four cards] > 0, whatever
was done with the other. With v the net units of one bet by pay class, those expectations are
proportional to S3 = c3 . v and S4 = c4 . v, exact integers (pays scaled to a common
denominator). An EV of exactly zero pulls the bet back (the cheaper of two equal choices)
unless the table sets ``ride_on_zero``. The deals by (final class, bets in play) are then
sums of c4 rows: q with its card j shown has 1 + ride1[q minus j] + ride2[q] bets in play,
times the class size.

The package, by the question each module answers (the protocol of :mod:`oddscalc.protocol`):
``table`` the table file's model; ``count`` the pay-free holding counts; ``settle`` both pull-backs
decided exactly; ``wagers`` the main bet, the bonuses and the return by hand; ``holdings`` and
``wording`` the strategy as the report shows it; ``card`` strategy card files; ``game`` the
registered class. Nothing is imported here: the registry reads the game's capabilities without
loading numpy.
"""
