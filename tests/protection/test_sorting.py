"""Punto banco's glimpse engine: equal to a brute force over every ordered coup of small shoes, and at 8 decks the
published edge-sorting figures (Jacobson, Roach), the published first-card counts, and the game's own count of a
shoe less the burn card."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

import pytest
from oracles.sorting_brute import (
    CHOICES,
    best_ev,
    best_sort,
    choice_returns,
    every_rank_sort,
    patterns,
    rank_sorts,
    value,
)

from oddscalc.cards import SUIT_CHARS
from oddscalc.catalog import resolve_table
from oddscalc.games.punto_banco.coup_features import RANKS, SUITS, Cards, count_cells
from oddscalc.games.punto_banco.game import PuntoBancoTable, settle
from oddscalc.games.shoe import falling
from oddscalc.protection import sorting, sorting_ranks
from oddscalc.protection.glimpse import Glimpse
from oddscalc.protocol import OptionError

_MODEL = resolve_table("punto-banco", "standard").model
assert isinstance(_MODEL, PuntoBancoTable)
TABLE: PuntoBancoTable = _MODEL
PAYS = sorting.outcome_pays(TABLE.pays, sorting.CHOICES)
CLASSIC = (frozenset("6789"), frozenset("A2345TJQK"))
FACES = (frozenset("TJ9"), frozenset("A2345678QK"))  # a sort of ranks, not of values: the tens split
SMALL = ("As", "Ah", "3d", "6c", "7s", "7h", "9d", "Kc", "5h")  # nine cards, duplicated ranks in two colours
TINY = ("Ac", "4d", "6h", "8s", "9c", "9d", "Th", "8d")


def _cards(shoe: Sequence[str]) -> Cards:
    copies = [0] * len(RANKS) * SUITS
    for c in shoe:
        copies[RANKS.index(c[0]) * SUITS + SUIT_CHARS.index(c[1])] += 1
    return Cards(tuple(copies))


def _oracle_sees(g: Glimpse) -> object:
    if g.shows == "card":
        return lambda c: c
    if g.shows == "rank":
        return lambda c: c[0]
    if g.shows == "suit":
        return lambda c: c[1]
    if g.shows == "colour":
        return lambda c: c[1] in "dh"
    return lambda c: g.sees(c[0])


def _engine(shoe: Sequence[str], glimpses: Sequence[Glimpse]) -> sorting.Glimpsed:
    return sorting.count(_cards(shoe), TABLE.rules, glimpses, sorting.CHOICES, PAYS)


CASES = {
    "first card's group": [Glimpse("player_1", "group", CLASSIC)],
    "first four cards' groups": [Glimpse(p, "group", CLASSIC) for p in sorting.FIRST_FOUR],
    "a sort of ranks, banker's cards": [Glimpse("banker_1", "group", FACES), Glimpse("banker_2", "group", FACES)],
    "burn card's rank": [Glimpse("burn", "rank")],
    "colour and suit": [Glimpse("player_1", "colour"), Glimpse("banker_1", "suit")],
    "two cards whole": [Glimpse("player_2", "card"), Glimpse("player_1", "card")],
    "burn's group and the first card's rank": [Glimpse("burn", "group", CLASSIC), Glimpse("player_1", "rank")],
}


@pytest.mark.parametrize("case", list(CASES))
def test_every_pattern_equals_the_brute_force_on_a_small_shoe(case: str) -> None:
    glimpses = CASES[case]
    shoe = TINY if any(g.position == "burn" for g in glimpses) else SMALL
    counted = _engine(shoe, glimpses)
    brute = patterns(shoe, {g.position: _oracle_sees(g) for g in glimpses})  # type: ignore[misc]
    assert counted.total == sum(sum(w.values()) for w in brute.values())
    mine = sorted((p.count, tuple(Fraction(r, counted.den) for r in p.returns)) for p in counted.patterns)
    theirs = sorted((sum(w.values()), tuple(choice_returns(w)[c] for c in CHOICES)) for w in brute.values())
    assert mine == theirs
    assert counted.ev() == best_ev(brute)


def test_the_best_sort_of_the_first_four_equals_the_brute_force_over_every_sort() -> None:
    counted = _engine(TINY, sorting.by_value(sorting.FIRST_FOUR))
    sorts = sorting.value_sorts(counted)
    assert len(sorts) == 1023
    ev, marked = best_sort(TINY, sorting.FIRST_FOUR)
    assert max(e for _, e in sorts) == ev
    subset = sum(1 << v for v in marked)
    assert dict(sorts)[subset] == ev
    # the sort as a model of rank groups counts the same
    assert _engine(TINY, [Glimpse(p, "group", sorting.sort_groups(subset)) for p in sorting.FIRST_FOUR]).ev() == ev


ZERO_ALIKE = ("Th", "Jd", "Qc", "Ks", "Ac", "6h", "8s", "9c", "5d")  # each zero rank once: T J Q K exchangeable


def _sorts_equal_the_brute_force(shoe: tuple[str, ...], positions: tuple[str, ...],
                                 brute: dict[frozenset[str], Fraction]) -> tuple[Fraction, Fraction]:
    """Each sort the brute force counted against the engine: one keeping T J Q K together is a sort of the values;
    one splitting them is its representative among the 1,024 (the marked zero ranks T, or T J, after the complement
    when three are marked). Returns the engine's best and the brute force's over the sorts counted."""
    values = dict(sorting.value_sorts(_engine(shoe, sorting.by_value(positions))))
    splitting = dict(sorting_ranks.splitting_sorts(_cards(shoe), TABLE.rules, positions, sorting.CHOICES, PAYS))
    assert len(splitting) == 1024
    zeros = frozenset("TJQK")
    for marked, ev in brute.items():
        t = len(marked & zeros)
        if t in (0, 4):
            subset = sum(1 << v for v in {value(r + "s") for r in marked})
            assert values[subset] == ev, sorted(marked)
            continue
        if t == 3:
            marked = frozenset("A23456789TJQK") - marked
            t = 1
        key = (marked - zeros) | frozenset("TJQK"[:t])
        assert splitting[key] == ev, sorted(marked)
    return max(max(values.values()), max(splitting.values())), max(brute.values())


@pytest.mark.parametrize("positions", [("player_1",), pytest.param(("player_1", "banker_1"), marks=pytest.mark.deep)])
def test_every_sort_of_the_thirteen_ranks_equals_the_brute_force(positions: tuple[str, ...]) -> None:
    """All 8,191 subsets of the ranks, brute force, against the engine (``_sorts_equal_the_brute_force``): the
    exchange of the zero ranks the search stands on, checked sort by sort, and the best sort is the engine's."""
    brute = rank_sorts(ZERO_ALIKE, positions)
    assert len(brute) == 2**13 - 1
    engine_best, best = _sorts_equal_the_brute_force(ZERO_ALIKE, positions, brute)
    assert engine_best == best


def test_a_sample_of_the_sorts_of_the_thirteen_ranks_equals_the_brute_force() -> None:
    """The small case of the test above (deep): 400 of the 8,191 sorts, drawn with a fixed seed, brute force against
    the engine sort by sort, value sorts and splitting ones both; the engine's best is at least each's."""
    sample = random.Random(13).sample(every_rank_sort(), 400)
    brute = rank_sorts(ZERO_ALIKE, ("player_1",), sample)
    zeros = frozenset("TJQK")
    assert {len(m & zeros) for m in sample} == {0, 1, 2, 3, 4}  # every kind of sort: values, split, complemented
    engine_best, best = _sorts_equal_the_brute_force(ZERO_ALIKE, ("player_1",), brute)
    assert engine_best >= best


def test_the_rank_sorts_refuse_a_shoe_whose_zero_ranks_are_unlike() -> None:
    with pytest.raises(OptionError, match="T 1, J 0, Q 0, K 0"):
        sorting_ranks.splitting_sorts(_cards(TINY), TABLE.rules, ["player_1"], sorting.CHOICES, PAYS)


# --- 8 decks -------------------------------------------------------------------------------------------------

EIGHT = Cards.of_decks(8)


def _eight(glimpses: Sequence[Glimpse]) -> sorting.Glimpsed:
    return sorting.count(EIGHT, TABLE.rules, glimpses, sorting.CHOICES, PAYS)


def test_jacobson_first_card_and_first_four_cards() -> None:
    """Eliot Jacobson, 'Edge Sorting in Baccarat' (apheat.net, 18 August 2012) and 'Update #1': 6.765% with the
    first card's group seen, 20.928% with the first four cards' (6-9 against the rest), to three places; the four-card
    table's LL/LL coups 22.824% (no bet) and HL/LL 20.502% at +36.332%."""
    one = _eight([Glimpse("player_1", "group", CLASSIC)])
    four = _eight([Glimpse(p, "group", CLASSIC) for p in sorting.FIRST_FOUR])
    assert round(one.ev(), 5) == Fraction(6765, 100000)
    assert round(four.ev(), 5) == Fraction(20928, 100000)
    assert round(1 - four.betting(), 5) == Fraction(22824, 100000)
    hl_ll = [p for p in four.patterns if sorted(p.seen[::2]) == [0, 1] and p.seen[1::2] == (1, 1)]
    assert round(Fraction(sum(p.count for p in hl_ll), four.total), 5) == Fraction(20502, 100000)
    assert {round(Fraction(p.returns[0], four.den * p.count), 5) for p in hl_ll} == {Fraction(36332, 100000)}
    assert one.total == four.total == falling(416, 6)


def test_roach_best_sort_of_the_first_four() -> None:
    """Fred Roach's search over 1,023 sorts as Jacobson reports it ('Edge Sorting in Baccarat, Update #1'): 30.291%,
    with 4-9 against 0-3 (tens and faces, aces, twos and threes)."""
    sorts = sorting.value_sorts(_eight(sorting.by_value(sorting.FIRST_FOUR)))
    subset, ev = max(sorts, key=lambda s: s[1])
    assert round(ev, 5) == Fraction(30291, 100000)
    assert sorting.sort_label(subset) == "4 5 6 7 8 9 | 0 1 2 3"
    assert sorted(e for _, e in sorts)[-2] == ev  # the same sort marked the other way


def test_first_card_counts_as_published() -> None:
    """The coups by the first card's value, 8 decks, six-card sequences ('Concepts 14: Baccarat 1st Card
    Advantage', excelpunks.com, 17 May 2018): with an ace first, player 159,747,170,699,264, banker
    189,857,873,692,672, tie 34,887,130,646,784; with a 9 first, 215,108,869,548,032, 132,334,879,180,800 and
    37,048,426,309,888."""
    found = {RANKS[p.seen[0]]: p for p in _eight([Glimpse("player_1", "rank")]).patterns}
    for rank, (player, banker, tie) in {"A": (159747170699264, 189857873692672, 34887130646784),
                                        "9": (215108869548032, 132334879180800, 37048426309888)}.items():
        p = found[rank]
        assert p.count == player + banker + tie
        assert Fraction(p.returns[0], 20) == player - banker  # player's bet: +1, -1, push
        assert Fraction(p.returns[2], 20) == 8 * tie - player - banker


def test_burn_card_seen_equals_the_game_count_of_the_shoe_less_that_card() -> None:
    """The burn card's rank seen: each rank's best EV is the best wager's on the shoe without that card, counted by
    the game itself (``coup_features.count_cells``)."""
    counted = _eight([Glimpse("burn", "rank")])
    expected = Fraction(0)
    for p in counted.patterns:
        per_value = [0] * 10
        for r, rank in enumerate(RANKS):
            per_value[value(rank + "s")] += 32 - (r == p.seen[0])
        copies = [0] * len(RANKS) * SUITS
        for v, n in enumerate(per_value):
            copies[RANKS.index("T" if v == 0 else "A" if v == 1 else str(v)) * SUITS] = n
        wagers = {w.wager: w.expected_value for w in settle(count_cells(Cards(tuple(copies)), TABLE.rules),
                                                            TABLE.pays)}
        best = max(Fraction(0), wagers["player"], wagers["banker"], wagers["tie"])
        assert Fraction(p.returns[p.best()], counted.den * p.count) == best
        expected += best * Fraction(p.count, counted.total)
    assert counted.ev() == expected


def test_a_choice_settled_on_pairs_is_refused() -> None:
    with pytest.raises(OptionError, match="pairs or suits"):
        sorting.outcome_pays(TABLE.pays, ("player", "player_pair"))
    with pytest.raises(OptionError, match="no wager"):
        sorting.outcome_pays(TABLE.pays, ("dragon",))


def test_too_many_sequences_are_refused() -> None:
    with pytest.raises(OptionError, match="sequences to count"):
        _eight([Glimpse(p, "card") for p in sorting.POSITIONS])
