"""Let It Ride with a partner's cards seen: the inclusion-exclusion sums against a plain brute force over
every deal of a reduced deck, and cards dealt to a partner but never seen changing nothing."""

from __future__ import annotations

import csv
import io
import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from oddscalc.cards import Deck, reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.cli.main import main
from oddscalc.games.let_it_ride.count import PAYING, count_holdings
from oddscalc.hands import HandClass, hand_value
from oddscalc.protection.collusion import let_it_ride as collusion

STANDARD = resolve_table("let-it-ride", "standard")
PAYS: list[Fraction] = [getattr(STANDARD.model.pays.main, c.value) for c in PAYING]  # type: ignore[attr-defined]


def _value(hand: tuple[int, ...], min_rank: int) -> Fraction:
    cls, tie = hand_value(hand)
    if cls == HandClass.HIGH_CARD or (cls == HandClass.PAIR and tie[0] < min_rank):
        return Fraction(-1)
    return PAYS[PAYING.index(cls)]


def _brute(deck: Deck, min_rank: int, seen: bool) -> Fraction:
    """Every deal played as written: the partner's cards used in the decisions only when ``seen``."""
    memo: dict[frozenset[int], Fraction] = {}

    def v(hand: tuple[int, ...]) -> Fraction:
        key = frozenset(hand)
        if key not in memo:
            memo[key] = _value(hand, min_rank)
        return memo[key]

    cards = deck.cards
    total, deals = Fraction(0), 0
    for three in itertools.combinations(cards, 3):
        others = [c for c in cards if c not in three]
        for partner in itertools.combinations(others, 3):
            rest = [c for c in others if c not in partner]
            known = rest if seen else others  # what the player's decisions average over
            r1 = sum(v(three + (a, b)) for a, b in itertools.combinations(known, 2)) > 0
            for c1 in rest:
                pool = [c for c in known if c != c1]
                r2 = sum(v(three + (c1, c2)) for c2 in pool) > 0
                for c2 in rest:
                    if c2 != c1:
                        total += v(three + (c1, c2)) * (1 + r1 + r2)
                        deals += 1
    return total / deals


def _rides(deck: Deck, min_rank: int) -> tuple[int, int, int, int]:
    """With the partner's cards seen: the (three cards, partner's three) situations where bet 1 rides, and the
    (four cards, partner's three) ones where bet 2 rides, each of how many, played as written."""
    cards = set(deck.cards)
    bet1 = bet1_of = bet2 = bet2_of = 0
    for own in (3, 4):
        for hand in itertools.combinations(sorted(cards), own):
            for partner in itertools.combinations(sorted(cards - set(hand)), 3):
                rest = sorted(cards - set(hand) - set(partner))
                gain = sum(_value(hand + more, min_rank) for more in itertools.combinations(rest, 5 - own))
                if own == 3:
                    bet1, bet1_of = bet1 + (gain > 0), bet1_of + 1
                else:
                    bet2, bet2_of = bet2 + (gain > 0), bet2_of + 1
    return bet1, bet1_of, bet2, bet2_of


def test_the_partners_cards_seen_against_a_brute_force() -> None:
    deck = reduced_deck("T", 2)  # 10 cards: C(10,3) x C(7,3) x 4 x 3 = 50,400 deals
    king = 11  # a pair of kings or better pays: on ten cards a pair of tens would pay every hand
    p = collusion.partner_seen(count_holdings(deck, king), PAYS, king)
    assert p.ev == _brute(deck, king, seen=True)
    assert p.ev_unseen == _brute(deck, king, seen=False)  # dealt to a partner and never seen: the ordinary game
    assert p.ev > p.ev_unseen and 0 < p.bet1_rides < p.bet1_situations
    assert (p.bet1_rides, p.bet1_situations, p.bet2_rides, p.bet2_situations) == _rides(deck, king)


def test_the_partners_cards_seen_against_a_brute_force_on_eight_cards() -> None:
    # the fast tier's case of the test above: the same sums against the same brute force, on J-A of two suits
    deck, king = reduced_deck("J", 2), 11  # 8 cards: C(8,3) x C(5,3) x 2 x 1 = 1,120 deals; kings or aces pay
    p = collusion.partner_seen(count_holdings(deck, king), PAYS, king)
    assert p.ev == _brute(deck, king, seen=True)
    assert p.ev_unseen == _brute(deck, king, seen=False)
    assert p.ev > p.ev_unseen and 0 < p.bet1_rides < p.bet1_situations
    assert (p.bet1_rides, p.bet1_situations, p.bet2_rides, p.bet2_situations) == _rides(deck, king)


@pytest.mark.deep
def test_one_partner_on_the_full_deck() -> None:
    r = CliRunner().invoke(main, ["collusion", "let-it-ride", "--partners", "1"])
    assert r.exit_code == 0, r.output
    assert "Exact over all 842,842,728,000 deals" in r.output  # 22,100 x 18,424 x 46 x 45
    assert "| ordinary game (the partner's cards unseen) | -3.5057% |" in r.output
    assert "| one partner's three cards seen | -3.4622% | +3.4622% | 7.550% | 15.589% |" in r.output
    assert "| what seeing them is worth | +0.0434% |" in r.output
    # both bets decided on four cards: the $ bet's -0.3727229 plus twice the four-card bet's 0.2285403
    assert "| the first community card seen before bet 1 (no partner) | +8.4358% |" in r.output


def test_the_first_community_card_seen_early_against_a_brute_force() -> None:
    deck = reduced_deck("9", 2)
    memo: dict[frozenset[int], Fraction] = {}

    def v(hand: tuple[int, ...]) -> Fraction:
        key = frozenset(hand)
        if key not in memo:
            memo[key] = _value(hand, 8)
        return memo[key]

    total, deals = Fraction(0), 0
    for three in itertools.combinations(deck.cards, 3):
        rest = [c for c in deck.cards if c not in three]
        for c1 in rest:
            pool = [c for c in rest if c != c1]
            rides = sum(v(three + (c1, c2)) for c2 in pool) > 0  # both bets decided on four cards
            for c2 in pool:
                total += v(three + (c1, c2)) * (1 + 2 * rides)
                deals += 1
    assert collusion.community_card_early(count_holdings(deck, 8), PAYS, 8) == total / deals


def test_sampled_partners_estimate_the_exact_figures() -> None:
    deck = reduced_deck("9", 2)
    exact = collusion.partner_seen(count_holdings(deck, 8), PAYS, 8)
    s = collusion.sample_partners(deck, 8, PAYS, 1, 3000, 5)
    assert (s.seen >= s.ordinary - 1e-12).all()  # seeing never costs
    for got, want in ((s.seen - s.ordinary, exact.ev - exact.ev_unseen), (s.ordinary, exact.ev_unseen)):
        half = 1.96 * got.std(ddof=1) / len(got) ** 0.5
        assert abs(got.mean() - float(want)) < half
    r = CliRunner().invoke(main, ["collusion", "let-it-ride", "--partners", "6", "--situations", "300"])
    assert r.exit_code == 0 and "| 6 | 300 |" in r.output and "exact EV is -3.5057%" in r.output, r.output


@pytest.mark.parametrize("partners", [2, 3])
def test_each_sampled_situation_with_partners_is_settled_exactly(partners: int) -> None:
    """Every situation of the sample, drawn again from its seed, played as written: the player's and the partners'
    cards, every ordered pair of community cards left; the ordinary player deciding on his own cards alone."""
    deck, king = reduced_deck("8", 2), 11  # 14 cards: room for the player, three partners and two community cards
    s = collusion.sample_partners(deck, king, PAYS, partners, 12, 3)
    rng = np.random.default_rng(3)  # the sample's draws: each situation is a shuffle of the deck's cards
    cards = set(deck.cards)
    for i in range(12):
        order = [int(c) for c in rng.permutation(np.array(deck.cards, dtype=np.int64))]
        own, pool = tuple(order[:3]), order[3 * (partners + 1):]
        pairs = [(a, b) for a in pool for b in pool if a != b]
        won = {(a, b): _value(own + (a, b), king) for a, b in pairs}
        total = sum(won.values(), Fraction(0))
        unseen = sorted(cards - set(own))  # what the ordinary player averages over
        ride1 = (total > 0, sum(_value(own + m, king) for m in itertools.combinations(unseen, 2)) > 0)
        ride2 = {a: (sum(won[(a, b)] for b in pool if b != a) > 0,
                     sum(_value(own + (a, b), king) for b in unseen if b != a) > 0) for a in pool}
        seen, plain = (sum(v * (1 + ride1[k] + ride2[a][k]) for (a, _), v in won.items()) / len(pairs) for k in (0, 1))
        assert (s.seen[i], s.ordinary[i]) == pytest.approx((float(seen), float(plain)), abs=1e-12), i


def test_protection_reports_come_as_csv_and_json_too() -> None:
    r = CliRunner().invoke(main, ["collusion", "let-it-ride", "--partners", "2", "--situations", "40",
                                  "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["game"] == "let-it-ride" and len(data["table_sha256"]) == 64 and data["sections"]
    r = CliRunner().invoke(main, ["exposure", "caribbean", "--format", "csv"])
    assert r.exit_code == 0, r.output
    head, *lines = list(csv.reader(io.StringIO(r.output)))
    assert head == ["game", "table", "table_sha256", "section", "row", "column", "value", "shown"] and lines
