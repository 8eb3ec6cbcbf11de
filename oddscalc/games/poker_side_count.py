"""A poker side bet (``poker_side_bets``) counted exactly over every deal, and settled as a wager.

Counting argument: a game deals its slots in order (Caribbean Stud: the player's five cards as a set, the
dealer's up card, his four hole cards as a set; Let It Ride: the player's three cards, then the two community
cards in order), so a deal is one choice per slot and there are ``prod C(cards left, slot size)`` of them. A
side bet reads only some slots; every assignment of the slots it reads is completed by the same number of
assignments of the others (the product of their binomials over the cards left), so the bet's count is that
number times a count over the slots it reads. Those are enumerated in dealing order: the first slot read as one
representative per suit class times the class size (``symmetry.suit_classes``), when no condition names a suit
or a colour (permuting the suits then maps a deal to a deal the bet treats alike), else every set of cards; each
later slot read as every set of the cards left. Every enumerated deal is tried against the rules in order and
counted in the first rule it meets (the ``otherwise`` when none). The counts are integers (summed as Python
ints), depend on the conditions and the deck only, and are kept per (game slots, deck, conditions).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from oddscalc.cache import Store
from oddscalc.cards import Deck
from oddscalc.games.poker_side_bets import COLOUR_OF_SUIT, LOSE, PUSH, Condition, PokerSideBet
from oddscalc.games.progressive import Progressive, progressive
from oddscalc.games.progressive import section as progressive_section
from oddscalc.hands import BINOM, HAND_CLASSES, HandClass, HandTable, colex_combos, hand_table
from oddscalc.protocol import OptionError
from oddscalc.results import Row, Section, WagerResult
from oddscalc.symmetry import suit_classes
from oddscalc.tables import money_text, prize_units

CHUNK = 1 << 20  # enumerated deals held at once
MAX_DEALS = 2_000_000_000  # more is hours of numpy: refused with the reason


@dataclass(frozen=True)
class SideCount:
    """A side bet's deals by line: its rules' events in order (rules sharing one joined), then ``otherwise``."""

    events: tuple[str, ...]
    counts: tuple[int, ...]
    total: int  # every deal of the game
    enumerated: int  # deals of the slots read, as enumerated (suit classes count once)


def lines(bet: PokerSideBet) -> tuple[str, ...]:
    """The bet's rows: each rule's event once, in order, then the otherwise's."""
    return (*dict.fromkeys(r.event for r in bet.rules), bet.otherwise.event)


def total_deals(bet: PokerSideBet, deck: Deck) -> int:
    """Every deal of the game's slots: ``prod C(cards left, size)`` in dealing order."""
    left, out = deck.size, 1
    for size in bet.SLOTS.values():
        out *= math.comb(left, size)
        left -= size
    return out


_KEPT: dict[str, SideCount] = {}


def _kept_key(bet: PokerSideBet, deck: Deck) -> str:
    return json.dumps([dict(bet.SLOTS), {k: list(v) for k, v in bet.POSITIONS.items()}, list(deck.ranks),
                       deck.n_suits, bet.count_key()], sort_keys=True)


def count_side_bet(bet: PokerSideBet, deck: Deck) -> SideCount:
    """The bet's count on ``deck``, kept per game slots, deck and conditions (its pays change nothing)."""
    key = _kept_key(bet, deck)
    if key not in _KEPT:
        _KEPT[key] = _count(bet, deck)
    return _KEPT[key]


def _count(bet: PokerSideBet, deck: Deck) -> SideCount:
    read = bet.slots_of(tuple(p for r in bet.rules for c in r.cards_when for p in c.cards))
    names = lines(bet)
    line_of = [names.index(r.event) for r in bet.rules]
    left = deck.size
    unread = 1
    for slot, size in bet.SLOTS.items():
        if slot not in read:
            unread *= math.comb(left - sum(bet.SLOTS[s] for s in read), size)
            left -= size
    per_first = 1
    used = bet.SLOTS[read[0]]
    for s in read[1:]:
        per_first *= math.comb(deck.size - used, bet.SLOTS[s])
        used += bet.SLOTS[s]
    symmetric = not bet.reads_suits
    firsts, weights = _first(bet.SLOTS[read[0]], deck, symmetric)
    enumerated = len(firsts) * per_first
    if enumerated > MAX_DEALS:
        raise OptionError(f"the side bet {bet.title!r} reads {used} cards ({', '.join(read)}): {enumerated:,} deals "
                          f"to enumerate on {deck.describe()}, more than the {MAX_DEALS:,} counted here; read "
                          "fewer cards, or count on a smaller deck (--deck)")
    counts = [0] * len(names)
    seen = 0
    step = max(1, CHUNK // per_first)
    ht = hand_table(deck)
    for start in range(0, len(firsts), step):
        rows, w = firsts[start:start + step], weights[start:start + step]
        columns = {read[0]: (0, bet.SLOTS[read[0]])}
        for s in read[1:]:
            columns[s] = (rows.shape[1], bet.SLOTS[s])
            rows, w = _extend(rows, w, bet.SLOTS[s], deck)
        line = np.full(len(rows), -1, dtype=np.int64)
        memo: dict[str, NDArray[Any]] = {}
        for rule, at in zip(bet.rules, line_of, strict=True):
            free = line < 0
            if not free.any():
                break
            holds = free.copy()
            for c in rule.cards_when:
                holds &= _holds(c, bet, rows, columns, ht, memo)
            line[holds] = at
        line[line < 0] = len(names) - 1
        for j in range(len(names)):
            counts[j] += int(w[line == j].sum())
        seen += int(w.sum())
    if seen * unread != total_deals(bet, deck):
        raise AssertionError(f"side bet count covers {seen * unread} deals, not {total_deals(bet, deck)}")
    return SideCount(names, tuple(n * unread for n in counts), total_deals(bet, deck), enumerated)


def hand_lines(bet: PokerSideBet, deck: Deck) -> NDArray[np.int64]:
    """(C(n,k),) the line (index into ``lines(bet)``) of each k-card hand of ``deck`` in colex order, for a bet
    whose rules read one slot of k cards (the envy bonus pairs it with other seats' hands)."""
    read = bet.slots_of(tuple(p for r in bet.rules for c in r.cards_when for p in c.cards))
    if len(read) != 1 or bet.SLOTS[read[0]] < 3:
        raise ValueError(f"the side bet {bet.title!r} reads {', '.join(read)}, not one hand of its own")
    k = bet.SLOTS[read[0]]
    ht = hand_table(deck)
    rows = ht.combos if k == 5 else np.array(deck.cards, dtype=np.int8)[colex_combos(deck.size, k)]
    names = lines(bet)
    line = np.full(len(rows), -1, dtype=np.int64)
    memo: dict[str, NDArray[Any]] = {}
    for rule in bet.rules:
        holds = line < 0
        for c in rule.cards_when:
            holds &= _holds(c, bet, rows, {read[0]: (0, k)}, ht, memo)
        line[holds] = names.index(rule.event)
    line[line < 0] = len(names) - 1
    return line


def _first(size: int, deck: Deck, symmetric: bool) -> tuple[NDArray[np.int8], NDArray[np.int64]]:
    if symmetric:
        return suit_classes(size, deck)
    cards = np.array(deck.cards, dtype=np.int8)[colex_combos(deck.size, size)]
    return cards, np.ones(len(cards), dtype=np.int64)


def _extend(rows: NDArray[np.int8], w: NDArray[np.int64], size: int,
            deck: Deck) -> tuple[NDArray[np.int8], NDArray[np.int64]]:
    """Each row followed by every set of ``size`` cards it does not hold."""
    n, held = deck.size, rows.shape[1]
    position = np.full(52, -1, dtype=np.int64)
    position[list(deck.cards)] = np.arange(n)
    free = np.ones((len(rows), n), dtype=bool)
    free[np.arange(len(rows))[:, None], position[rows.astype(np.int64)]] = False
    other = np.nonzero(free)[1].reshape(len(rows), n - held)
    combos = colex_combos(n - held, size).astype(np.int64)
    added = np.array(deck.cards, dtype=np.int8)[other[:, combos]]  # (rows, ways, size)
    both = np.concatenate([np.broadcast_to(rows[:, None, :], added.shape[:2] + (held,)), added], axis=2)
    return both.reshape(-1, held + size), np.repeat(w, len(combos))


def _holds(c: Condition, bet: PokerSideBet, rows: NDArray[np.int8], columns: dict[str, tuple[int, int]],
           ht: HandTable, memo: dict[str, NDArray[Any]]) -> NDArray[np.bool_]:
    key = json.dumps(c.key(), sort_keys=True)
    if key in memo:
        return memo[key]
    idx = [i for s in bet.slots_of(c.cards) for i in range(columns[s][0], columns[s][0] + columns[s][1])]
    cards = rows[:, idx]
    out = _card_tests(c, cards)
    if c.hand is not None or c.hand_at_least is not None:
        if len(idx) >= 5:
            skey = f"strength {idx}"  # conditions on the same cards share it
            if skey not in memo:
                memo[skey] = best_strength(cards, ht)
            strength = memo[skey]
            if c.hand is not None:
                out &= np.isin(_class_of_level(ht.deck)[strength], [h.code for h in c.hand])
            if c.hand_at_least is not None:
                out &= strength >= ht.strength_at_least(*c.hand_at_least)
        elif c.hand is not None:
            out &= np.isin(short_class((cards >> 2).astype(np.int64), (cards & 3).astype(np.int64)),
                           [h.code for h in c.hand])
    memo[key] = out
    return out


def _card_tests(c: Condition, cards: NDArray[np.int8]) -> NDArray[np.bool_]:
    """(rows,) whether the cards that pass the filter (ranks, suits, colours) number what ``count`` / ``at_least``
    say (neither: every card), and they share what ``same`` says."""
    ranks, suits = cards >> 2, cards & 3
    colours = np.array(COLOUR_OF_SUIT, dtype=np.int8)[suits]
    passing = np.ones(cards.shape, dtype=bool)
    for values, allowed in ((ranks, c.ranks), (suits, c.suits), (colours, c.colours)):
        if allowed is not None:
            passing &= np.isin(values, allowed)
    n = passing.sum(axis=1)
    out: NDArray[np.bool_] = (n == c.count if c.count is not None else n >= c.at_least if c.at_least is not None
                              else n == cards.shape[1])
    if c.same is not None:
        x = {"rank": ranks, "suit": suits, "colour": colours}[c.same]
        for i in range(cards.shape[1]):  # every two cards that pass agree (pairs: at most ten cards are named)
            for j in range(i + 1, cards.shape[1]):
                out &= ~(passing[:, i] & passing[:, j] & (x[:, i] != x[:, j]))
    return out


def best_strength(cards: NDArray[np.int8], ht: HandTable) -> NDArray[np.int16]:
    """(rows,) the dense strength of the best five of each row's cards (five or more)."""
    pos = np.sort(ht.position[cards], axis=1)  # card ids and deck positions sort alike
    if pos.shape[1] == 5:
        index = sum(BINOM[pos[:, i].astype(np.intp), i + 1] for i in range(5))
        out: NDArray[np.int16] = ht.strength[index]
        return out
    from oddscalc.games.poker_side_kernel import best_strengths  # numba only when six or more cards are read

    subsets = np.array(list(itertools.combinations(range(pos.shape[1]), 5)), dtype=np.int64)
    best: NDArray[np.int16] = best_strengths(pos.astype(np.int64), subsets, BINOM, ht.strength)
    return best


@functools.cache
def _class_of_level(deck: Deck) -> NDArray[np.int8]:
    ht = hand_table(deck)
    out = np.zeros(ht.n_levels, dtype=np.int8)
    out[ht.strength] = ht.hand_class  # a level is one value, so one class
    return out


def short_class(ranks: NDArray[np.int64], suits: NDArray[np.int64]) -> NDArray[np.int64]:
    """(rows,) the HandClass code of three or four cards: a straight or a flush takes every card (A-2-3 and
    A-2-3-4 are straights, a straight flush to the ace is a royal flush); then four, three of a kind, two pair,
    a pair."""
    k = ranks.shape[1]
    r = np.sort(ranks, axis=1)
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = 1 + (np.diff(r, axis=1) != 0).sum(axis=1)
    wheel = (r[:, -1] == 12) & (r[:, :-1] == np.arange(k - 1)).all(axis=1)
    straight = (distinct == k) & ((r[:, -1] - r[:, 0] == k - 1) | wheel)
    top = straight & ~wheel & (r[:, -1] == 12)
    most = np.max((r[:, :, None] == r[:, None, :]).sum(axis=2), axis=1)
    code = {c: c.code for c in HAND_CLASSES}
    return np.select(
        [straight & flush & top, straight & flush, most == 4, flush, straight, most == 3,
         (most == 2) & (distinct == k - 2), most == 2],
        [code[HandClass.ROYAL_FLUSH], code[HandClass.STRAIGHT_FLUSH], code[HandClass.FOUR_OF_A_KIND],
         code[HandClass.FLUSH], code[HandClass.STRAIGHT], code[HandClass.THREE_OF_A_KIND], code[HandClass.TWO_PAIR],
         code[HandClass.PAIR]], code[HandClass.HIGH_CARD])


def side_bet_wager(wager: str, bet: PokerSideBet, sc: SideCount, convention: str) -> WagerResult:
    """The side bet settled from its count: one row per line, at the table's pays (a meter prize at the meter
    shown)."""
    pays = {r.event: r.pays for r in bet.rules} | {bet.otherwise.event: bet.otherwise.pays}
    labels = {r.event: r.title for r in reversed(bet.rules)} | {bet.otherwise.event: bet.otherwise.label}
    rows = []
    for event, n in zip(sc.events, sc.counts, strict=True):
        pay = pays[event]
        if pay == LOSE:
            rows.append(Row(event, labels[event], "", Fraction(-1), n))
        elif pay == PUSH:
            rows.append(Row(event, labels[event], "push", Fraction(0), n))
        else:
            assert isinstance(pay, Fraction)
            text, units, coef = prize_units(pay, bet.stake, bet.meter.shown if bet.meter else None)
            ref = f"{wager}.{event}" if event != bet.otherwise.event else ""
            rows.append(Row(event, labels[event], text, units, n, pay_ref=ref, pay_coef=coef if ref else Fraction(0)))
    return WagerResult(
        wager=wager, title=bet.title + (f" (progressive, stake {money_text(bet.stake)})" if bet.meter else ""),
        strategy="none", strategy_title="none (no decision)", total_combinations=sc.total, rows=tuple(rows),
        unit=f"stake of {money_text(bet.stake)}" if bet.stake != 1 or bet.meter else "unit staked",
        notes=(*bet.notes, "A side bet declared as data: its rules are tried in order on the cards each reads, the "
               "first that holds pays; it is settled on the cards whatever the player decides on the main bet.",
               convention))


def side_bet_progressive(w: WagerResult, bet: PokerSideBet) -> Progressive | None:
    """The meter analysis of a side bet with meter prizes."""
    if bet.meter is None:
        return None
    return progressive(w, bet.meter_shares(), bet.stake, bet.meter)


def side_bets(pays: object) -> Iterator[tuple[str, PokerSideBet]]:
    """The side bets of a ``[pays]`` block (its extra keys), in table order."""
    for name, block in (getattr(pays, "__pydantic_extra__", None) or {}).items():
        if isinstance(block, PokerSideBet):
            yield name, block


def _store_key(game: str, bet: PokerSideBet, deck: Deck) -> dict[str, Any]:
    return {"game": game, "side_bet": bet.count_key(), "slots": dict(bet.SLOTS),
            "positions": {k: list(v) for k, v in bet.POSITIONS.items()}, "deck": [list(deck.ranks), deck.n_suits],
            "engine": ENGINE}


ENGINE = 2  # the side bet count's own version, bumped when what it counts changes (2: "the same colour")


def stored_counts(game: str, pays: object, deck: Deck, store: Store) -> None:
    """Each side bet's count from the store (counted and stored when it has none), kept for ``settle``."""
    for _, bet in side_bets(pays):
        key = _kept_key(bet, deck)
        if key in _KEPT:
            continue

        def build(bet: PokerSideBet = bet) -> dict[str, np.ndarray]:
            sc = count_side_bet(bet, deck)
            return {"counts": np.array(sc.counts, dtype=object), "enumerated": np.array([sc.enumerated])}

        arrays = store.get(_store_key(game, bet, deck), build)
        _KEPT[key] = SideCount(lines(bet), tuple(int(x) for x in arrays["counts"]), total_deals(bet, deck),
                               int(arrays["enumerated"][0]))


def settle_side_bets(pays: object, deck: Deck, convention: str) -> tuple[list[WagerResult], list[Section]]:
    """Every side bet of ``pays`` settled from its count, and the meter section of each progressive one."""
    wagers, sections = [], []
    for name, bet in side_bets(pays):
        w = side_bet_wager(name, bet, count_side_bet(bet, deck), convention)
        wagers.append(w)
        p = side_bet_progressive(w, bet)
        if p is not None:
            sections.append(progressive_section(p))
    return wagers, sections
