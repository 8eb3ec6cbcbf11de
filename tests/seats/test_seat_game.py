"""House baccarat's seats as a game: the issue's figures, equilibria found and verified, and the best-reply
test against a plain brute force over every ordered deal of a nine-card shoe."""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner
from oracles.house_brute import LITERAL, brute_two, seat_counts
from oracles.seat_fixtures import seat_counter

from oddscalc.analysis import Session
from oddscalc.cli.main import main
from oddscalc.games.house_baccarat.count import LOSS, WIN, SeatCounter
from oddscalc.games.house_baccarat.settle import best_by_composition, seat_ev, solve
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS, Strategy
from oddscalc.games.shoe import Shoe
from oddscalc.results import RunOptions
from oddscalc.seats import search as seat_search
from oddscalc.seats import two_seats
from oddscalc.seats.game import Found, every_equilibrium, is_best_reply, thresholds

ONE = Fraction(1)


def _counter(sessions: Callable[[str], Session], decks: int) -> SeatCounter:
    s = sessions("house-baccarat")
    rules = s.resolve("seed", RunOptions(decks=decks, players=2))
    counter = s.counts(rules)
    assert isinstance(counter, SeatCounter)
    return counter


@functools.cache
def _one_deck_equilibria(sessions: Callable[[str], Session]) -> list[Found]:
    """Every symmetric equilibrium of two seats on one deck, searched once for the run's sessions (a second each
    time) and read by the two tests below."""
    return every_equilibrium(_counter(sessions, 1), 2, ONE)[0]


def test_two_seats_on_one_deck(sessions: Callable[[str], Session]) -> None:
    counter = _counter(sessions, 1)
    d03 = Strategy.by_totals("draw-0-3", range(4))
    assert seat_ev(counter.seat(2, d03), d03, ONE) == Fraction(95_314_360_201, 1_303_772_344_875)
    found = {f.strategy.draws: f for f in _one_deck_equilibria(sessions)}
    project = solve(counter, 2, ONE, "optimal").strategy  # the report's equilibrium
    assert project.draws in found and Strategy.by_totals("d04", range(5)).draws in found
    for f in found.values():
        assert is_best_reply(counter.seat(2, f.strategy), f.strategy, ONE)
    every, _ = two_seats.equilibria(two_seats.Model.of(counter, ONE))  # the enumeration finds these two, no other
    assert {e.draws for e in every} == set(found) and len(found) == 2


def test_the_seats_command_gives_its_figures_exactly_as_data(sessions: Callable[[str], Session],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """--format json: every equilibrium at its exact EV, as the search finds them in process, and the issue's
    one-deck figure for everyone drawing on 0-3; as csv: a line per cell with the same exact values."""
    from oddscalc.report import sections as report_sections

    rendered: list[tuple[Any, ...]] = []
    render = report_sections.render_sections

    def recorded(*args: Any) -> str:
        rendered.append(args)
        return render(*args)

    monkeypatch.setattr(report_sections, "render_sections", recorded)  # the command's sections, not counted again
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--decks", "1", "--format", "json"])
    assert r.exit_code == 0, r.output
    (found_sections, fmt, heading, meta), = rendered
    assert fmt == "json"
    data = json.loads(r.output)
    assert (data["players"], data["shoe"], data["third_cards"]) == ("2", "1 deck (52 cards)", "hidden")
    found = _one_deck_equilibria(sessions)
    rows = data["sections"]["seat_equilibria"]["rows"]
    assert [Fraction(row["ev"]) for row in rows if row["concept"] == "symmetric equilibrium"] == [f.ev for f in found]
    shared = {row["name"]: Fraction(row["ev"]) for row in data["sections"]["common_strategies"]["rows"]}
    assert shared["draw-0-3"] == Fraction(95_314_360_201, 1_303_772_344_875)
    # the csv the command prints for --format csv: the same sections through the one renderer (the option itself is
    # walked by tests/cli/test_fuzz.py); a second run of the command would count the same game again
    csv = render(found_sections, "csv", heading, meta)
    assert ",common_strategies,5,ev,95314360201/1303772344875,'+7.3107%" in csv


@pytest.mark.deep  # 8 decks; one deck is the suite's (above)
def test_two_seats_on_eight_decks_and_the_cooperative_strategy(sessions: Callable[[str], Session]) -> None:
    counter = _counter(sessions, 8)
    found = {f.strategy.totals() and tuple(f.strategy.totals() or ()): f.ev
             for f in every_equilibrium(counter, 2, ONE)[0]}
    assert f"{float(found[(0, 1, 2, 3)]):.5f}" == "0.07285" and f"{float(found[(0, 1, 2, 3, 4)]):.5f}" == "0.06532"
    d02 = Strategy.by_totals("draw-0-2", range(3))
    sc = counter.seat(2, d02)
    assert f"{float(seat_ev(sc, d02, ONE)):.5f}" == "0.07600" and not is_best_reply(sc, d02, ONE)


def _gains(counts: Counter[tuple[int, int, int, int]]) -> dict[tuple[int, int], int]:
    """From the brute force's deals by (first, second, action, outcome): what drawing gains per composition."""
    return {(u, w): sum(counts[(a, b, 1, WIN)] - counts[(a, b, 1, LOSS)] - counts[(a, b, 0, WIN)]
                        + counts[(a, b, 0, LOSS)] for a, b in {(u, w), (w, u)}) for u, w in COMPOSITIONS}


# the others drawing on 0-7: the sharpest of the three (12 compositions where the reply draws, 7 where drawing on 0-7
# errs); 0-1 and 0-4 take the same path (1.4 s of brute force each) and are deep
@pytest.mark.parametrize("ranks", [list("AA3567QK9")], ids=["repeats"])
@pytest.mark.parametrize("others", ["draw-0-7", pytest.param("draw-0-1", marks=pytest.mark.deep),
                                    pytest.param("draw-0-4", marks=pytest.mark.deep)])
def test_best_replies_against_a_brute_force(ranks: list[str], others: str) -> None:
    shoe = Shoe.from_ranks(dict(Counter(ranks)))
    for s in (s for s in thresholds() if s.name == others):
        gains = _gains(brute_two(ranks, LITERAL, s))
        sc = seat_counts(shoe, 2, s, LITERAL, infinite=False)
        reply = best_by_composition(sc, ONE)
        assert {c: bool(reply.matrix[c]) for c in COMPOSITIONS} == {c: g > 0 for c, g in gains.items()}
        plain = all((g >= 0) if s.matrix[c] else (g <= 0) for c, g in gains.items())
        assert is_best_reply(sc, s, ONE) == plain


@pytest.mark.deep  # its figures but the third equilibrium's are asserted in the suite (seat_search, below)
def test_the_seats_command() -> None:
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--decks", "8"])
    assert r.exit_code == 0, r.output
    assert "| symmetric equilibrium | draw on 0, 1, 2, 3 | +7.2852% |" in r.output
    assert "| 2 | draw on 0, 1, 2, 3 | +7.2852% | -7.2852% | 3 | finite, exact |" in r.output  # the edge counts them
    assert r.output.count("| symmetric equilibrium |") == 3  # on 8 decks a third one, by composition, at +7.1025%
    assert "+7.1025% | -7.1025% | complete search: " in r.output
    assert "| cooperative: the best common strategy of all 2^44 | draw on 0, 1, 2 | +7.5999% |" in r.output


@pytest.mark.deep  # 8 decks; the infinite shoe's small cases are test_house_baccarat's
def test_edge_by_seats_beyond_the_finite_limit_is_on_an_infinite_shoe(sessions: Callable[[str], Session],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from oddscalc.seats import game as seat_game

    monkeypatch.setattr(seat_game, "FINITE_EXACT_MAX_PLAYERS", 1)  # as 7 seats are past 6
    edge = seat_game.edge_section(_counter(sessions, 8), ONE, 3)
    assert [r["shoe"] for r in edge.records()] == ["finite, exact", "infinite, exact", "infinite, exact"]
    assert edge.records()[0]["ev"] == Fraction(317_218_834_208, 2_789_284_751_955)  # one seat, unchanged


@pytest.mark.deep  # the command past its sizes, end to end: the same rows as the test below, run as sections
def test_past_the_cooperative_search_the_seats_command_gives_the_family_and_replies(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from oddscalc.seats import game as seat_game

    monkeypatch.setattr(seat_game, "SEAT_GAME_MAX_PLAYERS", 2)  # as six and seven seats are past five
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--players", "3", "--decks", "1", "--edge-to", "2",
                                  "--others", "draw-0-5"])
    assert r.exit_code == 0, r.output
    assert "## House edge by seats filled" in r.output
    assert "## The game among 3 seats: every symmetric equilibrium" in r.output  # at any table size
    assert "## Every seat playing one strategy (3 seats)" in r.output and "## One seat's best reply" in r.output
    assert "| cooperative: the best common strategy of the family |" in r.output
    assert "not changed by composition: from 3 seats" in r.output and "local optimum" not in r.output
    assert "| the other 2 play draw-0-5; this seat replies best |" in r.output
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--players", "3", "--decks", "1", "--exhaustive"])
    assert r.exit_code == 4 and "--exhaustive" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--players", "3", "--third-cards", "shown",
                                  "--by-composition"])
    assert r.exit_code == 4 and "--by-composition applies to third cards hidden" in r.output


# a shoe of four ranks dealing eight compositions, where the search moves from the family's best (three passes, 25
# strategies tried); one deck, all 44 (some 90 evaluations of the other seats)
SHOES = {"small-shoe": {"A": 4, "3": 4, "5": 4, "8": 4}, "one-deck": None}


@pytest.mark.parametrize("shoe", list(SHOES))
def test_the_search_by_composition_asked_for_past_its_default_size(sessions: Callable[[str], Session],
                                                                 monkeypatch: pytest.MonkeyPatch, shoe: str) -> None:
    # a local optimum checked at every fourth composition and any the search changed from its start (a seat count
    # each, 4 s for all 44 on one deck)
    ranks = SHOES[shoe]
    counter = _counter(sessions, 1) if ranks is None else seat_counter(1, 3, Shoe.from_ranks(ranks))
    _search_by_composition(counter, monkeypatch, lambda i, changed: i % 4 == 0 or changed)


@pytest.mark.deep  # every composition's change: the suite's test above checks a quarter of them and the moved ones
def test_the_search_by_composition_is_a_local_optimum_at_every_composition(sessions: Callable[[str], Session],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    _search_by_composition(_counter(sessions, 1), monkeypatch, lambda i, changed: True)


def _search_by_composition(counter: SeatCounter, monkeypatch: pytest.MonkeyPatch,
                           checked: Callable[[int, bool], bool]) -> None:
    from oddscalc.seats import game as seat_game

    monkeypatch.setattr(seat_game, "SEAT_GAME_MAX_PLAYERS", 2)  # as six and seven seats are past five
    searched: list[tuple[Strategy, Strategy, Fraction]] = []
    improve = seat_game.improve

    def recorded(*args: Any, **kw: Any) -> tuple[Strategy, Fraction, int]:
        out = improve(*args, **kw)
        searched.append((args[3], out[0], out[1]))
        return out

    monkeypatch.setattr(seat_game, "improve", recorded)  # the search the row ran, not run again here
    rows = seat_game.sections(counter, 3, ONE, False, 3, by_composition=True)[1].records()
    found = rows[-1]
    how, found_ev = found["how"], found["ev"]
    assert isinstance(how, str) and isinstance(found_ev, Fraction)
    assert found["concept"] == "cooperative: the best common strategy found" and "local optimum" in how
    assert "(--prove-common proves it)" in how  # offered at any size
    family = {s.name: seat_ev(counter.seat(3, s), s, ONE) for s in thresholds()}
    assert found_ev >= max(family.values())
    (start, best, ev), = searched
    assert family[start.name] == max(family.values())  # searched from the best of the family
    assert ev == found_ev and found["strategy"] == seat_game.text_of(best)
    draws = frozenset(i for i, c in enumerate(COMPOSITIONS) if best.matrix[c])
    moved = {i for i, c in enumerate(COMPOSITIONS) if best.matrix[c] != start.matrix[c]}
    counts = counter.seat(3, best).counts  # (outcome, first card, second, action): the compositions dealt
    dealt = {i for i, (u, w) in enumerate(COMPOSITIONS) if counts[:, u, w].any() or counts[:, w, u].any()}
    assert moved <= dealt
    for i in (i for i in range(len(COMPOSITIONS)) if checked(i, i in moved) and i in dealt):
        # a local optimum: no single change, for every seat together, gains
        changed = seat_search.strategy_of(draws ^ {i}, "changed")
        assert seat_ev(counter.seat(3, changed), changed, ONE) <= ev
    for i in sorted(set(range(len(COMPOSITIONS))) - dealt)[:1]:  # the search tries none of these: none moves a count
        changed = seat_search.strategy_of(draws ^ {i}, "changed")
        assert seat_ev(counter.seat(3, changed), changed, ONE) == ev


def test_one_seat_replying_best_to_the_others_stated_play(sessions: Callable[[str], Session]) -> None:
    from oddscalc.seats.game import best_reply, reply_sections

    counter = _counter(sessions, 1)
    others = Strategy.by_totals("draw-0-5", range(6))
    rows = reply_sections(counter, 3, ONE, others)[0].records()
    reply, ev = best_reply(counter, 3, ONE, others)
    along = seat_ev(counter.seat(3, others), others, ONE)
    assert [r["ev"] for r in rows[1:]] == [along, ev] and ev >= along
    assert rows[0]["ev"] == seat_ev(counter.seat(3, solve(counter, 3, ONE, "optimal").strategy),
                                    solve(counter, 3, ONE, "optimal").strategy, ONE)
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--players", "3", "--others", "draw-5-1"])
    assert r.exit_code == 4 and "--others 'draw-5-1'" in r.output
