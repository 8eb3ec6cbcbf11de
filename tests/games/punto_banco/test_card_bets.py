"""Side bets on the cards (``card_conditions``, ``card_count``): random condition lists declared as data equal a
plain brute force over every ordered deal of a small shoe; the shipped bets on the cards reproduce their published
figures; bad conditions are refused with file, line and key."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracles.baccarat_cards_brute import Deal, deals
from oracles.baccarat_cards_brute import settle as brute_settle
from pydantic import ValidationError

from oddscalc.analysis import Session
from oddscalc.cli.main import main
from oddscalc.games.punto_banco.card_count import count_conditions
from oddscalc.games.punto_banco.coup_features import Cards
from oddscalc.games.punto_banco.game import TableRules
from oddscalc.games.punto_banco.side_bets import SideBet, card_rule_lines

ROOT = Path(__file__).resolve().parents[3]
# Eight physical cards, a nine and a ten twice over (so depletion within a class is exercised), both colours.
SHOE = [("9", "d"), ("9", "d"), ("9", "s"), ("T", "h"), ("T", "h"), ("K", "c"), ("5", "d"), ("A", "s")]
DEALS: list[Deal] = list(deals(SHOE))
POSITIONS = ["player1", "player2", "player3", "banker1", "banker2", "banker3"]


@pytest.fixture(scope="module")
def session(sessions: Callable[[str], Session]) -> Session:
    return sessions("punto-banco")


def _engine(bet: SideBet) -> Counter[str]:
    copies = Counter((r, "cdhs".index(s)) for r, s in SHOE)
    counts, patterns = count_conditions(Cards.from_cards(dict(copies)).copies, TableRules(), False,
                                        bet.card_conditions())
    lines, flat = card_rule_lines(bet, counts, patterns)
    out: Counter[str] = Counter()
    for ln in lines:
        n = int(flat[ln.mask].sum()) if ln.mask.any() else 0
        if n:
            out[ln.event] += n
    return out


@st.composite
def conditions(draw: st.DrawFn) -> dict[str, Any]:
    cards = draw(st.lists(st.sampled_from(POSITIONS), min_size=1, max_size=4, unique=True))
    out: dict[str, Any] = {"cards": cards}
    kind = draw(st.sampled_from(["ranks", "values", "suits", "colours", None]))
    if kind == "ranks":
        out["ranks"] = draw(st.lists(st.sampled_from(["9", "10", "K", "5", "A", "Q"]), min_size=1, max_size=2,
                                     unique=True))
    elif kind == "values":
        out["values"] = draw(st.lists(st.sampled_from([0, 1, 5, 9]), min_size=1, max_size=2, unique=True))
    elif kind == "suits":
        out["suits"] = draw(st.lists(st.sampled_from(["clubs", "diamonds", "hearts", "spades"]), min_size=1,
                                     max_size=2, unique=True))
    elif kind == "colours":
        out["colours"] = [draw(st.sampled_from(["red", "black"]))]
    how = draw(st.sampled_from(["all", "count", "at_least"]))
    if how != "all":
        out[how] = draw(st.integers(0, len(cards)))
    same = draw(st.sampled_from([None, "rank", "suit", "colour"]))
    if same:
        out["same"] = same
    return out


WHEN: st.SearchStrategy[dict[str, Any]] = st.one_of(
    st.just({}), st.fixed_dictionaries({"winner": st.sampled_from(["player", "banker", "tie"])}),
                 st.fixed_dictionaries({"player_cards": st.sampled_from([2, 3])}),
                 st.fixed_dictionaries({"natural": st.booleans()}),
                 st.fixed_dictionaries({"banker_total": st.lists(st.integers(0, 9), min_size=1, max_size=4,
                                                                 unique=True)}))


@st.composite
def rule_lists(draw: st.DrawFn) -> list[dict[str, Any]]:
    rules = []
    for i in range(draw(st.integers(1, 3))):
        rule: dict[str, Any] = {"event": f"e{i}", "pays": f"{i + 1}:1",
                                "cards_when": draw(st.lists(conditions(), min_size=1, max_size=2))}
        when = draw(WHEN)
        if when:
            rule["when"] = when
        rules.append(rule)
    return rules


def _check(rules: list[dict[str, Any]]) -> None:
    try:
        bet = SideBet.model_validate({"title": "t", "rules": rules, "otherwise": {"event": "lose"}})
    except ValidationError:
        assume(False)  # a condition that can never hold is refused when the table loads
        return
    want = brute_settle(DEALS, rules)
    assert +want == _engine(bet)
    assert sum(want.values()) == math.perm(len(SHOE), 6)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(rule_lists())
def test_random_condition_lists_equal_the_brute_force(rules: list[dict[str, Any]]) -> None:
    _check(rules)


@pytest.mark.deep
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(rule_lists())
def test_many_random_condition_lists_equal_the_brute_force(rules: list[dict[str, Any]]) -> None:
    _check(rules)


@pytest.mark.parametrize("rules", [
    # the third cards: a banker's third card is the fifth or the sixth card dealt
    [{"event": "b3", "pays": "5:1", "cards_when": [{"cards": ["banker3"], "values": [9]}]},
     {"event": "p3", "pays": "2:1", "cards_when": [{"cards": ["player3", "banker3"], "same": "colour"}]}],
    # the first four by suit, nines counted, as the shipped Lucky Nines
    [{"event": "two", "pays": "8:1", "cards_when": [{"cards": POSITIONS[:2] + POSITIONS[3:5], "ranks": ["9"],
                                                     "count": 2, "same": "suit"}]},
     {"event": "one", "pays": "1:1", "cards_when": [{"cards": POSITIONS[:2] + POSITIONS[3:5], "ranks": ["9"],
                                                     "at_least": 1}]}],
])
def test_named_condition_lists_equal_the_brute_force(rules: list[dict[str, Any]]) -> None:
    _check(rules)


@pytest.mark.parametrize("table", ["lucky-nines", "perfect-9"])
def test_shipped_bets_on_the_cards_reproduce_their_published_figures(session: Session, table: str) -> None:
    a = session.analyze(table)
    assert a.checks and all(c.verdict == "ok" for c in a.checks), [c for c in a.checks if c.verdict != "ok"]
    assert {w.total_combinations for w in a.wagers} == {math.perm(416, 6)}


def test_a_table_without_bets_on_the_cards_keeps_its_count_key(session: Session) -> None:
    assert "card_bets" not in session.resolve("dragon-bonus").count_key()
    assert "card_bets" in session.resolve("lucky-nines").count_key()


def _variant(tmp_path: Path, old: str, new: str) -> Result:
    text = (ROOT / "tables" / "punto-banco" / "lucky-nines.toml").read_text()
    assert old in text
    path = tmp_path / "punto-banco" / "variant.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text.replace(old, new, 1))
    return CliRunner().invoke(main, ["report", "punto-banco", "--table", str(path)])


FOUR = 'cards = ["player1", "player2", "banker1", "banker2"], ranks = ["9"], count = 4'


@pytest.mark.parametrize("old,new,message", [
    (FOUR, FOUR.replace("player1", "player4"), "cards: 'player4' is not one of player1,"),
    (FOUR, FOUR.replace("count = 4", "count = 5"), "count = 5 is not 0 to the 4 card(s) named"),
    (FOUR, FOUR.replace('"9"', '"X"'), "ranks: 'X' is not one of 2, 3,"),
    (FOUR, FOUR + ", values = [0]", "no card passes this filter"),
    (FOUR, FOUR + ", same = \"shade\"", "same"),
    (FOUR, FOUR + ", colour = [\"red\"]", "colour: unknown key"),
    (FOUR, FOUR.replace("count = 4", "count = 4, at_least = 1"), "give count (exactly) or at_least, not both"),
])
def test_bad_card_conditions_name_file_line_and_key(tmp_path: Path, old: str, new: str, message: str) -> None:
    r = _variant(tmp_path, old, new)
    assert r.exit_code == 3, r.output
    assert message in r.output and "Traceback" not in r.output, r.output
    assert re.search(r"variant\.toml:\d+: pays\.lucky_nines\.rules", r.output), r.output


def test_card_conditions_are_for_side_bets_and_say_how_to_write_a_pair(tmp_path: Path) -> None:
    r = _variant(tmp_path, '[pays.tie]\nwin = "8:1"',
                 '[pays.tie]\nwin = "8:1"\n\n[[pays.tie.rules]]\nevent = "nines"\npays = "9:1"\n'
                 'when = { winner = "tie" }\ncards_when = [{ cards = ["player1"], ranks = ["9"] }]')
    assert r.exit_code == 3 and re.search(r"variant\.toml:\d+: pays\.tie\.rules\.0\.cards_when: unknown key",
                                          r.output), r.output
    r = _variant(tmp_path, 'event = "four_nines"', 'event = "four_nines"\nwhen = { player_pair = true }')
    assert r.exit_code == 3 and "write player_pair as a card condition" in r.output, r.output


def test_a_condition_list_too_fine_to_count_is_refused_when_the_table_loads(tmp_path: Path) -> None:
    every = '["player1", "player2", "player3", "banker1", "banker2", "banker3"]'
    r = _variant(tmp_path, f"cards_when = [{{ {FOUR} }}]",
                 f'cards_when = [{{ cards = {every}, same = "rank" }}, {{ cards = {every}, same = "suit" }}]')
    assert r.exit_code == 3, r.output
    found = re.search(r"variant\.toml:\d+: pays\.lucky_nines: .*card sequences \(at most 8,000,000\)", r.output)
    assert found, r.output


def test_the_ev_of_a_bet_on_the_cards_from_the_full_shoe_is_the_reports(session: Session) -> None:
    from oddscalc.games.punto_banco.ev import shoe_ev, value_wagers
    from oddscalc.games.punto_banco.game import PuntoBancoRules

    rules = session.resolve("perfect-9")
    assert isinstance(rules, PuntoBancoRules)
    ev = {w.wager: w.expected_value for w in shoe_ev(rules, rules.cards)}
    assert ev["perfect_9"] == session.analyze("perfect-9").wager("perfect_9").expected_value
    assert value_wagers(rules)[1] == ["perfect_9"]  # a shoe by value cannot settle it
