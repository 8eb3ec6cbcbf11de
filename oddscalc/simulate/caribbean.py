"""Caribbean Stud, simulated: five cards each, the dealer's up card, raise or fold, the qualifier and the jackpot.

The optimal strategy needs, per hand and up card, the counts of all C(46,4) dealer completions,
too slow to find per simulated hand; the simulator plays a named strategy instead
(``rules-of-thumb`` by default) and is compared with the exact value the engine computes for that
same strategy.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from oddscalc.cards import parse_rank
from oddscalc.files import is_path
from oddscalc.games.caribbean.card import HANDS, RaiseCard, load_card
from oddscalc.games.caribbean.table import CaribbeanTable
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, RunOptions
from oddscalc.simulate.arrays import BoolArray, IntArray
from oddscalc.simulate.dealing import deal, full_shoe
from oddscalc.simulate.evaluator import (
    CATEGORY_NAMES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT_FLUSH,
    category_of,
    is_royal,
    strength,
    strength_floor,
)
from oddscalc.simulate.plan import Outcome, Outcomes, Plan
from oddscalc.tables import Odds, Table

CARIBBEAN_STRATEGIES = ("rules-of-thumb", "raise-ak-plus", "raise-pair-plus", "always-raise", "ace-king-jack-8-3",
                        "matching-rank")


def qualifier_strength(text: str) -> int:
    """The weakest dealer strength that qualifies: "ace-king", "ace queen", "pair of fours", "any"."""
    t = text.strip().lower().replace("_", " ").replace("-", " ")
    if t in ("any", "none", "no qualifier"):
        return 0
    m = re.fullmatch(r"(?:a )?pair(?: of)? (\w+)", t)
    try:
        if m:
            r = parse_rank(m.group(1))
            return strength_floor(PAIR, (r, r))
        parts = t.split()
        if len(parts) == 2:
            hi, lo = parse_rank(parts[0]), parse_rank(parts[1])
            if hi > lo:
                return strength_floor(HIGH_CARD, (hi, lo))
    except ValueError:
        pass
    raise OptionError(f"simulate cannot read the dealer qualifier {text!r} (e.g. 'ace-king', 'pair of fours')")


def caribbean_raises(player: IntArray, up: IntArray, s: IntArray, strategy: str) -> BoolArray:
    """Whether the player raises, for (n, 5) player cards, (n,) up cards and the player's strengths.

    rules-of-thumb (as usually published): raise any pair or better; with ace-king high raise when the
    up card is 2 to Q and matches one of your ranks, or is A or K and you hold a Q or J, or matches none
    of your ranks while you hold a Q and it is below your fourth-highest card. ace-king-jack-8-3: raise
    a pair or better and every other hand at or above A-K-J-8-3. matching-rank: with ace-king high raise
    only when one of your ranks is the up card's.
    """
    made: BoolArray = category_of(s) >= PAIR
    if strategy == "raise-pair-plus":
        return made
    ranks = -np.sort(-(player >> 2), axis=1)  # high to low
    ace_king = (category_of(s) == HIGH_CARD) & (ranks[:, 0] == 12) & (ranks[:, 1] == 11)
    if strategy == "raise-ak-plus":
        return np.asarray(made | ace_king)
    if strategy == "always-raise":
        return np.ones(len(s), dtype=bool)
    if strategy == "ace-king-jack-8-3":
        return np.asarray(made | (s >= strength_floor(HIGH_CARD, (12, 11, 9, 6, 1))))
    u = (up >> 2)[:, None]
    matches = (ranks == u).any(axis=1)
    if strategy == "matching-rank":
        return np.asarray(made | (ace_king & matches))
    queen = (ranks == 10).any(axis=1)
    jack = (ranks == 9).any(axis=1)
    uu = u[:, 0]
    thumb = (((uu <= 10) & matches) | ((uu >= 11) & (queen | jack))
             | (~matches & queen & (uu < ranks[:, 3])))
    return np.asarray(made | (ace_king & thumb))


def card_raises(card: RaiseCard, player: IntArray, up: IntArray, s: IntArray) -> BoolArray:
    """Whether the player raises, by a strategy card's rules read on the dealt cards (first match wins)."""
    ranks = -np.sort(-(player >> 2), axis=1)  # high to low
    u = up >> 2
    cat = category_of(s)
    no_pair = cat == HIGH_CARD
    ace_king = no_pair & (ranks[:, 0] == 12) & (ranks[:, 1] == 11)
    # the card's hand names, in its order: royal flush .. pair, then ace-king and other high card
    by_category = {"royal_flush": is_royal(s), "straight_flush": (cat == STRAIGHT_FLUSH) & ~is_royal(s)}
    for k, name in enumerate(CATEGORY_NAMES):
        if name not in ("high_card", "straight_flush"):
            by_category[name] = cat == k
    by_category["ace_king"], by_category["high_card"] = ace_king, no_pair & ~ace_king
    hand = np.full(len(s), -1)
    for index, name in enumerate(HANDS):
        hand[by_category[name]] = index
    held = (ranks[:, :, None] == np.arange(13)).any(axis=1)  # (n, 13)
    digits = 13 ** np.arange(4, -1, -1)
    columns = {"hand": hand, "up_rank": u, "third_rank": ranks[:, 2], "fourth_rank": ranks[:, 3]}
    flags = {"up_matches": held[np.arange(len(u)), u], "up_below_fourth": u < ranks[:, 3]}

    def holds(name: str, v: IntArray) -> BoolArray:
        if name in columns:
            return np.isin(columns[name], v)
        if name in flags:
            return np.asarray(flags[name] == bool(v[0]))
        if name == "at_least":
            return np.asarray(ranks @ digits >= v @ digits)
        return np.asarray(held[:, v].any(axis=1) if name == "holds_any" else held[:, v].all(axis=1))

    out = np.zeros(len(s), dtype=bool)
    free = np.ones(len(s), dtype=bool)
    for r in card.rules:
        ok = np.ones(len(s), dtype=bool)
        for name, values in r.when.items():
            ok &= holds(name, np.array(values, dtype=np.int64))
        take = ok & free
        out[take] = r.action == "raise"
        free &= ~take
    out[free] = card.otherwise == "raise"
    return out


def plan(table: Table, options: RunOptions) -> tuple[Plan, Analysis | None]:
    """Deal ten cards a round; raise by a named strategy; settle the ante and raise, and the jackpot."""
    model = table.model
    assert isinstance(model, CaribbeanTable)
    notes = []
    chosen = options.strategy or model.rules.strategy
    if chosen == "optimal":
        if options.strategy is not None:
            raise OptionError("simulate cannot play caribbean's optimal strategy (each decision needs the counts of "
                              "all dealer completions); use one of: " + ", ".join(CARIBBEAN_STRATEGIES))
        chosen = "rules-of-thumb"
        notes.append("The table asks for the optimal strategy, which needs the dealer-completion counts of every "
                     "hand and up card; the simulator plays rules-of-thumb and every exact value is the engine's "
                     "for rules-of-thumb.")
    card = load_card(Path(chosen)).model if is_path(chosen) else None
    if card is None and chosen not in CARIBBEAN_STRATEGIES:
        raise OptionError(f"unknown strategy {chosen!r} for simulate caribbean; one of: "
                          + ", ".join(CARIBBEAN_STRATEGIES) + ", or a strategy card file (a path)")
    qualifier = qualifier_strength(model.rules.dealer_qualifier)
    # raise pays by category, the royal flush last
    raise_pays = np.array([float(getattr(model.pays.main, name)) for name in (*CATEGORY_NAMES, "royal_flush")],
                          dtype=np.float64)
    jackpot = model.pays.jackpot
    paid_on_fold = model.rules.jackpot_paid_on_fold
    deck = full_shoe(1)

    def play(rng: np.random.Generator, n: int) -> Outcomes:
        cards = deal(rng, deck, n, 10)  # player's five, the dealer's up card, the dealer's four hole cards
        player = cards[:, :5]
        sp = strength(player)
        sd = strength(cards[:, 5:])
        up = cards[:, 5]
        raised = card_raises(card, player, up, sp) if card is not None else caribbean_raises(player, up, sp, chosen)
        pay = raise_pays[np.where(is_royal(sp), len(CATEGORY_NAMES), category_of(sp))]
        settled = np.select([sd < qualifier, sp > sd, sp == sd], [1.0, 1.0 + 2.0 * pay, 0.0], -3.0)
        out: Outcomes = {"main": Outcome(np.where(raised, settled, -1.0), stake=np.where(raised, 3.0, 1.0))}
        if jackpot is not None:
            won = np.full(n, -1.0)
            cat = category_of(sp)
            hits = {"royal_flush": is_royal(sp), "straight_flush": (cat == STRAIGHT_FLUSH) & ~is_royal(sp),
                    "four_of_a_kind": cat == QUADS, "full_house": cat == FULL_HOUSE, "flush": cat == FLUSH}
            for name, hit in hits.items():
                amount = getattr(jackpot, name)
                if amount is not None:  # odds return the stake; an amount is all the player gets back
                    won[hit] = float(amount) if isinstance(amount, Odds) else float(amount / jackpot.stake - 1)
            if not paid_on_fold:
                won[~raised] = -1.0
            out["jackpot"] = Outcome(won)
        return out

    rules = {"dealer_qualifier": model.rules.dealer_qualifier, "jackpot_paid_on_fold": paid_on_fold}
    return Plan(play, chosen, RunOptions(strategy=chosen), rules, chunk=100_000, notes=notes), None
