"""Caribbean Stud information models against plain brute forces over every deal of a reduced deck, and the flash
count as a case of the model."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

import pytest
from oracles.glimpse_brute import Brute, caribbean
from oracles.shared import shared

from oddscalc.analysis import Session
from oddscalc.cards import Deck, reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.games.caribbean.count import dealer_counts_of
from oddscalc.games.caribbean.settle import settle_counts
from oddscalc.hands import HandClass, hand_value
from oddscalc.progress import Progress
from oddscalc.protection import flash
from oddscalc.protection.flash import flash_sections
from oddscalc.protection.glimpse import Glimpse, Model
from oddscalc.protection.information import load_model, shipped_models
from oddscalc.protection.information_caribbean import answer, information_sections
from oddscalc.protocol import OptionError

US = resolve_table("caribbean", "us")
PAYS = US.model.pays.main  # type: ignore[attr-defined]
DECK = reduced_deck("9", 2)  # 12 cards: ranks 9 to ace, two suits
AK = (frozenset("AK"), frozenset("23456789TJQ"))


@cache
def _pay(hand: tuple[int, ...]) -> Fraction:
    cls, _ = hand_value(hand)
    return getattr(PAYS, cls.value) if cls != HandClass.HIGH_CARD else PAYS.high_card  # type: ignore[no-any-return]


def _ak(card: int) -> bool:
    return card >> 2 >= 11  # king or ace


def _model(*glimpses: Glimpse) -> Model:
    return Model("test", "test", "caribbean", glimpses)


def _brute(name: str, up: bool | None, m: int) -> Brute:
    """up: True the up card seen outright, False by its AK group (all face down), None not at all."""
    up_sees = (lambda c: c) if up else _ak if up is False else None
    return shared(f"glimpse caribbean {name} {DECK.cards}",
                  lambda: caribbean(DECK, _pay, up_sees, _ak if m else None, m, blind_baseline=up is not True))


@pytest.mark.parametrize("m", [1, 2, 4])
def test_hole_groups_against_a_brute_force(m: int) -> None:
    model = _model(*(Glimpse(f"dealer_hole_{i}", "group", AK) for i in range(1, m + 1)))
    got = answer(DECK, "ace-king", PAYS, model)
    want = _brute(f"holes {m}", True, m)
    assert (got.ev, got.deals, got.raised, got.changed, got.dealt_ev) == (want.ev, want.deals, want.raised,
                                                                          want.changed, want.baseline_ev)
    assert got.baseline == "as dealt" and got.value > 0


def test_up_group_against_a_brute_force() -> None:
    got = answer(DECK, "ace-king", PAYS, _model(Glimpse("dealer_up", "group", AK)))
    want = _brute("up group", False, 0)
    assert (got.ev, got.deals, got.raised, got.changed, got.blind_ev) == (want.ev, want.deals, want.raised,
                                                                          want.changed, want.baseline_ev)
    assert got.baseline == "nothing seen"


def test_up_group_and_hole_groups_against_a_brute_force() -> None:
    model = _model(Glimpse("dealer_up", "group", AK), Glimpse("dealer_hole_1", "group", AK))
    got = answer(DECK, "ace-king", PAYS, model)
    want = _brute("up and hole group", False, 1)
    assert (got.ev, got.deals, got.raised, got.changed) == (want.ev, want.deals, want.raised, want.changed)


def test_the_plain_game_is_the_game_s_own_figure() -> None:
    rt = dealer_counts_of(DECK, "ace-king").table()
    st = settle_counts(rt, PAYS, closest=False)
    plain = answer(DECK, "ace-king", PAYS, _model(), rt)
    assert plain.ev == plain.dealt_ev == flash.one_card(rt, st, PAYS).ev and plain.changed == 0
    split = answer(DECK, "ace-king", PAYS, _model(Glimpse("dealer_hole_3", "group", AK)), rt)
    assert split.dealt_ev == plain.ev  # the split count, summed back, is the game's own


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_hole_cards_seen_outright_are_the_flash_count(k: int) -> None:
    rt = dealer_counts_of(DECK, "ace-king").table()
    st = settle_counts(rt, PAYS, closest=False)
    model = _model(*(Glimpse(f"dealer_hole_{i}", "card") for i in range(1, k)))
    got = answer(DECK, "ace-king", PAYS, model, rt)
    want = (flash.two_cards(DECK, "ace-king", PAYS) if k == 2 else flash.all_cards(rt, st, PAYS) if k == 5
            else flash.known_cards(DECK, "ace-king", PAYS, k))
    assert (got.ev, got.deals, got.raised) == (want.ev, want.total, want.raised)


@pytest.mark.parametrize("glimpses", [
    (Glimpse("dealer_hole_5", "card"),),
    (Glimpse("dealer_hole_1", "rank"),),
    (Glimpse("dealer_hole_1", "card"), Glimpse("dealer_hole_2", "group", AK)),
    (Glimpse("dealer_up", "group", AK), Glimpse("dealer_hole_1", "card")),
    (Glimpse("dealer_hole_1", "group", AK, before="first"),),
    (Glimpse("dealer_hole_1", "group", (frozenset("AK"), frozenset("QJT"))),),
    (Glimpse("dealer_hole_1", "colour"),),
    (Glimpse("dealer_up", "colour"),),
])
def test_what_the_engine_does_not_answer_is_refused(glimpses: tuple[Glimpse, ...]) -> None:
    with pytest.raises(OptionError):
        answer(DECK, "ace-king", PAYS, _model(*glimpses))


def test_a_deck_of_three_suits_too() -> None:
    deck = Deck((9, 10, 11, 12), 3)  # 12 cards: J Q K A in three suits
    model = _model(Glimpse("dealer_hole_1", "group", AK), Glimpse("dealer_hole_2", "group", AK))
    got = answer(deck, "ace-king", PAYS, model)
    want = caribbean(deck, _pay, lambda c: c, _ak, 2, blind_baseline=False)
    assert (got.ev, got.deals, got.raised, got.changed) == (want.ev, want.deals, want.raised, want.changed)


def test_the_up_card_s_suit_and_rank_against_a_brute_force() -> None:
    for shows, sees in (("suit", lambda c: c & 3), ("rank", lambda c: c >> 2)):
        got = answer(DECK, "ace-king", PAYS, _model(Glimpse("dealer_up", shows)))  # type: ignore[arg-type]
        want = caribbean(DECK, _pay, sees, None, 0, blind_baseline=True)
        assert (got.ev, got.deals, got.raised, got.changed) == (want.ev, want.deals, want.raised, want.changed)


def test_the_shipped_models_read_as_the_cases_tested_here() -> None:
    files = {ref: load_model(ref)[0] for ref in shipped_models() if ref.startswith("caribbean-")}
    hole = Glimpse("dealer_hole_1", "group", AK, "raise")
    assert files["caribbean-hole-group-ak"].glimpses == (hole,)
    assert files["caribbean-hole-groups-ak"].glimpses == tuple(
        Glimpse(f"dealer_hole_{i}", "group", AK, "raise") for i in range(1, 5))
    assert files["caribbean-up-group-ak"].glimpses == (Glimpse("dealer_up", "group", AK, "raise"),)
    assert files["caribbean-flash-1-hole"].glimpses == (Glimpse("dealer_hole_1", "card", before="raise"),)
    for model in files.values():
        assert model.game == "caribbean" and model.title
        answer(DECK, "ace-king", PAYS, model)  # every shipped model is answered


@pytest.mark.deep  # minutes on a full deck: the fast suite checks the same equality on a 12-card deck above
@pytest.mark.parametrize("k", [2, 3])
def test_the_model_is_the_flash_command_on_a_full_deck(k: int, sessions: Callable[[str], Session]) -> None:
    session = sessions("caribbean")
    model = _model(*(Glimpse(f"dealer_hole_{i}", "card") for i in range(1, k)))
    mine = information_sections(session, "us", model, Progress(False, ""))[0]
    theirs = flash_sections(session, "us", (k,), False)[0][0]
    row = dict(zip(mine.column("play"), mine.column("ev_exact"), strict=True))
    # flash's section lists every k it has a published figure for; the one asked is the row whose k is k
    flashed = dict(zip(theirs.column("seen"), theirs.column("ev_exact"), strict=True))[k]
    assert flashed is not None and row[f"with the model: {model.title}"] == flashed
    shown = dict(zip(mine.column("play"), mine.column("ev"), strict=True))  # a published figure has no exact form
    assert shown[f"published: {k} dealer cards seen (Grosjean)"] == flash.PUBLISHED[k]
