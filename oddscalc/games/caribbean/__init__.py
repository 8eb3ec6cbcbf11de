"""Caribbean Stud Poker with its Jackpot."""
