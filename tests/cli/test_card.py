"""``oddscalc card``: the command line of the card synthesiser (on a 14-card deck, so that it runs in seconds):
the card file it writes loads with the game's loader and costs, played by the report, what the command said; it
never overwrites an input; every format; bad bounds are one line with exit 4; games that do not synthesise are
refused from their declarations. The full-deck run (within 0.05%, checked by ``oddscalc report --strategy``) is a
deep test."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import oddscalc.cli.card as card_command
from oddscalc.cards import reduced_deck
from oddscalc.cli.main import main
from oddscalc.cli.options import EXIT_INPUT, open_session
from oddscalc.games import DECLARED
from oddscalc.games.caribbean.card import load_card

EXIT_USAGE = 2
DECK = reduced_deck("8", 2)
BASE = ["card", "caribbean", "--table", "us", "--most-rules", "3"]


@pytest.fixture(autouse=True)
def small_deck(monkeypatch: pytest.MonkeyPatch, _isolated_cache: None) -> Iterator[None]:
    def session(game: str, *args: Any, **kwargs: Any) -> Any:
        if game == "house-baccarat":  # its shoe is small enough as it is; the seats as asked
            return open_session(game, players=kwargs.get("players"))
        return open_session(game, deck=DECK, players=kwargs.get("players"))

    monkeypatch.setattr(card_command, "open_session", session)
    yield


def run(args: list[str]) -> tuple[int, str]:
    r = CliRunner().invoke(main, args)
    assert "Traceback" not in r.output and (r.exception is None or isinstance(r.exception, SystemExit)), r.output
    return r.exit_code, r.output


def _report_cost(path: Path) -> Fraction:
    a = open_session("caribbean", str(path), brief=False, deck=DECK).analyze("us")
    return sum((c for c in a.section("strategy_card_cost").column("cost") if isinstance(c, Fraction)), Fraction(0))


def test_the_written_card_loads_and_costs_what_the_command_says(tmp_path: Path) -> None:
    out_path = tmp_path / "synth.toml"
    code, out = run([*BASE, "--within", "5%", "--format", "json", "-o", str(out_path)])
    assert code == 0, out
    data = json.loads(out)
    claimed = Fraction(data["sections"]["synthesised_card"]["rows"][-1]["cost"]) + sum(
        Fraction(r["cost"]) for r in data["sections"]["synthesised_card"]["rows"][:-1])
    card = load_card(out_path)
    assert card.model.card == "caribbean" and card.model.title.startswith("Synthesised:")
    assert "oddscalc card caribbean --table us --within 5%" in card.model.source
    assert _report_cost(out_path) == claimed <= Fraction(5, 100)
    rules = data["sections"]["card_frontier"]["rows"]
    assert any(r["source"] == "optimal" and r["cost"] == "0" for r in rules)


@pytest.mark.parametrize("fmt", ["md", "csv"])
def test_every_format(fmt: str) -> None:
    code, out = run([*BASE, "--within", "5%", "--format", fmt])
    assert code == 0 and "card_frontier" in out or "Frontier" in out, out


def test_the_card_never_overwrites_the_table(tmp_path: Path) -> None:
    table = tmp_path / "mine.toml"
    from oddscalc.catalog import tables_dir

    table.write_bytes((tables_dir() / "caribbean" / "us.toml").read_bytes())
    before = table.read_bytes()
    code, out = run(["card", "caribbean", "--table", str(table), "--within", "5%", "--most-rules", "3", "-o",
                     str(table)])
    assert code == EXIT_INPUT and "a file this command reads" in out
    assert table.read_bytes() == before


@pytest.mark.parametrize("bound", ["x", "-1%", "101%", "1/0", "1e999999999", "nan"])
def test_a_bad_bound_is_one_line_with_exit_4(bound: str) -> None:
    code, out = run([*BASE, "--within", bound])
    assert code == EXIT_INPUT and out.startswith("oddscalc: --within") and out.count("\n") == 1, out


def test_no_card_within_the_bound_says_so(tmp_path: Path) -> None:
    out_path = tmp_path / "none.toml"
    code, out = run([*BASE, "--within", "0", "-o", str(out_path)])
    assert code == EXIT_INPUT and "no card found within 0" in out and not out_path.exists()


def test_games_that_do_not_synthesise_are_refused_from_their_declarations() -> None:
    refused = [key for key, c in DECLARED.items() if c.synthesis is None]
    for key in refused:
        code, out = run(["card", key, "--within", "1%"])
        assert code == EXIT_USAGE and "card does not apply to" in out, out


def test_the_house_baccarat_with_two_seats_states_the_equilibrium_it_is_costed_against(tmp_path: Path) -> None:
    """``--players 2``: the reference is the equilibrium the other seat plays, in the output and in the card file
    (whose source gives the command with its seats); a game without seats refuses the option in one line."""
    out_path = tmp_path / "two.toml"
    code, out = run(["card", "house-baccarat", "--players", "2", "--within", "0.01%", "--format", "json", "-o",
                     str(out_path)])
    assert code == 0, out
    data = json.loads(out)["sections"]
    reference = "the symmetric equilibrium of 2 seats reached by best replies"
    assert any(reference in line for line in data["synthesised_card"]["intro"])
    assert data["card_frontier"]["rows"][-1]["source"] == "equilibrium"
    text = " ".join(out_path.read_text(encoding="utf-8").replace("\n# ", " ").split())
    assert reference in text and "--players 2 --within 0.01%" in text
    from oddscalc.games.house_baccarat.card import load_card as load_draw_card

    assert load_draw_card(out_path).model.title.startswith("Synthesised: ")
    code, out = run([*BASE, "--within", "1%", "--players", "2"])
    assert code == EXIT_INPUT and out == "oddscalc: --players does not apply to caribbean\n", out
