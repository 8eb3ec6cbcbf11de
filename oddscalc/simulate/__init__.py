"""An independent Monte Carlo check of the exact figures: shuffle real cards, play the rules as written.

Independence. The exact engine is checked, not reused: this module deals card ids from a shuffled
deck or shoe, evaluates poker hands with its own small vectorised evaluator, and plays every game's
rules (drawing tableaux, qualifiers, pull-backs, raises, naturals) itself. From the rest of oddscalc
it takes only card/rank parsing (``cards``), the validated table file (``tables.resolve_table`` and
the games' table models, to read pays and rule switches), and ``GAME.analyze`` for the exact values
it compares against. The one thing read from an analysis besides those values is house baccarat's
solved draw/stand chart (the section data of its report), played as data.

Dealing. A round takes the top k cards of a freshly, uniformly shuffled deck or shoe, produced by
the first k steps of a Fisher-Yates shuffle of every card (vectorised over many rounds at once).
Baccarat rounds each come from a new shoe, without a cut card, so the exact finite-shoe figures
apply; the cards are then taken in table order (a drawing hand takes the next card of the shoe).

Strategies. Let It Ride rides each bet exactly when the exact EV of riding is positive given the
cards seen, found by enumerating the unseen cards with this module's evaluator (C(49,2) = 1,176
completions after three cards, 48 after four), cached per suit-permutation class. Caribbean Stud's
optimal strategy needs, per hand and up card, the counts of all C(46,4) dealer completions, which is
too slow per hand; the simulator plays a named strategy instead (``rules-of-thumb`` by default) and
compares with the exact value the engine computes for that same strategy. House baccarat plays the
exact engine's solved chart when its analysis exposes one, else ``draw-0-5``.

Statistics. Each figure is the mean of an i.i.d. per-round quantity (net units won per unit bet,
whether the bet won, units staked); its 99% confidence interval is mean +- z * sd / sqrt(N) with
z = z_0.995 = 2.5758 and sd the sample standard deviation. For house baccarat with several seats a
round's value is the average over the seats, which are exchangeable and play the same strategy.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from . import __version__
from .cards import N_RANKS, parse_rank
from .games import GAMES, Analysis, OptionError, RunOptions
from .tables import Table, resolve_table

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

Z_995 = 2.5758293035489004  # two-sided 99%: the 0.995 quantile of the standard normal
DEFAULT_SEED = 1
DEFAULT_ROUNDS: Mapping[str, int] = {
    "let-it-ride": 1_000_000,
    "caribbean": 2_000_000,
    "punto-banco": 10_000_000,
    "house-baccarat": 10_000_000,
}
FEW_WINS = 30  # below this many winning rounds the normal interval of a wager is only a rough guide

# --- dealing --------------------------------------------------------------------------------------


def deal(rng: np.random.Generator, shoe: npt.NDArray[np.int8], rounds: int, k: int) -> IntArray:
    """(rounds, k) card ids: the top k cards of ``rounds`` independently shuffled copies of ``shoe``.

    Position i receives a uniformly chosen card among those not yet placed, exactly the first k
    steps of a Fisher-Yates shuffle, so each row is the top of a uniformly shuffled shoe.
    """
    size = len(shoe)
    if not 0 < k <= size:
        raise ValueError(f"cannot deal {k} cards from {size}")
    cards = np.tile(shoe, (rounds, 1))
    rows = np.arange(rounds)
    for i in range(k):
        j = rng.integers(i, size, size=rounds)
        picked = cards[rows, j]
        cards[rows, j] = cards[:, i]
        cards[:, i] = picked
    return cards[:, :k].astype(np.int64)


def full_shoe(decks: int) -> npt.NDArray[np.int8]:
    """Every card id 0..51, ``decks`` times."""
    return np.tile(np.arange(52, dtype=np.int8), decks)


# --- a small poker evaluator ------------------------------------------------------------------------

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
                  "four_of_a_kind", "straight_flush")
_B = N_RANKS  # tie-break ranks are digits in base 13
_CATEGORY_UNIT = _B**5
_TOP_UNIT = _B**4
_DIGITS = _B ** np.arange(4, -1, -1, dtype=np.int64)


def strength(cards: npt.ArrayLike) -> IntArray:
    """Poker strength of five-card hands, shape (..., 5) of card ids: higher beats lower, equal ties.

    strength = category * 13**5 + tie-break, the tie-break being the ranks ordered by (how many of
    the rank, rank) as base-13 digits (for a straight only its top card; the wheel A-2-3-4-5 is 5-high).
    """
    c = np.asarray(cards, dtype=np.int64)
    ranks = c >> 2
    suits = c & 3
    flush = np.all(suits == suits[..., :1], axis=-1)
    count = (ranks[..., :, None] == ranks[..., None, :]).sum(axis=-1)
    key = np.sort(count * 16 + ranks, axis=-1)[..., ::-1]
    ordered = key & 15
    shape = key >> 4  # multiplicities, largest first: 4 4 4 4 1, 3 3 3 2 2, 2 2 2 2 1, ...
    distinct = shape[..., 0] == 1
    wheel = distinct & (ordered[..., 0] == 12) & (ordered[..., 1] == 3)
    straight = distinct & ((ordered[..., 0] - ordered[..., 4] == 4) | wheel)
    category = np.select(
        [straight & flush, shape[..., 0] == 4, (shape[..., 0] == 3) & (shape[..., 3] == 2), flush, straight,
         shape[..., 0] == 3, (shape[..., 0] == 2) & (shape[..., 2] == 2), shape[..., 0] == 2],
        [STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS, TWO_PAIR, PAIR], HIGH_CARD)
    tiebreak = ordered @ _DIGITS
    top = np.where(wheel, 3, ordered[..., 0])
    tiebreak = np.where(straight, top * _TOP_UNIT, tiebreak)
    return np.asarray(category * _CATEGORY_UNIT + tiebreak, dtype=np.int64)


def category_of(s: npt.ArrayLike) -> IntArray:
    """HIGH_CARD .. STRAIGHT_FLUSH of each strength."""
    return np.asarray(s, dtype=np.int64) // _CATEGORY_UNIT


def top_rank_of(s: npt.ArrayLike) -> IntArray:
    """The first tie-break rank: a straight's top card, the rank of a pair, trips or quads, the high card."""
    return (np.asarray(s, dtype=np.int64) // _TOP_UNIT) % _B


def is_royal(s: npt.ArrayLike) -> BoolArray:
    """Whether each strength is an ace-high straight flush."""
    return np.asarray((category_of(s) == STRAIGHT_FLUSH) & (top_rank_of(s) == 12))


def hand_name(cards: Sequence[int]) -> str:
    """One hand's class in the table files' vocabulary ("royal_flush", "two_pair", ...)."""
    s = strength(np.array([list(cards)]))
    return "royal_flush" if bool(is_royal(s)[0]) else CATEGORY_NAMES[int(category_of(s)[0])]


def three_card_classes(cards: npt.ArrayLike) -> npt.NDArray[np.str_]:
    """Three-card poker class of (..., 3) card ids: mini_royal (suited A-K-Q) > straight_flush >
    three_of_a_kind > straight > flush > pair > loss; A-2-3 is a straight."""
    c = np.asarray(cards, dtype=np.int64)
    r = np.sort(c >> 2, axis=-1)
    s = c & 3
    flush = np.all(s == s[..., :1], axis=-1)
    trips = (r[..., 0] == r[..., 2])
    pair = ~trips & ((r[..., 0] == r[..., 1]) | (r[..., 1] == r[..., 2]))
    distinct = ~trips & ~pair
    straight = distinct & ((r[..., 2] - r[..., 0] == 2) | ((r[..., 0] == 0) & (r[..., 1] == 1) & (r[..., 2] == 12)))
    mini_royal = straight & flush & (r[..., 0] == 10)
    return np.select([mini_royal, straight & flush, trips, straight, flush, pair],
                     ["mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair"], "loss")


# --- results ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """One simulated figure, its 99% confidence interval and the exact value it should contain."""

    wager: str
    figure: str  # expected_value | hit_frequency | average_stake
    rounds: int
    mean: float
    sd: float  # sample standard deviation of the per-round quantity
    exact: Fraction | None
    wins: int | None = None  # rounds the wager won (for the reliability note)

    @property
    def half_width(self) -> float:
        return Z_995 * self.sd / math.sqrt(self.rounds)

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    @property
    def inside(self) -> bool | None:
        if self.exact is None:
            return None
        return self.low <= float(self.exact) <= self.high

    @property
    def deviation(self) -> float | None:
        """(simulated - exact) in standard errors."""
        if self.exact is None:
            return None
        se = self.sd / math.sqrt(self.rounds)
        diff = self.mean - float(self.exact)
        return diff / se if se > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))


@dataclass(frozen=True)
class Simulation:
    game: str
    table: str
    table_sha256: str
    rounds: int
    seed: int
    strategy: str
    rules: Mapping[str, Any]
    estimates: tuple[Estimate, ...]
    notes: tuple[str, ...] = ()
    seconds_simulating: float = 0.0
    seconds_exact: float = 0.0

    @property
    def checked(self) -> tuple[Estimate, ...]:
        return tuple(e for e in self.estimates if e.exact is not None)

    @property
    def outside(self) -> tuple[Estimate, ...]:
        return tuple(e for e in self.checked if not e.inside)

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds_simulating if self.seconds_simulating > 0 else math.inf


# --- the game plans: what to deal and how to settle it ---------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One wager's per-round results."""

    units: FloatArray  # net units won per unit bet
    wins: FloatArray | None = None  # share of the round's bets that won (default: units > 0)
    stake: FloatArray | None = None  # units staked, when the stake varies

    def won(self) -> FloatArray:
        return self.wins if self.wins is not None else (self.units > 0).astype(np.float64)


Outcomes = dict[str, Outcome]  # wager -> its outcomes in a batch of rounds


@dataclass
class Plan:
    """How one game is simulated: ``play(rng, n)`` deals and settles n rounds."""

    play: Callable[[np.random.Generator, int], Outcomes]
    strategy: str
    exact_options: RunOptions
    rules: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def _floats(pays: Sequence[Fraction]) -> FloatArray:
    return np.array([float(p) for p in pays], dtype=np.float64)


# Let It Ride ----------------------------------------------------------------------------------------

LIR_CLASSES = ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
               "three_of_a_kind", "two_pair", "pair")
_LIR_LOSS = len(LIR_CLASSES)
_PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)  # the 24 relabellings of suits


def lir_class(s: IntArray, min_rank: int) -> IntArray:
    """Index into LIR_CLASSES of each final hand, or 9 for a losing hand (pairs below ``min_rank`` lose)."""
    cat = category_of(s)
    top = top_rank_of(s)
    by_category = np.array([_LIR_LOSS, 8, 7, 6, 5, 4, 3, 2, 1], dtype=np.int64)  # high card .. straight flush
    out = by_category[cat]
    out = np.where((cat == STRAIGHT_FLUSH) & (top == 12), 0, out)
    return np.where((cat == PAIR) & (top < min_rank), _LIR_LOSS, out)


def suit_class_keys(cards: IntArray) -> IntArray:
    """A key per row of (n, k) card ids, equal for two holdings exactly when a suit relabelling maps one
    onto the other: the smallest base-52 code of the sorted cards over the 24 relabellings."""
    relabelled = (cards >> 2)[None] * 4 + _PERMS[:, cards & 3]  # (24, n, k)
    relabelled.sort(axis=-1)
    codes = relabelled @ (52 ** np.arange(cards.shape[1], dtype=np.int64))
    return np.asarray(codes.min(axis=0), dtype=np.int64)


def _decode(keys: IntArray, k: int) -> IntArray:
    return (keys[:, None] // 52 ** np.arange(k, dtype=np.int64)) % 52


_BINOM = np.array([[math.comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int64)


class RideDecisions:
    """Whether a bet rides, per holding of k cards: exactly when the summed pay of every completion is
    positive (or zero, with ``ride_on_zero``). Sums are computed once per suit class, decisions are
    then remembered per card set (by its colex index) so a warm lookup is one array read."""

    def __init__(self, k: int, values: IntArray, min_rank: int, ride_on_zero: bool):
        self.k = k
        self.values = values  # integer pay per LIR class (scaled), losing hand last
        self.min_rank = min_rank
        self.ride_on_zero = ride_on_zero
        self.sums: dict[int, int] = {}  # suit-class key -> summed pay over the completions
        self.known = np.full(math.comb(52, k), -1, dtype=np.int8)  # per card set: -1 unknown, 0 pull, 1 ride
        self.completions = np.array(list(itertools.combinations(range(52 - k), 5 - k)), dtype=np.int64)

    def _compute(self, keys: IntArray) -> None:
        n_comp = len(self.completions)
        batch = max(1, 240_000 // n_comp)
        for start in range(0, len(keys), batch):
            kk = keys[start:start + batch]
            reps = _decode(kk, self.k)
            m = len(reps)
            unseen = np.ones((m, 52), dtype=bool)
            unseen[np.arange(m)[:, None], reps] = False
            rest = np.nonzero(unseen)[1].reshape(m, 52 - self.k)
            hands = np.concatenate([np.broadcast_to(reps[:, None, :], (m, n_comp, self.k)),
                                    rest[:, self.completions]], axis=2)
            sums = self.values[lir_class(strength(hands), self.min_rank)].sum(axis=1)
            self.sums.update(zip(kk.tolist(), sums.tolist()))

    def _learn(self, cards: IntArray, index: IntArray) -> None:
        keys = suit_class_keys(cards)
        missing = np.array([u for u in np.unique(keys).tolist() if u not in self.sums], dtype=np.int64)
        if len(missing):
            self._compute(missing)
        sums = np.array([self.sums[u] for u in keys.tolist()], dtype=np.int64)
        self.known[index] = sums >= 0 if self.ride_on_zero else sums > 0

    def ride(self, cards: IntArray) -> BoolArray:
        """(n,) whether the bet rides on each row of (n, k) card ids."""
        ordered = np.sort(cards, axis=1)
        index = sum(_BINOM[ordered[:, i], i + 1] for i in range(self.k))
        new = self.known[index] < 0
        if new.any():
            first, at = np.unique(index[new], return_index=True)
            self._learn(ordered[new][at], first)
        return np.asarray(self.known[index] == 1)


def _let_it_ride(table: Table, strategy: str | None) -> Plan:
    from .games.let_it_ride import LetItRideTable

    model = table.model
    assert isinstance(model, LetItRideTable)
    if strategy not in (None, "optimal"):
        raise OptionError(f"unknown strategy {strategy!r} for let-it-ride; known: optimal")
    min_rank = parse_rank(model.rules.min_pair)
    pays = [getattr(model.pays.main, name) for name in LIR_CLASSES]
    den = math.lcm(*(p.denominator for p in pays))
    values = np.array([int(p * den) for p in pays] + [-den], dtype=np.int64)
    units = _floats(pays + [Fraction(-1)])
    bet1 = RideDecisions(3, values, min_rank, model.rules.ride_on_zero)
    bet2 = RideDecisions(4, values, min_rank, model.rules.ride_on_zero)
    bonus = model.pays.three_card_bonus
    deck = full_shoe(1)

    def play(rng: np.random.Generator, n: int) -> Outcomes:
        cards = deal(rng, deck, n, 5)  # three for the player, then the two community cards in order
        bets = 1 + bet1.ride(cards[:, :3]).astype(np.int64) + bet2.ride(cards[:, :4]).astype(np.int64)
        final = units[lir_class(strength(cards), min_rank)]
        out: Outcomes = {"main": Outcome(final * bets, stake=bets.astype(np.float64))}
        if bonus is not None:
            cls = three_card_classes(cards[:, :3])
            won = np.full(n, -1.0)
            for name in ("mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair"):
                won[cls == name] = float(getattr(bonus, name))
            out["three_card_bonus"] = Outcome(won)
        return out

    return Plan(play, "optimal: each of bets 1 and 2 rides exactly when its EV given the cards seen is positive"
                + (" or zero" if model.rules.ride_on_zero else "")
                + " (found by enumerating the unseen cards with the simulator's own evaluator)",
                RunOptions(), {"min_pair": model.rules.min_pair, "ride_on_zero": model.rules.ride_on_zero})


# Caribbean Stud -------------------------------------------------------------------------------------

CARIBBEAN_STRATEGIES = ("rules-of-thumb", "raise-ak-plus", "raise-pair-plus", "always-raise")


def qualifier_strength(text: str) -> int:
    """The weakest dealer strength that qualifies: "ace-king", "ace queen", "pair of fours", "any"."""
    t = text.strip().lower().replace("_", " ").replace("-", " ")
    if t in ("any", "none", "no qualifier"):
        return 0
    m = re.fullmatch(r"(?:a )?pair(?: of)? (\w+)", t)
    try:
        if m:
            r = parse_rank(m.group(1))
            return PAIR * _CATEGORY_UNIT + r * _TOP_UNIT + r * _B**3
        parts = t.split()
        if len(parts) == 2:
            hi, lo = parse_rank(parts[0]), parse_rank(parts[1])
            if hi > lo:
                return hi * _TOP_UNIT + lo * _B**3
    except ValueError:
        pass
    raise OptionError(f"simulate cannot read the dealer qualifier {text!r} (e.g. 'ace-king', 'pair of fours')")


def caribbean_raises(player: IntArray, up: IntArray, s: IntArray, strategy: str) -> BoolArray:
    """Whether the player raises, for (n, 5) player cards, (n,) up cards and the player's strengths.

    rules-of-thumb (as usually published): raise any pair or better; with ace-king high raise when the
    up card is 2 to Q and matches one of your ranks, or is A or K and you hold a Q or J, or matches none
    of your ranks while you hold a Q and it is below your fourth-highest card.
    """
    made: BoolArray = category_of(s) >= PAIR
    if strategy == "raise-pair-plus":
        return made
    ranks = -np.sort(-(player >> 2), axis=1)  # high to low
    ace_king = (category_of(s) == HIGH_CARD) & (ranks[:, 0] == 12) & (ranks[:, 1] == 11)
    if strategy == "raise-ak-plus":
        return np.asarray(made | ace_king)
    if strategy == "always-raise":
        return np.ones(len(s), dtype=bool)
    u = (up >> 2)[:, None]
    matches = (ranks == u).any(axis=1)
    queen = (ranks == 10).any(axis=1)
    jack = (ranks == 9).any(axis=1)
    uu = u[:, 0]
    thumb = (((uu <= 10) & matches) | ((uu >= 11) & (queen | jack))
             | (~matches & queen & (uu < ranks[:, 3])))
    return np.asarray(made | (ace_king & thumb))


def _caribbean(table: Table, strategy: str | None) -> Plan:
    from .games.caribbean import CaribbeanTable

    model = table.model
    assert isinstance(model, CaribbeanTable)
    notes = []
    chosen = strategy or model.rules.strategy
    if chosen == "optimal":
        if strategy is not None:
            raise OptionError("simulate cannot play caribbean's optimal strategy (each decision needs the counts of "
                              "all dealer completions); use one of: " + ", ".join(CARIBBEAN_STRATEGIES))
        chosen = "rules-of-thumb"
        notes.append("The table asks for the optimal strategy, which needs the dealer-completion counts of every "
                     "hand and up card; the simulator plays rules-of-thumb and every exact value is the engine's "
                     "for rules-of-thumb.")
    if chosen not in CARIBBEAN_STRATEGIES:
        raise OptionError(f"unknown strategy {chosen!r} for simulate caribbean; one of: "
                          + ", ".join(CARIBBEAN_STRATEGIES))
    qualifier = qualifier_strength(model.rules.dealer_qualifier)
    raise_pays = _floats([getattr(model.pays.main, name) for name in CATEGORY_NAMES] + [model.pays.main.royal_flush])
    jackpot = model.pays.jackpot
    paid_on_fold = model.rules.jackpot_paid_on_fold
    deck = full_shoe(1)

    def play(rng: np.random.Generator, n: int) -> Outcomes:
        cards = deal(rng, deck, n, 10)  # player's five, the dealer's up card, the dealer's four hole cards
        player = cards[:, :5]
        sp = strength(player)
        sd = strength(cards[:, 5:])
        raised = caribbean_raises(player, cards[:, 5], sp, chosen)
        pay = raise_pays[np.where(is_royal(sp), len(CATEGORY_NAMES), category_of(sp))]
        settled = np.select([sd < qualifier, sp > sd, sp == sd], [1.0, 1.0 + 2.0 * pay, 0.0], -3.0)
        out: Outcomes = {"main": Outcome(np.where(raised, settled, -1.0), stake=np.where(raised, 3.0, 1.0))}
        if jackpot is not None:
            won = np.full(n, -1.0)
            cat = category_of(sp)
            hits = {"royal_flush": is_royal(sp), "straight_flush": (cat == STRAIGHT_FLUSH) & ~is_royal(sp),
                    "four_of_a_kind": cat == QUADS, "full_house": cat == FULL_HOUSE, "flush": cat == FLUSH}
            for name, hit in hits.items():
                amount = getattr(jackpot, name)
                if amount is not None:
                    won[hit] = float(amount / jackpot.stake - 1)
            if not paid_on_fold:
                won[~raised] = -1.0
            out["jackpot"] = Outcome(won)
        return out

    return Plan(play, chosen, RunOptions(strategy=chosen),
                {"dealer_qualifier": model.rules.dealer_qualifier, "jackpot_paid_on_fold": paid_on_fold}, notes)


# Baccarat shared ------------------------------------------------------------------------------------

# point value of each rank 2..A: 2-9 face value, 10/J/Q/K nothing, ace one
POINTS = np.array([2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 1], dtype=np.int64)


def _chart(rows: Sequence[str]) -> BoolArray:
    """A drawing tableau (rows: totals 0-7, letters: third card 0-9, D draws) as a (10, 10) grid;
    totals 8 and 9 never draw."""
    grid = np.zeros((10, 10), dtype=bool)
    for total, row in enumerate(rows):
        grid[total] = [ch == "D" for ch in row]
    return grid


def _mask(totals: Sequence[int]) -> BoolArray:
    m = np.zeros(10, dtype=bool)
    m[list(totals)] = True
    return m


def _chunk_rounds(shoe_size: int) -> int:
    return max(1_000, 16_000_000 // shoe_size)


# Punto banco ----------------------------------------------------------------------------------------


def _punto_banco(table: Table, decks_opt: int | None) -> Plan:
    from .games.punto_banco import PuntoBancoTable

    model = table.model
    assert isinstance(model, PuntoBancoTable)
    rules = model.rules
    decks = decks_opt if decks_opt is not None else rules.decks
    if decks < 1:
        raise OptionError("--decks must be at least 1")
    punto_draws = _mask(rules.punto_draws_on)
    banca_stood = _mask(rules.banca_draws_when_punto_stands)
    tableau = _chart(rules.banca_tableau)
    pays = model.pays
    banker = pays.banker
    keep = 1 - banker.commission
    banker_win = float(banker.win * keep)
    banker_six = float(banker.win_with_6 * keep) if banker.win_with_6 is not None else banker_win
    shoe = full_shoe(decks)

    def play(rng: np.random.Generator, n: int) -> Outcomes:
        cards = deal(rng, shoe, n, 6)  # punto, banca, punto, banca, then the third cards in turn
        ranks = cards >> 2
        v = POINTS[ranks]
        p0 = (v[:, 0] + v[:, 2]) % 10
        b0 = (v[:, 1] + v[:, 3]) % 10
        natural = (p0 >= 8) | (b0 >= 8)
        p_draws = ~natural & punto_draws[p0]
        p_third = v[:, 4]
        b_draws = ~natural & np.where(p_draws, tableau[b0, p_third], banca_stood[b0])
        b_third = np.where(p_draws, v[:, 5], v[:, 4])  # the next card of the shoe
        pt = np.where(p_draws, (p0 + p_third) % 10, p0)
        bt = np.where(b_draws, (b0 + b_third) % 10, b0)
        b_three = b_draws
        p_three = p_draws
        banker_wins = bt > pt
        player_wins = pt > bt
        tie = pt == bt
        b_units = np.where(banker_wins, np.where(bt == 6, banker_six, banker_win), np.where(tie, 0.0, -1.0))
        if banker.three_card_7_pushes:
            b_units = np.where(banker_wins & (bt == 7) & b_three, 0.0, b_units)
        out: Outcomes = {
            "banker": Outcome(b_units),
            "player": Outcome(np.where(player_wins, float(pays.player.win), np.where(tie, 0.0, -1.0))),
            "tie": Outcome(np.where(tie, float(pays.tie.win), -1.0)),
        }
        if pays.player_pair is not None:
            out["player_pair"] = Outcome(np.where(ranks[:, 0] == ranks[:, 2], float(pays.player_pair.win), -1.0))
        if pays.banker_pair is not None:
            out["banker_pair"] = Outcome(np.where(ranks[:, 1] == ranks[:, 3], float(pays.banker_pair.win), -1.0))
        if pays.dragon_7 is not None:
            out["dragon_7"] = Outcome(np.where(banker_wins & (bt == 7) & b_three, float(pays.dragon_7.win), -1.0))
        if pays.panda_8 is not None:
            out["panda_8"] = Outcome(np.where(player_wins & (pt == 8) & p_three, float(pays.panda_8.win), -1.0))
        return out

    return Plan(play, "none (the drawing rules decide)", RunOptions(decks=decks_opt),
                {"decks": decks, "punto_draws_on": list(rules.punto_draws_on),
                 "banca_draws_when_punto_stands": list(rules.banca_draws_when_punto_stands)},
                notes=[f"Each coup is dealt from a freshly shuffled shoe of {decks} deck(s) (no cut card)."])


# House baccarat -------------------------------------------------------------------------------------

_TOTALS = np.add.outer(np.arange(10), np.arange(10)) % 10
_STRATEGY = re.compile(r"^draw-([0-7])-([0-7])$")


def _by_totals(totals: Sequence[int]) -> BoolArray:
    return np.asarray(np.isin(_TOTALS, list(totals)) & (_TOTALS < 8))


def solved_chart(analysis: Analysis, kind: str) -> BoolArray | None:
    """The engine's solved draw/stand decisions from its report sections, as a (10, 10) grid by the
    point values of the two cards; None when the analysis does not expose them."""
    for section in analysis.sections:
        data = section.data
        if kind == "optimal" and isinstance(data, Mapping) and isinstance(data.get("compositions"), list):
            grid = np.zeros((10, 10), dtype=bool)
            for row in data["compositions"]:
                u, w = (int(x) for x in row["cards"])
                grid[u, w] = grid[w, u] = row["best"] == "draw"
            return grid & (_TOTALS < 8)
        if kind == "optimal-total" and section.title.lower().startswith("best play by two-card total") \
                and isinstance(data, list):
            return _by_totals([int(r["total"]) for r in data if r.get("best") == "draw"])
    return None


def _describe_chart(grid: BoolArray) -> str:
    totals = [t for t in range(8) if grid[_TOTALS == t].all()]
    if all(grid[_TOTALS == t].any() == (t in totals) for t in range(8)):
        return "draw on " + (", ".join(map(str, totals)) or "no total") + ", stand otherwise"
    draws = [f"{u}+{w}" for u in range(10) for w in range(u, 10) if grid[u, w]]
    return "draw on the two-card point values " + " ".join(draws)


def _house_baccarat(table: Table, strategy: str | None, decks_opt: int | None, players_opt: int | None,
                    progress: bool) -> tuple[Plan, Analysis]:
    from .games.house_baccarat import HouseBaccaratTable

    model = table.model
    assert isinstance(model, HouseBaccaratTable)
    rules = model.rules
    decks = decks_opt if decks_opt is not None else rules.decks
    players = players_opt if players_opt is not None else rules.players
    if decks < 1:
        raise OptionError("--decks must be at least 1")
    if not 1 <= players <= 7:
        raise OptionError("--players must be 1 to 7")
    game = GAMES["house-baccarat"]
    notes: list[str] = []
    options = RunOptions(strategy=strategy, decks=decks_opt, players=players_opt, progress=progress)
    name = strategy if strategy is not None else ("table" if rules.draw_on is not None else rules.strategy or "optimal")
    grid: BoolArray | None = None
    analysis: Analysis | None = None
    if name == "table":
        assert rules.draw_on is not None
        grid = _by_totals(rules.draw_on)
    elif name in ("optimal", "optimal-total"):
        analysis = game.analyze(table, options)
        grid = solved_chart(analysis, name)
        if grid is None:
            notes.append(f"The exact analysis exposes no solved chart for {name!r}; the simulator plays draw-0-5 "
                         "and compares with the exact value for draw-0-5.")
            name = "draw-0-5"
            options = RunOptions(strategy=name, decks=decks_opt, players=players_opt, progress=progress)
            analysis = None
        else:
            notes.append(f"Players play the exact engine's solved {name} chart (read from its report as data): "
                         f"{_describe_chart(grid)}.")
    if grid is None:
        m = _STRATEGY.match(name)
        if not m or int(m.group(1)) > int(m.group(2)):
            raise OptionError(f"unknown strategy {name!r}; use optimal, optimal-total or draw-A-B (e.g. draw-0-5)")
        grid = _by_totals(range(int(m.group(1)), int(m.group(2)) + 1))
    if analysis is None:
        analysis = game.analyze(table, options)
    draws = grid
    tableau = _chart(rules.house_tableau)
    all_stand = _mask(range(6)) if rules.house_draws_when_all_stand == "on-0-5" else _mask([])
    pay = float(model.pays.main.win)
    shoe = full_shoe(decks)
    k = 3 * players + 3

    def play(rng: np.random.Generator, n: int) -> Outcomes:
        # one card to each player and the house, then a second round; third cards come off the shoe as needed
        cards = deal(rng, shoe, n, k)
        v = POINTS[cards >> 2]
        first, second = v[:, :players], v[:, players + 1:2 * players + 1]
        h0 = (v[:, players] + v[:, 2 * players + 1]) % 10
        t0 = (first + second) % 10
        natural = t0 >= 8
        any_natural = natural.any(axis=1)
        drew = ~any_natural[:, None] & draws[first, second]
        pos = 2 * players + 2 + np.cumsum(drew, axis=1) - drew  # the next card of the shoe for each drawer
        third = np.take_along_axis(v, np.minimum(pos, k - 1), axis=1)
        final = np.where(drew, (t0 + third) % 10, t0)
        highest = np.where(drew, third, -1).max(axis=1)
        house_card = np.take_along_axis(v, (2 * players + 2 + drew.sum(axis=1))[:, None], axis=1)[:, 0]
        house_draws = ~any_natural & np.where(highest >= 0, tableau[h0, np.maximum(highest, 0)],
                                              all_stand[h0])
        house = np.where(house_draws, (h0 + house_card) % 10, h0)
        diff = final - house[:, None]
        seat = np.where(diff > 0, pay, np.where(diff < 0, -1.0, 0.0))
        seat = np.where(any_natural[:, None] & ~natural, 0.0, seat)  # another player's natural: sit out
        return {"main": Outcome(seat.mean(axis=1), (seat > 0).mean(axis=1))}

    rules_out = {"decks": decks, "players": players, "house_draws_when_all_stand": rules.house_draws_when_all_stand,
                 "strategy": name}
    if players > 1:
        notes.append(f"A round's value is the average over its {players} seats (exchangeable, one strategy).")
    notes.append(f"Each round is dealt from a freshly shuffled shoe of {decks} deck(s) (no cut card).")
    plan = Plan(play, f"{name}: {_describe_chart(draws)}", options, rules_out, notes=notes)
    return plan, analysis


# --- the driver ---------------------------------------------------------------------------------------


class _Sums:
    """Running sums of one per-round quantity (for its mean and sample standard deviation)."""

    def __init__(self) -> None:
        self.n = 0
        self.s1 = 0.0
        self.s2 = 0.0

    def add(self, x: FloatArray) -> None:
        self.n += len(x)
        self.s1 += float(x.sum())
        self.s2 += float((x * x).sum())

    @property
    def mean(self) -> float:
        return self.s1 / self.n

    @property
    def sd(self) -> float:
        if self.n < 2:
            return 0.0
        return math.sqrt(max(self.s2 - self.s1 * self.s1 / self.n, 0.0) / (self.n - 1))


def _check_inputs(game: str, rounds: int, seed: int, given: Mapping[str, Any]) -> None:
    if game not in GAMES:
        raise OptionError(f"unknown game {game!r}; one of: {', '.join(GAMES)}")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds <= 0:
        raise OptionError(f"the number of rounds (-n) must be a positive integer, got {rounds!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise OptionError(f"the seed must be a non-negative integer, got {seed!r}")
    for name, value in given.items():
        if value is not None and name not in GAMES[game].options:
            raise OptionError(f"--{name} does not apply to {game}")
    decks, players = given.get("decks"), given.get("players")
    if decks is not None and decks < 1:
        raise OptionError("--decks must be at least 1")
    if players is not None and not 1 <= players <= 7:
        raise OptionError("--players must be 1 to 7")


def _progress(enabled: bool, text: str, end: str = "") -> None:
    if enabled:
        print(f"\r{text}", end=end, file=sys.stderr, flush=True)


def run(game: str, table_ref: str | None = None, rounds: int | None = None, seed: int = DEFAULT_SEED,
        strategy: str | None = None, decks: int | None = None, players: int | None = None,
        exact: bool = True, progress: bool = False) -> Simulation:
    """Simulate ``rounds`` rounds of ``game`` with a PCG64 generator seeded with ``seed``, and compare each
    figure with the exact engine's value (``exact=False`` skips the exact analysis where the simulation
    does not need it). Raises ``OptionError`` for bad input and ``TableError`` for a bad table file."""
    n_rounds = DEFAULT_ROUNDS.get(game, 1_000_000) if rounds is None else rounds
    _check_inputs(game, n_rounds, seed, {"strategy": strategy, "decks": decks, "players": players})
    table = resolve_table(game, table_ref)
    analysis: Analysis | None = None
    t_exact = 0.0
    t0 = time.perf_counter()
    if game == "let-it-ride":
        plan, chunk = _let_it_ride(table, strategy), 50_000
    elif game == "caribbean":
        plan, chunk = _caribbean(table, strategy), 100_000
    elif game == "punto-banco":
        plan = _punto_banco(table, decks)
        chunk = _chunk_rounds(52 * int(plan.rules["decks"]))
    elif game == "house-baccarat":
        plan, analysis = _house_baccarat(table, strategy, decks, players, progress)
        chunk = _chunk_rounds(52 * int(plan.rules["decks"]))
        t_exact = time.perf_counter() - t0
    else:  # pragma: no cover - a game added to the registry without a simulator
        raise OptionError(f"simulate does not know how to play {game!r} yet")
    if exact and analysis is None:
        t1 = time.perf_counter()
        analysis = GAMES[game].analyze(table, dataclasses.replace(plan.exact_options, progress=progress))
        t_exact += time.perf_counter() - t1

    rng = np.random.Generator(np.random.PCG64(seed))
    sums: dict[tuple[str, str], _Sums] = {}
    order: list[tuple[str, str]] = []
    t1 = time.perf_counter()
    done = 0
    while done < n_rounds:
        n = min(chunk, n_rounds - done)
        for wager, out in plan.play(rng, n).items():
            figures = [("expected_value", out.units), ("hit_frequency", out.won())]
            if out.stake is not None:
                figures.append(("average_stake", out.stake))
            for fig, values in figures:
                key = (wager, fig)
                if key not in sums:
                    sums[key] = _Sums()
                    order.append(key)
                sums[key].add(values)
        done += n
        _progress(progress and done < n_rounds, f"simulate {game}: {100 * done // n_rounds:3d}% ({done:,} rounds)")
    _progress(progress, f"simulate {game}: 100% ({n_rounds:,} rounds)", end="\n")
    t_sim = time.perf_counter() - t1

    notes = list(plan.notes)
    estimates = []
    for wager, fig in order:
        s = sums[(wager, fig)]
        value: Fraction | None = None
        if analysis is not None:
            try:
                w = analysis.wager(wager)
            except KeyError:
                if fig == "expected_value":
                    notes.append(f"The exact analysis has no wager {wager!r}: nothing to compare it with.")
            else:
                value = Fraction({"expected_value": w.expected_value, "hit_frequency": w.hit_frequency,
                                  "average_stake": w.average_stake}[fig])
        wins = round(sums[(wager, "hit_frequency")].s1)
        estimates.append(Estimate(wager, fig, s.n, s.mean, s.sd, value, wins))
    simulated = {w for w, _ in order}
    if analysis is not None:
        for w in analysis.wagers:
            if w.wager not in simulated:
                notes.append(f"The table's wager {w.wager!r} is not simulated.")
    for wager in dict.fromkeys(w for w, _ in order):
        e = next(e for e in estimates if e.wager == wager)
        if e.wins is not None and e.wins < FEW_WINS:
            notes.append(f"{wager}: only {e.wins:,} winning round(s) in the sample; its normal interval is a rough "
                         "guide (the payoff is long-tailed: more rounds make it sound).")
    return Simulation(game, table.id, table.sha256, n_rounds, seed, plan.strategy, plan.rules, tuple(estimates),
                      tuple(notes), t_sim, t_exact)


# --- rendering ------------------------------------------------------------------------------------------


def _num(x: float) -> str:
    return f"{x:.6f}"


def summary_line(sim: Simulation) -> str:
    checked, outside = sim.checked, sim.outside
    if not checked:
        return "summary: no exact values to compare with."
    text = f"summary: {len(checked) - len(outside)} of {len(checked)} exact values lie inside their 99% confidence intervals"
    if not outside:
        return text + "."
    far = ", ".join(f"{e.wager} {e.figure} ({e.deviation:+.2f} standard errors)" for e in outside)
    return (f"{text}; OUTSIDE: {far}. At 99% confidence about 1 figure in 100 falls outside by chance; "
            "rerun with another --seed or more rounds before suspecting the exact engine.")


def render_text(sim: Simulation) -> str:
    """A plain table: wager, figure, simulated, 99% CI, exact, inside?"""
    lines = [(f"oddscalc simulate {sim.game}: table {sim.table} (sha256 {sim.table_sha256[:12]}), "
              f"{sim.rounds:,} rounds, seed {sim.seed}"),
             f"strategy: {sim.strategy}",
             "rules: " + ", ".join(f"{k} = {v}" for k, v in sim.rules.items())]
    lines += [f"note: {n}" for n in sim.notes]
    head = ("wager", "figure", "simulated", "99% confidence interval", "exact", "inside?")
    rows = [(e.wager, e.figure, _num(e.mean), f"[{_num(e.low)}, {_num(e.high)}]",
             _num(float(e.exact)) if e.exact is not None else "-",
             "-" if e.inside is None else "yes" if e.inside else "NO") for e in sim.estimates]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    right = (False, False, True, False, True, False)
    lines.append("")
    for r in [head, *rows]:
        lines.append("  ".join(c.rjust(w) if ra else c.ljust(w) for c, w, ra in zip(r, widths, right)).rstrip())
    lines += ["", summary_line(sim)]
    return "\n".join(lines) + "\n"


def render_json(sim: Simulation) -> str:
    def exact_text(x: Fraction | None) -> str | None:
        if x is None:
            return None
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"

    data = {
        "oddscalc_version": __version__, "game": sim.game, "table": sim.table, "table_sha256": sim.table_sha256,
        "rounds": sim.rounds, "seed": sim.seed, "generator": "numpy PCG64", "strategy": sim.strategy,
        "rules": dict(sim.rules), "confidence": 0.99, "z": Z_995,
        "estimates": [{
            "wager": e.wager, "figure": e.figure, "simulated": e.mean, "standard_deviation": e.sd,
            "half_width": e.half_width, "low": e.low, "high": e.high, "exact": exact_text(e.exact),
            "exact_decimal": float(e.exact) if e.exact is not None else None, "inside": e.inside,
            "deviation_standard_errors": e.deviation, "wins": e.wins,
        } for e in sim.estimates],
        "inside": len(sim.checked) - len(sim.outside), "checked": len(sim.checked),
        "notes": list(sim.notes), "summary": summary_line(sim),
    }
    return json.dumps(data, indent=2) + "\n"


RENDERERS: Mapping[str, Callable[[Simulation], str]] = {"text": render_text, "json": render_json}
