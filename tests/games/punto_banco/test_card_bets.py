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


def _engine(bet: SideBet, shoe: list[tuple[str, str]] = SHOE) -> Counter[str]:
    copies = Counter((r, "cdhs".index(s)) for r, s in shoe)
    counts, patterns = count_conditions(Cards.from_cards(dict(copies)).copies, TableRules(), False,
                                        bet.card_conditions())
    lines, flat = card_rule_lines(bet, counts, patterns)
    out: Counter[str] = Counter()
    for ln in lines:
        n = int(flat[ln.mask].sum()) if ln.mask.any() else 0
        if n:
            out[ln.event] += n
    return out


THREE_CLASSES = ["royal_flush", "straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card"]
FOUR_CLASSES = ["four_of_a_kind", *THREE_CLASSES[:3], "flush", "straight", "two_pair", "pair", "high_card"]


@st.composite
def conditions(draw: st.DrawFn) -> dict[str, Any]:
    if draw(st.integers(0, 3)) == 0:  # the poker class of three or four named cards, maybe with a filter
        cards = draw(st.lists(st.sampled_from(POSITIONS), min_size=3, max_size=4, unique=True))
        classes = THREE_CLASSES if len(cards) == 3 else FOUR_CLASSES
        out: dict[str, Any] = {"cards": cards}
        if draw(st.booleans()):
            out["hand"] = draw(st.lists(st.sampled_from(classes), min_size=1, max_size=3, unique=True))
        else:
            out["hand_at_least"] = draw(st.sampled_from([*classes, "pair of 9", "pair of 10", "pair of A"]))
        if draw(st.booleans()):
            out["suits"] = draw(st.lists(st.sampled_from(["c", "d", "h", "s"]), min_size=1, max_size=2, unique=True))
            out["at_least"] = draw(st.integers(0, len(cards)))
        return out
    cards = draw(st.lists(st.sampled_from(POSITIONS), min_size=1, max_size=4, unique=True))
    out = {"cards": cards}
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


@pytest.mark.parametrize("kinds", [[2], [2, 2], [3], [3, 2], [3, 3], [4]])
def test_rank_repeats_over_every_card_equal_the_brute_force(kinds: list[int]) -> None:
    """``kinds`` over all six positions (the pass that reads every slot, as the shipped Lucky Match): how often
    ranks repeat among the cards dealt, most first, at least; and among the nines, tens and fives only."""
    every = {"cards": POSITIONS, "at_least": 4, "kinds": kinds}
    _check([{"event": "all", "pays": "2:1", "cards_when": [every]},
            {"event": "some", "pays": "1:1", "cards_when": [{**every, "ranks": ["9", "10", "5"], "at_least": 0}]}])


def test_bad_kinds_are_refused() -> None:
    for kinds, message in (([2, 3], "most first"), ([1], "each 2 or more"), ([4, 3], "needs 7 cards; 6 are named")):
        with pytest.raises(ValidationError, match=re.escape(message)):
            SideBet.model_validate({"title": "t", "rules": [{"event": "x", "pays": "1:1", "cards_when": [
                {"cards": POSITIONS, "kinds": kinds}]}], "otherwise": {"event": "lose"}})


FIRST_FOUR = ["player1", "banker1", "player2", "banker2"]
FILLER = "5c 9d 2s 3c"  # low cards, so the player often draws a third
EXAMPLES3 = {"royal_flush": "Ah Kh Qh", "straight_flush": "Kh Qh Jh", "three_of_a_kind": "Jh Jc Jd",
             "straight": "Ah Kc Qh", "flush": "Ah Kh 2h", "pair": "Ah Ad Kc", "high_card": "Ah Kc 8d"}
EXAMPLES = {  # a hand of each class, dealt among seven cards (7P6 = 5,040 ordered deals)
    "four_of_a_kind": "Jh Jc Jd Js", "royal_flush": "Ah Kh Qh Jh", "straight_flush": "Kh Qh Jh Th",
    "three_of_a_kind": "Jh Jc Jd Ks", "flush": "Ah Kh Qh 2h", "straight": "Ah Kc Qh Jh", "two_pair": "Ah Ad Kc Ks",
    "pair": "Ah Ad Kc 6s", "high_card": "Ah Kc 8d 6s"}


def _shoe(text: str) -> list[tuple[str, str]]:
    return [(c[0], c[1]) for c in text.split()]


def _same_as_brute(rules: list[dict[str, Any]], shoe: list[tuple[str, str]]) -> Counter[str]:
    bet = SideBet.model_validate({"title": "t", "rules": rules, "otherwise": {"event": "lose"}})
    want = brute_settle(deals(shoe), rules)
    assert _engine(bet, shoe) == +want
    return want


@pytest.mark.parametrize(("cards", "name"), [*((POSITIONS[:3], c) for c in THREE_CLASSES),
                                             *((FIRST_FOUR, c) for c in FOUR_CLASSES)])
def test_each_hand_class_equals_the_brute_force(cards: list[str], name: str) -> None:
    """The player's three (three-card ranking) or the first four cards (four-card ranking) on a small shoe that
    deals a hand of the class: one rule per class (disjoint, so first match wins changes nothing), each class's
    ordered deals equal to the brute force's, which ranks the cards by its own code; the class happens."""
    classes = THREE_CLASSES if len(cards) == 3 else FOUR_CLASSES
    example = (EXAMPLES3 if len(cards) == 3 else EXAMPLES)[name].split()
    shoe = _shoe(" ".join(example) + " " + " ".join(FILLER.split()[:7 - len(example)]))
    want = _same_as_brute([{"event": c, "pays": "1:1", "cards_when": [{"cards": cards, "hand": c}]}
                           for c in classes], shoe)
    assert want[name] > 0, want


@pytest.mark.parametrize("cards", [POSITIONS[:3], FIRST_FOUR])
def test_hand_at_least_equals_the_brute_force(cards: list[str]) -> None:
    """Thresholds best first, so first match wins cuts the deals into bands, each equal to the brute force's
    (a pair of jacks or better but no pair of aces among them)."""
    classes = THREE_CLASSES if len(cards) == 3 else FOUR_CLASSES
    lows = [*classes[1:-2], "pair of A", "pair of J", "pair"]
    want = _same_as_brute([{"event": f"at_least_{i}", "pays": "1:1",
                            "cards_when": [{"cards": cards, "hand_at_least": low}]} for i, low in enumerate(lows)],
                          _shoe("Ah Ad Jh Jc Kh Qh Th"))
    assert want[f"at_least_{len(lows) - 2}"] > 0, want


@pytest.mark.parametrize(("cond", "message"), [
    ({"cards": POSITIONS[:2], "hand": "pair"}, "hand and hand_at_least read three or four cards, not 2"),
    ({"cards": POSITIONS[:5], "hand": "flush"}, "not 5 (five or six"),
    ({"cards": POSITIONS[:3], "hand": "two_pair"}, "3 cards are never a two_pair"),
    ({"cards": POSITIONS[:4], "hand_at_least": "full_house"}, "4 cards are never a full_house"),
    ({"cards": POSITIONS[:4], "hand": "five_of_a_kind"}, "not a hand class: 'five_of_a_kind'"),
])
def test_bad_hand_conditions_are_refused(cond: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(message)):
        SideBet.model_validate({"title": "t", "rules": [{"event": "x", "pays": "1:1", "cards_when": [cond]}],
                                "otherwise": {"event": "lose"}})


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
    (FOUR, FOUR + ', hand = "full_house"', "4 cards are never a full_house"),
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
