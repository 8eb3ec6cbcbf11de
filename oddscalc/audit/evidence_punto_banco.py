"""Punto banco bets read under the honest information and under an edge sort (or any glimpse of the first four
cards): every choice's exact EV.

A decision (``Observed``) sees nothing (the bet is placed before the coup) and hides the coup's cards in the order
they left the shoe: player, banker, player, banker, then the third cards. Its action is one of the model's choices
(``player``, ``banker``, ``tie``, ``none``). Each coup is read as dealt from the table's full shoe, as the
information engine counts it (``protection.sorting``, the published convention): honestly every coup is the same
bet, so the honest reading does not tell one coup from another; under a model the player sees what its glimpses
show of the cards at their positions (the first card's group under an edge sort), and each choice's EV is the
count's, for the pattern he saw. Every EV is exact (the count's integers over one common denominator).

What the bets won against honest optimal play on the cards dealt is what the log paid them when the honest best
choice is to sit out (``none``: nothing is won or lost by it); otherwise it is not given.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oddscalc.audit.evidence import Assessed, Evidence, PlayerModel, Reading
from oddscalc.audit.observed import Observed
from oddscalc.games.punto_banco.coup_features import Cards, Drawing
from oddscalc.games.punto_banco.game import PuntoBancoPays, PuntoBancoRules
from oddscalc.protection import sorting
from oddscalc.protection.glimpse import Glimpse, Model
from oddscalc.protocol import OptionError

GAME = "punto-banco"


@dataclass(frozen=True)
class Shoe:
    """What the reading needs of a table: the shoe by card class, the drawing rules, the pays, and whether the
    shoe is read as infinite."""

    cards: Cards
    drawing: Drawing
    pays: PuntoBancoPays
    infinite: bool = False

    @classmethod
    def of(cls, rules: PuntoBancoRules) -> Shoe:
        """A resolved table's shoe."""
        return cls(rules.cards, rules.drawing, rules.model.pays, rules.infinite)


@functools.lru_cache(maxsize=16)  # a count takes a second at 8 decks; an audit weighs many logs of one table
def _reading(shoe: Shoe, glimpses: tuple[Glimpse, ...], choices: tuple[str, ...],
             ) -> tuple[sorting.Glimpsed, list[list[int]], int]:
    """The count for these glimpses, each pattern's returns over one common denominator, and that denominator."""
    pays = sorting.outcome_pays(shoe.pays, choices)
    counted = sorting.count(shoe.cards, shoe.drawing, glimpses, choices, pays, shoe.infinite)
    common = math.lcm(*(p.count for p in counted.patterns))
    num = [[r * (common // p.count) for r in p.returns] for p in counted.patterns]
    return counted, num, counted.den * common


def assess(shoe: Shoe, hidden: np.ndarray | Sequence[tuple[int, ...]], model: Model | None,
           choices: tuple[str, ...]) -> Assessed:
    """Each coup's EV of every choice, per unit staked, under ``model`` (None: honestly); ``hidden``: each coup's
    first four cards (card ids, in dealing order; more are ignored)."""
    first = np.array([c[:4] for c in hidden], dtype=np.int64).reshape(-1, 4) if not isinstance(
        hidden, np.ndarray) else hidden[:, :4].astype(np.int64)
    if model is None:
        counted, num, den = _reading(shoe, (), choices)
        return Assessed("honest", "Honest: nothing seen before the bet", choices, np.array(num, dtype=object), den,
                        np.zeros(len(first), dtype=np.int64), telling=False)
    for g in model.glimpses:
        if g.position not in sorting.FIRST_FOUR:
            raise OptionError(f"model {model.id}: {g.position} is not among the coup's cards a log records")
    counted, num, den = _reading(shoe, model.glimpses, choices)
    at = [sorting.FIRST_FOUR.index(g.position) for g in counted.glimpses]
    pattern = {p.seen: i for i, p in enumerate(counted.patterns)}
    # what each glimpse sees of each card id, read for every coup at once; each distinct sight is one pattern
    seen = np.stack([np.array([sorting.seen(g, c) for c in range(52)], dtype=np.int64)[first[:, j]]
                     for g, j in zip(counted.glimpses, at)], axis=1).reshape(len(first), len(at))
    sights, where = np.unique(seen, axis=0, return_inverse=True)
    row = np.array([pattern[tuple(int(v) for v in s)] for s in sights], dtype=np.int64)[where.ravel()]
    return Assessed(model.id, model.title, choices, np.array(num, dtype=object), den, row)


def reading(rules: PuntoBancoRules, decisions: Iterable[Observed], models: Sequence[Model]) -> Reading:
    """A log's bets (or a part's) read: the honest reading and each model's. The models must offer the same
    choices."""
    choices = {tuple(m.choices or sorting.CHOICES) for m in models} or {sorting.CHOICES}
    if len(choices) > 1:
        raise OptionError("the models weighed together must offer the same choices")
    vocabulary = choices.pop()
    lines: list[int] = []
    hidden = bytearray()  # each coup's first four cards, four bytes a coup (a log streams in)
    actions: list[str] = []
    won = Fraction(0)
    for d in decisions:
        if d.game != GAME:
            raise OptionError(f"line {d.line}: a {d.game} decision, not {GAME}")
        if d.hidden_count < 4:
            raise OptionError(f"line {d.line}: a coup deals at least 4 cards, not {d.hidden_count}")
        if not all(0 <= c < 52 for c in d.hidden[:4]):
            raise OptionError(f"line {d.line}: a card id outside 0-51")
        lines.append(d.line)
        hidden += bytes(d.hidden[:4])
        actions.append(d.action)
        won += d.won
    shoe = Shoe.of(rules)
    first = np.frombuffer(bytes(hidden), dtype=np.uint8).reshape(-1, 4)
    honest = assess(shoe, first, None, vocabulary)
    suspects = [assess(shoe, first, m, vocabulary) for m in models]
    sits_out = vocabulary[int(np.argmax(honest.num[0]))] == sorting.NONE
    return Reading(GAME, np.array(lines, dtype=np.int64), tuple(actions), honest, tuple(suspects),
                   won if sits_out else None, shared=True)


def evidence(rules: PuntoBancoRules, decisions: Iterable[Observed], models: Sequence[Model],
             player: PlayerModel | None = None) -> Evidence:
    """Weigh a log's bets (:func:`reading`, weighed)."""
    return reading(rules, decisions, models).weighed(player)


__all__ = ["GAME", "Shoe", "assess", "evidence", "reading"]
