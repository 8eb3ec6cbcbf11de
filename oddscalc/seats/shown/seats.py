"""House baccarat with two to seven seats and third cards shown as dealt, in seat order.

The sheet speaks of turns ("cuando un jugador se planta o pide su tercera carta termina su turno").
Read with third cards dealt face up in seat order, a seat decides on its two cards and what it saw
of the seats before it. Here a seat's *sight* is the class the seats before it put the table in:
nobody drew, or the highest third card shown is z (a natural anywhere ends the deal before anyone
decides). That is what the house will play to so far. A play by sight does not use the card
removal of the lower cards shown; with two seats the sight is all the second seat sees, so there
this is the whole sequential game (``turn_order`` counts it another way, and the two agree).

Counting argument. For seat k, every multiset m of its six slots meets the other seats' sequences
by (k's sight c, the class sigma the seats after k start from, the final class f), from
``shown_chain``. Seat k's action and third card x pick sigma (c when it stands, max(c, x) when it
draws), and the value orderings of its six slots with each outcome (``slot_orderings_by_third``, as in
the hidden game) weigh the rows by the falling product of m. Every ordered deal of 3N + 3 cards is
counted once. The sums run modulo the chain's primes (in float64 matrix products, exact since every
partial sum is an integer below 2**53), the integers are rebuilt by the Chinese remainder theorem,
and they are checked to add up to every deal for both actions.

An equilibrium: every seat's play is a best reply, at every sight, to the others'. Searched by best
replies seat after seat from the stated starts; each found is verified, and the search does not
prove there are no others.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.games.house_baccarat.count import six_index, slot_orderings_by_third
from oddscalc.games.house_baccarat.others import CLASSES, NONE_CLASS
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.shoe import VALUES, Multisets, Shoe
from oddscalc.protocol import OptionError
from oddscalc.results import Cell, Column, Section
from oddscalc.seats.shown.chain import AFTER, CLS, MAX_PLAYERS, as_moduli, moduli, rebuild
from oddscalc.seats.shown.passes import HERE, Spread, plan
from oddscalc.seats.shown.passes import rows as class_rows
from oddscalc.seats.turn_order import Late, late_ev, late_reply, plays_text

__all__ = ["MAX_PLAYERS", "Profile", "equilibria", "fits", "seat_counts", "sections"]


def seat_counts(shoe: Shoe, plays: Sequence[Late], k: int, tableau: tuple[str, ...], all_stand: str,
                spread: Spread = HERE, say: Callable[[str], None] = lambda _: None) -> np.ndarray:
    """(4 outcomes, 10, 10, 12 sights, 2 actions) object: seat ``k``'s (0-based) exact counts, the other seats
    playing ``plays`` (seat k's own entry is not used); the other seats' rows counted in passes that fit in
    memory (``shown_passes``), run as ``spread`` says."""
    if not 2 <= len(plays) <= MAX_PLAYERS:
        raise OptionError(f"third cards shown: the count is exact for 2 to {MAX_PLAYERS} seats")
    total = shoe.ordered(3 * len(plays) + 3)
    primes = moduli(total)
    have, exact_or_residues = class_rows(shoe, [p.draws for p in plays], k, primes, spread, say)
    six = Multisets.of_size(6)
    six_weights = six.weights(shoe)  # falling products of each six-slot multiset, Python ints
    # the multisets the shoe can deal: the others weigh 0 (on a shoe of a few ranks, all but a few dozen of 5005)
    dealt = np.flatnonzero([w != 0 for w in six_weights])
    some = slice(None) if len(dealt) == len(six_weights) else dealt
    rows = as_moduli([r[some] for r in exact_or_residues], have, primes)
    u = slot_orderings_by_third(tableau, all_stand)  # (4, 10 totals, 2, 715, 12 final, 10 your third)
    stood, drew = u[:, :, 0].sum(axis=-1), u[:, :, 1]
    index = six_index()
    if max(int(stood.max()) * stood[0, 0].size, int(drew.max()) * drew[0, 0].size) * primes[0] >= 2**53:
        raise AssertionError("the tableau's orderings are too many for an exact float64 sum")
    # float64 is exact here: every term is a non-negative integer and every partial sum is below 2**53
    stood = stood.reshape(4, VALUES, -1).astype(np.float64)  # (4, 10 totals, 715 x 12 f)
    drew = drew.reshape(4, VALUES, -1).astype(np.float64)  # (4, 10 totals, 715 x 12 f x 10 x)
    residues = []
    for r, p in zip(rows, primes, strict=True):
        weights = np.array([int(six_weights[i]) % p for i in dealt], dtype=np.int64)
        wr = ((r * weights[:, None, None, None]) % p).astype(np.float64)  # (dealt, c, sigma, f)
        g0 = np.zeros((len(six_weights), CLASSES, len(CLS)))  # (5005, f, c): standing, sigma = c
        g0[some] = wr[:, CLS, CLS].transpose(0, 2, 1)
        g1 = np.zeros((len(six_weights), CLASSES, VALUES, len(CLS)))  # (5005, f, x, c): drawing
        g1[some] = wr[:, CLS[:, None], AFTER].transpose(0, 3, 2, 1)
        res = np.zeros((4, VALUES, VALUES, CLASSES, 2), dtype=np.int64)
        for a in range(VALUES):
            for b in range(VALUES):
                if shoe.counts[a] * (shoe.counts[b] - (a == b)) <= 0:
                    continue  # no such two cards: every count is 0
                t, at = (a + b) % 10, index[a, b]
                res[:, a, b, :, 0] = (stood[:, t] @ g0[at].reshape(-1, CLASSES)).astype(np.int64) % p
                res[:, a, b, :, 1] = (drew[:, t] @ g1[at].reshape(-1, CLASSES)).astype(np.int64) % p
        residues.append(res)
    out = rebuild(residues, primes)
    for act in range(2):
        if sum(out[..., act].ravel()) != total:
            raise AssertionError("shown-seat counts do not add up to every deal")
    return out


def fits(shoe: Shoe, players: int, limit: int | None = None) -> None:
    """Refuse (``OptionError``) a table whose seats cannot all be counted in passes within ``limit`` bytes
    (default ``shown_passes.budget()``), before hours of work."""
    if not 2 <= players <= MAX_PLAYERS:
        raise OptionError(f"third cards shown: the count is exact for 2 to {MAX_PLAYERS} seats")
    primes = len(moduli(shoe.ordered(3 * players + 3)))
    for k in range(players):
        plan(shoe, players, k, primes, limit)


@dataclass(frozen=True)
class Profile:
    """Every seat's play (the first seat only ever sees 'nobody drew') and exact EV per unit."""

    plays: tuple[Late, ...]
    evs: tuple[Fraction, ...]
    how: str

    @property
    def mean(self) -> Fraction:
        """The EV per seat, over the seats."""
        return sum(self.evs, Fraction(0)) / len(self.evs)


def _key(plays: Sequence[Late], k: int) -> bytes:
    return b"".join(p.draws.tobytes() for j, p in enumerate(plays) if j != k) + bytes([k])


def equilibria(shoe: Shoe, players: int, tableau: tuple[str, ...], all_stand: str, pay: Fraction,
               starts: Sequence[Strategy], passes: int = 8,
               say: Callable[[str], None] = lambda _: None, spread: Spread = HERE) -> list[Profile]:
    """Equilibria reached from every seat playing each of ``starts`` blind, by best replies seat after seat.

    A pass replies for every seat in turn, each against the others' latest plays; a pass that changes
    nothing ends it, and then every seat's play is a best reply, at every sight, to the others'."""
    total = shoe.ordered(3 * players + 3)
    memo: dict[bytes, np.ndarray] = {}

    def counts(plays: list[Late], k: int) -> np.ndarray:
        key = _key(plays, k)
        if key not in memo:
            done = len(memo) + 1
            say(f"{done} evaluations (seat {k + 1})")
            memo[key] = seat_counts(shoe, plays, k, tableau, all_stand, spread,
                                    lambda text: say(f"{done} evaluations ({text})"))
        return memo[key]

    found: dict[bytes, Profile] = {}
    reached: dict[bytes, int] = {}
    for start in starts:
        plays = [Late.blind(start)] * players
        for n in range(passes):
            changed = False
            for k in range(players):
                reply = late_reply(counts(plays, k), pay, f"seat {k + 1}'s best reply")
                if not np.array_equal(reply.draws[_sights(k)], plays[k].draws[_sights(k)]):
                    plays[k], changed = reply, True
            if not changed:
                key = b"".join(p.draws[_sights(k)].tobytes() for k, p in enumerate(plays))
                if key not in found:
                    evs = tuple(late_ev(counts(plays, k), plays[k], pay, total) for k in range(players))
                    how = f"every seat playing {start.name} is an equilibrium" if n == 0 else \
                        f"{n} pass(es) of best replies from {start.name}"
                    found[key] = Profile(tuple(plays), evs, how)
                reached[key] = reached.get(key, 0) + 1
                break
    if len(starts) > 1:
        found = {k: Profile(p.plays, p.evs, f"{p.how}; reached from {reached[k]} of {len(starts)} starts")
                 for k, p in found.items()}
    return sorted(found.values(), key=lambda p: -p.mean)


def _sights(k: int) -> slice:
    """The sights seat ``k`` (0-based) can have: the first seat only 'nobody drew'."""
    return slice(NONE_CLASS, NONE_CLASS + 1) if k == 0 else slice(NONE_CLASS, CLASSES)


def _sight_text(c: int) -> str:
    return "nobody before drew" if c == NONE_CLASS else f"the highest third card before is {c - 2}"


def sections(shoe: Shoe, players: int, tableau: tuple[str, ...], all_stand: str, pay: Fraction, hidden: Strategy,
             hidden_counts: np.ndarray, starts: Sequence[Strategy],
             say: Callable[[str], None] = lambda _: None, spread: Spread = HERE) -> list[Section]:
    """The equilibria with third cards shown among ``players`` seats, the hidden game's play beside, and the
    later seats' play by sight. ``hidden_counts`` are a seat's counts in the hidden game with the others
    playing ``hidden`` (4, 10, 10, 2): played blind, every seat's counts here must add up to them."""
    total = shoe.ordered(3 * players + 3)
    fits(shoe, players, spread.limit)
    blind = [Late.blind(hidden)] * players
    last = seat_counts(shoe, blind, players - 1, tableau, all_stand, spread, say)  # the cheapest seat to check
    if not np.array_equal(last.sum(axis=3), hidden_counts):
        raise AssertionError("third cards shown and played blind do not give the hidden game's counts")
    found = equilibria(shoe, players, tableau, all_stand, pay, starts, say=say, spread=spread)
    # every seat playing blind is the hidden game, whose seats are exchangeable
    blind_evs = [late_ev(last, blind[-1], pay, total)] * players
    money = tuple(Column(f"ev_{k + 1}", f"EV seat {k + 1}", "signed_percent", 4) for k in range(players))
    rows: list[tuple[Cell, ...]] = [
        ("equilibrium", plays_text(p.plays[0].draws[NONE_CLASS]), *p.evs, p.mean, p.how) for p in found]
    rows.append(("third cards hidden (today's reading)", plays_text(hidden.matrix), *blind_evs,
                 sum(blind_evs, Fraction(0)) / players, "every seat plays the hidden game's equilibrium blind"))
    by_sight: list[tuple[Cell, ...]] = []
    if found:
        plays = found[0].plays
        by_sight = [(_sight_text(c), *(plays_text(p.draws[c]) for p in plays[1:])) for c in range(NONE_CLASS, CLASSES)]
    return [
        Section("turn_order", f"{players} seats, third cards shown as dealt",
                (Column("concept", "Concept"), Column("first", "The first seat plays"), *money,
                 Column("ev_mean", "EV per seat", "signed_percent", 4), Column("how", "How found")), tuple(rows),
                intro=("Each seat in turn decides on its two cards and what it saw: nobody before it drew, or the "
                       "highest third card shown so far (a natural ends the deal before anyone decides). A play "
                       "by sight does not use the removal of the lower cards shown. Exact over every ordered "
                       f"deal of {3 * players + 3} cards.",
                       "An equilibrium here: every seat's play is a best reply, at every sight, to the others'. "
                       "Searched from the stated starts by best replies seat after seat, each verified; the "
                       "search does not prove there are no others.")),
        Section("later_seats_play", "The later seats' play by what they saw (first equilibrium)",
                (Column("sight", "It saw"), *(Column(f"seat_{k + 1}", f"Seat {k + 1} plays") for k in
                                              range(1, players))), tuple(by_sight)),
    ]


def reply_section(shoe: Shoe, players: int, tableau: tuple[str, ...], all_stand: str, pay: Fraction,
                  others: Strategy, say: Callable[[str], None] = lambda _: None,
                  spread: Spread = HERE) -> Section:
    """Each seat's best reply, by sight, when every other seat plays ``others`` blind (a chart), beside what
    it gets playing the chart too."""
    total = shoe.ordered(3 * players + 3)
    chart = Late.blind(others)
    rows: list[tuple[Cell, ...]] = []
    for k in range(players):
        say(f"seat {k + 1}'s best reply")
        counts = seat_counts(shoe, [chart] * players, k, tableau, all_stand, spread, say)
        reply = late_reply(counts, pay, "best reply")
        along, best = late_ev(counts, chart, pay, total), late_ev(counts, reply, pay, total)
        changed = [_sight_text(c) for c in range(NONE_CLASS, CLASSES if k else NONE_CLASS + 1)
                   if not np.array_equal(reply.draws[c], chart.draws[c])]
        rows.append((k + 1, along, best, best - along, plays_text(reply.draws[NONE_CLASS]),
                     "; ".join(changed) or "none: the chart is its best reply"))
    return Section("shown_replies", f"{players} seats, third cards shown: one seat's best reply to the others' chart",
                   (Column("seat", "Seat"), Column("along", "EV playing the chart", "signed_percent", 4),
                    Column("best", "EV replying best", "signed_percent", 4),
                    Column("gain", "Gain", "signed_percent", 4),
                    Column("nobody", "Best reply when nobody before drew"),
                    Column("sights", "Sights where the best reply leaves the chart")), tuple(rows),
                   intro=(f"The other {players - 1} seats play {others.name} whatever they see; one seat at a time "
                          "replies best on its two cards and its sight. Exact over every ordered deal of "
                          f"{3 * players + 3} cards.",))
