"""The evidence engine on Caribbean Stud: every EV against brute forces over the remaining cards (a reduced deck,
and a few full-deck hands) and the engine's own ``hand_ev``; synthetic logs of honest and informed play weighed."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from oracles.ev_brute import caribbean as honest_brute
from oracles.evidence_brute import caribbean_known, raise_units
from oracles.evidence_deals import caribbean_deals, caribbean_log

from oddscalc.analysis import Session
from oddscalc.audit.evidence import THRESHOLD, PlayerModel, fit_error
from oddscalc.audit.evidence_caribbean import ACTIONS, Deals, assess, deals, evidence, hole_positions, knows_hole_cards
from oddscalc.audit.observed import Observed
from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, reduced_deck
from oddscalc.games.caribbean.ev import hand_ev
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.games.caribbean.table import parse_qualifier
from oddscalc.protection.glimpse import Glimpse, Model
from oddscalc.protection.information import load_model
from oddscalc.protocol import OptionError
from oddscalc.results import RunOptions

SMALL = reduced_deck("7", 3)  # 24 cards: ranks 7 to ace in three suits


def _rules(deck: object = None) -> CaribbeanRules:
    rules = Session("caribbean", RunOptions(deck=deck) if deck else None, Store(None)).resolve("us")  # type: ignore[arg-type]
    assert isinstance(rules, CaribbeanRules)
    return rules


FULL = _rules()


def _pays(rules: CaribbeanRules) -> dict[str, Fraction]:
    main = rules.model.pays.main
    return {c: getattr(main, c) for c in type(main).model_fields}


def _brute_ev(rules: CaribbeanRules, d: Deals, i: int, known: tuple[int, ...]) -> Fraction:
    hand = tuple(int(c) for c in d.players[i])
    dealer = (int(d.up[i]), *(int(d.holes[i, k]) for k in known))
    return caribbean_known(rules.deck, hand, dealer, parse_qualifier(rules.qualifier), _pays(rules))[1]


@pytest.mark.parametrize("known", [(), (0,), (0, 1), (2,), (0, 1, 2), (0, 1, 2, 3)])
def test_every_ev_equals_a_brute_force_on_a_reduced_deck(known: tuple[int, ...]) -> None:
    rules = _rules(SMALL)
    d = caribbean_deals(SMALL, 6, seed=5)
    read = assess(rules, d, known)
    for i in range(6):
        assert read.ev(i, "fold") == -1
        assert read.ev(i, "raise") == _brute_ev(rules, d, i, known)


@pytest.mark.parametrize("known", [pytest.param((0,), marks=pytest.mark.deep), (0, 1), (0, 1, 2), (0, 1, 2, 3)])
def test_evs_with_hole_cards_known_equal_a_brute_force_on_the_full_deck(known: tuple[int, ...]) -> None:
    d = caribbean_deals(FULL_DECK, 2, seed=11)
    read = assess(FULL, d, known)
    for i in range(2):
        assert read.ev(i, "raise") == _brute_ev(FULL, d, i, known)


def test_honest_evs_equal_the_engines_hand_ev() -> None:
    d = caribbean_deals(FULL_DECK, 12, seed=3)
    read = assess(FULL, d, ())
    for i in range(12):
        engine = hand_ev(FULL, tuple(int(c) for c in d.players[i]), int(d.up[i]))
        assert read.ev(i, "raise") == engine.raised and read.ev(i, "fold") == engine.fold
        assert ACTIONS[int(read.best[i])] == engine.best


@pytest.mark.deep
def test_honest_evs_equal_a_brute_force_on_the_full_deck() -> None:
    d = caribbean_deals(FULL_DECK, 1, seed=3)
    read = assess(FULL, d, ())
    hand = tuple(int(c) for c in d.players[0])
    n, fold, raised = honest_brute(FULL_DECK, hand, int(d.up[0]), parse_qualifier(FULL.qualifier), _pays(FULL))
    assert n == math.comb(46, 4) and read.ev(0, "raise") == raised and fold == -1


def test_what_the_decisions_won_on_the_cards_dealt_is_each_round_settled() -> None:
    log = caribbean_log(FULL, 300, seed=21, knows=(0, 1), error=0.1)
    ev = evidence(FULL, log, [knows_hole_cards(2)])
    honest = assess(FULL, deals(FULL.deck, log), ())
    pays, q = _pays(FULL), parse_qualifier(FULL.qualifier)
    expected = Fraction(0)
    for i, o in enumerate(log):
        hand, dealer = o.seen[:5], (o.seen[5], *o.hidden)
        result = {"fold": Fraction(-1), "raise": raise_units(hand, dealer, q, pays)}
        expected += result[o.action] - result[ACTIONS[int(honest.best[i])]]
    assert ev.realised == expected and expected > 0


MODELS = [knows_hole_cards(k) for k in (1, 2)]


def test_ten_thousand_rounds_of_honest_optimal_play_are_not_flagged() -> None:
    ev = evidence(FULL, caribbean_log(FULL, 10_000, seed=1), MODELS)
    for w in ev.suspects:
        assert w.log10_factor < 0 and not w.flagged and w.first_flagged is None  # a Bayes factor below 1
        assert w.changed > 1000  # the models play otherwise often: the evidence had something to weigh
    assert ev.realised == 0 and all(w.gain == 0 for w in ev.suspects)


@pytest.mark.parametrize("k", [1, 2])
def test_a_player_who_knows_hole_cards_is_flagged_within_a_few_dozen_rounds(k: int) -> None:
    ev = evidence(FULL, caribbean_log(FULL, 2000, seed=2, knows=tuple(range(k)), error=0.01), MODELS)
    w = ev.suspects[k - 1]
    assert w.flagged and w.log10_factor > math.log10(THRESHOLD)
    assert w.first_flagged is not None and w.first_flagged <= 60
    assert w.gain > 0 and ev.realised is not None and ev.realised > 0


def test_false_positives_over_honest_runs_with_errors() -> None:
    # honest play erring at the player model's own rate: measured flagged runs (the deep test runs 200 x 10,000)
    flagged = 0
    for seed in range(10):
        ev = evidence(FULL, caribbean_log(FULL, 500, seed=100 + 2 * seed, error=0.01), MODELS)
        flagged += any(w.flagged for w in ev.suspects)
    assert flagged == 0


def test_the_error_rate_fitted_on_honest_play() -> None:
    log = caribbean_log(FULL, 400, seed=9, error=0.05)
    read = assess(FULL, deals(FULL.deck, log), ())
    wrong = sum(o.action != ACTIONS[int(b)] for o, b in zip(log, read.best))
    fitted = fit_error(read, [o.action for o in log])
    assert fitted.error == Fraction(wrong + 1, 402) and 5 <= wrong <= 40
    assert "fitted on 400 decisions" in fitted.describe()
    with pytest.raises(ValueError):
        PlayerModel(Fraction(0))


def test_the_shipped_flash_model_is_the_first_hole_card_and_a_sort_is_refused() -> None:
    model, _ = load_model("caribbean-flash-1-hole", "caribbean")
    assert hole_positions(model, FULL_DECK) == hole_positions(knows_hole_cards(1), FULL_DECK) == (0,)
    third = Model("third", "third", "caribbean", (Glimpse("dealer_hole_3", "card"),))
    assert hole_positions(third, FULL_DECK) == (2,)
    sort, _ = load_model("caribbean-hole-group-ak", "caribbean")
    with pytest.raises(OptionError, match="outright"):
        hole_positions(sort, FULL_DECK)


def _one(**change: object) -> Observed:
    base: dict[str, object] = {"line": 3, "game": "caribbean", "seen": (0, 5, 10, 15, 20, 25),
                               "hidden": (30, 35, 40, 45), "action": "raise", "won": Fraction(0)}
    return Observed(**{**base, **change})  # type: ignore[arg-type]


@pytest.mark.parametrize("change, message", [
    ({"game": "let-it-ride"}, "line 3: a let-it-ride decision"),
    ({"hidden": (30, 35, 40)}, "line 3: a Caribbean Stud decision sees 6 cards and hides 4, not 6 and 3"),
    ({"hidden": (30, 35, 40, 0)}, "line 3: the cards are not ten distinct cards"),
    ({"action": "call"}, "line 3: action 'call' is not one of fold, raise"),
    ({"seen": (0, 5, 10, 15, 20, 52)}, "line 3: the cards are not ten distinct cards of one 52-card deck"),
    ({"seen": (0, 5, 10, 15, 20, -1)}, "line 3: a card id outside 0-51"),
])
def test_a_bad_decision_is_refused_naming_its_line(change: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        deals(FULL_DECK, [_one(), _one(**change)])
    assert len(deals(FULL_DECK, [_one()]).actions) == 1
    assert np.array_equal(deals(FULL_DECK, []).players.shape, (0, 5))
