"""House baccarat with two seats and third cards shown as dealt: both seats' counts against a plain deal of
every ordered nine cards, playing blind as the hidden game, and the equilibrium's best replies."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from oracles.house_brute import LITERAL, VALUE, compare, house_final
from oracles.shared import shared

from oddscalc.catalog import resolve_table
from oddscalc.cli.main import EXIT_INPUT, main
from oddscalc.games.house_baccarat.count import LOSS, SIT_OUT, WIN
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.house_baccarat.table import SHEET_TABLEAU
from oddscalc.games.shoe import Shoe
from oddscalc.seats import turn_order as to

RANKS = list("AA3567QK9")
SMALL = Shoe.from_ranks(dict(Counter(RANKS)))


@functools.cache
def _orders(vals: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    return frozenset(itertools.permutations(vals))


def _brute(first: Strategy, second: to.Late) -> tuple[Fraction, Fraction]:
    """Every ordered deal of nine cards: each seat two, the house two, in turn; then the first seat's third
    card face up, the second seat's, the house's."""
    vals = [VALUE[r] for r in RANKS]
    ev = [0, 0]
    n = 0
    # every ordering of the nine values once: each stands for the same 2! x 2! orders of the cards (the two
    # aces, and the queen and king both worth 0), so the plain average over card orders is the same
    for v in _orders(tuple(vals)):
        a1, a2, h1, b1, b2, h2 = v[:6]
        t1, t2, h = (a1 + b1) % 10, (a2 + b2) % 10, (h1 + h2) % 10
        n += 1
        if t1 >= 8 or t2 >= 8:
            outcomes = [compare(t1, h) if t1 >= 8 else SIT_OUT, compare(t2, h) if t2 >= 8 else SIT_OUT]
        else:
            pos, highest, y1, y2, sight = 6, -1, t1, t2, 1
            if first.matrix[a1, b1]:
                y1, highest, sight, pos = (t1 + v[pos]) % 10, v[pos], 2 + v[pos], pos + 1
            if second.draws[sight, a2, b2]:
                y2, highest, pos = (t2 + v[pos]) % 10, max(highest, v[pos]), pos + 1
            house = house_final(h, highest, LITERAL, v[pos])
            outcomes = [compare(y1, house), compare(y2, house)]
        for k, o in enumerate(outcomes):
            ev[k] += 1 if o == WIN else -1 if o == LOSS else 0
    return Fraction(ev[0], n), Fraction(ev[1], n)


def _random_late(seed: int) -> to.Late:
    m = np.random.default_rng(seed).random((12, 10, 10)) < 0.5
    return to.Late.of("random", m | m.transpose(0, 2, 1))


def test_both_seats_equal_a_plain_deal_of_every_ordered_nine_cards() -> None:
    first = Strategy.by_totals("draw-0-4", range(5))
    p = to.evaluate(SMALL, first, _random_late(1), SHEET_TABLEAU, "never", Fraction(1))
    assert (p.ev_first, p.ev_second) == _brute(first, _random_late(1))


def test_playing_blind_is_the_hidden_game() -> None:
    s = Strategy.by_totals("draw-0-3", range(4))
    p = to.evaluate(Shoe.of_decks(1), s, to.Late.blind(s), SHEET_TABLEAU, "never", Fraction(1))
    assert p.ev_first == p.ev_second == Fraction(95314360201, 1303772344875)  # the hidden game's two seats


@functools.cache
def _equilibria() -> list[to.Profile]:
    """The equilibria from the hidden game's on :data:`SMALL` (two seconds), found once for the tests below (and
    for the run's workers)."""
    return shared("turn order equilibria", lambda: to.equilibria(SMALL, SHEET_TABLEAU, "never", Fraction(1),
                                                                 [Strategy.by_totals("draw-0-3", range(4))]))


def test_the_equilibrium_replies_best_at_every_sight() -> None:
    found = _equilibria()
    assert found
    p = found[0]
    total = SMALL.ordered(9)
    late = to.late_counts(SMALL, p.first, SHEET_TABLEAU, "never")
    early = to.early_counts(SMALL, p.second, SHEET_TABLEAU, "never")
    assert to.late_ev(late, p.second, Fraction(1), total) == p.ev_second
    rng = np.random.default_rng(4)
    for _ in range(25):  # no single change of either seat's play gains
        sight, u, w = int(rng.integers(1, 12)), int(rng.integers(10)), int(rng.integers(10))
        d = p.second.draws.copy()
        d[sight, u, w] = d[sight, w, u] = not d[sight, u, w]
        assert to.late_ev(late, to.Late.of("changed", d), Fraction(1), total) <= p.ev_second
        m = p.first.matrix.copy()
        m[u, w] = m[w, u] = not m[u, w]
        assert to.early_ev(early, Strategy.of("changed", m), Fraction(1), total) <= p.ev_first


def test_the_report_rows_against_a_plain_deal_of_every_ordered_nine_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn_order section: each equilibrium's EVs, and the hidden game's played blind, from the deals."""
    hidden = Strategy.by_totals("draw-0-3", range(4))
    found = _equilibria()  # before the search is replaced by it
    asked: list[tuple[Any, ...]] = []

    def found_once(*args: Any) -> list[to.Profile]:
        asked.append(args)
        return found

    # the section's search is :func:`_equilibria`'s (the same call, checked just below), found once for both tests
    monkeypatch.setattr(to, "equilibria", found_once)
    rows = to.sections(SMALL, SHEET_TABLEAU, "never", Fraction(1), hidden, [hidden])[0].rows
    (shoe, tableau, all_stand, pay, starts), = asked
    assert (shoe, tableau, all_stand, pay) == (SMALL, SHEET_TABLEAU, "never", Fraction(1))
    assert [s.draws for s in starts] == [hidden.draws]
    assert len(rows) == len(found) + 1
    for row, (first, second) in zip(rows, [*((p.first, p.second) for p in found), (hidden, to.Late.blind(hidden))]):
        ev_first, ev_second = _brute(first, second)
        assert row[1:5] == (to.plays_text(first.matrix), ev_first, ev_second, (ev_first + ev_second) / 2)


def test_third_cards_shown_in_the_commands(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--third-cards", "shown", "--decks", "1000"])
    assert r.exit_code == EXIT_INPUT and "too large for the exact turn-order count" in r.output, r.output
    t = tmp_path / "shown.toml"
    t.write_text(resolve_table("house-baccarat", "seed").path.read_text().replace(
        "[rules]", '[rules]\nthird_cards = "shown"'))
    r = CliRunner().invoke(main, ["report", "house-baccarat", "--table", str(t), "--players", "2"])
    assert r.exit_code == EXIT_INPUT and "oddscalc seats house-baccarat --players 2" in r.output, r.output
    r = CliRunner().invoke(main, ["report", "house-baccarat", "--table", str(t)])
    assert r.exit_code == 0 and "third_cards" in r.output, r.output  # one seat: nothing to see
