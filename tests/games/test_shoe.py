"""The value-count shoe and the exact-arithmetic helpers shared by the baccarat games."""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import numpy as np
import pytest

from oddscalc.catalog import load_table as load_table_file
from oddscalc.datafile import TableError
from oddscalc.games.shoe import (
    STANDARD_TABLEAU,
    Multisets,
    Shoe,
    exact_dot,
    falling,
    from_limbs,
    multiset_keys,
    parse_tableau,
    parse_totals,
    sequence_weights,
    tableau_array,
    to_limbs,
    value_grid,
)


def test_eight_deck_shoe() -> None:
    shoe = Shoe.of_decks(8)
    assert shoe.counts == (128,) + (32,) * 9
    assert shoe.size == 416
    assert shoe.ordered(6) == 416 * 415 * 414 * 413 * 412 * 411 == 4_998_398_275_503_360
    # same-rank ordered pairs: 13 ranks of 32 cards
    assert shoe.pair_sequences == 13 * 32 * 31
    assert shoe.reduced() == ((4,) + (1,) * 9, 13)


def test_shoe_from_ranks_keeps_ranks_apart_for_pairs() -> None:
    suit = Shoe.from_ranks({r: 1 for r in "A23456789TJQK"})
    assert suit.counts == (4,) + (1,) * 9
    assert suit.pair_sequences == 0  # a ten and a king are both 0 but no pair
    mixed = Shoe.from_ranks({"K": 2, "Q": 1, "10": 3, "A": 2})
    assert mixed.counts[0] == 6 and mixed.counts[1] == 2
    assert mixed.same_rank_pairs[0] == 2 * 1 + 3 * 2
    with pytest.raises(ValueError):
        Shoe.from_ranks({"Z": 1})
    with pytest.raises(ValueError):
        Shoe.of_decks(0)


def test_falling() -> None:
    assert falling(10, 3) == 720
    assert falling(2, 3) == 0
    assert falling(-1, 2) == 0
    assert falling(5, 0) == 1


@pytest.mark.parametrize("size", [1, 2, 4, 6])
def test_multisets_cover_every_value_sequence(size: int) -> None:
    ms = Multisets.of_size(size)
    assert len(ms) == math.comb(size + 9, 9)
    assert (ms.counts.sum(axis=1) == size).all()
    idx = ms.index(multiset_keys(value_grid(size)))
    orderings = np.bincount(np.broadcast_to(idx, (10,) * size).ravel(), minlength=len(ms))
    assert orderings.sum() == 10**size
    # the falling products of all value orderings add up to size-P-k card sequences
    for shoe in (Shoe.of_decks(8), Shoe.from_ranks({"A": 1, "K": 3, "5": 2, "9": 1})):
        weights = ms.weights(shoe)
        assert sum(int(w) * int(o) for w, o in zip(weights, orderings)) == shoe.ordered(size)
        _red, total = shoe.reduced()
        inf = ms.weights(shoe, infinite=True)
        assert sum(int(w) * int(o) for w, o in zip(inf, orderings)) == total**size


def test_multiset_index_rejects_unknown_keys() -> None:
    ms = Multisets.of_size(2)
    with pytest.raises(ValueError):
        ms.index(np.array([Multisets.of_size(3).keys[0]]))


def test_sequence_weights_by_hand() -> None:
    shoe = Shoe.from_ranks({"K": 3, "A": 2})
    counts = np.zeros((2, 10), dtype=np.int64)
    counts[0, 0] = 2  # two tens-value cards: 3 * 2
    counts[1, [0, 1]] = [1, 2]  # 3 * (2 * 1)
    assert list(sequence_weights(shoe, counts)) == [6, 6]
    assert list(sequence_weights(shoe, counts, infinite=True)) == [9, 12]


def test_exact_dot_matches_python_ints() -> None:
    rng = random.Random(7)
    big = np.array([rng.getrandbits(rng.choice([3, 40, 90, 200])) for _ in range(300)], dtype=object)
    small = np.array([[rng.randrange(0, 1000) for _ in range(5)] for _ in range(300)], dtype=np.int64)
    got = exact_dot(big, small)
    want = [sum(int(b) * int(s[k]) for b, s in zip(big, small)) for k in range(5)]
    assert [int(x) for x in got] == want


def test_limbs_round_trip() -> None:
    rng = random.Random(3)
    values = np.array([rng.getrandbits(150) for _ in range(50)], dtype=object).reshape(5, 10)
    assert (from_limbs(to_limbs(values, 27), 27) == values).all()
    small = np.arange(1000, dtype=np.int64).reshape(10, 100) * 123_456_789
    assert (from_limbs(to_limbs(small, 20), 20, fits_int64=True) == small).all()
    with pytest.raises(ValueError):
        to_limbs(np.array([-1], dtype=np.int64), 10)


def test_tableau_and_totals_validation() -> None:
    assert parse_tableau(list(STANDARD_TABLEAU)) == STANDARD_TABLEAU
    grid = tableau_array(STANDARD_TABLEAU)
    assert grid.shape == (10, 10) and not grid[7:].any() and grid[3, 9] and not grid[3, 8]
    with pytest.raises(ValueError, match="8 rows"):
        parse_tableau(list(STANDARD_TABLEAU)[:7])
    with pytest.raises(ValueError, match="row 2"):
        parse_tableau([r if i != 2 else "DDDDDXDDDD" for i, r in enumerate(STANDARD_TABLEAU)])
    assert parse_totals([5, 0, 3]) == (0, 3, 5)
    with pytest.raises(ValueError, match="naturals"):
        parse_totals([0, 8])
    with pytest.raises(ValueError, match="twice"):
        parse_totals([1, 1])



def test_every_value_sequence_is_counted_once() -> None:
    # brute force: weights of all 3-card ordered sequences of a tiny shoe, by actual cards
    cards = [0, 0, 0, 1, 5, 5, 9]
    shoe = Shoe.from_ranks({"K": 3, "A": 1, "5": 2, "9": 1})
    by_values: dict[tuple[int, ...], int] = {}
    for seq in itertools.permutations(range(len(cards)), 3):
        key = tuple(sorted(cards[i] for i in seq))
        by_values[key] = by_values.get(key, 0) + 1
    ms = Multisets.of_size(3)
    weights = ms.weights(shoe)
    for row, w in zip(ms.counts, weights):
        key = tuple(v for v in range(10) for _ in range(row[v]))
        orderings = math.factorial(3) // math.prod(math.factorial(int(k)) for k in row)
        assert by_values.get(key, 0) == int(w) * orderings


def _write(tmp_path: Path, folder: str, text: str) -> Path:
    d = tmp_path / folder
    d.mkdir(exist_ok=True)
    p = d / "t.toml"
    p.write_text(text)
    return p


def test_bad_baccarat_tables_name_the_key(tmp_path: Path) -> None:
    p = _write(tmp_path, "punto-banco", """game = "punto-banco"
title = "bad"
[rules]
banca_tableau = ["DDDDDDDDDD"]
punto_draws_on = [0, 9]
[pays.player]
win = "1:1"
[pays.banker]
win = "1:1"
commission = "0.05"
[pays.tie]
win = 8.0
""")
    with pytest.raises(TableError) as e:
        load_table_file(p)
    text = str(e.value)
    assert "rules.banca_tableau" in text and "8 rows" in text
    assert "rules.punto_draws_on" in text
    assert "pays.banker.commission" in text and '"5%"' in text
    assert "pays.tie.win" in text
    p = _write(tmp_path, "house-baccarat", """game = "house-baccarat"
title = "bad"
[rules]
strategy = "optimal"
draw_on = [0, 1]
players = 9
house_draws_when_all_stand = "sometimes"
[pays.main]
win = "1:1"
""")
    with pytest.raises(TableError) as e:
        load_table_file(p)
    text = str(e.value)
    assert "rules.players" in text and "rules.house_draws_when_all_stand" in text
