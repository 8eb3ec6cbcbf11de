"""The coup-feature cells against a brute force over every ordered deal of small shoes, and wagers
declared as data (random rule lists) against the same brute force, coup by coup."""

from __future__ import annotations

import functools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracles.baccarat_brute import (
    Card,
    Coup,
    by_coup,
    coups,
    coups_with_replacement,
    features_of,
    holds,
    settle_by_hand,
    units,
)
from oracles.shared import shared
from pydantic import ValidationError

from oddscalc.catalog import resolve_table
from oddscalc.games.punto_banco.coup_features import CELLS, FEATURES, Cards, count_cells, features
from oddscalc.games.punto_banco.game import PuntoBancoPays, PuntoBancoTable, TableRules, count_coups, settle
from oddscalc.games.shoe import Shoe

STANDARD = TableRules()
SEED = resolve_table("punto-banco", "seed").model
assert isinstance(SEED, PuntoBancoTable)
SHEET = SEED.rules
NO_BANCA_STOP = TableRules(banker_natural_stops_player=False)
RULES = {"standard": STANDARD, "sheet": SHEET, "banca-natural-does-not-stop": NO_BANCA_STOP}

# ranks x suits, one copy each (the fast path); and an irregular shoe (every class counted directly): ten cards,
# 151,200 ordered coups for the brute force (a queen more made 332,640, twice the CPU, and no kind of card the ten
# lack: a card twice, a rank in two suits, three ranks worth 0)
PRODUCT: list[Card] = [(r, s) for r in "A89K5" for s in (0, 1)]
MIXED: list[Card] = [("A", 0), ("A", 0), ("A", 1), ("5", 0), ("5", 2), ("K", 0), ("K", 1), ("T", 2), ("9", 3),
                     ("3", 1)]


def cards_of(physical: list[Card]) -> Cards:
    return Cards.from_cards(dict(Counter(physical)))


@functools.cache
def brute(shoe: str, rules: str) -> Counter[Coup]:
    # dealt once for the run's workers: tests on either worker read the mixed shoe's coups
    return shared(f"punto banco coups {shoe} {rules}", lambda: coups(PRODUCT if shoe == "product" else MIXED,
                                                                      RULES[rules]))


@pytest.mark.parametrize("rules", list(RULES))
@pytest.mark.parametrize("shoe", ["product", "mixed"])
def test_cells_equal_brute_force(shoe: str, rules: str) -> None:
    physical = PRODUCT if shoe == "product" else MIXED
    cards = cards_of(physical)
    assert (cards.product() is not None) == (shoe == "product")
    cells = count_cells(cards, RULES[rules])
    assert len(cells) == CELLS
    want = brute(shoe, rules)
    assert sum(want.values()) == Shoe.from_ranks(dict(Counter(r for r, _ in physical))).ordered(6)
    assert by_coup(cells) == +want


@pytest.mark.parametrize("rules", list(RULES))
def test_outcomes_from_point_values_equal_the_cells(rules: str) -> None:
    # the second method: 400 outcomes from value multisets alone, on a small shoe and on 8 decks
    for cards in (cards_of(MIXED), Cards.of_decks(8)):
        cells = count_cells(cards, RULES[rules]).reshape(400, 16).sum(axis=1)
        f = features()
        got = {(int(f.player_total[16 * o]), int(f.player_cards[16 * o]), int(f.banker_total[16 * o]),
                int(f.banker_cards[16 * o])): int(n) for o, n in enumerate(cells) if n}
        assert got == count_coups(cards.shoe, RULES[rules])


def test_infinite_shoe_equals_draws_with_replacement() -> None:
    physical: list[Card] = [(r, s) for r in "A9K" for s in (0, 1)]
    got = by_coup(count_cells(cards_of(physical), STANDARD, infinite=True))
    assert got == +coups_with_replacement(physical, STANDARD)
    full = count_cells(Cards.of_decks(8), STANDARD, infinite=True)
    assert sum(full) == 52**6 and sum(count_cells(Cards.of_decks(3), STANDARD, infinite=True)) == 52**6


def test_whole_decks_pair_counts_and_the_general_path() -> None:
    for d in (1, 2, 8, 10_000):
        cells = count_cells(Cards.of_decks(d), STANDARD)
        shoe = Shoe.of_decks(d)
        assert sum(cells) == shoe.ordered(6)
        f = features()
        pairs = shoe.pair_sequences * (shoe.size - 2) * (shoe.size - 3) * (shoe.size - 4) * (shoe.size - 5)
        assert sum(cells[f.player_pair]) == sum(cells[f.banker_pair]) == pairs
        # suited pairs: the same (rank, suit) twice, 52 classes of d cards
        suited = 52 * d * (d - 1) * (shoe.size - 2) * (shoe.size - 3) * (shoe.size - 4) * (shoe.size - 5)
        assert sum(cells[f.player_pair & f.player_suited]) == suited
    # the class-by-class path agrees with the ranks x suits path on whole decks
    from oddscalc.games.punto_banco.coup_features import first_four_classes, first_four_product
    by_rank, k = first_four_product(tuple(range(13)), 4, 2, False)
    assert (by_rank.astype(object).dot(k) == first_four_classes(Cards.of_decks(2).copies, False)).all()


def test_shipped_tables_settle_as_by_hand() -> None:
    for table in ("standard", "ez-baccarat", "super-6", "seed"):
        model = resolve_table("punto-banco", table).model
        assert isinstance(model, PuntoBancoTable)
        rules = model.rules
        key = "sheet" if rules.banca_draws_when_punto_stands == () else "standard"
        cells = count_cells(cards_of(MIXED), RULES[key])
        want = settle_by_hand(brute("mixed", key), model.pays)
        for w in settle(cells, model.pays):
            got: Counter[Fraction] = Counter()
            for r in w.rows:
                got[r.units] += r.combinations
            assert +got == +want[w.wager], (table, w.wager)


# --- wagers as data: random rule lists ---------------------------------------------------------------


def _condition() -> st.SearchStrategy[tuple[str, Any]]:
    def values(name: str) -> st.SearchStrategy[Any]:
        domain = FEATURES[name]
        if isinstance(domain[0], bool):
            return st.booleans()
        one = st.sampled_from(domain)
        return st.one_of(one, st.lists(one, min_size=1, max_size=3, unique=True))
    return st.sampled_from(list(FEATURES)).flatmap(lambda n: values(n).map(lambda v: (n, v)))


RULE = st.builds(lambda conds, pay: {"when": dict(conds), "pays": pay},
                 st.lists(_condition(), min_size=1, max_size=3),
                 st.sampled_from(["push", "lose", "1:1", "7:2", "30:1"]))


SIDE_BETS = (st.lists(RULE, min_size=1, max_size=4), st.sampled_from(["lose", "push"]), st.sampled_from(list(RULES)))


# 20 random side bets in the suite, 60 deep: the same check, more examples
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*SIDE_BETS)
def test_random_side_bets_equal_brute_force(rules: list[dict[str, Any]], otherwise: str, drawing: str) -> None:
    _side_bet_equals_brute_force(rules, otherwise, drawing)


@pytest.mark.deep
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*SIDE_BETS)
def test_random_side_bets_equal_brute_force_deep(rules: list[dict[str, Any]], otherwise: str, drawing: str) -> None:
    _side_bet_equals_brute_force(rules, otherwise, drawing)


def _side_bet_equals_brute_force(rules: list[dict[str, Any]], otherwise: str, drawing: str) -> None:
    """A random side bet's rows, counted by cells, are those of a plain deal of every coup."""
    for i, r in enumerate(rules):
        r["event"] = f"rule_{i}"
    base = resolve_table("punto-banco", "standard").model.pays.model_dump()  # type: ignore[attr-defined]
    data = {k: base[k] for k in ("player", "banker", "tie")}
    data["x"] = {"title": "X", "rules": rules, "otherwise": {"event": "other", "pays": otherwise}}
    try:
        pays = PuntoBancoPays.model_validate(data)
    except ValidationError:
        assume(False)  # a rule that can never hold or is never reached: refused at load (tested elsewhere)
        return
    cells = count_cells(cards_of(MIXED), RULES[drawing])
    x = next(w for w in settle(cells, pays) if w.wager == "x")
    want: Counter[str] = Counter()
    bet = pays.side_bets["x"]
    for c, n in brute("mixed", drawing).items():
        f = features_of(c)
        hit = next((r for r in bet.rules if holds(r.when, f)), None)
        want[hit.event if hit else "other"] += n
    assert {r.event: r.combinations for r in x.rows if r.combinations} == +want
    for row in x.rows:
        pay = next((q.pays for q in bet.rules if q.event == row.event), otherwise)
        assert row.units == units(pay)
