"""Four Card Poker's full-deck count measured before it is run: the engine's own chunks on a sample of classes.

A deal is the player's five cards, the dealer's up card and his five hole cards: C(52,5) x 47 x C(46,5) =
2,598,960 x 47 x 1,370,754 deals. The engine (``games/stud/dealer.py``) takes the player's hands one per suit
class (134,459) and visits every six-card hand of the dealer's from the other 47 cards (C(47,6) = 10,737,573) once,
by one lookup in the table of the best four of every six-card set (20,358,520 entries, 40 MB); each hand is counted
for the up card it would show. This script times the same ``count_chunk`` a report would run, on one core, over
``--sample`` player classes spread over the list, and prints what the whole count costs here and on a cluster
(the chunks are independent: ``count_dealer``'s ``mapper``, as the Caribbean file's full deck ran).

    python benchmarks/four_card_plan.py [--sample N]
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numba
import numpy as np
from common import reference_seconds

from oddscalc.cards import FULL_DECK
from oddscalc.games.stud.dealer import chunks_of, count_chunk
from oddscalc.hands.four import best_four_strength
from oddscalc.symmetry import suit_classes

ANY = ("high_card", ())  # the dealer always plays


def plan(sample: int) -> None:
    """Time the count of ``sample`` player classes; print the whole count's cost."""
    numba.set_num_threads(1)
    start = time.process_time()
    best_four_strength(FULL_DECK, 6)
    tables = time.process_time() - start
    reps, _ = suit_classes(5, FULL_DECK)
    pick = reps[np.linspace(0, len(reps) - 1, sample).astype(np.int64)]
    (warm,) = chunks_of(FULL_DECK, "four-card", ANY, 5, 6, 1, pick[:1], size=1)
    count_chunk(warm)  # the kernel loaded (numba's cache) and the tables built
    (chunk,) = chunks_of(FULL_DECK, "four-card", ANY, 5, 6, 1, pick, size=sample)
    start = time.process_time()
    out = count_chunk(chunk)
    one = (time.process_time() - start) / sample
    assert int(out[0].sum()) == 47 * math.comb(46, 5)  # every dealer hand of a class, once per up card it shows
    total = one * len(reps)
    ref = reference_seconds()
    print(f"Four Card Poker: {len(reps):,} player classes x {math.comb(47, 6):,} dealer hands; "
          f"{math.comb(52, 5) * 47 * math.comb(46, 5):,} deals")
    print(f"best-four tables (five and six cards): {tables:.1f} s CPU, once per process")
    print(f"one class {one:.3f} s of one core ({one / ref:.3f} x the reference workload, {ref:.3f} s here); "
          f"chunk of 512 classes {512 * one / 60:.1f} min; whole count {total / 3600:,.1f} h one core, "
          f"{total / 7200:,.1f} h two, {total / 64 / 60:,.1f} min on 64 workers, {total / 263 / 60:,.1f} min on 263 "
          "(one a chunk)")


def run() -> None:
    """Count the whole deck by the sieve (``games/stud/sieve.py``), settle the check file, and print the main game's
    figures beside the published house edge."""
    import oddscalc.games.stud.game as stud
    from oddscalc.cache import Store
    from oddscalc.games.stud.capabilities import declared_in
    from oddscalc.results import RunOptions
    from oddscalc.tables import load_table_file

    files = Path(__file__).resolve().parents[1] / "tests" / "games" / "stud" / "files"
    (found,) = [c for c in declared_in(files) if c.key == "four-card-poker"]
    game = stud.build_class(found)()
    table = load_table_file(files / found.key / "standard.toml", {game.key: game.table_model})
    stud.HEAVY_SECONDS = math.inf  # this script is the long run the report refuses
    ref = reference_seconds()
    start, wall = time.process_time(), time.perf_counter()
    rules = game.resolve(table, RunOptions())
    analysis = game.settle(game.count(rules, Store(None)), rules)
    cpu, wall = time.process_time() - start, time.perf_counter() - wall
    main = analysis.wager("main")
    ev = main.expected_value
    print(f"Four Card Poker, full deck: {main.total_combinations:,} deals; count and settle {cpu:.0f} s CPU, "
          f"{wall:.0f} s wall ({cpu / ref:.0f} x the reference workload, {ref:.3f} s here)")
    print(f"main (ante and play): EV per ante {ev} = {float(ev):+.6%}; house edge per ante {float(-ev):.4%} "
          f"(published: 2.79%, Wizard of Odds, Four Card Poker, ante bonus 25-20-2)")
    for row in main.rows:
        print(f"  {row.event:28} {row.combinations:>26,} {row.units!s:>6}")


def main() -> None:
    """Parse the sample size and run the plan (or, with ``--run``, the whole count)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=16, help="player classes timed (default 16)")
    parser.add_argument("--run", action="store_true", help="count the whole deck by the sieve and settle it")
    args = parser.parse_args()
    if args.run:
        run()
    else:
        plan(args.sample)


if __name__ == "__main__":
    main()
