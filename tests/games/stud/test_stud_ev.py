"""What a hand is worth at a game file (``oddscalc ev``): each action's exact EV against a brute force over the
cards still to come (tests/oracles/stud_ev_brute.py, written apart from the engine), the best actions over every
starting hand adding up to the engine's report on a reduced deck, and bad input on one ``oddscalc:`` line, exit 4."""

from __future__ import annotations

from fractions import Fraction

import pytest
from click.testing import CliRunner
from oracles.stud_ev_brute import dealer_actions, street_actions

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.cards import Deck, parse_cards, parse_rank, reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.cli.main import EXIT_INPUT, main
from oddscalc.games.stud.ev import HandEV, hand_ev, stakes_at
from oddscalc.games.stud.game import StudRun
from oddscalc.games.stud.table import StudTable
from oddscalc.results import RunOptions

QUEEN_HIGH = (0, 10)  # the stud oracle's key of the smallest queen-high hand
SMALL = Deck((0, 4, 8, 11, 12), 2)  # a losing, two pushing and two paying pairs' ranks


def run(game: str, deck: Deck | None = None) -> tuple[StudRun, Session, RunOptions]:
    options = RunOptions(deck=deck, brief=True)
    session = Session(game, options, Store(None))
    rules = session.resolve(None)
    assert isinstance(rules, StudRun)
    return rules, session, options


def evs(ev: HandEV) -> dict[str, Fraction]:
    return {c.action: c.ev for c in ev.choices}


@pytest.mark.parametrize("hand", ["Qs 6d 4c", "9h Th Jh", "5c 5d Ks"])
def test_a_dealer_game_hand_equals_the_brute_force(hand: str) -> None:
    rules, _, _ = run("three-card-poker")
    model = resolve_table("three-card-poker").model
    assert isinstance(model, StudTable) and model.pays.main.ante_bonus is not None
    cards = parse_cards(hand)
    ev = hand_ev(rules, hand, None)
    assert evs(ev) == dealer_actions(rules.deck, cards, model.pays.main.ante_bonus.pays(), QUEEN_HIGH, [1])
    assert sum(n for _, _, n in ev.outcomes) == 18_424  # C(49,3)


def test_the_published_play_line_queen_six_four() -> None:
    # the published optimal strategy: play Q-6-4 or better (reviewpokerrooms.com, the game file's source)
    rules, _, _ = run("three-card-poker")
    best = {h: max(hand_ev(rules, h, None).choices, key=lambda c: c.ev).action for h in ("Qs 6d 4c", "Qs 6d 3c")}
    assert best == {"Qs 6d 4c": "bet_1x", "Qs 6d 3c": "fold"}


def _decisions(rules: StudRun) -> dict[int, tuple[list[int], bool]]:
    out, held = {}, 0
    for stage in rules.model.rules.stages:
        held += stage.dealt()
        if stage.decision is not None:
            out[held] = (stage.decision.bets, stage.decision.fold)
    return out


def _street_brute(rules: StudRun, hand: str, stake: int) -> dict[str, Fraction]:
    main = rules.model.pays.main
    assert main.hand is not None
    return street_actions(rules.deck, parse_cards(hand), stake, _decisions(rules), main.hand.pays(),
                          parse_rank(main.pair_minimum or "2"), parse_rank(main.push_pair_minimum or "2"))


@pytest.mark.parametrize(("game", "hand", "stake"), [
    ("mississippi-stud", "Qs 6d 7h 8h", 3), ("mississippi-stud", "Qs 6d 7h 8h", 7),
    ("mississippi-stud", "2c 2d 9h Kh", 4), ("mississippi-stud", "Ts Js Qs", 2),
    ("double-down-stud", "Qs 6d 7h 8h", 1), ("double-down-stud", "Jc Jd 2h 7s", 1),
])
def test_a_street_game_hand_equals_the_brute_force(game: str, hand: str, stake: int) -> None:
    rules, _, _ = run(game)
    assert evs(hand_ev(rules, hand, stake)) == _street_brute(rules, hand, stake)


def test_the_first_decision_on_a_reduced_deck_equals_the_brute_force() -> None:
    rules, _, _ = run("mississippi-stud", SMALL)
    for hand in ("2c Ac", "6c 6d", "Tc Kd"):
        assert evs(hand_ev(rules, hand, None)) == _street_brute(rules, hand, 1)


@pytest.mark.parametrize(("game", "deck", "size"), [("mississippi-stud", SMALL, 2),
                                                    ("three-card-poker", reduced_deck("8", 2), 3)])
def test_the_best_action_over_every_starting_hand_is_the_report_s_ev(game: str, deck: Deck, size: int) -> None:
    # a second method: the engine's backward induction over suit patterns (the report) against one hand at a time
    import itertools

    from oddscalc.cards import cards_str

    rules, session, options = run(game, deck)
    hands = list(itertools.combinations(deck.cards, size))
    best = sum(max(c.ev for c in hand_ev(rules, cards_str(h), None).choices) for h in hands)
    assert best / len(hands) == session.analyze(None, options).wager("main").expected_value


def test_the_stakes_at_each_decision() -> None:
    ms, dds = run("mississippi-stud")[0].model.rules, run("double-down-stud")[0].model.rules
    assert [stakes_at(ms, k) for k in (2, 3, 4)] == [[1], [2, 3, 4], [3, 4, 5, 6, 7]]
    assert stakes_at(dds, 4) == [1]


@pytest.mark.parametrize(("args", "says"), [
    (["three-card-poker", "--hand", "Qs Qs 4c"], "duplicate card"),
    (["three-card-poker", "--hand", "Qs 6d"], "2 cards given"),
    (["three-card-poker", "--hand", "Qs 6d Xx"], "not a card"),
    (["three-card-poker"], "--hand"),
    (["three-card-poker", "--hand", "Qs 6d 4c", "--stake", "2"], "does not apply"),
    (["mississippi-stud", "--hand", "Qs 6d 7h 8h 9h"], "5 cards given"),
    (["mississippi-stud", "--hand", "Qs 6d 7h"], "one of 2, 3, 4"),
    (["mississippi-stud", "--hand", "Qs 6d 7h", "--stake", "9"], "one of 2, 3, 4"),
    (["double-down-stud", "--hand", "Qs 6d 7h"], "decides holding 4"),
])
def test_bad_input_is_one_line_exit_4(args: list[str], says: str) -> None:
    result = CliRunner().invoke(main, ["ev", *args])
    assert result.exit_code == EXIT_INPUT, result.output
    assert result.output.startswith("oddscalc: ") and result.output.count("\n") == 1 and says in result.output


def test_the_command_shows_each_action() -> None:
    result = CliRunner().invoke(main, ["ev", "mississippi-stud", "--hand", "Qs 6d 7h 8h", "--stake", "3",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    assert '"-11/4"' in result.output  # bet 1x: equal to the brute force above


def test_a_form_s_stake_is_read_as_the_command_line_s() -> None:
    # the workbench passes its form's text: the same answer, and text that is no stake refused on one line
    from oddscalc.games.stud.ev import ev_sections
    from oddscalc.protocol import OptionError

    _, session, _ = run("mississippi-stud")
    assert ev_sections(session, None, "Qs 6d 7h 8h", "3") == ev_sections(session, None, "Qs 6d 7h 8h", 3)
    for bad in ("x", "0", "\u0663", "1e9", "9999999"):
        with pytest.raises(OptionError, match="stake"):
            ev_sections(session, None, "Qs 6d 7h 8h", bad)
