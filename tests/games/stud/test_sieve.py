"""The sieve (``games/stud/sieve.py``: the dealer's hands by inclusion-exclusion over the player's cards) gives the
plain count's integers (``games/stud/dealer.py``: every dealer hand of every player hand visited) to the unit.

The plain count is itself checked against brute forces written apart (test_dealer.py, test_four_card_poker.py);
here the two counts are compared on every player class of reduced decks, for the three rankings, with an up card
and without, qualifiers that cut and that do not; on the full deck (deep) on spread player classes, and for
Caribbean Stud against the shipped game's own inclusion-exclusion (test_dealer.py)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from oddscalc.cards import FULL_DECK, Deck, reduced_deck
from oddscalc.games.stud.dealer import chunks_of, cost, count_dealer, plain_chunk
from oddscalc.games.stud.dealer_chunk import Chunk, ranking_table
from oddscalc.games.stud.sieve import sieve_chunk, sieve_tables, table_bytes
from oddscalc.hands import colex_combos
from oddscalc.symmetry import suit_classes

Qualifier = tuple[str, tuple[int, ...]]
ANY: Qualifier = ("high_card", ())
CASES: list[tuple[str, Deck, str, int, int, int, Qualifier]] = [
    ("five-card ace-king, an up card", reduced_deck("8", 2), "five-card", 5, 5, 1, ("high_card", (12, 11))),
    ("five-card pair of queens, an up card", reduced_deck("T", 3), "five-card", 5, 5, 1, ("pair", (10,))),
    ("five-card, the wheel", Deck((0, 1, 2, 3, 11, 12), 2), "five-card", 5, 5, 1, ("high_card", (12, 11))),
    ("four-card best four of six, an up card", reduced_deck("J", 3), "four-card", 5, 6, 1, ANY),
    ("four-card, four of a kind", reduced_deck("Q", 4), "four-card", 5, 6, 1, ANY),
    ("four-card with a qualifier", reduced_deck("8", 2), "four-card", 5, 6, 1, ("pair", (11,))),
    ("three-card queen-high, no up card", reduced_deck("8", 2), "three-card", 3, 3, 0, ("high_card", (10,))),
    ("three-card, eighteen cards", reduced_deck("6", 2), "three-card", 3, 3, 0, ("high_card", (10,))),
    ("three-card, an up card", reduced_deck("T", 3), "three-card", 3, 3, 1, ANY),
]


def both(deck: Deck, ranking: str, p: int, d: int, u: int, q: Qualifier) -> tuple[np.ndarray, np.ndarray]:
    reps, _ = suit_classes(p, deck)
    (chunk,) = chunks_of(deck, ranking, q, p, d, u, reps, size=len(reps))
    return plain_chunk(chunk), sieve_chunk(chunk)


@pytest.mark.parametrize(("deck", "ranking", "p", "d", "u", "q"),
                         [pytest.param(*c[1:], marks=pytest.mark.deep) if c[1].size > 12 and c[2] == "five-card"
                          else c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_sieve_is_the_plain_count_on_every_player_class(deck: Deck, ranking: str, p: int, d: int, u: int,
                                                            q: Qualifier) -> None:
    plain, sieve = both(deck, ranking, p, d, u, q)
    assert np.array_equal(plain, sieve)
    holes = math.comb(deck.size - p - u, d - u)
    assert (sieve.sum(axis=2) == holes).all()  # every hole set of each player hand and up card, once
    assert sieve[..., 1].any() and sieve[..., 3].any()  # the player wins some and loses some
    if q != ANY:
        assert sieve[..., 0].any()  # a qualifier that cuts


def test_the_count_takes_the_cheaper_way_and_either_gives_the_same_integers() -> None:
    deck = reduced_deck("J", 3)
    plain = count_dealer(deck, "five-card", 5, 5, 1, ("high_card", (12, 11)), sieve=False)
    sieve = count_dealer(deck, "five-card", 5, 5, 1, ("high_card", (12, 11)), sieve=True, size=37)
    assert all(np.array_equal(plain[k], sieve[k]) for k in plain)
    # on the full deck the sieve is the cheaper by far: Four Card Poker from hours to minutes
    four = cost(FULL_DECK, 5, 6, 1)
    assert four.sieve and four.plain_seconds > 3600 and four.seconds < 600
    assert cost(FULL_DECK, 5, 6, 2).sieve_seconds is None  # two up cards: the plain count only


def test_the_tables_read_as_their_definition_says() -> None:
    # for a few sets T of the deck: the hands holding T below a strength, by the tables and by a direct count
    deck = reduced_deck("T", 3)
    t = sieve_tables(deck, "five-card", 5)
    strength = ranking_table(deck, "five-card", ("high_card", (12, 11)), 5).strength
    hands = colex_combos(deck.size, 5)
    for k in range(6):
        for x in (0, math.comb(deck.size, k) // 2, math.comb(deck.size, k) - 1):
            T = colex_combos(deck.size, k)[x] if k else np.zeros(0, dtype=np.int8)
            holding = np.isin(hands, T).sum(axis=1) == k
            for v in (0, 1, len(t.levels) // 2, len(t.levels)):
                want = int((holding & (strength < (t.levels[v] if v < len(t.levels) else 10**9))).sum())
                if t.kind[k] == 0:
                    got = int(t.hist[t.at[k] + x * t.stride + v])
                else:
                    w = int(t.width[k])
                    got = int(np.searchsorted(t.seg[t.at[k] + x * w:t.at[k] + (x + 1) * w], v))
                assert got == want, (k, x, v)
    assert table_bytes(deck.size, 5, len(t.levels)) == t.hist.nbytes + t.seg.nbytes


@pytest.mark.deep
@pytest.mark.parametrize(("ranking", "d", "q"), [("four-card", 6, ANY), ("five-card", 5, ("high_card", (12, 11)))],
                         ids=["four-card-poker", "caribbean"])
def test_full_deck_classes_are_the_plain_count(ranking: str, d: int, q: Qualifier) -> None:
    # 12 of the 134,459 player classes, spread over the list (every 11,205th), against every up card
    reps, _ = suit_classes(5, FULL_DECK)
    (chunk,) = chunks_of(FULL_DECK, ranking, q, 5, d, 1, np.asarray(reps)[::11_205], size=12)
    one: Chunk = dataclasses.replace(chunk, sieve=True)
    assert np.array_equal(plain_chunk(chunk), sieve_chunk(one))
