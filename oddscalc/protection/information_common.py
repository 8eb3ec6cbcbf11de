"""What the games' information engines share: what a glimpse shows of a card, a glimpse in words, and what a
model costs the house at the table's ``[limits]``, per round and per hour."""

from __future__ import annotations

from fractions import Fraction

from oddscalc.cards import Deck
from oddscalc.protection.glimpse import RANKS, Glimpse, Model
from oddscalc.protocol import OptionError
from oddscalc.results import Cell, Column, Section
from oddscalc.tables import Limits

# assumed, and said so, when the table's [limits] state no rounds_per_hour (one seat, a full table)
ROUNDS_PER_HOUR = 50


def card_class(glimpse: Glimpse | None, card: int) -> int:
    """The class of a card id (rank x 4 + suit) under what a glimpse shows: the card itself, its rank, its suit,
    its colour (red, hearts and diamonds, is 0) or its group; everything is one class when nothing is seen."""
    if glimpse is None:
        return 0
    if glimpse.shows == "card":
        return card
    if glimpse.shows == "rank":
        return card >> 2
    if glimpse.shows == "suit":
        return card & 3
    if glimpse.shows == "colour":
        return 0 if card & 3 in (1, 2) else 1
    return glimpse.sees(RANKS[card >> 2])


def class_names(glimpse: Glimpse) -> list[str]:
    """Labels of a two-class glimpse's classes: the groups' ranks, or red and black."""
    if glimpse.shows == "colour":
        return ["red", "black"]
    return ["".join(r for r in RANKS[::-1] if r in g) for g in glimpse.groups]


def glimpses_by_position(model: Model, deck: Deck, positions: tuple[str, ...], decisions: tuple[str, ...],
                         game: str) -> dict[str, Glimpse]:
    """The model's glimpses by position, refused (``OptionError``) where one names a position or decision the game
    does not have, a position twice, or groups that do not hold every rank of the deck once."""
    by: dict[str, Glimpse] = {}
    for g in model.glimpses:
        if g.position not in positions:
            raise OptionError(f"model {model.id}: position {g.position!r} is not a {game} card; positions: "
                              f"{', '.join(positions)}")
        if g.before not in ("", *decisions):
            raise OptionError(f"model {model.id}: before {g.before!r}: the decisions at {game} are "
                              f"{', '.join(decisions)}")
        if g.position in by:
            raise OptionError(f"model {model.id}: position {g.position} is glimpsed twice")
        if g.shows == "group":
            ranks = {RANKS[r] for r in deck.ranks}
            if sum(len(x & ranks) for x in g.groups) != len(ranks) or not ranks <= set().union(*g.groups):
                raise OptionError(f"model {model.id}: the groups of {g.position} must hold every rank once")
        by[g.position] = g
    return by


def glimpse_words(g: Glimpse) -> str:
    """One glimpse in words, for a report: the position, what is seen of it, and before which decision."""
    seen = {"card": "the card itself", "rank": "its rank", "suit": "its suit", "colour": "its colour (red or black)",
            "group": "its group (" + " | ".join("".join(r for r in "AKQJT98765432" if r in grp) for grp in g.groups)
                     + ")"}[g.shows]
    return f"{g.position}: {seen}" + (f", before {g.before}" if g.before else "")


def cost_section(value: Fraction, wager: str, unit: str, limits: Limits | None, what: str) -> Section:
    """The house's cost of ``value`` (per ``unit`` of ``wager``) at the table's smallest and largest bet: per round
    of one seat, and per hour at the table's ``rounds_per_hour`` (``ROUNDS_PER_HOUR`` assumed, and said,
    without it); a note in place of figures when the table states no limits."""
    columns = (Column("bet", "Bet"), Column("per_unit", f"Value per {unit}", "signed_percent", 4),
               Column("per_round", "Cost per round", "decimal", 2), Column("per_hour", "Cost per hour", "decimal", 2))
    bets = limits.bets.get(wager) if limits is not None else None
    if limits is None or bets is None:
        return Section("information_cost", "Cost to the house", columns, (),
                       intro=(f"The table states no [limits] for {wager}: the cost is {float(value):+.4%} of each "
                              f"{unit} staked by a player who {what}.",))
    hourly, paced = limits.pace(ROUNDS_PER_HOUR)
    rows: tuple[tuple[Cell, ...], ...] = tuple(
        (f"{label} {bet} {limits.currency}".strip(), value, value * bet, value * bet * hourly)
        for label, bet in (("table minimum", bets.min), ("table maximum", bets.max)))
    return Section(
        "information_cost", "Cost to the house at the table's limits", columns, rows,
        intro=(f"One seat that {what}, betting the table's minimum or maximum {unit} on every round; "
               f"hourly at {paced}. "
               f"Costs are in {limits.currency or 'the table currency'}; negative means the house gains.",))


def verdict(ev: Fraction, per: str) -> str:
    """The report's first words: whether the glimpse hands the game to the player (said first, as every report
    says who the game favours), at ``ev`` per ``per``."""
    if ev > 0:
        return (f"With this glimpse the game favours the PLAYER: {float(ev):+.4%} per {per} under the best use of it. "
                "A table where it can happen is beaten.")
    if ev == 0:
        return f"This glimpse gains the player nothing: an EV of 0 per {per} under the best use of it."
    return f"Even with this glimpse the game favours the house: {float(ev):+.4%} per {per}."
