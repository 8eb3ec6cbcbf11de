"""The Python API as the README shows it: the README's example runs as a doctest, records and DataFrames; the public
functions of ``oddscalc.__all__`` (listing, rendering, compare, solve, check) and how they are loaded."""

from __future__ import annotations

import doctest
import subprocess
import sys
import tomllib
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pandas
import pytest
from click.testing import CliRunner

from oddscalc import analyze
from oddscalc.analysis import Session
from oddscalc.cli.main import main
from oddscalc.datafile import TableError
from oddscalc.games import GAMES
from oddscalc.protocol import OptionError
from oddscalc.results import RunOptions

ROOT = Path(__file__).resolve().parent.parent


def test_readme_example_runs() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8 and result.failed == 0


def test_records_and_frames_carry_the_exact_values(sessions: Callable[[str], Session]) -> None:
    a = sessions("let-it-ride").analyze(None)
    w = a.wager("three_card_bonus")
    records = w.records()
    assert [r["event"] for r in records] == [r.event for r in w.rows]
    assert sum(r["probability"] for r in records) == 1
    frame = w.to_frame()
    assert isinstance(frame, pandas.DataFrame) and len(frame) == len(w.rows)
    assert frame.loc[frame["event"] == "pair", "combinations"].item() == 3744
    assert frame["return"].sum() == w.expected_value == Fraction(-392, 5525)
    section = a.section("return_by_hand").to_frame()
    assert list(section.columns) == ["hand", "pays", "deals", "average_bets", "return"]
    assert section["deals"].sum() == a.wager("main").total_combinations
    assert section["return"].sum() == a.wager("main").expected_value  # exact Fractions in the frame too
    assert len(a.to_frame()) == sum(len(x.rows) for x in a.wagers)


def test_api_errors_are_the_cli_errors() -> None:
    with pytest.raises(TableError, match="no 'let-it-ride' table with this id"):
        analyze("let-it-ride", table="nonesuch")
    with pytest.raises(OptionError, match="--decks does not apply to let-it-ride"):
        analyze("let-it-ride", decks=2)
    with pytest.raises(OptionError, match="unknown game 'poker'"):
        analyze("poker")


def test_a_missing_id_lists_the_ids_there_are() -> None:
    a = analyze("caribbean", table="us")
    with pytest.raises(KeyError, match=r"no wager 'jackpots'; there are: main"):
        a.wager("jackpots")
    with pytest.raises(KeyError, match=r"no section 'x'; there are: .*closest_decisions"):
        a.section("x")


# --- the public functions (oddscalc.__all__, loaded from oddscalc.api on first use) ------------------------------

TABLES = ROOT / "tables"
PROFILES = ROOT / "profiles"


def test_importing_oddscalc_loads_none_of_the_api_until_asked() -> None:
    # the command line imports oddscalc first for its version: the renderers, the filing tools and the games wait
    code = ("import sys, oddscalc; before = sorted(m for m in sys.modules if m.startswith('oddscalc')); "
            "oddscalc.list_games; print(before, 'oddscalc.api' in sys.modules, 'oddscalc.report.html' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['oddscalc'] True False"


def test_every_public_name_is_documented_with_an_example() -> None:
    import oddscalc

    assert set(oddscalc.__all__) <= set(dir(oddscalc))
    for name in oddscalc.__all__:
        if name == "__version__":
            continue
        f = getattr(oddscalc, name)
        assert callable(f) and f.__doc__ and ">>> " in f.__doc__, name
    with pytest.raises(AttributeError, match="no attribute 'render_pdf'"):
        oddscalc.render_pdf  # noqa: B018


def test_list_tables_and_profiles_are_the_shipped_files() -> None:
    import oddscalc

    for game in oddscalc.list_games():
        titles = {p.stem: tomllib.loads(p.read_text(encoding="utf-8"))["title"] for p in (TABLES / game).glob("*.toml")}
        assert oddscalc.list_tables(game) == dict(sorted(titles.items()))
    assert oddscalc.list_profiles() == {p.stem: tomllib.loads(p.read_text(encoding="utf-8"))["title"]
                                        for p in sorted(PROFILES.glob("*.toml"))}
    with pytest.raises(OptionError, match="unknown game 'baccarat'"):
        oddscalc.list_tables("baccarat")


@pytest.mark.parametrize("game", ["let-it-ride", "caribbean", "punto-banco", "house-baccarat"])
def test_every_listed_strategy_is_one_the_game_takes(game: str) -> None:
    import oddscalc

    listed = oddscalc.list_strategies(game)
    session = Session(game)
    for name in listed:
        assert session.resolve(None, RunOptions(strategy=name)).table  # no OptionError
    if "strategy" in GAMES[game].options:
        with pytest.raises(OptionError, match="unknown strategy 'nonesuch'"):
            session.resolve(None, RunOptions(strategy="nonesuch"))
    # the house game's draw-A-B for 0 <= A <= B <= 7 are 36, beside optimal and optimal-total
    expected = {"let-it-ride": 1, "caribbean": 7, "punto-banco": 0, "house-baccarat": 2 + 36}
    assert len(set(listed)) == len(listed) == expected[game]


def test_render_writes_what_the_report_command_writes() -> None:
    import oddscalc

    a = oddscalc.analyze("punto-banco", table="standard")
    for fmt in ("md", "json", "csv"):
        r = CliRunner().invoke(main, ["report", "punto-banco", "--table", "standard", "--format", fmt],
                               env={"ODDSCALC_NO_REPLAY": "1"})
        assert r.exit_code == 0, r.output
        assert oddscalc.render(a, fmt) == r.output, fmt
    html = oddscalc.render(a, "html")
    assert html.startswith("<!DOCTYPE html>") and "Punto banco, 8 decks, 5% commission" in html
    with pytest.raises(OptionError, match="unknown format 'pdf'; one of: md, json, csv, html"):
        oddscalc.render(a, "pdf")


def test_compare_solve_and_check_refuse_what_the_command_line_refuses(tmp_path: Path) -> None:
    import oddscalc

    with pytest.raises(OptionError, match="compare needs at least two tables"):
        oddscalc.compare("punto-banco", ["standard"])
    with pytest.raises(OptionError, match="edge: not a number: 'five'"):
        oddscalc.solve("punto-banco", "tie.win", "five")
    with pytest.raises(OptionError, match="no pay 'jackpot'"):
        oddscalc.solve("punto-banco", "jackpot", "5%")
    a = oddscalc.analyze("punto-banco", table="standard")
    with pytest.raises(OptionError, match="no profile file or shipped profile 'nevada'; shipped: gli-11, "):
        oddscalc.check(a, "nevada")
    strict = tmp_path / "strict.toml"
    strict.write_text('title = "99% back"\nsource = "a test"\n\n[[rules]]\nrule = "minimum_return"\nminimum = "99%"\n'
                      'citation = "none"\n')
    verdicts = {r["wager"]: r["verdict"] for r in oddscalc.check(a, strict).records()}
    # the banker bet returns 98.94% of what is wagered (a 1.0579% house edge): under 99%
    assert verdicts["banker"] == "FAIL" and set(verdicts.values()) == {"FAIL"}
