"""Card counting on a punto banco shoe: what removing one card does to every wager, a balanced count
derived from it, and each wager's exact EV from any remaining shoe in milliseconds.

Removal effects. The effect of removing one card of rank r is EV(shoe minus that card) - EV(shoe),
exact, for every wager the table declares (its own rules, side bets as data): the coups of the
depleted shoe are counted cell by cell (``coup_features``) and settled by the table's rules. Dealing
after burning a uniformly random card is dealing from the full shoe, so the effects weighted by the
cards of each rank add up to exactly zero: a count built on them is balanced by construction.

Per-coup EV. During a shoe the composition changes every coup; recounting the cells would take a
second. But every wager that reads the coup's totals and card counts only (not the ranks or suits
of the first cards) is settled on one of 400 outcomes, and a coup's outcome depends on its six
point values alone. So the orderings of each multiset of six point values (5,005 of them) are
tallied by outcome once; from a composition n the ordered six-card sequences of a multiset m are
prod_v n_v (n_v - 1) .. (n_v - m_v + 1), and the outcome counts are one int64 product (exact: every
partial sum is at most nP6 < 2**63). A pair bet reads only whether a side's first two cards share a
rank, whose probability is sum_r n_r (n_r - 1) / (n (n - 1)) for any composition.

Side bets on the cards (``cards_when``). One settled on the first four cards alone (no coup feature, no third card:
Lucky Nines) is counted exactly from the shoe by card class in about 0.1 ms a coup (``counting_cards``): its
removal effects, count and study sit beside the other wagers'. Any other is left out, and said: the report lists
it (``left_out``) and ``--wager`` of one is refused (exit 4): its EV from a composition needs a pass of
``card_count`` (about 0.05 s CPU for Lucky Nines' full pass at 8 decks, so an hour of CPU for a study of 1,000
shoes of about 75 coups each).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from oddscalc.exact import frac_str
from oddscalc.games.house_baccarat.count import HouseBaccaratRules, seat_counts
from oddscalc.games.house_baccarat.settle import best_by_composition, seat_ev
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.punto_banco.coup_features import (
    CELLS,
    OUTCOMES,
    RANK_POINTS,
    RANKS,
    RELATIONS,
    SUITS,
    Cards,
    Drawing,
    count_cells,
    play,
)
from oddscalc.games.punto_banco.game import PuntoBancoRules, settle
from oddscalc.games.punto_banco.midcoup import card_bets, left_out_section
from oddscalc.games.shoe import RANK_VALUES, VALUES, Shoe
from oddscalc.protection.counting_cards import first_four, first_four_bets, rank_effects
from oddscalc.protocol import OptionError
from oddscalc.results import Cell, Column, Section, WagerResult

SAME_RANK = 1  # relation bit: a side's first two cards share a rank


def _ev(cards: Cards, rules: PuntoBancoRules) -> dict[str, Fraction]:
    return {w.wager: w.expected_value for w in settle(count_cells(cards, rules.drawing), rules.model.pays)}


def _without(cards: Cards, rank: int) -> Cards:
    """The shoe less one card of ``rank`` (of the suit it has most of: every suit is alike in a full shoe)."""
    classes = [rank * SUITS + s for s in range(SUITS)]
    c = max(classes, key=lambda k: cards.copies[k])
    if not cards.copies[c]:
        raise OptionError(f"the shoe has no {RANKS[rank]} to remove")
    copies = list(cards.copies)
    copies[c] -= 1
    return Cards(tuple(copies))


@dataclass(frozen=True)
class Effects:
    """Per rank, the exact change of each wager's EV when one card of the rank is removed."""

    wagers: tuple[str, ...]
    cards: tuple[int, ...]  # cards of each rank in the shoe
    base: dict[str, Fraction]
    effect: dict[str, tuple[Fraction, ...]]  # wager -> per rank (A, 2 .. K)

    def balance(self, wager: str) -> Fraction:
        """sum over ranks of cards x effect: exactly 0."""
        return sum((n * e for n, e in zip(self.cards, self.effect[wager])), Fraction(0))


def removal_effects(rules: PuntoBancoRules, recount: bool = False) -> Effects:
    """The removal effects of every rank on every wager of a finite shoe: from the per-coup EV where it
    covers every wager, else (or with ``recount``) by recounting the cells of each depleted shoe."""
    if rules.infinite:
        raise OptionError("an infinite shoe has no composition to count: removal effects need a finite shoe")
    cards = rules.cards
    fast = coup_ev(rules)
    if not fast.uncovered and not recount:
        left = with_ranks(cards)
        base = fast.ev(left)
        per_rank = [fast.ev([n - (i == r) for i, n in enumerate(left)]) for r in range(len(RANKS))]
    else:
        base = _ev(cards, rules)
        tens = [r for r in range(len(RANKS)) if RANK_POINTS[r] == 0]
        # the ranks worth 0 play alike in every feature (a pair is a pair of any of them): count one
        once = {r: _ev(_without(cards, r), rules) for r in range(len(RANKS)) if r not in tens[1:]}
        per_rank = [once[tens[0] if r in tens else r] for r in range(len(RANKS))]
    counts = tuple(sum(cards.copies[r * SUITS:(r + 1) * SUITS]) for r in range(len(RANKS)))
    effect = {w: tuple(ev[w] - base[w] for ev in per_rank) for w in base}
    for w, f in first_four_bets(rules).items():  # side bets on the first four cards (counting_cards)
        base[w], effect[w] = rank_effects(f, cards.copies, SUITS)
    return Effects(tuple(base), counts, base, effect)


def house_effects(rules: HouseBaccaratRules) -> Effects:
    """Removal effects on the rule sheet's house game, one seat: each rank removed, the seat playing the full
    shoe's optimal strategy (fixed, so the effects balance exactly; re-solving the play per shoe only adds)."""
    if rules.infinite:
        raise OptionError("an infinite shoe has no composition to count: removal effects need a finite shoe")
    if rules.players != 1:
        raise OptionError("house game removal effects are for one seat (--players 1)")
    shoe = rules.shoe
    counter_args = (rules.house_tableau, rules.all_stand, False)
    stand = Strategy.by_totals("stand", [])
    full = seat_counts(shoe, 1, stand, *counter_args)
    play = best_by_composition(full, rules.pay)
    base = seat_ev(full, play, rules.pay)
    ranks = {r: 4 * rules.decks for r in RANK_VALUES}
    per_rank = []
    for r in RANKS:
        fewer = dict(ranks)
        fewer[r] -= 1
        sc = seat_counts(Shoe.from_ranks(fewer), 1, stand, *counter_args)
        per_rank.append(seat_ev(sc, play, rules.pay))
    cards = tuple(ranks[r] for r in RANKS)
    return Effects(("house_game",), cards, {"house_game": base}, {"house_game": tuple(e - base for e in per_rank)})


def balanced_tags(effects: Sequence[Fraction], cards: Sequence[int], levels: int = 4) -> tuple[int, ...]:
    """Integer tags from -levels to levels in proportion to the effects (a card whose removal raises the
    wager's EV counts +), adjusted so the full shoe counts to exactly 0."""
    top = max(abs(e) for e in effects) or Fraction(1)
    exact = [e * levels / top for e in effects]
    tags = [round(x) for x in exact]
    while (total := sum(n * t for n, t in zip(cards, tags))) != 0:
        step = -1 if total > 0 else 1
        movable = [i for i in range(len(tags)) if -levels <= tags[i] + step <= levels]
        if not movable:
            break
        i = max(movable, key=lambda k: (exact[k] - tags[k]) * step)
        tags[i] += step
    return tuple(tags)


def effects_section(fx: Effects, shoe_label: str) -> Section:
    """Removal effects per rank and wager."""
    rows: tuple[tuple[Cell, ...], ...] = tuple((rank, fx.cards[r], *(fx.effect[w][r] for w in fx.wagers))
                                               for r, rank in enumerate(RANKS))
    return Section(
        "removal_effects", f"Removal effects ({shoe_label})",
        (Column("rank", "Rank removed"), Column("cards", "Cards", "int"),
         *(Column(w, w, "signed_percent", 5) for w in fx.wagers)),
        rows,
        intro=("Each cell is the exact change in the wager's EV per unit staked when one card of the rank is taken "
               "from the full shoe.",
               "Weighted by the cards of each rank, every column adds up to exactly 0 ("
               + ", ".join(f"{w}: {frac_str(fx.balance(w))}" for w in fx.wagers) + ")."))


def tags_section(fx: Effects) -> Section:
    """The balanced count of each wager, with how well it tracks the effects."""
    tags = {w: balanced_tags(fx.effect[w], fx.cards) for w in fx.wagers}
    rows: tuple[tuple[Cell, ...], ...] = tuple((rank, *(tags[w][r] for w in fx.wagers)) for r, rank in enumerate(RANKS))
    corr = {w: _correlation(fx.effect[w], tags[w], fx.cards) for w in fx.wagers}
    return Section(
        "count_tags", "Balanced counts",
        (Column("rank", "Rank"), *(Column(w, w, "int") for w in fx.wagers)),
        rows,
        intro=("Per wager, integer tags -4..4 in proportion to its removal effects (a card whose removal raises the "
               "EV counts +), adjusted so a full shoe counts to 0. Add the tag of every card seen; the running count "
               "divided by the decks left is the true count.",),
        notes=("Betting correlation (the tags against the exact effects, cards weighted): "
               + ", ".join(f"{w} {corr[w]:.4f}" for w in fx.wagers) + ".",))


def _correlation(effects: Sequence[Fraction], tags: Sequence[int], cards: Sequence[int]) -> float:
    """Weighted correlation of the tags with the effects (a printed figure)."""
    n = sum(cards)
    me = sum((c * e for c, e in zip(cards, effects)), Fraction(0)) / n
    mt = Fraction(sum(c * t for c, t in zip(cards, tags)), n)
    cov = sum((c * (e - me) * (t - mt) for c, e, t in zip(cards, effects, tags)), Fraction(0))
    ve = sum((c * (e - me) ** 2 for c, e in zip(cards, effects)), Fraction(0))
    vt = sum((c * (t - mt) ** 2 for c, t in zip(cards, tags)), Fraction(0))
    if not ve or not vt:
        return 0.0
    return float(cov) / math.sqrt(float(ve) * float(vt))


# --- per-coup EV ---------------------------------------------------------------------------------


@cache
def _multisets() -> tuple[np.ndarray, np.ndarray]:
    """The 5,005 multisets of six point values as (count vectors, index of each of the 10**6 sequences)."""
    seqs = np.array(list(itertools.product(range(VALUES), repeat=6)), dtype=np.int64)
    counts = np.stack([(seqs == v).sum(axis=1) for v in range(VALUES)], axis=1)
    key = counts @ (7 ** np.arange(VALUES))
    kinds, first, index = np.unique(key, return_index=True, return_inverse=True)
    return counts[first], index.ravel()


_ORDERINGS: dict[tuple[object, ...], np.ndarray] = {}


def _orderings(drawing: Drawing) -> np.ndarray:
    """(5005, OUTCOMES) int64: orderings of each six-value multiset by outcome (kept per drawing rules)."""
    key = (tuple(drawing.punto_draws_on), tuple(drawing.banca_tableau), tuple(drawing.banca_draws_when_punto_stands),
           bool(drawing.banca_natural_stops_punto))
    if key in _ORDERINGS:
        return _ORDERINGS[key]
    seqs = np.array(list(itertools.product(range(VALUES), repeat=6)), dtype=np.int64)
    outcome = play(seqs[:, 0], seqs[:, 1], seqs[:, 2], seqs[:, 3], seqs[:, 4], seqs[:, 5], drawing)
    counts, index = _multisets()
    out = np.zeros((len(counts), OUTCOMES), dtype=np.int64)
    np.add.at(out, (index, outcome), 1)
    _ORDERINGS[key] = out
    return out


def _falling_table(top: int) -> np.ndarray:
    """[n, k] = n (n-1) .. (n-k+1) for n <= top, k <= 6."""
    n = np.arange(top + 1, dtype=np.int64)
    out = np.ones((top + 1, 7), dtype=np.int64)
    for j in range(1, 7):
        out[:, j] = out[:, j - 1] * np.maximum(n - (j - 1), 0)
    return out


@dataclass(frozen=True)
class CoupEV:
    """Exact EV of a table's wagers from any remaining composition, for wagers on the outcome or a pair."""

    outcome_wagers: tuple[str, ...]
    denominators: tuple[int, ...]  # per outcome wager: its units are integers over this
    scaled: np.ndarray  # (OUTCOMES, outcome wagers) int64: units x denominator per outcome
    paid: np.ndarray  # (5005, outcome wagers) int64: sum over a multiset's orderings of units x denominator
    pair_units: dict[str, tuple[int, Fraction, Fraction]]  # wager -> (side, units if a pair, units if not)
    largest: int  # the largest |units x denominator|: with nP6 it bounds every partial sum
    uncovered: tuple[str, ...]  # wagers that read more than the outcome or one side's pair
    card_bets: dict[str, str] = dataclasses.field(default_factory=dict)  # side bets on the cards, left out: titles

    def ev(self, ranks: Sequence[int]) -> dict[str, Fraction]:
        """Exact EV per unit of every covered wager, from the cards left per rank (A, 2 .. K)."""
        values = [0] * VALUES
        for r, n in enumerate(ranks):
            values[RANK_POINTS[r]] += n
        total = sum(values)
        if total < 6:
            raise ValueError("fewer than six cards left")
        seqs = 1
        for i in range(6):
            seqs *= total - i
        if seqs * max(self.largest, 1) >= 2**63:
            raise ValueError("a shoe too large for the exact int64 sums")
        counts, _ = _multisets()
        w = np.prod(_falling_table(max(values))[np.array(values)[None, :], counts], axis=1)
        sums = w @ self.paid  # exact: |every partial sum| <= nP6 x largest < 2**63
        out = {name: Fraction(int(sums[j]), seqs * d)
               for j, (name, d) in enumerate(zip(self.outcome_wagers, self.denominators))}
        p_pair = Fraction(sum(n * (n - 1) for n in ranks), total * (total - 1))
        for name, (_, yes, no) in self.pair_units.items():
            out[name] = p_pair * yes + (1 - p_pair) * no
        return out


def _bits(mask: int) -> np.ndarray:
    """The cells a bit mask holds."""
    digits = np.frombuffer(format(mask, f"0{CELLS}b").encode()[::-1], dtype=np.uint8) - ord("0")
    return np.flatnonzero(digits)


def _row_masks(w: WagerResult) -> list[tuple[Fraction, int]]:
    """(units, bit mask of the cells) of each row of a wager settled on powers of two."""
    return [(r.units, r.combinations) for r in w.rows]


def coup_ev(rules: PuntoBancoRules) -> CoupEV:
    """The fast per-coup EV of a table: which wagers it covers, their units per outcome or per pair."""
    # Settling cells that hold 2**c tells, for every row of every wager, exactly which cells it takes: the
    # table's own rules decide, with no second copy of them here.
    probe = np.array([1 << c for c in range(CELLS)], dtype=object)
    units: dict[str, np.ndarray] = {}
    pair_units: dict[str, tuple[int, Fraction, Fraction]] = {}
    uncovered: list[str] = []
    for w in settle(probe, rules.model.pays):
        per_cell = np.empty(CELLS, dtype=object)
        for u, bits in _row_masks(w):
            per_cell[_bits(bits)] = u
        grid = per_cell.reshape(OUTCOMES, RELATIONS, RELATIONS)
        if all((grid == grid[:, :1, :1]).ravel()):
            units[w.wager] = grid[:, 0, 0]
            continue
        side = _pair_side(grid)
        if side is not None:
            pair_units[w.wager] = side
        else:
            uncovered.append(w.wager)
    names = tuple(units)
    dens = tuple(math.lcm(*(Fraction(u).denominator for u in units[n].tolist())) for n in names)
    scaled = np.array([[int(Fraction(u) * d) for u in units[n].tolist()] for n, d in zip(names, dens)],
                      dtype=np.int64).T.reshape(OUTCOMES, len(names))
    paid = _orderings(rules.drawing) @ scaled
    return CoupEV(names, dens, scaled, paid, pair_units, int(np.abs(scaled).max(initial=0)), tuple(uncovered),
                  left_out(rules))


def _pair_side(grid: np.ndarray) -> tuple[int, Fraction, Fraction] | None:
    """A wager that pays on one side's same-rank first two cards only: (side, units if so, if not)."""
    for side in (0, 1):  # 0: punto's first two cards (axis 1), 1: banca's (axis 2)
        yes = grid[:, SAME_RANK, 0] if side == 0 else grid[:, 0, SAME_RANK]
        no = grid[:, 0, 0]
        if len(set(yes.tolist())) != 1 or len(set(no.tolist())) != 1:
            continue
        ok = all(grid[o, a, b] == (yes[0] if ((a if side == 0 else b) & SAME_RANK) else no[0])
                 for o in range(OUTCOMES) for a in range(RELATIONS) for b in range(RELATIONS))
        if ok:
            return side, Fraction(yes[0]), Fraction(no[0])
    return None


def with_ranks(cards: Cards) -> list[int]:
    """Cards per rank of a shoe."""
    return [sum(cards.copies[r * SUITS:(r + 1) * SUITS]) for r in range(len(RANKS))]




LEFT_OUT_WHY = ("a bet on the first four cards alone (as Lucky Nines) is counted from the shoe by card class "
                "(counting_cards), but these read a third card or the coup too, and need a count of their own per "
                "composition (a pass of card_count: about 0.05 s CPU at 8 decks, an hour of CPU for a study of a "
                "thousand shoes). They have no removal effects, count or study here.")


def left_out(rules: PuntoBancoRules) -> dict[str, str]:
    """The side bets on the cards counting leaves out (those not settled on the first four cards alone), titles."""
    counted = {w for w, b in rules.model.pays.side_bets.items() if first_four(b)}
    return {w: t for w, t in card_bets(rules).items() if w not in counted}


def left_out_sections(rules: object) -> list[Section]:
    """The side bets on the cards the counting command leaves out, as a ``left_out`` section (none: nothing)."""
    if not isinstance(rules, PuntoBancoRules):
        return []
    return left_out_section(rules, LEFT_OUT_WHY, only=tuple(left_out(rules)))


def refuse_card_bet(wager: str, fast: CoupEV) -> None:
    """``--wager`` (or a count file's wager) naming a side bet on the cards: a clear refusal (exit 4)."""
    if wager in fast.card_bets:
        raise OptionError(f"--wager {wager}: {fast.card_bets[wager]} is a side bet on the cards (it reads the ranks "
                          "and suits of named cards), which the counting study leaves out: " + LEFT_OUT_WHY)


def coup_counting(rules: PuntoBancoRules) -> tuple[Effects, str]:
    """Punto banco's removal effects and its shoe's label (the ``counting`` command; the declaration names this)."""
    return removal_effects(rules), rules.cards.shoe.label


def house_counting(rules: HouseBaccaratRules) -> tuple[Effects, str]:
    """The house game's removal effects and its shoe's label (the ``counting`` command; the declaration names
    this)."""
    return house_effects(rules), rules.shoe.label
