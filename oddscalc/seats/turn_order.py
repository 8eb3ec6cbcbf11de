"""House baccarat with two seats and third cards shown as dealt: the later seat decides knowing the first.

The sheet speaks of turns ("cuando un jugador se planta o pide su tercera carta termina su turno").
Read with the third cards dealt face up in seat order, the second seat decides on its two cards and
what the first did: stood, or drew a card of value z (a natural ends the deal before anyone
decides). So the second seat's play is a strategy per two-card composition *and* that sight, the
first seat's per composition only.

Counting argument. With one other seat, the others' class of ``seats`` (a natural, nobody drew, the
highest third card z) is exactly what the second seat sees of the first. So the second seat's
counts are the hidden game's, kept apart by class instead of summed over it. The first seat's
other seat plays differently after each sight of the first seat's own card: its class rows are
counted once per sight (stood, or drew z), and the first seat's six-slot orderings are split by the
value of its own third card (``slot_orderings_by_third``), so each ordering meets the rows of the
sight it gives. Both seats count every ordered sequence of nine cards, as in the hidden game.

A subgame-perfect equilibrium: the second seat's play is a best reply at every sight to the first
seat's, and the first seat's a best reply to that. Since the second seat's best reply is read off
exactly for any first strategy, the equilibria are the fixed points of first -> best reply of the
first to the second's best reply; they are searched from the stated starts and each is verified.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.games.house_baccarat.count import LOSS, WIN, SeatCounts, six_index, slot_orderings_by_third
from oddscalc.games.house_baccarat.others import CLASSES, NAT_CLASS, NATURAL, NONE_CLASS, others_finite
from oddscalc.games.house_baccarat.strategy import TOTAL, Strategy
from oddscalc.games.shoe import VALUES, Multisets, Shoe, from_limbs, to_limbs
from oddscalc.protocol import OptionError
from oddscalc.results import Cell, Column, Section

SIGHTS = CLASSES  # the later seat's sight of the first: NAT_CLASS, NONE_CLASS (stood), 2 + z (drew z)


@dataclass(frozen=True)
class Late:
    """The second seat's play: draw or stand per sight of the first seat and two-card composition."""

    name: str
    draws: np.ndarray  # (12 sights, 10, 10) bool, symmetric in the two cards, naturals never draw

    @staticmethod
    def of(name: str, draws: np.ndarray) -> Late:
        """From a (12, 10, 10) draw array."""
        d = np.asarray(draws, dtype=bool) & ~NATURAL
        if not np.array_equal(d, d.transpose(0, 2, 1)):
            raise ValueError("a strategy cannot depend on the order of the two cards")
        d[NAT_CLASS] = False  # the first seat's natural ended the deal
        return Late(name, d)

    @staticmethod
    def blind(s: Strategy) -> Late:
        """Playing ``s`` whatever the first seat did (the hidden game's play)."""
        return Late.of(s.name, np.broadcast_to(s.matrix, (SIGHTS, VALUES, VALUES)))


def _four_dealt(shoe: Shoe) -> np.ndarray | slice:
    """The multisets of four other slots the shoe can deal (all: every one): any other weighs 0 with every two
    cards of yours, so its terms are left out of the sums (on a shoe of a few ranks, all but a few dozen of 715)."""
    weights = Multisets.of_size(4).weights(shoe)
    dealt = np.flatnonzero([w != 0 for w in weights])
    return slice(None) if len(dealt) == len(weights) else dealt


def _exact(shoe: Shoe, draws: np.ndarray, lhs: np.ndarray, spec: str, four: np.ndarray | slice) -> np.ndarray:
    """einsum(spec, lhs, your six slots' weights x the other seat's class rows, gathered at your two cards and
    four other slots), exactly: the weights as limbs, the rows (int64) and lhs small, sized to stay in int64.
    ``lhs`` holds the four other slots' multisets ``four`` only (``_four_dealt``)."""
    operands, result = spec.split("->")
    small, big = operands.split(",")
    six = Multisets.of_size(6)
    rows = np.asarray(others_finite(shoe.counts, 1, draws, six.counts), dtype=np.int64)  # (5005, 12) <= n**3
    terms = Multisets.of_size(4).counts.shape[0] * CLASSES
    bits = 62 - (terms * int(np.abs(lhs).max(initial=1)) * int(rows.max(initial=1))).bit_length()
    if bits < 4:
        raise OptionError(f"{shoe.label} is too large for the exact turn-order count's int64 limbs")
    limbs = to_limbs(six.weights(shoe), bits)  # (5005, L)
    gathered = (rows[:, :, None] * limbs[:, None, :])[six_index()[:, :, four]].reshape(VALUES * VALUES, -1, CLASSES,
                                                                                       limbs.shape[-1])
    out: np.ndarray = from_limbs(np.einsum(f"{small},{big}l->{result}l", lhs, gathered), bits)
    return out


def _check(counts: np.ndarray, total: int) -> None:
    for a in range(2):
        if sum(counts[..., a].ravel()) != total:
            raise AssertionError("turn-order counts do not add up to every deal")


def late_counts(shoe: Shoe, first: Strategy, tableau: tuple[str, ...], all_stand: str) -> np.ndarray:
    """(4 outcomes, 10, 10, 12 sights, 2 actions) object: the second seat's counts, the first playing ``first``."""
    four = _four_dealt(shoe)
    u = slot_orderings_by_third(tableau, all_stand).sum(axis=-1)[:, :, :, four]  # (4, 10 totals, 2, 715, 12)
    per_total = u[:, TOTAL.reshape(-1)].transpose(1, 0, 2, 3, 4)  # (100, 4, 2, 715, 12)
    counts = _exact(shoe, first.matrix, per_total, "toamc,tmc->toac", four)  # (100, 4, 2, 12)
    out = counts.reshape(VALUES, VALUES, 4, 2, CLASSES).transpose(2, 0, 1, 4, 3)
    _check(out.sum(axis=3), shoe.ordered(9))
    return out


def early_counts(shoe: Shoe, second: Late, tableau: tuple[str, ...], all_stand: str) -> np.ndarray:
    """(4, 10, 10, 2) object: the first seat's counts, the second seat playing ``second`` on its sight."""
    four = _four_dealt(shoe)
    u = slot_orderings_by_third(tableau, all_stand)[:, :, :, four]  # (4, 10 totals, 2, 715, 12, 10 your third)
    cells = TOTAL.reshape(-1)

    def per_total(part: np.ndarray) -> np.ndarray:  # (4, 10 totals, 715, 12) -> (100 hands, 4, 715, 12)
        # one action's (and third card's) slice spread over the hands: spreading all of u at once made a
        # 550 MB array, most of the count's time
        return part[:, cells].transpose(1, 0, 2, 3)

    counts = np.zeros((VALUES * VALUES, 4, 2), dtype=object)
    counts[:, :, 0] = _exact(shoe, second.draws[NONE_CLASS], per_total(u[:, :, 0].sum(axis=-1)), "tomc,tmc->to",
                                 four)
    for z in range(VALUES):  # you drew a z: the other seat saw it
        counts[:, :, 1] += _exact(shoe, second.draws[2 + z], per_total(u[:, :, 1, :, :, z]), "tomc,tmc->to", four)
    out = counts.reshape(VALUES, VALUES, 4, 2).transpose(2, 0, 1, 3)
    _check(out, shoe.ordered(9))
    return out


def late_reply(counts: np.ndarray, pay: Fraction, name: str = "best reply") -> Late:
    """The second seat's best play at every sight (draw when it earns strictly more)."""
    ev = counts[WIN] * _pay(pay) - counts[LOSS]  # (10, 10, 12, 2)
    gain = ev[..., 1] - ev[..., 0]
    gain = gain + gain.transpose(1, 0, 2) - np.where(np.eye(VALUES, dtype=bool)[:, :, None], gain, 0)
    return Late.of(name, np.array(gain > 0, dtype=bool).transpose(2, 0, 1))


def early_reply(counts: np.ndarray, pay: Fraction, name: str = "best reply") -> Strategy:
    """The first seat's best play per composition."""
    from oddscalc.games.house_baccarat.settle import best_by_composition

    return best_by_composition(SeatCounts(counts, 0, None), pay, name)


def _pay(pay: Fraction) -> Fraction | int:
    """A whole pay as an int: the object arrays' products are then of ints, not thousands of Fractions (the same
    sums)."""
    return pay.numerator if pay.denominator == 1 else pay


def late_ev(counts: np.ndarray, second: Late, pay: Fraction, total: int) -> Fraction:
    """The second seat's EV per unit playing ``second``."""
    ev = counts[WIN] * _pay(pay) - counts[LOSS]
    pick = second.draws.transpose(1, 2, 0).astype(np.int64)  # (10, 10, 12)
    return Fraction(sum(np.take_along_axis(ev, pick[..., None], axis=3).ravel()), total)


def early_ev(counts: np.ndarray, first: Strategy, pay: Fraction, total: int) -> Fraction:
    """The first seat's EV per unit playing ``first``."""
    ev = counts[WIN] * _pay(pay) - counts[LOSS]
    m = first.matrix.astype(np.int64)
    return Fraction(sum(ev[u, w, m[u, w]] for u in range(VALUES) for w in range(VALUES)), total)


@dataclass(frozen=True)
class Profile:
    """Both seats' plays and exact EVs."""

    first: Strategy
    second: Late
    ev_first: Fraction
    ev_second: Fraction
    how: str


def evaluate(shoe: Shoe, first: Strategy, second: Late, tableau: tuple[str, ...], all_stand: str,
             pay: Fraction, how: str = "") -> Profile:
    """Both seats' exact EVs under ``first`` and ``second``."""
    total = shoe.ordered(9)
    return Profile(first, second, early_ev(early_counts(shoe, second, tableau, all_stand), first, pay, total),
                   late_ev(late_counts(shoe, first, tableau, all_stand), second, pay, total), how)


def equilibria(shoe: Shoe, tableau: tuple[str, ...], all_stand: str, pay: Fraction,
               starts: list[Strategy], steps: int = 12) -> list[Profile]:
    """Subgame-perfect equilibria reached from ``starts`` (the first seat's play), each verified."""
    found: dict[tuple[tuple[bool, ...], ...], Profile] = {}
    total = shoe.ordered(9)
    memo: dict[tuple[tuple[bool, ...], ...], tuple[Strategy, Late, np.ndarray, np.ndarray]] = {}

    def step(s: Strategy) -> tuple[Strategy, Late, np.ndarray, np.ndarray]:
        if s.draws not in memo:
            lc = late_counts(shoe, s, tableau, all_stand)
            second = late_reply(lc, pay, "the second seat's best reply")
            ec = early_counts(shoe, second, tableau, all_stand)
            memo[s.draws] = (early_reply(ec, pay, "best reply"), second, lc, ec)
        return memo[s.draws]

    for start in starts:
        s, seen = start, []
        for k in range(steps):
            nxt, second, lc, ec = step(s)
            if nxt.draws == s.draws:
                if s.draws not in found:
                    how = f"{start.name} is its own best reply" if k == 0 else \
                        f"{k} best reply step(s) from {start.name}"
                    found[s.draws] = Profile(s, second, early_ev(ec, s, pay, total), late_ev(lc, second, pay, total),
                                             how)
                break
            seen.append(s.draws)
            s = nxt
            if s.draws in seen:
                break  # a cycle: no fixed point from here
    return sorted(found.values(), key=lambda p: -(p.ev_first + p.ev_second))


def plays_text(m: np.ndarray) -> str:
    """A (10, 10) draw matrix in words: by totals when it depends on the total only."""
    s = Strategy.of("", m)
    totals = s.totals()
    if totals is not None:
        return "draw on " + (", ".join(map(str, totals)) or "no total")
    return "by composition: " + ", ".join(f"{u}+{w}" for u in range(VALUES) for w in range(u, VALUES)
                                           if s.matrix[u, w]) + " draw"


def sections(shoe: Shoe, tableau: tuple[str, ...], all_stand: str, pay: Fraction, hidden: Strategy,
             starts: list[Strategy]) -> list[Section]:
    """The equilibria with third cards shown, the hidden game's beside, and the second seat's play by sight."""
    found = equilibria(shoe, tableau, all_stand, pay, starts)
    blind = evaluate(shoe, hidden, Late.blind(hidden), tableau, all_stand, pay,
                     "the hidden game's equilibrium, played without looking")
    rows: list[tuple[Cell, ...]] = [
        ("subgame-perfect equilibrium", plays_text(p.first.matrix), p.ev_first, p.ev_second,
         (p.ev_first + p.ev_second) / 2, p.how) for p in found]
    rows.append(("third cards hidden (today's reading)", plays_text(hidden.matrix), blind.ev_first, blind.ev_second,
                 (blind.ev_first + blind.ev_second) / 2, "both seats play the hidden game's equilibrium"))
    by_sight: list[tuple[Cell, ...]] = []
    if found:
        late = found[0].second.draws
        by_sight.append(("the first seat stood", plays_text(late[NONE_CLASS])))
        by_sight += [(f"the first seat drew {'an' if z == 8 else 'a'} {z}", plays_text(late[2 + z]))
                     for z in range(VALUES)]
    money = (Column("ev_first", "EV first seat", "signed_percent", 4),
             Column("ev_second", "EV second seat", "signed_percent", 4),
             Column("ev_mean", "EV per seat", "signed_percent", 4))
    return [
        Section("turn_order", "Two seats, third cards shown as dealt",
                (Column("concept", "Concept"), Column("first", "The first seat plays"), *money,
                 Column("how", "How found")), tuple(rows),
                intro=("The first seat decides on its two cards; its third card, if it draws, is dealt face up; the "
                       "second seat then decides on its two cards and what it saw (a natural ends the deal first). "
                       "Exact over every ordered deal of nine cards.",
                       "An equilibrium here: the second seat's play is a best reply at every sight to the first "
                       "seat's, the first seat's a best reply to that. Searched from the stated starts with "
                       "best-reply steps, each verified; the search does not prove there are no others.")),
        Section("second_seat_play", "The second seat's play by what it saw (first equilibrium)",
                (Column("sight", "It saw"), Column("plays", "It plays")), tuple(by_sight)),
    ]
