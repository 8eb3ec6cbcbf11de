"""The raise table's settlement kept per pay class: settling one pay table after others gives what a fresh table
gives, and the per-row binary search counts what comparing every key counts."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import numpy as np

from oddscalc.cards import reduced_deck
from oddscalc.games.caribbean import raise_table
from oddscalc.games.caribbean.count import dealer_counts_of
from oddscalc.games.caribbean.row_search import below


def _fresh() -> raise_table.RaiseTable:
    return dealer_counts_of(reduced_deck("9", 2), "ace-king").table()


def test_one_pay_changed_settles_as_a_fresh_table_does() -> None:
    kept, rng = _fresh(), random.Random(20261206)
    n = raise_table.N_PAY
    for _ in range(12):  # each step changes one pay: only that class is settled again on the kept table
        pays = [Fraction(rng.choice((1, 2, 3, 5, 7, 20, 50, 100, 250)), rng.choice((1, 2, 3))) for _ in range(n)]
        for c in range(n):
            pays[c] += Fraction(rng.randint(0, 3))
            fresh = dataclasses.replace(kept)  # the same counts, nothing kept
            mine, theirs = raise_table.optimal(kept, pays), raise_table.optimal(fresh, pays)
            assert not fresh.settled or len(fresh.settled) == sum(1 for r in fresh.class_rows if len(r))
            assert np.array_equal(mine.tally, theirs.tally) and np.array_equal(mine.raised_count, theirs.raised_count)
            assert mine.exceptions.keys() == theirs.exceptions.keys()
    assert kept.settled  # it did keep some


def test_the_row_search_counts_what_comparing_every_key_counts() -> None:
    table, rng = _fresh(), np.random.default_rng(6)
    keys = table.keys
    assert not np.isnan(keys).any() and bool(np.all(keys[:, 1:] >= keys[:, :-1]))  # ascending, inf last
    finite = keys[np.isfinite(keys)]
    for bound in (rng.choice(finite, len(keys)), np.full(len(keys), float(np.median(finite))),
                  np.full(len(keys), np.inf), np.full(len(keys), -1.0)):
        assert below(keys, bound, False).tolist() == np.count_nonzero(keys < bound[:, None], axis=1).tolist()
        assert below(keys, bound, True).tolist() == np.count_nonzero(keys <= bound[:, None], axis=1).tolist()
