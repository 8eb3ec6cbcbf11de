"""Evidence of information: how much more likely a player's decisions are if he knew what a model says he knew.

For every decision each information model (the honest one, and each suspected one) gives the exact EV of every
action (``Assessed``: integer numerators over one denominator, so every figure is a ``Fraction``) and so the
action it calls best. The *player model* turns that into a likelihood, and it is stated in every report:

    under a model M, the player takes M's best action with probability 1 - e, and otherwise an action drawn from
    q, the log's own frequencies of the actions (each count plus one, over the decisions plus the actions);

so P_M(a) = (1 - e) [a = best_M] + e q(a). Where a model's EVs are the same for every decision (punto banco
played honestly: every coup is the same bet), its best action says nothing about the cards, and the player is
modelled by q alone: P_M(a) = q(a). The error rate e is ``DEFAULT_ERROR`` (1/100) unless one is fitted on a log of
honest play (``fit_error``: the share of its decisions that were not the honest best, each count plus one).

The log Bayes factor of a decision is log P_M(a) - log P_honest(a); summed round by round it is the cumulative
evidence for M against honest play (floats: likelihoods, not figures of the game). A factor above ``THRESHOLD``
(1,000, "decisive" on Jeffreys' scale) flags the log. The money the decisions won against honest optimal play is
exact: under each model, the sum over decisions of EV(action taken) - EV(honest best action).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from oddscalc.protocol import OptionError

DEFAULT_ERROR = Fraction(1, 100)
THRESHOLD = 1000  # a Bayes factor above this flags the log
TOP = 10  # rounds listed as weighing most


@dataclass(frozen=True)
class Assessed:
    """One information model's reading of every decision: each action's exact EV, ``num[row[i], a] / den`` for
    decision i and action a (rows shared between decisions that saw the same thing), and the best action of each
    decision (a tie goes to the action listed first). ``telling`` is False where every decision's EVs are the
    same (the choice then says nothing about the cards)."""

    model: str  # the model's id (``honest`` for the honest information)
    title: str
    actions: tuple[str, ...]
    num: np.ndarray  # (rows, actions) int64 or Python ints (object)
    den: int
    row: np.ndarray  # (n,) int64: each decision's row of ``num``
    telling: bool = True

    @property
    def best(self) -> np.ndarray:
        """(n,) int64: the index of each decision's best action."""
        out: np.ndarray = np.asarray(np.argmax(self.num, axis=1), dtype=np.int64)[self.row]
        return out

    def ev(self, decision: int, action: str) -> Fraction:
        """The exact EV of ``action`` at decision number ``decision`` (0-based), per unit of the base wager."""
        return Fraction(int(self.num[self.row[decision], self.actions.index(action)]), self.den)

    def taken(self, actions: Sequence[str]) -> np.ndarray:
        """(n,) int64: the index of each observed action in this model's actions (OptionError naming the first
        action it does not have)."""
        index = {a: i for i, a in enumerate(self.actions)}
        out = np.empty(len(actions), dtype=np.int64)
        for i, a in enumerate(actions):
            if a not in index:
                raise OptionError(f"decision {i + 1}: action {a!r} is not one of {', '.join(self.actions)}")
            out[i] = index[a]
        return out

    def gain(self, taken: np.ndarray, honest_best: np.ndarray) -> Fraction:
        """The sum over decisions of EV(action taken) - EV(the honest best action), exact."""
        rows = self.row
        got = self.num[rows, taken].astype(object).sum() if len(rows) else 0
        best = self.num[rows, honest_best].astype(object).sum() if len(rows) else 0
        return Fraction(int(got) - int(best), self.den)


@dataclass(frozen=True)
class PlayerModel:
    """The error rate e of the player model, and where it comes from (stated in the report)."""

    error: Fraction = DEFAULT_ERROR
    source: str = "the stated default"

    def __post_init__(self) -> None:
        if not 0 < self.error < 1:
            raise ValueError(f"an error rate between 0 and 1, not {self.error}")

    def describe(self) -> str:
        """The player model in words."""
        return (f"Under a model M the player takes M's best action with probability 1 - e and otherwise an action "
                f"drawn from the log's own action frequencies q (each count plus one); e = {self.error} "
                f"({float(self.error):.2%}), {self.source}. Where a model's EVs are the same for every decision, its "
                "best action says nothing about the cards and the player is modelled by q alone.")


def fit_error(honest: Assessed, actions: Sequence[str]) -> PlayerModel:
    """The error rate fitted on a log of honest play: its decisions that were not the honest best, plus one, over
    the decisions plus two (so never 0 or 1)."""
    taken = honest.taken(actions)
    wrong = int(np.count_nonzero(taken != honest.best))
    return PlayerModel(Fraction(wrong + 1, len(actions) + 2),
                       f"fitted on {len(actions):,} decisions of honest play ({wrong:,} not the honest best)")


def frequencies(actions: Sequence[str], vocabulary: Sequence[str]) -> np.ndarray:
    """q: each action's count plus one, over the decisions plus the actions (float64, in ``vocabulary`` order)."""
    counts = np.array([sum(1 for a in actions if a == v) for v in vocabulary], dtype=np.float64)
    return (counts + 1) / (len(actions) + len(vocabulary))


def log_likelihoods(assessed: Assessed, taken: np.ndarray, q: np.ndarray, player: PlayerModel) -> np.ndarray:
    """(n,) float64: the natural log of each observed action's probability under the model and the player model."""
    e = float(player.error)
    qa = q[taken]
    if not assessed.telling:
        return np.asarray(np.log(qa))
    hit = taken == assessed.best
    return np.asarray(np.log(np.where(hit, (1 - e) + e * qa, e * qa)))


@dataclass(frozen=True)
class Weighed:
    """One suspected model weighed against the honest one over a log."""

    assessed: Assessed
    log10_factors: np.ndarray  # (n,) float64: each decision's log10 Bayes factor
    cumulative: np.ndarray  # (n,) float64: their running sum
    gain: Fraction  # EV won against honest optimal play, under this model's information
    changed: int  # decisions where this model's best action is not the honest one

    @property
    def log10_factor(self) -> float:
        """The log10 Bayes factor of the whole log (0 for an empty log)."""
        return float(self.cumulative[-1]) if len(self.cumulative) else 0.0

    @property
    def flagged(self) -> bool:
        """Whether the whole log's Bayes factor is above ``THRESHOLD``."""
        return self.log10_factor > math.log10(THRESHOLD)

    @property
    def first_flagged(self) -> int | None:
        """The first decision (1-based) at which the cumulative factor passed ``THRESHOLD``, or None."""
        above = np.flatnonzero(self.cumulative > math.log10(THRESHOLD))
        return int(above[0]) + 1 if len(above) else None

    def heaviest(self, honest: Assessed, most: int = TOP) -> list[int]:
        """The decisions (0-based) that weigh most for the model, heaviest first; among equal factors, those where
        the model's information was worth most (its best action's EV less the honest best's, under the model),
        then the earlier."""
        a = self.assessed
        rows = a.num[a.row]
        worth = np.asarray(rows[np.arange(len(rows)), a.best] - rows[np.arange(len(rows)), honest.best],
                           dtype=np.float64)
        order = np.lexsort((np.arange(len(rows)), -worth, -self.log10_factors))
        return [int(i) for i in order[:most]]


@dataclass(frozen=True)
class Evidence:
    """A log weighed: the honest reading, each suspected model against it, and the player model used."""

    game: str
    lines: np.ndarray  # (n,) int64: each decision's line in the log
    actions: tuple[str, ...]  # the observed actions
    honest: Assessed
    suspects: tuple[Weighed, ...]
    player: PlayerModel
    realised: Fraction | None  # money the actions won against honest optimal play on the cards dealt (None: unknown)


def weigh(game: str, lines: Sequence[int], actions: Sequence[str], honest: Assessed, suspects: Sequence[Assessed],
          player: PlayerModel | None = None, realised: Fraction | None = None) -> Evidence:
    """Weigh every suspected model against the honest reading of the same decisions."""
    player = player or PlayerModel()
    q = frequencies(actions, honest.actions)
    taken_h = honest.taken(actions)
    base = log_likelihoods(honest, taken_h, q, player)
    honest_best = honest.best
    out = []
    for s in suspects:
        if s.actions != honest.actions:
            raise OptionError(f"model {s.model}: its actions ({', '.join(s.actions)}) are not the honest reading's "
                              f"({', '.join(honest.actions)})")
        factors = (log_likelihoods(s, taken_h, q, player) - base) / math.log(10)
        changed = int(np.count_nonzero(s.best != honest_best)) if s.telling else 0
        out.append(Weighed(s, factors, np.cumsum(factors), s.gain(taken_h, honest_best), changed))
    return Evidence(game, np.asarray(lines, dtype=np.int64), tuple(actions), honest, tuple(out), player, realised)


@dataclass(frozen=True)
class Reading:
    """The decisions of a log (or of a part of it) read under every model, before they are weighed: what
    :func:`weigh` takes. ``shared``: the models' EV tables are the same for every part (punto banco: the count's
    patterns, which ``row`` indexes) rather than one row per decision (Caribbean Stud). ``realised`` adds up over
    parts (None: unknown)."""

    game: str
    lines: np.ndarray  # (n,) int64
    actions: tuple[str, ...]
    honest: Assessed
    suspects: tuple[Assessed, ...]
    realised: Fraction | None
    shared: bool = False

    def weighed(self, player: PlayerModel | None = None) -> Evidence:
        """The reading weighed (:func:`weigh`)."""
        return weigh(self.game, self.lines.tolist(), self.actions, self.honest, self.suspects, player, self.realised)


def _join_assessed(parts: Sequence[Assessed], shared: bool) -> Assessed:
    first = parts[0]
    for p in parts[1:]:
        if (p.model, p.actions, p.den, p.telling) != (first.model, first.actions, first.den, first.telling) or (
                shared and not np.array_equal(p.num, first.num)):
            raise ValueError(f"model {p.model}: the parts of a log are not read alike")
    if shared:
        return replace(first, row=np.concatenate([p.row for p in parts]))
    at = np.cumsum([0] + [len(p.num) for p in parts[:-1]])
    return replace(first, num=np.concatenate([p.num for p in parts]),
                   row=np.concatenate([p.row + k for p, k in zip(parts, at)]))


def join(parts: Sequence[Reading]) -> Reading:
    """The readings of consecutive parts of a log, in file order, as one reading of the whole (the same arrays
    and figures as reading it at once)."""
    first = parts[0]
    if len(parts) == 1:
        return first
    realised = None if any(p.realised is None for p in parts) else sum(
        (p.realised for p in parts if p.realised is not None), Fraction(0))
    return Reading(first.game, np.concatenate([p.lines for p in parts]), tuple(a for p in parts for a in p.actions),
                   _join_assessed([p.honest for p in parts], first.shared),
                   tuple(_join_assessed([p.suspects[i] for p in parts], first.shared)
                         for i in range(len(first.suspects))),
                   realised, first.shared)


__all__ = ["DEFAULT_ERROR", "THRESHOLD", "TOP", "Assessed", "Evidence", "PlayerModel", "Reading", "Weighed",
           "fit_error", "frequencies", "join", "log_likelihoods", "weigh"]
