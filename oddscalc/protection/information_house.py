"""The house baccarat with an information model: one seat that sees, before it draws or stands, the next card out
of the shoe (the card it would draw) and/or the house's cards, by value or by group, exact.

Positions ``next_card`` (the fifth card out: the seat's third card if it draws, else the house's), ``house_1`` and
``house_2`` (the house's two cards); decision ``draw``. Answered for ONE seat (the table's own one-seat game): with
other seats the glimpse would also move their play and the house's draws, a different question.

Counting argument. A round of one seat is an ordered sequence of six cards (the seat, the house, the seat, the
house, then the next card and the one after): 416P6 for eight decks, the game's own convention. What a glimpse
can tell apart are *kinds* of card: ranks with the same baccarat value and the same group under every group glimpse
(a split of the tens, jacks, queens and kings makes value 0 two kinds or more). Every sequence of six kinds is
weighed by its falling product of the kinds' counts, so the sum is over at most 10**6 kind sequences, in Python
ints. The seat sees its own two cards (their kinds) and what the glimpses show; it draws exactly when drawing is
worth strictly more over the sequences that look the same (ties stand, as in the game's own strategy). A card's
rank tells nothing more than its kind; a suit or colour nothing at all (every suit holds every value alike), so
those glimpses are refused rather than answered with a zero that looks like a finding.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from oddscalc.protection.glimpse import Glimpse, Model
from oddscalc.protection.information_common import cost_section, glimpse_words, verdict
from oddscalc.protocol import OptionError
from oddscalc.results import Cell, Column, Section

if TYPE_CHECKING:
    from oddscalc.analysis import Session
    from oddscalc.progress import Progress
    from oddscalc.tables import Limits

POSITIONS = ("next_card", "house_1", "house_2")
DECISIONS = ("draw",)
RANK_VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0}


@dataclass(frozen=True)
class Kind:
    """Cards a model cannot tell apart: their value, the group (or value) each glimpse sees, a label, how many."""

    value: int
    seen: tuple[int, ...]  # by position in POSITIONS: the class the glimpse there shows (0 when none)
    label: str
    count: int


@dataclass(frozen=True)
class Answer:
    """One seat's exact figures: EV per unit with the model and honestly, the rounds, the rounds played otherwise
    and the changed decisions by (seat total, what is seen, honest action, action with the model) -> rounds."""

    ev: Fraction
    honest: Fraction
    rounds: int
    changed: int
    by_seen: tuple[tuple[int, str, str, str, int], ...]

    @property
    def value(self) -> Fraction:
        """What the model is worth per unit: its EV less the honest EV."""
        return self.ev - self.honest


def plan(model: Model) -> dict[str, Glimpse]:
    """The model's glimpses by position, refused (``OptionError``) where the house baccarat cannot answer them."""
    if model.game != "house-baccarat":
        raise OptionError(f"model {model.id}: it is for {model.game}, not house-baccarat")
    by: dict[str, Glimpse] = {}
    for g in model.glimpses:
        if g.position not in POSITIONS:
            raise OptionError(f"model {model.id}: position {g.position!r} is not a house-baccarat card; positions: "
                              f"{', '.join(POSITIONS)}")
        if g.before not in ("", *DECISIONS):
            raise OptionError(f"model {model.id}: before {g.before!r}: the decision at house-baccarat is draw")
        if g.position in by:
            raise OptionError(f"model {model.id}: position {g.position} is glimpsed twice")
        if g.shows in ("suit", "colour"):
            raise OptionError(f"model {model.id}: {g.position} by its {g.shows} tells nothing of a baccarat value "
                              "(every suit holds every value alike): see it by card, rank or group")
        by[g.position] = g
    return by


def kinds(rank_counts: dict[str, int], by: dict[str, Glimpse]) -> list[Kind]:
    """The kinds of card the model tells apart in a shoe given by rank (cards of every value, value 0 split by
    group where a group glimpse splits the ranks that count 0)."""
    merged: dict[tuple[int, tuple[int, ...]], list[str]] = {}
    counts: dict[tuple[int, tuple[int, ...]], int] = {}
    for rank, n in rank_counts.items():
        if n <= 0:
            continue
        value = RANK_VALUE[rank]
        seen = tuple((g.sees(rank) if g.shows == "group" else value) if (g := by.get(p)) is not None else 0
                     for p in POSITIONS)
        key = (value, seen)
        merged.setdefault(key, []).append(rank)
        counts[key] = counts.get(key, 0) + n
    return [Kind(v, s, "".join(merged[(v, s)]), counts[(v, s)]) for v, s in sorted(merged)]


def _house(h: int, highest: int, third: int, tableau: tuple[str, ...], all_stand: str) -> int:
    """The house's final total from its two-card total, the seat's third card (-1: it stood), its own third."""
    if h >= 7:
        return h
    draws = (all_stand == "on-0-5" and h <= 5) if highest < 0 else tableau[h][highest] == "D"
    return (h + third) % 10 if draws else h


def _tally(cell: list[int], t: int, h: int, cv: int, rest: list[int], w4: int, w6: int, tableau: tuple[str, ...],
           all_stand: str) -> None:
    """Add one deal of five cards (weight ``w4``; ``w6`` with the sixth card) to its information state's wins and
    losses: standing (the house draws the next card ``cv`` if it draws at all), and drawing it (the house's third is
    the sixth card, ``rest`` of each value)."""
    house = _house(h, -1, cv, tableau, all_stand)
    if t != house:
        cell[0 if t > house else 1] += w6
    you = (t + cv) % 10
    for d in range(10):
        if rest[d]:
            house = _house(h, cv, d, tableau, all_stand)
            if you != house:
                cell[2 if you > house else 3] += w4 * rest[d]


States = dict[tuple[int, int, tuple[int, ...]], list[int]]


def deal(ks: list[Kind], by: dict[str, Glimpse], tableau: tuple[str, ...],
         all_stand: str) -> tuple[States, list[int], int]:
    """Every sequence of six kinds, weighed: by information state (the seat's kinds, what is seen) the wins and
    losses standing and drawing and the rounds; the wins and losses of the naturals; every round."""
    left = [k.count for k in ks]
    # (seat kinds, what is seen) -> [wins, losses] standing, [wins, losses] drawing; naturals apart
    seen_at: States = {}
    natural = [0, 0]  # wins, losses of the rounds where the seat has no decision
    rounds = 0
    view = [p in by for p in POSITIONS]

    order = range(len(ks))
    for a, h1, b, h2 in itertools.product(order, repeat=4):
        # the falling product of the first four cards, taken from the shoe in deal order
        w3 = 1
        for x in (a, h1, b, h2):
            w3 *= left[x]
            left[x] -= 1
        if w3:
            t = (ks[a].value + ks[b].value) % 10
            h = (ks[h1].value + ks[h2].value) % 10
            for c in order:
                w4 = w3 * left[c]
                if not w4:
                    continue
                left[c] -= 1
                rest = [0] * 10  # the sixth card: cards left of each value
                for i, k in enumerate(ks):
                    rest[k.value] += left[i]
                w6 = w4 * sum(rest)
                rounds += w6
                if t >= 8:  # a natural competes at once: no decision
                    if t != h:
                        natural[0 if t > h else 1] += w6
                else:
                    seen = tuple(ks[x].seen[j] if view[j] else 0 for j, x in enumerate((c, h1, h2)))
                    cell = seen_at.setdefault((a, b, seen), [0, 0, 0, 0, 0])
                    cell[4] += w6
                    _tally(cell, t, h, ks[c].value, rest, w4, w6, tableau, all_stand)
                left[c] += 1
        for x in (a, h1, b, h2):
            left[x] += 1
    return seen_at, natural, rounds


def answer(rank_counts: dict[str, int], model: Model, tableau: tuple[str, ...], all_stand: str,
           pay: Fraction) -> Answer:
    """The model answered exactly for one seat on the shoe ``rank_counts`` (cards per rank A 2-9 T J Q K)."""
    by = plan(model)
    ks = kinds(rank_counts, by)
    seen_at, natural, rounds = deal(ks, by, tableau, all_stand)
    # honest play: by the seat's own two cards only
    honest_cell: dict[tuple[int, int], list[int]] = {}
    for (a, b, _), cell in seen_at.items():
        acc = honest_cell.setdefault((a, b), [0, 0, 0, 0])
        for i in range(4):
            acc[i] += cell[i]
    honest_draws = {ab: c[2] * pay - c[3] > c[0] * pay - c[1] for ab, c in honest_cell.items()}
    base = natural[0] * pay - natural[1]
    honest = base + sum(c[2] * pay - c[3] if honest_draws[ab] else c[0] * pay - c[1] for ab, c in honest_cell.items())
    with_model = base
    changed = 0
    by_seen: dict[tuple[int, str, str, str], int] = {}
    for (a, b, seen), cell in seen_at.items():
        stand, draw = cell[0] * pay - cell[1], cell[2] * pay - cell[3]
        with_model += max(stand, draw)
        if (draw > stand) != honest_draws[(a, b)]:
            changed += cell[4]
            key = ((ks[a].value + ks[b].value) % 10, _seen_label(ks, seen, by),
                   "draw" if honest_draws[(a, b)] else "stand", "draw" if draw > stand else "stand")
            by_seen[key] = by_seen.get(key, 0) + cell[4]
    rows = tuple((t, s, o, m, n) for (t, s, o, m), n in sorted(by_seen.items()))
    return Answer(Fraction(with_model) / rounds, Fraction(honest) / rounds, rounds, changed, rows)


def _seen_label(ks: list[Kind], seen: tuple[int, ...], by: dict[str, Glimpse]) -> str:
    """What the seat sees of the glimpsed cards, in words: each position's value or group."""
    out = []
    for j, p in enumerate(POSITIONS):
        g = by.get(p)
        if g is None:
            continue
        if g.shows == "group":
            what = "".join(r for r in "AKQJT98765432" if r in g.groups[seen[j]])
        else:
            what = f"value {seen[j]}"
        out.append(f"{p} {what}")
    return ", ".join(out)


def sections(a: Answer, model: Model, limits: Limits | None, decks: int) -> list[Section]:
    """The model's value for one seat, the draws it changes, and its cost at the table's limits."""
    reading = "; ".join(glimpse_words(g) for g in model.glimpses)
    rows: tuple[tuple[Cell, ...], ...] = (
        ("honest optimal play (one seat)", a.honest, a.honest, None),
        (f"with the model: {model.title}", a.ev, a.ev, Fraction(a.changed, a.rounds)),
        ("what the model is worth", a.value, a.value, None),
    )
    value = Section(
        "information_value", f"House baccarat, one seat: {model.title}",
        (Column("play", "Play"), Column("ev_exact", "EV per unit (exact)", "fraction"),
         Column("ev", "EV per unit", "signed_percent", 4), Column("changed", "Rounds played otherwise", "percent", 3)),
        rows,
        intro=(verdict(a.ev, "unit staked"),
               f"ONE seat against the house (the table's one-seat game). What the seat knows before it draws or "
               f"stands: its own two cards and {reading}. It draws exactly when drawing is worth strictly more over "
               "the rounds that look the same (ties stand, as the game's own optimal play); the honest figure is "
               "the game's own optimal one-seat EV.",
               f"Exact over every ordered sequence of the round's six cards, {a.rounds:,} in all ({decks} decks); "
               "cards a round leaves undrawn count once for every way they can lie."),
        notes=((f"The model's source: {model.source}.",) if model.source else ()))
    changed = Section(
        "information_draws", "Decisions the model changes: by the seat's two-card total and what it sees",
        (Column("total", "Seat total"), Column("seen", "Seen"), Column("honest", "Honest play"),
         Column("model", "With the model"), Column("share", "Share of rounds", "percent", 3)),
        tuple((t, s, o, m, Fraction(n, a.rounds)) for t, s, o, m, n in a.by_seen),
        intro=(f"The seat acts otherwise on {float(Fraction(a.changed, a.rounds)):.3%} of rounds.",))
    return [value, changed, cost_section(a.value, "main", "unit bet", limits,
                                         f"plays with the model ({model.title})")]


def information_sections(session: Session, table_ref: str | None, model: Model, progress: Progress) -> list[Section]:
    """``oddscalc glimpse house-baccarat`` (the game's declaration names this): the model answered for one seat."""
    from oddscalc.games.house_baccarat.count import HouseBaccaratRules

    rules = session.resolve(table_ref)
    assert isinstance(rules, HouseBaccaratRules)
    if rules.players != 1 or rules.infinite:
        raise OptionError("glimpse house-baccarat answers one seat on the finite shoe: a table with players = 1")
    a = answer({r: 4 * rules.decks for r in RANK_VALUE}, model, rules.house_tableau, rules.all_stand, rules.pay)
    progress.finish()
    return sections(a, model, rules.table.model.limits, rules.decks)
