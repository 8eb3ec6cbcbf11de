"""House baccarat's report: the strategy sections, the headline and the whole analysis of a table."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np

from oddscalc.exact import frac_str, percent_str
from oddscalc.files import is_path
from oddscalc.games.house_baccarat.count import HouseBaccaratRules, SeatCounts
from oddscalc.games.house_baccarat.others import NATURAL
from oddscalc.games.house_baccarat.settle import Solved, best_by_composition, best_by_total, main_wager, seat_ev
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS, TOTAL, Strategy
from oddscalc.games.house_baccarat.table import HouseBaccaratTable
from oddscalc.games.shoe import VALUES, tableau_section
from oddscalc.results import Analysis, Cell, Column, Decisions, Section, WagerResult

_CARD_VALUE = ["0 (10/J/Q/K)", "1 (A)", "2", "3", "4", "5", "6", "7", "8", "9"]


def strategy_text(s: Strategy) -> str:
    """The strategy as a report names it: its totals, or a pointer to the appendix."""
    totals = s.totals()
    if totals is not None:
        return f"{s.name}: draw on {', '.join(map(str, totals)) or 'no total'}, stand otherwise"
    return f"{s.name}: by two-card composition (see the appendix)"


def _hand_ev(sc: SeatCounts, pay: Fraction, cells: Sequence[tuple[int, int]]) -> tuple[Fraction, Fraction] | None:
    """EV if these hands draw and if they stand, per unit staked on them; None when the shoe deals none of them
    (a small shoe may not hold two cards of a value)."""
    ev = sc.ev(pay)
    weight = sum(sum(sc.counts[:, u, w, 0]) for u, w in cells)
    if not weight:
        return None
    return (Fraction(sum(ev[u, w, 1] for u, w in cells), weight),
            Fraction(sum(ev[u, w, 0] for u, w in cells), weight))


def pct(x: Fraction) -> str:
    """A signed percentage to four places."""
    return ("+" if x > 0 else "") + percent_str(x, 4)


def strategy_sections(sc: SeatCounts, pay: Fraction, played: Strategy, label: str, others: bool) -> list[Section]:
    """Best play by total and by composition, where they differ, and named plays compared."""
    comp = best_by_composition(sc, pay)
    tot = best_by_total(sc, pay)
    tot_draws = set(tot.totals() or [])
    rows: list[tuple[Cell, ...]] = []
    for t in range(8):
        evs = _hand_ev(sc, pay, [(u, w) for u in range(VALUES) for w in range(VALUES) if TOTAL[u, w] == t])
        if evs is None:
            rows.append((t, "never dealt", None, None, None))
            continue
        ev_d, ev_s = evs
        rows.append((t, "draw" if t in tot_draws else "stand", ev_d, ev_s, ev_d - ev_s))
    by_total = Section(
        "best_by_total", "Best play by two-card total",
        (Column("total", "Your total", "int"), Column("best", "Best play"),
         Column("ev_draw", "EV if you draw", "signed_percent"), Column("ev_stand", "EV if you stand", "signed_percent"),
         Column("draw_minus_stand", "Draw - stand", "signed_percent")),
        tuple(rows), intro=(label,),
        notes=("EV is per unit staked, given that hand"
               + (" (counting the rounds in which you sit out)." if others else "."),
               f"Best play by total: draw on {', '.join(map(str, sorted(tot_draws))) or 'no total'}; "
               f"EV {pct(seat_ev(sc, tot, pay))} per unit staked."))

    cm = comp.matrix
    grid: list[tuple[Cell, ...]] = [
        (_CARD_VALUE[u], *("nat" if NATURAL[u, w] else "D" if cm[u, w] else "S" for w in range(VALUES)))
        for u in range(VALUES)]
    by_comp = Section(
        "best_by_composition", "Best play by two-card composition",
        (Column("first", "First card \\ second"), *(Column(f"second_{w}", str(w)) for w in range(VALUES))),
        tuple(grid), intro=(label, "D = draw, S = stand, nat = natural (shown at once)."),
        notes=(f"Best play by composition: EV {pct(seat_ev(sc, comp, pay))} per unit staked.",))

    differ: list[tuple[Cell, ...]] = []
    for u, w in COMPOSITIONS:
        evs = _hand_ev(sc, pay, [(u, w), (w, u)] if u != w else [(u, w)])
        best = "draw" if cm[u, w] else "stand"
        by_tot = "draw" if TOTAL[u, w] in tot_draws else "stand"
        if best != by_tot and evs is not None:  # a composition never dealt has no play to differ
            differ.append((f"{u}+{w}", int(TOTAL[u, w]), best, by_tot, *evs))
    differs = Section(
        "composition_differs", "Compositions played differently from their total",
        (Column("cards", "Cards"), Column("total", "Total", "int"), Column("best", "Best for these cards"),
         Column("best_by_total", "Best for the total"), Column("ev_draw", "EV if you draw", "signed_percent"),
         Column("ev_stand", "EV if you stand", "signed_percent")),
        tuple(differ), intro=(label,),
        notes=() if differ else ("The best play depends on the total only: no composition differs from its total.",))

    compare = [("optimal (by composition)", comp), ("optimal-total (by total)", tot),
               ("draw-0-5", Strategy.by_totals("draw-0-5", range(6))), ("never draw", Strategy.by_totals("stand", [])),
               ("draw-0-2", Strategy.by_totals("draw-0-2", range(3)))]
    if all(played.draws != s.draws for _, s in compare):
        compare.append((f"this report's ({played.name})", played))
    compared = Section(
        "play_compared", "Your play compared",
        (Column("strategy", "Your play"), Column("expected_value", "EV per unit staked", "signed_percent"),
         Column("house_edge", "House edge", "signed_percent")),
        tuple((text, seat_ev(sc, s, pay), -seat_ev(sc, s, pay)) for text, s in compare), intro=(label,))
    return [by_total, by_comp, differs, compared]



def decisions(sc: SeatCounts, played: Strategy) -> Decisions:
    """Draw or stand for each two-card composition, with the combinations each hand stands for."""
    m = played.matrix
    weights = [sum(int(x) for x in sc.counts[:, u, w, 0])
               + (sum(int(x) for x in sc.counts[:, w, u, 0]) if u != w else 0) for u, w in COMPOSITIONS]
    return Decisions("draw", "draw (else stand), per two-card composition by point values",
                     np.array([bool(m[u, w]) for u, w in COMPOSITIONS]), np.array(weights, dtype=object),
                     lambda i: f"{COMPOSITIONS[i][0]}+{COMPOSITIONS[i][1]} (total {sum(COMPOSITIONS[i]) % 10})",
                     keys=COMPOSITIONS)


def optimum_text(players: int) -> str:
    """How the optimum is played: with several seats "optimal" has no single meaning (the seats play a game, and
    this is one equilibrium of it)."""
    return "optimal play" if players == 1 else \
        "the symmetric equilibrium reached by best replies (every seat plays it; it need not be the only one)"


def analysis(key: str, rules: HouseBaccaratRules, optimum: Solved, played: Solved, exact_max: int) -> Analysis:
    """The report of ``rules``: the optimum and the played strategy (``settle.plays``), the wager, the strategy
    sections and the house's drawing rules (``exact_max``: the most players enumerated on the finite shoe)."""
    model = rules.table.model
    assert isinstance(model, HouseBaccaratTable)
    players, pay, shoe = rules.players, rules.pay, rules.shoe
    exact_finite = not rules.infinite
    ev_opt = seat_ev(optimum.counts, optimum.strategy, pay)
    ev_played = seat_ev(played.counts, played.strategy, pay)

    shoe_text = (f"finite shoe of {shoe.label}, exact" if exact_finite else
                 f"INFINITE shoe (cards drawn with replacement), exact; the finite shoe of {shoe.label} is not "
                 f"enumerated beyond {exact_max} players (oddscalc simulate house-baccarat "
                 f"--players {players} estimates it)")
    reading = ("the house stands when no player drew (literal reading of the sheet)"
               if rules.all_stand == "never" else
               "the house draws on 0-5 when every player stood (as in punto banco)")
    # the verdict (every report's first line) judges the wager as played; the optimum follows when it differs
    same = played.strategy.draws == optimum.strategy.draws
    play = (optimum_text(players) if same else f"the play of this report ({strategy_text(played.strategy)})") + \
        ("" if exact_finite else " (infinite shoe)")
    headline: list[str] = []
    if not same:
        line = (f"Under {optimum_text(players)} ({strategy_text(optimum.strategy)}) a player's EV is "
                f"{pct(ev_opt)} per unit staked (exact {frac_str(ev_opt)}).")
        if ev_played > ev_opt:
            reply = best_by_composition(played.counts, pay, "best reply")
            line += (" The play of this report earns more only because every seat plays it (their third "
                     "cards make the house draw more): against such seats your own best play "
                     f"({strategy_text(reply).removeprefix('best reply: ')}) earns "
                     f"{pct(seat_ev(played.counts, reply, pay))}.")
        headline.append(line)
    headline.append(f"Reading: {reading}; {players} player{'s' if players > 1 else ''} at the table"
                    + ("" if players == 1 else ", every seat playing the same strategy") + f"; {shoe_text}.")
    headline.append("The house's edge depends on how many seats are filled, and with several seats the players' "
                    "choices are a game among them: oddscalc seats house-baccarat --players N gives the edge by "
                    "seats filled, every symmetric equilibrium, the best common "
                    "strategy the seats could agree on, and one seat's best reply to the others.")

    notes = [f"Shoe: {shoe_text}."]
    if players > 1:
        notes.append("The other seats play the same strategy; their naturals make you sit out and their third "
                     "cards steer the house's draw.")
    if rules.fixed is None and players > 1:
        notes.append(f"Strategy: fixed point of best responses, reached after {played.iterations} evaluation(s).")
    wager = main_wager(played.counts, played.strategy, pay, strategy_text(played.strategy), notes)
    # the strategy's id (a name, "table", or the card's file name without .toml), its words beside
    given = rules.options.strategy
    sid = Path(given).stem if given is not None and is_path(given) else rules.strategy
    wager = WagerResult(wager.wager, wager.title, sid, wager.total_combinations, wager.rows,
                        wager.unit, extras={"expected_value_optimal_play": ev_opt}, notes=wager.notes,
                        strategy_title=wager.strategy)

    label = (("Exact on a " if exact_finite else "Exact on an ") + (f"finite shoe of {shoe.label}" if exact_finite
             else "infinite shoe") + (f", {players} players; the other seats play this report's strategy."
                                      if players > 1 else ", one player."))
    sections = strategy_sections(played.counts, pay, played.strategy, label, players > 1)
    when_none = ("the house stands (literal reading of the sheet)" if rules.all_stand == "never"
                 else "the house draws on 0-5, as banca does in punto banco (a reading: the sheet says it stands)")
    sections.append(tableau_section(
        "house_drawing_rules", "House drawing rules", rules.house_tableau, "House total", "highest third card",
        intro=("The house stands on 7 or more. Below that its draw depends on the highest third card dealt to "
               "the players who drew (by point value: 10/J/Q/K count 0):",),
        notes=(f"When no player drew: {when_none}.",)))

    resolved = {**rules.shown(), "strategy": played.strategy.name}
    if exact_finite:
        convention = (
            f"one combination is one ordered sequence of the {3 * players + 3} cards a round with {players} "
            f"player{'s' if players > 1 else ''} can use at most (two per player, two for the house, a third "
            f"card per player and one for the house), from a shoe of {shoe.label}: "
            f"{shoe.size}P{3 * players + 3} = {wager.total_combinations:,}; cards a round leaves undealt "
            "count once for every way they can lie"
            + (" (for one player this is the punto banco convention)" if players == 1 else ""))
    else:
        red, size = shoe.reduced()
        convention = (
            f"INFINITE SHOE: one combination is one ordered sequence of {3 * players + 3} cards drawn with "
            f"replacement from {size} equally likely cards ({red[0]} of value 0, one of each other value), "
            f"{size}^{3 * players + 3} = {wager.total_combinations:,}")
    return Analysis(key, rules.table, resolved, convention, (wager,), headline=tuple(headline), play=play,
                    sections=tuple(sections), assumptions=tuple(model.assumptions),
                    decisions=(decisions(played.counts, played.strategy),),
                    published_applies=rules.published_applies)
