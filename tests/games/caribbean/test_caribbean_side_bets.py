"""Side bets over the cards of a Caribbean Stud deal, declared as data: random rule lists equal a plain brute force
over every deal of a reduced deck; the shipped ones reproduce their published counts; bad files are refused with
the key."""

from __future__ import annotations

import functools
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.poker_side_brute import CARIBBEAN, brute, caribbean_deals, side_bet_data
from pydantic import ValidationError

from oddscalc.cards import Deck, reduced_deck
from oddscalc.games.caribbean.table import CaribbeanSideBet
from oddscalc.games.poker_side_count import count_side_bet, total_deals

SIZES = {"player": 5, "dealer_up": 1, "dealer_hole": 4, "dealer": 5}
DECK = reduced_deck("T", 2)  # 10 cards: 1,260 deals (the named test below deals 12 cards in 3 suits)


@functools.cache
def _deals(deck: Deck) -> list[dict[str, tuple[int, ...]]]:
    return list(caribbean_deals(deck))


def _engine(data: dict[str, Any], deck: Deck) -> Counter[str]:
    sc = count_side_bet(CaribbeanSideBet.model_validate(data), deck)
    assert sum(sc.counts) == sc.total == total_deals(CaribbeanSideBet.model_validate(data), deck)
    return Counter({e: n for e, n in zip(sc.events, sc.counts, strict=True) if n})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_rule_lists_equal_the_brute_force(data: st.DataObject) -> None:
    bet = data.draw(st.composite(lambda draw: side_bet_data(draw, SIZES, DECK))())
    assert _engine(bet, DECK) == brute(bet["rules"], "nothing", CARIBBEAN, _deals(DECK))


def test_a_5_plus_1_bet_on_a_reduced_deck_equals_the_brute_force() -> None:
    """Named tests of every kind once (suits named, so no suit symmetry; the dealer's whole hand read)."""
    deck = reduced_deck("J", 3)
    rules: list[dict[str, Any]] = [
        {"event": "royal", "cards_when": {"cards": ["player", "dealer_up"], "hand": "royal_flush"}, "pays": "1000:1"},
        {"event": "red_up_trips", "cards_when": [{"cards": ["player", "dealer_up"], "hand_at_least": "three_of_a_kind"},
                                          {"cards": ["dealer_up"], "colours": "red"}], "pays": "10:1"},
        {"event": "dealer_pair", "cards_when": {"cards": ["dealer"], "hand_at_least": "pair of queens"}, "pays": "1:1"},
        {"event": "hole_suited", "cards_when": {"cards": ["dealer_hole"], "same": "suit"}, "pays": "push"},
        {"event": "hearts_up", "cards_when": {"cards": "dealer_up", "suits": ["h"]}, "pays": 2}]
    bet = {"title": "t", "rules": rules}
    assert _engine(bet, deck) == brute(rules, "lose", CARIBBEAN, _deals(deck))


@pytest.mark.parametrize(("when", "message"), [
    ({"cards": ["dealer_upcard"], "ranks": "A"}, "unknown position 'dealer_upcard'"),
    ({"cards": ["dealer_up"], "hand": "pair"}, "hand needs at least three cards"),
    ({"cards": ["dealer_hole"], "hand_at_least": "flush"}, "hand_at_least reads the best five cards"),
    ({"cards": ["player"], "hand": "five_of_a_kind"}, "not a hand class"),
    ({"cards": ["player"], "ranks": "Z"}, "not a rank"),
    ({"cards": ["player"], "suits": "x"}, "not a suit"),
    ({"cards": ["player"]}, "needs a test besides cards"),
    ({"cards": ["player"], "hand": "pair", "eval": "1"}, "Extra inputs are not permitted"),
])
def test_bad_conditions_are_refused(when: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        CaribbeanSideBet.model_validate({"title": "t", "rules": [{"event": "x", "cards_when": when, "pays": "1:1"}]})


def test_a_bad_side_bet_in_a_table_file_names_file_line_and_key(tmp_path: Path) -> None:
    from oddscalc.catalog import load_table, tables_dir
    from oddscalc.datafile import TableError

    text = (tables_dir() / "caribbean" / "us.toml").read_text()
    text = text.split("[published]")[0] + ('\n[pays.bonus]\ntitle = "b"\n\n[[pays.bonus.rules]]\nevent = "x"\n'
                                           'cards_when = [{ cards = ["community1"], ranks = "A" }]\npays = "1:1"\n')
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(TableError) as e:
        load_table(path)
    shown = str(e.value)
    assert "bad.toml" in shown and "pays.bonus" in shown and "unknown position 'community1'" in shown
    line = text.splitlines().index("[pays.bonus]") + 1
    assert f":{line}" in shown or f"line {line}" in shown, shown


def test_a_bet_reading_too_many_cards_is_refused_before_counting() -> None:
    """The player's five and the dealer's five with a suit named: C(52,5) x 47 x C(46,4) deals, not enumerable."""
    from oddscalc.cards import FULL_DECK
    from oddscalc.protocol import OptionError

    bet = CaribbeanSideBet.model_validate({"title": "t", "rules": [
        {"event": "x", "cards_when": {"cards": ["player", "dealer"], "suits": ["h", "d"]}, "pays": "1:1"}]})
    with pytest.raises(OptionError, match=r"reads 10 cards .*more than the 2,000,000,000 counted here"):
        count_side_bet(bet, FULL_DECK)


def test_the_old_when_key_is_refused_naming_cards_when(tmp_path: Path) -> None:
    """Before issue 45 a poker rule wrote its card conditions as ``when``; both games now write ``cards_when``.
    The old key is refused (not read, not ignored) with file, line and key, naming the new key; exit 3."""
    from click.testing import CliRunner

    from oddscalc.catalog import load_table, tables_dir
    from oddscalc.cli.main import main
    from oddscalc.datafile import TableError

    text = (tables_dir() / "caribbean" / "five-plus-one.toml").read_text()
    old = text.replace("cards_when = [{ cards = [\"player\", \"dealer_up\"], hand = \"flush\" }]",
                       "when = { cards = [\"player\", \"dealer_up\"], hand = \"flush\" }")
    assert old != text
    path = tmp_path / "old.toml"
    path.write_text(old)
    with pytest.raises(TableError) as e:
        load_table(path)
    shown = str(e.value)
    line = old.splitlines().index("when = { cards = [\"player\", \"dealer_up\"], hand = \"flush\" }") + 1
    assert f"old.toml:{line}" in shown, shown
    assert "pays.five_plus_one.rules.4.when" in shown and "cards_when" in shown, shown
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 3 and "cards_when" in result.output and "Traceback" not in result.output


def test_count_and_at_least_read_the_cards_passing_the_filter() -> None:
    """The punto banco meaning of count / at_least / same, on a poker deal: the player's five with exactly two
    hearts, with at least three red cards of one rank (impossible: two red suits), and every card a heart, on a
    24-card deck (six ranks, so six hearts)."""

    bet = CaribbeanSideBet.model_validate({"title": "t", "rules": [
        {"event": "three_red_alike", "cards_when": {"cards": "player", "colours": "red", "at_least": 3,
                                                    "same": "rank"}, "pays": "1:1"},
        {"event": "two_hearts", "cards_when": {"cards": "player", "suits": "h", "count": 2}, "pays": "1:1"},
        {"event": "all_hearts", "cards_when": {"cards": "player", "suits": "h"}, "pays": "1:1"}]})
    sc = count_side_bet(bet, reduced_deck("9", 4))
    per_player = 19 * math.comb(18, 4)  # the dealer's cards, whatever the player's five
    got = dict(zip(sc.events, sc.counts, strict=True))
    assert got["three_red_alike"] == 0
    assert got["two_hearts"] == math.comb(6, 2) * math.comb(18, 3) * per_player
    assert got["all_hearts"] == math.comb(6, 5) * per_player
    with pytest.raises(ValidationError, match="count = 6 is more than the 5 card"):
        CaribbeanSideBet.model_validate({"title": "t", "rules": [
            {"event": "x", "cards_when": {"cards": "player", "suits": "h", "count": 6}, "pays": "1:1"}]})
    with pytest.raises(ValidationError, match="count .exactly. or at_least, not both"):
        CaribbeanSideBet.model_validate({"title": "t", "rules": [
            {"event": "x", "cards_when": {"cards": "player", "suits": "h", "count": 1, "at_least": 1},
             "pays": "1:1"}]})
