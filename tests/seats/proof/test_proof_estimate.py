"""Knuth's estimate of the proof's tree: over every walk of a tree, weighted by its chance, the probes'
estimates average to its nodes and its evaluations exactly; and on a small shoe, walks of the real search's
tree estimate its nodes."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction

import pytest
from oracles.proof_fixtures import PAY, SMALL, every_value, without_pairs
from oracles.seat_fixtures import seat_counter

from oddscalc.games.shoe import Shoe
from oddscalc.seats.proof.branch import Anchors, CommonSearch
from oddscalc.seats.proof.estimate import Choose, Probe, Tree, estimate, probe
from oddscalc.seats.search import Draws, strategy_of


class _Random:
    """A random tree: node k's children and evaluations drawn once; a box is its node's number."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        self.children: dict[int, list[int]] = {}
        self.cost: dict[int, int] = {}
        frontier, made = [0], 1
        while frontier:
            k = frontier.pop()
            self.cost[k] = rng.randrange(1, 5)
            b = rng.choice((0, 0, 2, 2, 3)) if made < 40 else 0
            self.children[k] = list(range(made, made + b))
            frontier += self.children[k]
            made += b
        self.evaluations = 0
        self.dealt: Draws = frozenset()

    def settle(self, low: Draws, high: Draws, anchors: Anchors | None = None) -> list[tuple[Draws, Draws, Anchors]]:
        k = next(iter(low), 0)  # the root's box is the empty one
        self.evaluations += self.cost[k]
        return [(frozenset({c}), high, {}) for c in self.children[k]]


def _replay(prefix: list[int], prefixes: list[list[int]]) -> Choose:
    """Follow ``prefix``, then the first child; every other child met past it opens a prefix of its own."""
    taken: list[int] = []

    def choose(b: int) -> int:
        if len(taken) >= len(prefix):
            prefixes.extend([*taken, other] for other in range(1, b))
        taken.append(prefix[len(taken)] if len(taken) < len(prefix) else 0)
        return taken[-1]

    return choose


def _walks(tree: Tree, boxes: list[tuple[Draws, Draws]] | None = None) -> Iterator[tuple[Fraction, Probe]]:
    """Every walk from the root (or from one of ``boxes``), with its chance."""
    prefixes: list[list[int]] = [[]]
    while prefixes:
        walk = probe(tree, _replay(prefixes.pop(), prefixes), boxes or ())
        chance = Fraction(1, walk.width)
        for b in walk.children[:-1]:
            chance /= b
        yield chance, walk


def test_every_walk_weighted_by_its_chance_gives_the_tree_exactly() -> None:
    for seed in range(6):
        tree = _Random(seed)
        walks = list(_walks(tree))
        assert sum(chance for chance, _ in walks) == 1
        assert sum(chance * Fraction(w.weighted()) for chance, w in walks) == len(tree.children)
        assert sum(chance * Fraction(w.weighted(w.evaluations)) for chance, w in walks) == sum(tree.cost.values())
    assert len({len(w.children) for _, w in _walks(_Random(1))}) > 1  # walks of several depths


def test_walks_from_a_proofs_open_boxes_give_what_is_left_of_it_exactly() -> None:
    """A proof under way, its root settled: walks from its open boxes (the root's children) estimate the tree
    but the root, exactly over every walk."""
    tried = 0
    for seed in range(6):
        tree = _Random(seed)
        if not tree.children[0]:
            continue
        tried += 1
        boxes: list[tuple[Draws, Draws]] = [(frozenset({c}), frozenset()) for c in tree.children[0]]
        walks = list(_walks(tree, boxes))
        assert {w.width for _, w in walks} == {len(boxes)}
        assert sum(chance for chance, _ in walks) == 1
        assert sum(chance * Fraction(w.weighted()) for chance, w in walks) == len(tree.children) - 1
        assert sum(chance * Fraction(w.weighted(w.evaluations)) for chance, w in walks) == \
            sum(tree.cost.values()) - tree.cost[0]
    assert tried >= 3


@pytest.mark.deep  # a search run to compare with; the walks' arithmetic is checked exactly above
def test_walks_of_a_small_shoes_search_estimate_its_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three seats on a small shoe, from the best common strategy: the tree is a root and its two halves,
    which every walk sees whole."""
    without_pairs(monkeypatch)
    value = every_value(3, SMALL, PAY)
    best = max(value, key=lambda d: value[d])
    counter = seat_counter(1, 3, Shoe.from_ranks(dict(SMALL)))
    whole = CommonSearch(counter, 3, PAY, pair_bound=False)
    whole.best = (value[best], best)
    whole.visit(frozenset(), whole.dealt)
    found = estimate(counter, 3, PAY, strategy_of(best, "best"), 2, seed=1)
    assert found.nodes() == [whole.nodes, whole.nodes] and whole.nodes == 3
    assert "2 probes: 3 nodes" in found.summary()
