"""Symbolic pays, solving a pay for an edge, comparing tables."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.lir_brute import brute

from oddscalc.analysis import Session
from oddscalc.cards import reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_INPUT
from oddscalc.exact import frac_str
from oddscalc.filing.comparison import compare
from oddscalc.filing.paytools import (
    NoSolution,
    decision_flips,
    linear_ev,
    pay_value,
    solve_pay,
    symbolic_section,
    with_pay,
)
from oddscalc.games.caribbean.raise_table import STRATEGIES
from oddscalc.games.let_it_ride.count import PAYING
from oddscalc.report.tools import compare_text
from oddscalc.results import Analysis, RunOptions
from oddscalc.tables import Table

SMALL = reduced_deck("8", 2)
CAR = resolve_table("caribbean", "us")
STD = resolve_table("let-it-ride", "standard")


@functools.cache
def _session(game: str, strategy: str | None = None, small: bool = False) -> Session:
    # made on first use, inside the test run, so it reads the run's isolated store
    return Session(game, RunOptions(strategy=strategy, brief=True, deck=SMALL if small else None))


def small_caribbean(strategy: str = "optimal") -> Callable[[Table], Analysis]:
    """Caribbean on the reduced deck: one count shared by every pay table tried."""
    return _session("caribbean", strategy, small=True).analyze


def lir(t: Table | str) -> Analysis:
    return _session("let-it-ride").analyze(t)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["main.pair", "main.two_pair", "main.flush", "main.high_card", "main.straight"]),
       st.fractions(min_value=0, max_value=60, max_denominator=7))
def test_ev_is_linear_in_each_pay_with_the_strategy_fixed(ref: str, value: Fraction) -> None:
    run = small_caribbean("always-raise")
    base = run(CAR)
    lin = linear_ev(base.wager("main"), CAR.model)
    moved = run(with_pay(CAR, ref, value)).wager("main")
    values = {r: pay_value(CAR.model, r) for r in lin.coefficients}
    values[ref] = value
    assert moved.expected_value == lin.at(values)


def test_symbolic_section_matches_the_exact_ev() -> None:
    a = lir(STD)
    sec = symbolic_section(a)
    sens = {(r["wager"], r["pay"]): r["sensitivity"] for r in sec.records()}
    assert {w for w, _ in sens} == {"main", "three_card_bonus"}
    # royal flush always with three bets: 80 deals of 51,979,200, three units per unit of pay
    assert sens[("main", "main.royal_flush")] == -Fraction(80 * 3, 51_979_200)
    assert sens[("three_card_bonus", "three_card_bonus.pair")] == -Fraction(3744, 22100)
    assert any(line.startswith("main: EV = ") for line in sec.intro)


def test_optimal_ev_is_at_least_every_named_strategy_on_any_pay() -> None:
    t = with_pay(CAR, "main.high_card", Fraction(3))
    assert CAR.model.published is not None and t.model.published is None  # stated for the shipped pays only
    evs = {s: small_caribbean(s)(t).wager("main").expected_value
           for s in STRATEGIES}
    assert all(evs["optimal"] >= v for v in evs.values())


def test_solve_hits_the_target_exactly_and_report_agrees(tmp_path: Path) -> None:
    target = Fraction(3, 100)
    sol = solve_pay(lir, STD, "main.full_house", target)
    assert sol.steps[-1].house_edge == target
    # check by re-running report on a table file that carries the solved pay
    text = STD.path.read_text()
    text = re.sub(r'^full_house = "11:1"', f'full_house = "{sol.pay.numerator}:{sol.pay.denominator}"', text,
                  count=1, flags=re.M)
    folder = tmp_path / "let-it-ride"
    folder.mkdir()
    (folder / "solved.toml").write_text(text)
    r = CliRunner().invoke(main, ["report", "let-it-ride", "--table", str(folder / "solved.toml"), "--format", "json"])
    assert r.exit_code == 0, r.output
    main_wager = next(w for w in json.loads(r.output)["wagers"] if w["wager"] == "main")
    assert Fraction(main_wager["house_edge"]) == target
    lo, hi = sol.printable
    assert lo[0] < sol.pay < hi[0] and lo[1] > target > hi[1]


def test_solve_re_solves_the_strategy() -> None:
    sol = solve_pay(small_caribbean(), CAR, "main.high_card", Fraction(-6, 5))
    assert sol.steps[-1].house_edge == Fraction(-6, 5)
    assert any(f.points for s in sol.steps for f in s.flips)  # raising more ace-king hands on the way


def test_solve_refuses_unreachable_edges() -> None:
    with pytest.raises(NoSolution, match="even a pay of 0"):
        solve_pay(lir, STD, "main.royal_flush", Fraction(1, 2))
    r = CliRunner().invoke(main, ["solve", "let-it-ride", "--pay", "flush", "--edge", "2%"])
    assert r.exit_code == EXIT_INPUT and "ambiguous" in r.output
    r = CliRunner().invoke(main, ["solve", "let-it-ride", "--pay", "main.flush", "--edge", "lots"])
    assert r.exit_code == EXIT_INPUT and "not a number" in r.output


def test_compare_names_differences_and_flips() -> None:
    a = lir(STD)
    b = lir("jacks-or-better")
    text = compare_text(compare([a, b]))
    assert "| rules.min_pair | pair of tens | pair of jacks |" in text
    assert "| pair_3_bets | 2,569,332 | 2,050,704 |" in text
    flips = {f.name: f for f in decision_flips(a.decisions, b.decisions)}
    # the pair of tens stops paying, so a three-card pair of tens no longer rides: 6 suit pairs x 48 kickers,
    # each dealt 49 x 48 ways (points are suit patterns; combinations count the deals)
    assert flips["bet1"].combinations >= 288 * 49 * 48 and flips["bet1"].points >= 1
    assert all(": yes -> no" in e for e in flips["bet1"].examples)


def test_compare_shows_a_side_bets_rules_as_a_table_file_says_them() -> None:
    r = CliRunner().invoke(main, ["compare", "punto-banco", "standard", "ez-baccarat"])
    assert r.exit_code == 0, r.output
    assert "| pays.dragon_7.rules | (none) | Banker wins with a three-card 7: 40:1 |" in r.output
    assert "Rule(" not in r.output and "Fraction(" not in r.output


# 8 to ace in two suits (the suite's, 14 cards): royals, a pair of tens and one of jacks all occur, ten rows or more
# change; three suits (9 or 8 to ace) are deep
@pytest.mark.parametrize("low,suits", [("8", 2), pytest.param("9", 3, marks=pytest.mark.deep),
                                       pytest.param("8", 3, marks=pytest.mark.deep)], ids=["8-2", "9-3", "8-3"])
def test_compare_changed_rows_are_each_tables_brute_force_counts(low: str, suits: int) -> None:
    """The rows a comparison says change are, table by table, the deals a plain brute force counts on a reduced
    deck (each bet decided from the plain average of its outcomes): the rows left out are those it counts alike."""
    deck = reduced_deck(low, suits)
    session = Session("let-it-ride", RunOptions(deck=deck, brief=True))
    names = ("standard", "jacks-or-better", "royal-500")
    tables = [resolve_table("let-it-ride", n) for n in names]
    plain = []
    for t in tables:
        pays = {c: getattr(t.model.pays.main, c.value) for c in PAYING}  # type: ignore[attr-defined]
        tally = brute(deck, pays, {"tens": 8, "jacks": 9}[t.model.rules.min_pair])  # type: ignore[attr-defined]
        event = {"loss": "lose"}  # the brute force's losing class is the report's lose_<n>_bet(s) rows
        plain.append({f"{event.get(k, k)}_{b}_bet{'s' if b > 1 else ''}": n for (k, b), n in tally.items()})
    events = sorted(set().union(*plain))
    want = {(e, *(p.get(e, 0) for p in plain)) for e in events if len({p.get(e, 0) for p in plain}) > 1}
    section = next(s for s in compare([session.analyze(t) for t in tables]).sections()
                   if s.id == "changed_rows_main")
    assert set(section.rows) == want and len(want) >= 10  # the pair rows and those the strategy's flips move


def test_compare_same_table_has_no_differences() -> None:
    a = lir(STD)
    text = compare_text(compare([a, a]))
    assert "None: the tables play and pay the same." in text
    assert "| bet1 | A to B | 0 | 0 |  |" in text and "Every row has the same combinations." in text


def test_compare_any_number_of_tables_in_every_format(tmp_path: Path) -> None:
    import io
    import json

    import openpyxl
    from pypdf import PdfReader

    args = ["compare", "let-it-ride", "standard", "jacks-or-better", "royal-500"]
    data = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).output)
    assert [t["id"] for t in data["tables"]] == ["standard", "jacks-or-better", "royal-500"]
    figures = {r["figure"]: r for r in data["sections"]["figures_main"]["rows"]}
    edge = {t: lir(t).wager("main").house_edge for t in ("standard", "jacks-or-better", "royal-500")}
    assert figures["House edge"]["C"] == frac_str(edge["royal-500"])
    assert figures["House edge"]["C_minus_A"] == frac_str(edge["royal-500"] - edge["standard"])
    assert {tuple(r.values()) for r in data["sections"]["differences"]["rows"]} == {
        ("pays.main.royal_flush", "1000:1", "1000:1", "500:1"), ("rules.min_pair", "pair of tens", "pair of jacks",
                                                                 "pair of tens")}
    csv_text = CliRunner().invoke(main, [*args, "--format", "csv"]).output
    assert f"figures_main,1,C,{frac_str(edge['royal-500'])},3.7365%" in csv_text  # the house edge, exact and shown
    assert f"figures_main,1,C_minus_A,{frac_str(edge['royal-500'] - edge['standard'])},'+0.2309%" in csv_text
    assert "stakes_main,0,A," in csv_text and "Average stake" not in str(data["sections"]["figures_main"])
    for fmt in ("xlsx", "pdf", "html"):
        out = tmp_path / f"compare.{fmt}"
        assert CliRunner().invoke(main, [*args, "--format", fmt, "-o", str(out)]).exit_code == 0
    book = openpyxl.load_workbook(out.with_suffix(".xlsx"))
    assert "section figures_main" in [c.value for c in book["main - figures"][1]]  # a readable name, its id beside
    pdf_text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(out.with_suffix(".pdf").read_bytes())).pages)
    assert "3.7365%" in pdf_text and "royal-500" in pdf_text
    r = CliRunner().invoke(main, ["compare", "let-it-ride", "standard"])
    assert r.exit_code == EXIT_INPUT and "at least two tables" in r.output
