"""Let It Ride strategy cards and the holdings appendix: the shipped card makes the optimal decisions, a
card's deals equal a plain brute force that reads its rules on every holding, a deviation costs what
the plain EVs of its holdings say, and a bad card is refused with file, line and key."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import event, given, settings
from hypothesis import strategies as st
from oracles.lir_brute import brute, ev_of, shape

from oddscalc.analysis import Session
from oddscalc.cards import FULL_DECK, RANK_CHARS, Deck, parse_card, reduced_deck
from oddscalc.catalog import resolve_table
from oddscalc.cli.main import main
from oddscalc.datafile import TableError
from oddscalc.games.let_it_ride.card import Card, RideCard, play
from oddscalc.games.let_it_ride.count import PAYING, count_holdings
from oddscalc.games.let_it_ride.holdings import HANDS, shapes
from oddscalc.games.let_it_ride.settle import solve
from oddscalc.hands import HandClass
from oddscalc.results import Analysis, RunOptions
from oddscalc.tables import Table

ROOT = Path(__file__).resolve().parents[3]
WIZARD = ROOT / "cards" / "let-it-ride" / "wizard-of-odds.toml"
STANDARD = resolve_table("let-it-ride", "standard")
PAYS: dict[HandClass, Fraction] = {c: getattr(STANDARD.model.pays.main, c.value) for c in PAYING}  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def session(sessions: Callable[[str], Session]) -> Session:
    return sessions("let-it-ride")


def _card(tmp_path: Path, text: str, name: str = "card.toml") -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def _riding_zero() -> Table:
    model = STANDARD.model
    changed = model.model_copy(update={"rules": model.rules.model_copy(update={"ride_on_zero": True})})  # type: ignore[attr-defined]
    return Table(STANDARD.id, STANDARD.path, STANDARD.sha256, changed)


def _costs(a: Analysis) -> dict[str, Fraction]:
    return {f"{r['decision']}: {r['rule']}": Fraction(r["cost"])  # type: ignore[arg-type]
            for r in a.section("strategy_card_cost").records()}


def test_the_wizard_card_makes_the_optimal_decisions_and_rides_the_zero_ev_holdings(session: Session) -> None:
    card = session.analyze(STANDARD, RunOptions(strategy=str(WIZARD)))
    optimal = session.analyze(_riding_zero())
    assert [(r.event, r.combinations) for r in card.wager("main").rows] == \
        [(r.event, r.combinations) for r in optimal.wager("main").rows]
    assert card.wager("main").expected_value == Fraction(-1_822_224, 51_979_200)
    assert set(_costs(card).values()) == {0}
    extras = card.wager("main").extras
    assert (extras["bet1_ride_hands"], extras["bet2_ride_hands"]) == (1608, 43_133)
    assert card.rules["strategy"].startswith("the card wizard-of-odds.toml (Wizard of Odds basic strategy;")
    assert not card.published_applies and not card.checks


def test_the_literal_reading_rides_the_ace_low_draws_at_their_plain_ev(session: Session, tmp_path: Path) -> None:
    text = WIZARD.read_text()
    start = text.index('[[bet1.rules]]\nlabel = "Except ace-2-4')
    end = text.index('[[bet1.rules]]\nlabel = "Three to a straight flush, spread 4')
    a = session.analyze(STANDARD, RunOptions(strategy=_card(tmp_path, text[:start] + text[end:])))
    ev = ev_of([parse_card(c) for c in ("As", "2s", "4s")], FULL_DECK, PAYS, 8)
    assert ev == Fraction(-84, 1176)
    costs = _costs(a)
    assert costs["bet1: Three to a straight flush, spread 4, with at least one high card"] == 8 * -ev / 22_100
    assert sum(costs.values(), Fraction(0)) == Fraction(1, 38_675)
    assert a.wager("main").expected_value == Fraction(-1_822_224, 51_979_200) - Fraction(1, 38_675)


def test_riding_low_pairs_costs_the_published_deviations(session: Session, tmp_path: Path) -> None:
    text = WIZARD.read_text()
    for bet in ("bet1", "bet2"):
        text = text.replace(f'[bet{bet[-1]}]\notherwise = "pull"\n',
                            f'[{bet}]\notherwise = "pull"\n\n[[{bet}.rules]]\nlabel = "Low pair"\n'
                            'when = { hand = "low_pair" }\naction = "ride"\n')
    a = session.analyze(STANDARD, RunOptions(strategy=_card(tmp_path, text)))
    three = ev_of([parse_card(c) for c in ("9s", "9h", "Kd")], FULL_DECK, PAYS, 8)
    four = ev_of([parse_card(c) for c in ("2s", "2h", "7d", "Qc")], FULL_DECK, PAYS, 8)
    assert (three, four) == (Fraction(-71, 1176), Fraction(-22, 48))  # 6.04% and the published 45.83%
    costs = _costs(a)
    assert costs["bet1: Low pair"] == 2304 * -three / 22_100
    assert costs["bet2: Low pair"] == 50_688 * -four / 270_725
    holdings = {r["holding"]: r for r in a.section("bet1_holdings").records()}
    assert holdings["low pair"]["average_return"] == three and holdings["low pair"]["rides"] == 2304


def test_holdings_appendix_adds_up(session: Session) -> None:
    a = session.analyze(STANDARD)
    extras = a.wager("main").extras
    for sid, n, key in (("bet1_holdings", 3, "bet1_expected_return"), ("bet2_holdings", 4, "bet2_expected_return")):
        rows = a.section(sid).records()
        *classes, riders = rows
        assert sum(r["number"] for r in classes if isinstance(r["number"], int)) == math.comb(52, n)
        assert riders["expected_return"] == extras[key]
        riding = [r for r in classes if r["rides"]]
        assert all(r["rides"] == r["number"] for r in riding)  # every class is decided one way under optimal
        assert sum((Fraction(r["expected_return"]) for r in riding), Fraction(0)) == extras[key]  # type: ignore[arg-type]


# --- a random card, against a plain brute force ------------------------------------------------------------


SMALL = (reduced_deck("9", 2), Deck((0, 1, 2, 3, 10, 11, 12), 2))  # 9 to A; a wheel deck with 2-3-4-5 and Q-K-A
CONDITION = st.one_of(
    st.builds(lambda h: ("hand", h), st.lists(st.sampled_from(HANDS), min_size=1, max_size=3, unique=True)),
    *[st.builds(lambda b, n=n: (n, b), st.booleans()) for n in ("suited", "to_royal", "to_straight", "outside")],
    st.builds(lambda v: ("spread", v), st.lists(st.integers(0, 5), min_size=1, max_size=2, unique=True)),
    st.builds(lambda v: ("windows", v), st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True)),
    st.builds(lambda v: ("high_cards", v), st.lists(st.integers(0, 4), min_size=1, max_size=2, unique=True)),
    *[st.builds(lambda r, n=n: (n, r), st.lists(st.sampled_from(list(RANK_CHARS)), min_size=1, max_size=3,
                                                unique=True))
      for n in ("pair_rank", "top_rank", "holds_any", "holds_all")],
)
RULE = st.builds(lambda conds, act: {"when": dict(conds), "action": act}, st.lists(CONDITION, min_size=1, max_size=2),
                 st.sampled_from(["ride", "pull"]))
DECISION = st.builds(lambda rules, otherwise: {"rules": rules, "otherwise": otherwise},
                     st.lists(RULE, min_size=0, max_size=3), st.sampled_from(["ride", "pull"]))


def _plain_rule(model: RideCard, bet: str, holding: tuple[int, ...], deck: Deck, min_rank: int) -> tuple[bool, int]:
    """The card read plainly on one holding: ride or not, and which rule decided (len(rules) for otherwise)."""
    f = shape(holding, deck, min_rank)
    decision = getattr(model, bet)
    for i, r in enumerate(decision.rules):
        def holds(name: str, values: tuple[object, ...]) -> bool:
            if name == "holds_any":
                return any(v in f["ranks"] for v in values)  # type: ignore[operator]
            if name == "holds_all":
                return all(v in f["ranks"] for v in values)  # type: ignore[operator]
            if name == "hand":
                return HANDS.index(str(f["hand"])) in values
            return f[name] in values

        if all(holds(n, v) for n, v in r.when.items()):
            return r.action == "ride", i
    return decision.otherwise == "ride", len(decision.rules)


RANDOM_CARDS = (st.sampled_from(SMALL), DECISION, DECISION, st.sampled_from([8, 11]))


# 10 random cards in the suite, 30 deep: the same check, more examples
@settings(max_examples=10, deadline=None)
@given(*RANDOM_CARDS)
def test_random_cards_deal_like_a_plain_brute_force(deck: Deck, bet1: dict[str, Any], bet2: dict[str, Any],
                                                     min_rank: int) -> None:
    _deals_like_a_plain_brute_force(deck, bet1, bet2, min_rank)


@pytest.mark.deep
@settings(max_examples=30, deadline=None)
@given(*RANDOM_CARDS)
def test_random_cards_deal_like_a_plain_brute_force_deep(deck: Deck, bet1: dict[str, Any], bet2: dict[str, Any],
                                                          min_rank: int) -> None:
    _deals_like_a_plain_brute_force(deck, bet1, bet2, min_rank)


def _deals_like_a_plain_brute_force(deck: Deck, bet1: dict[str, Any], bet2: dict[str, Any], min_rank: int) -> None:
    """A random card's deals, solved with its rides, are a plain brute force's reading the card hand by hand."""
    model = RideCard.model_validate({"card": "let-it-ride", "title": "random", "bet1": bet1, "bet2": bet2})
    card = Card(model, Path("random.toml"), "0" * 64, {})
    counts = count_holdings(deck, min_rank)
    try:
        played = (play(card, "bet1", shapes(counts.reps3, deck, min_rank), counts.reps3),
                  play(card, "bet2", shapes(counts.reps4, deck, min_rank), counts.reps4))
    except TableError as e:  # a rule no holding reaches on this deck: refused, and the plain reading agrees
        event("refused: a rule never reached")
        assert "never reached" in str(e)
        bet, _, i = e.problems[0].key.split(".")
        n = 3 if bet == "bet1" else 4
        assert all(_plain_rule(model, bet, h, deck, min_rank)[1] != int(i) for h in combinations(deck.cards, n))
        return
    pays = {c: PAYS[c] for c in PAYING}
    sol = solve(counts, [pays[c] for c in PAYING], rides=(played[0].ride, played[1].ride))
    names = [c.value for c in PAYING] + ["loss"]
    fast = Counter({(names[k], b): n for (k, b), n in sol.tally.items() if n})
    plain = brute(deck, pays, min_rank,
                  decide3=lambda h, _: _plain_rule(model, "bet1", h, deck, min_rank)[0],
                  decide4=lambda h, _: _plain_rule(model, "bet2", h, deck, min_rank)[0])
    event("compared with the brute force")
    assert fast == plain


# --- bad cards -----------------------------------------------------------------------------------------------

HEAD = 'card = "let-it-ride"\ntitle = "x"\n[bet2]\notherwise = "pull"\n'


@pytest.mark.parametrize("body,message", [
    ('[bet1]\notherwise = "pull"\n[[bet1.rules]]\nwhen = { hand = "high_pair" }\naction = "ride"\n',
     "card.toml:8: bet1.rules.0.when: hand 'high_pair' is not a holding"),
    ('[bet1]\notherwise = "pull"\n[[bet1.rules]]\nwhen = { gap = 1 }\naction = "ride"\n',
     "unknown feature 'gap'; features: hand, suited"),
    ('[bet1]\notherwise = "pull"\n[[bet1.rules]]\nwhen = { spread = 9 }\naction = "ride"\n',
     "spread is a whole number from 0 to 5"),
    ('[bet1]\notherwise = "pull"\n[[bet1.rules]]\nwhen = { suited = true }\naction = "raise"\n',
     "bet1.rules.0.action: Input should be 'ride' or 'pull'"),
    ('[bet1]\n[[bet1.rules]]\nwhen = { hand = "paying_pair" }\naction = "ride"\n',
     "bet1.rules: no rule decides some holdings, e.g."),
    ('[bet1]\notherwise = "pull"\n[[bet1.rules]]\nwhen = { suited = true }\naction = "ride"\n[[bet1.rules]]\n'
     'when = { to_royal = true }\naction = "pull"\n', "card.toml:10: bet1.rules.1: rule 2 is never reached"),
    ("[bet1]\n", "a decision needs rules"),
    ("", "bet1: missing"),
])
def test_bad_cards_are_refused_with_file_line_and_key(tmp_path: Path, body: str, message: str) -> None:
    r = CliRunner().invoke(main, ["report", "let-it-ride", "--strategy", _card(tmp_path, HEAD + body)])
    assert r.exit_code == 3 and "oddscalc: bad strategy card:" in r.output and message in r.output, r.output
    assert "Traceback" not in r.output


def test_a_caribbean_card_is_not_a_let_it_ride_card(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["report", "let-it-ride", "--strategy",
                                  str(ROOT / "cards" / "caribbean" / "matching-rank.toml")])
    assert r.exit_code == 3 and "card: Input should be 'let-it-ride'" in r.output, r.output
