"""Let It Ride's holding sections (bet1/bet2_holdings) and strategy sections (bet1/bet2_strategy), every row
against a plain brute force on reduced decks.

The brute force deals every three- and four-card holding of the deck as actual cards, every completion
of it to five cards, and pays each final hand by a plain reading of the pay table (its own five-card
evaluator below; no code shared with the engine). One bet's total return on a holding is its net units
over every completion; the bet rides exactly when that total is positive (or zero, with ride_on_zero).
Each bet is paid on the same final hand whatever is done with the other bets, so bet 1's expected value
is the plain average over the holding's C(n-3,2) completions with the later decisions playing no part
(as tests/lir_brute.py reads it). Holdings are grouped by their shape read plainly off the cards: the
names the sections document, never the engine's grouping functions.

Four unsuited cards in a row are an outside straight when two ranks of the deck complete them: on a reduced
deck a run may end at its lowest rank (J-T-9-8 with no seven), which the strategy sections once called outside.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.cards import Deck, reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.results import Cell, RunOptions, Section
from oddscalc.tables import Table

NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
PLURALS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
           "kings", "aces")
CHARS = "23456789TJQKA"
ACE, TEN = 12, 8


# --- the plain game ------------------------------------------------------------------------------------------


def is_straight(ranks: Sequence[int]) -> bool:
    """Five distinct ranks in a row; the ace also plays low in A-2-3-4-5."""
    r = sorted(ranks)
    return len(set(r)) == 5 and (r[4] - r[0] == 4 or r == [0, 1, 2, 3, ACE])


def outcome(hand: Sequence[int], min_rank: int) -> str:
    """The pay-table key a five-card hand is paid by, or "loss" (no pair, or a pair below the minimum)."""
    by_rank = Counter(c >> 2 for c in hand)
    counts = sorted(by_rank.values(), reverse=True)
    flush, straight = len({c & 3 for c in hand}) == 1, is_straight(list(by_rank))
    if flush and straight:
        return "royal_flush" if min(by_rank) == TEN else "straight_flush"
    if counts[0] == 4:
        return "four_of_a_kind"
    if counts[:2] == [3, 2]:
        return "full_house"
    if flush or straight:
        return "flush" if flush else "straight"
    if counts[0] == 3:
        return "three_of_a_kind"
    if counts[:2] == [2, 2]:
        return "two_pair"
    if counts[0] == 2 and max(r for r, k in by_rank.items() if k == 2) >= min_rank:
        return "pair"
    return "loss"


@dataclass(frozen=True)
class Holding:
    """One holding as dealt: its cards and one bet's net units over all of its completions."""

    cards: tuple[int, ...]
    total: Fraction
    completions: int


def deal(deck: Deck, pays: dict[str, Fraction], min_rank: int) -> dict[int, list[Holding]]:
    """Every three- and four-card holding of the deck with its total return, from every completion played out."""
    den = math.lcm(*(p.denominator for p in pays.values()))
    units = {name: int(p * den) for name, p in pays.items()} | {"loss": -den}  # whole numbers: quick, exact
    net = {sum(1 << c for c in hand): units[outcome(hand, min_rank)] for hand in itertools.combinations(deck.cards, 5)}
    out: dict[int, list[Holding]] = {}
    for n in (3, 4):
        more = [sum(1 << c for c in cards) for cards in itertools.combinations(deck.cards, 5 - n)]
        out[n] = []
        for held in itertools.combinations(deck.cards, n):
            mask = sum(1 << c for c in held)
            outcomes = [net[mask | m] for m in more if not mask & m]
            out[n].append(Holding(held, Fraction(sum(outcomes), den), len(outcomes)))
    return out


# --- a holding's shape, read plainly ----------------------------------------------------------------------------


def runs(deck: Deck) -> list[set[int]]:
    """The rank sets of the straights the deck can make (the wheel A-2-3-4-5 among them)."""
    every = [set(range(low, low + 5)) for low in range(9)] + [{ACE, 0, 1, 2, 3}]
    return [s for s in every if s <= set(deck.ranks)]


def span(ranks: Sequence[int], run: set[int]) -> int:
    """The fewest consecutive ranks covering ``ranks`` inside the straight ``run`` (the ace low in the wheel)."""
    r = [-1 if x == ACE and 0 in run else x for x in ranks]
    return max(r) - min(r) + 1


def completing_ranks(ranks: Sequence[int], deck: Deck) -> int:
    """How many of the deck's ranks make four distinct ranks a straight."""
    return sum(r not in ranks and is_straight([*ranks, r]) for r in deck.ranks)


def high(k: int) -> str:
    return f"{k} high card{'' if k == 1 else 's'}"


def made_hand(cards: Sequence[int], min_rank: int) -> str | None:
    """The holding's made hand in words, None without a pair."""
    by_rank = Counter(c >> 2 for c in cards)
    counts = sorted(by_rank.values(), reverse=True)
    if counts[0] == 1:
        return None
    if counts[0] > 2:
        return {4: "four of a kind", 3: "three of a kind"}[counts[0]]
    pairs = [r for r, k in by_rank.items() if k == 2]
    if len(pairs) == 2:
        return "two pair"
    return f"pair of {PLURALS[pairs[0]]}" + (" (pays)" if pairs[0] >= min_rank else "")


@dataclass(frozen=True)
class Shape:
    """What a label reads off a no-pair holding."""

    n: int
    ranks: list[int]
    suited: bool
    windows: int  # straights of the deck holding every rank
    spread: int  # fewest consecutive ranks covering them inside one of those (0 if none)
    highs: int  # cards at or above the minimum paying pair
    outside: bool  # four cards that two of the deck's ranks complete to a straight

    @staticmethod
    def of(cards: Sequence[int], deck: Deck, min_rank: int) -> Shape:
        ranks = [c >> 2 for c in cards]
        inside = [s for s in runs(deck) if set(ranks) <= s]
        return Shape(len(cards), ranks, len({c & 3 for c in cards}) == 1, len(inside),
                     min((span(ranks, s) for s in inside), default=0), sum(r >= min_rank for r in ranks),
                     len(cards) == 4 and completing_ranks(ranks, deck) == 2)


def holdings_label(cards: Sequence[int], deck: Deck, min_rank: int) -> str:
    """The holdings section's documented classes: made hands (a pair as paying or low), draws, high cards."""
    made = made_hand(cards, min_rank)
    if made is not None:
        if made.startswith("pair of"):
            return f"paying pair ({PLURALS[min_rank]} or better)" if made.endswith("(pays)") else "low pair"
        return made
    s = Shape.of(cards, deck, min_rank)
    word = {3: "three", 4: "four"}[s.n]
    if s.suited and min(s.ranks) >= TEN and set(range(TEN, ACE + 1)) <= set(deck.ranks):  # part of a royal
        return f"{word} to a royal flush" + (f", {NAMES[max(s.ranks)]} highest" if s.n == 3 else "")
    if s.suited and s.windows and s.n == 4:
        return f"four to a straight flush, {'open-ended' if s.outside else 'inside'}"
    if s.suited and s.windows:
        cut = f" ({s.windows} straight{'' if s.windows == 1 else 's'} only)" if s.windows < 6 - s.spread else ""
        return f"three to a straight flush, spread {s.spread}, {high(s.highs)}{cut}"
    if s.suited and s.n == 4:
        return "four to a flush"
    if s.windows and s.n == 4:
        return f"four to an {'outside' if s.outside else 'inside'} straight, {high(s.highs)}"
    return f"no pair, {high(s.highs)}"


def strategy_label(cards: Sequence[int], deck: Deck, min_rank: int) -> str:
    """The strategy card's kinds: each pair by rank, a suited draw to the royal as the holdings name it (other
    suited draws inside a straight by their spread), four to a flush, outside or inside straights."""
    made = made_hand(cards, min_rank)
    if made is not None:
        return made
    s = Shape.of(cards, deck, min_rank)
    word = {3: "three", 4: "four"}[s.n]
    if s.suited and s.windows:
        if min(s.ranks) >= TEN and set(range(TEN, ACE + 1)) <= set(deck.ranks):
            return f"{word} to a royal flush"
        return f"{word} to a straight flush, spread {s.spread}, {high(s.highs)}"
    if s.suited and s.n == 4:
        return "four to a flush"
    if s.windows and s.n == 4:
        return f"four to an {'outside' if s.outside else 'inside'} straight, {high(s.highs)}"
    return f"no pair, {high(s.highs)}"


# --- the sections' rows from the holdings --------------------------------------------------------------------


def rides_on(h: Holding, ride_on_zero: bool) -> bool:
    """The optimal decision: ride on a positive EV; on an EV of exactly 0 only under ride_on_zero."""
    return h.total > 0 or (ride_on_zero and h.total == 0)


def holdings_rows(dealt: list[Holding], deck: Deck, min_rank: int, ride_on_zero: bool) -> list[tuple[Cell, ...]]:
    """Per class, best total first: number, probability, total return (the class's average over its holdings),
    average return (per completion), expected return (probability x average), riders; then the riders."""
    every, completions = len(dealt), dealt[0].completions
    groups: dict[str, list[Holding]] = {}
    for h in dealt:
        groups.setdefault(holdings_label(h.cards, deck, min_rank), []).append(h)
    classes = []
    for name, members in groups.items():
        total = sum((h.total for h in members), Fraction(0)) / len(members)
        classes.append((total, name, len(members), sum(rides_on(h, ride_on_zero) for h in members)))
    rows: list[tuple[Cell, ...]] = []
    for total, name, number, rides in sorted(classes, key=lambda c: (-c[0], c[1])):
        p = Fraction(number, every)
        rows.append((name, number, p, total, total / completions, p * total / completions, rides))
    riders = [h for h in dealt if rides_on(h, ride_on_zero)]
    won = sum((h.total for h in riders), Fraction(0))
    rows.append(("holdings that ride", len(riders), Fraction(len(riders), every), None, None,
                 won / (every * completions), len(riders)))
    return rows


@dataclass
class Kind:
    """A strategy row: riders, holdings, zero-EV holdings, the best ranks, and per rank pattern [ride, of]."""

    ride: int = 0
    of: int = 0
    zero: int = 0
    best: tuple[int, ...] = ()
    patterns: dict[str, list[int]] = field(default_factory=dict)

    def decision(self) -> str:
        """All ride, none ride, or the majority with the rank patterns that go the other way (twelve at most)."""
        all_zero = " (EV exactly 0)" if self.zero == self.of else ""
        if self.ride == self.of:
            return "ride" + all_zero
        if self.ride == 0:
            return "pull back" + all_zero
        rides = sorted(p for p, (r, t) in self.patterns.items() if r == t)
        pulls = sorted(p for p, (r, t) in self.patterns.items() if r == 0)
        word, listed = ("ride", pulls) if len(pulls) <= len(rides) else ("pull back", rides)
        return f"{word}, except " + ", ".join(listed[:12]) + (" ..." if len(listed) > 12 else "")


def strategy_rows(dealt: list[Holding], deck: Deck, min_rank: int, ride_on_zero: bool) -> list[tuple[Cell, ...]]:
    """Per kind of holding: how many ride, of how many, how many have an EV of exactly 0, the decision."""
    kinds: dict[str, Kind] = {}
    for h in dealt:
        k = kinds.setdefault(strategy_label(h.cards, deck, min_rank), Kind())
        ranks = tuple(sorted((c >> 2 for c in h.cards), reverse=True))
        ride = rides_on(h, ride_on_zero)
        k.ride, k.of, k.zero, k.best = k.ride + ride, k.of + 1, k.zero + (h.total == 0), max(k.best, ranks)
        suited = len({c & 3 for c in h.cards}) == 1
        tally = k.patterns.setdefault("".join(CHARS[r] for r in ranks) + ("s" if suited else ""), [0, 0])
        tally[0] += ride
        tally[1] += 1
    # riders first (by the share that rides), then by the best ranks the kind holds, then by name
    order = sorted(kinds.items(), key=lambda kv: (-Fraction(kv[1].ride, kv[1].of), [-r for r in kv[1].best], kv[0]))
    return [(name, k.ride, k.of, k.zero, k.decision()) for name, k in order]


def strategy_intro(dealt: list[Holding], ride_on_zero: bool) -> tuple[str, ...]:
    """The section's first lines: how many ride, and how many have an EV of exactly 0 and what they do."""
    ride, zero = sum(rides_on(h, ride_on_zero) for h in dealt), sum(h.total == 0 for h in dealt)
    lines = [f"{ride:,} of {len(dealt):,} holdings let the bet ride."]
    if zero:
        lines.append(f"{zero:,} holdings have an expected value of exactly zero on this bet; they are "
                     + ("let ride (table rule ride_on_zero)." if ride_on_zero else
                        "pulled back (same EV, lower stake; set ride_on_zero to ride them)."))
    return tuple(lines)


def is_four_card_straight(row: Sequence[Cell]) -> bool:
    """A bet 2 row of four unsuited cards to a straight (outside or inside)."""
    return str(row[0]).startswith("four to an ")


# --- the cases ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A deck and the table rules that change the sections."""

    deck: Deck
    min_pair: str
    ride_on_zero: bool = False
    pays: tuple[tuple[str, int], ...] = ()  # changed from the standard table's main pays (x:1)

    @property
    def min_rank(self) -> int:
        return PLURALS.index(self.min_pair)


CASES = {
    "8-A x3 tens": Case(reduced_deck("8", 3), "tens"),  # royal and straight flush draws, a split kind
    "wheel x3 tens": Case(Deck((0, 1, 2, 3, 4, 11, 12), 3), "tens"),  # A-2-3-4-5, draws cut short, "..."
    "6-A x2 queens": Case(Deck(tuple(range(4, 13)), 2), "queens"),  # zero-EV holdings on both bets
    "6-A x2 queens ride on zero": Case(Deck(tuple(range(4, 13)), 2), "queens", ride_on_zero=True),
    "J-A x4 kings ride on zero": Case(Deck((9, 10, 11, 12), 4), "kings", ride_on_zero=True),  # no straights
    "2-A x2 tens": Case(Deck(tuple(range(13)), 2), "tens"),  # every rank: each four-card straight two-ended or not
    # a kind all of whose holdings ride, some of them at an EV of exactly 0; and one all pulled back, some at 0
    "6-A x2 tens straight 4:1 ride on zero": Case(Deck(tuple(range(4, 13)), 2), "tens", True, (("straight", 4),)),
    "6-A x2 aces flush 4:1 two pair 1:1": Case(Deck(tuple(range(4, 13)), 2), "aces", False,
                                               (("flush", 4), ("two_pair", 1))),
}
@pytest.fixture(scope="module")
def standard() -> Table:
    return resolve_table("let-it-ride", "standard")


@dataclass(frozen=True)
class Run:
    """One case: the engine's sections and the brute force's holdings."""

    case: Case
    sections: dict[str, Section]
    dealt: dict[int, list[Holding]]


@pytest.fixture(scope="module")
def runs_of(standard: Table) -> Callable[[str], Run]:
    """Each case run once for the module: the report on the deck, and every holding dealt plainly."""
    done: dict[str, Run] = {}

    def get(name: str) -> Run:
        if name not in done:
            case = CASES[name]
            model = standard.model
            rules = model.rules.model_copy(  # type: ignore[attr-defined]
                update={"min_pair": case.min_pair, "ride_on_zero": case.ride_on_zero})
            main = model.pays.main.model_copy(update={k: Fraction(v) for k, v in case.pays})  # type: ignore[attr-defined]
            table = Table(standard.id, standard.path, standard.sha256, model.model_copy(update={
                "rules": rules, "pays": model.pays.model_copy(update={"main": main})}))  # type: ignore[attr-defined]
            a = Session("let-it-ride", RunOptions(deck=case.deck), Store(None)).analyze(table)
            done[name] = Run(case, {s.id: s for s in a.sections}, deal(case.deck, dict(main), case.min_rank))
        return done[name]

    return get


# --- the tests ----------------------------------------------------------------------------------------------------

BETS = {3: "bet1", 4: "bet2"}


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("name", list(CASES))
def test_holdings_section_equals_brute_force(name: str, n: int, runs_of: Callable[[str], Run]) -> None:
    # every row, in order, every cell exact: the class's number, probability, total, average and expected
    # return and riders, then the riders' row, from every holding's completions played out
    run = runs_of(name)
    case, dealt = run.case, run.dealt[n]
    section = run.sections[f"{BETS[n]}_holdings"]
    assert [c.id for c in section.columns] == ["holding", "number", "probability", "total_return",
                                               "average_return", "expected_return", "rides"]
    assert list(section.rows) == holdings_rows(dealt, case.deck, case.min_rank, case.ride_on_zero)
    every, completions = len(dealt), dealt[0].completions
    assert {h.completions for h in dealt} == {math.comb(case.deck.size - n, 5 - n)}
    assert f"C({case.deck.size},{n}) = {every:,}." in section.intro[0]
    assert f"all {completions:,} completions" in section.intro[0]


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("name", list(CASES))
def test_strategy_section_equals_brute_force(name: str, n: int, runs_of: Callable[[str], Run]) -> None:
    # every row, in order: the kind, how many ride, of how many, how many have an EV of exactly 0, the decision;
    # and the lines above. Four unsuited cards to a straight are the next test's.
    run = runs_of(name)
    case, dealt = run.case, run.dealt[n]
    section = run.sections[f"{BETS[n]}_strategy"]
    assert [c.id for c in section.columns] == ["holding", "ride", "of", "ev_zero", "decision"]
    plain = strategy_rows(dealt, case.deck, case.min_rank, case.ride_on_zero)
    assert [r for r in section.rows if not is_four_card_straight(r)] == [r for r in plain
                                                                         if not is_four_card_straight(r)]
    assert section.intro == strategy_intro(dealt, case.ride_on_zero)


@pytest.mark.parametrize("name", list(CASES))
def test_four_card_straights_are_outside_when_two_ranks_complete_them(name: str,
                                                                      runs_of: Callable[[str], Run]) -> None:
    # the bet 2 rows of four unsuited cards to a straight: outside when two ranks of the deck complete them
    run = runs_of(name)
    case = run.case
    plain = strategy_rows(run.dealt[4], case.deck, case.min_rank, case.ride_on_zero)
    assert [r for r in run.sections["bet2_strategy"].rows if is_four_card_straight(r)] == [
        r for r in plain if is_four_card_straight(r)]


def test_the_cases_mean_something(runs_of: Callable[[str], Run]) -> None:
    # what the cases are there for happens: zero-EV holdings on both bets, each kind of decision, draws cut
    # short, a class split between riding and pulling back, and every label's family
    seen: Counter[str] = Counter()
    for name in CASES:
        run = runs_of(name)
        for n in (3, 4):
            seen[f"zero EV, bet {n - 2}"] += sum(h.total == 0 for h in run.dealt[n])
            for r in run.sections[f"{BETS[n]}_strategy"].rows:
                decision = str(r[4])
                seen[decision.split(",")[0].split(" (")[0] + (" except" if "except" in decision else "")
                     + (" ..." if decision.endswith("...") else "") + (" (0)" if "(EV" in decision else "")] += 1
                if 0 < int(r[3] or 0) < int(r[2] or 0) and decision in ("ride", "pull back"):
                    seen[f"{decision}, some at 0"] += 1
            for r in run.sections[f"{BETS[n]}_holdings"].rows:
                seen[str(r[0]).split(",")[0].split(" (")[0]] += 1
                seen["cut short"] += str(r[0]).endswith("only)")
                seen["split class"] += 0 < int(r[6] or 0) < int(r[1] or 0)
    for key in ("zero EV, bet 1", "zero EV, bet 2", "ride", "pull back", "ride except", "pull back except",
                "ride except ...", "pull back except ...", "ride (0)", "pull back (0)", "cut short", "split class",
                "ride, some at 0", "pull back, some at 0",
                "four to an outside straight", "four to an inside straight", "four to a straight flush",
                "four to a royal flush", "three to a royal flush", "three to a straight flush", "four to a flush",
                "four of a kind", "three of a kind", "two pair", "low pair", "paying pair", "no pair"):
        assert seen[key], key
