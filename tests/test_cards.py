"""Card notation: the usual spellings in, a clear error for anything else."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oddscalc.cards import (
    FULL_DECK,
    CardError,
    Deck,
    card_str,
    parse_card,
    parse_cards,
    parse_rank,
    rank_of,
    reduced_deck,
    suit_of,
)


@pytest.mark.parametrize("text,rank,suit", [("As", 12, 3), ("td", 8, 1), ("10h", 8, 2), ("Qc", 10, 0),
                                            ("2C", 0, 0), (" kS ", 11, 3), ("10D", 8, 1)])
def test_notations(text: str, rank: int, suit: int) -> None:
    c = parse_card(text)
    assert (rank_of(c), suit_of(c)) == (rank, suit)


@pytest.mark.parametrize("text,why", [("1s", "rank"), ("Ax", "suit"), ("A", "expected rank then suit"),
                                      ("11h", "rank"), ("", "expected rank then suit")])
def test_errors_say_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(CardError, match=why):
        parse_card(text)


def test_parse_cards_and_duplicates() -> None:
    assert parse_cards("As Kd, 10h") == (51, 45, 34)
    with pytest.raises(CardError, match="duplicate"):
        parse_cards("As as")


@given(st.integers(0, 51))
def test_round_trip(c: int) -> None:
    assert parse_card(card_str(c)) == c


def test_decks_and_ranks() -> None:
    assert FULL_DECK.size == 52 and len(set(FULL_DECK.cards)) == 52
    small = reduced_deck("8", 2)
    assert small.size == 14 and small.cards[0] == parse_card("8c") and small.cards[-1] == parse_card("Ad")
    assert Deck((0, 1), 4).describe() == "8-card deck (ranks 23, 4 suits)"
    assert [parse_rank(x) for x in ("tens", "jacks", "J", "10", "4", "sixes", "aces")] == [8, 9, 9, 8, 2, 4, 12]
    with pytest.raises(CardError, match="not a rank"):
        parse_rank("elevens")
