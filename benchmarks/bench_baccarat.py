"""Punto banco and house baccarat: cold reports, and house baccarat's seats on the exact finite shoe.

- ``report punto-banco`` (8 decks, every wager) and ``report house-baccarat`` (one seat, optimal
  play solved), nothing stored (``ODDSCALC_NO_CACHE=1``): targets 0.3 s and 0.4 s;
- settling one more side bet from the stored coup-feature cells: target 50 ms;
- ``report punto-banco`` with a side bet on the cards (Lucky Nines: four cards read by rank and suit;
  Perfect 9 Bonus: two; Lucky Match: all six by rank), nothing stored: target 1 s each (its CPU seconds and
  peak RSS beside it: the machine may be shared); each bet's own pass (``card_count``) alone, and settling
  such a bet from its stored count: target 50 ms;
- every wager's exact EV from a depleted shoe, as a counting study needs at each coup: target 5 ms;
- the house game's per-coup exact EV (one seat, best play re-solved): target 5 ms;
- house baccarat with 2 to FINITE_EXACT_MAX_PLAYERS seats, exact finite shoe: target 60 s each
  (the limit's reason); beyond it the report is exact on an infinite shoe, also timed; and two and
  three seats with third cards shown (the sequential game's equilibrium search), 60 s; four, 300 s;
- ``seats`` with 2 to SEAT_GAME_MAX_PLAYERS seats (every equilibrium, the common strategies, the best
  replies, the cooperative search), nothing stored: 120 s each; with three and ``--prove-common`` (the
  best common strategy proven over all 2^44 by branch and bound), 180 s; with seven, the edge by seats
  filled, every equilibrium, the family of common strategies and the best replies to it (about twelve
  full-table evaluations of 17 s, and the smaller tables): 300 s;
- with ``--limit``: one exact finite-shoe evaluation of a full table's six other seats, the
  measurement behind the limit;
- with ``--long``: ``seats --players 4 --prove-common``, the best common strategy of four seats proven
  over all 2^44 (about 6 minutes, so not in ``make bench``): 600 s; and five seats with third cards
  shown (13 evaluations of 30 to 50 s, about 8 minutes and 9 GB): 900 s; one evaluation of seat 1 of six
  with third cards shown, in passes of 11 GB at most: 600 s.

Run: ``python benchmarks/bench_baccarat.py [repeats] [--limit] [--long] [--cards]`` (``--cards``: the bets on the
cards only, their reports and passes, a few seconds)
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time

from common import ROOT, Targets, best_cli, cli, peak

LIMIT_PROBE = """
import time
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.house_baccarat.others import others_finite
from oddscalc.games.shoe import Multisets, Shoe
seats = 6  # a full table's other seats
draws = Strategy.by_totals("draw-0-4", range(5)).matrix
t = time.perf_counter()
others_finite(Shoe.of_decks(8).counts, seats, draws, Multisets.of_size(6).counts)
print(f"{time.perf_counter() - t:.1f}")
"""
SHOWN_SIX_PROBE = """
import time
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.house_baccarat.table import SHEET_TABLEAU
from oddscalc.seats import turn_order
from oddscalc.seats.shown import seats as shown_seats
from oddscalc.games.shoe import Shoe
blind = turn_order.Late.blind(Strategy.by_totals("draw-0-4", range(5)))
t = time.perf_counter()
shown_seats.seat_counts(Shoe.of_decks(8), [blind] * 6, 0, SHEET_TABLEAU, "never")
print(f"{time.perf_counter() - t:.1f}")
"""
SETTLE_PROBE = """
import time
from oddscalc.analysis import Session
from oddscalc.results import RunOptions
session = Session("punto-banco", RunOptions(brief=True))
def settle_seconds(table):
    rules = session.resolve(table)
    cells = session.counts(rules)  # stored once: every table here has the same shoe and drawing rules
    best = min(_timed(lambda: session.game.settle(cells, rules)) for _ in range(7))
    return best, len(rules.model.pays.side_bets)
def _timed(f):
    t = time.perf_counter(); f(); return time.perf_counter() - t
base, _ = settle_seconds("standard")
more, bets = settle_seconds("winning-total")
print(base, (more - base) / (bets - 2), bets - 2)
"""
CARD_PROBE = """
import time
from oddscalc.analysis import Session
from oddscalc.games.punto_banco.card_count import count_conditions
from oddscalc.results import RunOptions
session = Session("punto-banco", RunOptions(brief=True))
def _timed(f):
    t = time.perf_counter(); f(); return time.perf_counter() - t
passes = []
for table, name in (("lucky-nines", "lucky_nines"), ("perfect-9", "perfect_9"), ("lucky-match", "lucky_match")):
    rules = session.resolve(table)
    bet = rules.model.pays.side_bets[name]
    passes.append(min(_timed(lambda: count_conditions(rules.cards.copies, rules.drawing, False,
                                                      bet.card_conditions())) for _ in range(3)))
rules = session.resolve("lucky-nines")
counts = session.counts(rules)
with_bet = min(_timed(lambda: session.game.settle(counts, rules)) for _ in range(7))
plain = session.resolve("standard")
cells = session.counts(plain)
main = min(_timed(lambda: session.game.settle(cells, plain)) for _ in range(7))  # 3 main bets and 2 pair bets
print(*passes, with_bet - main * 3 / 5)
"""
COUP_PROBE = """
import random, time
from oddscalc.analysis import Session
from oddscalc.protection.counting import coup_ev, with_ranks
rules = Session("punto-banco").resolve("dragon-bonus")
fast = coup_ev(rules)
left = with_ranks(rules.cards)
rng = random.Random(1)
best = 1.0
for _ in range(200):  # a shoe dealt down card by card, its exact EVs at every step
    r = rng.randrange(13)
    if left[r] and sum(left) > 60:
        left[r] -= 1
    t = time.perf_counter(); fast.ev(left); best = min(best, time.perf_counter() - t)
print(best)
"""
HOUSE_COUP_PROBE = """
import random, time
from oddscalc.analysis import Session
from oddscalc.protection.house_study import coup_ev
rules = Session("house-baccarat").resolve("seed")
fast = coup_ev(rules)
left = list(rules.shoe.counts)
rng = random.Random(1)
best = 1.0
for _ in range(200):  # a shoe dealt down card by card: the seat's exact EV, best play re-solved, at every step
    v = rng.randrange(10)
    if left[v] and sum(left) > 60:
        left[v] -= 1
    t = time.perf_counter(); fast.ev(left); best = min(best, time.perf_counter() - t)
print(best)
"""
COLD = {"ODDSCALC_NO_CACHE": "1"}


def report(*args: str) -> list[str]:
    return ["report", *args, "--format", "json"]


def cpu_seconds(args: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user and system) of one new process running ``oddscalc ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cli(args, env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def cards(out: Targets, repeats: int) -> None:
    """The bets on the cards: each table's cold report (wall, CPU, peak RSS) beside the standard table's (the
    same report without them), each bet's pass, a settle."""
    for table in ("standard", "lucky-nines", "perfect-9", "lucky-match"):  # lucky-match: every card, by rank
        args = report("punto-banco", "--table", table)
        best, _ = best_cli(repeats, args, COLD)
        cpu = min(cpu_seconds(args, COLD) for _ in range(repeats))
        what = "no bet on the cards" if table == "standard" else "a bet on the cards"
        out.seconds(f"report punto-banco --table {table} ({what}), nothing stored", best,
                    None if table == "standard" else 1.0,
                    f"CPU {cpu:.2f} s ({cpu / out.reference:.2f} ref), peak {peak(args, COLD):.0f} MB")
    probe = subprocess.run([sys.executable, "-c", CARD_PROBE], check=True, capture_output=True, text=True, cwd=ROOT)
    *passes, settle_card = (float(x) for x in probe.stdout.split())
    for (what, shape), seconds in zip((("lucky-nines", "4 cards by rank and suit"), ("perfect-9", "2 cards"),
                                       ("lucky-match", "all 6 cards by rank")), passes, strict=True):
        out.seconds(f"count the {what} bet on the cards (its own pass, {shape})", seconds, None)
    out.seconds("settle a bet on the cards from its stored count (lucky-nines' beyond 3 main bets)", settle_card,
                0.05)


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    repeats = int(args[0]) if args else 3
    from oddscalc.games.house_baccarat.game import FINITE_EXACT_MAX_PLAYERS
    from oddscalc.seats.game import SEAT_GAME_MAX_PLAYERS

    out = Targets("baccarat")
    cli(report("punto-banco"), COLD)  # untimed: the OS file cache, so the first figure is not the disk's
    if "--cards" in sys.argv[1:]:
        cards(out, repeats)
        return out.finish()
    for table in ("standard", "ez-baccarat", "super-6", "seed"):
        best, _ = best_cli(repeats, report("punto-banco", "--table", table), COLD)
        out.seconds(f"report punto-banco --table {table}, nothing stored", best, 0.3)
    probe = subprocess.run([sys.executable, "-c", SETTLE_PROBE], check=True, capture_output=True, text=True, cwd=ROOT)
    base, per_bet, bets = probe.stdout.split()
    out.seconds("settle punto-banco standard from stored cells (3 wagers)", float(base), None)
    out.seconds(f"settle one more side bet from stored cells (each of winning-total's {bets} beyond standard's)",
                float(per_bet), 0.05)
    cards(out, repeats)
    probe = subprocess.run([sys.executable, "-c", COUP_PROBE], check=True, capture_output=True, text=True, cwd=ROOT)
    per_coup = float(probe.stdout)
    out.seconds("exact EV of every dragon-bonus wager from a depleted shoe (per coup)", per_coup, 0.005,
                f"{per_coup * 1000:.2f} ms")
    probe = subprocess.run([sys.executable, "-c", HOUSE_COUP_PROBE], check=True, capture_output=True, text=True,
                           cwd=ROOT)
    per_coup = float(probe.stdout)
    out.seconds("exact EV of the house game's seat from a depleted shoe, best play re-solved (per coup)", per_coup,
                0.005, f"{per_coup * 1000:.2f} ms")
    for table in ("seed", "seed-house-draws"):
        best, _ = best_cli(repeats, report("house-baccarat", "--table", table), COLD)
        out.seconds(f"report house-baccarat --table {table} (1 seat), nothing stored", best, 0.4)
    for n in range(2, FINITE_EXACT_MAX_PLAYERS + 1):
        out.seconds(f"house-baccarat, {n} seats, exact finite shoe", cli(report("house-baccarat", "--players", str(n)),
                                                                          COLD)[0], 60)
    n = FINITE_EXACT_MAX_PLAYERS
    out.seconds(f"house-baccarat seed-house-draws, {n} seats, --strategy draw-0-5",
                cli(report("house-baccarat", "--table", "seed-house-draws", "--players", str(n), "--strategy",
                           "draw-0-5"), COLD)[0], 60)
    for n in range(FINITE_EXACT_MAX_PLAYERS + 1, 8):
        out.seconds(f"house-baccarat, {n} seats (exact on an infinite shoe)",
                    cli(report("house-baccarat", "--players", str(n)), COLD)[0], 60)
    for n in range(2, SEAT_GAME_MAX_PLAYERS + 1):
        out.seconds(f"seats house-baccarat --players {n}: every equilibrium, the common strategies, best replies",
                    cli(["seats", "house-baccarat", "--players", str(n)], COLD)[0], 120)
    out.seconds("seats house-baccarat --players 3 --prove-common: the best common strategy over all 2^44",
                cli(["seats", "house-baccarat", "--players", "3", "--prove-common"], COLD)[0], 180)
    n = FINITE_EXACT_MAX_PLAYERS
    out.seconds(f"seats house-baccarat --players {n}: the edge by seats, every equilibrium, the family, best replies",
                cli(["seats", "house-baccarat", "--players", str(n)], COLD)[0], 300)
    for n, target in ((2, 60), (3, 60), (4, 300)):
        shown = ["seats", "house-baccarat", "--players", str(n), "--third-cards", "shown"]
        out.seconds(f"seats house-baccarat, {n} seats, third cards shown (8 decks, every equilibrium step exact)",
                    cli(shown, COLD)[0], target)
    if "--limit" in sys.argv[1:]:
        t = time.perf_counter()
        probe = subprocess.run([sys.executable, "-c", LIMIT_PROBE], check=True, capture_output=True, text=True,
                               cwd=ROOT)
        out.seconds("one exact evaluation of the other six seats of a full table", float(probe.stdout), None,
                    f"process {time.perf_counter() - t:.1f} s")
    if "--long" in sys.argv[1:]:
        shown = ["seats", "house-baccarat", "--players", "5", "--third-cards", "shown"]
        out.seconds("seats house-baccarat, 5 seats, third cards shown (8 decks, every equilibrium step exact)",
                    cli(shown, COLD)[0], 900)
        out.seconds("seats house-baccarat --players 4 --prove-common: the best common strategy over all 2^44",
                    cli(["seats", "house-baccarat", "--players", "4", "--prove-common"], COLD)[0], 600)
        probe = subprocess.run([sys.executable, "-c", SHOWN_SIX_PROBE], check=True, capture_output=True, text=True,
                               cwd=ROOT, env={**os.environ, **COLD, "ODDSCALC_MEMORY_GB": "11"})
        out.seconds("third cards shown, one evaluation of seat 1 of six (8 decks, in passes of 11 GB at most)",
                    float(probe.stdout), 600)
    return out.finish()


if __name__ == "__main__":
    sys.exit(main())
