"""The problem a checkpoint names, posed again from the file alone: its house rules, shoe, seats and pay as this
code's rules, and the search on them, so that ``oddscalc proof`` re-derives a kept proof's figures (its best
met's value, the compositions its shoe deals) before it reports them, with no table named.

Not part of the search (``checkpoint.SEARCH``): a proof's code digest does not depend on how it is read back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from oddscalc.cards import MAX_DECKS
from oddscalc.games.house_baccarat.count import HouseBaccaratRules
from oddscalc.games.shoe import VALUES, Shoe

_ROW = re.compile(r"[DS]{10}")
_PAY = re.compile(r"[1-9][0-9]{0,29}(/[1-9][0-9]{0,29})?")  # no exponent, no sign: a pay as ``problem`` writes it
ALL_STAND = ("never", "on-0-5")
MOST_CARDS = MAX_DECKS * 52  # the most cards a shoe holds (cards.MAX_DECKS)


@dataclass(frozen=True)
class Listed(HouseBaccaratRules):
    """The house game's rules on the shoe a checkpoint lists, card values 0 to 9 (a proof may be of a shoe that is
    no whole number of decks: the tests' are of a few ranks)."""

    listed: tuple[int, ...] = ()

    @property
    def shoe(self) -> Shoe:
        """The shoe listed (the pair bets' counts, which a proof never reads, left at 0)."""
        return Shoe(self.listed, (0,) * VALUES, f"{sum(self.listed)} cards")


def rules_named(problem: dict[str, Any], base: HouseBaccaratRules) -> tuple[HouseBaccaratRules, int]:
    """The rules and seats of the proof ``problem`` names, on ``base`` (any house baccarat table's rules: what a
    proof's problem does not name, it does not depend on). ValueError, saying what, for a problem this code could
    not have posed; the caller then checks that ``search.problem`` of the result gives ``problem`` back whole."""
    if problem.get("proof") != "best common strategy":
        raise ValueError("it is not a proof of the best common strategy")
    players, shoe, tableau = problem.get("players"), problem.get("shoe"), problem.get("house_tableau")
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 7:
        raise ValueError("its seats are not 2 to 7")
    if (not isinstance(shoe, list) or len(shoe) != VALUES
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shoe)
            or not 3 * players + 3 <= sum(shoe) <= MOST_CARDS):
        raise ValueError(f"its shoe is not {VALUES} counts of cards by point value, enough for a round and at most "
                         f"{MOST_CARDS:,} cards")
    if not isinstance(tableau, list) or len(tableau) != 8 or not all(
            isinstance(r, str) and _ROW.fullmatch(r) for r in tableau):
        raise ValueError("its house tableau is not 8 rows of 10 letters D or S")
    pay, all_stand, infinite = problem.get("pay"), problem.get("house_draws_when_all_stand"), problem.get("infinite")
    if not isinstance(pay, str) or not _PAY.fullmatch(pay):
        raise ValueError("its pay is not a positive fraction such as 19/20")
    if all_stand not in ALL_STAND or not isinstance(infinite, bool):
        raise ValueError(f"its house rule when all stand is not one of {', '.join(ALL_STAND)}, or its shoe model "
                         "not true or false")
    kept = {f.name: getattr(base, f.name) for f in fields(base) if f.init and f.name != "listed"}
    kept.update(players=players, house_tableau=tuple(tableau), all_stand=all_stand, infinite=infinite,
                pay=Fraction(pay))
    return Listed(**kept, listed=tuple(shoe)), players
