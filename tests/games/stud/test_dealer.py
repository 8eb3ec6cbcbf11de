"""The stud engine against a dealer with up cards: Caribbean Stud declared as a game file (tests/games/stud/files/)
gives the shipped Caribbean game's figures to the unit, and equals a plain brute force written apart from both; the
count is the same whatever its chunking, here or on a dask cluster."""

from __future__ import annotations

import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import distributed
import numpy as np
import pytest
from oracles.dealer_brute import brute, qualifier_key

from oddscalc import cluster
from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, Deck, reduced_deck
from oddscalc.games.caribbean.count import dealer_counts_of, qualifier_strength
from oddscalc.games.caribbean.dealer_sweep import count_all
from oddscalc.games.stud.capabilities import declared_in
from oddscalc.games.stud.count import count_three_card
from oddscalc.games.stud.dealer import chunks_of, count_chunk, count_dealer
from oddscalc.games.stud.ev import hand_ev
from oddscalc.games.stud.game import StudGame, StudRun, build_class
from oddscalc.games.stud.table import StudTable
from oddscalc.progress import Progress
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, RunOptions
from oddscalc.symmetry import suit_classes
from oddscalc.tables import Table, load_table_file

FILES = Path(__file__).resolve().parent / "files"
ACE_KING = ("high_card", (12, 11))
# 12-card decks the brute force plays whole (C(12,5) x 7 x C(6,4) = 83,160 deals): ranks 9 to ace in two suits
# (flushes, straights, a royal flush), 2-3-4-5-K-A in two suits (the wheel, ace-king), jack to ace in three suits
# (three of a kind, full houses)
DECKS = [reduced_deck("9", 2), Deck((0, 1, 2, 3, 11, 12), 2), reduced_deck("J", 3)]
RAISE = {"royal_flush": Fraction(100), "straight_flush": Fraction(50), "four_of_a_kind": Fraction(20),
         "full_house": Fraction(7), "flush": Fraction(5), "straight": Fraction(4), "three_of_a_kind": Fraction(3),
         "two_pair": Fraction(2), "pair": Fraction(1)}


@pytest.fixture(scope="module")
def game() -> StudGame:
    (found,) = [c for c in declared_in(FILES) if c.key == "caribbean-stud"]  # other check folders sit beside it
    return build_class(found)()


def table(game: StudGame, tid: str) -> Table:
    return load_table_file(FILES / "caribbean-stud" / f"{tid}.toml", {game.key: game.table_model})


def analyze(game: StudGame, tid: str, deck: Deck) -> Analysis:
    rules = game.resolve(table(game, tid), RunOptions(deck=deck))
    return game.settle(game.count(rules, Store(None)), rules)


def rows(a: Analysis, wager: str) -> dict[str, int]:
    return {r.event: r.combinations for r in a.wager(wager).rows if r.combinations}


def shipped_rows(a: Analysis, wager: str) -> dict[str, int]:
    """The shipped game's rows in the file's words: a raise won with a high card is paid at the 1:1 of bet_win."""
    out = rows(a, wager)
    high = out.pop("win_ace_king", 0) + out.pop("win_other_high_card", 0)
    return out | ({"win": high} if high else {})


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: d.describe())
def test_caribbean_as_a_game_file_equals_the_shipped_game_and_a_brute_force(game: StudGame, deck: Deck) -> None:
    spain = analyze(game, "spain", deck)
    shipped = Session("caribbean", RunOptions(deck=deck, brief=True), Store(None)).analyze("spain")
    for wager in ("main", "jackpot"):
        assert rows(spain, wager) == shipped_rows(shipped, wager)
        assert spain.wager(wager).expected_value == shipped.wager(wager).expected_value
        assert spain.wager(wager).total_combinations == shipped.wager(wager).total_combinations
    jackpot = {"royal_flush": Fraction(49999), "straight_flush": Fraction(4999), "four_of_a_kind": Fraction(2499)}
    main, side, won = brute(deck, RAISE | {"straight_flush": Fraction(25)}, qualifier_key((12, 11)), 2,
                            {"jackpot": jackpot})
    assert rows(spain, "main") == dict(main)
    assert rows(spain, "jackpot") == dict(side["jackpot"])
    assert spain.wager("main").expected_value == won / sum(main.values())
    # the deck means something: folds, and (but where every hand holds a pair) ace-king raised and won
    assert main["fold"] and main["lose"] and (main["win"] or deck.n_suits == 3)


def test_four_suits_as_a_file_equal_the_shipped_game(game: StudGame) -> None:
    # ten to ace in four suits (20 cards, 232,792,560 deals): four of a kind and royal flushes raised and paid by the
    # Jackpot, which the 12-card decks do not deal; the shipped game alone is the check here
    deck = reduced_deck("T", 4)
    spain = analyze(game, "spain", deck)
    shipped = Session("caribbean", RunOptions(deck=deck, brief=True), Store(None)).analyze("spain")
    for wager in ("main", "jackpot"):
        assert rows(spain, wager) == shipped_rows(shipped, wager)
        assert spain.wager(wager).expected_value == shipped.wager(wager).expected_value
    assert rows(spain, "main")["win_four_of_a_kind"] and rows(spain, "jackpot")["four_of_a_kind"]
    assert spain.wager("main").total_combinations == 232_792_560  # C(20,5) x 15 x C(14,4)


def test_the_us_table_as_a_file_equals_the_shipped_one(game: StudGame) -> None:
    deck = reduced_deck("8", 2)  # the shipped game's reduced deck: C(14,5) x 9 x C(8,4) = 1,261,260 deals
    us = analyze(game, "us", deck)
    shipped = Session("caribbean", RunOptions(deck=deck, brief=True), Store(None)).analyze("us")
    assert rows(us, "main") == shipped_rows(shipped, "main")
    assert us.wager("main").expected_value == shipped.wager("main").expected_value
    assert us.wager("main").total_combinations == 1_261_260
    assert us.convention.endswith("C(14,5) x C(9,1) x C(8,4) = 1,261,260")


def test_the_dealer_count_is_the_shipped_count_and_three_card_poker_s() -> None:
    # the counts themselves, per player class and up card: the shipped sweep's three columns, the fourth the rest
    deck = Deck((0, 1, 2, 3, 11, 12), 3)  # 18 cards: the wheel, ace-king, three of a kind, full houses
    mine = count_dealer(deck, "five-card", 5, 5, 1, ACE_KING)
    shipped = dealer_counts_of(deck, "ace-king")
    assert np.array_equal(mine["reps"], np.asarray(shipped.reps))
    assert np.array_equal(mine["outcomes"][:, :, :3], shipped.counts.astype(np.int64))
    assert (mine["outcomes"].sum(axis=2) == 495).all()  # C(12, 4): 18 cards, 5 the player's, 1 up, 4 holes
    assert mine["outcomes"][..., 0].any() and mine["outcomes"][..., 2].any()  # some dealers do not qualify, ties
    # Three Card Poker's kind (no up card) counted by the same engine: its own count's figures
    for d in (reduced_deck("8", 2), reduced_deck("T", 4)):
        three = count_three_card(d, ("high_card", (10,)))
        general = count_dealer(d, "three-card", 3, 3, 0, ("high_card", (10,)))
        assert np.array_equal(general["outcomes"][:, 0, :], three["outcomes"])
        assert np.array_equal(general["player_class"], three["player_class"])


def test_any_chunking_gives_the_same_integers() -> None:
    deck = reduced_deck("J", 3)
    counts = [count_dealer(deck, "five-card", 5, 5, 1, ACE_KING, size=size)["outcomes"] for size in (1, 37, 10_000)]
    assert len(counts[0]) > 37  # chunks of 1 and 37 are many
    assert all(np.array_equal(counts[0], c) for c in counts[1:])


@pytest.fixture(scope="module")
def threads() -> Iterator[Any]:
    """A dask cluster in this process (threads): the cluster's map without starting worker processes."""
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,  # type: ignore[no-untyped-call]
                                  dashboard_address=None, silence_logs=40) as c, \
            distributed.Client(c) as client:  # type: ignore[no-untyped-call]
        yield client


def test_the_count_on_a_local_cluster_is_the_count_here(threads: Any) -> None:
    deck = reduced_deck("9", 3)  # 18 cards: 1,536 player classes in chunks of 50
    here = count_dealer(deck, "five-card", 5, 5, 1, ACE_KING)
    there = count_dealer(deck, "five-card", 5, 5, 1, ACE_KING, cluster.mapper(threads), size=50)
    assert all(np.array_equal(here[k], there[k]) for k in here)


@pytest.mark.deep
def test_the_count_on_worker_processes_is_the_count_here() -> None:
    deck = Deck((0, 1, 2, 3, 11, 12), 4)
    here = count_dealer(deck, "five-card", 5, 5, 1, ACE_KING)
    with cluster.client(cluster.LOCAL, workers=2) as c:
        there = count_dealer(deck, "five-card", 5, 5, 1, ACE_KING, cluster.mapper(c), size=64)
    assert all(np.array_equal(here[k], there[k]) for k in here)


@pytest.mark.deep
@pytest.mark.parametrize("sieve", [False, True], ids=["plain", "sieve"])
def test_full_deck_classes_equal_the_shipped_count_to_the_unit(sieve: bool) -> None:
    # every 1,051st of the 134,459 player classes (128 of them, every hand class among them) against every up card:
    # the shipped sweep's counts for the same hands, to the unit (the whole deck: the measured plan, docs)
    reps, _ = suit_classes(5, FULL_DECK)
    pick = np.asarray(reps)[::1051]
    shipped = count_all(FULL_DECK, qualifier_strength(FULL_DECK, "ace-king"), pick, Progress(False, ""))
    start = time.process_time()
    (chunk,) = chunks_of(FULL_DECK, "five-card", ACE_KING, 5, 5, 1, pick, size=len(pick), sieve=sieve)
    mine = count_chunk(chunk)  # the plain count, or the sieve (its tables built first: not a per-class cost)
    per_class = (time.process_time() - start) / len(pick)
    assert np.array_equal(mine[:, :, :3], shipped.astype(np.int64))
    assert (mine.sum(axis=2) == 163_185).all()  # C(46, 4) hole sets a player hand and up card
    print(f"one player class on the full deck: {per_class * 1000:.1f} ms of CPU")


def test_a_bet_paid_by_hand_names_classes_of_the_ranking(game: StudGame, tmp_path: Path) -> None:
    from oddscalc.datafile import TableError

    text = (FILES / "caribbean-stud" / "us.toml").read_text().replace('pair = "1:1"\n', 'pair = "1:1"\nmini_royal = '
                                                                     '"9:1"\n')
    path = tmp_path / "caribbean-stud" / "bad.toml"
    path.parent.mkdir()
    path.write_text(text)
    with pytest.raises(TableError) as e:
        load_table_file(path, {game.key: game.table_model})
    assert "pays.main.bet_win_by_hand: mini_royal is not a class of the five-card ranking" in str(e.value)
    model = table(game, "us").model
    assert isinstance(model, StudTable) and model.pays.main.bet_win_by_hand is not None


def test_what_a_hand_is_worth_needs_the_up_card_where_the_dealer_shows_one(game: StudGame) -> None:
    # ev's three-card count must not answer a game counted per up card: without the up card it is refused (the
    # answer with it is checked in test_stud_ev_up.py)
    rules = game.resolve(table(game, "us"), RunOptions(deck=DECKS[0]))
    assert isinstance(rules, StudRun)
    with pytest.raises(OptionError, match="--up: give the dealer's 1 up card"):
        hand_ev(rules, "9c Tc Jc Qc Kc", None)
