"""House baccarat strategy cards: each feature against a plain reading of the rule over the 44 compositions,
the shipped cards against the strategies they say they are, refusals naming file, line and key, and
``seats --others CARD`` giving the same figures as the strategy named another way."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from oddscalc.analysis import Session
from oddscalc.cli.main import main
from oddscalc.datafile import TableError
from oddscalc.games.house_baccarat import card as draw_card
from oddscalc.games.house_baccarat.count import SeatCounter
from oddscalc.games.house_baccarat.settle import solve
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS, Strategy
from oddscalc.results import RunOptions
from oddscalc.seats.proof.checkpoint import Checkpoint
from oddscalc.seats.search import strategy_of

CARDS = Path(__file__).resolve().parents[3] / "cards" / "house-baccarat"
HEAD = 'card = "house-baccarat"\ntitle = "a test card"\n'


def _card(tmp_path: Path, body: str) -> Strategy:
    path = tmp_path / "card.toml"
    path.write_text(HEAD + body)
    return _played(path)


def _played(path: Path) -> Strategy:
    card = draw_card.load_card(path)
    return Strategy.of(draw_card.name(card), draw_card.draws(card))


def _drawn(s: Strategy) -> set[tuple[int, int]]:
    return {c for c in COMPOSITIONS if s.matrix[c]}


def test_each_feature_draws_where_a_plain_reading_of_the_rule_does(tmp_path: Path) -> None:
    played = _card(tmp_path, """otherwise = "stand"
[[rules]]
label = "a pair of fives stands"
when = { holds_all = [5, "5"] }
action = "stand"
[[rules]]
label = "total 5 with a picture or a ten draws"
when = { total = 5, holds_any = ["K", "T"] }
action = "draw"
[[rules]]
label = "an ace and a two, or an ace and a three"
when = { holds_all = "A", holds_any = [2, 3] }
action = "draw"
[[rules]]
label = "pairs totalling 0, 2, 4 or 6 draw"
when = { pair = true, total = [0, 2, 4, 6] }
action = "draw"
""")
    plain = set()
    for u, w in COMPOSITIONS:  # the rules as a player reads them, first match wins
        total = (u + w) % 10
        if (u, w) == (5, 5):
            continue
        if total == 5 and 0 in (u, w):
            plain.add((u, w))
        elif 1 in (u, w) and ({u, w} & {2, 3}):
            plain.add((u, w))
        elif u == w and total in (0, 2, 4, 6):
            plain.add((u, w))
    assert _drawn(played) == plain
    assert plain == {(0, 5), (1, 2), (1, 3), (0, 0), (1, 1), (2, 2), (3, 3), (6, 6), (7, 7), (8, 8)}


def test_the_shipped_cards_are_the_strategies_they_name(sessions: Callable[[str], Session]) -> None:
    assert draw_card.COMPOSITIONS == COMPOSITIONS  # the card decides what a strategy of the game is
    rule = _played(CARDS / "punto-banco-rule.toml")
    assert rule.matrix.tolist() == Strategy.by_totals("draw-0-5", range(6)).matrix.tolist()
    s = sessions("house-baccarat")
    counter = s.counts(s.resolve("seed", RunOptions(decks=8, players=1)))
    assert isinstance(counter, SeatCounter)
    lone = _played(CARDS / "lone-seat.toml")
    assert lone.matrix.tolist() == solve(counter, 1, counter.rules.pay, "optimal").strategy.matrix.tolist()
    card = _played(CARDS / "six-seats-common.toml").matrix.tolist()
    assert all(_proof(seats)[1].matrix.tolist() == card for seats in (6, 7))  # seven seats' best is six seats'


def _proof(seats: int) -> tuple[Fraction, Strategy]:
    """The EV per seat and the strategy of the proof of ``seats`` seats kept in proofs/ (finished)."""
    kept = Checkpoint(CARDS.parents[1] / "proofs" / f"house-baccarat-{seats}-seats.checkpoint", {}).read()
    assert kept is not None
    problem, _, state = kept
    assert state.done and problem["players"] == seats and problem["shoe"] == [128] + [32] * 9
    return Fraction(state.best[0], int(problem["unit"])), strategy_of(state.best[1], "proven")


@pytest.mark.deep
@pytest.mark.parametrize(("seats", "shown"), [(6, "+11.0172%"), (7, "+11.8779%")])
def test_seats_playing_the_proven_card_get_what_the_proof_kept(seats: int, shown: str) -> None:
    """The six- and seven-seat proofs' best common strategy, played from its card by the report (the seats' own
    counts and the report's settle, not the search's sums), gives each seat exactly the EV each proof kept on 8
    decks. Cold: two evaluations of the other seats, some 15 s with six, 70 s with seven."""
    ev, _ = _proof(seats)
    r = CliRunner().invoke(main, ["report", "house-baccarat", "--players", str(seats), "--strategy",
                                  str(CARDS / "six-seats-common.toml"), "--format", "json", "--no-cache"])
    assert r.exit_code == 0, r.output
    main_wager = json.loads(r.output)["wagers"][0]
    assert main_wager["wager"] == "main" and Fraction(main_wager["expected_value"]) == ev
    assert f"{float(ev):+.4%}" == shown


@pytest.mark.parametrize(("body", "line", "said"), [
    ('[[rules]]\nwhen = { total = [0, 1] }\naction = "draw"\n[[rules]]\nwhen = { total = 0 }\naction = "stand"\n',
     6, "rules.1: rule 2 is never reached"),
    ('[[rules]]\nwhen = { total = [0, 8] }\naction = "draw"\n', 4, "rules.0.when: total: 8 and 9 are naturals"),
    ('[[rules]]\nwhen = { total = [0, 1] }\naction = "draw"\n', 3,
     "rules: no rule decides some holdings, e.g. 0 and 2"),
    ('otherwise = "stand"\n[[rules]]\nwhen = { holds_any = ["Z"] }\naction = "draw"\n', 5, "'Z' is not a card"),
    ('otherwise = "stand"\n[[rules]]\nwhen = { pair = 1 }\naction = "draw"\n', 5, "pair is true or false"),
    ('otherwise = "stand"\n[[rules]]\nwhen = { suited = true }\naction = "draw"\n', 5, "unknown feature 'suited'"),
    ('otherwise = "fold"\n[[rules]]\nwhen = { total = 0 }\naction = "draw"\n', 3, "otherwise"),
    ("rules = []\n", None, "at least one rule"),  # the whole card: no line
])
def test_a_bad_card_is_refused_with_its_file_line_and_key(tmp_path: Path, body: str, line: int | None,
                                                           said: str) -> None:
    with pytest.raises(TableError) as e:
        _card(tmp_path, body)
    where = f"{tmp_path / 'card.toml'}" + ("" if line is None else f":{line}")
    assert f"{where}: " in str(e.value) and said in str(e.value), str(e.value)
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--players", "2", "--decks", "1", "--others",
                                  str(tmp_path / "card.toml")])
    assert r.exit_code == 3 and said in r.output and "Traceback" not in r.output, r.output


@pytest.mark.parametrize("players", [2, pytest.param(3, marks=pytest.mark.deep)])  # a third seat: twice the time
def test_the_others_playing_a_card_give_the_figures_of_the_strategy_it_names(tmp_path: Path, players: int,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from oddscalc.seats import game as seat_game

    # the rows compared are the best reply's (reply_sections); the equilibria's sections, the same for either
    # --others and checked by tests/seats/test_seat_game.py, are not searched again here
    monkeypatch.setattr(seat_game, "sections", lambda *args, **kw: [])

    def rows(others: str) -> list[str]:
        r = CliRunner().invoke(main, ["seats", "house-baccarat", "--players", str(players), "--decks", "1",
                                      "--others", others])
        assert r.exit_code == 0, r.output
        return [line.split("|", 2)[2] for line in r.output.splitlines() if "; this seat " in line]

    card = rows(str(CARDS / "lone-seat.toml"))
    assert len(card) == 2 and card == rows("alone")  # along and best reply: on 1 deck too, a lone seat draws on 0-2
    (tmp_path / "x.toml").write_text("not toml [")
    r = CliRunner().invoke(main, ["seats", "house-baccarat", "--players", "2", "--others", str(tmp_path / "x.toml")])
    assert r.exit_code == 3 and "x.toml" in r.output and "Traceback" not in r.output


def test_a_report_played_by_a_card_is_the_report_of_the_strategy_it_names(tmp_path: Path) -> None:
    def figures(strategy: str) -> list[str]:
        r = CliRunner().invoke(main, ["report", "house-baccarat", "--decks", "1", "--players", "2", "--strategy",
                                      strategy, "--no-cache"])
        assert r.exit_code == 0, r.output
        said = [line.split("a player's EV is")[1] for line in r.output.splitlines() if "a player's EV is" in line]
        rows = [line for line in r.output.splitlines() if line.startswith("| ") and "punto-banco" not in line
                and "draw-0-5" not in line]  # the rows that do not name the strategy
        assert len(said) == 1 and len(rows) > 20
        return said + rows

    assert figures(str(CARDS / "punto-banco-rule.toml")) == figures("draw-0-5")
    (tmp_path / "bad.toml").write_text(HEAD + '[[rules]]\nwhen = { total = 9 }\naction = "draw"\n')
    r = CliRunner().invoke(main, ["report", "house-baccarat", "--strategy", str(tmp_path / "bad.toml")])
    assert r.exit_code == 3 and "bad.toml:4: rules.0.when" in r.output and "Traceback" not in r.output, r.output
