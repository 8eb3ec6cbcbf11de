"""The card count's fast passes equal the plain pass over every atom sequence of the read slots
(``count_conditions(..., plain=True)``) for random condition lists, finite and infinite: conditions reading all six
slots (``card_count.every_slot``: prefixes grown by draw state, one per orbit of interchangeable ranks and of a
hand's two first cards' orders, ``card_orbits``), the first four only (the other slots' values grown by draw
state, one product) and any other slots; and the brute force over every ordered deal of a small shoe whose ranks
are interchangeable (so the orbits are exercised)."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracles.baccarat_cards_brute import deals
from oracles.baccarat_cards_brute import settle as brute_settle
from pydantic import ValidationError

from oddscalc.cli.main import main
from oddscalc.games.punto_banco.card_conditions import CardCondition, atoms
from oddscalc.games.punto_banco.card_count import count_conditions, read_slots
from oddscalc.games.punto_banco.card_orbits import rank_classes
from oddscalc.games.punto_banco.coup_features import Cards
from oddscalc.games.punto_banco.game import TableRules
from oddscalc.games.punto_banco.side_bets import SideBet, card_rule_lines

POSITIONS = ["player1", "player2", "player3", "banker1", "banker2", "banker3"]
# Tens, jacks, queens and kings in hearts and spades, two of each: four zero-value ranks no filter below tells
# apart unless it names one, so "same rank" and kinds see one class of four interchangeable ranks; a nine and a
# five of their own (20 cards, at most 10 atoms: 10**6 sequences for the plain pass).
WIDE = Counter({(r, s): 2 for r in "TJQK" for s in (1, 3)} | {("9", 1): 2, ("5", 3): 2})
# The tens, jacks, queens and kings in hearts only, a nine and a five: at most 6 atoms, fast enough for the plain pass
# over six read slots in a property test (WIDE in the deep one).
NARROW = Counter({(r, 2): 2 for r in "TJQK"} | {("9", 3): 1, ("5", 1): 3})
# Seven physical cards for the brute force (7P6 = 5,040 ordered deals): the ten and the jack (two hearts each)
# interchangeable, the queen and the king (a spade each) too, unless a condition names one.
SMALL = [("T", "h"), ("T", "h"), ("J", "h"), ("J", "h"), ("Q", "s"), ("K", "s"), ("9", "d")]


@st.composite
def condition(draw: st.DrawFn, cards: list[str] | None = None) -> dict[str, Any]:
    """A condition as the table file writes it: no poker class (that reads the order of ranks, so nothing is
    interchangeable: the plain pass's case), ranks read by ``same`` or ``kinds``."""
    named = cards or draw(st.lists(st.sampled_from(POSITIONS), min_size=1, max_size=6, unique=True))
    out: dict[str, Any] = {"cards": named}
    kind = draw(st.sampled_from(["ranks", "values", "suits", "colours", None, None]))
    if kind == "ranks":
        out["ranks"] = draw(st.lists(st.sampled_from(["9", "10", "K", "5", "J"]), min_size=1, max_size=3,
                                     unique=True))
    elif kind == "values":
        out["values"] = draw(st.lists(st.sampled_from([0, 5, 9]), min_size=1, max_size=2, unique=True))
    elif kind == "suits":
        out["suits"] = [draw(st.sampled_from(["hearts", "spades", "diamonds"]))]
    elif kind == "colours":
        out["colours"] = [draw(st.sampled_from(["red", "black"]))]
    how = draw(st.sampled_from(["all", "count", "at_least"]))
    if how != "all":
        out[how] = draw(st.integers(0, len(named)))
    reads = draw(st.sampled_from(["same", "kinds", None]))
    if reads == "same":
        out["same"] = draw(st.sampled_from(["rank", "suit", "colour"]))
    elif reads == "kinds":
        out["kinds"] = draw(st.sampled_from([[2], [2, 2], [3], [3, 2], [4]]))
    return out


@st.composite
def six_slot_lists(draw: st.DrawFn) -> list[dict[str, Any]]:
    """One to three conditions, the first naming the first four cards and the banker's third (so all six slots
    are read: the banker's third card is the fifth or the sixth dealt)."""
    first = draw(condition(cards=["player1", "player2", "banker1", "banker2", "banker3"]))
    return [first, *draw(st.lists(condition(), max_size=2))]


def _conditions(raw: list[dict[str, Any]]) -> list[CardCondition]:
    try:
        return [CardCondition.model_validate(c) for c in raw]
    except ValidationError:
        assume(False)  # a condition that never holds is refused when the table loads
        raise


def _both(copies: tuple[int, ...], conds: list[CardCondition], infinite: bool) -> None:
    fast, fast_patterns = count_conditions(copies, TableRules(), infinite, conds)
    plain, plain_patterns = count_conditions(copies, TableRules(), infinite, conds, plain=True)
    assert np.array_equal(fast_patterns, plain_patterns)
    assert fast.tolist() == plain.tolist()
    total = sum(int(n) for n in fast.ravel())
    n = sum(copies) // (math.gcd(*copies) if infinite else 1)
    assert total == (n**6 if infinite else math.perm(n, 6))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(six_slot_lists(), st.booleans())
def test_the_pass_by_draw_state_equals_the_plain_pass(raw: list[dict[str, Any]], infinite: bool) -> None:
    conds = _conditions(raw)
    assert read_slots(conds) == tuple(range(6))
    _both(Cards.from_cards(dict(NARROW)).copies, conds, infinite)


@pytest.mark.deep
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(six_slot_lists(), st.booleans())
def test_the_pass_by_draw_state_equals_the_plain_pass_on_a_wider_shoe(raw: list[dict[str, Any]],
                                                                      infinite: bool) -> None:
    _both(Cards.from_cards(dict(WIDE)).copies, _conditions(raw), infinite)


@st.composite
def any_lists(draw: st.DrawFn) -> list[dict[str, Any]]:
    """One to three conditions on any cards, often the first four only (Lucky Nines' and Perfect 9's shape),
    sometimes with the poker class of three or four of them (ranks then read in order: nothing interchangeable)."""
    first_four = ["player1", "player2", "banker1", "banker2"]
    pick = st.lists(st.sampled_from(first_four), min_size=1, max_size=4, unique=True)
    out = draw(st.lists(condition(cards=draw(pick)) if draw(st.booleans()) else condition(), min_size=1,
                        max_size=3))
    if draw(st.integers(0, 3)) == 0:
        out.append({"cards": draw(st.sampled_from([first_four, ["player1", "player2", "banker1"]])),
                    "hand_at_least": "pair"})
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(any_lists(), st.booleans())
def test_the_fast_passes_equal_the_plain_pass_for_any_slots(raw: list[dict[str, Any]], infinite: bool) -> None:
    _both(Cards.from_cards(dict(NARROW)).copies, _conditions(raw), infinite)


@pytest.mark.deep
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(any_lists(), st.booleans())
def test_the_fast_passes_equal_the_plain_pass_for_any_slots_on_a_wider_shoe(raw: list[dict[str, Any]],
                                                                            infinite: bool) -> None:
    _both(Cards.from_cards(dict(WIDE)).copies, _conditions(raw), infinite)


@pytest.mark.parametrize("cards", [["player1", "player2"], ["player1", "player2", "banker1", "banker2"],
                                   ["banker2"], ["player1", "player3"]])
def test_named_slots_equal_the_plain_pass(cards: list[str]) -> None:
    """Each shape of read slots at least once: two of the first four (Perfect 9), all four (Lucky Nines), one,
    and a third card with another (the general pass), by rank, finite and infinite."""
    conds = [CardCondition.model_validate({"cards": cards, "same": "rank", "at_least": 1}),
             CardCondition.model_validate({"cards": cards, "values": [0], "count": 1})]
    for infinite in (False, True):
        _both(Cards.from_cards(dict(WIDE)).copies, conds, infinite)


def test_interchangeable_ranks_are_found_and_named_ones_kept_apart() -> None:
    """Under ``kinds`` over every card the four zero-value ranks are one class; a filter naming the ten splits it
    (the jack, queen and king stay one); a poker class reads the order of ranks, so none is interchangeable."""
    copies = Cards.from_cards(dict(WIDE)).copies
    every = {"cards": POSITIONS, "at_least": 4, "kinds": [2]}

    def sizes(*raw: dict[str, Any]) -> list[int]:
        conds = [CardCondition.model_validate(c) for c in raw]
        return sorted(rank_classes(atoms(conds, copies), conds)[2].tolist())

    assert sizes(every) == [4]
    assert sizes(every, {"cards": ["player1"], "ranks": ["10"]}) == [3]
    assert sizes(every, {"cards": ["player1", "player2", "banker1"], "hand": "pair"}) == []
    _both(copies, [CardCondition.model_validate(every)], False)


@pytest.mark.parametrize("rules", [
    [{"event": "same", "pays": "3:1", "cards_when": [{"cards": ["player1", "banker1"], "same": "rank"}]},
     {"event": "kinds", "pays": "2:1", "cards_when": [{"cards": POSITIONS, "at_least": 4, "kinds": [2, 2]}]}],
    [{"event": "ten", "pays": "3:1", "cards_when": [{"cards": POSITIONS, "ranks": ["10", "Q"], "at_least": 2,
                                                     "kinds": [2]}]},
     {"event": "nine", "pays": "1:1", "cards_when": [{"cards": ["player1", "banker3"], "values": [9, 5],
                                                      "at_least": 1},
                                                    {"cards": POSITIONS, "at_least": 4, "kinds": [2]}]}],
])
def test_every_slot_read_equals_the_brute_force(rules: list[dict[str, Any]]) -> None:
    bet = SideBet.model_validate({"title": "t", "rules": rules, "otherwise": {"event": "lose"}})
    counts, patterns = count_conditions(Cards.from_cards(dict(Counter((r, "cdhs".index(s)) for r, s in SMALL)))
                                        .copies, TableRules(), False, bet.card_conditions())
    lines, flat = card_rule_lines(bet, counts, patterns)
    got: Counter[str] = Counter()
    for ln in lines:
        got[ln.event] += int(flat[ln.mask].sum()) if ln.mask.any() else 0
    want = brute_settle(deals(SMALL), rules)
    assert +got == +want
    assert sum(want.values()) == math.perm(len(SMALL), 6)
    assert all(want[r["event"]] for r in rules), want  # every rule is paid on some deal


@pytest.mark.parametrize(("table", "decks", "most"), [("lucky-match", "25", "at most 1,290 cards (24 decks)"),
                                                      ("lucky-nines", "900", "at most 46,340 cards (891 decks)")])
def test_a_shoe_too_large_to_count_the_cards_is_one_line_exit_4(tmp_path: Path, table: str, decks: str,
                                                                 most: str) -> None:
    """``--decks`` past what a sequence's weight holds in int64 (every card of six read: 24 decks) is refused
    in one line naming the largest shoe, not a traceback; exit 4, a bad option."""
    r = CliRunner().invoke(main, ["report", "punto-banco", "--table", table, "--decks", decks, "-o",
                                  str(tmp_path / "r.json")])
    assert r.exit_code == 4, r.output
    assert r.output.startswith("oddscalc: ") and r.output.count("\n") == 1 and most in r.output, r.output
