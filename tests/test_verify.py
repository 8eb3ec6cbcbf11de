"""`oddscalc verify`: published and claimed figures against the exact analysis."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from oddscalc.analysis import Session
from oddscalc.catalog import load_table, shipped_tables
from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_MISMATCH, EXIT_TABLE
from oddscalc.results import Analysis, Column, Row, RunOptions, Section, WagerResult
from oddscalc.tables import DIFFERS, Published
from oddscalc.verify import ERROR, MISMATCH, OK, check_figure, checks_for, figure_problems, parse_expected

ROOT = Path(__file__).resolve().parent.parent
LIR = ROOT / "tables" / "let-it-ride"
STANDARD = LIR / "standard.toml"


def run(*args: str) -> Result:
    r = CliRunner().invoke(main, ["verify", *args])
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r


def variant(tmp_path: Path, text: str, name: str = "x") -> Path:
    """A table file in a folder named after its game, as the loader expects."""
    p = tmp_path / "let-it-ride" / f"{name}.toml"
    p.parent.mkdir(exist_ok=True)
    p.write_text(text)
    return p


@pytest.fixture(scope="module")
def standard() -> Analysis:
    return Session("let-it-ride", RunOptions(brief=True)).analyze(load_table(STANDARD))


# --- through the CLI ------------------------------------------------------------------------


def test_shipped_let_it_ride_tables_hold() -> None:
    r = run(str(LIR))
    assert r.exit_code == 0, r.output
    assert "68 of 68 figure(s) hold in 4 table(s)" in r.output
    assert "let-it-ride/standard" in r.output and "house_edge_precise" in r.output
    assert "no [published] or [claimed] figures: let-it-ride/jacks-or-better" in r.output


@pytest.mark.parametrize("path", shipped_tables(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_shipped_published_block_holds(path: Path) -> None:
    # the one place the shipped [published] figures are asserted: each through verify's own checks
    table = load_table(path)
    checks = Session(table.game, RunOptions(brief=True)).analyze(table).checks
    assert all(c.verdict in (OK, DIFFERS) for c in checks), [c for c in checks if not c.ok]
    assert all(c.message for c in checks if c.verdict == DIFFERS)
    stated = sum(1 for b in ("published", "claimed") if getattr(table.model, b) is not None)
    assert bool(checks) == bool(stated)


def test_changed_figure_fails_naming_it(tmp_path: Path) -> None:
    p = variant(tmp_path, STANDARD.read_text().replace('house_edge = "7.10%"', 'house_edge = "7.20%"'))
    r = run(str(p))
    assert r.exit_code == EXIT_MISMATCH
    assert f"{p} [published.three_card_bonus] house_edge: expected 7.20%, computed 7.0950%" in r.output
    assert "MISMATCH" in r.output


@pytest.mark.parametrize("hands", [1607, 1609])
def test_exact_integer_off_by_one_fails(tmp_path: Path, hands: int) -> None:
    p = variant(tmp_path, STANDARD.read_text().replace("bet1_ride_hands = 1608", f"bet1_ride_hands = {hands}"))
    r = run(str(p))
    assert r.exit_code == EXIT_MISMATCH
    assert f"bet1_ride_hands: expected {hands}, computed 1608" in r.output


def test_claimed_return_to_player(tmp_path: Path) -> None:
    claim = '\n[claimed]\nsource = "a casino brochure"\n\n[claimed.main]\nreturn_to_player = "96.49%"\n'
    r = run(str(variant(tmp_path, STANDARD.read_text() + claim)))
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.output.splitlines() if " claimed " in ln)
    assert line.split() == [str(tmp_path / "let-it-ride" / "x.toml"), "claimed", "main", "return_to_player",
                            "96.49%", "96.4943%", "ok"]
    r = run(str(variant(tmp_path, STANDARD.read_text() + claim.replace("96.49%", "96.50%"))))
    assert r.exit_code == EXIT_MISMATCH and "[claimed.main] return_to_player" in r.output


def test_row_figures_as_nested_and_dotted_keys(tmp_path: Path) -> None:
    rows = ('\n[published.main.rows.royal_flush_3_bets]\ncombinations = 80\nprobability = "1/649740"\n'
            '\n[published.three_card_bonus.rows.pair]\ncombinations = 3744\n')
    r = run(str(variant(tmp_path, STANDARD.read_text() + rows)))
    assert r.exit_code == 0, r.output
    assert "rows.royal_flush_3_bets.probability" in r.output and "rows.pair.combinations" in r.output


def test_unknown_figure_is_a_failure_not_a_crash(tmp_path: Path) -> None:
    p = variant(tmp_path, STANDARD.read_text().replace("bet1_ride_hands = 1608", "bet1_ride_handz = 1608"))
    r = run(str(p))
    assert r.exit_code == EXIT_MISMATCH
    assert "unknown figure 'bet1_ride_handz' for wager 'main'; known:" in r.output
    assert "bet1_ride_hands" in r.output.split("known:")[1]  # the message lists the real names


def test_unknown_wager_and_figure_outside_a_wager(tmp_path: Path, standard: Analysis) -> None:
    text = STANDARD.read_text().replace('[published.three_card_bonus]', '[published.jackpot]')
    text = text.replace('source = "Wizard', 'house_edge = "3.5%"\nsource = "Wizard')
    path = variant(tmp_path, text)
    r = run(str(path))
    # refused as a bad table file when it is loaded, with the line of each key, not found wrong by the check
    assert r.exit_code == EXIT_TABLE
    head = text.splitlines().index("[published.jackpot]") + 1
    figure = text.splitlines().index('house_edge = "3.5%"') + 1
    assert (f"{path}:{head}: published.jackpot: no wager 'jackpot' in this table; wagers: main, three_card_bonus"
            in r.output)
    assert f"{path}:{figure}: published.house_edge: figure 'house_edge' is not under a wager: write it in " \
           "[published.<wager>]" in r.output
    # the check itself still says so for a table built past the file's validation
    table = load_table(STANDARD)
    model = table.model.model_copy(update={"published": Published.model_validate(
        {"source": "x", "jackpot": {"house_edge": "1%"}, "house_edge": "3.5%"})})
    checks = checks_for(dataclasses.replace(table, model=model), standard.wagers, "x")
    assert [c.verdict for c in checks] == [ERROR, ERROR]


def test_section_figures_by_row_and_column(tmp_path: Path, standard: Analysis) -> None:
    sec = Section("compared", "Compared", (Column("name", "Name"), Column("loss", "Loss", "int"), Column("note", "")),
                  (("a.b", 12, "x"), ("c", Fraction(1, 3), "y")))
    figures = ('\n[published.sections.compared]\n"a.b.loss" = 12\n"c.loss" = "0.34"\n"a.b.note" = 1\n'
               '"d.loss" = 1\n"c.lost" = 1\n\n[published.sections.missing]\n"c.loss" = 1\n')
    table = load_table(variant(tmp_path, STANDARD.read_text() + figures))
    got = {(c.wager, c.figure): c for c in checks_for(table, standard.wagers, "x", (sec,))
           if c.wager in ("sections.compared", "sections.missing")}
    assert [(k[1], c.verdict) for k, c in got.items()] == [
        ("a.b.loss", OK), ("c.loss", MISMATCH), ("a.b.note", ERROR), ("d.loss", ERROR), ("c.lost", ERROR),
        ("", ERROR)]
    assert got["sections.compared", "c.loss"].computed == "0.3333"
    assert "is not a number" in got["sections.compared", "a.b.note"].message
    assert "no row 'd' in section 'compared'; rows: a.b, c" in got["sections.compared", "d.loss"].message
    assert "a column of section 'compared': name, loss, note" in got["sections.compared", "c.lost"].message
    assert "no section 'missing' in this report; sections: compared" in got["sections.missing", ""].message


def test_a_stated_difference_shows_both_numbers_and_must_still_differ(tmp_path: Path) -> None:
    entry = ('\n[[published.differs]]\nwager = "main"\nfigure = "bet1_ride_hands"\npublished = {n}\n'
             'reason = "a misprint in the source"\n')
    r = run(str(variant(tmp_path, STANDARD.read_text() + entry.format(n=1609))))
    assert r.exit_code == 0, r.output
    assert "differs" in r.output and "the source says 1609, exactly 1608: a misprint in the source" in r.output
    r = run(str(variant(tmp_path, STANDARD.read_text() + entry.format(n=1608))))
    assert r.exit_code == EXIT_MISMATCH and "listed under differs but it holds" in r.output
    r = run(str(variant(tmp_path, STANDARD.read_text() + entry.format(n=1609).replace("reason", "why"))))
    # a malformed entry is a bad table file, refused when it is loaded
    assert r.exit_code == EXIT_TABLE and "has exactly the keys wager, figure, published, reason" in r.output


def test_a_stated_difference_in_a_report_section(tmp_path: Path) -> None:
    entry = ('\n[[published.differs]]\nwager = "sections.{sid}"\nfigure = "{row}.number"\npublished = {n}\n'
             'reason = "a misprint in the source"\n')
    row = "paying pair (tens or better)"
    for sid, n, code, said in (("bet1_holdings", 1441, 0, "the source says 1441, exactly 1440: a misprint"),
                               ("bet1_holdings", 1440, EXIT_MISMATCH, "listed under differs but it holds"),
                               ("bet3_holdings", 1441, EXIT_MISMATCH, "no section 'bet3_holdings' in this report")):
        r = run(str(variant(tmp_path, STANDARD.read_text() + entry.format(sid=sid, row=row, n=n))))
        assert r.exit_code == code and said in r.output, r.output


def test_bad_table_file_exits_3(tmp_path: Path) -> None:
    r = run(str(variant(tmp_path, STANDARD.read_text().replace('pair = "1:1"', 'pair = "x"', 1))))
    assert r.exit_code == EXIT_TABLE
    assert "bad ratio 'x'" in r.output


# --- comparison semantics ---------------------------------------------------------------------


def edge(numerator: int, denominator: int = 10**8) -> WagerResult:
    """A one-unit wager whose house edge is exactly numerator/denominator."""
    rows = (Row("loss", "Loss", "", Fraction(-1), numerator),
            Row("push", "Push", "", Fraction(0), denominator - numerator))
    return WagerResult("main", "Test", "none", denominator, rows)


@pytest.mark.parametrize("numerator,verdict", [
    (3_504_999, MISMATCH),  # 3.5049999%: just below 3.505%
    (3_505_000, OK),  # exactly half a unit below: inclusive
    (3_510_000, OK),
    (3_514_999, OK),
    (3_515_000, OK),
    (3_515_001, MISMATCH),
])
def test_rounded_percent_holds_within_half_a_unit(numerator: int, verdict: str) -> None:
    assert check_figure("t", "published", edge(numerator), "house_edge", "3.51%").verdict == verdict


@pytest.mark.parametrize("text,verdict", [
    ("0.0351", OK), ("0.03510", MISMATCH), ("351490/10000000", OK), ("351/10000", MISMATCH), ("3.51e-2", OK),
    ("-3.51%", MISMATCH),
])
def test_written_precision_decides(text: str, verdict: str) -> None:
    # house edge 3.5149%: rounds to 0.0351 but not to 0.03510
    assert check_figure("t", "published", edge(3_514_900), "house_edge", text).verdict == verdict


def test_precise_suffix_and_return_to_player() -> None:
    w = edge(3_514_900)
    assert check_figure("t", "claimed", w, "house_edge_precise", "3.5149%").ok
    assert check_figure("t", "claimed", w, "return_to_player", "96.4851%").ok
    assert check_figure("t", "claimed", w, "expected_value", "-351490/10000000").ok


def test_bare_event_is_its_combinations() -> None:
    w = edge(3_514_900)
    assert check_figure("t", "published", w, "loss", 3_514_900).ok
    assert check_figure("t", "published", w, "rows.loss.combinations", 3_514_900).ok
    assert not check_figure("t", "published", w, "loss", 3_514_901).ok
    assert check_figure("t", "published", w, "rows.loss.probability", "0.035149").ok
    c = check_figure("t", "published", w, "rows.win.combinations", 1)
    assert c.verdict == ERROR and c.message == "no event 'win' in wager 'main'; events: loss, push"


def test_standard_deviation_is_compared_exactly() -> None:
    # units +1 and -1 once each, and 0 twice: variance 1/2, SD sqrt(1/2) = 0.70710678...
    rows = (Row("win", "Win", "1:1", Fraction(1), 1), Row("loss", "Loss", "", Fraction(-1), 1),
            Row("push", "Push", "", Fraction(0), 2))
    w = WagerResult("main", "Test", "none", 4, rows)
    assert check_figure("t", "published", w, "variance", "1/2").ok
    assert check_figure("t", "published", w, "standard_deviation", "0.7071").ok
    assert check_figure("t", "published", w, "standard_deviation", "0.70710678").ok
    assert not check_figure("t", "published", w, "standard_deviation", "0.70710679").ok
    assert not check_figure("t", "published", w, "standard_deviation", "0.7072").ok
    assert not check_figure("t", "published", w, "standard_deviation", "-0.7071").ok


@pytest.mark.parametrize("value,message", [
    (0.0351, "not the float 0.0351"),
    (True, "not true/false"),
    ("about 3%", "not a number: 'about 3%'"),
    ("1/0", "not a number"),
])
def test_bad_values_are_errors(value: object, message: str) -> None:
    c = check_figure("t", "published", edge(1), "house_edge", value)
    assert c.verdict == ERROR and message in c.message


def test_element_of_risk_where_the_stake_cannot_vary(standard: Analysis) -> None:
    c = check_figure("t", "published", standard.wager("three_card_bonus"), "element_of_risk", "1%")
    assert c.verdict == ERROR and "not defined" in c.message
    assert check_figure("t", "published", standard.wager("main"), "element_of_risk", "2.865%").ok


@pytest.mark.parametrize("text,verdict", [("3.506%", OK), ("3.505%", MISMATCH), ("3.5057%", OK), ("3.5056%", MISMATCH)])
def test_rounding_on_the_real_house_edge(standard: Analysis, text: str, verdict: str) -> None:
    # exactly 3.50568...%
    assert check_figure("t", "published", standard.wager("main"), "house_edge", text).verdict == verdict


def test_parse_expected_intervals() -> None:
    e = parse_expected("3.51%")
    assert (e.low, e.high, e.places, e.percent) == (Fraction(3505, 100000), Fraction(3515, 100000), 2, True)
    assert parse_expected(1608).exact and parse_expected("1/3").low == Fraction(1, 3)
    assert parse_expected("51,979,200").low == Fraction(103958399, 2)


def test_figures_the_analysis_cannot_read_are_problems_of_the_file_with_their_lines(tmp_path: Path,
                                                                                      standard: Analysis) -> None:
    # what `validate` refuses so that `verify` never refuses it later: each ERROR check at its key and line
    extra = ('\n[published.three_card_bonus.rows.no_such_event]\ncombinations = 1\n'
             '\n[published.sections.no_such_section]\n"a.b" = 1\n')
    path = variant(tmp_path, STANDARD.read_text().replace('\n[published.main]\n', '\n[published.main]\nbogus = 1\n')
                   + extra)
    table = load_table(path)
    lines = path.read_text().splitlines()
    problems = figure_problems(table, checks_for(table, standard.wagers, "x", standard.sections))
    got = {p.key: (p.line, p.message) for p in problems}
    assert set(got) == {"published.main.bogus", "published.three_card_bonus.rows.no_such_event.combinations",
                        "published.sections.no_such_section"}
    assert got["published.main.bogus"][0] == lines.index("bogus = 1") + 1
    assert got["published.sections.no_such_section"][0] == lines.index("[published.sections.no_such_section]") + 1
    assert "unknown figure 'bogus'" in got["published.main.bogus"][1]
    assert "no event 'no_such_event'" in got["published.three_card_bonus.rows.no_such_event.combinations"][1]
    assert not figure_problems(load_table(STANDARD), checks_for(load_table(STANDARD), standard.wagers, "x",
                                                                 standard.sections))
