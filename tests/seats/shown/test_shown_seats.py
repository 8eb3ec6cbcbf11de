"""House baccarat with three to five seats and third cards shown as dealt: every seat's counts against a plain
deal of every ordered twelve cards for three seats (six seats: ``test_shown_passes``), playing blind as the
hidden game, two seats as the two-seat count, the residue path as the exact one, seats on both sides of a seat
counted in two orders, and the equilibria's best replies."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from oracles.shared import shared
from oracles.shown_brute import brute_shown, random_late

from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_INPUT
from oddscalc.games.house_baccarat import count as hb
from oddscalc.games.house_baccarat.count import LOSS, SIT_OUT, WIN
from oddscalc.games.house_baccarat.settle import seat_ev
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.house_baccarat.table import SHEET_TABLEAU
from oddscalc.games.shoe import Shoe
from oddscalc.seats import turn_order as to
from oddscalc.seats.shown import chain as shown_chain
from oddscalc.seats.shown import seats as ss
from oddscalc.seats.shown import sums as shown_sums

SMALL = Shoe.from_ranks({"3": 5, "9": 3, "7": 6})  # 14 cards: naturals (9 9), draws and stands
SMALL4 = Shoe.from_ranks({"3": 6, "9": 4, "7": 6})  # 16 cards: four seats and the house take 15 slots
SMALL5 = Shoe.from_ranks({"3": 7, "9": 5, "7": 7})  # 19 cards: five seats and the house take 18 slots
PAY = Fraction(1)


def test_three_seats_equal_a_plain_deal_of_every_ordered_twelve_cards() -> None:
    plays = [random_late(1), random_late(2), random_late(3)]
    total = SMALL.ordered(12)
    evs = [to.late_ev(ss.seat_counts(SMALL, plays, k, SHEET_TABLEAU, "never"), plays[k], PAY, total)
           for k in range(3)]
    assert evs == brute_shown(SMALL, plays)
    assert len(set(evs)) == 3  # the seats play differently: a test that tells the seats apart


CHART = Strategy.by_totals("draw-0-5", range(6))


@functools.cache
def _blind_three(k: int) -> np.ndarray:
    # seat k of three all playing CHART blind: read by the blind game's test, the sitting out's and the best reply's
    return shared(f"shown blind three {k}", lambda: ss.seat_counts(SMALL, [to.Late.blind(CHART)] * 3, k,
                                                                   SHEET_TABLEAU, "never"))


@pytest.mark.parametrize(("players", "seats"), [(3, (0, 1, 2)), pytest.param(4, (0, 1, 2, 3), marks=pytest.mark.deep),
                                               pytest.param(5, (2,), marks=pytest.mark.deep)])  # seat 3 of 5: stacked
def test_playing_blind_is_the_hidden_game(players: int, seats: tuple[int, ...]) -> None:
    s = CHART if players == 3 else Strategy.by_totals("draw-0-4", range(5))
    shoe = {3: SMALL, 4: SMALL4, 5: SMALL5}[players]
    hidden = hb.seat_counts(shoe, players, s, SHEET_TABLEAU, "never", False).counts
    assert sum(hidden[WIN].ravel()) > 0
    for k in seats:
        shown = _blind_three(k) if players == 3 else \
            ss.seat_counts(shoe, [to.Late.blind(s)] * players, k, SHEET_TABLEAU, "never")
        assert np.array_equal(shown.sum(axis=3), hidden), (players, k)


def test_two_seats_are_the_two_seat_count() -> None:
    first, late = Strategy.by_totals("draw-0-3", range(4)), random_late(5)
    plays = [to.Late.blind(first), late]
    assert np.array_equal(ss.seat_counts(SMALL, plays, 1, SHEET_TABLEAU, "never"),
                          to.late_counts(SMALL, first, SHEET_TABLEAU, "never"))
    early = ss.seat_counts(SMALL, plays, 0, SHEET_TABLEAU, "never")
    assert np.array_equal(early[:, :, :, 1], to.early_counts(SMALL, late, SHEET_TABLEAU, "never"))
    assert not early[:, :, :, [0, *range(2, 12)]].any()  # the first seat sees nobody before it


FOUR = [random_late(6), random_late(7), random_late(8), random_late(9)]


@functools.cache
def _exact_four(k: int) -> np.ndarray:
    # seat k's, counted once for the run's workers: the tests below, on either worker, read it
    return shared(f"shown exact four {k}", lambda: ss.seat_counts(SMALL4, FOUR, k, SHEET_TABLEAU, "never"))


@pytest.mark.parametrize("exact_below", [pytest.param(0, marks=pytest.mark.deep), 10**6])  # 10**6 joins residues too
def test_counting_by_residues_equals_counting_exactly(monkeypatch: pytest.MonkeyPatch, exact_below: int) -> None:
    plays, exact = FOUR, [_exact_four(k) for k in range(4)]
    assert all(sum(e[WIN].ravel()) > 0 for e in exact)
    # 0: every level by residues; 10**6: one and two seats exact (at most 10P6 = 151,200 sequences), three by
    # residues over exact halves, as a full table of four on 8 decks
    monkeypatch.setattr(shown_chain, "_EXACT_BELOW", exact_below)
    assert all(np.array_equal(ss.seat_counts(SMALL4, plays, k, SHEET_TABLEAU, "never"), e)
               for k, e in enumerate(exact))


# seat 2 of four: two seats after it (the seats after counted from every start, the last writing its class out),
# one before; seat 3: one after, two before
@pytest.mark.parametrize("k", [1, 2], ids=["second", "third"])
@pytest.mark.parametrize("exact_below", [2**63, 10**6])
def test_seats_on_both_sides_count_the_same_stacked(monkeypatch: pytest.MonkeyPatch, exact_below: int, k: int) -> None:
    exact = _exact_four(k)  # the one seat on a side counted first, its class written out
    rows = shown_chain._rows

    def stacked(counts: np.ndarray, keys: np.ndarray, n_top: int, plays: Sequence[np.ndarray], k: int,
                primes: Sequence[int], cs: Sequence[int],
                fs: Sequence[int]) -> tuple[shown_chain.Mods, list[np.ndarray]]:
        if 0 < k < len(plays) - 1:
            return shown_chain.stacked(counts, keys, n_top, plays[:k], plays[k + 1:], primes, cs, fs)
        return rows(counts, keys, n_top, plays, k, primes, cs, fs)

    monkeypatch.setattr(shown_chain, "_rows", stacked)
    monkeypatch.setattr(shown_chain, "_EXACT_BELOW", exact_below)  # 10**6: residues over exact halves
    assert np.array_equal(ss.seat_counts(SMALL4, FOUR, k, SHEET_TABLEAU, "never"), exact)


def test_joining_halves_modulo_primes_at_the_extremes() -> None:
    # the compiled join reduces through a float64 quotient: check it where that is least exact
    rng = np.random.default_rng(11)
    high = np.concatenate([[0, 1, 2**53 - 1, 2**62, 2**63 - 1], rng.integers(0, 2**63 - 1, 995, dtype=np.int64)])
    low = np.concatenate([[0, 2**63 - 1, 2**62 - 1, 1, 2**63 - 1], rng.integers(0, 2**63 - 1, 995, dtype=np.int64)])
    primes = shown_chain.moduli(2**300)
    k = 36
    got = shown_sums.join(high, low, np.array(primes, dtype=np.int64),
                          np.array([pow(2, k, p) for p in primes], dtype=np.int64))
    for q, p in enumerate(primes):
        assert got[q].tolist() == [(int(h) * 2**k + int(lo)) % p for h, lo in zip(high, low, strict=True)]


@pytest.mark.deep  # the suite's two-seat case: test_turn_order's equilibrium replying best at every sight
def test_the_equilibria_reply_best_at_every_sight() -> None:
    start = Strategy.by_totals("draw-0-3", range(4))
    found = ss.equilibria(SMALL, 3, SHEET_TABLEAU, "never", PAY, [start, Strategy("draw-0-3 again", start.draws)])
    assert len(found) == 1 and found[0].how.endswith("reached from 2 of 2 starts")  # the second start is memoised
    p = found[0]
    total = SMALL.ordered(12)
    rng = np.random.default_rng(4)
    for k in range(3):
        counts = ss.seat_counts(SMALL, list(p.plays), k, SHEET_TABLEAU, "never")
        assert to.late_ev(counts, p.plays[k], PAY, total) == p.evs[k]
        for _ in range(20):  # no single change of a seat's play gains
            sight, u, w = 1 if k == 0 else int(rng.integers(1, 12)), int(rng.integers(10)), int(rng.integers(10))
            d = p.plays[k].draws.copy()
            d[sight, u, w] = d[sight, w, u] = not d[sight, u, w]
            assert to.late_ev(counts, to.Late.of("changed", d), PAY, total) <= p.evs[k]


def test_sitting_out_is_counted() -> None:
    counts = _blind_three(2)
    assert sum(counts[SIT_OUT].ravel()) > 0 and sum(counts[WIN].ravel()) > 0 and sum(counts[LOSS].ravel()) > 0


@pytest.mark.deep  # the blind game equal to the hidden one is the suite's (test_playing_blind_is_the_hidden_game)
def test_the_report_sections_check_the_blind_row_against_the_hidden_game() -> None:
    s = Strategy.by_totals("draw-0-4", range(5))
    hidden = hb.seat_counts(SMALL, 3, s, SHEET_TABLEAU, "never", False)
    found = ss.sections(SMALL, 3, SHEET_TABLEAU, "never", PAY, s, hidden.counts, [s])
    table, by_sight = found
    blind = table.rows[-1]
    assert blind[2:5] == (seat_ev(hidden, s, PAY),) * 3 and len(table.rows) >= 2
    assert len(by_sight.rows) == 11 and len(by_sight.rows[0]) == 3  # a row per sight, a column per later seat
    other = hb.seat_counts(SMALL, 3, Strategy.by_totals("draw-0-3", range(4)), SHEET_TABLEAU, "never", False)
    with pytest.raises(AssertionError, match="hidden game's counts"):
        ss.sections(SMALL, 3, SHEET_TABLEAU, "never", PAY, s, other.counts, [s])


def test_a_seat_replying_best_to_the_others_chart() -> None:
    section = ss.reply_section(SMALL, 3, SHEET_TABLEAU, "never", PAY, CHART)
    blind = to.Late.blind(CHART)
    everyone = brute_shown(SMALL, [blind] * 3)
    for k, row in enumerate(section.rows):
        reply = to.late_reply(_blind_three(k), PAY)
        plays = [reply if j == k else blind for j in range(3)]
        along, best, gain = row[1], row[2], row[3]
        assert along == everyone[k] and best == brute_shown(SMALL, plays)[k]
        assert isinstance(best, Fraction) and isinstance(along, Fraction) and gain == best - along >= 0


def test_options_that_belong_to_hidden_cards_are_refused() -> None:
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--players", "3", "--third-cards", "shown",
                                  "--edge-to", "2"])
    assert r.exit_code == EXIT_INPUT and "applies to third cards hidden" in r.output, r.output
