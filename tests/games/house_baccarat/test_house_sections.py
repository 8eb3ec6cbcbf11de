"""House baccarat's report sections, every printed figure against plain brute forces over every ordered deal
(``test_house_baccarat``'s, which share no code with the engine): the best play by total and by composition,
the compositions played apart from their total, the plays compared, and the house edge by seats filled."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest
from oracles.house_brute import LITERAL, ON_0_5, brute_infinite, brute_one, brute_two, mixed_strategy, seat_counts
from oracles.seat_fixtures import seat_counter

from oddscalc.games.house_baccarat.count import LOSS, WIN
from oddscalc.games.house_baccarat.others import NATURAL
from oddscalc.games.house_baccarat.sections import strategy_sections
from oddscalc.games.house_baccarat.settle import solve
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS, Strategy
from oddscalc.games.house_baccarat.table import TableRules
from oddscalc.games.shoe import Shoe
from oddscalc.report.sections import render_sections
from oddscalc.results import Section
from oddscalc.seats.game import edge_section, reply_sections, sections, text_of, thresholds

Deals = Counter[tuple[int, int, int, int]]  # (first card, second card, drew, outcome) -> deals
Cells = Sequence[tuple[int, int]]


class Played:
    """Every deal's units for each two-card hand and action, read off a brute force's deals."""

    def __init__(self, deals: Deals, pay: Fraction) -> None:
        self.units: defaultdict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
        self.hands: Counter[tuple[int, int]] = Counter()  # deals of each hand, sitting out included
        for (u, w, drew, outcome), n in deals.items():
            self.units[(u, w, drew)] += n * (pay if outcome == WIN else -1 if outcome == LOSS else 0)
            if not drew:
                self.hands[(u, w)] += n

    def ev(self, cells: Cells, drew: int) -> Fraction:
        """EV per unit staked of the hands ``cells`` all playing ``drew``."""
        return Fraction(sum(self.units[(u, w, drew)] for u, w in cells), sum(self.hands[c] for c in cells))

    def dealt(self, cells: Cells) -> bool:
        """Whether the shoe deals any of these hands (a composition a small shoe cannot deal has no play)."""
        return any(self.hands[c] for c in cells)

    def draws(self, cells: Cells) -> bool:
        """Whether drawing gives these hands more than standing."""
        return sum(self.units[(u, w, 1)] - self.units[(u, w, 0)] for u, w in cells) > 0

    def play(self, draws: np.ndarray) -> Fraction:
        """EV per unit staked of the seat playing ``draws`` (10 x 10) on every hand."""
        total = sum(self.units[(u, w, int(draws[u, w]))] for u in range(10) for w in range(10))
        return Fraction(total, sum(self.hands.values()))


def _total(t: int) -> list[tuple[int, int]]:
    return [(u, w) for u in range(10) for w in range(10) if (u + w) % 10 == t]


def _both(u: int, w: int) -> list[tuple[int, int]]:
    return [(u, w), (w, u)] if u != w else [(u, w)]


def _matrix(drawn: set[tuple[int, int]]) -> np.ndarray:
    m = np.zeros((10, 10), dtype=bool)
    for u, w in drawn:
        m[u, w] = m[w, u] = True
    return m


def _by_totals(totals: Sequence[int]) -> np.ndarray:
    return _matrix({(u, w) for u, w in COMPOSITIONS if (u + w) % 10 in totals})


def _expected(p: Played, played: Strategy) -> dict[str, Sequence[tuple[object, ...]]]:
    """The four sections' rows as the brute force's deals give them."""
    totals = [t for t in range(8) if p.draws(_total(t))]
    best = {(u, w) for u, w in COMPOSITIONS if p.draws(_both(u, w))}
    by_total = [(t, "draw" if t in totals else "stand", p.ev(_total(t), 1), p.ev(_total(t), 0),
                 p.ev(_total(t), 1) - p.ev(_total(t), 0)) for t in range(8)]
    grid = [tuple("nat" if NATURAL[u, w] else "D" if (min(u, w), max(u, w)) in best else "S" for w in range(10))
            for u in range(10)]
    differ = [(f"{u}+{w}", (u + w) % 10, "draw" if (u, w) in best else "stand",
               "draw" if (u + w) % 10 in totals else "stand", p.ev(_both(u, w), 1), p.ev(_both(u, w), 0))
              for u, w in COMPOSITIONS if ((u, w) in best) != ((u + w) % 10 in totals) and p.dealt(_both(u, w))]
    plays = [_matrix(best), _by_totals(totals), _by_totals(range(6)), _by_totals([]), _by_totals(range(3)),
             played.matrix]
    return {"best_by_total": by_total, "best_by_composition": grid,
            "composition_differs": differ, "play_compared": [(p.play(m), -p.play(m)) for m in plays]}


def _check(sections: list[Section], p: Played, played: Strategy) -> None:
    got = {s.id: s for s in sections}
    want = _expected(p, played)
    assert list(got["best_by_total"].rows) == want["best_by_total"]
    assert [tuple(r[1:]) for r in got["best_by_composition"].rows] == want["best_by_composition"]
    assert list(got["composition_differs"].rows) == want["composition_differs"]
    assert [tuple(r[1:]) for r in got["play_compared"].rows] == want["play_compared"]


def test_one_seat_sections_against_every_draw_of_an_infinite_shoe() -> None:
    shoe = Shoe.from_ranks({"K": 4, **{r: 1 for r in "A23456789"}})  # every composition dealt
    red, _ = shoe.reduced()
    played = Strategy.by_totals("draw-0-4", range(5))  # not among the named plays: the section adds its row
    sc = seat_counts(shoe, 1, played, LITERAL, infinite=True)
    pay = Fraction(19, 20)
    deals = brute_infinite(list(red), 1, LITERAL, played)
    sections = strategy_sections(sc, pay, played, "one seat", others=False)
    _check(sections, Played(deals, pay), played)
    # cards drawn with replacement matter only through their total: no composition leaves it, by either count
    assert not next(s for s in sections if s.id == "composition_differs").rows


def test_one_seat_sections_against_every_deal_of_a_suit() -> None:
    # a suit (but two of its cards worth 0) holds one card of each value but 0: many compositions never dealt, none
    # of them listed
    ranks = list("A23456789TK")
    played = Strategy.by_totals("draw-0-4", range(5))
    sc = seat_counts(Shoe.from_ranks(dict(Counter(ranks))), 1, played, LITERAL, infinite=False)
    _check(strategy_sections(sc, Fraction(1), played, "one seat", others=False),
           Played(brute_one(ranks, LITERAL), Fraction(1)), played)


@pytest.mark.parametrize("rules", [LITERAL, ON_0_5], ids=["literal", "on-0-5"])
def test_two_seat_sections_against_every_deal_of_nine_cards(rules: TableRules) -> None:
    ranks = list("AA3567QK9")
    other = mixed_strategy()
    sc = seat_counts(Shoe.from_ranks(dict(Counter(ranks))), 2, other, rules, infinite=False)
    _check(strategy_sections(sc, Fraction(1), other, "two seats", others=True),
           Played(brute_two(ranks, rules, other), Fraction(1)), other)


def test_the_edge_by_seats_filled_against_every_deal() -> None:
    """Each row's strategy is a symmetric equilibrium of the brute force's deals (no composition gains by
    leaving it) and its EV is theirs, for one and two seats on a nine-card shoe."""
    ranks = list("A23567QK9")
    counter = seat_counter(1, 2, Shoe.from_ranks(dict(Counter(ranks))))
    r = counter.rules
    rules = TableRules.model_validate({"house_tableau": r.house_tableau, "house_draws_when_all_stand": r.all_stand})
    pay = r.pay
    rows = edge_section(counter, pay, 2, count=False).rows
    assert [row[0] for row in rows] == [1, 2]
    for row in rows:
        seats = row[0]
        assert isinstance(seats, int)
        everyone = solve(counter, seats, pay, "optimal").strategy
        assert row[1] == text_of(everyone)
        p = Played(brute_one(ranks, rules) if seats == 1 else brute_two(ranks, rules, everyone), pay)
        assert row[2:4] == (p.play(everyone.matrix), -p.play(everyone.matrix))
        for u, w in COMPOSITIONS:
            kept = int(everyone.matrix[u, w])
            assert sum(p.units[(a, b, kept)] - p.units[(a, b, 1 - kept)] for a, b in _both(u, w)) >= 0


def test_one_seats_reply_to_the_others_against_every_deal() -> None:
    """``seats --others``: the seat playing along and replying best, each EV from the deals of nine cards."""
    ranks = list("A23567QK9")
    counter = seat_counter(1, 2, Shoe.from_ranks(dict(Counter(ranks))))
    r = counter.rules
    rules = TableRules.model_validate({"house_tableau": r.house_tableau, "house_draws_when_all_stand": r.all_stand})
    others = mixed_strategy()
    rows = reply_sections(counter, 2, r.pay, others)[0].rows
    p = Played(brute_two(ranks, rules, others), r.pay)
    best = Strategy.of("best", _matrix({(u, w) for u, w in COMPOSITIONS if p.draws(_both(u, w))}))
    assert rows[1][1:4] == (text_of(others), p.play(others.matrix), -p.play(others.matrix))
    assert rows[2][1:4] == (text_of(best), p.play(best.matrix), -p.play(best.matrix))
    assert p.play(best.matrix) > p.play(others.matrix)  # the stated play is not its own best reply here
    everyone = solve(counter, 2, r.pay, "optimal").strategy
    assert rows[0][1:3] == (text_of(everyone), Played(brute_two(ranks, rules, everyone), r.pay).play(everyone.matrix))


@pytest.mark.deep  # nine brute forces of every deal of nine cards, about 12 s
def test_the_seats_commands_common_strategies_and_best_replies_against_every_deal() -> None:
    """``seats house-baccarat``: every seat playing each threshold strategy (its EV, whether it is its own best
    reply) and one seat's best reply to the others playing it, from the deals of nine cards."""
    ranks = list("A23567QK9")
    counter = seat_counter(1, 2, Shoe.from_ranks(dict(Counter(ranks))))
    r = counter.rules
    rules = TableRules.model_validate({"house_tableau": r.house_tableau, "house_draws_when_all_stand": r.all_stand})
    got = {s.id: s for s in sections(counter, 2, r.pay, exhaustive=False, max_players=2)}
    common, replies = [], []
    for s in thresholds():
        p = Played(brute_two(ranks, rules, s), r.pay)
        ev = p.play(s.matrix)
        own = all(sum(p.units[(a, b, int(s.matrix[u, w]))] - p.units[(a, b, 1 - int(s.matrix[u, w]))]
                      for a, b in _both(u, w)) >= 0 for u, w in COMPOSITIONS)
        common.append((s.name, text_of(s), ev, -ev, "yes" if own else "no"))
        best = Strategy.of("best", _matrix({(u, w) for u, w in COMPOSITIONS if p.draws(_both(u, w))}))
        replies.append((s.name, text_of(best), p.play(best.matrix), -p.play(best.matrix)))
    assert list(got["common_strategies"].rows) == common
    assert list(got["best_replies"].rows) == replies
    assert {row[4] for row in common} == {"yes", "no"}  # the shoe makes some of them equilibria, not all


def test_totals_a_shoe_never_deals_are_said_so() -> None:
    shoe = Shoe.from_ranks({"K": 5, "Q": 2})  # every hand is 0 + 0
    played = Strategy.by_totals("draw-0-4", range(5))
    sections = strategy_sections(seat_counts(shoe, 1, played, LITERAL, infinite=False), Fraction(1), played, "x",
                                 others=False)
    rows = next(s for s in sections if s.id == "best_by_total").rows
    assert rows[1:] == tuple((t, "never dealt", None, None, None) for t in range(1, 8))
    assert rows[0][1] == "stand"  # drawing to 0 + 0 from a shoe of tens only changes nothing: no gain, stand
    assert "never dealt" in render_sections(sections, "md", "x", {})
