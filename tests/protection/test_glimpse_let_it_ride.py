"""Let It Ride information models (a community card flashed) against plain brute forces over every deal of reduced
decks, and the flash figure of the collusion report as a case of the model."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from oracles.glimpse_brute import let_it_ride
from oracles.shared import shared

from oddscalc.cards import FULL_DECK, Deck, reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.games.let_it_ride.count import PAYING, count_holdings
from oddscalc.games.let_it_ride.settle import solve
from oddscalc.games.let_it_ride.wagers import main_wager
from oddscalc.hands import HandClass, hand_value
from oddscalc.protection.collusion.let_it_ride import community_card_early
from oddscalc.protection.glimpse import Glimpse, Model
from oddscalc.protection.information import load_model, shipped_models
from oddscalc.protection.information_let_it_ride import answer, published
from oddscalc.protocol import OptionError

STANDARD = resolve_table("let-it-ride", "standard")
PAYS = [getattr(STANDARD.model.pays.main, c.value) for c in PAYING]  # type: ignore[attr-defined]
TENS = 8
DECK = reduced_deck("9", 2)  # 12 cards: 15,840 deals
THREE_SUITS = Deck((8, 9, 10, 11, 12), 3)  # T to A in three suits: 60,060 deals
AK = (frozenset("AK"), frozenset("23456789TJQ"))


@cache
def _value(hand: tuple[int, ...]) -> Fraction:
    cls, tie = hand_value(hand)
    if cls == HandClass.HIGH_CARD or (cls == HandClass.PAIR and tie[0] < TENS):
        return Fraction(-1)
    pay: Fraction = PAYS[list(PAYING).index(cls)]
    return pay


def _ak(card: int) -> bool:
    return card >> 2 >= 11


def _model(*glimpses: Glimpse) -> Model:
    return Model("test", "test", "let-it-ride", glimpses)


FLASH = (Glimpse("community_1", "card", before="first"),)  # the first community card seen before bet 1


@cache
def _full_deck_flash() -> Fraction:
    """The engine's EV on the full deck with :data:`FLASH` (1.5 s of CPU), answered once for the run's workers: two
    tests compare it, one with the collusion report's figure and one with the shipped model's."""
    return shared("let it ride full-deck flash", lambda: answer(FULL_DECK, TENS, PAYS, _model(*FLASH)).ev)


CASES = {
    "community_1 card before bet 1": ((Glimpse("community_1", "card"),), ((lambda c: c), None), None),
    "community_1 group before bet 1": ((Glimpse("community_1", "group", AK, "first"),), (_ak, None), None),
    "community_2 card before bet 1": ((Glimpse("community_2", "card"),), (None, (lambda c: c)), (lambda c: c)),
    "community_2 group before bet 2": ((Glimpse("community_2", "group", AK, "second"),), (None, None), _ak),
    "both by group before bet 1": ((Glimpse("community_1", "group", AK), Glimpse("community_2", "group", AK)),
                                   (_ak, _ak), _ak),
    "community_1 rank": ((Glimpse("community_1", "rank"),), ((lambda c: c >> 2), None), None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_against_a_brute_force(case: str) -> None:
    glimpses, first, second = CASES[case]
    got = answer(DECK, TENS, PAYS, _model(*glimpses))
    want = let_it_ride(DECK, _value, first, second)
    assert (got.ev, got.ordinary_ev, got.deals, got.ride1, got.changed) == (want.ev, want.baseline_ev, want.deals,
                                                                           want.raised, want.changed)


def test_colour_counts_every_hand_against_a_brute_force() -> None:
    got = answer(THREE_SUITS, TENS, PAYS, _model(Glimpse("community_1", "colour")))
    want = let_it_ride(THREE_SUITS, _value, (lambda c: c & 3 in (1, 2), None), None)
    assert (got.ev, got.deals, got.ride1, got.changed) == (want.ev, want.deals, want.raised, want.changed)


def test_colour_counts_every_hand_against_a_brute_force_on_twelve_cards() -> None:
    # the fast tier's case of the test above: the same answer against the same brute force on 9 to ace of two
    # suits (one red, one black: the colour is the suit), 15,840 deals
    got = answer(DECK, TENS, PAYS, _model(Glimpse("community_1", "colour")))
    want = let_it_ride(DECK, _value, (lambda c: c & 3 in (1, 2), None), None)
    assert (got.ev, got.deals, got.ride1, got.changed) == (want.ev, want.deals, want.raised, want.changed)
    assert got.changed  # seeing the colour changes some decisions


def test_the_ordinary_game_is_the_game_s_own_figure() -> None:
    counts = count_holdings(DECK, TENS)
    plain = answer(DECK, TENS, PAYS, _model())
    assert plain.ev == plain.ordinary_ev == main_wager(counts, solve(counts, PAYS), PAYS, TENS, False).expected_value
    assert plain.changed == 0 and plain.ride1 == plain.ride1_ordinary


@pytest.mark.parametrize("deck", [DECK, FULL_DECK], ids=["12 cards", "52 cards"])
def test_the_first_community_card_seen_is_the_collusion_report_s_flash(deck: Deck) -> None:
    ev = _full_deck_flash() if deck.is_full else answer(deck, TENS, PAYS, _model(*FLASH)).ev
    assert ev == community_card_early(count_holdings(deck, TENS), PAYS, TENS)
    if deck.is_full:  # the README's figure: a player's edge of 8.4358%
        assert f"{float(ev):.4%}" == "8.4358%"


@pytest.mark.parametrize("glimpses", [
    (Glimpse("community_3", "card"),),
    (Glimpse("community_1", "card", before="raise"),),
    (Glimpse("community_1", "card"), Glimpse("community_1", "rank")),
    (Glimpse("community_1", "group", (frozenset("AK"), frozenset("QJT"))),),
])
def test_what_the_engine_does_not_answer_is_refused(glimpses: tuple[Glimpse, ...]) -> None:
    with pytest.raises(OptionError):
        answer(DECK, TENS, PAYS, _model(*glimpses))


def test_the_shipped_models_read_as_the_cases_tested_here() -> None:
    files = {ref: load_model(ref)[0] for ref in shipped_models() if ref.startswith("let-it-ride-")}
    flash = files["let-it-ride-flash-first-community"]
    assert flash.glimpses == FLASH and flash.game == "let-it-ride"
    assert files["let-it-ride-first-community-group-ak"].glimpses == (Glimpse("community_1", "group", AK, "first"),)


def test_the_shipped_flash_model_is_worth_the_readme_s_figure() -> None:
    # answer() reads a model's game and glimpses, asserted above: the file's figure is the full deck's flash, answered
    # once for this test and the collusion report's (test_the_first_community_card_seen_is_the_collusion_report_s_flash)
    assert f"{float(_full_deck_flash()):.4%}" == "8.4358%"


def test_jacobson_s_figures_to_their_places() -> None:
    tens = (frozenset("T"), frozenset("23456789JQKA"))
    river = _model(Glimpse("community_2", "card", before="first"))
    sorted_tens = load_model("let-it-ride-community-groups-tens")[0]
    assert sorted_tens.glimpses == (Glimpse("community_1", "group", tens, "first"),
                                    Glimpse("community_2", "group", tens, "first"))
    for model, places, text in ((river, 2, "24.43%"), (sorted_tens, 3, "2.022%")):
        figure = published(model, FULL_DECK, TENS, PAYS)
        assert figure is not None and f"{float(figure[0]):.{places}%}" == text
        assert f"{float(answer(FULL_DECK, TENS, PAYS, model).ev):.{places}%}" == text
    assert published(river, DECK, TENS, PAYS) is None  # another game: not compared
