"""House baccarat as a game among its seats: symmetric equilibria, the best common strategy, best replies.

The house draws on the highest third card among the players who drew, so each seat's choice moves
every other seat's result. With the other seats all playing a strategy S (draw or stand per two-card
composition), your seat's exact outcome counts for both actions of every hand are known
(``house_baccarat.seat_counts``). From them:

- a best reply to S: per composition, draw exactly when drawing earns more (both orders of the two
  cards together); ties may go either way;
- S is a symmetric equilibrium when S itself is a best reply to S: every composition it draws on
  earns at least as much drawn, every one it stands on at least as much stood;
- the best common strategy is the S that gives each seat the most when every seat plays it; it need
  not be an equilibrium (a seat gains by leaving it).

The strategy space has 2^44 members. Every symmetric equilibrium is found by the complete search of
``seat_search`` (monotone bounds on the other seats' counts), at any table size, and each is verified
exactly here; two seats have a second, independent enumeration (``two_seats``), and the two lists
must agree. The best common strategy of two seats is the optimum over all 2^44 (``two_seats``); with
more seats, the best of a stated family (draw on 0 to t, or every set of totals with ``exhaustive``)
improved one composition at a time until no single change gains, stated as a local optimum, or with
``prove`` the optimum over all 2^44 by ``common_search``'s branch and bound (for two seats, a second
method that must agree with ``two_seats``). Past ``SEAT_GAME_MAX_PLAYERS`` seats it is the best of the
family, stated so (each change by composition costs an evaluation of the other seats), unless the
search by composition or the proof is asked for.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING

from oddscalc.games.house_baccarat.count import HouseBaccaratRules, SeatCounter, SeatCounts
from oddscalc.games.house_baccarat.game import FINITE_EXACT_MAX_PLAYERS
from oddscalc.games.house_baccarat.settle import best_by_composition, seat_ev, solve
from oddscalc.games.house_baccarat.strategy import COMPOSITIONS, Strategy
from oddscalc.results import Cell, Column, Section
from oddscalc.seats import search as seat_search
from oddscalc.seats import two_seats
from oddscalc.seats.proof import apart as proof_apart
from oddscalc.seats.proof import search as common_search
from oddscalc.seats.proof.branch import CommonSearch

if TYPE_CHECKING:
    from oddscalc.analysis import Session

# the cooperative search changes one composition at a time, some 90 evaluations of the other seats; a
# 6-seat evaluation takes about 4 s and a 7-seat one about 17 s (benchmarks/bench_baccarat.py), so by
# default it stops at 5 seats (``by_composition`` asks for it past that). Every equilibrium, the family of
# common strategies and the best replies to it (nine evaluations, shared) are given at every table size
SEAT_GAME_MAX_PLAYERS = 5


def is_best_reply(sc: SeatCounts, s: Strategy, pay: Fraction) -> bool:
    """Whether ``s`` is a best reply to the other seats of ``sc``: no composition gains by the other action."""
    ev = sc.ev(pay)
    m = s.matrix
    for u, w in COMPOSITIONS:
        gap = ev[u, w, 1] - ev[u, w, 0] + (ev[w, u, 1] - ev[w, u, 0] if u != w else 0)
        if (m[u, w] and gap < 0) or (not m[u, w] and gap > 0):
            return False
    return True


def gaps(sc: SeatCounts, pay: Fraction) -> list[Fraction]:
    """Per composition (COMPOSITIONS order): what drawing earns over standing, both orders of the cards."""
    ev = sc.ev(pay)
    return [ev[u, w, 1] - ev[u, w, 0] + (ev[w, u, 1] - ev[w, u, 0] if u != w else 0) for u, w in COMPOSITIONS]


def thresholds() -> list[Strategy]:
    """Draw on 0 to t, for t = -1 (never) .. 7."""
    return [Strategy.by_totals("never draw" if t < 0 else f"draw-0-{t}", range(t + 1)) for t in range(-1, 8)]


def by_totals() -> list[Strategy]:
    """Every strategy by two-card total: each of the 256 sets of totals 0-7."""
    out = []
    for k in range(9):
        for totals in combinations(range(8), k):
            out.append(Strategy.by_totals("draw on " + (",".join(map(str, totals)) or "none"), totals))
    return out


@dataclass(frozen=True)
class Found:
    """An equilibrium: the strategy every seat plays, each seat's exact EV, how it was found."""

    strategy: Strategy
    ev: Fraction
    how: str


def every_equilibrium(counter: SeatCounter, players: int, pay: Fraction,
                      progress: Callable[[str], None] | None = None) -> tuple[list[Found], str]:
    """Every symmetric pure-strategy equilibrium (``seat_search``), each verified on its own seat counts, best
    first, and how the search went."""
    strategies, search = seat_search.all_equilibria(counter, players, pay, progress)
    how = (f"complete search: {search.nodes} node(s), {search.evaluations} evaluation(s) of the other "
           f"{players - 1} seat(s)")
    found = []
    for s in strategies:
        sc = counter.seat(players, s)
        if not is_best_reply(sc, s, pay):
            raise AssertionError(f"the search's {s.name} is not its own best reply")
        found.append(Found(s, seat_ev(sc, s, pay), how))
    return sorted(found, key=lambda f: -f.ev), how


def equilibrium_section(counter: SeatCounter, players: int, pay: Fraction,
                        progress: Callable[[str], None] | None = None) -> tuple[Section, list[Found]]:
    """Every symmetric equilibrium of ``players`` seats, as a section, and the list."""
    found, how = every_equilibrium(counter, players, pay, progress)
    rows: list[tuple[Cell, ...]] = [("symmetric equilibrium", text_of(f.strategy), f.ev, -f.ev, f.how) for f in found]
    if not found:
        rows.append(("no symmetric pure-strategy equilibrium", "", None, None, how))
    return Section("seat_equilibria", f"The game among {players} seats: every symmetric equilibrium",
                   _columns(Column("concept", "Concept"), Column("strategy", "Every seat plays"),
                            Column("how", "How found")),
                   tuple(rows),
                   intro=("Every symmetric pure-strategy equilibrium by two-card composition, exactly on the "
                          "shoe: a complete search that bounds each composition's gain from drawing over a whole "
                          "box of strategies by the other seats' counts at its two ends (those counts only fall as "
                          "the others draw on more compositions), fixes what the bounds settle and splits the "
                          "rest. Each equilibrium is checked exactly to be its own best reply.",)), found


def improve(counter: SeatCounter, players: int, pay: Fraction, start: Strategy,
            progress: Callable[[str], None] | None = None) -> tuple[Strategy, Fraction, int]:
    """From ``start``, change one composition at a time (for every seat together) while that raises each
    seat's EV: a common strategy no single change improves, its EV, and the evaluations made.

    A composition no deal from the shoe gives is not tried: changing it changes no count (on whole decks every
    composition is dealt; on the small shoes of the tests most are not, each try an evaluation)."""
    current = frozenset(i for i, c in enumerate(COMPOSITIONS) if start.matrix[c])
    best = seat_ev(counter.seat(players, start), start, pay)
    tried = 1
    improved = True
    dealt = two_seats.dealt_here(counter)
    while improved:
        improved = False
        for i in sorted(dealt):
            s = seat_search.strategy_of(current ^ {i}, "changed")
            tried += 1
            if progress is not None:
                progress(f"common strategy: change {tried}")
            ev = seat_ev(counter.seat(players, s), s, pay)
            if ev > best:
                current, best, improved = current ^ {i}, ev, True
    return seat_search.strategy_of(current, "best common found"), best, tried


def cooperative_row(counter: SeatCounter, players: int, pay: Fraction, start: Strategy, start_text: str,
                    found: Sequence[Found], progress: Callable[[str], None] | None = None,
                    prove: common_search.Proof | None = None, spread: proof_apart.Spread | None = None
                    ) -> tuple[Cell, ...]:
    """The best common strategy: over all 2^44 for two seats (or any size with ``prove``, run as it says; a
    proof kept in a checkpoint is searched on ``spread`` when given), else the best found from ``start``."""
    if players == 2:
        model = two_seats.Model.of(counter, pay)
        enumerated, _ = two_seats.equilibria(model)
        if {e.draws for e in enumerated} != {f.strategy.draws for f in found}:
            raise AssertionError("the two-seat enumeration and the complete search disagree on the equilibria")
        best, ev, nodes = two_seats.best_common(model, start)
        concept, how = "cooperative: the best common strategy of all 2^44", \
            f"branch and bound on the exact two-seat model ({nodes} nodes), whose enumeration of the equilibria " \
            "agrees with the complete search"
        if prove is not None:
            _, again, search = _proved(counter, players, pay, best, progress, prove, spread)
            if again != ev and prove.checkpoint is not None:  # a finished proof read from a file: the file's word
                from oddscalc.seats.proof.checkpoint import CheckpointError

                raise CheckpointError(f"checkpoint {prove.checkpoint}: its best common strategy gives {again} per "
                                      f"seat, the two-seat model's {ev}: not a proof of this problem (edited?); "
                                      "delete it to start the proof over")
            if again != ev:
                raise AssertionError("the two-seat model and the bounds' search disagree on the best common strategy")
            how += (f"; the bounds' search agrees ({search.nodes} node(s), {search.evaluations} evaluations"
                    f"{_runs(search)})")
    elif prove is not None and prove.checkpoint is not None and _kept(counter, players, pay, prove.checkpoint,
                                                                      prove.take_over):
        # a proof does not depend on where it starts: a resumed one goes on from its best met, without the search
        # by composition its first run began from (45 minutes with seven seats)
        where = _where(prove.checkpoint, spread is not None)  # read before the run, which may finish the proof
        best, ev, search = _proved(counter, players, pay, start, progress, prove, spread)
        concept, how = "cooperative: the best common strategy of all 2^44", \
            (f"branch and bound on bounds of the other seats' counts ({search.nodes} node(s), {search.evaluations} "
             f"evaluations of the other {players - 1} seats, over {search.runs} run(s)), {where}")
    else:
        best, ev, tried = improve(counter, players, pay, start, progress)
        if prove is not None:
            best, ev, search = _proved(counter, players, pay, best, progress, prove, spread)
            concept, how = "cooperative: the best common strategy of all 2^44", \
                (f"branch and bound on bounds of the other seats' counts ({search.nodes} node(s), "
                 f"{search.evaluations} evaluations of the other {players - 1} seats{_runs(search)}), from the best of "
                 f"{start_text} changed one composition at a time ({tried} strategies tried)")
        else:
            concept, how = "cooperative: the best common strategy found", \
                (f"the best of {start_text}, changed one composition at a time until no change gains ({tried} "
                 "strategies tried): a local optimum, not proven best of all 2^44 (--prove-common proves it)")
    if ev != seat_ev(counter.seat(players, best), best, pay):
        raise AssertionError("the best common strategy's EV differs on its own seat counts")
    stable = any(f.strategy.draws == best.draws for f in found)
    return (concept, text_of(best), ev, -ev, how + ("; an equilibrium too" if stable else
                                                  "; not an equilibrium: a seat gains by leaving it"))


def _proved(counter: SeatCounter, players: int, pay: Fraction, start: Strategy,
            progress: Callable[[str], None] | None, prove: common_search.Proof, spread: proof_apart.Spread | None
            ) -> tuple[Strategy, Fraction, CommonSearch]:
    """The proof run as ``prove`` says, or, kept in a checkpoint with ``spread``, searched apart."""
    if prove.checkpoint is not None and spread is not None:
        return proof_apart.best_common(counter, players, pay, start, prove.checkpoint, spread, progress,
                                       prove.take_over)
    return common_search.best_common(counter, players, pay, start, progress, apart=prove.apart,
                                     checkpoint=prove.checkpoint, take_over=prove.take_over)


def best_reply(counter: SeatCounter, players: int, pay: Fraction, others: Strategy) -> tuple[Strategy, Fraction]:
    """One seat's best reply when every other seat plays ``others``, and its EV."""
    sc = counter.seat(players, others)
    reply = best_by_composition(sc, pay, "best reply")
    return reply, seat_ev(sc, reply, pay)


def _kept(counter: SeatCounter, players: int, pay: Fraction, path: Path, take_over: bool = False) -> bool:
    """Whether ``path`` keeps this proof's state already (a run to resume or take over, or a finished proof to
    read)."""
    from oddscalc.seats.proof.checkpoint import Checkpoint

    return Checkpoint(path, common_search.problem(counter.rules, players, pay)).load(take_over) is not None


def _where(path: Path, apart: bool = False) -> str:
    """Where a proof kept in ``path`` comes from: resumed (``apart``: its open boxes searched on a cluster), or
    read finished (by this version of the search or another)."""
    from oddscalc.seats.proof.checkpoint import Checkpoint

    kept = Checkpoint(path, {})
    state = kept.read()
    earlier = "" if state is None or not state[2].earlier else \
        f", begun by {len(state[2].earlier)} earlier version(s) of the search that handed it over"
    if state is None or not state[2].done:
        how = "taken over" if kept.under_way_elsewhere() else "resumed"
        return f"{how} from the checkpoint {path.name}{earlier}" + (", its open boxes searched apart" if apart else "")
    by = "" if kept.proven_here() else ", proven by an earlier version of the search"
    return f"read from the finished checkpoint {path.name}{by}{earlier}"


def _runs(search: CommonSearch) -> str:
    return "" if search.runs == 1 else f", over {search.runs} runs resumed from a checkpoint"


def text_of(s: Strategy) -> str:
    """A strategy as a report says it: the totals it draws on, or its drawn compositions."""
    totals = s.totals()
    return ("draw on " + (", ".join(map(str, totals)) or "no total")) if totals is not None else \
        "by composition: " + ", ".join(f"{u}+{w}" for u, w in COMPOSITIONS if s.matrix[u, w]) + " draw"


def _columns(first: Column, second: Column, *more: Column) -> tuple[Column, ...]:
    return (first, second, Column("ev", "EV per seat", "signed_percent", 4),
            Column("house_edge", "House edge", "signed_percent", 4), *more)


def edge_section(counter: SeatCounter, pay: Fraction, max_players: int,
                 progress: Callable[[str], None] | None = None, known: Sequence[Found] = (),
                 known_players: int = 0, count: bool = True) -> Section:
    """The house edge by seats filled, 1 to ``max_players``, under the symmetric equilibrium by best replies,
    with how many symmetric equilibria each table size has (the complete search; ``known`` is the caller's
    list for ``known_players`` seats), unless not ``count``: then the equilibrium alone, two or three
    evaluations of the other seats per size, not a search's dozens."""
    edge: list[tuple[Cell, ...]] = []
    infinite = SeatCounter(dataclasses.replace(counter.rules, infinite=True), counter.store, counter.game)
    for n in range(1, max_players + 1):
        finite = n <= FINITE_EXACT_MAX_PLAYERS and not counter.rules.infinite
        seats = counter if finite else infinite
        eq = solve(seats, n, pay, "optimal")
        ev = seat_ev(eq.counts, eq.strategy, pay)
        found: int | None = None
        if n > 1 and count:
            every = [f.strategy for f in known] if n == known_players and finite else \
                seat_search.all_equilibria(seats, n, pay, progress)[0]
            if eq.strategy.draws not in {e.draws for e in every}:
                raise AssertionError(f"{n} seats: the equilibrium reached by best replies is not in the complete list")
            found = len(every)
        edge.append((n, text_of(eq.strategy), ev, -ev, *((found,) if count else ()),
                     "finite, exact" if finite else "infinite, exact"))
    counted = (Column("equilibria", "Symmetric equilibria (all)", "int"),) if count else ()
    shoes = ("Exact on an infinite shoe (cards drawn with replacement)." if counter.rules.infinite else
             "Exact on the finite shoe." if max_players <= FINITE_EXACT_MAX_PLAYERS else
             f"Exact on the finite shoe up to {FINITE_EXACT_MAX_PLAYERS} seats; beyond, exact on an infinite shoe "
             "(cards drawn with replacement), as the report does.")
    which = ("the count is of every symmetric pure-strategy equilibrium at that size (the complete search; the game "
             "among the seats lists them)" if count else
             "it need not be the only one (oddscalc seats house-baccarat --players N lists every symmetric "
             "equilibrium, the best common strategy and best replies)")
    return Section("edge_by_seats", "House edge by seats filled",
                   _columns(Column("seats", "Seats", "int"), Column("strategy", "Every seat plays"), *counted,
                            Column("shoe", "Shoe")),
                   tuple(edge),
                   intro=(f"Concept: the symmetric equilibrium reached by best replies from the optimum with one seat "
                          f"fewer; {which}. {shoes}",))


def sections(counter: SeatCounter, players: int, pay: Fraction, exhaustive: bool, max_players: int,
             progress: Callable[[str], None] | None = None, prove: common_search.Proof | None = None,
             by_composition: bool = False, spread: proof_apart.Spread | None = None) -> list[Section]:
    """Edge by seats filled (1 to ``max_players``), every equilibrium, every common strategy of the family, and
    best replies. Past ``SEAT_GAME_MAX_PLAYERS`` seats the cooperative row is the best of the family, not
    searched further, unless ``by_composition`` or ``prove`` asks for the search at any size (``prove`` proving
    it, as it says; one kept in a checkpoint searched on ``spread`` when given)."""
    family = by_totals() if exhaustive else thresholds()
    section, found = equilibrium_section(counter, players, pay, progress)
    edge = edge_section(counter, pay, max_players, progress, found, players)
    shared: list[tuple[Cell, ...]] = []
    best: tuple[Strategy, Fraction] | None = None
    for s in family:
        if progress is not None:
            progress(f"common strategy {s.name}")
        sc = counter.seat(players, s)
        ev = seat_ev(sc, s, pay)
        shared.append((s.name, text_of(s), ev, -ev, "yes" if is_best_reply(sc, s, pay) else "no"))
        if best is None or ev > best[1]:
            best = (s, ev)
    assert best is not None
    family_text = "every strategy by two-card total (256)" if exhaustive else "draw on 0 to t, t = -1..7 (9)"
    if players <= SEAT_GAME_MAX_PLAYERS or by_composition or prove is not None:
        row = cooperative_row(counter, players, pay, best[0], family_text, found, progress, prove, spread)
    else:
        s, ev = best
        stable = any(f.strategy.draws == s.draws for f in found)
        row = ("cooperative: the best common strategy of the family", text_of(s), ev, -ev,
               f"the best of {family_text}, not changed by composition: from {SEAT_GAME_MAX_PLAYERS + 1} seats each "
               f"change costs an evaluation of the other {players - 1} seats" +
               ("; an equilibrium too" if stable else "; not an equilibrium: a seat gains by leaving it"))
    section = dataclasses.replace(section, rows=section.rows + (row,))
    replies: list[tuple[Cell, ...]] = []
    for others in thresholds():  # the family's seat counts again: nothing more is counted
        reply, ev = best_reply(counter, players, pay, others)
        replies.append((others.name, text_of(reply), ev, -ev))
    return [
        edge,
        section,
        Section("common_strategies", f"Every seat playing one strategy ({players} seats)",
                _columns(Column("name", "Strategy"), Column("strategy", "Plays"),
                         Column("equilibrium", "Its own best reply")),
                tuple(shared)),
        Section("best_replies", f"One seat's best reply to the other {players - 1} seat(s)",
                _columns(Column("others", "The others play"), Column("reply", "Best reply")), tuple(replies)),
    ]


def reply_sections(counter: SeatCounter, players: int, pay: Fraction, others: Strategy | None) -> list[Section]:
    """For any table size: the symmetric equilibrium reached by best replies, and one seat's best reply to
    the others playing ``others`` (default: that equilibrium), with what the seat would get playing along."""
    eq = solve(counter, players, pay, "optimal")
    ev_eq = seat_ev(eq.counts, eq.strategy, pay)
    played = others or eq.strategy
    sc = counter.seat(players, played)
    reply = best_by_composition(sc, pay, "best reply")
    along, best = seat_ev(sc, played, pay), seat_ev(sc, reply, pay)
    rows: list[tuple[Cell, ...]] = [
        ("symmetric equilibrium", text_of(eq.strategy), ev_eq, -ev_eq, f"{eq.iterations} best reply evaluation(s)"),
        (f"the other {players - 1} play {played.name}; this seat plays along", text_of(played), along, -along, ""),
        (f"the other {players - 1} play {played.name}; this seat replies best", text_of(reply), best, -best,
         f"gains {float(best - along):+.4%} per unit"),
    ]
    return [Section("seat_replies", f"{players} seats: the equilibrium and one seat's best reply",
                    _columns(Column("concept", "Concept"), Column("strategy", "This seat plays"),
                             Column("how", "Note")), tuple(rows),
                    intro=("Exact on the finite shoe: one seat's best reply to the others' stated play (--others), "
                           "beside the symmetric equilibrium reached by best replies.",))]


def seats_filled_section(session: Session, table_ref: str | None, progress: Callable[[str], None]) -> Section:
    """What a filing leads with (the game's declaration names this): the house edge by seats filled, 1 to
    ``FINITE_EXACT_MAX_PLAYERS`` (the table's seats, each exact on the finite shoe). With several seats the edge is
    not the one-seat figure, and the seats' choices are a game among them (``seats`` says more)."""
    from oddscalc.games.house_baccarat import game as house_game  # read when asked (a test sets fewer seats)

    rules = session.resolve(table_ref)
    assert isinstance(rules, HouseBaccaratRules)
    return edge_section(session.counts(rules), rules.pay, house_game.FINITE_EXACT_MAX_PLAYERS, progress, count=False)
