"""The house baccarat's information models, one seat: every figure against a brute force over every ordered deal of
a ten-card shoe (tests/oracles/house_glimpse_brute.py), the honest EV against the game's own one-seat figure on
eight decks, the shipped models through the command line, and refusals."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from oracles.house_glimpse_brute import brute

from oddscalc.cli.main import main
from oddscalc.games.house_baccarat import count as hb
from oddscalc.games.house_baccarat.settle import best_by_composition, seat_ev
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.house_baccarat.table import SHEET_TABLEAU
from oddscalc.games.shoe import Shoe
from oddscalc.protection.glimpse import Glimpse, Model
from oddscalc.protection.information import load_model
from oddscalc.protection.information_house import answer
from oddscalc.protocol import OptionError

SMALL = ["A", "2", "3", "5", "6", "7", "8", "9", "T", "K"]  # ten cards: value 0 twice, by two ranks
HIGH = [["6", "7", "8", "9"], ["A", "2", "3", "4", "5", "T", "J", "Q", "K"]]
TENS_APART = [["T", "A", "2", "3"], ["4", "5", "6", "7", "8", "9", "J", "Q", "K"]]  # splits value 0: T from K


def _model(seen: dict[str, list[list[str]] | str]) -> Model:
    glimpses = tuple(Glimpse(p, "card", (), "draw") if how == "value" else
                     Glimpse(p, "group", tuple(frozenset(g) for g in how), "draw") for p, how in seen.items())
    return Model("test", "test", "house-baccarat", glimpses)


@pytest.mark.parametrize(("seen", "on_0_5"), [
    ({"next_card": HIGH}, False),
    ({"house_1": "value"}, False),
    ({"next_card": "value", "house_2": TENS_APART}, False),
    ({"next_card": TENS_APART}, True),
    ({"next_card": HIGH, "house_1": HIGH, "house_2": "value"}, True),
])
def test_every_figure_matches_the_brute_force(seen: dict[str, list[list[str]] | str], on_0_5: bool) -> None:
    b = brute(SMALL, seen, on_0_5)
    a = answer({r: SMALL.count(r) for r in set(SMALL)}, _model(seen), SHEET_TABLEAU,
               "on-0-5" if on_0_5 else "never", Fraction(1))
    assert a.rounds == b.rounds == 10 * 9 * 8 * 7 * 6 * 5
    assert (a.ev, a.honest) == (Fraction(b.ev, b.rounds), Fraction(b.honest, b.rounds))
    assert a.changed == b.changed
    assert sum(row[-1] for row in a.by_seen) == a.changed


def test_the_brute_force_sees_something() -> None:
    """The small shoe is not degenerate: seeing the next card's value changes decisions and is worth something."""
    b = brute(SMALL, {"next_card": "value"})
    assert b.ev > b.honest and b.changed > 0


def test_honest_ev_is_the_games_own_one_seat_figure() -> None:
    model, _ = load_model("house-baccarat-next-card-group", "house-baccarat")
    a = answer({r: 32 for r in "A23456789TJQK"}, model, SHEET_TABLEAU, "never", Fraction(1))
    sc = hb.seat_counts(Shoe.of_decks(8), 1, Strategy.by_totals("stand", []), SHEET_TABLEAU, "never", False)
    assert a.honest == seat_ev(sc, best_by_composition(sc, Fraction(1)), Fraction(1))
    assert a.rounds == sc.total
    assert a.ev > a.honest


def test_the_shipped_models_through_the_command_line() -> None:
    result = CliRunner().invoke(main, ["glimpse", "house-baccarat", "--model", "house-baccarat-house-card-seen"])
    assert result.exit_code == 0, result.output
    assert "ONE seat" in result.output and "favours the PLAYER" in result.output


def test_a_position_the_game_does_not_have_is_refused_with_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "house-baccarat"\ntitle = "x"\n\n[[glimpse]]\nposition = "player_1"\nshows = "card"\n')
    result = CliRunner().invoke(main, ["glimpse", "house-baccarat", "--model", str(bad)])
    assert result.exit_code == 3
    assert "bad.toml:5: " in result.output and "next_card" in result.output and "glimpse.0.position" in result.output


def test_a_suit_glimpse_is_refused() -> None:
    with pytest.raises(OptionError, match="tells nothing"):
        answer({r: 1 for r in SMALL}, Model("s", "s", "house-baccarat", (Glimpse("next_card", "suit"),)),
               SHEET_TABLEAU, "never", Fraction(1))


def test_several_seats_are_refused(tmp_path: Path) -> None:
    seed = Path(__file__).resolve().parents[2] / "tables" / "house-baccarat" / "seed.toml"
    two = tmp_path / "two.toml"
    two.write_text(seed.read_text().replace("players = 1", "players = 2"))
    result = CliRunner().invoke(main, ["glimpse", "house-baccarat", "--model", "house-baccarat-house-card-seen",
                                       "--table", str(two)])
    assert result.exit_code == 4
    assert result.output.startswith("oddscalc: ") and "one seat" in result.output


def test_the_cost_at_the_tables_limits(tmp_path: Path) -> None:
    """Per round and per hour at the table's smallest and largest bet: the model's value times the bet (times the
    stated pace), read from the exact value the report gives."""
    seed = Path(__file__).resolve().parents[2] / "tables" / "house-baccarat" / "seed.toml"
    limited = tmp_path / "limited.toml"
    limited.write_text(seed.read_text().replace("[pays.main]", '[limits]\ncurrency = "EUR"\nrounds_per_hour = 40\n\n'
                                                '[limits.bets]\nmain = { min = 10, max = 500 }\n\n[pays.main]'))
    result = CliRunner().invoke(main, ["glimpse", "house-baccarat", "--model", "house-baccarat-house-card-seen",
                                       "--table", str(limited), "--format", "json"])
    assert result.exit_code == 0, result.output
    sections = json.loads(result.output)["sections"]
    ev = {r["play"]: Fraction(r["ev_exact"]) for r in sections["information_value"]["rows"]}
    value = ev["what the model is worth"]
    assert value == ev["with the model: One house card seen before the draw"] - ev["honest optimal play (one seat)"]
    rows = {r["bet"]: r for r in sections["information_cost"]["rows"]}
    assert Fraction(rows["table minimum 10 EUR"]["per_round"]) == value * 10
    assert Fraction(rows["table maximum 500 EUR"]["per_hour"]) == value * 500 * 40
