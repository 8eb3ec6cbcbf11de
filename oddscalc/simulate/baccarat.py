"""Punto banco and house baccarat, simulated: point values, drawing tableaux, naturals.

Every round comes from a new shoe, without a cut card, so the exact finite-shoe figures apply;
the cards are taken in table order (a drawing hand takes the next card of the shoe).

House baccarat's players play the exact engine's solved chart when its analysis exposes one (its
``draw`` decisions, played as data), else ``draw-0-5``. With more players than the engine
enumerates on a finite shoe (``FINITE_EXACT_MAX_PLAYERS``) the exact analysis is for an infinite
shoe, so it says nothing exact about the finite-shoe rounds; the simulation then deals every
round from both shoes with the same uniforms and reports :func:`paired_estimate`'s sharper
estimate of the finite-shoe EV beside the plain one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TypeGuard

import numpy as np

from oddscalc.analysis import Session
from oddscalc.games.house_baccarat import game as house_game
from oddscalc.games.house_baccarat.table import HouseBaccaratTable
from oddscalc.games.punto_banco.card_conditions import CardCondition
from oddscalc.games.punto_banco.game import PuntoBanco, PuntoBancoTable
from oddscalc.games.punto_banco.side_bets import CoupRule
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, RunOptions
from oddscalc.simulate.arrays import BoolArray, FloatArray, IntArray
from oddscalc.simulate.dealing import deal, deal_paired, full_shoe
from oddscalc.simulate.plan import Outcome, Outcomes, Plan, Play, tally
from oddscalc.simulate.stats import Estimate
from oddscalc.tables import Table

# point value of each rank 2..A: 2-9 face value, 10/J/Q/K nothing, ace one
POINTS = np.array([2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 1], dtype=np.int64)
_TOTALS = np.add.outer(np.arange(10), np.arange(10)) % 10  # two-card total by the cards' point values
_DRAW_A_B = re.compile(r"^draw-([0-7])-([0-7])$")


def tableau_grid(rows: Sequence[str]) -> BoolArray:
    """A drawing tableau (rows: totals 0-7, letters: third card 0-9, D draws) as a (10, 10) grid;
    totals 8 and 9 never draw."""
    grid = np.zeros((10, 10), dtype=bool)
    for total, row in enumerate(rows):
        grid[total] = [ch == "D" for ch in row]
    return grid


def totals_mask(totals: Sequence[int]) -> BoolArray:
    """(10,) whether each total is among ``totals``."""
    m = np.zeros(10, dtype=bool)
    m[list(totals)] = True
    return m


def _chunk_rounds(shoe_size: int) -> int:
    return max(1_000, 16_000_000 // shoe_size)  # every round copies the whole shoe: bound the batch's memory


# --- punto banco ----------------------------------------------------------------------------------


def coup_features(cards: IntArray, punto_draws: BoolArray, tableau: BoolArray, banca_stood: BoolArray,
                  banca_natural_stops: bool) -> dict[str, IntArray | BoolArray]:
    """Each feature a wager can name (see ``games.coup_features.FEATURES``), per dealt six-card round."""
    ranks, suits = cards >> 2, cards & 3
    v = POINTS[ranks]
    p0 = (v[:, 0] + v[:, 2]) % 10
    b0 = (v[:, 1] + v[:, 3]) % 10
    p_nat, b_nat = p0 >= 8, b0 >= 8
    stop = p_nat | (b_nat & banca_natural_stops)
    p_draws = ~stop & punto_draws[p0]
    b_draws = ~stop & ~b_nat & np.where(p_draws, tableau[b0, v[:, 4]], banca_stood[b0])
    b_third = np.where(p_draws, v[:, 5], v[:, 4])  # the next card of the shoe
    pt = np.where(p_draws, (p0 + v[:, 4]) % 10, p0)
    bt = np.where(b_draws, (b0 + b_third) % 10, b0)
    pn, bn = 2 + p_draws, 2 + b_draws
    return {
        "winner": np.where(pt > bt, "player", np.where(bt > pt, "banker", "tie")),
        "player_total": pt, "banker_total": bt, "player_cards": pn, "banker_cards": bn, "cards": pn + bn,
        "margin": np.abs(pt - bt),
        "player_natural": (pn == 2) & p_nat, "banker_natural": (bn == 2) & b_nat,
        "natural": ((pn == 2) & p_nat) | ((bn == 2) & b_nat),
        "player_pair": ranks[:, 0] == ranks[:, 2], "banker_pair": ranks[:, 1] == ranks[:, 3],
        "player_suited": suits[:, 0] == suits[:, 2], "banker_suited": suits[:, 1] == suits[:, 3],
    }


def _holds(when: Mapping[str, tuple[object, ...]], feats: Mapping[str, IntArray | BoolArray]) -> BoolArray:
    n = len(feats["player_total"])
    held = np.ones(n, dtype=bool)
    for name, values in when.items():
        column = feats[name]
        held &= np.isin(column, np.array(list(values)).astype(column.dtype))
    return held


def _units(pay: Fraction | str, keep: Fraction = Fraction(1)) -> float:
    return 0.0 if pay == "push" else -1.0 if pay == "lose" else float(Fraction(pay) * keep)


def _on_cards(conditions: Sequence[CardCondition], cards: IntArray, feats: Mapping[str, IntArray | BoolArray]
              ) -> BoolArray:
    """Every condition on named cards, read off each round's dealt cards: a third card is the fifth card dealt,
    or the banker's the sixth when the player drew; one not dealt never passes."""
    rows = np.arange(len(cards))
    p3, b3 = feats["player_cards"] == 3, feats["banker_cards"] == 3
    every = np.ones(len(cards), dtype=bool)
    where: dict[str, tuple[IntArray, BoolArray]] = {
        "player1": (np.full(len(cards), 0), every), "banker1": (np.full(len(cards), 1), every),
        "player2": (np.full(len(cards), 2), every), "banker2": (np.full(len(cards), 3), every),
        "player3": (np.full(len(cards), 4), np.asarray(p3)), "banker3": (np.where(p3, 5, 4), np.asarray(b3))}
    held = np.ones(len(cards), dtype=bool)
    for cond in conditions:
        named = [cards[rows, where[p][0]] for p in cond.cards]
        passing = [where[p][1] & cond.passes()[c] for p, c in zip(cond.cards, named, strict=True)]
        n = sum(x.astype(np.int64) for x in passing)
        held &= (n == cond.count if cond.count is not None else n >= cond.at_least if cond.at_least is not None
                 else n == len(cond.cards))
        if cond.same is not None:
            attr = [c >> 2 if cond.same == "rank" else c & 3 if cond.same == "suit" else np.isin(c & 3, (1, 2))
                    for c in named]
            for i in range(len(named)):
                for j in range(i + 1, len(named)):
                    held &= ~(passing[i] & passing[j] & (attr[i] != attr[j]))
    return held


def _first_match(rules: Sequence[CoupRule], feats: Mapping[str, IntArray | BoolArray], keep: Fraction,
                 rest: FloatArray, cards: IntArray | None = None) -> FloatArray:
    """Units of each round: the first rule that holds, else ``rest`` (``cards``: the dealt cards, for the rules
    on the cards)."""
    out = rest.copy()
    free = np.ones(len(rest), dtype=bool)
    for r in rules:
        held = free & _holds(r.when, feats)
        if r.cards:
            assert cards is not None
            held &= _on_cards(r.cards, cards, feats)
        out[held] = _units(r.pays, keep)
        free &= ~held
    return out


def punto_banco_plan(table: Table, options: RunOptions) -> tuple[Plan, Analysis | None]:
    """Deal six cards a round; punto then banca draw by the table's rules; settle every wager of the table."""
    model = table.model
    assert isinstance(model, PuntoBancoTable)
    rules = model.rules
    resolved = PuntoBanco().resolve(table, options)  # the game checks the options, once for both
    if resolved.infinite:
        raise OptionError("simulate deals from a finite shoe; give --decks N for a table with decks = \"infinite\"")
    decks = resolved.decks
    punto_draws = totals_mask(rules.punto_draws_on)
    banca_stood = totals_mask(rules.banca_draws_when_punto_stands)
    tableau = tableau_grid(rules.banca_tableau)
    pays = model.pays
    banker = pays.banker
    keep = 1 - banker.commission
    shoe = full_shoe(decks)

    def hand_bet(side: str, win: float, tie: str, feats: Mapping[str, IntArray | BoolArray]) -> FloatArray:
        w = feats["winner"]
        return np.where(w == side, win, np.where(w == "tie", 0.0 if tie == "push" else -1.0, -1.0))

    def play(rng: np.random.Generator, n: int) -> Outcomes:
        cards = deal(rng, shoe, n, 6)  # punto, banca, punto, banca, then the third cards in turn
        feats = coup_features(cards, punto_draws, tableau, banca_stood, rules.banca_natural_stops_punto)
        tie_rest = np.where(feats["winner"] == "tie", float(pays.tie.win), -1.0)
        out: Outcomes = {
            "banker": Outcome(_first_match(banker.rules, feats, keep,
                                           hand_bet("banker", float(banker.win * keep), banker.tie, feats))),
            "player": Outcome(_first_match(pays.player.rules, feats, Fraction(1),
                                           hand_bet("player", float(pays.player.win), pays.player.tie, feats))),
            "tie": Outcome(_first_match(pays.tie.rules, feats, Fraction(1), tie_rest)),
        }
        for wager, bet in pays.side_bets.items():
            rest = _units(bet.otherwise.pays) if bet.otherwise is not None else np.nan
            out[wager] = Outcome(_first_match(bet.rules, feats, Fraction(1), np.full(n, rest), cards))
        return out

    rules_out = {"decks": decks, "player_draws_on": list(rules.punto_draws_on),
                 "banker_draws_when_player_stands": list(rules.banca_draws_when_punto_stands),
                 "banker_natural_stops_player": rules.banca_natural_stops_punto}
    return Plan(play, "none (the drawing rules decide)", RunOptions(decks=options.decks), rules_out,
                chunk=_chunk_rounds(52 * decks),
                notes=[f"Each coup is dealt from a freshly shuffled shoe of {decks} deck(s) (no cut card)."]), None


# --- house baccarat: the players' chart -----------------------------------------------------------


def by_totals(totals: Sequence[int]) -> BoolArray:
    """(10, 10) draw grid by the two cards' point values: draw on these two-card totals (never on 8, 9)."""
    return np.asarray(np.isin(_TOTALS, list(totals)) & (_TOTALS < 8))


def solved_chart(analysis: Analysis) -> BoolArray | None:
    """The played draw/stand chart of a house baccarat analysis, as a (10, 10) grid by the point
    values of the two cards, read from its ``draw`` decisions (one per composition ``(u, w)``);
    None when the analysis exposes no such decisions."""
    try:
        draw = analysis.decision("draw")
    except KeyError:
        return None
    if draw.keys is None or len(draw.keys) != len(draw.array()):
        return None
    grid = np.zeros((10, 10), dtype=bool)
    for key, drawn in zip(draw.keys, np.asarray(draw.array(), dtype=bool).tolist()):
        if not _is_composition(key):
            return None
        u, w = (int(x) for x in key)
        grid[u, w] = grid[w, u] = drawn
    return grid & (_TOTALS < 8)


def _is_composition(key: object) -> TypeGuard[tuple[int, int]]:
    """Whether a decision key is a two-card composition: two point values 0..9."""
    return (isinstance(key, tuple) and len(key) == 2
            and all(isinstance(x, int | np.integer) and 0 <= x < 10 for x in key))


def _describe_chart(grid: BoolArray) -> str:
    totals = [t for t in range(8) if grid[_TOTALS == t].all()]
    if all(grid[_TOTALS == t].any() == (t in totals) for t in range(8)):
        return "draw on " + (", ".join(map(str, totals)) or "no total") + ", stand otherwise"
    draws = [f"{u}+{w}" for u in range(10) for w in range(u, 10) if grid[u, w]]
    return "draw on the two-card point values " + " ".join(draws)


# --- house baccarat: a round ----------------------------------------------------------------------


def house_seats(v: IntArray, players: int, draws: BoolArray, tableau: BoolArray, all_stand: BoolArray,
                pay: float) -> FloatArray:
    """(n, players) net units of each seat, for (n, 3 * players + 3) point values in table order: one
    card to each player and the house, a second round, then third cards off the shoe as needed."""
    k = 3 * players + 3
    first, second = v[:, :players], v[:, players + 1:2 * players + 1]
    h0 = (v[:, players] + v[:, 2 * players + 1]) % 10
    t0 = (first + second) % 10
    natural = t0 >= 8
    any_natural: BoolArray = np.any(natural, axis=1)
    drew = ~any_natural[:, None] & draws[first, second]
    pos = 2 * players + 2 + np.cumsum(drew, axis=1) - drew  # the next card of the shoe for each drawer
    third = np.take_along_axis(v, np.minimum(pos, k - 1), axis=1)
    final = np.where(drew, (t0 + third) % 10, t0)
    highest = np.where(drew, third, -1).max(axis=1)
    house_card = np.take_along_axis(v, (2 * players + 2 + drew.sum(axis=1))[:, None], axis=1)[:, 0]
    house_draws = ~any_natural & np.where(highest >= 0, tableau[h0, np.maximum(highest, 0)], all_stand[h0])
    house = np.where(house_draws, (h0 + house_card) % 10, h0)
    diff = final - house[:, None]
    seat = np.where(diff > 0, pay, np.where(diff < 0, -1.0, 0.0))
    return np.where(any_natural[:, None] & ~natural, 0.0, seat)  # another player's natural: sit out


def _all_stand_mask(rule: str) -> BoolArray:
    return totals_mask(range(6)) if rule == "on-0-5" else totals_mask([])


def _value_counts(decks: int) -> list[int]:
    """Cards of each point value 0..9 in the shoe."""
    return [int(c) for c in np.bincount(POINTS[full_shoe(decks) >> 2], minlength=10)]


def _finite_play(decks: int, players: int, draws: BoolArray, tableau: BoolArray, all_stand: BoolArray,
                 pay: float) -> Play:
    """Rounds dealt from a freshly shuffled shoe of ``decks`` decks: a round's value is its seats' mean."""
    shoe = full_shoe(decks)
    k = 3 * players + 3

    def play(rng: np.random.Generator, n: int) -> Outcomes:
        seats = house_seats(POINTS[deal(rng, shoe, n, k) >> 2], players, draws, tableau, all_stand, pay)
        return {"main": Outcome(seats.mean(axis=1), (seats > 0).mean(axis=1))}

    return play


def _paired_play(decks: int, players: int, draws: BoolArray, tableau: BoolArray, all_stand: BoolArray,
                 pay: float, exact_infinite: float) -> Play:
    """Rounds dealt from the finite shoe and, with the same uniforms, from the infinite one: the finite
    shoe's outcome, with ``paired`` = exact infinite-shoe EV + (finite - infinite) per round."""
    counts = _value_counts(decks)
    k = 3 * players + 3

    def play(rng: np.random.Generator, n: int) -> Outcomes:
        finite, infinite = deal_paired(rng, counts, n, k)
        seats = house_seats(finite, players, draws, tableau, all_stand, pay)
        mean = seats.mean(axis=1)
        infinite_mean = house_seats(infinite, players, draws, tableau, all_stand, pay).mean(axis=1)
        return {"main": Outcome(mean, (seats > 0).mean(axis=1), paired=exact_infinite + (mean - infinite_mean))}

    return play


def paired_estimate(decks: int, players: int, draws: BoolArray, tableau: Sequence[str], all_stand: str,
                    pay: Fraction, exact_infinite: Fraction, rounds: int, seed: int = 1) -> tuple[Estimate, Estimate]:
    """The finite-shoe EV of house baccarat per unit staked, every seat playing ``draws``: (plain, paired).

    Each round is dealt from a freshly shuffled shoe of ``decks`` decks and, with the same uniforms,
    from the infinite shoe. ``plain`` is the mean finite-shoe result; ``paired`` is
    ``exact_infinite`` (the exact infinite-shoe EV of the same play) plus the mean finite-minus-infinite
    difference. The difference varies far less than either result, so ``paired`` is the sharper
    estimate of the same figure. Neither has an exact value attached.
    """
    play = _paired_play(decks, players, draws, tableau_grid(tableau), _all_stand_mask(all_stand), float(pay),
                        float(exact_infinite))
    sums = tally(play, np.random.Generator(np.random.PCG64(seed)), rounds, _chunk_rounds(52 * decks))
    return (Estimate.of("main", "expected_value", sums["main", "expected_value"]),
            Estimate.of("main", "paired_expected_value", sums["main", "paired_expected_value"]))


# --- house baccarat: the plan ---------------------------------------------------------------------


def house_baccarat_plan(table: Table, options: RunOptions) -> tuple[Plan, Analysis | None]:
    """Deal 3 * players + 3 cards a round; every seat plays one chart; settle each seat against the house."""
    model = table.model
    assert isinstance(model, HouseBaccaratTable)
    rules = model.rules
    resolved = house_game.HouseBaccarat().resolve(table, options)  # the game checks the options, once for both
    decks, players, finite_exact = resolved.decks, resolved.players, not resolved.infinite
    notes: list[str] = []
    exact_options = options
    name = options.strategy or ("table" if rules.draw_on is not None else rules.strategy or "optimal")
    grid: BoolArray | None = None
    analysis: Analysis | None = None
    if name == "table":
        assert rules.draw_on is not None
        grid = by_totals(rules.draw_on)
    elif name in ("optimal", "optimal-total"):
        analysis = Session(house_game.HouseBaccarat.key, options).analyze(table)
        grid = solved_chart(analysis)
        if grid is None:
            notes.append(f"The exact analysis exposes no solved chart for {name!r} (no 'draw' decisions); the "
                         "simulator plays draw-0-5 and compares with the exact value for draw-0-5.")
            name = "draw-0-5"
            exact_options = RunOptions(strategy=name, decks=options.decks, players=options.players,
                                       progress=options.progress)
            analysis = None
        else:
            solved_on = "" if finite_exact else f", solved on an infinite shoe for {players} players"
            notes.append(f"Players play the exact engine's solved {name} chart (its draw decisions, played as "
                         f"data{solved_on}): {_describe_chart(grid)}.")
    if grid is None:
        m = _DRAW_A_B.match(name)
        if not m or int(m.group(1)) > int(m.group(2)):
            raise OptionError(f"unknown strategy {name!r}; use optimal, optimal-total or draw-A-B (e.g. draw-0-5)")
        grid = by_totals(range(int(m.group(1)), int(m.group(2)) + 1))
    tableau = tableau_grid(rules.house_tableau)
    all_stand = _all_stand_mask(rules.house_draws_when_all_stand)
    pay = float(model.pays.main.win)
    if finite_exact:
        play = _finite_play(decks, players, grid, tableau, all_stand, pay)
    else:
        if analysis is None:  # the paired estimate needs the exact infinite-shoe EV of this play
            analysis = Session(house_game.HouseBaccarat.key, exact_options).analyze(table)
        exact_infinite = analysis.wager("main").expected_value
        play = _paired_play(decks, players, grid, tableau, all_stand, pay, float(exact_infinite))
        notes.append(
            f"With {players} players the exact analysis is for an INFINITE shoe (cards drawn with replacement; the "
            f"finite shoe is enumerated exactly up to {house_game.FINITE_EXACT_MAX_PLAYERS} players), so no exact "
            "value applies to these finite-shoe rounds and none is compared.")
        notes.append(
            f"paired_expected_value estimates the same finite-shoe EV more sharply: the exact infinite-shoe EV "
            f"({float(exact_infinite):.6f}) plus the mean finite-minus-infinite difference, each round being dealt "
            "from both shoes with the same uniforms (common random numbers).")

    rules_out = {"decks": decks, "players": players, "house_draws_when_all_stand": rules.house_draws_when_all_stand,
                 "strategy": name}
    if players > 1:
        notes.append(f"A round's value is the average over its {players} seats (exchangeable, one strategy).")
    notes.append(f"Each round is dealt from a freshly shuffled shoe of {decks} deck(s) (no cut card).")
    plan = Plan(play, f"{name}: {_describe_chart(grid)}", exact_options, rules_out, chunk=_chunk_rounds(52 * decks),
                notes=notes, compare_exact=finite_exact)
    return plan, analysis
