"""Caribbean Stud Poker with the fixed-prize Jackpot side bet.

Counting argument. A deal is the player's five cards (a set), the dealer's up card (one of
the 47 others) and the dealer's four hole cards (a set from the 46 left):
C(52,5) * 47 * C(46,4) = 19,933,230,517,200 equally likely deals (the up card is ordered,
the published convention).

Count (pay-free, stored). For each of the 134,459 suit classes of player hands (with their
weights) and each of the 47 up cards, the dealer hands that do not qualify, lose to the player
or tie, by inclusion and exclusion over the player's cards, in one sweep over the dealer's hands
in ascending strength (``dealer_sweep``). Then, per hand, the up cards sorted by the pay above
which raising beats folding (``raise_table``). None of it depends on the pays: one count serves
every pay table and strategy.

Settle (per pay table). Raising is worth (nq + win * (1 + 2 * pay) - 3 * lose) / C(46,4) antes
against -1 for folding; the optimal strategy raises exactly when that is larger (an exact tie
folds: the same EV at a lower stake). With the up cards sorted by that threshold, a pay table's
optimal decisions are a prefix of each hand's up cards, decided exactly, for any pay.

The package, by the question each module answers (the protocol of :mod:`oddscalc.protocol`):
``table`` the table file's model; ``count`` the pay-free dealer counts (``dealer_sweep`` the
kernel); ``raise_table`` the counts sorted for settling and the named strategies; ``settle`` a pay
table under every strategy; ``wagers`` the main bet and the Jackpot; ``sections`` the report's
charts and tables; ``card`` strategy card files; ``game`` the registered class. Nothing is imported
here: the registry reads the game's capabilities without loading numpy.
"""
