"""Punto banco: players bet on punto (player), banca (banker) or a tie; nobody makes a choice.

Rules. Cards are dealt punto, banca, punto, banca. A two-card 8 or 9 on either side is a natural
and both hands stand. Otherwise punto draws one card on the totals the table lists (standard: 0-5)
and stands on the others. If punto drew, banca consults the tableau, an 8 x 10 grid of banca's
total (0-7) by punto's third card (0-9); if punto stood, banca draws on the totals the table lists
(standard: 0-5). Higher final total wins; equal totals tie. All of this is data in the table file.

Counting argument. A coup is decided by at most six cards. Every coup is counted as an ordered
sequence of the first six cards of the shoe, the published convention, so the total is
``size P 6`` (8 decks: 416P6 = 4,998,398,275,503,360); an infinite shoe (``decks = "infinite"``)
draws with replacement, 52 ** 6 sequences. ``count`` produces, once per shoe and drawing rules, the
joint distribution of the coup's features (``coup_features``: final totals and cards of each side,
and whether each side's first two cards share a rank or a suit): 6,400 exact counts. Every wager
is a list of rules over those features (``bet_rules``), so settling any of them, main or side, is
a sum of counts per rule.

A second method (``value_count``) counts the 400 outcomes from point values alone (``count_coups``): for each
multiset of six values the value orderings of each outcome, times the multiset's falling product
(see ``shoe``); the tests hold the two to each other.

The package, by the question each module answers (the protocol of :mod:`oddscalc.protocol`):
``coup_features`` the coup's features and their pay-free joint counts; ``side_bets`` the wagers as
rules over those features; ``card_conditions`` and ``card_count`` the side bets that also read the cards
themselves (ranks, suits, colours of named cards) and their own pay-free count, by outcome and by which
conditions hold, one pass per bet over what it reads; ``game`` the table model, the registered class and
the settlement; ``value_count`` the second method.
Nothing is imported here: the registry reads the game's capabilities without loading numpy.
"""
