"""Caribbean Stud strategy cards synthesised: the shortest card within a bound of optimal, and the frontier.

Counting argument. A decision point of the count is a player hand (a suit class, of ``weight`` hands) against one
up card; raising beats folding there by (4 nq + (4 + 2 pay) win + 3 push - 2 holes) / holes antes (the raise
table's ``base + 2 win pay``), over the deals that share it. Summed with the weights, in units of 1 / (den x
total deals) (den: the pays' common denominator), these are exact integers. Every feature a card can test (the
hand class, its ranks, the up card's rank: ``raise_card.CARD_FEATURES``) is a function of (pay class, the five
ranks, the up rank), so the points fall in *cells* a card cannot tell apart, and a card's cost against optimal is
the optimal gain over always folding less the gains of the cells it raises, exactly
(:mod:`oddscalc.games.card_synthesis`). The cost the report computes when it plays the written card, point by
point, is a second count of the same figure: the tests hold the two equal.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.datafile import TableError
from oddscalc.games.card_report import Placed, Synthesis, shipped_cards, synthesis_report
from oddscalc.games.card_synthesis import MOST_RULES, Condition, Problem
from oddscalc.games.caribbean.card import HANDS, load_card, play
from oddscalc.games.caribbean.game import CaribbeanRules
from oddscalc.games.caribbean.raise_table import FIXED, RaiseTable, fixed_decisions, up_cards
from oddscalc.games.caribbean.settle import pay_list
from oddscalc.games.strategy_card import RANKS

if TYPE_CHECKING:
    from oddscalc.analysis import Session

PAIR_PLUS = HANDS[:9]
HAND_SETS: tuple[tuple[str, ...], ...] = (PAIR_PLUS, ("ace_king",), ("high_card",), (*PAIR_PLUS, "ace_king"),
                                          ("ace_king", "high_card"), ("pair",))
HAND_WORDS = {PAIR_PLUS: "pair or better", (*PAIR_PLUS, "ace_king"): "ace_king or better",
              ("ace_king", "high_card"): "no pair"}  # the hand sets a card tests, as the frontier words them
NAMED_RULES = {"raise-pair-plus": 1, "raise-ak-plus": 1, "always-raise": 1}  # the rules each needs as a card


def point_gains(rt: RaiseTable, pays: Sequence[Fraction]) -> tuple[np.ndarray, int]:
    """(m, nu) weight x (raise - fold) x holes x den per (hand, sorted position), and den: int64 where the sums
    of every point fit it, Python ints otherwise."""
    den = math.lcm(*(Fraction(p).denominator for p in pays))
    scaled = [int(Fraction(p) * den) for p in pays]
    biggest = 6 * den + 2 * max(abs(x) for x in scaled)
    kind: type = np.int64 if rt.total * biggest < 2**62 else object
    pay: np.ndarray = np.array(scaled, dtype=kind)[rt.pay_class.astype(np.int64)]
    w: np.ndarray = rt.weights.astype(kind)
    m, nu = rt.keys.shape
    out: np.ndarray = np.zeros((m, nu), dtype=kind)
    for j in range(nu):  # one position at a time: no (m, nu, 3) temporary
        v = (rt.prefix[:, j + 1] - rt.prefix[:, j]).astype(kind)
        out[:, j] = w * ((4 * v[:, 0] + 4 * v[:, 1] + 3 * v[:, 2] - 2 * rt.holes) * den + 2 * v[:, 1] * pay)
    return out, den


def cells(rt: RaiseTable, gains: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int], list[int]]:
    """The cells: pay class (k,), ranks high to low (k, 5), up rank (k,), and each one's gain and positive part."""
    m, nu = gains.shape
    ups = np.take_along_axis(up_cards(rt.deck, rt.reps), rt.perm.astype(np.int64), axis=1).astype(np.int64) >> 2
    by_up = np.zeros((m, 13), dtype=gains.dtype)
    pos_up = np.zeros((m, 13), dtype=gains.dtype)
    rows = np.arange(m)
    for j in range(nu):  # each row meets an up card once per position: no repeated index within one add
        g = gains[:, j]
        by_up[rows, ups[:, j]] += g
        pos_up[rows, ups[:, j]] += np.where(g > 0, g, 0)
    ranks = np.sort(rt.reps.astype(np.int64) >> 2, axis=1)[:, ::-1]
    key = rt.pay_class.astype(np.int64) * 13**5 + ranks @ (13 ** np.arange(4, -1, -1))
    order = np.argsort(key, kind="stable")
    unique, starts = np.unique(key[order], return_index=True)
    gain_rows = np.add.reduceat(by_up[order], starts, axis=0)
    pos_rows = np.add.reduceat(pos_up[order], starts, axis=0)
    seen = np.zeros((m, 13), dtype=bool)
    seen[rows[:, None], ups] = True
    met = np.logical_or.reduceat(seen[order], starts, axis=0)
    k_row, up = np.nonzero(met)
    cls, rcode = unique[k_row] // 13**5, unique[k_row] % 13**5
    cell_ranks = np.stack([(rcode // 13**k) % 13 for k in range(4, -1, -1)], axis=1)
    return (cls, cell_ranks, up, [int(x) for x in gain_rows[k_row, up]], [int(x) for x in pos_rows[k_row, up]])


def conditions(cls: np.ndarray, ranks: np.ndarray, up: np.ndarray, deck_ranks: Sequence[int]) -> list[Condition]:
    """What a card can say, each with its cells: hand classes, up card ranks, matching, ranks held, the third and
    fourth ranks (intervals), the up card below the fourth, and at_least thresholds (the ace-king hands' ranks)."""
    bits = np.bitwise_or.reduce(np.left_shift(1, ranks), axis=1)
    matches = (bits >> up) & 1 == 1
    held = {r: (bits >> r) & 1 == 1 for r in deck_ranks}
    out: list[Condition] = []

    def add(feature: str, value: object, mask: np.ndarray, words: str) -> None:
        if mask.any() and not mask.all():
            out.append(Condition(feature, value, np.asarray(mask), words))

    for hands in HAND_SETS:
        add("hand", list(hands) if len(hands) > 1 else hands[0], np.isin(cls, [HANDS.index(h) for h in hands]),
            HAND_WORDS.get(hands, f"hand {hands[0]}"))
    add("up_matches", True, matches, "up card matches a rank held")
    add("up_matches", False, ~matches, "up card matches no rank held")
    add("up_below_fourth", True, up < ranks[:, 3], "up card below the fourth-highest rank")
    add("up_below_fourth", False, up >= ranks[:, 3], "up card not below the fourth-highest rank")
    for r in deck_ranks:
        add("holds_any", [RANKS[r]], held[r], f"holds a {RANKS[r]}")
    for i, a in enumerate(deck_ranks):
        for b in deck_ranks[i + 1:]:
            add("holds_any", [RANKS[b], RANKS[a]], held[a] | held[b], f"holds a {RANKS[b]} or a {RANKS[a]}")
            add("holds_all", [RANKS[b], RANKS[a]], held[a] & held[b], f"holds {RANKS[b]} and {RANKS[a]}")
    for feature, column, name in (("up_rank", up, "up card"), ("third_rank", ranks[:, 2], "third-highest rank"),
                                  ("fourth_rank", ranks[:, 3], "fourth-highest rank")):
        for i, lo in enumerate(deck_ranks):
            for hi in deck_ranks[i:]:
                span = RANKS[lo] if lo == hi else f"{RANKS[lo]} to {RANKS[hi]}"
                add(feature, [RANKS[r] for r in deck_ranks if lo <= r <= hi], (column >= lo) & (column <= hi),
                    f"{name} {span}")
    digits = 13 ** np.arange(4, -1, -1)
    code = ranks @ digits
    ak = cls == HANDS.index("ace_king")
    for bar in sorted({tuple(r) for r in ranks[ak].tolist()}, reverse=True):
        text = " ".join(RANKS[r] for r in bar)
        add("at_least", text, code >= np.array(bar) @ digits, f"at least {text}")
    return out


def placed(rt: RaiseTable, gains: np.ndarray, scale: int) -> list[Placed]:
    """The shipped cards (played over the count) and the named strategies, each with its exact cost."""
    total_positive = int(np.where(gains > 0, gains, 0).sum())
    perm = rt.perm.astype(np.int64)

    def cost(raised_by_slot: np.ndarray) -> Fraction:
        raised = np.take_along_axis(raised_by_slot, perm, axis=1)
        return Fraction(total_positive - int(gains[raised].sum()), scale)

    out = []
    for path in shipped_cards("caribbean"):
        card = load_card(path)
        try:
            raised = play(card, rt).raised
        except TableError:  # a rule this deck never reaches (a reduced deck): the card does not play here
            continue
        out.append(Placed(f"card {path.parent.name}/{path.name}", len(card.model.rules), cost(raised),
                          card.model.title))
    ups = up_cards(rt.deck, rt.reps)
    for name in FIXED:
        named = Placed(f"named strategy {name}", NAMED_RULES.get(name),
                       cost(fixed_decisions(name, rt.pay_class, rt.reps, ups)), "")
        # a published card that plays as the named strategy of its name is one row, not two
        twin = next((i for i, p in enumerate(out) if p.name == f"card caribbean/{name}.toml" and p.cost == named.cost),
                    None)
        if twin is None:
            out.append(named)
        else:
            out[twin] = dataclasses.replace(out[twin], name=f"{out[twin].name} (named strategy {name})")
    return out


def synthesis_sections(session: Session, table_ref: str | None, within: Fraction, command: str,
                       most_rules: int = MOST_RULES) -> Synthesis:
    """The ``card`` command for Caribbean Stud (the game's declaration names it)."""
    rules = session.resolve(table_ref)
    assert isinstance(rules, CaribbeanRules)
    rt: RaiseTable = session.counts(rules)
    pays = pay_list(rules.model.pays.main)
    gains, den = point_gains(rt, pays)
    cls, ranks, up, gain, positive = cells(rt, gains)
    scale = den * rt.total
    problem = Problem(gain, positive, scale, conditions(cls, ranks, up, sorted(set(rt.deck.ranks))), "raise", "fold")
    return synthesis_report(problem, within, "caribbean", rules.table, command, "antes per ante",
                            placed(rt, gains, scale), most_rules)

