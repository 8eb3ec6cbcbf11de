"""Which atom sequences count for one another in the card count (``card_count``): each orbit counted once.

Ranks that no condition tells apart except by "same rank?" (``same = "rank"``, ``kinds``: the ten, jack, queen
and king under Lucky Match) are interchangeable: permuting them maps atoms to atoms of the same point value,
copies and filters, so every count is unchanged. Each orbit of prefixes under those permutations is counted once,
by its representative whose ranks of each class first appear in the class's order (restricted-growth labels),
times its size: the falling product g (g - 1) ... (g - m + 1) for a class of g ranks of which m are used.
A ``hand`` condition reads the order of ranks (straights), so with one nothing is interchangeable.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from oddscalc.games.punto_banco.card_conditions import Atoms, CardCondition


def rank_classes(at: Atoms, conditions: Sequence[CardCondition]) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                          np.ndarray]:
    """Per atom, its class of interchangeable ranks (the dummy class ``len(sizes)`` when its rank is its own, or not
    read) and its rank's label in that class (-1: none); per class its number of ranks; per atom and label, the
    atom the same in all but its rank, which has that label (A, largest class; itself outside a class)."""
    n = len(at.copies)
    by_rank: dict[int, list[int]] = {}
    if not any(c.reads_hand for c in conditions):
        for a in range(n):
            if at.rank[a] >= 0:
                by_rank.setdefault(int(at.rank[a]), []).append(a)
    # ranks r and r' are interchangeable when swapping them maps r's atoms onto r''s, equal in all else
    groups: dict[frozenset[tuple[int, ...]], list[int]] = {}
    for r in sorted(by_rank):
        sig = frozenset((int(at.value[a]), int(at.suit[a]), int(at.colour[a]), int(at.copies[a]),
                         *(int(p) for p in at.passes[:, a])) for a in by_rank[r])
        groups.setdefault(sig, []).append(r)
    classes = [ranks for ranks in groups.values() if len(ranks) > 1]
    cls = np.full(n, len(classes), dtype=np.int64)
    label = np.full(n, -1, dtype=np.int64)
    for c, ranks in enumerate(classes):
        for i, r in enumerate(ranks):
            cls[by_rank[r]] = c
            label[by_rank[r]] = i
    relabel = np.repeat(np.arange(n)[:, None], max((len(r) for r in classes), default=1), axis=1)
    rest = {(int(at.rank[a]), *_rest(at, a)): a for a in range(n)}
    for ranks in classes:
        for r in ranks:
            for a in by_rank[r]:
                relabel[a, :len(ranks)] = [rest[(other, *_rest(at, a))] for other in ranks]
    return cls, label, np.array([len(r) for r in classes], dtype=np.int64), relabel


def _rest(at: Atoms, a: int) -> tuple[int, ...]:
    """All an atom is but its rank."""
    return (int(at.value[a]), int(at.suit[a]), int(at.colour[a]), *(int(p) for p in at.passes[:, a]))


def hand_swaps(conditions: Sequence[CardCondition]) -> list[tuple[int, int]]:
    """The slots of a hand's first two cards, (0, 2) punto's and (1, 3) banca's, that every condition names both
    or neither: each condition reads the cards it names as a set, and the outcome reads the two by their total."""
    pairs = ((0, "player1", 2, "player2"), (1, "banker1", 3, "banker2"))
    return [(a, b) for a, pa, b, pb in pairs if all((pa in c.cards) == (pb in c.cards) for c in conditions)]


class Prefixes:
    """Canonical prefixes of atom sequences: the atoms of each slot (k columns of n), each orbit's ordered card
    sequences (its falling product times the orbit's size), how many ranks of each class it uses (n, classes + 1)
    and how often it holds each atom (n, A), what the next slot's copies are left from."""

    def __init__(self, at: Atoms, conditions: Sequence[CardCondition], infinite: bool) -> None:
        self.copies = at.copies
        self.infinite = infinite
        self.cls, self.label, self.sizes, self.relabel = rank_classes(at, conditions)
        self.cols: list[np.ndarray] = []
        self.weight = np.ones(1, dtype=np.int64)
        self.used = np.zeros((1, len(self.sizes) + 1), dtype=np.int8)  # the dummy class: never a new label
        self.held = np.zeros((1, len(at.copies)), dtype=np.int8)

    @property
    def seq(self) -> np.ndarray:
        """(n, k) the atoms of each prefix."""
        return np.stack(self.cols, axis=1) if self.cols else np.zeros((len(self.weight), 0), dtype=np.int64)

    def take(self, rows: np.ndarray) -> Prefixes:
        """The prefixes of ``rows`` only (a new object sharing the atoms)."""
        out = object.__new__(Prefixes)
        out.copies, out.infinite, out.cls, out.label, out.sizes, out.relabel = (
            self.copies, self.infinite, self.cls, self.label, self.sizes, self.relabel)
        out.cols = [c[rows] for c in self.cols]
        out.weight, out.used, out.held = self.weight[rows], self.used[rows], self.held[rows]
        return out

    def grow(self, last: bool = False) -> None:
        """Every prefix one atom longer: an atom of a used rank or of its class's next label (then the orbit
        grows by the ranks of the class not yet used), weighted by the copies the earlier atoms left (``last``:
        no slot comes after, so what each uses and holds is not kept)."""
        left = self.copies if self.infinite else self.copies - self.held
        used = self.used[:, self.cls].astype(np.int64)  # (n, A) ranks used so far of each atom's class
        new = self.label == used
        factor = np.where(new, np.append(self.sizes, 1)[self.cls] - used, 1) * (self.label <= used)
        w = self.weight[:, None] * np.maximum(left, 0) * factor
        rows, picked = np.nonzero(w > 0)
        self.cols = [c[rows] for c in self.cols] + [picked.astype(np.int16)]  # narrow: gathered again and again
        self.weight = w[rows, picked]
        if last:
            self.used, self.held = self.used[:0], self.held[:0]
            return
        self.used, self.held = self.used[rows], self.held[rows]
        grew = new[rows, picked]
        self.used[np.flatnonzero(grew), self.cls[picked[grew]]] += 1
        self.held[np.arange(len(rows)), picked] += 1

    def fold(self, pairs: Sequence[tuple[int, int]]) -> None:
        """One prefix per orbit also under swapping the columns of each pair (``hand_swaps``): the one whose
        canonical form is least among its swaps' canonical forms, weighted by how many orbits of ranks they are
        (swapping positions and relabelling ranks commute: a swap maps orbits of ranks onto orbits of ranks)."""
        if not pairs:
            return
        keys = []
        for flips in itertools.product((False, True), repeat=len(pairs)):
            order = list(range(len(self.cols)))
            for (a, b), flip in zip(pairs, flips, strict=True):
                if flip:
                    order[a], order[b] = order[b], order[a]
            keys.append(self._canonical([self.cols[i] for i in order]))
        k = np.stack(keys)
        ordered = np.sort(k, axis=0)
        orbits = 1 + (np.diff(ordered, axis=0) != 0).sum(axis=0)
        rows = np.flatnonzero(k[0] == ordered[0])
        self.cols = [c[rows] for c in self.cols]
        self.weight = self.weight[rows] * orbits[rows]
        if len(self.used):  # kept unless the last slot was grown
            self.used, self.held = self.used[rows], self.held[rows]

    def _canonical(self, cols: list[np.ndarray]) -> np.ndarray:
        """(n,) int64 code of each sequence's representative: its ranks of each class relabelled in the order they
        first appear (restricted-growth labels)."""
        n = len(self.weight)
        if not len(self.sizes):  # no interchangeable ranks: each sequence is its own representative
            code = np.zeros(n, dtype=np.int64)
            for col in cols:
                code = code * len(self.copies) + col
            return code
        r = np.arange(n)
        mapping = np.full((n, len(self.sizes) + 1, self.relabel.shape[1]), -1, dtype=np.int64)
        count = np.zeros((n, len(self.sizes) + 1), dtype=np.int64)
        code = np.zeros(n, dtype=np.int64)
        for col in cols:
            c, lab = self.cls[col], self.label[col]
            ranked = lab >= 0
            lab = np.maximum(lab, 0)
            m = mapping[r, c, lab]
            fresh = ranked & (m < 0)
            m = np.where(fresh, count[r, c], m)
            mapping[r[fresh], c[fresh], lab[fresh]] = m[fresh]
            count[r[fresh], c[fresh]] += 1
            code = code * len(self.copies) + np.where(ranked, self.relabel[col, np.maximum(m, 0)], col)
        return code
