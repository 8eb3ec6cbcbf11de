"""Solving a game file's pays: every pay a file declares (``pays.main.hand.*``, the ante bonus, the side bets') is
named as the report's rows name it, and the solved pay, put back into a copy of the table, gives the asked edge:
by the engine's report of that copy and by a brute force on a reduced deck (written apart from the engine)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from click.testing import CliRunner
from oracles.streets_brute import brute as streets_brute
from oracles.stud_brute import brute as stud_brute

from oddscalc.analysis import Session
from oddscalc.cache import Store
from oddscalc.cards import Deck, parse_rank, reduced_deck
from oddscalc.catalog import resolve_table, with_pays
from oddscalc.cli.main import EXIT_INPUT, main
from oddscalc.filing.paytools import pay_refs, pay_value, resolve_pay, solve_pay, with_pay
from oddscalc.games.stud.table import StudTable
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis
from oddscalc.results import RunOptions as Options
from oddscalc.tables import Table

STREETS_DECK = Deck((0, 4, 8, 11, 12), 2)  # a losing, two pushing and two paying pairs' ranks: 15,120 deals
DEALER_DECK = reduced_deck("8", 2)  # eight to ace, two suits
QUEEN_HIGH = (0, 10)  # the stud oracle's key of the smallest queen-high hand


def analyzer(game: str, deck: Deck | None) -> tuple[Session, Options]:
    options = Options(deck=deck, brief=True)
    return Session(game, options, Store(None)), options


def test_every_declared_pay_is_named_as_the_rows_name_it() -> None:
    ms = resolve_table("mississippi-stud").model
    assert isinstance(ms, StudTable) and ms.pays.main.hand is not None
    assert pay_refs(ms) == [f"main.hand.{k}" for k in ms.pays.main.hand.pays()]
    tcp = resolve_table("three-card-poker").model
    assert isinstance(tcp, StudTable) and tcp.pays.main.ante_bonus is not None
    refs = pay_refs(tcp)
    assert {r for r in refs if r.startswith("main.")} == {f"main.ante_bonus.{k}" for k in
                                                          tcp.pays.main.ante_bonus.pays()}
    assert "pair_plus.straight" in refs and "six_card_bonus.royal_flush" in refs
    # a bare class, or the block and class, when it names one pay; else the choices
    assert resolve_pay(ms, "royal_flush") == resolve_pay(ms, "hand.royal_flush") == "main.hand.royal_flush"
    assert resolve_pay(tcp, "ante_bonus.straight") == "main.ante_bonus.straight"
    with pytest.raises(OptionError, match="ambiguous"):
        resolve_pay(tcp, "straight_flush")


@pytest.mark.parametrize("ref", ["main.hand.royal_flush", "main.ante_bonus.straight"])
def test_a_copy_with_one_pay_changed_changes_that_pay_only(ref: str) -> None:
    game = "mississippi-stud" if ".hand." in ref else "three-card-poker"
    table = resolve_table(game)
    copy = with_pay(table, ref, Fraction(7, 2))
    assert pay_value(copy.model, ref) == Fraction(7, 2)
    assert [pay_value(copy.model, r) for r in pay_refs(table.model) if r != ref] == \
        [pay_value(table.model, r) for r in pay_refs(table.model) if r != ref]
    # the same pay through pays= (the file's own keys, validated as the file): the same pays
    edited = with_pays(table, {ref: "7:2"})
    assert edited.model.pays == copy.model.pays  # type: ignore[attr-defined]


def _solved(game: str, deck: Deck, ref: str, edge: Fraction) -> tuple[Fraction, Analysis, Table]:
    session, options = analyzer(game, deck)
    table = resolve_table(game)
    solution = solve_pay(lambda t: session.analyze(t, options), table, ref, edge)
    copy = with_pay(table, ref, solution.pay)
    analysis = session.analyze(copy, options)
    # the printable pays bracket the asked edge: a larger pay gives the player more
    (lo, lo_edge), *rest = solution.printable
    assert lo <= solution.pay and lo_edge >= edge
    if rest:
        assert rest[0][0] > solution.pay and rest[0][1] < edge
    return solution.pay, analysis, copy


def test_a_streets_pay_solved_gives_the_edge_by_the_engine_and_by_the_brute_force() -> None:
    # a deck this small favours the player whatever two pair pays (-114% at 0:1, -318% at 1:1, -545% at 2:1, the
    # file's): ask for -200%, between 0:1 and 1:1
    edge = Fraction(-2)
    pay, analysis, copy = _solved("mississippi-stud", STREETS_DECK, "main.hand.two_pair", edge)
    assert analysis.wager("main").house_edge == edge
    main = copy.model.pays.main  # type: ignore[attr-defined]
    assert main.hand.two_pair == pay
    rows, won = streets_brute(STREETS_DECK, 2, [1, 2, 3], main.hand.pays(), parse_rank(main.pair_minimum),
                              parse_rank(main.push_pair_minimum))
    assert won / sum(rows.values()) == -edge


def test_an_ante_bonus_solved_gives_the_edge_by_the_engine_and_by_the_brute_force() -> None:
    # eight to ace favours the player: -25.1% with a straight paid 0:1, -33.4% at 1:1 (the file's); ask for -30%
    edge = Fraction(-3, 10)
    pay, analysis, copy = _solved("three-card-poker", DEALER_DECK, "main.ante_bonus.straight", edge)
    assert analysis.wager("main").house_edge == edge
    bonus = copy.model.pays.main.ante_bonus.pays()  # type: ignore[attr-defined]
    assert bonus["straight"] == pay
    main, _, won = stud_brute(DEALER_DECK, bonus, QUEEN_HIGH, {})
    assert won / sum(main.values()) == -edge


def test_solve_names_the_pays_of_a_game_file_on_one_line() -> None:
    result = CliRunner().invoke(main, ["solve", "mississippi-stud", "--pay", "ante_win", "--edge", "1%"])
    assert result.exit_code == EXIT_INPUT
    assert result.output.count("\n") == 1 and "main.hand.royal_flush" in result.output


@pytest.mark.deep
def test_solve_on_the_command_line_reaches_a_hand_pay() -> None:
    result = CliRunner().invoke(main, ["solve", "mississippi-stud", "--pay", "royal_flush", "--edge", "4%"])
    assert result.exit_code == 0, result.output
    assert "52669/43 to 1" in result.output  # checked by the engine's report of the copy, below
    session, options = analyzer("mississippi-stud", None)
    copy = with_pay(resolve_table("mississippi-stud"), "main.hand.royal_flush", Fraction(52669, 43))
    assert session.analyze(copy, options).wager("main").house_edge == Fraction(4, 100)


def test_the_workbench_writes_a_block_in_a_block_where_the_file_has_it() -> None:
    import tomllib

    from oddscalc.web.forms import edited_text

    text = edited_text(resolve_table("mississippi-stud"), {"main.hand.royal_flush": "1000:1"}, {})
    main = tomllib.loads(text)["pays"]["main"]
    assert main["hand"]["royal_flush"] == "1000:1" and "hand.royal_flush" not in main
