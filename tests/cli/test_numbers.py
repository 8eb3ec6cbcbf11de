"""Numbers from files and options are bounded and finite before any work: a clear error, never a hang or a trace."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from oracles.children import Ran, run_in_one_child

from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_INPUT, EXIT_TABLE

ROOT = Path(__file__).resolve().parents[2]


def _table(tmp_path: Path, game: str, shipped: str, old: str, new: str) -> Path:
    text = (ROOT / "tables" / game / f"{shipped}.toml").read_text()
    assert old in text
    path = tmp_path / game / "t.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text.replace(old, new, 1))
    return path


OUT_OF_BOUNDS = {
    "punto-banco-decks": ("punto-banco", "standard", "decks = 8", "decks = 10000000",
                          "rules.decks: a shoe has 1 to 10,000 decks"),
    "house-baccarat-decks": ("house-baccarat", "seed", "decks = 8", "decks = 10000000",
                             "rules.decks: Input should be less than or equal"),
    "punto-banco-commission": ("punto-banco", "standard", 'commission = "5%"', 'commission = "1e-999999999%"',
                               "pays.banker.commission"),
}


@pytest.fixture(scope="module")
def out_of_bounds_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    # in a child process with a time limit: a hang is a failure, not a stuck suite (one child for every case)
    lines = {case: ["validate", str(_table(tmp_path_factory.mktemp(case), *edit[:4]))]
             for case, edit in OUT_OF_BOUNDS.items()}
    return run_in_one_child(lines, timeout=60 * len(lines))


@pytest.mark.parametrize("case", sorted(OUT_OF_BOUNDS))
def test_a_number_out_of_bounds_in_a_table_is_a_bad_table(out_of_bounds_run: dict[str, Ran], case: str) -> None:
    said = OUT_OF_BOUNDS[case][4]
    r = out_of_bounds_run[case]
    assert r.code == EXIT_TABLE, r.stderr
    assert said in r.stderr and "Traceback" not in r.stderr and r.raised is None, (r.stderr, r.raised)


@pytest.mark.parametrize("args", [
    ["counting", "punto-banco", "--wager", "banker", "--trigger", "nan"],
    ["counting", "punto-banco", "--wager", "banker", "--trigger", "inf"],
    ["solve", "caribbean", "--table", "us", "--pay", "royal_flush", "--edge", "1e-999999999"],
    ["hold", "caribbean", "--stake", "main=1e999999999"],
    ["flash", "caribbean", "--dealer-cards", "\u0663"],  # Python's int() reads Arabic-Indic 3 (found by the fuzzer)
    ["counting", "punto-banco", "--wager", "banker", "--trigger", "\u0663"],
    ["simulate", "punto-banco", "-n", "\uff11\uff10"],  # full-width 10
    ["counting", "punto-banco", "--seed", "-1"],
    ["collusion", "caribbean", "--seed", "99999999999999999999999999"],
])
def test_an_option_that_is_no_usable_number_is_refused(args: list[str]) -> None:
    r = CliRunner().invoke(main, args)
    assert r.exit_code in (2, EXIT_INPUT), r.output
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit)


def test_a_stake_given_twice_is_refused_not_overwritten() -> None:
    r = CliRunner().invoke(main, ["hold", "caribbean", "--stake", "main=5", "--stake", "main=10"])
    assert r.exit_code == EXIT_INPUT and "the stake on main is given twice" in r.output


def test_a_card_of_more_rules_than_an_int8_counts_is_read(tmp_path: Path) -> None:
    rule = '[[rules]]\nlabel = "Pair or better {i}"\nwhen = { hand = "pair" }\naction = "raise"\n'
    card = tmp_path / "many.toml"
    card.write_text('card = "caribbean"\ntitle = "Many rules"\notherwise = "fold"\n'
                    + "".join(rule.replace("{i}", str(i)) for i in range(143)))
    r = CliRunner().invoke(main, ["report", "caribbean", "--table", "us", "--strategy", str(card)])
    # the second rule can never decide (the first took every pair): a bad card, said plainly
    assert r.exit_code == EXIT_TABLE and "Pair or better 1 is never reached" in r.output, r.output
    assert "Traceback" not in r.output
