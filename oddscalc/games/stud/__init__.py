"""The stud family declared in game files: cards to the player, the dealer and the board in stages, a decision
(fold or bet a size the rules allow) after a stage, a dealer who may have to qualify, bets paid against the dealer
and by hand class, side bets on the player's cards. Three Card Poker is a game file, not code.

The package, by the question each module answers: ``table`` the game file's model (validated TOML, never code);
``capabilities`` the registry of game files (read without loading numpy or pydantic); ``count`` the pay-free
enumeration of every deal; ``settle`` the decision by exact EV and every wager's rows; ``sections`` the report's
return by hand and strategy; ``game`` the registered class, one per game file. The counting argument of each stage
is at the top of its module.
"""
