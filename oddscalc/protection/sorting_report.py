"""What a glimpse of punto banco's cards is worth, as report sections (``oddscalc glimpse punto-banco``).

The player sees what the model says, then bets on the best of its choices by exact EV (``none``: he sits the coup
out). The sections give the EV per coup with that use of what is seen beside the best EV with nothing seen, the
share of coups worth a bet, the cost to the house per hour at the table's ``[limits]``, each pattern seen with its
probability and best bet, and on request the search over every two-group sort of the ten baccarat values.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from oddscalc.games.punto_banco.game import PuntoBancoRules
from oddscalc.progress import Progress
from oddscalc.protection import sorting, sorting_ranks
from oddscalc.protection.glimpse import Glimpse, Model
from oddscalc.protection.information_common import verdict
from oddscalc.protocol import OptionError
from oddscalc.results import Cell, Column, Section

if TYPE_CHECKING:
    from oddscalc.analysis import Session

COUPS_PER_HOUR = 60  # assumed, and said so, when the table's [limits] state no rounds_per_hour
MOST_PATTERNS = 200  # pattern rows listed at most (the most probable first when there are more)

# Published figures (8 decks, banker pays 1:1 less 5%, tie 8:1, player, banker, tie or nothing): the player's edge
# with the groups {6, 7, 8, 9} and the rest seen on the first card, on the first four, and with the best sort of the
# first four. Eliot Jacobson, "Edge Sorting in Baccarat" (apheat.net, 18 August 2012) and "Edge Sorting in
# Baccarat, Update #1" (apheat.net), the best sort found by Fred Roach's search over 1,023 sorts.
JACOBSON = ("Eliot Jacobson, 'Edge Sorting in Baccarat' (apheat.net, 18 August 2012) and 'Edge Sorting in Baccarat, "
            "Update #1' (apheat.net), with Fred Roach's search over 1,023 sorts")
PUBLISHED_FIRST_CARD = Fraction(6765, 100000)
PUBLISHED_FIRST_FOUR = Fraction(20928, 100000)
PUBLISHED_BEST_SORT = Fraction(30291, 100000)
CLASSIC = (frozenset("6789"), frozenset("A2345TJQK"))


def _choices(model: Model) -> tuple[str, ...]:
    bad = [c for c in model.choices if c not in sorting.CHOICES]
    if bad:
        raise OptionError(f"model {model.id}: choices: {bad[0]!r} is not one of {', '.join(sorting.CHOICES)}")
    return model.choices or sorting.CHOICES


def published(model: Model, rules: PuntoBancoRules) -> Fraction | None:
    """The published edge of this case, when the model and the table are the case published (by their content)."""
    pays = rules.model.pays
    same_game = (not rules.infinite and rules.decks == 8 and pays.banker.commission == Fraction(1, 20)
                 and pays.tie.win == 8 and pays.player.win == 1 and pays.banker.win == 1
                 and not (pays.player.rules or pays.banker.rules or pays.tie.rules)
                 and set(_choices(model)) == set(sorting.CHOICES))
    if not same_game or any(g.shows != "group" or set(g.groups) != set(CLASSIC) for g in model.glimpses):
        return None
    positions = {g.position for g in model.glimpses}
    return {frozenset({"player_1"}): PUBLISHED_FIRST_CARD,
            frozenset(sorting.FIRST_FOUR): PUBLISHED_FIRST_FOUR}.get(frozenset(positions))


def _money(rules: PuntoBancoRules, counted: sorting.Glimpsed) -> tuple[str, Fraction, str]:
    """The player's expected win per coup betting the table's maximum on the best bet when it gains (the house's
    cost), with its unit; per unit staked when the table states no [limits]."""
    limits = rules.model.limits
    maxima = [Fraction(0) if c == sorting.NONE else
              (Fraction(limits.bets[c].max) if limits is not None and c in limits.bets else Fraction(1) if
               limits is None else Fraction(0)) for c in counted.choices]
    won = sum((max(Fraction(0), *(Fraction(r) * mx for r, mx in zip(p.returns, maxima))) for p in counted.patterns),
              Fraction(0)) / (counted.den * counted.total)
    if limits is None:
        return "units staked", won, "The table states no [limits]: the cost is in units of the stake."
    unit = limits.currency or "money"
    told = ", ".join(f"{c} {limits.bets[c].max}" for c in counted.choices if c in limits.bets)
    return unit, won, (f"At the table's [limits]: the maximum bet on each wager ({told} {unit}); a wager without a "
                       "limit is not bet.")


def value_section(model: Model, rules: PuntoBancoRules, counted: sorting.Glimpsed) -> Section:
    """The model's value: EV per coup with the glimpses, without, the share bet, the house's cost per hour."""
    ev = counted.ev()
    bet, blind = counted.blind()
    unit, won, said = _money(rules, counted)
    limits = rules.model.limits
    hourly, paced = limits.pace(COUPS_PER_HOUR) if limits is not None else (
        COUPS_PER_HOUR, f"{COUPS_PER_HOUR} rounds an hour (an assumption: the table states no [limits])")
    edge = published(model, rules)
    notes = [said]
    if edge is not None:
        notes.append(f"Published: {float(edge):.3%} ({JACOBSON}); exact here {float(ev):.4%}: the same to the "
                     "published three places, under the published convention (eight decks, six-card sequences, the "
                     "player may bet player, banker, tie or nothing).")
    rows: tuple[tuple[Cell, ...], ...] = (
        ("ev_seen", "EV per coup, best bet on what is seen", ev, ev),
        ("ev_blind", f"EV per coup with nothing seen (best: {bet})", blind, blind),
        ("value", "Value of the information", ev - blind, ev - blind),
        ("share_bet", "Share of coups worth a bet", counted.betting(), counted.betting()),
        ("cost_per_coup", f"House's cost per coup ({unit})", won, won),
        ("cost_per_hour", f"House's cost per hour at {hourly} coups ({unit})", won * hourly, won * hourly),
    )
    return Section(
        "glimpse_value", f"{model.title}: what the glimpse is worth",
        (Column("figure", "Figure id"), Column("label", "Figure"), Column("exact", "Exact", "fraction"),
         Column("value", "Value", "decimal", 6)), rows,
        intro=(verdict(ev, "coup (units staked)"),
               f"Seen before the bet: {'; '.join(_said(g) for g in counted.glimpses)}. The player then bets on the "
               f"best of {', '.join(counted.choices)} by exact EV, at the table's pays.",
               f"Counting convention: every ordered sequence of the coup's six cards (a seen burn card one more in "
               f"front), {counted.total:,} in all; cards a coup leaves undrawn count once for every way they can lie. "
               f"EVs are per unit staked on a coup bet; the hourly cost is at {paced}."),
        notes=tuple(notes))


def _said(g: Glimpse) -> str:
    what = {"card": "the card", "rank": "its rank", "suit": "its suit", "colour": "its colour"}.get(g.shows)
    if what is None:
        what = "its group (" + " | ".join(sorted(sorting.seen_label(g, i) for i in range(len(g.groups)))) + ")"
    return f"{g.position}: {what}"


def patterns_section(counted: sorting.Glimpsed) -> Section:
    """Each pattern seen: its probability, the best choice and its EV, and every choice's EV."""
    pats = list(counted.patterns)
    left = 0
    if len(pats) > MOST_PATTERNS:
        pats = sorted(pats, key=lambda p: -p.count)[:MOST_PATTERNS]
        left = len(counted.patterns) - MOST_PATTERNS
    rows: list[tuple[Cell, ...]] = []
    for p in pats:
        best = p.best()
        evs = [Fraction(r, counted.den * p.count) for r in p.returns]
        rows.append((counted.label(p), Fraction(p.count, counted.total), counted.choices[best], evs[best], *evs))
    return Section(
        "glimpse_patterns", "What is seen, and the best bet on it",
        (Column("seen", "Seen"), Column("probability", "Probability", "percent", 4),
         Column("best", "Best bet"), Column("best_ev", "Best EV", "signed_percent", 4),
         *(Column(f"ev_{c}", f"EV {c}", "signed_percent", 4) for c in counted.choices)),
        tuple(rows),
        notes=(f"{left:,} more patterns, each less probable, are not listed.",) if left else ())


def search_section(rules: PuntoBancoRules, model: Model, best: int, progress: Progress, ranks: bool = False) -> Section:
    """The ``best`` two-group sorts of the ten values at the model's positions, by EV (``--search-sorts``); with
    ``ranks`` of the thirteen ranks, the four zero ranks split too (``--sort-ranks``)."""
    positions = [g.position for g in model.glimpses]
    choices = _choices(model)
    pays = sorting.outcome_pays(rules.model.pays, choices)
    progress.say("every value seen")
    counted = sorting.count(rules.cards, rules.drawing, sorting.by_value(positions), choices, pays, rules.infinite)
    progress.say("1,023 sorts")
    found = sorting.value_sorts(counted)
    distinct: dict[frozenset[int], tuple[int, Fraction]] = {}
    for subset, ev in found:
        pair = frozenset({subset, (2**10 - 1) ^ subset})
        distinct.setdefault(pair, (subset, ev))
    labelled = [(sorting.sort_label(s), ev) for s, ev in distinct.values()]
    splitting: list[tuple[frozenset[str], Fraction]] = []
    if ranks:
        progress.say("the sorts splitting T J Q K")
        splitting = sorting_ranks.splitting_sorts(rules.cards, rules.drawing, positions, choices, pays,
                                                  rules.infinite)
        labelled = [(_value_as_ranks(s), ev) for s, ev in distinct.values()]
        labelled += [(sorting_ranks.rank_label(marked) + _alike(marked), ev) for marked, ev in splitting]
    ranked = sorted(labelled, key=lambda s: (-s[1], s[0]))
    rows = tuple((i + 1, label, ev, ev) for i, (label, ev) in enumerate(ranked[:best]))
    notes = []
    if set(positions) == set(sorting.FIRST_FOUR) and published(
            Model("", "", "punto-banco", tuple(Glimpse(p, "group", CLASSIC) for p in positions)), rules) is not None:
        notes.append(f"Published best sort of the first four cards: {float(PUBLISHED_BEST_SORT):.3%} ({JACOBSON}); "
                     f"exact here {float(ranked[0][1]):.4%}.")
    intro = ["How the sorts are counted: a sort marks a subset of the ten values (0 for tens and faces, 1 for the "
             "ace); the 2^10 - 1 = 1,023 non-empty subsets are each evaluated (the count published searches give). "
             "A subset and its complement make the same two groups, and the full set makes one group (nothing "
             f"seen), so they are {len(distinct) - 1:,} distinct sorts and the trivial one; each is listed once."]
    if ranks:
        intro.append(f"With the thirteen ranks: {sorting_ranks.PARTITIONS:,} two-group partitions of A 2-9 T J Q K, "
                     f"{sorting_ranks.VALUE_PARTITIONS} of them keeping T J Q K together (the sorts of the values "
                     f"above) and {sorting_ranks.PARTITIONS - sorting_ranks.VALUE_PARTITIONS:,} splitting them. T, J, "
                     "Q and K are alike in value and in copies, so a splitting sort is counted once for each way of "
                     "splitting them: one of them against three, or two against two, with any subset of the values "
                     f"1-9 ({len(splitting):,} counts, each standing for the sorts that differ only in which zero "
                     "ranks are marked: a row marked '(T: any one of T J Q K)' or '(T J: any two)' is all of them).")
    title = "ten values" if not ranks else "thirteen ranks"
    return Section(
        "sort_search", f"The best two-group sorts of the {title}, seen at {', '.join(positions)}",
        (Column("rank", "Rank", "int"), Column("sort", "Groups of values" if not ranks else "Groups of ranks"),
         Column("ev_exact", "EV (exact)", "fraction"), Column("ev", "EV per coup", "signed_percent", 4)), rows,
        intro=tuple(intro), notes=tuple(notes))


def _value_as_ranks(subset: int) -> str:
    """A sort of the values written as its groups of ranks, like a sort of the ranks."""
    marked, _ = sorting.sort_groups(subset)
    return sorting_ranks.rank_label(marked)


def _alike(marked: frozenset[str]) -> str:
    """Which zero ranks a splitting sort's row stands for."""
    zeros = [r for r in sorting_ranks.ZEROS if r in marked]
    return " (T: any one of T J Q K)" if len(zeros) == 1 else " (T J: any two of T J Q K)"


def glimpse_sections(session: Session, table_ref: str | None, model: Model, progress: Progress,
                     search: int = 0, ranks: bool = False) -> list[Section]:
    """The ``glimpse`` command for punto banco (its declaration names this): the model's value and its patterns;
    with ``search`` the best that many sorts of the ten values at the model's positions."""
    rules = session.resolve(table_ref)
    assert isinstance(rules, PuntoBancoRules)
    choices = _choices(model)
    pays = sorting.outcome_pays(rules.model.pays, choices)
    progress.say(model.id)
    counted = sorting.count(rules.cards, rules.drawing, model.glimpses, choices, pays, rules.infinite)
    out = [value_section(model, rules, counted), patterns_section(counted)]
    if search:
        out.append(search_section(rules, model, search, progress, ranks))
    progress.finish()
    return out


__all__ = ["COUPS_PER_HOUR", "glimpse_sections", "patterns_section", "published", "search_section", "value_section"]
