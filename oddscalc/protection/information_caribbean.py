"""Caribbean Stud with an information model: what a glimpse of the dealer's cards is worth, exact.

Positions: ``dealer_up`` and ``dealer_hole_1`` .. ``dealer_hole_4``; the one decision is ``raise``. Without a
``dealer_up`` glimpse the up card is seen outright, as dealt; a ``dealer_up`` glimpse replaces that (a table where
every dealer card is dealt face down and the backs, or a flash, tell only so much of one of them).

Two counts answer a model:

- hole cards seen outright (``card``, the up card seen too) are ``flash``: k = 1 + the hole cards seen, counted by
  its kernels (``protection.flash``), so a model and ``oddscalc flash --dealer-cards k`` give the same figures;
- hole cards seen by a two-group sort (``group`` with two groups, or ``colour``), with the up card seen any way
  (card, rank, suit, colour, group): the game's count split by the number j of the four hole cards in the first
  group (``information_caribbean_sweep``), or the game's own count when no hole card is glimpsed. What the player
  sees is his hand, the up card's class, and the groups of the m glimpsed hole cards (in order); a hole set with
  j first-group cards shows n of them in the first group in C(m, n) x j!/(j-n)! x (4-j)!/(4-j-m+n)! ways, so each
  (hand, up class, n) sums the count's rows with those weights and raises exactly when that beats folding (a tie
  folds, as in the game's own count).

Counting convention: a deal is the player's five cards (a set), the up card, the m glimpsed hole cards in order
and the other hole cards (a set): C(n,5) x (n-5) x (n-6)!/(n-6-m)! x C(n-6-m, 4-m) deals; with no hole card
glimpsed, the game's own C(n,5) x (n-5) x C(n-6,4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from oddscalc.cards import SUIT_CHARS, Deck
from oddscalc.games.caribbean.settle import pay_list
from oddscalc.games.caribbean.table import RaisePays
from oddscalc.hands import HAND_CLASSES
from oddscalc.progress import Progress
from oddscalc.protection.glimpse import RANKS, Glimpse, Model
from oddscalc.protection.information_common import (
    card_class,
    class_names,
    cost_section,
    glimpse_words,
    glimpses_by_position,
    verdict,
)
from oddscalc.protocol import OptionError
from oddscalc.results import Cell, Column, Section

if TYPE_CHECKING:
    from oddscalc.analysis import Session
    from oddscalc.games.caribbean.raise_table import RaiseTable
    from oddscalc.tables import Limits

UP = "dealer_up"
HOLES = tuple(f"dealer_hole_{i}" for i in range(1, 5))
POSITIONS = (UP, *HOLES)
DECISIONS = ("raise",)
CHUNK = 4096  # player-hand rows settled at a time (bounded memory on a full deck)
N_CLASSES = 11  # the player's pay classes: nine made hands, ace-king, other high card
CLASS_LABELS = [c.label for c in HAND_CLASSES[:9]] + ["Ace-king", "Other high card"]


@dataclass(frozen=True)
class Plan:
    """A model read for Caribbean Stud: the up card's glimpse (None: nothing seen of it), the hole cards glimpsed
    and how (all the same way), and whether the up card is a glimpse of the model (else seen as dealt)."""

    up: Glimpse | None
    holes: tuple[Glimpse, ...]
    up_declared: bool

    @property
    def outright(self) -> int:
        """Dealer cards seen outright for the flash count (0 when the model is not a flash)."""
        if self.up is not None and self.up.shows == "card" and self.holes and self.holes[0].shows == "card":
            return 1 + len(self.holes)
        return 0


def plan(model: Model, deck: Deck) -> Plan:
    """The model's glimpses for this game, refused (``OptionError``) where they name what it does not deal or
    this engine does not answer."""
    if model.game != "caribbean":
        raise OptionError(f"model {model.id}: it is for {model.game}, not caribbean")
    seen = glimpses_by_position(model, deck, POSITIONS, DECISIONS, "Caribbean Stud")
    for g in seen.values():
        if g.shows == "colour":  # a colour split is not kept by every suit permutation: the count's reduction
            raise OptionError(f"model {model.id}: {g.position} by colour is not answered at Caribbean Stud (the "
                              "count reduces player hands by every suit permutation, and colour is not kept by them)")
    holes = tuple(seen[h] for h in HOLES if h in seen)
    up = seen.get(UP, Glimpse(UP, "card"))
    if holes:
        shows = {(h.shows, h.groups) for h in holes}
        if len(shows) > 1:
            raise OptionError(f"model {model.id}: the hole cards glimpsed must all be seen the same way")
        h = holes[0]
        if h.shows == "card":
            if up.shows != "card":
                raise OptionError(f"model {model.id}: hole cards seen outright are answered with the up card seen "
                                  "outright too (the flash count)")
        elif not (h.shows == "group" and len(h.groups) == 2):
            raise OptionError(f"model {model.id}: hole cards are answered seen outright or sorted into two groups "
                              "of ranks, not by " + h.shows)
    return Plan(up, holes, UP in seen)


@dataclass(frozen=True)
class Answer:
    """A model answered exactly. EVs are per ante; deals by the module's counting convention."""

    ev: Fraction
    dealt_ev: Fraction  # the game as dealt: the up card seen, nothing else
    blind_ev: Fraction | None  # nothing of the dealer's cards seen (None: not counted)
    deals: int
    raised: int  # deals raised
    changed: int | None  # deals played otherwise than the baseline plays them (None: not counted)
    by_class: tuple[tuple[int, ...], ...]  # [pay class][signal]: deals; then raised in the same layout
    raised_by_class: tuple[tuple[int, ...], ...]
    signals: tuple[str, ...]  # the signal columns' labels
    baseline: str  # "as dealt" or "nothing seen"

    @property
    def baseline_ev(self) -> Fraction:
        """The EV of the same deal with the model's glimpses taken away."""
        if self.baseline == "nothing seen":
            assert self.blind_ev is not None
            return self.blind_ev
        return self.dealt_ev

    @property
    def value(self) -> Fraction:
        """What the glimpses are worth per ante, against the baseline."""
        return self.ev - self.baseline_ev


def win_units(pays: RaisePays) -> tuple[np.ndarray, int]:
    """What a raised win returns (ante and raise) per pay class in units of 1/den, and den."""
    p = pay_list(pays)
    den = math.lcm(*(x.denominator for x in p))
    return np.array([int((1 + 2 * x) * den) for x in p], dtype=np.int64), den


def _weights(m: int, split: bool) -> np.ndarray:
    """wt[j, n]: orderings of the m glimpsed hole cards showing n first-group cards from a hole set with j."""
    if not split:
        return np.ones((1, 1), dtype=np.int64)
    wt = np.zeros((5, m + 1), dtype=np.int64)
    for j in range(5):
        for n in range(m + 1):
            if n <= j and m - n <= 4 - j:
                wt[j, n] = math.comb(m, n) * math.perm(j, n) * math.perm(4 - j, m - n)
    return wt


def counts_from_table(rt: RaiseTable) -> np.ndarray:
    """(m, n-5, 1, 3) per-up-card counts (not qualifying, wins, pushes) read back from the raise table's
    cumulative sums (the game's own count, stored)."""
    d = np.diff(rt.prefix.astype(np.int64), axis=1)  # (m, nu, 3) in sorted order
    out = np.empty_like(d)
    rows = np.arange(len(d))[:, None]
    out[rows, rt.perm.astype(np.int64)] = d
    return out[:, :, None, :]


@dataclass(frozen=True)
class Counted:
    """The count a model is settled from."""

    deck: Deck
    reps: np.ndarray  # (m, 5) card ids
    weights: np.ndarray  # (m,)
    pay_class: np.ndarray  # (m,)
    counts: np.ndarray  # (m, nu, J, 3): not qualifying, wins, pushes; J = 5 (split by j) or 1
    first: np.ndarray | None  # (n,) 1 for the deck positions in the hole sort's first group (None: no split)


def count(deck: Deck, qualifier: str, p: Plan, rt: RaiseTable | None, progress: Progress) -> Counted:
    """The count for a model: the game's own (``rt``, or counted here) without a hole glimpse, else split."""
    from oddscalc.games.caribbean.count import dealer_counts_of, pay_classes, qualifier_strength
    from oddscalc.symmetry import suit_classes

    if not p.holes:
        table = rt if rt is not None else dealer_counts_of(deck, qualifier, progress=progress).table()
        return Counted(deck, table.reps, table.weights, table.pay_class, counts_from_table(table), None)
    from oddscalc.protection.information_caribbean_sweep import count_split

    reps, weights = suit_classes(5, deck)
    first = np.array([1 if card_class(p.holes[0], c) == 0 else 0 for c in deck.cards], dtype=np.int64)
    counts = count_split(deck, qualifier_strength(deck, qualifier), np.asarray(reps), first, progress)
    return Counted(deck, np.asarray(reps), np.asarray(weights), pay_classes(deck, np.asarray(reps)), counts, first)


def signal_labels(p: Plan, n_up: int, n_holes: int) -> tuple[str, ...]:
    """The columns of what is seen: the up card's classes when only it is glimpsed, else the hole pattern."""
    if p.holes and p.holes[0].shows != "card":
        first = class_names(p.holes[0])[0]
        return tuple(f"{k} of {len(p.holes)} in {first}" for k in range(n_holes))
    if p.up is None or p.up.shows == "card":
        return ("seen",)
    if p.up.shows in ("group", "colour"):
        return tuple(class_names(p.up))
    return tuple(RANKS[i] if p.up.shows == "rank" else SUIT_CHARS[i] for i in range(n_up))


def _by_class(values: np.ndarray, cls: np.ndarray) -> list[int]:
    return [int(values[cls == q].sum()) for q in range(N_CLASSES)]


def settle(c: Counted, pays: RaisePays, p: Plan) -> Answer:
    """Decide every (hand, what is seen) cell exactly and tally the deals."""
    from oddscalc.games.caribbean.raise_table import up_cards

    deck, n = c.deck, c.deck.size
    wu, den = win_units(pays)
    m_h = len(p.holes)
    split = c.first is not None
    wt = _weights(m_h, split)  # (J, N)
    ups_all = up_cards(deck, c.reps).astype(np.int64)
    up_cls_of = np.array([card_class(p.up, x) for x in range(52)], dtype=np.int64)
    n_up = int(up_cls_of.max()) + 1
    up_card = p.up is not None and p.up.shows == "card"
    labels = signal_labels(p, n_up, wt.shape[1])
    by_up = len(labels) > 1 and not split  # the columns are the up card's classes
    comb = np.array([[math.comb(a, j) for j in range(5)] for a in range(n + 1)], dtype=np.int64)
    pos = np.full(52, -1, dtype=np.int64)
    pos[list(deck.cards)] = np.arange(n)
    first_total = int(c.first.sum()) if c.first is not None else 0
    deals_by = [[0] * len(labels) for _ in range(N_CLASSES)]
    raised_by = [[0] * len(labels) for _ in range(N_CLASSES)]
    gain = {"model": 0, "dealt": 0, "blind": 0}
    raised = changed = 0
    for lo in range(0, len(c.reps), CHUNK):
        hi = min(lo + CHUNK, len(c.reps))
        cnt = c.counts[lo:hi].astype(np.int64)  # (r, nu, J, 3)
        ups = ups_all[lo:hi]
        cls = c.pay_class[lo:hi].astype(np.int64)
        w = c.weights[lo:hi].astype(np.int64)
        if c.first is not None:  # hole sets with j first-group cards, of the cards left
            a = first_total - c.first[pos[c.reps[lo:hi].astype(np.int64)]].sum(axis=1)[:, None] - c.first[pos[ups]]
            tot = comb[a][..., np.arange(5)] * comb[n - 6 - a][..., 4 - np.arange(5)]  # (r, nu, 5)
        else:
            tot = np.full(ups.shape + (1,), math.comb(n - 6, 4), dtype=np.int64)
        nq, win, push = cnt[..., 0], cnt[..., 1], cnt[..., 2]
        # raise less fold, in 1/den antes: nq + win (1 + 2 pay) - 3 lose against -tot
        diff = 4 * nq * den + win * (wu[cls][:, None, None] + 3 * den) + 3 * push * den - 2 * tot * den
        dw = np.einsum("ruj,jn->run", diff, wt)  # (r, nu, N) by what the glimpsed holes show
        dealsw = np.einsum("ruj,jn->run", tot, wt)
        flat = dw.sum(axis=2)  # (r, nu): every ordering of the hole cards alike (the game as dealt)
        dealt = flat > 0
        blind = flat.sum(axis=1) > 0  # (r,): nothing seen
        if up_card:
            dec = dw > 0
            cell_gain = np.maximum(dw, 0).sum(axis=(1, 2))
        else:
            uc = up_cls_of[ups]  # (r, nu)
            cell = np.stack([np.where((uc == k)[..., None], dw, 0).sum(axis=1) for k in range(n_up)], axis=1)
            dec = np.take_along_axis(cell > 0, np.repeat(uc[..., None], dw.shape[2], axis=2), axis=1)
            cell_gain = np.maximum(cell, 0).sum(axis=(1, 2))
        base = np.broadcast_to((blind[:, None] if p.up_declared else dealt)[..., None], dec.shape)
        wo = w.astype(object)
        gain["model"] += int((cell_gain.astype(object) * wo).sum())
        gain["dealt"] += int((np.maximum(flat, 0).sum(axis=1).astype(object) * wo).sum())
        gain["blind"] += int((np.maximum(flat.sum(axis=1), 0).astype(object) * wo).sum())
        wd = dealsw * w[:, None, None]  # deals per (hand, up card, hole pattern)
        raised += int((wd * dec).sum())
        changed += int((wd * (dec != base)).sum())
        sig = np.repeat(up_cls_of[ups][..., None], dw.shape[2], axis=2) if by_up else \
            np.broadcast_to(np.arange(dw.shape[2]), dw.shape)
        for k in range(len(labels)):
            on = sig == k
            for q, (d, r) in enumerate(zip(_by_class(np.where(on, wd, 0).sum(axis=(1, 2)), cls),
                                           _by_class(np.where(on & dec, wd, 0).sum(axis=(1, 2)), cls))):
                deals_by[q][k] += d
                raised_by[q][k] += r
    deals = math.comb(n, 5) * (n - 5) * math.perm(n - 6, m_h) * math.comb(n - 6 - m_h, 4 - m_h)

    def ev(g: int) -> Fraction:
        return Fraction(g - deals * den, deals * den)

    return Answer(ev(gain["model"]), ev(gain["dealt"]), ev(gain["blind"]), deals, raised, changed,
                  tuple(map(tuple, deals_by)), tuple(map(tuple, raised_by)), labels,
                  "nothing seen" if p.up_declared else "as dealt")


def answer(deck: Deck, qualifier: str, pays: RaisePays, model: Model, rt: RaiseTable | None = None,
           progress: Progress | None = None) -> Answer:
    """The model answered on ``deck`` (``rt``: the game's own count of it, when already made)."""
    bar = progress or Progress(False, "")
    p = plan(model, deck)
    k = p.outright
    if k:
        return flash_answer(deck, qualifier, pays, k, rt, bar)
    return settle(count(deck, qualifier, p, rt, bar), pays, p)


def flash_answer(deck: Deck, qualifier: str, pays: RaisePays, k: int, rt: RaiseTable | None,
                 progress: Progress) -> Answer:
    """A model of k dealer cards seen outright, from the flash count (its kernels, its figures)."""
    from oddscalc.games.caribbean.count import dealer_counts_of
    from oddscalc.games.caribbean.settle import settle_counts
    from oddscalc.protection import flash

    table = rt if rt is not None else dealer_counts_of(deck, qualifier).table()
    st = settle_counts(table, pays, closest=False)
    dealt = flash.one_card(table, st, pays)
    seen = (flash.two_cards(deck, qualifier, pays, progress) if k == 2 else flash.all_cards(table, st, pays)
            if k == 5 else flash.known_cards(deck, qualifier, pays, k, progress))
    by = tuple((sum(r),) for r in seen.tally)
    up = tuple((sum(r) - r[0],) for r in seen.tally)
    return Answer(seen.ev, dealt.ev, None, seen.total, seen.raised, None, by, up, ("seen",), "as dealt")


# Eliot Jacobson, "Edge Sorting Caribbean Stud" (apheat.net, 31 January 2013), as his 'Top Carding Caribbean Stud'
# (888casino.com) recalls it: a team sorting aces and kings against the rest "gets about 6.9%"; the page read here
# does not state which dealer cards the sort shows, so it is set beside the model of all four hole cards' groups
JACOBSON_AK_SORT = Fraction(69, 1000)
JACOBSON_SOURCE = ("Eliot Jacobson, 'Edge Sorting Caribbean Stud' (apheat.net, 31 January 2013), about 6.9% as "
                   "recalled in his 'Top Carding Caribbean Stud' (888casino.com)")


def _published_rows(a: Answer, p: Plan, model: Model) -> tuple[list[tuple[Cell, ...]], list[str]]:
    from oddscalc.protection import flash

    k = p.outright
    if k:
        return ([(f"published: {k} dealer cards seen (Grosjean)", None, flash.PUBLISHED[k], -flash.PUBLISHED[k],
                  None, None)],
                [f"Published: {flash.SOURCE}: {float(flash.PUBLISHED[k]):+.2%} against {float(a.ev):+.4%} exact "
                 "here, the same convention (the player decides knowing the cards seen, a tie folds)."])
    ak = (frozenset("AK"), frozenset("23456789TJQ"))
    if len(p.holes) == 4 and p.holes[0].shows == "group" and set(p.holes[0].groups) == set(ak) and not p.up_declared:
        return ([("published: aces and kings sorted (Jacobson)", None, JACOBSON_AK_SORT, -JACOBSON_AK_SORT, None,
                  None)],
                [f"Published: {JACOBSON_SOURCE}: +6.9% (rounded; which dealer cards the sort shows is not stated in "
                 f"the text read) against {float(a.ev):+.4%} exact here with all four hole cards' groups known."])
    return [], []


def sections(a: Answer, p: Plan, model: Model, limits: Limits | None, published: bool) -> list[Section]:
    """The model's value, where the raises move, and its cost at the table's limits."""
    reading = "; ".join(glimpse_words(g) for g in model.glimpses) or "nothing beyond the game as dealt"
    rows: list[tuple[Cell, ...]] = []
    if a.blind_ev is not None:
        rows.append(("nothing of the dealer's cards seen", a.blind_ev, a.blind_ev, -a.blind_ev, None, None))
    rows.append(("the game as dealt (the up card seen)", a.dealt_ev, a.dealt_ev, -a.dealt_ev, None, None))
    rows.append((f"with the model: {model.title}", a.ev, a.ev, -a.ev, Fraction(a.raised, a.deals), None))
    rows.append((f"what the model is worth (against {a.baseline})", a.value, a.value, None, None,
                 None if a.changed is None else Fraction(a.changed, a.deals)))
    notes: list[str] = []
    if published:
        extra, notes = _published_rows(a, p, model)
        rows += extra
    if model.source:
        notes.append(f"The model's source: {model.source}.")
    value = Section(
        "information_value", f"Caribbean Stud: {model.title}",
        (Column("play", "Play"), Column("ev_exact", "EV per ante (exact)", "fraction"),
         Column("ev", "EV per ante", "signed_percent", 4), Column("house_edge", "House edge", "signed_percent", 4),
         Column("raised", "Deals raised", "percent", 2), Column("changed", "Deals played otherwise", "percent", 3)),
        tuple(rows),
        intro=(verdict(a.ev, "ante"),
               f"What the player knows before he raises or folds: his five cards and {reading}. "
               + ("Every dealer card is dealt face down (the model reads the up card itself). " if p.up_declared
                  else "The up card is seen outright, as dealt. ")
               + "He raises exactly when raising is worth more than folding over the deals that look the same to "
               "him (a tie folds); the model's value is against the same deal with its glimpses taken away, and "
               "'deals played otherwise' counts the deals where that choice differs from the one made without them.",
               f"Exact over all {a.deals:,} deals: "
               + ("the player's five cards, the dealer's seen cards and the unseen ones, each as a set: C(n,5) x "
                  "C(n-5,k) x C(n-5-k,5-k) with k dealer cards seen (the flash count's convention; 'deals played "
                  "otherwise' is not counted by its kernels)." if p.outright else
                  "the player's five cards (a set), the up card, the glimpsed hole cards in order and the other hole "
                  "cards (a set); every player hand counted once per suit class with its class size.")),
        notes=tuple(notes))
    raises = Section(
        "information_raises", "Where the raises move: deals raised, by the player's hand and what is seen",
        (Column("hand", "Player's hand"), *(Column(f"raised_{i}", label, "percent", 1)
                                            for i, label in enumerate(a.signals))),
        tuple((label, *(Fraction(r, d) if d else None for r, d in zip(a.raised_by_class[c], a.by_class[c])))
              for c, label in enumerate(CLASS_LABELS) if sum(a.by_class[c])),
        intro=("The share of each hand's deals raised, by what the glimpses show (the columns).",))
    return [value, raises, cost_section(a.value, "main", "ante", limits, f"plays with the model ({model.title})")]


def information_sections(session: Session, table_ref: str | None, model: Model, progress: Progress) -> list[Section]:
    """``oddscalc glimpse caribbean`` (the game's declaration names this): the model answered on the table."""
    from oddscalc.games.caribbean.game import CaribbeanRules
    from oddscalc.protection import flash

    rules = session.resolve(table_ref)
    assert isinstance(rules, CaribbeanRules)
    p = plan(model, rules.deck)
    a = answer(rules.deck, rules.qualifier, rules.model.pays.main, model, session.counts(rules), progress)
    return sections(a, p, model, rules.model.limits, flash.published_applies(rules))
