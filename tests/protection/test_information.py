"""Information model files: read like tables (every problem with file, line and key; exit 3), checked against the
game's declaration, an id or a path never guessed between; and the glimpse command around them."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from oddscalc.catalog import tables_dir
from oddscalc.cli.main import main
from oddscalc.datafile import TableError
from oddscalc.protection.information import load_model, shipped_models

GOOD = '''game = "punto-banco"
title = "First card's group"
[[glimpse]]
position = "player_1"
shows = "group"
groups = [["6", "7", "8", "9"], ["A", "2", "3", "4", "5", "T", "J", "Q", "K"]]
'''


def _file(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "model.toml"
    p.write_text(text, encoding="utf-8")
    return p


def _problems(tmp_path: Path, text: str) -> str:
    with pytest.raises(TableError) as e:
        load_model(str(_file(tmp_path, text)), "punto-banco")
    assert e.value.what == "information model"
    return str(e.value)


def test_the_shipped_models_load_as_their_game() -> None:
    assert {"edge-sort-first-card", "edge-sort-first-four", "burn-card-seen"} <= set(shipped_models())
    for ident in shipped_models():
        model, digest = load_model(ident)
        assert model.id == ident and model.glimpses and len(digest) == 64
    four, _ = load_model("edge-sort-first-four", "punto-banco")
    assert [g.position for g in four.glimpses] == ["player_1", "banker_1", "player_2", "banker_2"]
    assert four.glimpses[0].sees("6") == 0 and four.glimpses[0].sees("K") == 1
    assert four.choices == ("player", "banker", "tie", "none") and "Jacobson" in four.source


def test_a_good_file_loads(tmp_path: Path) -> None:
    model, _ = load_model(str(_file(tmp_path, GOOD)))
    assert model.title == "First card's group" and model.choices == () and model.glimpses[0].before == ""


@pytest.mark.parametrize(("edit", "line", "said"), [
    (lambda t: t.replace('"player_1"', '"dealer_up"'), 4,
     "glimpse.0.position: 'dealer_up' is no position of punto-banco; its positions: player_1, banker_1, player_2, "
     "banker_2, burn"),
    (lambda t: t.replace('"5", ', ""), 6, "glimpse.0.groups: every rank in exactly one group: in none: 5"),
    (lambda t: t.replace('"6", "7"', '"6", "6", "7"'), 6, "in two groups: 6"),
    (lambda t: t.replace('"T"', '"10"'), 6, "not a rank: '10'"),
    (lambda t: t.replace('shows = "group"', 'shows = "card"'), 3, 'groups is for shows = "group"'),
    (lambda t: t.replace('shows = "group"', 'shows = "value"'), 5, "glimpse.0.shows"),
    (lambda t: t + 'before = "raise"\n', 7, "'raise' is no decision of punto-banco; its decisions: bet"),
    (lambda t: t + "colour = 1\n", 7, "glimpse.0.colour: unknown key"),
    (lambda t: t.replace('game = "punto-banco"', 'game = "blackjack"'), 1, "information models are for"),
    (lambda t: t + '[[glimpse]]\nposition = "player_1"\nshows = "rank"\n', 8, "seen twice"),
])
def test_every_problem_names_its_line_and_key(tmp_path: Path, edit: object, line: int, said: str) -> None:
    text = _problems(tmp_path, edit(GOOD))  # type: ignore[operator]
    assert said in text and f"model.toml:{line}:" in text, text


def test_a_model_for_another_game_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TableError, match="model.toml:1: game: this model is for punto-banco, not caribbean"):
        load_model(str(_file(tmp_path, GOOD)), "caribbean")


def test_every_problem_at_once(tmp_path: Path) -> None:
    text = _problems(tmp_path, GOOD.replace('"player_1"', '"seat_9"') + '[[glimpse]]\nposition = "burn"\nshows = '
                     '"rank"\nbefore = "later"\n')
    assert "seat_9" in text and "later" in text


def test_a_bad_group_and_a_bad_position_in_one_run(tmp_path: Path) -> None:
    """A shape problem (a rank in no group) and a problem the game's declaration decides (a position the game does
    not have, in another glimpse, and a decision it does not have) are reported together, each on its line."""
    text = _problems(tmp_path, GOOD.replace('"5", ', "") + '[[glimpse]]\nposition = "seat_9"\nshows = "rank"\n'
                     'before = "later"\n')
    assert "model.toml:6: glimpse.0.groups: every rank in exactly one group: in none: 5" in text, text
    assert "model.toml:8: glimpse.1.position: 'seat_9' is no position of punto-banco" in text, text
    assert "model.toml:10: glimpse.1.before: 'later' is no decision of punto-banco" in text, text
    assert text.index("glimpse.0.groups") < text.index("glimpse.1.position")  # in the file's order


def test_an_id_is_never_a_path_and_a_path_never_an_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("edge-sort-first-card").write_text("not toml [[[")  # a file named like an id is not read for the id
    model, _ = load_model("edge-sort-first-card")
    assert model.id == "edge-sort-first-card"
    with pytest.raises(TableError, match="no information model with this id; shipped: burn-card-seen"):
        load_model("no-such-model")
    assert (tables_dir() / "information" / "edge-sort-first-card.toml").is_file()


def _cli(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


def test_glimpse_reports_the_first_card_as_json() -> None:
    code, out = _cli("glimpse", "punto-banco", "--model", "edge-sort-first-card", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert {"glimpse_value", "glimpse_patterns"} <= set(data["sections"])
    ev = {r["figure"]: r["exact"] for r in data["sections"]["glimpse_value"]["rows"]}["ev_seen"]
    assert round(Fraction(ev), 5) == Fraction(6765, 100000)  # Jacobson's first card, to his three places


def test_glimpse_refuses_a_game_without_information_models_naming_those_with() -> None:
    code, out = _cli("glimpse", "three-card-poker", "--model", "edge-sort-first-card")
    assert code == 2 and "glimpse does not apply to 'three-card-poker'" in out
    assert all(game in out for game in ("punto-banco", "caribbean", "let-it-ride", "house-baccarat"))


def test_a_model_for_another_game_is_refused_naming_its_game() -> None:
    code, out = _cli("glimpse", "let-it-ride", "--model", "edge-sort-first-card")
    assert code == 3 and "punto-banco" in out and "Traceback" not in out


def test_a_bad_model_file_is_exit_3_and_a_missing_id_too(tmp_path: Path) -> None:
    code, out = _cli("glimpse", "punto-banco", "--model", str(_file(tmp_path, GOOD.replace('"T", ', ""))))
    assert code == 3 and "bad information model" in out and "in none: T" in out
    code, out = _cli("glimpse", "punto-banco", "--model", "nothing-here")
    assert code == 3 and out.count("\n") >= 1 and "shipped:" in out


def test_the_search_and_the_cost_at_the_table_limits(tmp_path: Path) -> None:
    table = tmp_path / "limits.toml"
    table.write_text((tables_dir() / "punto-banco" / "standard.toml").read_text(encoding="utf-8").split(
        "[published]")[0] + '[limits]\ncurrency = "EUR"\n[limits.bets.player]\nmin = 10\nmax = 1000\n'
        '[limits.bets.banker]\nmin = 10\nmax = 1000\n[limits.bets.tie]\nmin = 10\nmax = 100\n', encoding="utf-8")
    code, out = _cli("glimpse", "punto-banco", "--model", "edge-sort-first-card", "--table", str(table),
                     "--search-sorts", "2", "--format", "csv")
    assert code == 0, out
    assert "EUR" in out and "sort_search" in out and "6 7 8 9 | 0 1 2 3 4 5" in out


def test_sort_ranks_needs_the_search() -> None:
    code, out = _cli("glimpse", "punto-banco", "--model", "edge-sort-first-card", "--sort-ranks")
    assert code == 4 and "--sort-ranks widens --search-sorts N" in out, out


@pytest.mark.deep  # about 10 s: the first card's 1,023 value sorts and 1,024 splitting counts at 8 decks
def test_the_search_over_the_thirteen_ranks_lists_the_best_of_every_partition() -> None:
    code, out = _cli("glimpse", "punto-banco", "--model", "edge-sort-first-card", "--search-sorts", "3",
                     "--sort-ranks", "--format", "json")
    assert code == 0, out
    section = json.loads(out)["sections"]["sort_search"]
    assert "4,095 two-group partitions" in " ".join(section["intro"])
    rows = section["rows"]
    assert rows[0]["sort"] == "6 7 8 9 | A 2 3 4 5 T J Q K"  # the classic sort stays the best of the first card
    assert round(Fraction(rows[0]["ev_exact"]), 5) == Fraction(6765, 100000)


def test_the_hourly_cost_is_at_the_tables_own_pace_when_its_limits_state_one(tmp_path: Path) -> None:
    from oddscalc.catalog import tables_dir

    text = (tables_dir() / "punto-banco" / "standard.toml").read_text("utf-8")
    figures: dict[str, dict[str, Fraction]] = {}
    for name, limits in (("assumed", "[limits]\ncurrency = \"EUR\"\n"),
                         ("paced", "[limits]\ncurrency = \"EUR\"\nrounds_per_hour = 37\n")):
        path = tmp_path / f"{name}.toml"
        body = text.split("[published]")[0].split("[claimed]")[0]
        path.write_text(body + "\n" + limits + "[limits.bets]\nplayer = { min = 10, max = 500 }\n"
                        "banker = { min = 10, max = 500 }\ntie = { min = 5, max = 100 }\n", "utf-8")
        code, out = _cli("glimpse", "punto-banco", "--table", str(path), "--model", "edge-sort-first-card",
                         "--format", "json")
        assert code == 0, out
        section = json.loads(out)["sections"]["glimpse_value"]
        figures[name] = {r["figure"]: Fraction(r["exact"]) for r in section["rows"]}
        assert ("37 rounds an hour (the table's [limits] rounds_per_hour)" in " ".join(section["intro"])) == (
            name == "paced")
    for name, pace in (("assumed", 60), ("paced", 37)):
        assert figures[name]["cost_per_hour"] == pace * figures[name]["cost_per_coup"] > 0
    assert figures["assumed"]["cost_per_coup"] == figures["paced"]["cost_per_coup"]


@pytest.mark.parametrize(("model", "first"), [
    ("edge-sort-first-card", "With this glimpse the game favours the PLAYER: +6.7647% per coup"),
    ("burn-card-seen", "This glimpse gains the player nothing"),
])
def test_the_report_says_first_whether_the_glimpse_hands_the_game_to_the_player(model: str, first: str) -> None:
    code, out = _cli("glimpse", "punto-banco", "--model", model)
    assert code == 0, out
    body = [line for line in out.splitlines() if line and not line.startswith("#")]
    assert body[0].startswith(first), body[0]
