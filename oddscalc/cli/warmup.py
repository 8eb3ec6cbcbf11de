"""The compiled kernels built once at install, so that no first report (or first test run) pays for them.

The numba kernels are compiled on first use and kept in numba's on-disk cache next to their modules.
Compiling all of them takes about a minute of one core (the parallel ones cost 2 to 4 s each); each
group below compiles its share by running the smallest computations that call its kernels with the
argument types real runs use, and the groups run in two processes. ``make setup`` runs it; a kernel
it misses is only compiled later, on first use, as before: nothing here changes a figure.

    python -m oddscalc.cli.warmup
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context


def poker() -> None:
    """The dealer counts and sweeps of Caribbean Stud and its flash counts, on a 12- and a 15-card deck; the stud
    engine's count against a dealer's up cards, plain and by the sieve."""
    from oddscalc.cards import reduced_deck
    from oddscalc.catalog import resolve_table
    from oddscalc.games.caribbean.capabilities import CAPABILITIES
    from oddscalc.games.caribbean.count import dealer_counts_of
    from oddscalc.games.caribbean.settle import settle_counts
    from oddscalc.protection.flash import all_cards, known_cards, one_card, two_cards

    # any table's pays compile the same kernels (numba keys them by argument types): the default table's
    pays = resolve_table(CAPABILITIES.key).model.pays.main  # type: ignore[attr-defined]
    deck = reduced_deck("9", 2)
    table = dealer_counts_of(deck, "ace-king").table()
    settled = settle_counts(table, pays, closest=False)
    one_card(table, settled, pays)
    all_cards(table, settled, pays)
    two_cards(deck, "ace-king", pays)
    for k in (3, 4):
        known_cards(reduced_deck("J", 3), "ace-king", pays, k)
    from oddscalc.games.stud.dealer import count_dealer  # the stud engine's dealer kernel (game files)

    for sieve in (False, True):  # the plain count's kernel and the sieve's (games/stud/sieve_kernel.py)
        count_dealer(deck, "five-card", 5, 5, 1, ("high_card", (12, 11)), sieve=sieve)


def baccarat() -> None:
    """The house game's other-seat levels, anchors and quadratic bound, and the shown-third-card sums."""
    import numpy as np

    from oddscalc.games.house_baccarat import count as hb
    from oddscalc.games.house_baccarat.strategy import Strategy
    from oddscalc.games.house_baccarat.table import SHEET_TABLEAU
    from oddscalc.games.shoe import Shoe
    from oddscalc.seats.proof.anchors import pair_taken, rows_and_taken
    from oddscalc.seats.proof.quadratic import VISITED, most
    from oddscalc.seats.shown import seats as shown_seats
    from oddscalc.seats.turn_order import Late

    s = Strategy.by_totals("draw-0-4", range(5))
    deck = Shoe.of_decks(1)
    hb.seat_counts(deck, 4, s, SHEET_TABLEAU, "never", False)
    _, taken = rows_and_taken(deck.counts, 3, frozenset(range(0, 44, 3)), frozenset({0, 1, 3}))
    for pairs in (taken.pairs, rows_and_taken(deck.counts, 2, frozenset(), frozenset({1}))[1].pairs):
        assert pairs is not None  # a level of the seats but two, and none left
        pair_taken(pairs, [(1, 2)], np.ones((5005, 12)))
    for n in (4, VISITED + 2):  # every point visited, and the relaxation past VISITED variables
        rng = np.random.default_rng(n)
        pair = rng.integers(-9, 9, (n, n))
        pair = np.triu(pair, 1) + np.triu(pair, 1).T
        most(rng.integers(-9, 9, n), pair, None)
    from oddscalc.seats.shown.sums import join

    halves = np.arange(4, dtype=np.int64)  # the join of exact halves modulo primes, which 8-deck tables reach
    join(halves, halves, np.array([(1 << 27) + 29], dtype=np.int64), np.array([2], dtype=np.int64))
    small = Shoe.from_ranks({"3": 7, "9": 5, "7": 7})
    for seats, k in ((3, 1), (5, 2)):  # one seat on a side, and the seats after stacked over the seats before
        shown_seats.seat_counts(small, [Late.blind(s)] * seats, k, SHEET_TABLEAU, "never")


GROUPS: tuple[Callable[[], None], ...] = (poker, baccarat)


def _run(group: Callable[[], None]) -> float:
    start = time.perf_counter()
    group()
    return time.perf_counter() - start


def main() -> int:
    """Compile every group's kernels, two processes at a time; say how long each took on stderr."""
    start = time.perf_counter()
    try:
        with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
            running = {pool.submit(_run, g): g for g in GROUPS}
            for done in as_completed(running):  # each group said as it ends: a minute of silence reads as a hang
                print(f"oddscalc:   {running[done].__name__} kernels compiled in {done.result():.0f} s",
                      file=sys.stderr, flush=True)
    except Exception as e:  # a warm-up that fails only leaves the compiling to first use
        print(f"oddscalc: warm-up skipped ({type(e).__name__}: {e}); kernels compile on first use", file=sys.stderr)
        return 0
    print(f"oddscalc: kernels compiled in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
