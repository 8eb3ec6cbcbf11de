"""Third cards shown, counted in passes that fit in memory: six seats in passes against a plain deal of every
ordered 21 cards and, played blind, as the hidden game; seven seats the same in one pass and in many; the
plan's partition and its refusals, in the functions and in the command."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from oracles.shown_brute import brute_shown, random_late

from oddscalc.cli.main import EXIT_INPUT, main
from oddscalc.games.house_baccarat import count as hb
from oddscalc.games.house_baccarat.count import WIN
from oddscalc.games.house_baccarat.others import CLASSES
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.house_baccarat.table import SHEET_TABLEAU
from oddscalc.games.shoe import Shoe
from oddscalc.protocol import OptionError
from oddscalc.seats import turn_order as to
from oddscalc.seats.shown import passes as sp
from oddscalc.seats.shown import seats as ss
from oddscalc.seats.shown.chain import Mods

TWO6 = Shoe.from_ranks({"3": 11, "9": 11})  # 22 cards of two values: 2**21 value sequences for six seats
Job = tuple[object, ...]
Rows = tuple[Mods, list[np.ndarray]]
PAY = Fraction(1)
SMALL4 = Shoe.from_ranks({"3": 6, "9": 4, "7": 6})  # 16 cards: four seats and the house take 15 slots
SMALL6 = Shoe.from_ranks({"3": 8, "9": 6, "7": 8})  # 22 cards: six seats and the house take 21 slots
SMALL7 = Shoe.from_ranks({"3": 9, "9": 6, "7": 9})  # 24 cards: seven seats and the house take 24 slots


@pytest.fixture
def narrow(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Passes forced on a small shoe, at most 6 classes kept on each axis a seat splits: the passes each seat
    ran."""
    ran: list[int] = []
    plan = sp.plan

    def counted(*args: object, **kw: object) -> list[sp.Pass]:
        passes = plan(*args, **kw)  # type: ignore[arg-type]
        ran.append(len(passes))
        return passes

    def estimate(shoe: Shoe, players: int, k: int, primes: int, wc: int, wf: int) -> int:
        return max(wc if k else 1, wf if k < players - 1 else 1)  # seat 1 sees only 'nobody drew'

    monkeypatch.setattr(sp, "estimate", estimate)
    monkeypatch.setattr(sp, "budget", lambda: 6)
    monkeypatch.setattr(sp, "plan", counted)
    return ran


@pytest.mark.deep
def test_six_seats_in_passes_equal_a_plain_deal_of_every_ordered_twentyone_cards(narrow: list[int]) -> None:
    plays = [random_late(seed) for seed in (10, 12, 13, 14, 15, 16)]
    total = TWO6.ordered(21)
    evs = [to.late_ev(ss.seat_counts(TWO6, plays, k, SHEET_TABLEAU, "never"), plays[k], PAY, total)
           for k in range(6)]
    # seat 3 of six has two seats on each side: the seats after it stacked over the seats before it; the first
    # and last seats split one axis (2 passes), the others both (6 sights by 6 final classes)
    assert narrow == [2, 4, 4, 4, 4, 2]
    assert evs == brute_shown(TWO6, plays)
    assert len(set(evs)) == 6


@pytest.mark.deep
def test_six_seats_played_blind_in_passes_are_the_hidden_game(narrow: list[int]) -> None:
    s = Strategy.by_totals("draw-0-4", range(5))
    hidden = hb.seat_counts(SMALL6, 6, s, SHEET_TABLEAU, "never", False).counts
    assert sum(hidden[WIN].ravel()) > 0
    for k in (3, 5):  # seat 4: three seats before it, two after; seat 6: a chain of five before it
        shown = ss.seat_counts(SMALL6, [to.Late.blind(s)] * 6, k, SHEET_TABLEAU, "never")
        assert np.array_equal(shown.sum(axis=3), hidden), k
    assert narrow == [4, 2]


@pytest.mark.deep  # seven seats; the passes' small case is below
def test_seven_seats_count_the_same_in_one_pass_and_in_many(monkeypatch: pytest.MonkeyPatch) -> None:
    # seat 3 of seven has two seats before it and four after; the hidden game's count of seven seats takes
    # half a minute even on a small shoe, so the reports check it (every seat blind) and the test does not
    plays = [random_late(seed) for seed in range(20, 27)]
    whole = ss.seat_counts(SMALL7, plays, 2, SHEET_TABLEAU, "never")
    monkeypatch.setattr(sp, "estimate", lambda shoe, players, k, primes, wc, wf: wc * wf)
    monkeypatch.setattr(sp, "budget", lambda: 4)  # 2 sights by 2 final classes: 36 passes
    assert len(sp.plan(SMALL7, 7, 2, 3)) == 36
    assert np.array_equal(ss.seat_counts(SMALL7, plays, 2, SHEET_TABLEAU, "never"), whole)


def test_passes_cover_every_sight_and_final_class_once_within_the_memory_allowed() -> None:
    shoe = Shoe.of_decks(8)
    limit = 11 * 2**30
    for players, k, least in ((5, 2, 1), (6, 0, 2), (6, 2, 7), (7, 2, 41)):
        full = sp.estimate(shoe, players, k, 8, CLASSES, CLASSES)
        passes = sp.plan(shoe, players, k, 8, limit)
        assert least <= len(passes) and (len(passes) == 1) == (full <= limit)
        assert all(p.bytes <= limit for p in passes)
        cover = np.zeros((CLASSES, CLASSES), dtype=np.int64)
        for p in passes:
            cover[np.ix_(p.sights, p.finals)] += 1
        assert (cover == 1).all(), (players, k)
    with pytest.raises(OptionError, match="one class at a time"):
        sp.plan(shoe, 7, 2, 8, 2**30)


def test_memory_refusals_in_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sp.ENV, "0.5")
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--players", "6", "--third-cards", "shown"])
    assert r.exit_code == EXIT_INPUT and "GB even one class at a time" in r.output, r.output
    for bad in ("lots", "0", "nan", "inf"):
        monkeypatch.setenv(sp.ENV, bad)
        r = CliRunner().invoke(main, ["seats", "house-baccarat", "--players", "3", "--third-cards", "shown"])
        assert r.exit_code == EXIT_INPUT and sp.ENV in r.output, (bad, r.output)


def test_a_scheduler_is_refused_with_third_cards_hidden() -> None:
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--players", "3", "--scheduler", "local"])
    assert r.exit_code == EXIT_INPUT and "applies to third cards shown" in r.output, r.output


# four seats on 16 cards split into as many passes as six on 22 (four per seat axis)
@pytest.mark.parametrize(("shoe", "seats", "k"), [(SMALL6, 6, 3), (SMALL4, 4, 1)], ids=["six-seats", "four-seats"])
def test_passes_mapped_by_a_runner_count_the_same(narrow: list[int], shoe: Shoe, seats: int, k: int) -> None:
    plays = [random_late(seed) for seed in range(30, 30 + seats)]
    jobs: list[int] = []

    def runner(fn: Callable[[Job], Rows], chunks: Sequence[Job]) -> list[Rows]:
        jobs.append(len(chunks))  # as a cluster would: each pass shipped alone, finished in any order
        shipped = [pickle.loads(pickle.dumps(c)) for c in chunks]
        return [fn(c) for c in reversed(shipped)][::-1]

    here = ss.seat_counts(shoe, plays, k, SHEET_TABLEAU, "never")
    assert np.array_equal(ss.seat_counts(shoe, plays, k, SHEET_TABLEAU, "never", sp.Spread(runner)), here)
    assert jobs == [4] and narrow == [4, 4]
