"""Strategy cards synthesised: the shortest ordered list of rules (first match wins) whose exact cost against the
optimal strategy is within a bound, and the frontier of rules against cost, for any game whose decision is
yes or no.

The problem, as a game hands it over (:class:`Problem`): the decision points of the exact count grouped in
*cells*, each cell the points that every card feature sees alike (for Caribbean Stud: the hand class, the five
ranks and the up card's rank), with the exact sum over its points of weight x (EV of yes - EV of no), in
integer units of ``1 / scale``, and ``positive``: the same sum over the points where yes is strictly better (what
the optimal strategy gains over always saying no). A card decides a whole cell one way, so its exact cost is

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

import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from oddscalc import __version__
from oddscalc.exact import frac_str, percent_str
from oddscalc.results import Cell, Column, Section

BEAM = 16  # conditions kept per beam and depth
DEPTH = 3  # conditions per rule at most
MOST_RULES = 12  # rules tried at most (the frontier's last length)
COMMENT = "#"  # a TOML comment (a card file's, not Markdown)


@dataclass(frozen=True)
class Condition:
    """One condition a card can write: ``feature = value`` (the value as the card file writes it) and the cells
    where it holds."""

    feature: str
    value: object
    mask: np.ndarray  # (n_cells,) bool


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

    def text(self) -> str:
        """The rule in words: ``hand = ace_king, up_matches = true -> raise``."""
        return ", ".join(f"{k} = {_word(v)}" for k, v in self.when) + f" -> {self.action}"


@dataclass(frozen=True)
class Card:
    """A synthesised card: its rules, its otherwise, and its exact cost against optimal (per unit wagered)."""

    rules: tuple[Rule, ...]
    otherwise: str
    cost: Fraction
    rule_costs: tuple[Fraction, ...] = field(default=())  # each rule's share of the cost, then otherwise's

    def text(self) -> str:
        """Every rule, then the otherwise, in words."""
        return "; ".join([r.text() for r in self.rules] + [f"otherwise {self.otherwise}"])


def _word(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + " ".join(str(x) for x in v) + "]"
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
        self.masks = np.stack([c.mask for c in problem.conditions]) if problem.conditions else np.zeros(
            (0, len(self.exact)), dtype=bool)
        self.matrix = self.masks.astype(np.float32)
        self.features = [c.feature for c in problem.conditions]

    def mask(self, conds: tuple[int, ...]) -> np.ndarray:
        """Where every one of the conditions holds."""
        return np.logical_and.reduce([self.masks[i] for i in conds]) if conds else np.ones(len(self.exact), bool)

    def play(self, rules: Rules, otherwise: bool) -> tuple[np.ndarray, np.ndarray]:
        """The rule deciding each cell (len(rules) for otherwise) and each cell's decision (yes)."""
        decided = np.full(len(self.exact), len(rules), dtype=np.int64)
        yes = np.full(len(self.exact), otherwise, dtype=bool)
        free = np.ones(len(self.exact), dtype=bool)
        for i, (conds, says) in enumerate(rules):
            take = self.mask(conds) & free
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
        for _ in range(DEPTH):
            columns_b = np.stack([b[2] for b in beams], axis=1)
            scores = self.matrix @ columns_b  # (conditions, beams): the gain of each conjunction
            # what refining a conjunction could gain at most: its cells of positive gain (the beam's order)
            reach = self.matrix @ np.maximum(columns_b, 0)
            nxt = self._extend(beams, scores, reach)
            found += [(sc, keys[j][0], rule, keys[j][1]) for sc, _, j, rule in nxt]
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
    decided, _ = s.play(rules, otherwise)
    out, shares = [], []
    for i, (conds, yes) in enumerate([*rules, ((), otherwise)]):
        mine = decided == i
        share = int(s.pos[mine].sum()) - (int(s.exact[mine].sum()) if yes else 0) if mine.any() else 0
        shares.append(Fraction(share, problem.scale))
        if i < len(rules):
            out.append(Rule(tuple((problem.conditions[k].feature, problem.conditions[k].value) for k in conds),
                            problem.yes if yes else problem.no))
    if sum(shares) != Fraction(cost, problem.scale):
        raise AssertionError(f"the card's cost by rule {sum(shares)} does not add up to its cost {cost}")
    return Card(tuple(out), problem.yes if otherwise else problem.no, Fraction(cost, problem.scale), tuple(shares))


# --- the report and the card file ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """A published card or named strategy placed on the frontier: its rules (None: not written as a card) and
    exact cost."""

    name: str
    rules: int | None
    cost: Fraction
    title: str


@dataclass(frozen=True)
class Synthesis:
    """What ``oddscalc card`` shows and writes: its sections, the card file's text (None when no card is within
    the bound) and the card."""

    sections: list[Section]
    card_text: str | None
    card: Card | None
    frontier: tuple[Card, ...] = ()  # the cheapest card found at each length


def shipped_cards(game: str) -> list[Path]:
    """The published cards shipped for ``game`` (``cards/<game>/*.toml`` of a checkout; none when installed without
    them)."""
    folder = Path(__file__).resolve().parents[2] / "cards" / game
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def _toml(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return json.dumps(str(v), ensure_ascii=True)  # a JSON string of ASCII is a TOML basic string


def card_toml(game: str, title: str, source: str, parts: Sequence[tuple[str, Card]], note: Sequence[str]) -> str:
    """A card file the game's loader reads: ``parts`` are (table, card), table "" for the top level (Caribbean
    Stud, house baccarat) or a decision's table (``bet1`` in Let It Ride); ``note`` opens it as comments."""
    lines = [f"{COMMENT} {n}" for n in note]
    lines += [f"card = {_toml(game)}", f"title = {_toml(title)}", f"source = {_toml(source)}"]
    for table, card in parts:
        prefix = f"{table}." if table else ""
        if table:
            lines += ["", f"[{table}]"]
        lines.append(f"otherwise = {_toml(card.otherwise)}")
        for rule, cost in zip(card.rules, card.rule_costs):
            when = ", ".join(f"{k} = {_toml(v)}" for k, v in rule.when)
            lines += ["", f"[[{prefix}rules]]", f"{COMMENT} costs {frac_str(cost)} ({percent_str(cost, 6)})",
                      f"label = {_toml(rule.text().rsplit(' -> ', 1)[0])}", f"when = {{ {when} }}",
                      f"action = {_toml(rule.action)}"]
    return "\n".join(lines) + "\n"


def frontier_section(cards: Sequence[Card], placed: Sequence[Placed], within: Fraction, unit: str,
                     floor: Fraction, title: str = "") -> Section:
    """The frontier (rules | cost exact and % | within the bound | the card), the published cards and named
    strategies placed on it, and optimal."""
    rows: list[tuple[Cell, ...]] = []
    entries: list[tuple[int, Fraction, int, tuple[Cell, ...]]] = []
    for c in cards:
        entries.append((len(c.rules), c.cost, 0, (len(c.rules), c.cost, c.cost, "yes" if c.cost <= within else "no",
                                                  "synthesised", c.text())))
    for p in placed:
        entries.append((p.rules if p.rules is not None else 10**6, p.cost, 1,
                        ("" if p.rules is None else p.rules, p.cost, p.cost, "yes" if p.cost <= within else "no",
                         p.name, p.title)))
    entries.append((10**6 + 1, Fraction(0), 2, ("", Fraction(0), Fraction(0), "yes", "optimal",
                                                "each decision by its exact EV")))
    for _, _, _, row in sorted(entries, key=lambda e: (e[0], e[1], e[2])):
        rows.append(row)
    return Section(
        "card_frontier", f"Frontier: rules against exact cost{title}",
        (Column("rules", "Rules", "int"), Column("cost", f"Cost against optimal ({unit})", "fraction"),
         Column("cost_percent", "Cost", "percent", 6), Column("within", f"Within {percent_str(within, 6)}"),
         Column("source", "Card"), Column("card", "Its rules")),
        tuple(rows),
        intro=("Each synthesised row is the cheapest card found with that many rules; the published cards and the "
               "named strategies are played over the same decision points. Costs are exact: the optimal strategy's "
               "expected value minus the card's, per unit of the wager over every deal.",
               f"No card in the card's features can cost less than {frac_str(floor)} ({percent_str(floor, 6)}): "
               "the decision points a card cannot tell apart are decided together."))


def card_section(card: Card, within: Fraction, unit: str, title: str = "") -> Section:
    """The synthesised card, rule by rule, with the exact cost each rule's decisions carry."""
    rows: list[tuple[Cell, ...]] = []
    for i, (rule, cost) in enumerate(zip((*card.rules, None), card.rule_costs)):
        text = "otherwise" if rule is None else rule.text().rsplit(" -> ", 1)[0]
        rows.append((i + 1 if rule is not None else "", text, card.otherwise if rule is None else rule.action,
                     cost, cost))
    return Section(
        "synthesised_card", f"Synthesised card{title}: {len(card.rules)} rules, cost {percent_str(card.cost, 6)}",
        (Column("rule", "Rule"), Column("when", "When"), Column("action", "Action"),
         Column("cost", f"Cost ({unit})", "fraction"), Column("cost_percent", "Cost", "percent", 6)),
        tuple(rows),
        intro=(f"The fewest rules found whose exact cost against optimal is within {percent_str(within, 6)}: "
               f"{frac_str(card.cost)} {unit} ({percent_str(card.cost, 6)}).",
               "Each rule's cost is what the optimal strategy gains on the decisions that rule makes first."))


def synthesis_report(problem: Problem, within: Fraction, game: str, table: Any, command: str, unit: str,
                     placed: Sequence[Placed], most_rules: int = MOST_RULES) -> Synthesis:
    """Synthesise a one-decision card for ``table`` and report it: the card's section, the frontier, the card file
    (TOML: ``title`` and ``source`` say it was synthesised, by which command and within which bound)."""
    card, frontier = synthesise(problem, within, most_rules)
    sections = [] if card is None else [card_section(card, within, unit)]
    sections.append(frontier_section(frontier, placed, within, unit, problem.floor))
    if card is None:
        return Synthesis(sections, None, None, tuple(frontier))
    title = f"Synthesised: {len(card.rules)} rules within {percent_str(within, 6)} of optimal ({game}/{table.id})"
    source = (f"synthesised by \"{command}\" (oddscalc {__version__}); exact cost {frac_str(card.cost)} {unit} "
              f"({percent_str(card.cost, 6)}) on table {table.id} (sha256 {table.sha256[:12]})")
    note = ("A strategy card synthesised by oddscalc: the fewest rules found whose exact cost against the optimal",
            f"strategy is within the bound. Check it: oddscalc report {game} --table {table.id} --strategy THIS_FILE")
    return Synthesis(sections, card_toml(game, title, source, [("", card)], note), card, tuple(frontier))


def _no_rules(problem: Problem) -> Card:
    """A decision with no rule, only its otherwise (Let It Ride's decisions may be one)."""
    total, positive = sum(int(g) for g in problem.gain), sum(int(p) for p in problem.positive)
    cost = Fraction(positive - max(total, 0), problem.scale)
    return Card((), problem.yes if total > 0 else problem.no, cost, (cost,))


def decisions_report(problems: Sequence[tuple[str, Problem]], within: Fraction, game: str, table: Any, command: str,
                     unit: str, placed: Sequence[Placed], most_rules: int = MOST_RULES) -> Synthesis:
    """A card of several independent decisions (each its own table of rules in the file, e.g. Let It Ride's bet1 and
    bet2): each decision's frontier synthesised, then the split of rules between them with the fewest in all whose
    summed exact cost is within the bound; the frontier is the cheapest split at each total."""
    fronts = [[_no_rules(p), *synthesise(p, Fraction(0), most_rules)[1]] for _, p in problems]
    best: dict[int, tuple[Card, ...]] = {}
    for combo in itertools.product(*fronts):
        n = sum(len(c.rules) for c in combo)
        if n and (n not in best or sum(c.cost for c in combo) < sum(c.cost for c in best[n])):
            best[n] = combo
    frontier, lowest = [], None
    for n in sorted(best):
        cost = sum((c.cost for c in best[n]), Fraction(0))
        if lowest is None or cost < lowest:
            lowest = cost
            frontier.append(Card(tuple(r for c in best[n] for r in c.rules), "", cost,
                                 tuple(x for c in best[n] for x in c.rule_costs)))
    names = [k for k, _ in problems]
    synthesised = [Placed("synthesised", len(f.rules), f.cost, "; ".join(
        f"{k}: {c.text()}" for k, c in zip(names, best[len(f.rules)]))) for f in frontier]
    section = frontier_section([], [*placed, *synthesised], within, unit, Fraction(0))
    chosen = next((best[len(f.rules)] for f in frontier if f.cost <= within), None)
    if chosen is None:
        return Synthesis([section], None, None, tuple(frontier))
    whole = next(f for f in frontier if f.cost <= within)
    sections = [card_section(c, within, unit, f" ({k})") for k, c in zip(names, chosen) if c.rules] + [section]
    title = f"Synthesised: {len(whole.rules)} rules within {percent_str(within, 6)} of optimal ({game}/{table.id})"
    source = (f"synthesised by \"{command}\" (oddscalc {__version__}); exact cost {frac_str(whole.cost)} {unit} "
              f"({percent_str(whole.cost, 6)}) on table {table.id} (sha256 {table.sha256[:12]})")
    note = ("A strategy card synthesised by oddscalc: the fewest rules found whose exact cost against the optimal",
            f"strategy is within the bound. Check it: oddscalc report {game} --table {table.id} --strategy THIS_FILE")
    return Synthesis(sections, card_toml(game, title, source, list(zip(names, chosen)), note), whole,
                     tuple(frontier))
