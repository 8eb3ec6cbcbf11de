"""How long proving the best common strategy of N seats would take, before running it (Knuth's estimator).

Starts where ``seats --prove-common`` starts, from the search by composition's strategy (the best of the
family draw on 0 to t, changed one composition at a time), and walks the proof's tree from the root
``probes`` times at random (``games/proof_estimate``): the estimated nodes, evaluations of the other seats
and hours on this machine, with the probes' spread. Four seats, whose proof was run (65 nodes and 181
evaluations, 5.7 minutes), calibrate it: 12 probes gave 36 nodes (standard error 9), 126 evaluations
(23) and 0.1 hours, the expected undercount of a few probes of a heavy-tailed estimate.

With ``--checkpoint FILE`` (a proof under way, ``make prove``): what is left of that proof, from its best met
and its open boxes, each probe starting from one of them at random; and no search by composition first.

Run: ``python benchmarks/estimate_proof.py PLAYERS [PROBES] [--decks D] [--seed S] [--checkpoint FILE]``
"""

from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path

from oddscalc.analysis import Session
from oddscalc.games.house_baccarat.count import SeatCounter
from oddscalc.games.house_baccarat.settle import seat_ev
from oddscalc.results import RunOptions
from oddscalc.seats.game import improve, thresholds
from oddscalc.seats.proof.checkpoint import Checkpoint, CheckpointError
from oddscalc.seats.proof.estimate import estimate
from oddscalc.seats.proof.search import problem
from oddscalc.seats.search import Draws, strategy_of


def main() -> int:
    """Estimate the proof for the players asked, and print the estimate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", type=int)
    parser.add_argument("probes", type=int, nargs="?", default=8)
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--checkpoint", type=Path)
    args = parser.parse_args()
    session = Session("house-baccarat")
    counter = session.counts(session.resolve("seed", RunOptions(decks=args.decks, players=args.players)))
    assert isinstance(counter, SeatCounter)
    one = Fraction(1)
    start = time.perf_counter()
    boxes: tuple[tuple[Draws, Draws], ...] = ()
    if args.checkpoint is not None:
        try:
            state = Checkpoint(args.checkpoint, problem(counter.rules, args.players, one)).load()
        except CheckpointError as e:
            print(f"estimate_proof: {e}", file=sys.stderr)
            return 2
        if state is None or state.done:
            print(f"estimate_proof: {args.checkpoint}: {'no such file' if state is None else 'the proof is done'}",
                  file=sys.stderr)
            return 2
        best, boxes = strategy_of(state.best[1], "the checkpoint's best met"), state.open
        print(f"start: {best.name}, {len(boxes)} open boxes, {float(state.left):.4%} of the strategies, after "
              f"{state.nodes} nodes and {state.seconds / 3600:.2f} hours", file=sys.stderr)
    else:
        family = max(thresholds(), key=lambda s: seat_ev(counter.seat(args.players, s), s, one))
        best, ev, tried = improve(counter, args.players, one, family)
        print(f"start: {best.name} from {family.name}, {float(ev):+.4%} per seat, {tried} strategies tried, "
              f"{time.perf_counter() - start:.0f} s", file=sys.stderr)

    def say(text: str) -> None:
        print(f"{text} ({time.perf_counter() - start:.0f} s)", file=sys.stderr)

    found = estimate(counter, args.players, one, best, args.probes, args.seed, say, boxes)
    for k, p in enumerate(found.probes):
        print(f"probe {k + 1}: depth {len(p.children)}, branching {p.children}, evaluations {sum(p.evaluations)}, "
              f"{sum(p.seconds):.0f} s")
    print(found.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
