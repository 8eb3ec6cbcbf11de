"""Caribbean Stud with the dealer's cards seen, and cards dealt to another seat unseen: against plain
brute forces over every deal of a reduced deck."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

import numba
import pytest
from click.testing import CliRunner
from oracles.shared import shared

from oddscalc.analysis import Session
from oddscalc.cards import Deck, reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.cli.main import main
from oddscalc.games.caribbean.count import dealer_counts_of
from oddscalc.games.caribbean.settle import settle_counts
from oddscalc.hands import HAND_CLASSES, HandClass, hand_value
from oddscalc.protection import flash

US = resolve_table("caribbean", "us")
PAYS = US.model.pays.main  # type: ignore[attr-defined]
DECK = reduced_deck("9", 2)  # 12 cards: C(12,5) x 7 x C(6,4) = 83,160 deals


@cache  # each of a reduced deck's few hundred hands is met thousands of times
def _key(hand: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    cls, tie = hand_value(hand)
    return 9 - HAND_CLASSES.index(cls), tie


@cache
def _pay(hand: tuple[int, ...]) -> Fraction:
    cls, _ = hand_value(hand)
    return getattr(PAYS, cls.value) if cls != HandClass.HIGH_CARD else PAYS.high_card  # type: ignore[no-any-return]


# A raise's four outcomes. The brute forces tally them as integers per player hand and add the units up once
# per tally: a Fraction per deal made these counts the slowest part of the suite.
NOT_QUALIFIED, WIN, PUSH, LOSE = range(4)
QUALIFIER = (9 - HAND_CLASSES.index(HandClass.HIGH_CARD), (12, 11))  # ace-king


def _result(player: tuple[int, ...], dealer: tuple[int, ...]) -> int:
    """The outcome of a raise against the dealer's five cards: the dealer does not qualify, or a win, push, loss."""
    d = _key(tuple(sorted(dealer)))
    if d < QUALIFIER:
        return NOT_QUALIFIED
    p = _key(player)
    return WIN if p > d else PUSH if p == d else LOSE


def _units(player: tuple[int, ...], tally: list[int], fold: bool = False) -> Fraction:
    """Raise units over a tally of outcomes: +1 dealer does not qualify, 1 + 2 pay a win, 0 a push, -3 a loss;
    ``fold`` plays each outcome worth less than folding's -1 as a fold (all five dealer cards known)."""
    values = (Fraction(1), 1 + 2 * _pay(player), Fraction(0), Fraction(-3))
    return sum((n * (max(v, Fraction(-1)) if fold else v) for n, v in zip(tally, values, strict=True)), Fraction(0))


def _perfect(deck: Deck) -> Fraction:
    total, deals = Fraction(0), 0
    for player in itertools.combinations(deck.cards, 5):
        rest = [c for c in deck.cards if c not in player]
        tally = [0, 0, 0, 0]
        for up in rest:
            for hole in itertools.combinations([c for c in rest if c != up], 4):
                tally[_result(player, (up, *hole))] += 1
        total += _units(player, tally, fold=True)  # knowing all five: raise or fold
        deals += sum(tally)
    return total / deals


def _unseen_seat(deck: Deck) -> Fraction:
    """Another seat gets one card nobody sees; the player decides on his hand and the up card only."""
    total, deals = Fraction(0), 0
    for player in itertools.combinations(deck.cards, 5):
        rest = [c for c in deck.cards if c not in player]
        for up in rest:
            others = [c for c in rest if c != up]
            decided = [0, 0, 0, 0]
            for h in itertools.combinations(others, 4):
                decided[_result(player, (up, *h))] += 1
            raised = _units(player, decided) > -sum(decided)
            tally = [0, 0, 0, 0]
            for seat in others:
                for hole in itertools.combinations([c for c in others if c != seat], 4):
                    tally[_result(player, (up, *hole))] += 1
            total += _units(player, tally) if raised else -sum(tally)
            deals += sum(tally)
    return total / deals


def test_all_five_dealer_cards_seen_against_a_brute_force() -> None:
    rt = dealer_counts_of(DECK, "ace-king").table()
    st = settle_counts(rt, PAYS, closest=False)
    assert flash.all_cards(rt, st, PAYS).ev == _perfect(DECK)


def test_a_card_dealt_to_another_seat_and_never_seen_changes_nothing() -> None:
    rt = dealer_counts_of(DECK, "ace-king").table()
    st = settle_counts(rt, PAYS, closest=False)
    assert flash.one_card(rt, st, PAYS).ev == _unseen_seat(DECK)


def test_one_card_is_the_report(sessions: Callable[[str], Session]) -> None:
    s = sessions("caribbean")
    a = s.analyze("us")
    rules = s.resolve("us")
    rt = s.counts(rules)
    st = settle_counts(rt, PAYS, closest=False)
    assert flash.one_card(rt, st, PAYS).ev == a.wager("main").expected_value
    r = CliRunner().invoke(main, ["flash", "caribbean", "--table", "us"])
    assert r.exit_code == 0 and "| -5.2243% | +5.2243% |" in r.output and "| +64.2816% |" in r.output, r.output


@cache
def _hand(player: tuple[int, ...]) -> str:
    """The player's hand as the report names it: the class, high card split by its two top ranks (card id
    rank * 4 + suit, ace 12, king 11)."""
    cls, _ = hand_value(player)
    if cls != HandClass.HIGH_CARD:
        return cls.label
    return "Ace-king" if sorted(c // 4 for c in player)[-2:] == [11, 12] else "Other high card"


@dataclass(frozen=True)
class _Plain:
    """A plain count's tallies over every deal, k dealer cards seen."""

    units: Fraction  # the player's result, summed over the deals, in antes
    deals: int
    raised: int  # deals raised
    staked: int  # antes put up, summed over the deals: 1 on a fold, 3 on a raise
    by_hand: dict[str, tuple[int, int]]  # the player's hand -> (deals, deals raised)


@cache
def _known_plain(deck: Deck, k: int) -> _Plain:
    """k dealer cards seen: decide on them (a tie between raising and folding folds), over every known set and
    completion, plainly (counted once for the run's workers: several tests on either worker read each)."""
    units, deals, raised, staked, by_hand = shared(f"flash known plain {deck.cards} {k}", lambda: _count(deck, k))
    return _Plain(units, deals, raised, staked, by_hand)


def _count(deck: Deck, k: int) -> tuple[Fraction, int, int, int, dict[str, tuple[int, int]]]:
    # the raise's units in whole numbers: a tally's units are whole + 2 * pay * wins (``_units``), the wins kept
    # by pay and multiplied out once at the end (a Fraction per known set made this count seconds long)
    whole, wins_by_pay, deals, raised, staked = 0, Counter[Fraction](), 0, 0, 0
    by_hand: dict[str, list[int]] = {}
    for player in itertools.combinations(deck.cards, 5):
        rest = [c for c in deck.cards if c not in player]
        tally = by_hand.setdefault(_hand(player), [0, 0])
        pay = _pay(player)
        # a known set's completions are the dealer hands holding it: each dealer hand's outcome is found once and
        # tallied for each of its k-card subsets (as many deals as dealing the completions to each known set)
        outs_of = {known: [0, 0, 0, 0] for known in itertools.combinations(rest, k)}
        for dealer in itertools.combinations(rest, 5):
            outcome = _result(player, dealer)
            for known in itertools.combinations(dealer, k):
                outs_of[known][outcome] += 1
        for not_qualified, win, push, lose in outs_of.values():
            n = not_qualified + win + push + lose
            raise_whole = not_qualified + win - 3 * lose  # and 2 * pay * win: raised when it all beats folding's -n
            if (raise_whole + n) * pay.denominator + 2 * pay.numerator * win > 0:
                whole += raise_whole
                wins_by_pay[pay] += win
                raised += n
                staked += 3 * n
                tally[1] += n
            else:
                whole -= n
                staked += n
            deals += n
            tally[0] += n
    units = whole + sum((2 * pay * wins for pay, wins in wins_by_pay.items()), Fraction(0))
    return units, deals, raised, staked, {h: (d, r) for h, (d, r) in by_hand.items()}


def _known(deck: Deck, k: int) -> tuple[Fraction, int]:
    """k dealer cards seen: the EV and the deals, from the plain count."""
    p = _known_plain(deck, k)
    return p.units / p.deals, p.deals


# make test runs one numba thread per worker; the deep checks keep every thread, and split the sweep across them
@pytest.mark.parametrize("split", [False, pytest.param(True, marks=pytest.mark.deep)], ids=["suite", "threads"])
def test_two_dealer_cards_seen_against_a_brute_force(split: bool) -> None:
    if split and numba.get_num_threads() < 2:
        pytest.skip("one numba thread: nothing to split")
    seen = flash.two_cards(DECK, "ace-king", PAYS)
    assert (seen.ev, seen.total) == _known(DECK, 2)


def test_three_and_four_dealer_cards_seen_against_a_brute_force() -> None:
    deck = reduced_deck("J", 3)  # three suits: a known set's suit class has up to six members
    for k in (3, 4):
        seen = flash.known_cards(deck, "ace-king", PAYS, k)
        assert (seen.ev, seen.total) == _known(deck, k), k
        assert 0 < seen.raised < seen.total


def test_all_five_seen_counts_each_dealer_hand_once() -> None:
    rt = dealer_counts_of(DECK, "ace-king").table()
    seen = flash.all_cards(rt, settle_counts(rt, PAYS, closest=False), PAYS)
    assert (seen.ev, seen.total) == _known(DECK, 5)


def test_the_cards_seen_as_csv_json_and_a_chart(tmp_path: Path) -> None:
    svg = tmp_path / "seen.svg"
    r = CliRunner().invoke(main, ["flash", "caribbean", "--table", "us", "--format", "json", "--chart", str(svg)])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    rows = data["sections"]["dealer_cards_seen"]["rows"]
    assert [row["seen"] for row in rows] == [1, 2, 3, 4, 5]
    assert rows[4]["ev_exact"] == "71185534689/110740169540" and rows[1]["ev_exact"] is None
    assert rows[2]["published"] == "1157/10000"
    assert "<polyline" in svg.read_text() and "published" in svg.read_text()
    r = CliRunner().invoke(main, ["flash", "caribbean", "--table", "us", "--format", "csv"])
    assert r.exit_code == 0 and "dealer_cards_seen,5,ev_exact,71185534689/110740169540,71185534689/110740169540" \
        in r.output, r.output


THREE_SUITS = reduced_deck("J", 3)  # 12 cards, no high card hand: full houses and trips instead


@cache
def _every_k_seen(deck: Deck) -> tuple[flash.Seen, ...]:
    """The engine's figures with 1 to 5 dealer cards seen, each by its own count."""
    rt = dealer_counts_of(deck, "ace-king").table()
    st = settle_counts(rt, PAYS, closest=False)
    return (flash.one_card(rt, st, PAYS), flash.two_cards(deck, "ace-king", PAYS),
            *(flash.known_cards(deck, "ace-king", PAYS, k) for k in (3, 4)), flash.all_cards(rt, st, PAYS))


def _section(deck: Deck, sid: str) -> list[dict[str, object]]:
    sec = next(s for s in flash.sections(list(_every_k_seen(deck))) if s.id == sid)
    return [{c.id: x for c, x in zip(sec.columns, row, strict=True)} for row in sec.rows]


@pytest.mark.parametrize("deck", [DECK, THREE_SUITS], ids=["9-two-suits", "J-three-suits"])
def test_deals_raised_stake_and_element_of_risk_against_a_brute_force(deck: Deck) -> None:
    """Each row of dealer_cards_seen from a plain count's tallies: the share of deals raised, the antes staked
    per deal, and the loss per ante staked."""
    want = []
    for k in range(1, 6):
        p = _known_plain(deck, k)
        want.append({"seen": k, "deals": p.deals, "ev_exact": p.units / p.deals, "ev": p.units / p.deals,
                     "house_edge": -p.units / p.deals, "raised": Fraction(p.raised, p.deals),
                     "average_stake": Fraction(p.staked, p.deals), "element_of_risk": -p.units / p.staked})
    assert _section(deck, "dealer_cards_seen") == want
    assert all(0 < _known_plain(deck, k).raised < _known_plain(deck, k).deals for k in range(1, 6))


@pytest.mark.parametrize(("deck", "hands"), [
    (DECK, {"Royal flush", "Straight flush", "Flush", "Straight", "Two pair", "Pair", "Ace-king", "Other high card"}),
    (THREE_SUITS, {"Full house", "Three of a kind", "Two pair", "Pair"})], ids=["9-two-suits", "J-three-suits"])
def test_raises_by_hand_against_a_brute_force(deck: Deck, hands: set[str]) -> None:
    """Each row of raises_by_hand from a plain count's deals and deals raised by the player's hand, in the
    report's order of hands (best first, ace-king before the other high cards), hands never dealt left out."""
    plain = [_known_plain(deck, k) for k in range(1, 6)]
    order = [c.label for c in HAND_CLASSES if c != HandClass.HIGH_CARD] + ["Ace-king", "Other high card"]
    want = [{"hand": h, **{f"raised_{k}": Fraction(p.by_hand[h][1], p.by_hand[h][0])
                          for k, p in enumerate(plain, 1)}} for h in order if h in plain[0].by_hand]
    assert set(plain[0].by_hand) == hands
    assert _section(deck, "raises_by_hand") == want
