"""Caribbean Stud strategy cards: the shipped cards equal the named strategies they write down, a
card's decisions equal a plain reading of its rules hand by hand, its cost adds up to the published
totals, and a bad card is refused with file, line and key."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from oddscalc.analysis import Session
from oddscalc.cards import RANK_CHARS, reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.cli.main import main
from oddscalc.datafile import TableError
from oddscalc.games.caribbean.card import HANDS, Card, RaiseCard, load_card, play
from oddscalc.games.caribbean.count import dealer_counts_of
from oddscalc.games.caribbean.raise_table import RaiseTable, up_cards
from oddscalc.games.caribbean.settle import CARD, settle_counts
from oddscalc.results import RunOptions
from oddscalc.simulate.caribbean import card_raises
from oddscalc.simulate.evaluator import strength

ROOT = Path(__file__).resolve().parents[3]
CARDS = ROOT / "cards" / "caribbean"
US = resolve_table("caribbean", "us")
PAYS = US.model.pays.main  # type: ignore[attr-defined]
TOTAL = 19_933_230_517_200


@pytest.fixture(scope="module")
def full(sessions: Callable[[str], Session]) -> RaiseTable:
    s = sessions("caribbean")
    return s.counts(s.resolve("us"))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def small() -> RaiseTable:
    return dealer_counts_of(reduced_deck("8", 2), "ace-king").table()


@pytest.mark.parametrize("name", ["matching-rank", "rules-of-thumb", "ace-king-jack-8-3"])
def test_shipped_cards_equal_the_named_strategies(full: RaiseTable, name: str) -> None:
    settled = settle_counts(full, PAYS, CARD, closest=False, card=load_card(CARDS / f"{name}.toml"))
    assert (settled.tallies[CARD] == settled.tallies[name]).all()
    assert (settled.ak_raised == full.fixed_ak[list(settled.tallies).index(name) - 1]).all()


def test_the_cost_by_rule_adds_up_to_the_published_totals(sessions: Callable[[str], Session]) -> None:
    # Wizard of Odds: matching rank loses 1,063,176,931,284 antes over every deal, optimal 1,041,372,912,372
    a = sessions("caribbean").analyze("us", RunOptions(strategy=str(CARDS / "matching-rank.toml")))
    cost = a.section("strategy_card_cost")
    costs = [c for c in cost.column("cost") if isinstance(c, Fraction)]
    deals = [d for d in cost.column("deals") if isinstance(d, int)]
    assert len(costs) == len(deals) == 3
    assert sum(costs, Fraction(0)) == Fraction(1_063_176_931_284 - 1_041_372_912_372, TOTAL)
    assert sum(deals) == TOTAL
    assert cost.column("rule") == ["Pair or better", "Ace-king, up card matched", "otherwise"]
    assert cost.column("unlike_optimal")[0] == 0  # raising every pair is what optimal does on these pays
    assert a.wager("main").expected_value == Fraction(-1_063_176_931_284, TOTAL)
    assert not a.published_applies and a.rules["strategy"].startswith("the card matching-rank.toml (Matching rank:")


# --- a card's decisions, read plainly ---------------------------------------------------------------------


def _plain(card: RaiseCard, hand: list[int], up: int) -> bool:
    ranks = sorted((c >> 2 for c in hand), reverse=True)
    u = up >> 2
    from oddscalc.hands import hand_value

    cls, _ = hand_value(hand)
    order = list(HANDS)
    name = cls.value if order.index(cls.value) <= 8 else ("ace_king" if ranks[:2] == [12, 11] else "high_card")
    feats: dict[str, Any] = {"hand": order.index(name), "up_rank": u, "up_matches": u in ranks,
                             "third_rank": ranks[2], "fourth_rank": ranks[3], "up_below_fourth": u < ranks[3]}
    for r in card.rules:
        ok = True
        for f, values in r.when.items():
            if f == "holds_any":
                ok &= any(v in ranks for v in values)
            elif f == "holds_all":
                ok &= all(v in ranks for v in values)
            elif f == "at_least":
                ok &= tuple(ranks) >= tuple(values)
            else:
                ok &= feats[f] in values
        if ok:
            return r.action == "raise"
    assert card.otherwise is not None
    return card.otherwise == "raise"


RANK_NAMES = [RANK_CHARS[r] for r in range(6, 13)]  # the small deck's ranks, 8 to A
CONDITION = st.one_of(
    st.builds(lambda h: ("hand", h), st.lists(st.sampled_from(HANDS), min_size=1, max_size=3, unique=True)),
    st.builds(lambda r: ("up_rank", r), st.lists(st.sampled_from(RANK_NAMES), min_size=1, max_size=4, unique=True)),
    st.builds(lambda b: ("up_matches", b), st.booleans()),
    st.builds(lambda b: ("up_below_fourth", b), st.booleans()),
    st.builds(lambda r: ("holds_any", r), st.lists(st.sampled_from(RANK_NAMES), min_size=1, max_size=2, unique=True)),
    st.builds(lambda r: ("holds_all", r), st.lists(st.sampled_from(RANK_NAMES), min_size=1, max_size=2, unique=True)),
    st.builds(lambda r: ("third_rank", r), st.lists(st.sampled_from(RANK_NAMES), min_size=1, max_size=3, unique=True)),
    st.just(("at_least", "A K J 9 8")), st.just(("at_least", "A Q J T 8")),
)
RULE = st.builds(lambda conds, act: {"when": dict(conds), "action": act}, st.lists(CONDITION, min_size=1, max_size=3),
                 st.sampled_from(["raise", "fold"]))


@settings(max_examples=25, deadline=None)
@given(st.lists(RULE, min_size=1, max_size=4), st.sampled_from(["raise", "fold"]))
def test_random_cards_decide_as_read_plainly(small: RaiseTable, rules: list[dict[str, Any]], otherwise: str) -> None:
    model = RaiseCard.model_validate({"card": "caribbean", "title": "random", "rules": rules, "otherwise": otherwise})
    card = Card(model, Path("random.toml"), "0" * 64, {})
    try:
        played = play(card, small)
    except TableError as e:  # a rule an earlier one shadows on this deck: refused, as it must be
        assert "never reached" in str(e)
        return
    ups = up_cards(small.deck, small.reps)
    # the simulator's own reading of the card, on every hand and up card
    hands = np.repeat(small.reps.astype(np.int64), ups.shape[1], axis=0)
    sim = card_raises(model, hands, ups.astype(np.int64).ravel(), strength(hands))
    assert (sim == played.raised.ravel()).all()
    rng = np.random.default_rng(len(rules))
    for i in rng.choice(len(small.reps), size=60, replace=False).tolist():
        hand = small.reps[i].tolist()
        for j in range(ups.shape[1]):
            assert played.raised[i, j] == _plain(model, hand, int(ups[i, j])), (hand, int(ups[i, j]))


# --- bad cards -----------------------------------------------------------------------------------------------


def _report(tmp_path: Path, text: str) -> Any:
    p = tmp_path / "card.toml"
    p.write_text(text)
    return CliRunner().invoke(main, ["report", "caribbean", "--strategy", str(p)])


HEAD = 'card = "caribbean"\ntitle = "x"\n'


@pytest.mark.parametrize("body,message", [
    ('[[rules]]\nwhen = { hand = "acekng" }\naction = "raise"\n',
     "card.toml:4: rules.0.when: hand 'acekng' is not a hand"),
    ('[[rules]]\nwhen = { up = "A" }\naction = "raise"\n', "unknown feature 'up'; features: hand, up_rank"),
    ('[[rules]]\nwhen = { up_rank = "Z" }\naction = "raise"\n', "'Z' is not a rank"),
    ('[[rules]]\nwhen = { hand = "pair" }\naction = "call"\n', "rules.0.action: Input should be 'raise' or 'fold'"),
    ('[[rules]]\nwhen = { at_least = "A K J 3 8" }\naction = "raise"\notherwise = "fold"\n', "write five ranks, high"),
    ('[[rules]]\nwhen = { hand = "pair" }\naction = "raise"\n', "rules: no rule decides some holdings, e.g."),
    ('otherwise = "fold"\n[[rules]]\nwhen = { hand = "pair" }\naction = "raise"\n[[rules]]\n'
     'when = { hand = "pair", up_rank = "A" }\naction = "fold"\n', "card.toml:7: rules.1: rule 2 is never reached"),
    ("rules = []\n", "a card needs at least one rule"),
])
def test_bad_cards_are_refused_with_file_line_and_key(tmp_path: Path, body: str, message: str) -> None:
    r = _report(tmp_path, HEAD + body)
    assert r.exit_code == 3 and "oddscalc: bad strategy card:" in r.output and message in r.output, r.output
    assert "Traceback" not in r.output


def test_a_changed_card_is_never_answered_from_the_report_store(tmp_path: Path) -> None:
    card = (CARDS / "matching-rank.toml").read_text()
    first = _report(tmp_path, card)
    second = _report(tmp_path, card.replace('otherwise = "fold"', 'otherwise = "raise"'))
    assert first.exit_code == second.exit_code == 0
    assert first.output != second.output and "| card card.toml | yes |" in second.output
