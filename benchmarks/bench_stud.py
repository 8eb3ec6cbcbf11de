"""The stud family's engine: Three Card Poker from its game file, cold (empty store) and repeated.

Target: cold ``report three-card-poker`` within 10 s on two cores (the count of every deal, 407,170,400 of them, and
the 20,358,520 six-card sets of the 6-card bonus); Mississippi Stud and Double Down Stud cold within the same 10 s.

The count against a dealer's up cards (Caribbean Stud as a game file, ``tests/games/stud/files/``): the CPU of one
player suit class on the full deck, on one core, measured on a spread of classes, and the plan it gives for the
134,459 classes (in chunks of ``dealer.CHUNK``) on one core, two, and a cluster. ``--caribbean-file WHERE`` runs that
whole count (``here``: this process; ``local``: a LocalCluster; or a scheduler's address), settles the US file and
compares its every row with the shipped table's published counts (tables/caribbean/us.toml), to the unit.

A seven-card game's plan (``--seven-card``): Casino Hold'em's count per suit class of what the player knows at
his decision (two hole cards and the flop: 1,286,792 classes) over the turn, the river and the dealer's two cards
(1,081 x 990 completions), its inner loop written two ways and timed on one core over a sample of boards: the dealer's
best five of seven by lookups in the five-card table, and by one lookup in a table of every seven-card set (its
memory access timed on a stand-in table of the real size, 268 MB: the access is the cost). docs/game-files.md,
*Heavy games*, gives the figures and the plan.

Run: ``python benchmarks/bench_stud.py [repeats]``, ``python benchmarks/bench_stud.py --caribbean-file WHERE`` or
``python benchmarks/bench_stud.py --seven-card``
"""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

import numpy as np
from common import ROOT, Targets, best_cli, best_of, cli, peak, scratch

from oddscalc.cards import FULL_DECK
from oddscalc.symmetry import suit_classes

ACE_KING = ("high_card", (12, 11))
FILES = ROOT / "tests" / "games" / "stud" / "files"


def dealer_plan(out: Targets, sample: int = 256) -> float:
    """One full-deck player class's CPU on one core (a spread of ``sample`` classes), and the plan it gives."""
    import numba

    from oddscalc.games.stud.dealer import CHUNK, chunks_of, count_chunk

    numba.set_num_threads(1)
    reps, _ = suit_classes(5, FULL_DECK)
    pick = np.asarray(reps)[:: len(reps) // sample][:sample]
    (warm,) = chunks_of(FULL_DECK, "five-card", ACE_KING, 5, 5, 1, pick[:1], size=1)
    count_chunk(warm)  # the kernel loaded (compiled once, at install)
    (chunk,) = chunks_of(FULL_DECK, "five-card", ACE_KING, 5, 5, 1, pick, size=sample)
    start = time.process_time()
    count_chunk(chunk)
    per_class = (time.process_time() - start) / sample
    total = per_class * len(reps)
    chunks = -(-len(reps) // CHUNK)
    out.seconds("caribbean game file: one player class, full deck, one core (CPU)", per_class, None,
                f"{sample} classes spread over the {len(reps):,}")
    out.seconds(f"caribbean game file: one chunk of {CHUNK} classes (CPU)", per_class * CHUNK, None,
                f"{chunks} chunks")
    out.seconds("caribbean game file: the whole plain count, one core (CPU, extrapolated)", total, None,
                f"two cores {total / 2 / 60:.0f} min, 16 workers {total / 16 / 60:.1f} min, "
                f"64 workers {total / 64 / 60:.1f} min")
    # the same classes by the sieve (games/stud/sieve.py, the count a report picks on the full deck): its tables
    # once a process, then reads per class
    start = time.process_time()
    (sieved,) = chunks_of(FULL_DECK, "five-card", ACE_KING, 5, 5, 1, pick, size=sample, sieve=True)
    count_chunk(dataclasses.replace(sieved, free=sieved.free[:1], strength=sieved.strength[:1]))  # the tables
    tables = time.process_time() - start
    start = time.process_time()
    count_chunk(sieved)
    by_sieve = tables + (time.process_time() - start) / sample * len(reps)
    out.seconds("caribbean game file: the sieve's tables, once a process (CPU)", tables, None, "")
    out.seconds("caribbean game file: the whole count by the sieve, one core (CPU, extrapolated)", by_sieve, None,
                f"{total / by_sieve:.0f} x less than the plain count")
    return total


def caribbean_file(where: str) -> int:
    """The whole full-deck count of the US file, here or on a cluster, its rows against the published counts."""
    import contextlib

    from oddscalc import cluster
    from oddscalc.cache import Store
    from oddscalc.catalog import resolve_table
    from oddscalc.games.stud.capabilities import declared_in
    from oddscalc.games.stud.dealer import count_dealer
    from oddscalc.games.stud.game import build_class
    from oddscalc.protocol import count_key
    from oddscalc.results import RunOptions
    from oddscalc.tables import load_table_file

    (found,) = [c for c in declared_in(FILES) if c.key == "caribbean-stud"]
    game = build_class(found)()
    table = load_table_file(FILES / found.key / "us.toml", {found.key: game.table_model})
    rules = game.resolve(table, RunOptions())
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        mapper = None
        if where != "here":
            c = stack.enter_context(cluster.client(where))
            mapper = cluster.mapper(c, lambda done, n: print(f"\r{done}/{n} chunks", end="", file=sys.stderr))
        arrays = count_dealer(FULL_DECK, "five-card", 5, 5, 1, ACE_KING, mapper)
    print(f"\nthe count: {time.perf_counter() - start:.0f} s on {where}")
    folder = Path(scratch("caribbean-file"))
    # kept: the settle below is cheap, the count is not
    np.savez(folder / "counts.npz", reps=arrays["reps"], weights=arrays["weights"],
             player_class=arrays["player_class"], outcomes=arrays["outcomes"])
    print(f"counts kept in {folder / 'counts.npz'}")
    store = Store(folder)
    store.get(count_key(game, rules), lambda: arrays)  # what count() asks the store for: the count made above
    analysis = game.settle(game.count(rules, store), rules)
    block = resolve_table("caribbean", "us").model.published
    assert block is not None
    published = block.figures()["main"]
    mine = {r.event: r.combinations for r in analysis.wager("main").rows}
    mine["win_ace_king"] = mine.pop("win", 0)  # a high card that wins is ace-king: the shipped table's row
    wrong = 0
    for key, value in published.items():
        if key.startswith("rows.") and key.endswith(".combinations"):
            event = key[len("rows."):-len(".combinations")]
            ok = mine.get(event, 0) == value
            wrong += not ok
            print(f"{event:24} {mine.get(event, 0):>18,} {'=' if ok else '!='} {value:,}")
    return 1 if wrong else 0


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--caribbean-file":
        return caribbean_file(sys.argv[2])
    if len(sys.argv) > 1 and sys.argv[1] == "--seven-card":
        from seven_card_plan import plan

        plan()
        return 0
    if len(sys.argv) > 1 and not sys.argv[1].isdigit():
        print(__doc__.split("Run: ", 1)[1].strip(), file=sys.stderr)  # the usage, for --help or a stray word
        return 2
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    out = Targets("three-card-poker")
    report = ["report", "three-card-poker", "--format", "json"]
    best, runs = best_of(repeats, lambda: cli(report, {"ODDSCALC_CACHE_DIR": scratch("tcp")})[0])
    out.seconds("report three-card-poker, cold (empty store)", best, 10, "runs " + ", ".join(f"{r:.2f}" for r in runs))
    out.memory("report three-card-poker, cold: peak RSS", peak(report, {"ODDSCALC_CACHE_DIR": scratch("tcp")}), 800)
    warm = scratch("tcp-warm")
    cli(report, {"ODDSCALC_CACHE_DIR": warm})
    out.seconds("report three-card-poker, repeated", best_cli(repeats, report, {"ODDSCALC_CACHE_DIR": warm})[0], None)
    stud = ["report", "mississippi-stud", "--format", "json"]
    best, runs = best_of(repeats, lambda: cli(stud, {"ODDSCALC_CACHE_DIR": scratch("ms")})[0])
    out.seconds("report mississippi-stud, cold (empty store)", best, 10, "runs " + ", ".join(f"{r:.2f}" for r in runs))
    stud = ["report", "double-down-stud", "--format", "json"]  # the third game, a file alone
    best, runs = best_of(repeats, lambda: cli(stud, {"ODDSCALC_CACHE_DIR": scratch("dds")})[0])
    out.seconds("report double-down-stud, cold (empty store)", best, 10, "runs " + ", ".join(f"{r:.2f}" for r in runs))
    dealer_plan(out)
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
