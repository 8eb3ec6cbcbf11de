"""The envy bonus of a poker side bet (Caribbean Stud, Let It Ride): a fixed amount for each OTHER seat whose own
cards are of a stated class, counted exactly for each number of other seats.

A table declares it on a side bet over the cards (``poker_side_bets``)::

    [pays.progressive.envy]
    four_of_a_kind = 50        # paid to this bet for each other seat holding four of a kind
    straight_flush = 100
    royal_flush = 500
    seats = [1, 2, 3, 4, 5, 6] # the numbers of other seats to report (an int is one number); 1..6 unless told
    other_seat_must_bet = false

The rule implemented: a player with the side bet up is paid the class's amount (money, on top of whatever the bet
itself pays, the stake staying in play as the bet says) once for each other seat at the table whose own cards are
of a class named, whatever that seat decides on its own hand; never for his own cards or the dealer's. A seat's own
cards are what the game deals it alone: five in Caribbean Stud, three in Let It Ride (the community cards are
everybody's, so a Let It Ride envy reads each other seat's three cards, as a 3-card bonus does; a class of five
cards (four of a kind, a full house, two pair) cannot be named there). The same is asked of the Caribbean Stud
``[pays.jackpot]`` block (``caribbean.table``): its prizes read the player's five cards alone when the jackpot is
paid on a folded hand. With ``other_seat_must_bet = true`` only seats that have the side bet up count, and
``seats`` counts those seats: the figures are the same function of that number (the envy reads only the cards), so
the key changes the words only.

Counting argument. Let k be the cards of a seat's own hand. The bet's own outcome X reads only the player's k
cards (a bet with envy may read nothing else: refused when the table loads), each other seat's envy V_i only that
seat's k. Every two of those hands are, over every deal, uniform over the ordered pairs of disjoint k-card hands,
``C(n,k) C(n-k,k)`` of them (the deal is exchangeable), so with n other seats:

    E[X + sum V_i] = E[X] + n E[V]
    E[(X + sum V_i)^2] = E[X^2] + 2n E[X V_1] + n E[V^2] + n(n-1) E[V_1 V_2]

and the two cross moments need the pair counts N(e, c), the ordered disjoint pairs (player's hand on line e,
other seat's hand of class c), and M(c, d), two other seats of classes c and d. Both are sums over hands p of
D_c(p), the hands of class c disjoint from p, which inclusion-exclusion gives from the class-c hands containing
each subset S of p: ``D_c(p) = sum over S of (-1)^|S| A_c(S)`` (A_c of the empty set is every class-c hand), each
A_c a bincount of the class-c hands' j-subsets by colex index. Integers as numpy int64 (at most C(52,5)^2 < 2^63),
then Python ints and Fractions.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray
from pydantic import BeforeValidator, Field, field_validator

from oddscalc.cache import Store
from oddscalc.cards import Deck
from oddscalc.exact import frac_str
from oddscalc.hands import BINOM, HAND_CLASSES, HandClass, colex_combos, hand_table
from oddscalc.protocol import OptionError
from oddscalc.results import Column, Section, WagerResult
from oddscalc.tables import Amount, Strict, money_text

MAX_OTHER_SEATS = 8  # the player, eight others and the dealer hold 50 of the 52 cards
DEFAULT_SEATS = (1, 2, 3, 4, 5, 6)  # a seven-seat table: up to six other seats
NUMBER = {3: "three", 4: "four", 5: "five"}  # a seat's own cards, in words


def parse_seats(value: Any) -> tuple[int, ...]:
    """A number of other seats (1 to 8), or a list of them to report."""
    items = value if isinstance(value, list | tuple) else [value]
    if not items:
        raise ValueError("seats: an empty list reports nothing")
    for v in items:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_OTHER_SEATS:
            raise ValueError(f"seats: a number of other seats from 1 to {MAX_OTHER_SEATS}, not {v!r}")
    return tuple(sorted(set(items)))


Seats = Annotated[tuple[int, ...], BeforeValidator(parse_seats)]


def _amount(description: str) -> Any:
    return Field(None, description=description + " (money: an int or a decimal string; the stake is not "
                                                 "returned by it)")


class Envy(Strict):
    """An envy bonus: an amount paid to this bet for each other seat whose own cards are of a class named."""

    royal_flush: Amount | None = _amount("paid for each other seat holding a royal flush")
    straight_flush: Amount | None = _amount("paid for each other seat holding a straight flush")
    four_of_a_kind: Amount | None = _amount("paid for each other seat holding four of a kind")
    full_house: Amount | None = _amount("paid for each other seat holding a full house")
    flush: Amount | None = _amount("paid for each other seat holding a flush")
    straight: Amount | None = _amount("paid for each other seat holding a straight")
    three_of_a_kind: Amount | None = _amount("paid for each other seat holding three of a kind")
    two_pair: Amount | None = _amount("paid for each other seat holding two pair")
    pair: Amount | None = _amount("paid for each other seat holding a pair")
    seats: Seats = Field(DEFAULT_SEATS, description="the numbers of other seats filled to report: one (3) or a list "
                                                    "([1, 2, 3]), each 1 to 8")
    other_seat_must_bet: bool = Field(False, description="whether another seat counts only with the side bet up "
                                                         "(then seats counts those seats; the figures are alike)")

    @field_validator(*(c.value for c in HAND_CLASSES if c is not HandClass.HIGH_CARD))
    @classmethod
    def _positive(cls, v: Fraction | None) -> Fraction | None:
        if v is not None and v <= 0:
            raise ValueError("an envy amount is more than 0 (leave the class out to pay nothing)")
        return v

    def amounts(self) -> dict[HandClass, Fraction]:
        """The classes paid, best first, with their amounts."""
        out = {c: getattr(self, c.value) for c in HAND_CLASSES if c is not HandClass.HIGH_CARD}
        return {c: a for c, a in out.items() if a is not None}

    def check(self, size: int = 5) -> None:
        """At least one class is paid, each one a hand of ``size`` cards can be (three cards hold no four of a
        kind, full house or two pair)."""
        if not self.amounts():
            raise ValueError("an envy block pays at least one class (e.g. four_of_a_kind = 50)")
        cannot = [c for c in self.amounts() if size < 5 and c in FIVE_CARD_ONLY]
        if cannot:
            own = f"a seat's own {NUMBER.get(size, size)} cards"
            raise ValueError(f"{cannot[0].value}: {own} cannot be one (the envy reads each other seat's own cards)")


FIVE_CARD_ONLY = (HandClass.FOUR_OF_A_KIND, HandClass.FULL_HOUSE, HandClass.TWO_PAIR)  # not among three cards


def check_envy_reads(reads: tuple[str, ...]) -> None:
    """A bet with an envy bonus reads the player's own cards only (its outcome and each other seat's are then
    two hands of one deal, which the pair counts need)."""
    other = [p for p in reads if p != "player"]
    if other:
        raise ValueError(f"a side bet with an envy block reads the player's cards only, not {other[0]!r}: the envy "
                         "figures pair the player's hand with each other seat's")


def seat_classes(deck: Deck, size: int) -> NDArray[np.int64]:
    """(C(n,size),) the HandClass code of each ``size``-card hand of ``deck`` in colex order: five cards by the
    hand table, three or four by ``poker_side_count.short_class`` (the class a side bet's ``hand`` reads)."""
    if size == 5:
        return np.asarray(hand_table(deck).hand_class, dtype=np.int64)
    from oddscalc.games.poker_side_count import short_class

    cards = np.array(deck.cards, dtype=np.int64)[colex_combos(deck.size, size)]
    return short_class(cards >> 2, cards & 3)


@dataclass(frozen=True)
class EnvyCounts:
    """The exact counts the envy figures need, on one deck.

    ``size``: the cards of a seat's own hand, k; ``hands``: C(n,k); ``pairs``: ordered disjoint pairs of hands,
    C(n,k) C(n-k,k); ``lines[e]``: the player's hands on line e; ``classes[c]``: hands of class c;
    ``player_other[(e, c)]`` and ``other_other[(c, d)]``: the ordered disjoint pairs so classed.
    """

    size: int
    hands: int
    pairs: int
    lines: tuple[int, ...]
    classes: dict[HandClass, int]
    player_other: dict[tuple[int, HandClass], int]
    other_other: dict[tuple[HandClass, HandClass], int]


def count_envy(line_of_hand: NDArray[np.int64], n_lines: int, classes: tuple[HandClass, ...],
               deck: Deck, size: int = 5) -> EnvyCounts:
    """The counts from each hand's line (``line_of_hand``, colex order of ``deck``'s ``size``-card hands).

    Both pair counts are sums over the hands h of a class c of the hands disjoint from h, by inclusion-exclusion
    over the subsets S of h: the player's hands on each line containing S (``within``, one pass over every hand
    per subset size) and the hands of class d containing S (from the class-d hands alone)."""
    n, big = deck.size, np.asarray(line_of_hand, dtype=np.int64)
    pos = colex_combos(n, size).astype(np.intp)
    cls = seat_classes(deck, size)
    lines = np.bincount(big, minlength=n_lines).astype(np.int64)
    by_size = {k: list(itertools.combinations(range(size), k)) for k in range(1, size)}

    def index(rows: NDArray[np.intp], s: tuple[int, ...]) -> NDArray[np.int64]:  # colex index of the k-subset
        out = np.zeros(len(rows), dtype=np.int64)
        for t, j in enumerate(s):
            out += np.take(BINOM[:, t + 1], rows[:, j])  # a 1-d take: far faster than a 2-d fancy index
        return out

    within = {}  # k -> (C(n,k), lines): the player's hands on each line containing each k-subset
    for k, subs in by_size.items():
        acc = np.zeros(math.comb(n, k) * n_lines, dtype=np.int64)
        for s in subs:
            acc += np.bincount(index(pos, s) * n_lines + big, minlength=len(acc))
        within[k] = acc.reshape(-1, n_lines)
    rows = {c: pos[cls == c.code] for c in classes}
    player_other: dict[tuple[int, HandClass], int] = {}
    other_other: dict[tuple[HandClass, HandClass], int] = {}
    for c in classes:
        h = rows[c]
        total = len(h) * lines - np.bincount(big[cls == c.code], minlength=n_lines)  # S = {} and S = h itself
        for k, subs in by_size.items():
            for s in subs:
                total += (-1) ** k * within[k][index(h, s)].sum(axis=0)
        player_other.update({(e, c): int(x) for e, x in enumerate(total)})
        for d in classes:
            got = len(h) * len(rows[d]) - (len(h) if c == d else 0)
            for k, subs in by_size.items():
                containing = np.zeros(math.comb(n, k), dtype=np.int64)  # class-d hands containing each k-subset
                for s in subs:
                    containing += np.bincount(index(rows[d], s), minlength=len(containing))
                got += (-1) ** k * sum(int(containing[index(h, s)].sum()) for s in subs)
            other_other[(c, d)] = got
    return EnvyCounts(size, math.comb(n, size), math.comb(n, size) * math.comb(n - size, size),
                      tuple(int(x) for x in lines),
                      {c: len(rows[c]) for c in classes}, player_other, other_other)


@dataclass(frozen=True)
class EnvyFigure:
    """The bet with its envy at one number of other seats, per stake: EV, variance (exact) and standard deviation."""

    seats: int
    ev: Fraction
    variance: Fraction
    bet_ev: Fraction  # the bet alone, without envy
    seat_ev: Fraction  # what each other seat adds

    @property
    def sd(self) -> float:
        """The standard deviation (the square root of the exact variance)."""
        return math.sqrt(self.variance)


def envy_figures(values: tuple[Fraction, ...], envy: dict[HandClass, Fraction], counts: EnvyCounts,
                 seats: tuple[int, ...], deck: Deck) -> tuple[EnvyFigure, ...]:
    """The EV and variance per stake for each number of other seats: ``values`` the net stakes won on each of the
    player's lines, ``envy`` each class's amount in stakes."""
    k = counts.size
    too_many = [s for s in seats if k * (s + 1) > deck.size]  # the dealer's cards enter no figure
    if too_many:
        raise OptionError(f"{too_many[0]} other seats: the player's and their {NUMBER.get(k, k)} cards each are "
                          f"{k * (too_many[0] + 1)} cards, more than the {deck.size} of {deck.describe()}")
    h, pairs = counts.hands, counts.pairs
    ex = Fraction(sum(v * n for v, n in zip(values, counts.lines, strict=True)), h)
    ex2 = Fraction(sum(v * v * n for v, n in zip(values, counts.lines, strict=True)), h)
    ev_ = Fraction(sum(a * counts.classes[c] for c, a in envy.items()), h)
    ev2 = Fraction(sum(a * a * counts.classes[c] for c, a in envy.items()), h)
    exv = Fraction(sum(values[e] * a * counts.player_other[(e, c)] for c, a in envy.items()
                       for e in range(len(values))), pairs)
    evv = Fraction(sum(a * b * counts.other_other[(c, d)] for c, a in envy.items() for d, b in envy.items()), pairs)
    out = []
    for n in seats:
        mean = ex + n * ev_
        second = ex2 + 2 * n * exv + n * ev2 + n * (n - 1) * evv
        out.append(EnvyFigure(n, mean, second - mean * mean, ex, ev_))
    return tuple(out)


def envy_section(w: WagerResult, envy: Envy, stake: Fraction, figures: tuple[EnvyFigure, ...],
                 size: int = 5) -> Section:
    """The bet with its envy bonus, one row per number of other seats."""
    paid = ", ".join(f"{c.value.replace('_', ' ')} {money_text(a)}" for c, a in envy.amounts().items())
    who = "(with the side bet up)" if envy.other_seat_must_bet else "(whatever it bets)"
    rows = tuple((f.seats, f.ev, -f.ev, Fraction(f.variance), Fraction(f.sd).limit_denominator(10**9))
                 for f in figures)
    return Section(
        f"envy_{w.wager}", f"Envy bonus: {w.title}",
        (Column("other_seats", "Other seats", "int"), Column("ev", "EV per stake", "decimal", 6),
         Column("house_edge", "House edge", "signed_percent"), Column("variance", "Variance", "decimal", 4),
         Column("sd", "Standard deviation", "decimal", 4)),
        rows,
        intro=(f"Envy: {paid}, paid to this bet (stake {money_text(stake)}) for each other seat {who} whose "
               + ("five cards are of that class, never for the player's own cards or the dealer's." if size == 5 else
                  f"own {NUMBER.get(size, size)} cards are of that class, never for the player's own cards, the "
                  "dealer's or the community cards."),
               f"EV per stake = {frac_str(figures[0].bet_ev)} (the bet alone) + n x {frac_str(figures[0].seat_ev)} "
               "(each other seat's envy), exactly, n the other seats."),
        notes=("Exact: every two hands of a deal (the player's and a seat's, or two seats') are uniform over the "
               f"ordered disjoint pairs of {NUMBER.get(size, size)}-card hands, so the EV is linear in the seats and "
               "the variance needs the pair counts, counted over every hand by inclusion-exclusion.",
               "The standard deviation is the square root of the exact variance, rounded."))


def envy_key(bet_key: Any, classes: tuple[HandClass, ...], deck: Deck, size: int = 5) -> str:
    """What the counts depend on: the bet's conditions, the classes paid, the deck and a seat's own cards."""
    return json.dumps([bet_key, [c.value for c in classes], list(deck.ranks), deck.n_suits, size], sort_keys=True)


_KEPT: dict[str, EnvyCounts] = {}


@dataclass(frozen=True)
class EnvyBet:
    """A bet carrying an envy block, as the envy figures read it: its wager's name, the block, its stake, the cards
    of a seat's own hand, what its lines depend on (``key``: its conditions, never its pays) and each hand's line
    (``line_of_hand(deck)``: the index, in the wager's row order, of each ``size``-card hand in colex order)."""

    wager: str
    envy: Envy
    stake: Fraction
    size: int
    key: Any
    line_of_hand: Callable[[Deck], NDArray[np.int64]]
    n_lines: int


def side_envy_bets(pays: object) -> list[EnvyBet]:
    """The side bets over the cards of ``pays`` (``poker_side_bets``) that carry an envy block: a seat's own hand is
    the game's ``player`` slot (Caribbean Stud five cards, Let It Ride three)."""
    from oddscalc.games.poker_side_count import hand_lines, lines, side_bets

    out = []
    for name, bet in side_bets(pays):
        envy = getattr(bet, "envy", None)
        if isinstance(envy, Envy):
            out.append(EnvyBet(name, envy, bet.stake, bet.SLOTS["player"], bet.count_key(),
                               functools.partial(hand_lines, bet), len(lines(bet))))
    return out


def _key(b: EnvyBet, deck: Deck) -> str:
    return envy_key(b.key, tuple(b.envy.amounts()), deck, b.size)


def envy_counts_of(b: EnvyBet, deck: Deck) -> EnvyCounts:
    """The envy counts of ``b`` on ``deck``, kept per conditions, classes, deck and hand size."""
    key = _key(b, deck)
    if key not in _KEPT:
        _KEPT[key] = count_envy(b.line_of_hand(deck), b.n_lines, tuple(b.envy.amounts()), deck, b.size)
    return _KEPT[key]


def envy_counts(bet: Any, deck: Deck) -> EnvyCounts:
    """The envy counts of a side bet with an ``envy`` block on ``deck`` (``envy_counts_of``)."""
    from oddscalc.games.poker_side_count import hand_lines, lines

    return envy_counts_of(EnvyBet("", bet.envy, bet.stake, bet.SLOTS["player"], bet.count_key(),
                                  functools.partial(hand_lines, bet), len(lines(bet))), deck)


def envy_sections(pays: object, wagers: list[WagerResult], deck: Deck,
                  more: Sequence[EnvyBet] = ()) -> list[Section]:
    """One section per bet with an envy block, from its settled wager (its rows' net stakes won): the side bets
    over the cards of ``pays``, then ``more`` (a game's own blocks, e.g. the Caribbean Stud jackpot)."""
    by_name = {w.wager: w for w in wagers}
    out = []
    for b in (*side_envy_bets(pays), *more):
        w, envy, k = by_name[b.wager], b.envy, b.size
        amounts = {c: a / b.stake for c, a in envy.amounts().items()}
        fit = tuple(n for n in envy.seats if k * (n + 1) <= deck.size) or envy.seats  # none fit: refused below
        figures = envy_figures(tuple(r.units for r in w.rows), amounts, envy_counts_of(b, deck), fit, deck)
        section = envy_section(w, envy, b.stake, figures, k)
        if fit != envy.seats:  # a reduced deck (--deck) holds fewer hands than the table asks about
            section = dataclasses.replace(section, notes=(*section.notes, (
                f"Not reported: {', '.join(str(n) for n in envy.seats if n not in fit)} other seats, more hands of "
                f"{NUMBER.get(k, k)} than the {deck.size} cards of {deck.describe()} hold beside the player's.")))
        out.append(section)
    return out


ENGINE = 1  # the envy count's own version: a change to what it counts bumps it


def stored_envy(game: str, pays: object, deck: Deck, store: Store, more: Sequence[EnvyBet] = ()) -> None:
    """Each envy block's counts from the store (counted and stored when it has none), kept for ``envy_sections``:
    the side bets' over the cards of ``pays``, then ``more``."""
    for b in (*side_envy_bets(pays), *more):
        classes = tuple(b.envy.amounts())
        key = _key(b, deck)
        if key in _KEPT:
            continue

        def build(b: EnvyBet = b, classes: tuple[HandClass, ...] = classes) -> dict[str, np.ndarray]:
            c = envy_counts_of(b, deck)
            return {"lines": np.array(c.lines, dtype=object), "classes": np.array([c.classes[k] for k in classes],
                                                                                  dtype=object),
                    "player_other": np.array([[c.player_other[(e, k)] for k in classes] for e in range(len(c.lines))],
                                             dtype=object),
                    "other_other": np.array([[c.other_other[(k, j)] for j in classes] for k in classes], dtype=object)}

        a = store.get({"game": game, "envy": json.loads(key), "engine": ENGINE}, build)
        n, k = deck.size, b.size
        _KEPT[key] = EnvyCounts(
            k, math.comb(n, k), math.comb(n, k) * math.comb(n - k, k), tuple(int(x) for x in a["lines"]),
            {c: int(x) for c, x in zip(classes, a["classes"], strict=True)},
            {(e, c): int(a["player_other"][e][i]) for e in range(len(a["lines"])) for i, c in enumerate(classes)},
            {(c, j): int(a["other_other"][i][m]) for i, c in enumerate(classes) for m, j in enumerate(classes)})
