"""Let It Ride with an information model: a community card flashed (seen outright, or by its rank, suit or group)
before a pull-back decision, exact.

Positions ``community_1`` (turned up after bet 1 is decided) and ``community_2`` (turned up last); decisions
``first`` (bet 1) and ``second`` (bet 2). A glimpse ``before = "first"`` (the default) is known at both decisions,
``before = "second"`` only at bet 2 (where ``community_1`` is seen anyway).

Counting argument. The three bets pay v(final hand) x (1 + ride1 + ride2), so each pull-back is its own choice:
bet 1 rides when the sum of v over the deals that look the same at bet 1 (the player's three cards and what the
glimpses show of the two community cards) is positive, bet 2 when it is over the deals that look the same at bet
2 (the three cards, the first community card, what is seen of the second). For each suit class of the player's
three cards (by its size) every ordered pair of community cards of the cards left is read (49 x 48 on a full deck)
and summed by what is seen, in int64: C(n,3) x (n-3) x (n-4) deals, the game's own convention. A colour split is
not kept by the suit permutations, so a model reading a colour counts every three-card hand instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.cards import Deck
from oddscalc.hands import colex_combos, colex_indices
from oddscalc.protection.glimpse import RANKS, Glimpse, Model
from oddscalc.protection.information_common import (
    card_class,
    cost_section,
    glimpse_words,
    glimpses_by_position,
    verdict,
)
from oddscalc.protocol import OptionError
from oddscalc.results import Cell, Column, Section
from oddscalc.symmetry import suit_classes

if TYPE_CHECKING:
    from oddscalc.analysis import Session
    from oddscalc.progress import Progress
    from oddscalc.tables import Limits

# Eliot Jacobson's figures for the standard pay table (1000, 200, 50, 11, 8, 5, 3, 2, 1; tens or better), one deck:
# the model's glimpses (position, shows, group of the first group's ranks, before) -> (player's edge, source)
PUBLISHED: dict[tuple[tuple[str, str, str, str], ...], tuple[Fraction, str]] = {
    (("community_2", "card", "", "first"),): (
        Fraction(2443, 10000), "Eliot Jacobson, 'Let it Ride Hole-Card Play' (888casino.com): an edge of 24.43% "
        "seeing the river card"),
    (("community_1", "group", "T", "first"), ("community_2", "group", "T", "first")): (
        Fraction(2022, 100000), "Eliot Jacobson, 'Edge Sorting Let it Ride' (888casino.com): an advantage of 2.022% "
        "sorting tens against the rest"),
}
STANDARD_PAYS = tuple(Fraction(x) for x in (1000, 200, 50, 11, 8, 5, 3, 2, 1))
POSITIONS = ("community_1", "community_2")
DECISIONS = ("first", "second")
CHUNK = 128  # three-card rows read at a time


@dataclass(frozen=True)
class Seen:
    """What each decision sees of the community cards: a glimpse (or None) per card, at bet 1 and at bet 2."""

    first: tuple[Glimpse | None, Glimpse | None]
    second: Glimpse | None  # of community_2 (community_1 is seen outright at bet 2)


def plan(model: Model, deck: Deck) -> Seen:
    """The model's glimpses for Let It Ride, refused (``OptionError``) where they name what it does not deal."""
    if model.game != "let-it-ride":
        raise OptionError(f"model {model.id}: it is for {model.game}, not let-it-ride")
    by = glimpses_by_position(model, deck, POSITIONS, DECISIONS, "Let It Ride")

    def at_first(pos: str) -> Glimpse | None:
        g = by.get(pos)
        return g if g is not None and g.before in ("", "first") else None

    return Seen((at_first("community_1"), at_first("community_2")), by.get("community_2"))


@dataclass(frozen=True)
class Answer:
    """A model answered exactly; EVs per base bet (the three bets of one unit each)."""

    ev: Fraction
    ordinary_ev: Fraction
    deals: int
    ride1: int  # deals where bet 1 rides
    ride1_ordinary: int
    ride2: int
    ride2_ordinary: int
    changed: int  # deals where a pull-back is decided otherwise than in the ordinary game
    by_seen: tuple[tuple[str, int, int, int], ...]  # (what bet 1 sees of community_1, deals, bet 1 rides, ordinary)

    @property
    def value(self) -> Fraction:
        """What the glimpses are worth per base bet."""
        return self.ev - self.ordinary_ev


def _classes(g: Glimpse | None, cards: np.ndarray) -> tuple[np.ndarray, int]:
    table = np.array([card_class(g, c) for c in range(52)], dtype=np.int64)
    return table[cards], int(table.max()) + 1


def _onehot(idx: np.ndarray, size: int) -> np.ndarray:
    out: np.ndarray = (idx[..., None] == np.arange(size)).astype(np.int64)
    return out


def answer(deck: Deck, min_rank: int, pays: list[Fraction], model: Model) -> Answer:  # noqa: C901 - one count
    """The model answered on ``deck`` for the pays of royal flush .. pair (``count.PAYING``)."""
    from oddscalc.games.let_it_ride.count import pay_classes

    seen = plan(model, deck)
    n = deck.size
    den = math.lcm(*(p.denominator for p in pays))
    values = np.array([int(p * den) for p in pays] + [-den], dtype=np.int64)
    v5 = values[pay_classes(deck, min_rank)]
    if int(np.abs(values).max()) * n * n * 4 >= 2**62:
        raise OptionError("pays too large for the exact int64 sums of the information count")
    colour = any(g is not None and g.shows == "colour" for g in (*seen.first, seen.second))
    if colour:  # every hand: a colour split is not kept by the suit permutations
        reps = np.array(deck.cards, dtype=np.int64)[colex_combos(n, 3)]
        weights = np.ones(len(reps), dtype=np.int64)
    else:
        r3, w3 = suit_classes(3, deck)
        reps, weights = np.asarray(r3, dtype=np.int64), np.asarray(w3, dtype=np.int64)
    cards = np.array(deck.cards, dtype=np.int64)
    position = np.full(52, -1, dtype=np.int64)
    position[cards] = np.arange(n)
    k = n - 3
    off = ~np.eye(k, dtype=bool)
    xs, ys = np.nonzero(off)
    total = bet1 = bet2 = plain1 = plain2 = 0
    ride1 = ride2 = ride1_o = ride2_o = changed = 0
    seen_rows: dict[str, list[int]] = {}
    g1 = seen.first[0]
    # bet 1's rides by what it sees of the first card (a card seen outright is listed by its rank)
    label_of = np.array([_label(g1, c) if g1 is not None else "" for c in range(52)], dtype=object)
    for lo in range(0, len(reps), CHUNK):
        own = np.sort(position[reps[lo:lo + CHUNK]], axis=1)  # (r, 3)
        r = len(own)
        free = np.ones((r, n), dtype=bool)
        free[np.arange(r)[:, None], own] = False
        rest = np.nonzero(free)[1].reshape(r, k)  # deck positions left
        five = np.concatenate([np.broadcast_to(own[:, None, :], (r, len(xs), 3)), rest[:, xs, None],
                               rest[:, ys, None]], axis=2)
        five.sort(axis=2)
        v = np.zeros((r, k, k), dtype=np.int64)
        v[:, xs, ys] = v5[colex_indices(five)]
        ids = cards[rest]  # (r, k) card ids
        c1, n1 = _classes(seen.first[0], ids)
        c2, n2 = _classes(seen.first[1], ids)
        c2b, n2b = _classes(seen.second, ids)
        oh1, oh2, oh2b = _onehot(c1, n1), _onehot(c2, n2), _onehot(c2b, n2b)
        s1 = np.einsum("rxy,rxa,ryb->rab", v, oh1, oh2)  # bet 1's sums by what it sees
        s2 = np.einsum("rxy,ryb->rxb", v, oh2b)  # bet 2's, by the first card and what is seen of the second
        s3 = v.sum(axis=(1, 2))
        s4 = v.sum(axis=2)
        w = weights[lo:lo + CHUNK]
        total += int((s3 * w).sum())
        bet1 += int((np.maximum(s1, 0).sum(axis=(1, 2)) * w).sum())
        bet2 += int((np.maximum(s2, 0).sum(axis=(1, 2)) * w).sum())
        plain1 += int((np.maximum(s3, 0) * w).sum())
        plain2 += int((np.maximum(s4, 0).sum(axis=1) * w).sum())
        r1 = np.take_along_axis((s1 > 0).reshape(r, -1), (c1[:, :, None] * n2 + c2[:, None, :]).reshape(r, -1),
                                axis=1).reshape(r, k, k)  # (r, x, y): bet 1 rides on this deal
        r2 = np.take_along_axis(s2 > 0, np.broadcast_to(c2b[:, None, :], (r, k, k)), axis=2)
        o1 = np.broadcast_to((s3 > 0)[:, None, None], (r, k, k))
        o2 = np.broadcast_to((s4 > 0)[:, :, None], (r, k, k))
        ww = w[:, None, None] * off
        ride1 += int((ww * r1).sum())
        ride2 += int((ww * r2).sum())
        ride1_o += int((ww * o1).sum())
        ride2_o += int((ww * o2).sum())
        changed += int((ww * ((r1 != o1) | (r2 != o2))).sum())
        if g1 is not None:  # bet 1 by what it sees of the first community card
            lab = label_of[ids]
            for name in np.unique(lab):
                on = (lab == name)[:, :, None] & off
                row = seen_rows.setdefault(str(name), [0, 0, 0])
                row[0] += int((w[:, None, None] * on).sum())
                row[1] += int((w[:, None, None] * (on & r1)).sum())
                row[2] += int((w[:, None, None] * (on & o1)).sum())
    deals = math.comb(n, 3) * k * (k - 1)
    if int(weights.sum()) * k * (k - 1) != deals:
        raise AssertionError("the three-card classes do not cover every deal")
    return Answer(Fraction(total + bet1 + bet2, den * deals), Fraction(total + plain1 + plain2, den * deals), deals,
                  ride1, ride1_o, ride2, ride2_o, changed,
                  tuple((name, row[0], row[1], row[2]) for name, row in sorted(seen_rows.items(),
                                                                               key=lambda t: _order(t[0]))))


def _label(g: Glimpse, card: int) -> str:
    if g.shows in ("rank", "card"):
        return RANKS[card >> 2]
    if g.shows == "suit":
        return "cdhs"[card & 3]
    if g.shows == "colour":
        return "red" if card & 3 in (1, 2) else "black"
    return "".join(x for x in RANKS[::-1] if x in g.groups[g.sees(RANKS[card >> 2])])


def published(model: Model, deck: Deck, min_rank: int, pays: list[Fraction]) -> tuple[Fraction, str] | None:
    """The published figure of this model, where one is of this game (one deck, the standard pays, tens)."""
    if not (deck.is_full and min_rank == 8 and tuple(pays) == STANDARD_PAYS):
        return None
    key = tuple(sorted((g.position, g.shows, "".join(sorted(g.groups[0])) if g.groups else "", g.before or "first")
                       for g in model.glimpses))
    return PUBLISHED.get(key)


def seen_first_card(model: Model) -> bool:
    """Whether bet 1 sees the first community card outright (its rows are then by rank)."""
    return any(g.position == "community_1" and g.shows == "card" and g.before in ("", "first")
               for g in model.glimpses)


def _order(label: str) -> tuple[int, str]:
    return (-RANKS.index(label[0]) if label and label[0] in RANKS else 1, label)


def sections(a: Answer, model: Model, limits: Limits | None,
             figure: tuple[Fraction, str] | None = None) -> list[Section]:
    """The model's value and the pull-backs it changes (the published figure beside, when there is one), and its
    cost at the table's limits."""
    reading = "; ".join(glimpse_words(g) for g in model.glimpses) or "nothing beyond the game as dealt"
    rows: tuple[tuple[Cell, ...], ...] = (
        ("the ordinary game", a.ordinary_ev, a.ordinary_ev, -a.ordinary_ev, Fraction(a.ride1_ordinary, a.deals),
         Fraction(a.ride2_ordinary, a.deals), None),
        (f"with the model: {model.title}", a.ev, a.ev, -a.ev, Fraction(a.ride1, a.deals), Fraction(a.ride2, a.deals),
         Fraction(a.changed, a.deals)),
        ("what the model is worth", a.value, a.value, None, None, None, None),
        *((("published (Jacobson)", None, figure[0], -figure[0], None, None, None),) if figure else ()),
    )
    notes = ((f"Published: {figure[1]}; {float(a.ev):+.4%} exact here, the same convention (each bet rides when "
              "its EV over what is seen is positive).",) if figure else ()) + (
        (f"The model's source: {model.source}.",) if model.source else ())
    value = Section(
        "information_value", f"Let It Ride: {model.title}",
        (Column("play", "Play"), Column("ev_exact", "EV per base bet (exact)", "fraction"),
         Column("ev", "EV per base bet", "signed_percent", 4), Column("house_edge", "House edge", "signed_percent", 4),
         Column("bet1", "Bet 1 rides", "percent", 2), Column("bet2", "Bet 2 rides", "percent", 2),
         Column("changed", "Deals played otherwise", "percent", 3)),
        rows,
        intro=(verdict(a.ev, "base bet"),
               f"What the player knows: his three cards and {reading}. Each bet rides exactly when its EV over the "
               "deals that look the same at its decision is positive (zero pulls it back, as in the game's own "
               "strategy); the first community card is seen at bet 2 in any case.",
               f"Exact over all {a.deals:,} deals: the player's three cards (a set) and the two community cards in "
               "the order shown, every three-card hand counted once per suit class with its class size."),
        notes=notes)
    out = [value]
    if a.by_seen:
        out.append(Section(
            "information_pulls", "Where bet 1 moves: deals where it rides, by what is seen of the first community card"
            + (" (by its rank)" if model.glimpses and seen_first_card(model) else ""),
            (Column("seen", "Seen"), Column("deals", "Share of deals", "percent", 2),
             Column("ride", "Bet 1 rides", "percent", 2), Column("ordinary", "Ordinary game", "percent", 2)),
            tuple((name, Fraction(d, a.deals), Fraction(r, d), Fraction(o, d)) for name, d, r, o in a.by_seen)))
    out.append(cost_section(a.value, "main", "base bet (three bets of one unit)",
                            limits, f"plays with the model ({model.title})"))
    return out


def information_sections(session: Session, table_ref: str | None, model: Model, progress: Progress) -> list[Section]:
    """``oddscalc glimpse let-it-ride`` (the game's declaration names this): the model answered on the table."""
    from oddscalc.games.let_it_ride.count import PAYING
    from oddscalc.games.let_it_ride.game import LetItRideRules

    rules = session.resolve(table_ref)
    assert isinstance(rules, LetItRideRules)
    pays = [getattr(rules.model.pays.main, c.value) for c in PAYING]
    a = answer(rules.deck, rules.min_rank, pays, model)
    progress.finish()
    return sections(a, model, rules.model.limits, published(model, rules.deck, rules.min_rank, pays))
