"""Commands for the game among the house baccarat's seats: ``seats`` (the edge by seats filled, every symmetric
equilibrium, the best common strategy and its proof, best replies, turn order) and ``proof`` (where a proof kept
in a checkpoint stands, and what it proves already), for the games whose declaration has seats. Registered on the
group in ``cli.main`` (:data:`COMMANDS`)."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from oddscalc.cards import MAX_DECKS
from oddscalc.cli.options import (
    Whole,
    decks_option,
    fresh_option,
    game_for,
    open_session,
    scheduler_option,
    sections_format,
    show_progress,
    table_option,
)
from oddscalc.files import is_path
from oddscalc.games import supporting
from oddscalc.protocol import OptionError
from oddscalc.results import Column, Section

if TYPE_CHECKING:
    from oddscalc.games.house_baccarat.count import HouseBaccaratRules, SeatCounter
    from oddscalc.games.house_baccarat.strategy import Strategy
    from oddscalc.seats.proof.apart import Spread
    from oddscalc.seats.proof.checkpoint import State
    from oddscalc.seats.proof.search import Apart


def _apart(stack: contextlib.ExitStack, scheduler: str | None, workers: int | None, kept: bool,
           proving: bool = True) -> tuple[Apart | None, Spread | None]:
    """Where the proof of the best common strategy searches its boxes: a cluster (a few boxes per worker; for a
    proof ``kept`` in a checkpoint, each box's result as it comes back), or here when none is named (or nothing
    is ``proving``)."""
    from oddscalc import cluster
    from oddscalc.seats.proof.apart import Spread
    from oddscalc.seats.proof.search import Apart

    where = cluster.address(scheduler)
    if where is None or not proving:
        return None, None
    c = stack.enter_context(cluster.client(where, workers))
    if kept:
        return None, Spread(cluster.streamer(c), 4 * cluster.workers(c))
    return Apart(cluster.mapper(c), 4 * cluster.workers(c)), None


def _foreign(checkpoint: Path) -> None:
    """Refuse a file that is not a checkpoint at all (a report, a table), so that it is never called damaged and
    its deletion suggested."""
    from oddscalc.seats.proof.checkpoint import MAGIC

    try:
        if not stat.S_ISREG(checkpoint.stat().st_mode):  # a FIFO would hang the read, a device never end
            raise OptionError(f"checkpoint {checkpoint}: not a regular file")
        with checkpoint.open("rb") as f:
            head = f.read(len(MAGIC) + 1)
    except OSError:
        return  # missing or unreadable: the checkpoint's own reading says which
    if head and head != f"{MAGIC} ".encode():
        raise OptionError(f"checkpoint {checkpoint}: not a proof checkpoint (its first line does not begin "
                          f"'{MAGIC}'); name the file a proof keeps its state in, or a new one")


def _proof_options(prove_common: bool, checkpoint: Path | None, take_over: bool) -> None:
    """Refuse a proof's options given without what they apply to."""
    if checkpoint is not None and not prove_common:
        raise OptionError("--checkpoint keeps the state of a proof: give it with --prove-common")
    if take_over and checkpoint is None:
        raise OptionError("--take-over goes on from a proof's checkpoint: give it with --checkpoint")


def _usable(checkpoint: Path | None, rules: HouseBaccaratRules, players: int, take_over: bool = False,
            session: Any = None) -> Path | None:
    """The checkpoint file to keep the proof in (through a symbolic link, which stays); refuse one the proof
    could not use now (another version's unless ``take_over``, or one whose figures do not re-derive on the
    ``session``'s counts), not after the equilibria are counted."""
    from oddscalc.seats.proof.checkpoint import Checkpoint, CheckpointError
    from oddscalc.seats.proof.search import problem

    if checkpoint is None:
        return None
    _foreign(checkpoint)
    if checkpoint.is_symlink():
        checkpoint = Path(os.path.realpath(checkpoint))
    try:
        state = Checkpoint(checkpoint, problem(rules, players, rules.pay)).load(take_over)
    except CheckpointError as e:
        raise OptionError(str(e)) from None
    if state is not None and session is not None:
        _rederived(checkpoint, _counter(session, rules), players, rules.pay, state)
    return checkpoint


def _rederived(checkpoint: Path, counter: SeatCounter, players: int, pay: Fraction, state: State) -> int:
    """The value of the best met ``state`` keeps, in the search's units, derived again on ``counter``'s shoe and
    rules: from its own seat counts, as a report settles the strategy (through the store: one evaluation of the
    other seats, once), and the compositions and boxes those the shoe deals. A file's header is the sha256 of
    its body, which anyone can recompute: its figures are reported, or a proof goes on from them, only once
    they hold here; else refused, naming the file."""
    from oddscalc.games.house_baccarat.settle import seat_ev
    from oddscalc.progress import Progress
    from oddscalc.seats.proof.checkpoint import CheckpointError
    from oddscalc.seats.proof.search import fits
    from oddscalc.seats.search import dealt, gain_terms, strategy_of

    try:
        fits(dealt(counter, gain_terms(counter, pay)[0]), state, checkpoint)  # the search's first box
    except CheckpointError as e:
        raise OptionError(str(e)) from None
    bar = Progress(show_progress(), f"checkpoint: valuing its best met on {players} seats")
    best = strategy_of(state.best[1], "best met")
    counts = counter.seat(players, best)
    value = seat_ev(counts, best, pay) * counts.total * pay.denominator
    bar.finish()
    if value != state.best[0]:
        raise OptionError(f"checkpoint {checkpoint}: its best met is worth {value} on the shoe it names, not the "
                          f"{state.best[0]} it says (edited, or another search's); delete it to start the proof "
                          "over")
    return state.best[0]


def _counter(session: Any, rules: Any) -> SeatCounter:
    """A counter of the seats' outcomes through the session's store that counts only what is asked of it: the
    game's own count would first count the table's equilibrium, which a proof or a reply does not need."""
    from oddscalc.games.house_baccarat.count import SeatCounter

    return SeatCounter(rules, session.store, session.game)


def _others(text: str, counts: Callable[[], SeatCounter]) -> Strategy:
    """The strategy ``--others`` names: draw-A-B, ``alone`` (the best for a seat playing alone, from the
    ``counts``), or a strategy card file."""
    from oddscalc.games.house_baccarat.settle import solve
    from oddscalc.games.house_baccarat.strategy import Strategy
    from oddscalc.games.house_baccarat.table import check_strategy

    if text == "alone":
        counter = counts()
        alone = solve(counter, 1, counter.rules.pay, "optimal").strategy
        return Strategy.of("a lone seat's best strategy", alone.matrix)
    if is_path(text):
        from oddscalc.games.house_baccarat import card as draw_card

        card = draw_card.load_card(Path(text))
        return Strategy.of(draw_card.name(card), draw_card.draws(card))
    try:
        lo, hi = (int(x) for x in check_strategy(text).split("-")[1:])
    except ValueError:
        raise OptionError(f"--others {text!r}: give draw-A-B (e.g. draw-0-5), alone, or a strategy card "
                          "file (cards/house-baccarat/*.toml)") from None
    return Strategy.by_totals(text, range(lo, hi + 1))


@click.command()
@game_for("seats")
@table_option
@click.option("--players", type=Whole(2, 7), default=2, show_default=True,
              help="Seats filled (every equilibrium, the common strategies draw on 0 to t and best replies to "
                   "them at any size; the cooperative search by composition up to 5, or with --by-composition).")
@decks_option
@click.option("--exhaustive", is_flag=True,
              help="Search every strategy by two-card total (256), not 9 thresholds (up to 5 seats); with third "
                   "cards shown and 3 to 7 seats, start the equilibrium search from the 9 thresholds, not the "
                   "hidden game's equilibrium alone.")
@click.option("--edge-to", "edge_to", type=Whole(1, 7), default=None,
              help="Give the edge by seats filled up to this many (default: --players).")
@click.option("--third-cards", "third_cards", type=click.Choice(["hidden", "shown"]),
              help="Third cards hidden until the house plays, or shown as dealt in seat order; default: the "
                   "table's third_cards. Shown, 8 decks: about 8 minutes with 5 seats; 6 and 7 seats count in "
                   "passes that fit ODDSCALC_MEMORY_GB (default half this machine's memory), hours on one "
                   "machine, or spread over a cluster with --scheduler.")
@click.option("--others", metavar="draw-A-B|alone|CARD",
              help="One seat's best reply when every other seat plays this, beside the symmetric equilibrium: "
                   "draw-A-B (e.g. draw-0-5), alone (the strategy best for a seat playing alone), or a strategy "
                   "card file (cards/house-baccarat/*.toml: draw or stand by the two cards).")
@click.option("--prove-common", "prove_common", is_flag=True,
              help="Prove the best common strategy over all 2^44 by branch and bound (third cards hidden, any "
                   "number of seats), not only a local optimum. 8 decks: about a minute with 3 seats, 6 "
                   "minutes with 4, about two hours with 5; 6 and 7 are a cluster's job: --scheduler spreads "
                   "the search's boxes over its workers, or hours here with --checkpoint (both: a kept proof "
                   "resumed on the cluster).")
@click.option("--checkpoint", type=click.Path(dir_okay=False, path_type=Path),
              help="With --prove-common: keep the proof's state in this file and resume from it. Run here, the file "
                   "is rewritten after every node, so that a stopped run (Ctrl-C, a killed process) loses one "
                   "node at most, and a resumed run skips the search by composition; with --scheduler, the open "
                   "boxes are searched on the cluster and the file rewritten as each comes back, so that a proof "
                   "begun here can be finished there and the other way round. A file of another problem or "
                   "another version of the search is refused (unless --take-over). `oddscalc proof FILE` tells "
                   "where it stands; `make prove SEATS=N` keeps one in proofs/.")
@click.option("--take-over", "take_over", is_flag=True,
              help="With --checkpoint: go on from a proof under way that another version of the search wrote, once "
                   "this version values its best met exactly as the file does. The file then names every version "
                   "that worked on it, with its nodes and the share of strategies it left open: the boxes each "
                   "closed stay that version's proof. `make prove` takes over.")
@click.option("--by-composition", "by_composition", is_flag=True,
              help="From 6 seats, change the best common strategy of the family one composition at a time too "
                   "(90 to 130 evaluations of the other seats on 8 decks: about 7 minutes with 6 seats, 45 with "
                   "7); up to 5 seats it always is.")
@sections_format
@scheduler_option
@fresh_option
def seats(game: str, table_ref: str | None, players: int, decks: int | None, exhaustive: bool, edge_to: int | None,
          third_cards: str | None, others: str | None, prove_common: bool, checkpoint: Path | None,
          take_over: bool, by_composition: bool, fmt: str, scheduler: str | None, workers: int | None,
          fresh: bool) -> None:
    """The game among the seats: edge by seats filled, symmetric equilibria, the best common strategy, and
    one seat's best reply to the others; with third cards shown, the seats' sequential game."""
    from oddscalc.games.house_baccarat.settle import solve
    from oddscalc.games.house_baccarat.strategy import Strategy
    from oddscalc.progress import Progress
    from oddscalc.report.sections import render_sections
    from oddscalc.seats.game import SEAT_GAME_MAX_PLAYERS, reply_sections, sections, thresholds
    from oddscalc.seats.proof.checkpoint import CheckpointError
    from oddscalc.seats.proof.search import Proof

    _proof_options(prove_common, checkpoint, take_over)
    session = open_session(game, decks=decks, players=players, fresh=fresh)
    rules = session.resolve(table_ref)
    shown = (third_cards or rules.third_cards) == "shown"
    if prove_common and shown:
        raise OptionError("--prove-common: the best common strategy is given with third cards hidden")
    checkpoint = _usable(checkpoint, rules, players, take_over, session)
    stated = None if others is None else _others(others, lambda: _counter(session, rules))
    if scheduler is not None and not shown and not prove_common:
        raise OptionError("--scheduler applies to third cards shown or to --prove-common; the seats' hidden game "
                          "runs here in seconds")
    if shown:
        from oddscalc import cluster
        from oddscalc.seats import turn_order
        from oddscalc.seats.shown import passes as shown_passes
        from oddscalc.seats.shown import seats as shown_seats

        if by_composition:
            raise OptionError("--by-composition applies to third cards hidden: the common strategy is a hidden "
                              "game's notion")
        if edge_to is not None:
            raise OptionError("--edge-to applies to third cards hidden; with third cards shown the report gives "
                              "the sequential game's equilibria and, with --others, best replies")
        where = cluster.address(scheduler)
        # a local cluster's workers share this machine's memory; a remote one's are set by ODDSCALC_MEMORY_GB
        limit = shown_passes.budget() // (workers or os.cpu_count() or 1) if where == cluster.LOCAL else None
        shown_seats.fits(rules.shoe, players, limit)
        solved = solve(session.counts(rules), players, rules.pay, "optimal")
        hidden = solved.strategy
        with contextlib.ExitStack() as stack:
            runner = None if where is None else cluster.mapper(stack.enter_context(cluster.client(where, workers)))
            spread = shown_passes.Spread(runner, limit)
            if players == 2:
                found = turn_order.sections(rules.shoe, rules.house_tableau, rules.all_stand, rules.pay, hidden,
                                            thresholds())
            else:
                bar = Progress(show_progress(), f"seats: {players} seats, third cards shown")
                starts = thresholds() if exhaustive else \
                    [Strategy(f"the hidden game's equilibrium ({turn_order.plays_text(hidden.matrix)})", hidden.draws)]
                found = shown_seats.sections(rules.shoe, players, rules.house_tableau, rules.all_stand, rules.pay,
                                             hidden, solved.counts.counts, starts, bar.say, spread)
                bar.finish()
            if stated is not None:
                bar = Progress(show_progress(), f"seats: {players} seats, third cards shown, best replies")
                found.append(shown_seats.reply_section(rules.shoe, players, rules.house_tableau, rules.all_stand,
                                                       rules.pay, stated, bar.say, spread))
                bar.finish()
    else:
        if exhaustive and players > SEAT_GAME_MAX_PLAYERS:
            raise OptionError(f"--exhaustive: every strategy by total (256 evaluations of the other seats) is given "
                              f"up to {SEAT_GAME_MAX_PLAYERS} seats; with {players} the family is draw on 0 to t")
        bar = Progress(show_progress(), f"seats: every equilibrium of {players} seats")
        with contextlib.ExitStack() as stack:
            apart, streamed = _apart(stack, scheduler, workers, checkpoint is not None, prove_common)
            proof = Proof(apart, checkpoint, take_over) if prove_common else None
            try:
                found = sections(session.counts(rules), players, rules.pay, exhaustive, edge_to or players, bar.say,
                                 proof, by_composition, streamed)
            except CheckpointError as e:
                raise OptionError(str(e)) from None
        bar.finish()
        if stated is not None:
            found += reply_sections(session.counts(rules), players, rules.pay, stated)
    meta = {"game": game, "table": rules.table.id, "table_sha256": rules.table.sha256, "shoe": rules.shoe.label,
            "players": str(players), "third_cards": "shown" if shown else "hidden"}
    click.echo(render_sections(found, fmt, f"The seats of {rules.table.title} ({game}/{rules.table.id}), "
                                           f"{rules.shoe.label}", meta), nl=False)




@click.command()
@click.argument("checkpoint", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--bound", "with_bound", is_flag=True,
              help="Also bound what the proof has not yet settled: no common strategy gives more than the best "
                   "met or the most an open box can give (two evaluations of the other seats per open box and "
                   "per round of compositions its bounds fix: minutes with six seats on 8 decks).")
@table_option
@click.option("--decks", type=Whole(1, MAX_DECKS),
              help="With --bound, the decks the proof was run with (default: its shoe's, when whole decks).")
@sections_format
def proof(checkpoint: Path, with_bound: bool, table_ref: str | None, decks: int | None, fmt: str) -> None:
    """Where a proof kept in a checkpoint file (seats --prove-common --checkpoint) stands: its problem, the best
    common strategy met and its EV, the nodes, evaluations, runs and hours so far, the share of the strategies
    still open, and its date as the file records it (never the file's mtime); whether this code can resume it;
    with --bound, an interval that holds the best common strategy's EV whatever the rest of the proof finds. Reads
    the file, never writes it, and reports its best met's EV only once derived again on the shoe and seats it names
    (one evaluation of the other seats, kept in the store: a minute or two the first time with seven seats on 8
    decks); a file whose figures differ is refused."""
    from oddscalc.replay import code_digest
    from oddscalc.report.sections import render_sections
    from oddscalc.seats.game import text_of
    from oddscalc.seats.proof.checkpoint import SEARCH, Checkpoint, CheckpointError
    from oddscalc.seats.search import strategy_of

    _foreign(checkpoint)
    try:
        kept = Checkpoint(checkpoint, {}).read()
    except CheckpointError as e:
        raise OptionError(str(e)) from None
    if kept is None:
        raise OptionError(f"checkpoint {checkpoint}: no such file")
    asked, code, state = kept
    if "unit" not in asked:
        raise OptionError(f"checkpoint {checkpoint}: written before checkpoints named their unit; resume it with "
                          "the version that wrote it")
    ev = _posed_again(checkpoint, asked, state)  # the figures re-derived, never the file's word
    named = {"shoe": "shoe (cards by point value, 0 to 9)", "players": "seats"}
    rows: list[tuple[str, str]] = [(named.get(k, k.replace("_", " ")), str(v)) for k, v in asked.items()
                                   if k not in ("proof", "unit")]
    rows += [
        ("state", "proven: no box left open" if state.done else f"{len(state.open)} box(es) open"),
        ("best met", text_of(strategy_of(state.best[1], "best met"))),
        ("its EV per seat", f"{ev} ({float(ev):+.4%})"),
        ("strategies still open", f"{float(state.left):.6%} of 2^{state.compositions}"),
        ("open boxes, by compositions still free", _sizes(state)),
        ("nodes, evaluations", f"{state.nodes:,}, {state.evaluations:,}"),
        ("runs, hours", f"{state.runs}, {state.seconds / 3600:.2f}"),
        _dated(state),
        *(("handed over by", f"the search {h.code[:16]}... after {h.nodes:,} nodes, {h.evaluations:,} evaluations, "
                             f"{h.runs} run(s) and {h.seconds / 3600:.2f} hours, with {float(h.left):.6%} of the "
                             "strategies open") for h in state.earlier),
        _code_row(state.done, code, code_digest(SEARCH), len(state.earlier)),
    ]
    boxes: list[Section] = []
    if with_bound:
        row, boxes = _bound(checkpoint, asked, state, table_ref, decks)
        rows.append(row)
    found = [Section("proof", "Where the proof stands", (Column("item", "Item"), Column("value", "Value")),
                     tuple(rows)), *boxes]
    meta = {"checkpoint": str(checkpoint), "proof": str(asked.get("proof", "?"))}
    click.echo(render_sections(found, fmt, f"A proof of the {asked.get('proof', '?')}: {checkpoint}", meta), nl=False)


def _posed_again(checkpoint: Path, asked: dict[str, Any], state: State) -> Fraction:
    """The EV per seat of the best met a checkpoint keeps, on the problem it names posed again by this code (its
    unit derived from its shoe and seats, its value re-derived: ``_rederived``); refused unless the problem is
    one this code poses and the file's figures are those it derives."""
    from oddscalc.games.house_baccarat.count import HouseBaccaratRules
    from oddscalc.seats.proof.named import rules_named
    from oddscalc.seats.proof.search import problem

    players = asked.get("players")
    session = open_session(_proven_game(), players=players if isinstance(players, int) and 1 <= players <= 7 else 2)
    base = session.resolve(None)
    assert isinstance(base, HouseBaccaratRules)  # the game with seats is the house game
    try:
        rules, players = rules_named(asked, base)
    except ValueError as e:
        raise OptionError(f"checkpoint {checkpoint}: not a problem this code poses ({e})") from None
    posed = problem(rules, players, rules.pay)
    if posed != asked:
        differ = ", ".join(sorted(k for k in set(posed) | set(asked) if posed.get(k) != asked.get(k)))
        raise OptionError(f"checkpoint {checkpoint}: not a problem this code poses (its {differ}: not what its "
                          "shoe, seats and pay give); delete it to start the proof over")
    return Fraction(_rederived(checkpoint, _counter(session, rules), players, rules.pay, state), int(posed["unit"]))


def _sizes(state: State) -> str:
    """Each open box's free compositions, largest first: a box of k holds 2^k strategies, and the largest says
    more of the work left than the share open does (a box not yet begun may hold a quarter of them)."""
    sizes = sorted((len(high - low) for low, high in state.open), reverse=True)
    if not sizes:
        return "none"
    shown = ", ".join(map(str, sizes[:12]))
    return shown if len(sizes) <= 12 else f"{shown} and {len(sizes) - 12:,} more"


def _dated(state: State) -> tuple[str, str]:
    """The proof's own date, as its file records it (in UTC to the minute): when a finished proof was proven, or
    when one under way was last written (a run writes after every node: is one still going?). Never the file's
    mtime, which a copy, a download or a clone sets to its own time; a checkpoint from before they recorded it
    says so."""
    when = ("date not recorded in the file (an older checkpoint)" if state.written is None else
            state.written.strftime("%Y-%m-%d %H:%M UTC"))
    return ("proven on" if state.done else "last written", when)


def _code_row(done: bool, theirs: str, ours: str, earlier: int = 0) -> tuple[str, str]:
    """Whether this code resumes a proof under way (or can take it over); for a finished one, which version of the
    search proved it (a record of that version's, which a change to the search since leaves standing), and that
    ``earlier`` versions handed it over."""
    if done:
        by = "this version of the search" if theirs == ours else f"another version of the search ({theirs[:16]}...)"
        return "proven by", f"{by}{f', after the {earlier} version(s) that handed it over' if earlier else ''}"
    return "this code resumes it", ("yes" if theirs == ours else
                                    "no: written by another version of the search; seats --take-over (make prove) "
                                    "goes on from it, the file then naming both")


def _bound(checkpoint: Path, asked: dict[str, Any], state: State, table_ref: str | None,
           decks: int | None) -> tuple[tuple[str, str], list[Section]]:
    """``proof --bound``: the interval, and each open box's bound, on the table and shoe the proof is of."""
    from oddscalc.progress import Progress
    from oddscalc.seats.proof.bound import bound
    from oddscalc.seats.proof.branch import CommonSearch
    from oddscalc.seats.proof.search import problem

    shoe, players, unit = asked.get("shoe"), asked.get("players"), int(asked["unit"])
    if not isinstance(players, int) or not isinstance(shoe, list):
        raise OptionError(f"checkpoint {checkpoint}: its problem names no shoe or no number of seats")
    cards = sum(int(x) for x in shoe)
    session = open_session(_proven_game(), decks=decks or (cards // 52 if cards and cards % 52 == 0 else None),
                           players=players)
    rules = session.resolve(table_ref)
    if problem(rules, players, rules.pay) != asked:
        raise OptionError(f"checkpoint {checkpoint}: a proof of another table or shoe than {rules.table.id} with "
                          f"{rules.shoe.label}; name the table and decks it was run with (--table, --decks)")
    bar = Progress(show_progress(), f"proof: bounding {len(state.open)} open box(es)")
    found = bound(CommonSearch(_counter(session, rules), players, rules.pay), state.best[0], state.open, bar.say)
    bar.finish()
    upper, best = Fraction(found.upper, unit), Fraction(found.best, unit)
    row = ("no common strategy gives more than", f"{upper} ({float(upper):+.4%}): the best common strategy's EV per "
           f"seat lies between {float(best):+.4%} and {float(upper):+.4%}, whatever the rest of the proof finds")
    columns = (Column("box", "Open box", "int"), Column("free", "Compositions free", "int"),
               Column("drawn_on", "Drawn on", "int"), Column("most", "The most it can give per seat", "signed_percent"))
    rows = tuple((k + 1, len(high - low), len(low), Fraction(most, unit)) for k, (low, high, most) in
                 enumerate(found.boxes))
    return row, [Section("open_boxes", "Open boxes", columns, rows)]


def _proven_game() -> str:
    """The game whose proofs checkpoints keep: the one game whose declaration has seats (a checkpoint's problem
    names its shoe and seats, not its game)."""
    games = supporting("seats")
    if len(games) != 1:
        raise OptionError(f"proof --bound: the checkpoint does not name its game, and several games have seats "
                          f"({', '.join(games)})")
    return games[0]


COMMANDS = (seats, proof)
