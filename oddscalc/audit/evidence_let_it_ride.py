"""Let It Ride decisions read under the honest information and under community cards seen: every action's exact EV.

A round has two decisions (``Observed``): bet 1 on the player's three cards (``seen``: three, ``hidden``: the two
community cards) and bet 2 once the first community card is turned (``seen``: four, ``hidden``: the last). Each
is ride or pull. Every bet in play is settled on the same final hand, so riding the bet decided now is worth, per
unit bet, the mean of the bet's value (the pay of the final hand's class, a pair from the table's minimum up, or
-1) over the completions of the cards known K:

    S(K) = sum over the C(n - |K|, 5 - |K|) completions of value / C(n - |K|, 5 - |K|),

pulling it 0; a tie pulls, unless the table rides on zero (the engine's convention, so the honest best is the
engine's optimal play). Honest: K is what the decision saw (S3 at bet 1, S4 at bet 2, the engine's
``games.let_it_ride.ev`` figures; the tests hold them to a brute force). Under an information model whose glimpses
see community cards outright (``community_1``, ``community_2``: the shipped ``let-it-ride-flash-first-community``),
K adds the community cards it shows. All EVs are over one denominator (the pays' and the completions' common
multiple), so each is an exact Fraction. S depends on K only through its suit class, so it is counted once per
suit class (``symmetry.suit_class_index``) and cached.

What the decisions won on the cards dealt is the same value with all five cards known.

>>> knows_community(1).title
'Knows the first community card before bet 1'
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.audit.evidence import Assessed, Evidence, PlayerModel, Reading
from oddscalc.audit.observed import Observed
from oddscalc.cards import FULL_DECK, Deck
from oddscalc.games.let_it_ride.count import PAYING
from oddscalc.games.let_it_ride.ev import pay_classes_cached
from oddscalc.games.let_it_ride.game import LetItRideRules
from oddscalc.hands import colex_indices, hand_table
from oddscalc.protection.glimpse import Glimpse, Model
from oddscalc.protocol import OptionError
from oddscalc.symmetry import suit_class_index

GAME = "let-it-ride"
COMMUNITY = ("community_1", "community_2")


def knows_community(k: int) -> Model:
    """The model of a player who sees the first ``k`` community cards before bet 1 (k = 1: the shipped
    ``let-it-ride-flash-first-community``'s glimpse)."""
    if k not in (1, 2):
        raise ValueError(f"1 or 2 community cards, not {k}")
    title = "Knows the first community card before bet 1" if k == 1 else "Knows both community cards before bet 1"
    return Model(f"knows-{k}-community", title, GAME, tuple(Glimpse(COMMUNITY[i], "card") for i in range(k)))


def actions(rules: LetItRideRules) -> tuple[str, str]:
    """The actions, the one a tie goes to first: pull, unless the table rides on zero."""
    return ("ride", "pull") if rules.ride_on_zero else ("pull", "ride")


def community_positions(model: Model) -> tuple[int, ...]:
    """The community cards (0-based) a model sees outright; OptionError for a model this evidence does not read."""
    if not model.glimpses or any(g.position not in COMMUNITY or g.shows != "card" for g in model.glimpses):
        raise OptionError(f"model {model.id}: the evidence reads community cards seen outright, not "
                          + ", ".join(f"{g.position} ({g.shows})" for g in model.glimpses))
    return tuple(sorted({COMMUNITY.index(g.position) for g in model.glimpses}))


class Values:
    """S(K) of every known set K of three, four or five cards, as an integer numerator over ``den``, counted once
    per suit class of K."""

    def __init__(self, rules: LetItRideRules):
        deck = rules.deck
        if deck != FULL_DECK:
            raise OptionError("the Let It Ride evidence reads logs dealt from a full deck")
        self.deck: Deck = deck
        pays = [Fraction(getattr(rules.model.pays.main, c.value)) for c in PAYING]
        pay_den = math.lcm(*(p.denominator for p in pays))
        self.values = np.array([int(p * pay_den) for p in pays] + [-pay_den], dtype=object)
        self.classes = pay_classes_cached(deck, rules.min_rank).astype(np.int64)
        n = deck.size
        self.ways = {k: math.comb(n - k, 5 - k) for k in (3, 4, 5)}
        self.scale = math.lcm(*self.ways.values())  # every S(K) over one denominator: the pays' times this
        self.den = pay_den * self.scale
        self.position = hand_table(deck).position
        self.cache: dict[tuple[int, int], int] = {}

    @functools.cached_property
    def _index(self) -> dict[int, np.ndarray]:
        return {k: suit_class_index(k, self.deck) for k in (3, 4)}

    def _count(self, held: np.ndarray) -> list[int]:
        """S times ``den`` of each holding of three or four cards (rows of sorted deck positions), over its
        completions: the completions' pay classes counted, then weighed by the pays as Python ints (exact)."""
        u, k = held.shape
        n = self.deck.size
        more = np.array(list(itertools.combinations(range(n - k), 5 - k)), dtype=np.int64).reshape(-1, 5 - k)
        out: list[int] = []
        step = max(1, 200_000 // len(more))  # holdings at once: bounds the memory
        for start in range(0, u, step):
            h = held[start:start + step]
            free = np.ones((len(h), n), dtype=bool)
            free[np.arange(len(h))[:, None], h] = False
            left = np.nonzero(free)[1].reshape(len(h), n - k)
            rows = np.concatenate([np.broadcast_to(h[:, None, :], (len(h), len(more), k)), left[:, more]], axis=2)
            pay = self.classes[colex_indices(np.sort(rows, axis=2).reshape(-1, 5))].reshape(len(h), len(more))
            counts = (pay[:, :, None] == np.arange(len(self.values))).sum(axis=1)
            out += [sum(int(c) * int(v) for c, v in zip(row, self.values.tolist())) * (self.scale // self.ways[k])
                    for row in counts.tolist()]
        return out

    def many(self, known: np.ndarray) -> np.ndarray:
        """(m,) object: S times ``den`` of each row of (m, k) known cards (k = 3, 4 or 5), each suit class counted
        once (a log of a million rounds holds a few thousand)."""
        m, k = known.shape
        if m == 0:
            return np.zeros(0, dtype=object)
        held = np.sort(self.position[known].astype(np.int64), axis=1)
        rows = colex_indices(held)
        if k == 5:
            return np.asarray(self.values[self.classes[rows]] * self.scale, dtype=object)
        suit_class = self._index[k][rows].astype(np.int64)
        classes, first, inverse = np.unique(suit_class, return_index=True, return_inverse=True)
        new = [(c, i) for c, i in zip(classes.tolist(), first.tolist()) if (k, c) not in self.cache]
        if new:
            counted = self._count(held[np.array([i for _, i in new], dtype=np.int64)])
            self.cache.update(((k, c), v) for (c, _), v in zip(new, counted))
        found = np.array([self.cache[k, c] for c in classes.tolist()], dtype=object)
        return np.asarray(found[inverse.reshape(-1)], dtype=object)

    def of(self, known: Sequence[int]) -> int:
        """S(known) times ``den``."""
        return int(self.many(np.array([list(known)], dtype=np.int64))[0])


@dataclass(frozen=True)
class Deals:
    """The decisions of a log as arrays: each one's line, the round's five cards in dealing order (the player's
    three, then the community cards), how many of them it saw (3 or 4), its action."""

    lines: np.ndarray  # (n,) int64
    cards: np.ndarray  # (n, 5) int64
    seen: np.ndarray  # (n,) int64
    actions: tuple[str, ...]


def deals(deck: Deck, decisions: Iterable[Observed], vocabulary: Sequence[str]) -> Deals:
    """The decisions, each checked: a Let It Ride decision on three cards (two hidden) or four (one hidden), cards
    of the deck and distinct, the action ride or pull (OptionError naming the line otherwise)."""
    lines, five_cards, seen, acts = [], [], [], []
    cards = set(deck.cards)
    for d in decisions:
        where = f"line {d.line}"
        if d.game != GAME:
            raise OptionError(f"{where}: a {d.game} decision, not {GAME}")
        if (d.seen_count, d.hidden_count) not in ((3, 2), (4, 1)):
            raise OptionError(f"{where}: a Let It Ride decision sees 3 cards and hides 2, or sees 4 and hides 1, "
                              f"not {d.seen_count} and {d.hidden_count}")
        if d.action not in vocabulary:
            raise OptionError(f"{where}: action {d.action!r} is not one of {', '.join(vocabulary)}")
        five = d.seen + d.hidden
        if len(set(five)) != 5 or not set(five) <= cards:
            raise OptionError(f"{where}: the cards are not five distinct cards of {deck.describe()}")
        lines.append(d.line)
        five_cards.append(five)
        seen.append(d.seen_count)
        acts.append(d.action)
    return Deals(np.array(lines, dtype=np.int64), np.array(five_cards, dtype=np.int64).reshape(-1, 5),
                 np.array(seen, dtype=np.int64), tuple(acts))


def assess(values: Values, vocabulary: tuple[str, str], d: Deals, shown: Sequence[int], model: str = "honest",
           title: str = "Honest: the cards the decision saw") -> Assessed:
    """Each decision's EV of its two actions, per unit bet, with the community cards ``shown`` (0-based) known
    besides the cards it saw."""
    ride = vocabulary.index("ride")
    num = np.zeros((len(d.actions), 2), dtype=object)
    for k in (3, 4):
        at = np.flatnonzero(d.seen == k)
        columns = sorted(set(range(k)) | {3 + j for j in shown})  # what it saw, and the community cards shown
        num[at, ride] = values.many(d.cards[at][:, columns])
    num[:, 1 - ride] = 0
    return Assessed(model, title, vocabulary, num, values.den, np.arange(len(d.actions), dtype=np.int64))


def reading(rules: LetItRideRules, decisions: Iterable[Observed], models: Sequence[Model]) -> Reading:
    """A log's decisions (or a part's) read: the honest reading and each model's (community cards seen outright),
    with the money the actions won against honest optimal play on the cards dealt."""
    vocabulary = actions(rules)
    d = deals(rules.deck, decisions, vocabulary)
    values = Values(rules)
    shown = [community_positions(m) for m in models]
    honest = assess(values, vocabulary, d, ())
    suspects = [assess(values, vocabulary, d, p, m.id, m.title) for m, p in zip(models, shown)]
    dealt = assess(values, vocabulary, d, (0, 1), "dealt", "Every card known")
    realised = dealt.gain(dealt.taken(d.actions), honest.best)
    return Reading(GAME, d.lines, d.actions, honest, tuple(suspects), realised)


def evidence(rules: LetItRideRules, decisions: Iterable[Observed], models: Sequence[Model],
             player: PlayerModel | None = None) -> Evidence:
    """Weigh a log's decisions (:func:`reading`, weighed)."""
    return reading(rules, decisions, models).weighed(player)


__all__ = ["COMMUNITY", "GAME", "Deals", "Values", "actions", "assess", "community_positions", "deals", "evidence",
           "knows_community", "reading"]
