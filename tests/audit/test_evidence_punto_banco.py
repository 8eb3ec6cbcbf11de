"""The evidence engine on punto banco: every choice's EV against a brute force over every ordered coup of a small
shoe; synthetic 8-deck logs of honest bettors and of an edge sorter who sees the first card's group, weighed."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np
import pytest
from oracles.evidence_deals import coups, play, punto_banco_log
from oracles.sorting_brute import CHOICES, choice_returns, patterns

from oddscalc.analysis import Session
from oddscalc.audit import evidence_punto_banco as pb
from oddscalc.audit.evidence import THRESHOLD
from oddscalc.audit.observed import Observed
from oddscalc.cards import SUIT_CHARS, parse_card
from oddscalc.catalog import resolve_table
from oddscalc.games.punto_banco.coup_features import RANKS, SUITS, Cards
from oddscalc.games.punto_banco.game import PuntoBancoRules, PuntoBancoTable
from oddscalc.protection.glimpse import Glimpse, Model
from oddscalc.protection.information import load_model
from oddscalc.protocol import OptionError

CLASSIC = (frozenset("6789"), frozenset("A2345TJQK"))
SHOE = ("As", "Ah", "3d", "6c", "7s", "9d", "Kc", "5h")  # eight cards: 20,160 ordered coups
_MODEL = resolve_table("punto-banco", "standard").model
assert isinstance(_MODEL, PuntoBancoTable)
_TABLE: PuntoBancoTable = _MODEL


def _small() -> pb.Shoe:
    copies = [0] * len(RANKS) * SUITS
    for c in SHOE:
        copies[RANKS.index(c[0]) * SUITS + SUIT_CHARS.index(c[1])] += 1
    return pb.Shoe(Cards(tuple(copies)), _TABLE.rules, _TABLE.pays)


@functools.cache
def _everything() -> dict[str, int]:
    found = patterns(SHOE, {})
    assert len(found) == 1
    return next(iter(found.values()))


MODELS = {
    "first card's group": Model("first", "first", "punto-banco", (Glimpse("player_1", "group", CLASSIC),), CHOICES),
    "banker's first colour, player's second suit": Model(
        "two", "two", "punto-banco", (Glimpse("player_2", "suit"), Glimpse("banker_1", "colour")), CHOICES),
}


def _oracle_sees(g: Glimpse) -> object:
    if g.shows == "suit":
        return lambda c: c[1]
    if g.shows == "colour":
        return lambda c: c[1] in "dh"
    return lambda c: g.sees(c[0])


@pytest.mark.parametrize("case", sorted(MODELS))
def test_every_choices_ev_equals_a_brute_force_over_every_coup_of_a_small_shoe(case: str) -> None:
    model = MODELS[case]
    rng = np.random.default_rng(4)
    dealt = [tuple(SHOE[int(i)] for i in rng.permutation(len(SHOE))[:6]) for _ in range(10)]
    hidden = [tuple(parse_card(c) for c in coup) for coup in dealt]
    read = pb.assess(_small(), hidden, model, CHOICES)
    honest = pb.assess(_small(), hidden, None, CHOICES)
    positions = [p for p in ("player_1", "banker_1", "player_2", "banker_2") if p in
                 {g.position for g in model.glimpses}]
    seen = {g.position: _oracle_sees(g) for g in model.glimpses}
    brute = patterns(SHOE, seen)  # type: ignore[arg-type]
    all_won = _everything()
    order = ("player_1", "banker_1", "player_2", "banker_2")
    for i, coup in enumerate(dealt):
        key = tuple(seen[p](coup[order.index(p)]) for p in positions)  # type: ignore[operator]
        won = brute[key]
        for choice in CHOICES:
            assert read.ev(i, choice) == choice_returns(won)[choice] / sum(won.values())
            assert honest.ev(i, choice) == choice_returns(all_won)[choice] / math.perm(len(SHOE), 6)
    assert not honest.telling and read.telling


_RULES = Session("punto-banco").resolve(None)
assert isinstance(_RULES, PuntoBancoRules)
RULES: PuntoBancoRules = _RULES
EDGE, _ = load_model("edge-sort-first-card", "punto-banco")


def _honest_bets(rounds: int, seed: int) -> tuple[str, ...]:
    rng = np.random.default_rng(seed)
    return tuple(str(a) for a in rng.choice(["banker", "player", "tie"], size=rounds, p=[0.6, 0.38, 0.02]))


def test_honest_bettors_are_not_flagged_and_an_edge_sorter_is() -> None:
    cards = coups(5000, seed=1)
    for bets in (_honest_bets(5000, 2), ("banker",) * 5000, ("player",) * 5000):
        ev = pb.evidence(RULES, punto_banco_log(cards, bets), [EDGE])
        assert ev.suspects[0].log10_factor < 0 and not ev.suspects[0].flagged
    sorter = play(pb.assess(pb.Shoe.of(RULES), cards, EDGE, CHOICES), 0.0, 3, CHOICES)
    ev = pb.evidence(RULES, punto_banco_log(cards, sorter), [EDGE])
    w = ev.suspects[0]
    assert w.flagged and w.first_flagged is not None and w.first_flagged <= 20
    assert Fraction(6, 100) < w.gain / 5000 < Fraction(8, 100)  # about the published 6.765% a coup
    assert ev.realised == 0  # the log's winnings, all 0 in these synthetic logs: the honest best sits out


def test_false_positives_over_honest_bettors() -> None:
    flagged = sum(pb.evidence(RULES, punto_banco_log(coups(1000, seed=10 + s), _honest_bets(1000, 50 + s)),
                              [EDGE]).suspects[0].flagged for s in range(5))
    assert flagged == 0


def test_a_glimpse_of_a_card_a_log_does_not_record_and_a_wrong_game_are_refused() -> None:
    burn = Model("burn", "burn", "punto-banco", (Glimpse("burn", "rank"),), CHOICES)
    with pytest.raises(OptionError, match="burn is not among"):
        pb.assess(pb.Shoe.of(RULES), [(0, 1, 2, 3)], burn, CHOICES)
    with pytest.raises(OptionError, match="line 4: a caribbean decision"):
        pb.evidence(RULES, [Observed(4, "caribbean", (), (0, 1, 2, 3), "banker", Fraction(0))], [EDGE])
    with pytest.raises(OptionError, match="'double' is not one of"):
        pb.evidence(RULES, [Observed(4, "punto-banco", (), (0, 1, 2, 3), "double", Fraction(0))], [EDGE])
    assert THRESHOLD == 1000
