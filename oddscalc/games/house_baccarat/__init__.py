"""House baccarat: the rule sheet's main game, each player's own hand against the house.

Rules (``shared/rules/baccarat.es.txt``). Every player and the house get two cards. A player with
a natural (8 or 9) shows it and competes at once against the house's two cards; every other player
sits out the round (a push). Otherwise each player, seeing only their own two cards, draws one card
or stands. The house then draws by the sheet's table, indexed by the highest third card (by point
value: 10/J/Q/K count 0) among the players who drew; if nobody drew the house stands (literal
reading; the switch ``house_draws_when_all_stand = "on-0-5"`` makes it draw on 0-5). Higher total
wins 1:1, equal totals push. The table is data; so is the players' strategy, which may be fixed
(``draw_on``) or solved exactly.

Counting argument. With N players a round uses at most 3N + 3 cards: two per player, two for the
house, a third card per player and one for the house. Every round is counted as an ordered
sequence of 3N + 3 cards (for one player, 416P6 for 8 decks: the punto banco convention); cards the
round leaves undealt count once for every way they can lie. Seats are exchangeable, so "you" hold
the first seat; the others matter only through a class: one of them has a natural, or nobody else
drew, or the highest third card they drew is z. Then

    combinations(you, outcome) = sum over multisets m of your six slots (your two cards, the house's
    two, your third card, the house's third) of
        [value orderings of m with that outcome, for each class]   (shoe-free, small integers)
      x [falling product of m] x [card sequences of the others, by class, from the shoe minus m].

The first factor is enumerated once with numpy: the 10**4 orderings of the four slots after your
two cards, for every two-card total of yours, both actions and every class. The last is the
other-seat recursion of ``others`` (by rank in ``levels`` from two other seats). Its state
space grows with every seat; the finite shoe is exact up to ``FINITE_EXACT_MAX_PLAYERS`` players,
now every table size (a full table's report takes about 25 s and 4.5 GB, benchmarks/bench_baccarat.py).
Beyond that limit, were it lowered, the report is exact on an infinite shoe (cards with replacement,
13 ** (3N + 3) sequences, where the other seats are independent), and ``oddscalc simulate``
estimates the finite shoe. The counts carry no pays and depend on the
others' strategy only, so they are stored per (shoe, seats, house rules, others' strategy).

Strategy. For each of your two-card compositions the exact combinations of win, push, loss and
sitting out are known for both drawing and standing, so the best play is read off exactly: by
composition (``optimal``) and by total only (``optimal-total``). With other seats playing the same
strategy, the optimum is the fixed point of best responses: a strategy that is a best response when
every other seat plays it too (a symmetric equilibrium). Some common strategy may give every seat
more (the others' third cards make the house draw), but then each seat gains by deviating from it.

The package, by the question each module answers (the protocol of :mod:`oddscalc.protocol`):
``table`` the table file's model; ``strategy`` a play as data (draw or stand per composition);
``count`` your seat's pay-free counts (the six slots, the seat counts, the store); ``others`` and
``levels`` the other seats' sequences by class (numpy, then numba by rank); ``settle`` the best play
and the equilibrium from exact counts, and the wager; ``sections`` the report's sections and text;
``card`` strategy card files; ``game`` the registered class. Nothing is imported here: the registry
reads the game's capabilities without loading numpy.
"""
