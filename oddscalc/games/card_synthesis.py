"""Strategy cards synthesised: the shortest ordered list of rules (first match wins) whose exact cost against a
reference is within a bound, and the frontier of rules against cost, for any game whose decision is yes or no.
The reference is the play that decides every point by its exact EV (optimal play; with several house baccarat
seats, the best reply to the others' equilibrium, which is that equilibrium): the game builds the problem against
it and says which it is (:mod:`oddscalc.games.card_report` reports and writes the card).

The problem, as a game hands it over (:class:`Problem`): the decision points of the exact count grouped in
*cells*, each cell the points that every card feature sees alike (for Caribbean Stud: the hand class, the five
ranks and the up card's rank), with the exact sum over its points of weight x (EV of yes - EV of no), in
integer units of ``1 / scale``, and ``positive``: the same sum over the points where yes is strictly better (what
the reference gains over always saying no). A card decides a whole cell one way, so its exact cost is

    cost = positive - (sum of the gains of the cells it says yes to),

an integer over ``scale``, and ``floor`` (every cell decided by the sign of its sum) is the least cost any card
in these features can reach. Conditions (:class:`Condition`) are what the card file can say: each a feature and
values as the file writes them, and a mask over the cells.

The search (:func:`synthesise`) is a decision-list learner, as video-poker strategy generators build their
lists: top down, each step adds the rule (a condition, or two or three of them together, found by a beam over
the conditions) and action that most lower the exact cost with the best ``otherwise`` under it; then each rule
that the card can lose within the bound is dropped, and each rule is replaced by the best rule at its place.
Floats only rank the candidates; every cost kept is recomputed in integers. The frontier is each length's best
card found, from one rule to the last that lowers the cost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

BEAM = 16  # conditions kept per beam and depth
DEPTH = 3  # conditions per rule at most
MOST_RULES = 12  # rules tried at most (the frontier's last length)


@dataclass(frozen=True)
class Condition:
    """One condition a card can write: ``feature = value`` (the value as the card file writes it) and the cells
    where it holds."""

    feature: str
    value: object
    mask: np.ndarray  # (n_cells,) bool
    words: str = ""  # how it reads on the frontier and in a rule's label ("" : ``feature = value``)

    def text(self) -> str:
        """The condition in words."""
        return self.words or f"{self.feature} = {_word(self.value)}"


@dataclass(frozen=True)
class Problem:
    """A yes-or-no decision over cells, with each cell's exact gain of yes over no."""

    gain: Sequence[int]  # per cell: sum of weight x (EV yes - EV no) over its points, in 1/scale units
    positive: Sequence[int]  # per cell: the same over its points where yes is strictly better
    scale: int  # units per unit of the game's wager, over every deal
    conditions: Sequence[Condition]
    yes: str  # the action names, as the card writes them
    no: str

    @property
    def floor(self) -> Fraction:
        """The least cost a card in these features can reach: each cell decided by the sign of its gain."""
        return Fraction(sum(self.positive) - sum(g for g in self.gain if g > 0), self.scale)


@dataclass(frozen=True)
class Rule:
    """A rule of a synthesised card: its conditions (feature -> value as written) and action."""

    when: tuple[tuple[str, object], ...]
    action: str
    words: tuple[str, ...] = ()  # each condition in words (``Condition.text``), or () for ``feature = value``

    def condition_text(self) -> str:
        """The conditions in words: ``ace_king or better, up card matches a rank held``."""
        return ", ".join(self.words or [f"{k} = {_word(v)}" for k, v in self.when])

    def text(self) -> str:
        """The rule in words, with its action: ``ace_king or better, up card matches a rank held -> raise``."""
        return f"{self.condition_text()} -> {self.action}"


@dataclass(frozen=True)
class Card:
    """A synthesised card: its rules, its otherwise, and its exact cost against optimal (per unit wagered)."""

    rules: tuple[Rule, ...]
    otherwise: str
    cost: Fraction
    rule_costs: tuple[Fraction, ...] = field(default=())  # each rule's share of the cost, then otherwise's
    yes: tuple[bool, ...] = field(default=())  # each cell's decision (the problem's yes), for a game to play it

    def text(self) -> str:
        """Every rule, then the otherwise, in words."""
        return "; ".join([r.text() for r in self.rules] + [f"otherwise {self.otherwise}"])


RANK_ORDER = "A23456789TJQKA"  # a run of ranks reads "3 to J" (an ace low or high)


def _run(values: Sequence[object]) -> str | None:
    """``a to b`` for three or more consecutive totals or ranks, else None."""
    if len(values) < 3:
        return None
    if all(isinstance(x, int) and not isinstance(x, bool) for x in values):
        ints = [int(str(x)) for x in values]
        return f"{ints[0]} to {ints[-1]}" if ints == list(range(ints[0], ints[0] + len(ints))) else None
    text = "".join(str(x) for x in values)
    if all(isinstance(x, str) and len(x) == 1 for x in values) and text in RANK_ORDER:
        return f"{text[0]} to {text[-1]}"
    return None


def _word(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return _run(v) or "[" + " ".join(str(x) for x in v) + "]"
    return str(v)


Rules = list[tuple[tuple[int, ...], bool]]  # (condition indices, says yes) in order


class _Search:
    """The cells' exact gains and positive parts, and the candidate conditions as a float32 matrix (for ranking)."""

    def __init__(self, problem: Problem):
        self.p = problem
        self.exact = np.array([int(g) for g in problem.gain], dtype=object)
        self.pos = np.array([int(g) for g in problem.positive], dtype=object)
        self.positive = int(self.pos.sum())
        biggest = max((abs(int(g)) for g in problem.gain), default=1) or 1
        self.gain = (self.exact / biggest).astype(np.float32)  # ranking only: exact sums decide
        if sum(abs(int(g)) for g in problem.gain) + self.positive < 2**63:
            # every sum of cells fits: int64 sums are the same integers, without a Python int per cell
            self.exact, self.pos = self.exact.astype(np.int64), self.pos.astype(np.int64)
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        self.masks = np.stack([c.mask for c in problem.conditions]) if problem.conditions else np.zeros(
            (0, len(self.exact)), dtype=bool)
        self.matrix = self.masks.astype(np.float32)
        self.features = [c.feature for c in problem.conditions]

    def mask(self, conds: tuple[int, ...], keep: bool = False) -> np.ndarray:
        """Where every one of the conditions holds (not to be written to); ``keep`` it for a card's rule, which the
        search plays again and again."""
        found = self._masks.get(conds)
        if found is None:
            found = np.logical_and.reduce([self.masks[i] for i in conds]) if conds else np.ones(len(self.exact), bool)
            if keep:
                if len(self._masks) >= 256:  # a bound on memory: the oldest rule goes first
                    del self._masks[next(iter(self._masks))]
                self._masks[conds] = found
        return found

    def play(self, rules: Rules, otherwise: bool) -> tuple[np.ndarray, np.ndarray]:
        """The rule deciding each cell (len(rules) for otherwise) and each cell's decision (yes)."""
        decided = np.full(len(self.exact), len(rules), dtype=np.int64)
        yes = np.full(len(self.exact), otherwise, dtype=bool)
        free = np.ones(len(self.exact), dtype=bool)
        for i, (conds, says) in enumerate(rules):
            take = self.mask(conds, keep=True) & free
            decided[take] = i
            yes[take] = says
            free &= ~take
        return decided, yes

    def cost(self, rules: Rules, otherwise: bool) -> int:
        """Exact cost of the card, in 1/scale units."""
        _, yes = self.play(rules, otherwise)
        return self.positive - int(self.exact[yes].sum())

    def tidy(self, rules: Rules, otherwise: bool) -> tuple[Rules, bool]:
        """The card without the rules no cell reaches, and with the best otherwise (the same cost or less)."""
        decided, _ = self.play(rules, otherwise)
        kept = [r for i, r in enumerate(rules) if (decided == i).any()]
        decided, _ = self.play(kept, otherwise)
        rest = self.exact[decided == len(kept)]
        return kept, bool(int(rest.sum()) > 0) if len(rest) else otherwise

    def moves(self, rules: Rules, otherwise: bool, positions: Sequence[int]) -> list[tuple[float, int, tuple[int, ...],
                                                                                        bool]]:
        """Candidate insertions (estimated gain, position, conditions, says yes), best first: a rule put before
        rule ``position`` takes the cells it matches that no earlier rule decides."""
        decided, yes = self.play(rules, otherwise)
        columns, keys = [], []
        for p in positions:
            free = decided >= p
            for says in (True, False):
                # a rule saying yes gains the gain of the cells it turns from no to yes; saying no, the opposite
                columns.append(np.where(free & (yes != says), self.gain if says else -self.gain, 0).astype(np.float32))
                keys.append((p, says))
        if not columns or not len(self.matrix):
            return []
        v = np.stack(columns, axis=1)
        found: list[tuple[float, int, tuple[int, ...], bool]] = []
        beams: list[tuple[int, tuple[int, ...], np.ndarray]] = [(j, (), v[:, j]) for j in range(len(keys))]
        for depth in range(DEPTH):
            columns_b = np.stack([b[2] for b in beams], axis=1)
            scores = self.matrix @ columns_b  # (conditions, beams): the gain of each conjunction
            # what refining a conjunction could gain at most: its cells of positive gain (the beam's order)
            reach = self.matrix @ np.maximum(columns_b, 0)
            nxt = self._extend(beams, scores, reach)
            found += [(sc, keys[j][0], rule, keys[j][1]) for sc, _, j, rule in nxt]
            if depth == DEPTH - 1:
                break  # no deeper conjunction: the beams would not be read
            nxt.sort(key=lambda t: -t[1])
            per_key: dict[int, int] = {}
            beams = []
            for _, r, j, rule in nxt:
                if per_key.get(j, 0) < BEAM and r > 0:
                    per_key[j] = per_key.get(j, 0) + 1
                    beams.append((j, rule, v[:, j] * self.mask(rule)))
            if not beams:
                break
        found.sort(key=lambda t: (-t[0], len(t[2])))
        return found

    def _extend(self, beams: Sequence[tuple[int, tuple[int, ...], np.ndarray]], scores: np.ndarray,
                reach: np.ndarray) -> list[tuple[float, float, int, tuple[int, ...]]]:
        """Each beam's conjunctions with one more condition (on a feature it does not test yet): the BEAM of best
        gain and the BEAM of best reach, as (estimated gain, reach, the beam's move, conditions)."""
        nxt: list[tuple[float, float, int, tuple[int, ...]]] = []
        seen: set[tuple[int, tuple[int, ...]]] = set()
        for k, (j, conds, _) in enumerate(beams):
            used = {self.features[i] for i in conds}
            for column in (scores[:, k], reach[:, k]):
                taken = 0
                for i in np.argsort(-column).tolist():
                    if taken >= BEAM:
                        break
                    rule = tuple(sorted((*conds, i)))
                    if self.features[i] in used or (j, rule) in seen:
                        continue
                    seen.add((j, rule))
                    nxt.append((float(scores[i, k]), float(reach[i, k]), j, rule))
                    taken += 1
        return nxt


def _best_step(s: _Search, rules: Rules, otherwise: bool, cost: int, positions: Sequence[int], tries: int
               ) -> tuple[int, Rules, bool] | None:
    """The exact best of the ``tries`` best-ranked insertions (and flipping the otherwise) that lowers ``cost``."""
    best: tuple[int, Rules, bool] | None = None
    options: list[tuple[Rules, bool]] = [(rules, not otherwise)] if rules else []
    for _, p, conds, says in s.moves(rules, otherwise, positions)[:tries]:
        options.append(([*rules[:p], (conds, says), *rules[p:]], otherwise))
    for trial, o in options:
        trial, o = s.tidy(trial, o)
        if not trial:
            continue
        c = s.cost(trial, o)
        if c < cost and (best is None or (c, len(trial)) < (best[0], len(best[1]))):
            best = (c, trial, o)
    return best


def synthesise(problem: Problem, within: Fraction, most_rules: int = MOST_RULES,
               progress: Callable[[str], None] | None = None) -> tuple[Card | None, list[Card]]:
    """The shortest card found whose exact cost is at most ``within`` (None if none), and the frontier: the
    cheapest card found at each length."""
    s = _Search(problem)
    total = int(s.exact.sum())
    otherwise = total > 0
    rules: Rules = []
    cost = s.positive - (total if otherwise else 0)
    frontier: dict[int, tuple[int, Rules, bool]] = {}
    floor = problem.floor * problem.scale
    for _ in range(4 * most_rules):  # steps may also shorten the card (a rule no cell reaches is dropped)
        step = _best_step(s, rules, otherwise, cost if rules else cost + 1, range(len(rules) + 1), 3 * BEAM)
        if step is None or len(step[1]) > most_rules:
            break
        cost, rules, otherwise = step
        _keep(frontier, cost, rules, otherwise)
        if progress is not None:
            progress(f"{len(rules)} rules: cost {cost / problem.scale:.6%}")
        if cost == floor:
            break
    _improve(s, frontier)
    cards = [_card(s, problem, r, o) for _, (_, r, o) in sorted(frontier.items())]
    shortest = next((c for c in cards if c.cost <= within), None)
    return shortest, cards


def _keep(frontier: dict[int, tuple[int, Rules, bool]], cost: int, rules: Rules, otherwise: bool) -> None:
    if len(rules) not in frontier or cost < frontier[len(rules)][0]:
        frontier[len(rules)] = (cost, list(rules), otherwise)


def _improve(s: _Search, frontier: dict[int, tuple[int, Rules, bool]]) -> None:
    """Shorter or cheaper cards from the greedy ones: drop each rule in turn (a shorter card), and put the best rule
    in each rule's place while that lowers the cost; a longer card is kept only when it costs less."""
    for n in sorted(frontier, reverse=True):
        _, rules, otherwise = frontier[n]
        for i in range(len(rules)):
            shorter, o = s.tidy(rules[:i] + rules[i + 1:], otherwise)
            if shorter:
                _keep(frontier, s.cost(shorter, o), shorter, o)
    for n in sorted(frontier):
        cost, rules, otherwise = frontier[n]
        for i in range(len(rules)):
            rest = rules[:i] + rules[i + 1:]
            step = _best_step(s, rest, otherwise, cost, [i], BEAM)
            if step is not None and len(step[1]) <= n:
                cost, rules, otherwise = step
        _keep(frontier, cost, rules, otherwise)
    best = None
    for n in sorted(frontier):
        if best is not None and frontier[n][0] >= best:
            del frontier[n]
        else:
            best = frontier[n][0]


def _card(s: _Search, problem: Problem, rules: Rules, otherwise: bool) -> Card:
    """The card in the file's words, its exact cost and each rule's share: on the cells it decides (first), what
    the optimal decision of each of their points gains over the rule's."""
    cost = s.cost(rules, otherwise)
    decided, yes_cells = s.play(rules, otherwise)
    out, shares = [], []
    for i, (conds, yes) in enumerate([*rules, ((), otherwise)]):
        mine = decided == i
        share = int(s.pos[mine].sum()) - (int(s.exact[mine].sum()) if yes else 0) if mine.any() else 0
        shares.append(Fraction(share, problem.scale))
        if i < len(rules):
            out.append(Rule(tuple((problem.conditions[k].feature, problem.conditions[k].value) for k in conds),
                            problem.yes if yes else problem.no, tuple(problem.conditions[k].text() for k in conds)))
    if sum(shares) != Fraction(cost, problem.scale):
        raise AssertionError(f"the card's cost by rule {sum(shares)} does not add up to its cost {cost}")
    return Card(tuple(out), problem.yes if otherwise else problem.no, Fraction(cost, problem.scale), tuple(shares),
                tuple(bool(x) for x in yes_cells))
