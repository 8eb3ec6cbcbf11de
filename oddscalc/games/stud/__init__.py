"""The stud family declared in game files: cards to the player, the dealer and the board in stages, a decision
(fold or bet a size the rules allow) after a stage, a dealer who may have to qualify, bets paid against the dealer
and by hand class, side bets on the player's cards. Three Card Poker and Mississippi Stud are game files, not code.

The package, by the question each module answers: ``table`` the game file's model (validated TOML, never code);
``capabilities`` the registry of game files (read without loading numpy or pydantic); ``count`` the pay-free
enumeration of every deal against a dealer; ``settle`` its decision by exact EV and every wager's rows; ``sections``
its return by hand and strategy; ``streets`` the games without a dealer (a decision before each card, backward
induction over the cards held and the antes in play); ``game`` the registered class, one per game file. The
counting argument of each stage is at the top of its module.
"""
