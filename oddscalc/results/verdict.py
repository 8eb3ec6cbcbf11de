"""The verdict: whom a table favours, wager by wager, from the sign of each wager's exact expected value."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from oddscalc.exact import frac_str, percent_str
from oddscalc.results.wager import WagerResult


@dataclass(frozen=True)
class Verdict:
    """Whom the table favours, wager by wager, from the sign of each wager's exact expected value: the first line
    of every report, so that a pay typed wrong (a flush at 50:1) cannot hand the game to the player unseen."""

    favours: str  # "player" (some wager has a positive EV), "house" (every EV negative) or "neither"
    player_wagers: tuple[str, ...]  # the ids of the wagers with a positive EV, best for the player first
    even_wagers: tuple[str, ...]  # the ids of the wagers whose EV is exactly 0
    text: str


def _signed_percent(x: Fraction) -> str:
    return ("+" if x > 0 else "") + percent_str(x)


def _named(w: WagerResult) -> str:
    return f"wager {w.wager} ({w.title})" if w.title.lower() != w.wager.replace("_", " ") else f"wager {w.wager}"


def _play(w: WagerResult, play: str) -> str:
    if play:
        return f" under {play}"
    return "" if w.strategy == "none" else " under optimal play" if w.strategy == "optimal" else \
        f" under the strategy {w.strategy}"


def rarity_from_rows(w: WagerResult) -> dict[str, Fraction]:
    """Each pay of a wager whose rows are its hands (every deal in exactly one row, a pay's rows being its hand's)
    with its hand's probability: the rows of one pay summed."""
    counts: dict[str, int] = {}
    for r in w.rows:
        if r.pay_ref:
            counts[r.pay_ref] = counts.get(r.pay_ref, 0) + r.combinations
    return {ref: Fraction(n, w.total_combinations) for ref, n in counts.items()}


def verdict(wagers: Sequence[WagerResult], play: str = "") -> Verdict:
    """The verdict on these wagers (``play``: how they are played, when the strategy's id does not say it, e.g.
    house baccarat's equilibrium among several seats). One wording for every game: a wager with a positive
    expected value is named first, with the exact figure."""
    good = sorted((w for w in wagers if w.expected_value > 0), key=lambda w: -w.expected_value)
    even = [w for w in wagers if w.expected_value == 0]
    bad = [w for w in wagers if w.expected_value < 0]
    parts: list[str] = []
    if good:
        parts.append("This game favours the PLAYER: " + "; ".join(
            f"{_named(w)} has an expected value of {_signed_percent(w.expected_value)} per "
            f"{w.unit}{_play(w, play)}, a house edge of {percent_str(w.house_edge)} (exact EV "
            f"{frac_str(w.expected_value)})" for w in good) + ".")
    if even:
        parts.append(("" if good else "No wager favours the player: ") + "; ".join(
            f"{_named(w)} breaks even exactly{_play(w, play)}" for w in even) + ".")
    if bad:
        best = min(bad, key=lambda w: w.house_edge)
        figure = (f"{_named(best)}: {percent_str(best.house_edge)} of the {best.unit}"
                  f"{_play(best, play)} (exact {frac_str(best.house_edge)})")
        if len(wagers) == 1:
            parts.append(f"This game favours the house: a house edge of {percent_str(best.house_edge)} of the "
                         f"{best.unit}{_play(best, play)} (exact {frac_str(best.house_edge)}).")
        elif good or even:
            parts.append(f"Every other wager favours the house; the lowest house edge is {figure}.")
        else:
            parts.append(f"Every wager favours the house; the lowest house edge is {figure}.")
    favours = "player" if good else "house" if not even else "neither"
    return Verdict(favours, tuple(w.wager for w in good), tuple(w.wager for w in even), " ".join(parts))
