"""Caribbean Stud decisions read under the honest information and under hole cards known: every action's exact EV.

A decision (``Observed``) holds the player's five cards and the up card (``seen``) and the four hole cards in
dealing order (``hidden``); its action is ``raise`` or ``fold``. Under an information model whose glimpses see hole
cards outright (``dealer_hole_1`` .. ``dealer_hole_4``, the up card seen as dealt: the flash of
``protection.information_caribbean``), the player knows j = 1 + k dealer cards, and raising is worth, per ante,

    (nq + win (1 + 2 pay) - 3 lose) / C(n - 5 - j, 5 - j)

over the completions of the dealer's hand (``evidence_count``: nq do not qualify, win lose to the player, lose beat
him), folding -1; a tie folds, as the engine's optimal strategy does. The honest reading is j = 1: the same
figures as the engine's ``games.caribbean.ev.hand_ev`` (which enumerates the 163,185 completions; the tests hold
the two equal), counted by rank multiset so that a million decisions take seconds. The pays are the table's raise
pays by the player's pay class. The EVs are of the ante and raise; a Jackpot side bet is not part of the decision.

What the decisions won on the cards actually dealt is the same count with all five dealer cards known.

>>> knows_hole_cards(2).title
'Knows 2 hole cards (3 dealer cards: the up card and 2 hole cards)'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from oddscalc.audit.evidence import Assessed, Evidence, PlayerModel, Reading
from oddscalc.audit.evidence_count import outcome_counts, outcome_counts_by_state
from oddscalc.audit.observed import Observed
from oddscalc.cards import Deck
from oddscalc.games.caribbean.count import pay_classes, qualifier_strength
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.games.caribbean.settle import pay_list
from oddscalc.hands import BINOM, hand_table
from oddscalc.protection.glimpse import Glimpse, Model
from oddscalc.protection.information_caribbean import HOLES, plan
from oddscalc.protocol import OptionError

GAME = "caribbean"
ACTIONS = ("fold", "raise")  # a tie goes to the first: fold
EVERY_HOLE = (0, 1, 2, 3)  # the hole cards' positions: all five dealer cards known


def knows_hole_cards(k: int) -> Model:
    """The model of a player who sees the up card and the first ``k`` hole cards outright (k = 1: the shipped
    ``caribbean-flash-1-hole``)."""
    if not 1 <= k <= 4:
        raise ValueError(f"between 1 and 4 hole cards, not {k}")
    return Model(f"knows-{k}-hole-cards", f"Knows {k} hole card{'s' if k > 1 else ''} ({k + 1} dealer cards: the up "
                                          f"card and {k} hole card{'s' if k > 1 else ''})", GAME,
                 (Glimpse("dealer_up", "card"), *(Glimpse(HOLES[i], "card") for i in range(k))))


@dataclass(frozen=True)
class Deals:
    """The decisions of a log as arrays: the player's cards, the up card, the hole cards, the actions."""

    lines: np.ndarray  # (n,) int64
    players: np.ndarray  # (n, 5) int64
    up: np.ndarray  # (n,) int64
    holes: np.ndarray  # (n, 4) int64
    actions: tuple[str, ...]


def _refuse(d: Observed) -> OptionError:
    """What is wrong with one decision's record, naming its line."""
    where = f"line {d.line}"
    if d.game != GAME:
        return OptionError(f"{where}: a {d.game} decision, not {GAME}")
    if d.seen_count != 6 or d.hidden_count != 4:
        return OptionError(f"{where}: a Caribbean Stud decision sees 6 cards and hides 4, not {d.seen_count} and "
                           f"{d.hidden_count}")
    if d.action not in ACTIONS:
        return OptionError(f"{where}: action {d.action!r} is not one of {', '.join(ACTIONS)}")
    return OptionError(f"{where}: a card id outside 0-51")


def deals(deck: Deck, decisions: Iterable[Observed]) -> Deals:
    """The decisions as arrays, each checked: a Caribbean Stud decision, six cards seen and four hidden, all of the
    deck and distinct, the action raise or fold (OptionError naming the line otherwise). The cards are gathered
    as bytes and checked all at once (a log of a million decisions streams through here)."""
    lines: list[int] = []
    actions: list[str] = []
    cards = bytearray()
    for d in decisions:
        seen, hidden, action = d.seen, d.hidden, d.action
        if d.game != GAME or len(seen) != 6 or len(hidden) != 4 or action not in ACTIONS:
            raise _refuse(d)
        try:
            cards += bytes(seen)
            cards += bytes(hidden)
        except (ValueError, TypeError):
            raise _refuse(d) from None
        lines.append(d.line)
        actions.append(action)
    arr = np.frombuffer(bytes(cards), dtype=np.uint8).reshape(-1, 10).astype(np.int64)
    in_deck = np.zeros(256, dtype=bool)
    in_deck[list(deck.cards)] = True
    ordered = np.sort(arr, axis=1)
    bad = ~in_deck[arr].all(axis=1) | (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    if bad.any():
        raise OptionError(f"line {lines[int(np.argmax(bad))]}: the cards are not ten distinct cards of "
                          f"{deck.describe()}")
    return Deals(np.array(lines, dtype=np.int64), arr[:, :5], arr[:, 5], arr[:, 6:], tuple(actions))


def hole_positions(model: Model, deck: Deck) -> tuple[int, ...]:
    """The hole cards (0-based, in dealing order) a model sees outright; OptionError for a model this evidence does
    not read (it reads hole cards seen outright with the up card seen as dealt)."""
    p = plan(model, deck)
    if p.up is None or p.up.shows != "card" or any(h.shows != "card" for h in p.holes) or not p.holes:
        raise OptionError(f"model {model.id}: the evidence reads hole cards seen outright (with the up card seen), "
                          "not a sort of them")
    return tuple(HOLES.index(h.position) for h in p.holes)


def _strengths(deck: Deck, players: np.ndarray) -> np.ndarray:
    ht = hand_table(deck)
    pos = np.sort(ht.position[players].astype(np.int64), axis=1)
    return np.asarray(ht.strength[BINOM[pos, np.arange(1, 6)].sum(axis=1)], dtype=np.int64)


def assess(rules: CaribbeanRules, d: Deals, known: Sequence[int], model: str = "honest",
           title: str = "Honest: the up card only") -> Assessed:
    """Each decision's EV of folding and raising, per ante, with the up card and the hole cards ``known`` (0-based
    positions in dealing order) known."""
    deck = rules.deck
    seen = np.concatenate([d.up[:, None], d.holes[:, list(known)]], axis=1)
    # the honest reading counted once per state: half of a million decisions share theirs with another (with hole
    # cards known the states hardly repeat: counted per decision)
    count = outcome_counts if known else outcome_counts_by_state
    counts = count(deck, d.players, seen, _strengths(deck, d.players), qualifier_strength(deck, rules.qualifier))
    pays = pay_list(rules.model.pays.main)
    pay_den = math.lcm(*(p.denominator for p in pays))
    pay_num = np.array([int(p * pay_den) for p in pays], dtype=np.int64)[pay_classes(deck, d.players).astype(np.int64)]
    nq, win, _, lose = counts.T
    total = math.comb(deck.size - 6 - len(known), 4 - len(known))
    raised = pay_den * (nq + win - 3 * lose) + 2 * pay_num * win
    num = np.stack([np.full(len(raised), -pay_den * total, dtype=np.int64), raised], axis=1)
    return Assessed(model, title, ACTIONS, num, pay_den * total, np.arange(len(raised), dtype=np.int64))


def reading(rules: CaribbeanRules, decisions: Iterable[Observed], models: Sequence[Model]) -> Reading:
    """A log's decisions (or a part's) read: the honest reading and each model's (hole cards seen outright), with
    the money the actions won against honest optimal play on the cards dealt."""
    d = deals(rules.deck, decisions)
    positions = [hole_positions(m, rules.deck) for m in models]
    honest = assess(rules, d, ())
    dealt = assess(rules, d, EVERY_HOLE, "dealt", "Every dealer card known")
    # a model that sees every hole card reads the decisions as the cards dealt do: the same counts, not made twice
    suspects = [replace(dealt, model=m.id, title=m.title) if p == EVERY_HOLE else assess(rules, d, p, m.id, m.title)
                for m, p in zip(models, positions)]
    realised = dealt.gain(dealt.taken(d.actions), honest.best)
    return Reading(GAME, d.lines, d.actions, honest, tuple(suspects), realised)


def evidence(rules: CaribbeanRules, decisions: Iterable[Observed], models: Sequence[Model],
             player: PlayerModel | None = None) -> Evidence:
    """Weigh a log's decisions (:func:`reading`, weighed)."""
    return reading(rules, decisions, models).weighed(player)


__all__ = ["ACTIONS", "GAME", "Deals", "assess", "deals", "evidence", "hole_positions", "knows_hole_cards", "reading"]
