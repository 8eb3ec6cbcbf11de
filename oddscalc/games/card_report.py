"""Strategy cards synthesised, reported: the card's section, the frontier with the published cards placed on it,
and the card file (TOML that ``--strategy`` reads, with each rule's exact cost and the reference in comments).
The search itself is :mod:`oddscalc.games.card_synthesis`; each game's ``synthesis`` module builds its problem
and calls :func:`synthesis_report` (one decision) or :func:`decisions_report` (several independent ones)."""

from __future__ import annotations

import itertools
import json
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from oddscalc import __version__
from oddscalc.exact import frac_str, percent_str
from oddscalc.games.card_synthesis import MOST_RULES, Card, Problem, synthesise
from oddscalc.results import Cell, Column, Section

COMMENT = "#"  # a TOML comment (a card file's, not Markdown)
OPTIMAL = "optimal play (each decision by its exact EV)"  # what a card's cost is measured against, unless stated


def plural(n: int, word: str) -> str:
    """``1 rule``, ``2 rules``."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def bound_str(x: Fraction) -> str:
    """A bound as a percentage with no trailing zeros (0.05%, not 0.050000%); exact to six places, else the
    fraction beside."""
    text = percent_str(x, 6)
    short = text[:-1].rstrip("0").rstrip(".") + "%"
    return short if Fraction(x) * 100 * 10**6 == int(Fraction(x) * 100 * 10**6) else f"{text} ({frac_str(x)})"



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
    splits: tuple[tuple[Card, ...], ...] = ()  # several decisions: each frontier card's card per decision


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


def card_toml(game: str, title: str, source: str, parts: Sequence[tuple[str, Card]], note: Sequence[str],
              unit: str = "") -> str:
    """A card file the game's loader reads: ``parts`` are (table, card), table "" for the top level (Caribbean
    Stud, house baccarat) or a decision's table (``bet1`` in Let It Ride); ``note`` opens it as comments, and a
    comment above each rule (and the otherwise) gives its exact cost, in ``unit``."""
    lines = [f"{COMMENT} {line}" for n in note for line in textwrap.wrap(n, 116)]
    lines += [f"card = {_toml(game)}", f"title = {_toml(title)}", f"source = {_toml(source)}"]
    per = f" {unit}" if unit else ""
    for table, card in parts:
        prefix = f"{table}." if table else ""
        if table:
            lines += ["", f"[{table}]"]
        if card.rule_costs:
            last = card.rule_costs[-1]
            lines.append(f"{COMMENT} otherwise (the decisions no rule makes) costs {frac_str(last)}{per} "
                         f"({percent_str(last, 6)})")
        lines.append(f"otherwise = {_toml(card.otherwise)}")
        for i, (rule, cost) in enumerate(zip(card.rules, card.rule_costs)):
            when = ", ".join(f"{k} = {_toml(v)}" for k, v in rule.when)
            lines += ["", f"[[{prefix}rules]]", f"{COMMENT} rule {i + 1} costs {frac_str(cost)}{per} "
                      f"({percent_str(cost, 6)})", f"label = {_toml(rule.condition_text())}",
                      f"when = {{ {when} }}", f"action = {_toml(rule.action)}"]
    return "\n".join(lines) + "\n"


def _note(game: str, table: Any, card: Card, unit: str, reference: str, check: str | None) -> tuple[str, ...]:
    """The card file's opening comments: what it is, against what its cost is measured, and how to check it."""
    check = check or f"oddscalc report {game} --table {table.id} --strategy THIS_FILE (its strategy card cost)"
    return ("A strategy card synthesised by oddscalc: the fewest rules found whose exact cost against the reference "
            "is within the bound.",
            f"Reference: {reference}.",
            f"Cost: {frac_str(card.cost)} {unit} ({percent_str(card.cost, 6)}) in all; each rule's share is in the "
            "comment above it.",
            f"Check it: {check}.")


def frontier_section(cards: Sequence[Card], placed: Sequence[Placed], within: Fraction, unit: str,
                     floor: Fraction, title: str = "", reference: str = OPTIMAL,
                     reference_name: str = "optimal") -> Section:
    """The frontier (rules | cost exact and % | within the bound | the card), the published cards and named
    strategies placed on it, and the reference (``reference_name``: optimal, or an equilibrium of the seats)."""
    rows: list[tuple[Cell, ...]] = []
    entries: list[tuple[int, Fraction, int, tuple[Cell, ...]]] = []
    bound = bound_str(within)
    for c in cards:
        entries.append((len(c.rules), c.cost, 0, (len(c.rules), c.cost, c.cost, "yes" if c.cost <= within else "no",
                                                  "synthesised", c.text())))
    for p in placed:
        entries.append((p.rules if p.rules is not None else 10**6, p.cost, 1,
                        ("" if p.rules is None else p.rules, p.cost, p.cost, "yes" if p.cost <= within else "no",
                         p.name, p.title)))
    entries.append((10**6 + 1, Fraction(0), 2, ("", Fraction(0), Fraction(0), "yes", reference_name,
                                                "each decision by its exact EV" if reference == OPTIMAL
                                                else "the reference")))
    for _, _, _, row in sorted(entries, key=lambda e: (e[0], e[1], e[2])):
        rows.append(row)
    return Section(
        "card_frontier", f"Frontier: rules against exact cost{title}",
        (Column("rules", "Rules", "int"), Column("cost", f"Cost ({unit})", "fraction"),
         Column("cost_percent", "Cost", "percent", 6), Column("within", f"Within {bound}"),
         Column("source", "Card"), Column("card", "Its rules")),
        tuple(rows),
        intro=("Costs are exact, per unit of the wager over every deal: the reference's expected value less the "
               f"card's. Reference: {reference}.",
               "Each synthesised row is the cheapest card found with that many rules (a longer one is listed only "
               "when it costs less); the published cards and the named strategies are played over the same "
               "decision points.",
               f"No card in the card's features can cost less than {frac_str(floor)} ({percent_str(floor, 6)}): "
               "the decision points a card cannot tell apart are decided together."))


def card_section(card: Card, within: Fraction, unit: str, title: str = "", reference: str = OPTIMAL) -> Section:
    """The synthesised card, rule by rule, with the exact cost each rule's decisions carry."""
    rows: list[tuple[Cell, ...]] = []
    for i, (rule, cost) in enumerate(zip((*card.rules, None), card.rule_costs)):
        text = "otherwise" if rule is None else rule.condition_text()
        rows.append((i + 1 if rule is not None else "", text, card.otherwise if rule is None else rule.action,
                     cost, cost))
    return Section(
        "synthesised_card",
        f"Synthesised card{title}: {plural(len(card.rules), 'rule')}, cost {percent_str(card.cost, 6)}",
        (Column("rule", "Rule"), Column("when", "When"), Column("action", "Action"),
         Column("cost", f"Cost ({unit})", "fraction"), Column("cost_percent", "Cost", "percent", 6)),
        tuple(rows),
        intro=((f"The fewest rules found whose exact cost is within {bound_str(within)}: {frac_str(card.cost)} "
                f"{unit} ({percent_str(card.cost, 6)}). First match wins.") if not title else
               (f"This decision's share of the card (the frontier's row within {bound_str(within)}): "
                f"{frac_str(card.cost)} {unit} ({percent_str(card.cost, 6)}). First match wins."),
               f"Reference: {reference}.",
               "A rule's cost is what the reference gains over the rule on the decisions that rule makes first "
               "(the otherwise row: on those no rule makes); they add up to the card's cost."))


def _title(n: int, within: Fraction, game: str, table: Any) -> str:
    return f"Synthesised: {plural(n, 'rule')} within {bound_str(within)} of the reference ({game}/{table.id})"


def _source(command: str, cost: Fraction, unit: str, table: Any) -> str:
    return (f"synthesised by \"{command}\" (oddscalc {__version__}); exact cost {frac_str(cost)} {unit} "
            f"({percent_str(cost, 6)}) on table {table.id} (sha256 {table.sha256[:12]})")


def synthesis_report(problem: Problem, within: Fraction, game: str, table: Any, command: str, unit: str,
                     placed: Sequence[Placed], most_rules: int = MOST_RULES, reference: str = OPTIMAL,
                     check: str | None = None, reference_name: str = "optimal") -> Synthesis:
    """Synthesise a one-decision card for ``table`` and report it: the card's section, the frontier, the card file
    (TOML: ``title`` and ``source`` say it was synthesised, by which command and within which bound; its opening
    comments, against which ``reference`` and how to ``check`` it)."""
    card, frontier = synthesise(problem, within, most_rules)
    sections = [] if card is None else [card_section(card, within, unit, reference=reference)]
    sections.append(frontier_section(frontier, placed, within, unit, problem.floor, reference=reference,
                                     reference_name=reference_name))
    if card is None:
        return Synthesis(sections, None, None, tuple(frontier))
    text = card_toml(game, _title(len(card.rules), within, game, table), _source(command, card.cost, unit, table),
                     [("", card)], _note(game, table, card, unit, reference, check), unit)
    return Synthesis(sections, text, card, tuple(frontier))


def _no_rules(problem: Problem) -> Card:
    """A decision with no rule, only its otherwise (Let It Ride's decisions may be one)."""
    total, positive = sum(int(g) for g in problem.gain), sum(int(p) for p in problem.positive)
    cost = Fraction(positive - max(total, 0), problem.scale)
    return Card((), problem.yes if total > 0 else problem.no, cost, (cost,), (total > 0,) * len(problem.gain))


def decisions_report(problems: Sequence[tuple[str, Problem]], within: Fraction, game: str, table: Any, command: str,
                     unit: str, placed: Sequence[Placed], most_rules: int = MOST_RULES,
                     reference: str = OPTIMAL) -> Synthesis:
    """A card of several independent decisions (each its own table of rules in the file, e.g. Let It Ride's bet1 and
    bet2): each decision's frontier synthesised, then the split of rules between them with the fewest in all whose
    summed exact cost is within the bound; the frontier is the cheapest split at each total (``Synthesis.splits``:
    each one's card per decision)."""
    fronts = [[_no_rules(p), *synthesise(p, Fraction(0), most_rules)[1]] for _, p in problems]
    best: dict[int, tuple[Card, ...]] = {}
    for combo in itertools.product(*fronts):
        n = sum(len(c.rules) for c in combo)
        if n and (n not in best or sum(c.cost for c in combo) < sum(c.cost for c in best[n])):
            best[n] = combo
    frontier, splits, lowest = [], [], None
    for n in sorted(best):
        cost = sum((c.cost for c in best[n]), Fraction(0))
        if lowest is None or cost < lowest:
            lowest = cost
            frontier.append(Card(tuple(r for c in best[n] for r in c.rules), "", cost,
                                 tuple(x for c in best[n] for x in c.rule_costs)))
            splits.append(best[n])
    names = [k for k, _ in problems]
    synthesised = [Placed("synthesised", len(f.rules), f.cost, "; ".join(
        f"{k}: {c.text()}" for k, c in zip(names, split))) for f, split in zip(frontier, splits)]
    section = frontier_section([], [*placed, *synthesised], within, unit, Fraction(0), reference=reference)
    at = next((i for i, f in enumerate(frontier) if f.cost <= within), None)
    if at is None:
        return Synthesis([section], None, None, tuple(frontier), tuple(splits))
    chosen, whole = splits[at], frontier[at]
    sections = [card_section(c, within, unit, f" ({k})", reference) for k, c in zip(names, chosen) if c.rules]
    note = _note(game, table, whole, unit, reference, None)
    text = card_toml(game, _title(len(whole.rules), within, game, table), _source(command, whole.cost, unit, table),
                     list(zip(names, chosen)), note, unit)
    return Synthesis([*sections, section], text, whole, tuple(frontier), tuple(splits))
