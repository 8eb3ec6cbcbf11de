"""Conditions on the cards of a baccarat coup, as data: what a side bet on ranks, suits and colours reads.

A side bet rule may add ``cards_when``, a list of conditions on named cards, to its ``when`` (the coup's
features); the rule holds when all of them hold. One condition::

    { cards = ["player1", "banker1", "player2", "banker2"], ranks = ["9"], count = 2, same = "suit" }

names the cards it reads (``player1``..``player3``, ``banker1``..``banker3``: the first, second and third card
of each hand; one name or a list), a filter (``ranks``, ``values`` (baccarat points), ``suits``, ``colours``; all
that are given must hold), how many of the named cards pass it (``count``: exactly; ``at_least``; neither: every
named card) and ``same``: the cards that pass share their rank, suit or colour. A third card that is not dealt
never passes. ``hand`` (a HandClass id or a list) and ``hand_at_least`` (a HandClass id or "pair of <rank>") read
the poker class of the named cards taken together, three or four of them, every one dealt (``card_hands``: the
three-card ranking for three, the four-card one for four). ``kinds`` (punto banco only, as ``values``) reads the
ranks the passing cards repeat: ``kinds = [3, 2]`` holds when one rank is among them three times or more and
another twice or more (a full house of the dealt cards, whatever their suits: what a bet on the "poker value"
of all the cards, straights and flushes aside, pays on). These keys and their meanings are the poker side
bets' too (``poker_side_bets``), where ``cards_when`` holds them the same way. Nothing is evaluated as code: every
condition is a set of card classes and a count.

The count (``card_count``) reads cards as *atoms*: the card classes a bet's conditions cannot tell apart (same
point value, same answer to every filter, and the same rank, suit or colour where a ``same`` reads it) are one
atom, whose copies are the sum of theirs. Any two atoms are disjoint, so ordered sequences of atoms count ordered
sequences of cards by falling products of their copies, exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BeforeValidator, Field, model_validator

from oddscalc.cards import RANK_CHARS, SUIT_CHARS
from oddscalc.games.poker_side_bets import MEANS, AtLeast, Classes
from oddscalc.games.punto_banco.card_hands import ORDER, hand_classes, pair_rank
from oddscalc.tables import Strict

# The card positions a condition names, and the slot of the six dealt cards each is in: 0-3 the first four
# (player, banker, player, banker); a third card is the fifth card dealt (slot 4) or the sixth (slot 5).
POSITIONS = ("player1", "player2", "player3", "banker1", "banker2", "banker3")
FIRST_FOUR = {"player1": 0, "banker1": 1, "player2": 2, "banker2": 3}
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")  # cards.SUIT_CHARS order
COLOURS = ("red", "black")
RED = frozenset({SUIT_CHARS.index("d"), SUIT_CHARS.index("h")})
RANK_NAMES = tuple(RANK_CHARS)  # "2".."9", "T", "J", "Q", "K", "A"; "10" is read as "T"
POINTS = tuple(1 if r == "A" else 0 if r in "TJQK" else int(r) for r in RANK_CHARS)


def slot(position: str, punto_drew: bool, banca_drew: bool) -> int | None:
    """Where a named card is among the six dealt, in a coup where each side drew or not (None: not dealt)."""
    if position in FIRST_FOUR:
        return FIRST_FOUR[position]
    if position == "player3":
        return 4 if punto_drew else None
    return (5 if punto_drew else 4) if banca_drew else None


def _names(value: Any, what: str, allowed: Sequence[str], aliases: dict[str, str] | None = None) -> Any:
    if not isinstance(value, list) or not value:
        raise ValueError(f"{what}: give a non-empty list, e.g. [{allowed[0]!r}]")
    out = []
    for v in value:
        name = (aliases or {}).get(str(v), str(v)) if isinstance(v, str) else v
        if not isinstance(name, str) or name not in allowed:
            raise ValueError(f"{what}: {v!r} is not one of {', '.join(allowed)}")
        if name in out:
            raise ValueError(f"{what}: {name!r} is named twice")
        out.append(name)
    return tuple(out)


def _positions(value: Any) -> Any:
    """The cards read, by position: player1, player2, player3, banker1, banker2, banker3 (the first, second and
    third card of each hand; a third card not dealt never passes)."""
    return _names([value] if isinstance(value, str) else value, "cards", POSITIONS)


def _ranks(value: Any) -> Any:
    """Ranks that pass: "2" to "9", "10" (or "T"), "J", "Q", "K", "A"."""
    upper = {r.lower(): r for r in RANK_NAMES if not r.isdigit()}
    return _names(value, "ranks", RANK_NAMES, {"10": "T", **upper})


def _values(value: Any) -> Any:
    """Baccarat points that pass, 0-9 (tens and faces 0, an ace 1)."""
    if not isinstance(value, list) or not value:
        raise ValueError("values: give a non-empty list of baccarat points 0-9, e.g. [9]")
    if any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 9 for v in value):
        raise ValueError(f"values: baccarat points are whole numbers 0-9, not {value!r}")
    if len(set(value)) != len(value):
        raise ValueError("values: a point is named twice")
    return tuple(value)


def _suits(value: Any) -> Any:
    """Suits that pass: clubs, diamonds, hearts, spades (or c, d, h, s)."""
    return _names([value] if isinstance(value, str) else value, "suits", SUIT_NAMES,
                  {n[0]: n for n in SUIT_NAMES})


def _colours(value: Any) -> Any:
    """Colours that pass: red (diamonds, hearts), black (clubs, spades)."""
    return _names([value] if isinstance(value, str) else value, "colours", COLOURS)


def _kinds(value: Any) -> Any:
    """Rank repeats, most first: a list of whole numbers 2 or more (e.g. [4], [3, 2], [2, 2])."""
    if (not isinstance(value, list) or not value
            or any(isinstance(v, bool) or not isinstance(v, int) or v < 2 for v in value)):
        raise ValueError(f"kinds: give how often ranks repeat, most first, each 2 or more (e.g. [3, 2]), not {value!r}")
    if list(value) != sorted(value, reverse=True):
        raise ValueError(f"kinds: most first, e.g. {sorted(value, reverse=True)}")
    return tuple(value)


class CardCondition(Strict):
    """A condition on named cards, in the words both games' side bets use (``cards_when``): how many of them pass
    a filter (ranks, values, suits, colours), whether those share a rank, suit or colour, and the poker class of
    them all (every test given must hold)."""

    cards: Annotated[tuple[str, ...], BeforeValidator(_positions)] = Field(
        description=MEANS["cards"] + " (player1, player2, player3, banker1, banker2, banker3: the first, second and "
                                     "third card of each hand; a third card not dealt never passes)")
    ranks: Annotated[tuple[str, ...] | None, BeforeValidator(_ranks)] = Field(None, description=MEANS["ranks"])
    values: Annotated[tuple[int, ...] | None, BeforeValidator(_values)] = Field(
        None, description="baccarat points that pass the filter, 0-9 (tens and faces 0, an ace 1)")
    suits: Annotated[tuple[str, ...] | None, BeforeValidator(_suits)] = Field(None, description=MEANS["suits"])
    colours: Annotated[tuple[str, ...] | None, BeforeValidator(_colours)] = Field(None, description=MEANS["colours"])
    count: int | None = Field(None, description=MEANS["count"])
    at_least: int | None = Field(None, description=MEANS["at_least"])
    same: Literal["rank", "suit", "colour"] | None = Field(None, description=MEANS["same"])
    kinds: Annotated[tuple[int, ...] | None, BeforeValidator(_kinds)] = Field(
        None, description="how often ranks repeat among the cards that pass the filter, most first, at least: [3, 2] "
                          "holds when one rank is there three times or more and another twice or more (straights "
                          "and flushes aside)")
    hand: Classes | None = Field(None, description=MEANS["hand"] + " (here: three or four cards, every one dealt)")
    hand_at_least: AtLeast | None = Field(None, description=MEANS["hand_at_least"] + " (here: three or four cards)")

    @model_validator(mode="after")
    def _sound(self) -> CardCondition:
        n = len(self.cards)
        if self.count is not None and self.at_least is not None:
            raise ValueError("give count (exactly) or at_least, not both")
        for key in ("count", "at_least"):
            k = getattr(self, key)
            if k is not None and not 0 <= k <= n:
                raise ValueError(f"{key} = {k} is not 0 to the {n} card(s) named")
        if self.kinds is not None and sum(self.kinds) > n:
            raise ValueError(f"kinds = {list(self.kinds)} needs {sum(self.kinds)} cards; {n} are named")
        if self.hand is not None or self.hand_at_least is not None:
            order = ORDER.get(n)
            if order is None:
                raise ValueError(f"hand and hand_at_least read three or four cards, not {n} (five or six, every one "
                                 "by rank and suit, are too many card sequences to count here)")
            named = [*(self.hand or ()), *([self.hand_at_least[0]] if self.hand_at_least else [])]
            never = [h.value for h in named if h not in order]
            if never:
                raise ValueError(f"{n} cards are never a {never[0]}; their classes: {', '.join(order)}")
        if self.needed() and not self.passes().any():
            raise ValueError("no card passes this filter (its ranks, values, suits and colours exclude each other), "
                             "so the condition never holds")
        return self

    @property
    def reads_hand(self) -> bool:
        """Whether it reads the poker class of its cards (then every card's rank and suit matter)."""
        return self.hand is not None or self.hand_at_least is not None

    def needed(self) -> int:
        """How many named cards must pass at least."""
        return self.count if self.count is not None else self.at_least if self.at_least is not None else len(
            self.cards)

    def passes(self) -> np.ndarray:
        """(52,) bool over card classes (rank index * 4 + suit): the cards that pass the filter."""
        c = np.arange(len(RANK_CHARS) * len(SUIT_CHARS))
        rank, suit = c // len(SUIT_CHARS), c % len(SUIT_CHARS)
        ok = np.ones(len(c), dtype=bool)
        if self.ranks is not None:
            ok &= np.isin(rank, [RANK_NAMES.index(r) for r in self.ranks])
        if self.values is not None:
            ok &= np.isin(np.array(POINTS)[rank], self.values)
        if self.suits is not None:
            ok &= np.isin(suit, [SUIT_NAMES.index(s) for s in self.suits])
        if self.colours is not None:
            red = np.isin(suit, sorted(RED))
            ok &= (red & ("red" in self.colours)) | (~red & ("black" in self.colours))
        return ok

    def key(self) -> dict[str, Any]:
        """The condition as JSON (what the count is cached by)."""
        return self.model_dump(exclude_none=True, mode="json")


def describe_cards(c: CardCondition) -> str:
    """A plain reading of a card condition, for a rule without a label."""
    what = [", ".join(c.ranks)] if c.ranks else []
    what += [f"worth {' or '.join(str(v) for v in c.values)}"] if c.values else []
    what += [" or ".join(c.suits)] if c.suits else []
    what += [" or ".join(c.colours)] if c.colours else []
    many = (f"exactly {c.count} of" if c.count is not None else f"at least {c.at_least} of"
            if c.at_least is not None else "all of")
    same = f", sharing a {c.same}" if c.same else ""
    hand = f", making {' or '.join(h.value.replace('_', ' ') for h in c.hand)}" if c.hand else ""
    hand += f", ranks repeated {'+'.join(str(k) for k in c.kinds)} times or more" if c.kinds else ""
    if c.hand_at_least:
        low, pair = c.hand_at_least
        hand += f", making {'a pair of ' + RANK_NAMES[pair[0]] if pair else low.value.replace('_', ' ')} or better"
    return f"{many} {', '.join(c.cards)} {' '.join(what) or 'dealt'}{same}{hand}"


@dataclass(frozen=True, eq=False)
class Atoms:
    """The card classes a list of conditions cannot tell apart, merged: each atom's copies, point value,
    rank / suit / colour (-1 where no condition reads it) and which conditions' filters it passes."""

    copies: np.ndarray  # (A,) int64
    value: np.ndarray  # (A,)
    rank: np.ndarray
    suit: np.ndarray
    colour: np.ndarray
    passes: np.ndarray  # (conditions, A) bool


def atoms(conditions: Sequence[CardCondition], copies: Sequence[int]) -> Atoms:
    """The atoms of a shoe (copies per card class) for ``conditions``; classes with no copies are left out."""
    c = np.arange(len(copies))
    rank, suit = c // len(SUIT_CHARS), c % len(SUIT_CHARS)
    # a card's rank (suit, colour) matters only where it passes the filter of a condition whose ``same`` reads it
    read = {a: np.zeros(len(c), dtype=bool) for a in ("rank", "suit", "colour")}
    for k in conditions:
        if k.same is not None:
            read[k.same] |= k.passes()[:len(c)]
        if k.kinds is not None:
            read["rank"] |= k.passes()[:len(c)]
        if k.reads_hand:  # the class of the named cards reads every card's rank and suit
            read["rank"][:] = True
            read["suit"][:] = True
    none = -np.ones_like(c)
    cols = [np.array(POINTS)[rank], np.where(read["rank"], rank, none), np.where(read["suit"], suit, none),
            np.where(read["colour"], np.isin(suit, sorted(RED)).astype(np.int64), none)]
    cols += [k.passes().astype(np.int64) for k in conditions]
    present = np.flatnonzero(np.asarray(copies) > 0)
    sig = np.stack(cols, axis=1)[present]
    unique, inverse = np.unique(sig, axis=0, return_inverse=True)
    n = np.zeros(len(unique), dtype=np.int64)
    np.add.at(n, inverse.ravel(), np.asarray(copies, dtype=np.int64)[present])
    return Atoms(n, unique[:, 0], unique[:, 1], unique[:, 2], unique[:, 3],
                 unique[:, 4:].T.astype(bool).reshape(len(conditions), len(unique)))


def holds(k: int, cond: CardCondition, at: Atoms, dealt: dict[int, np.ndarray], punto_drew: bool,
          banca_drew: bool, memo: dict[Any, np.ndarray] | None = None) -> np.ndarray:
    """Whether condition ``k`` (``cond``) holds on each row of dealt atoms (slot -> (N,) atom indices), in coups
    where each side drew as given (``memo``: what conditions on the same cards and filter share, per draw state)."""
    n_rows = len(next(iter(dealt.values())))
    memo = {} if memo is None else memo
    filtered = (cond.cards, cond.ranks, cond.values, cond.suits, cond.colours, punto_drew, banca_drew)
    if ("passing", *filtered) not in memo:  # conditions with the same cards and filter share which cards pass
        many = np.zeros(n_rows, dtype=np.int8)
        for pos in cond.cards:
            s = slot(pos, punto_drew, banca_drew)
            memo["passing", *filtered, pos] = (np.zeros(n_rows, dtype=bool) if s is None
                                               else at.passes[k][dealt[s]])
            many += memo["passing", *filtered, pos]
        memo["passing", *filtered] = many
    passing = [(memo["passing", *filtered, pos], None if (s := slot(pos, punto_drew, banca_drew)) is None
                else dealt[s]) for pos in cond.cards]
    n = memo["passing", *filtered]
    ok = (n == cond.count if cond.count is not None else n >= cond.at_least if cond.at_least is not None
          else n == len(cond.cards))
    if cond.same is not None:
        attr = {"rank": at.rank, "suit": at.suit, "colour": at.colour}[cond.same]
        for i, (pi, ai) in enumerate(passing):
            for pj, aj in passing[i + 1:]:
                if ai is not None and aj is not None:
                    ok = ok & ~(pi & pj & (attr[ai] != attr[aj]))
    if cond.kinds is not None:
        key = ("kinds", *filtered)
        repeats = memo.get(key)
        if repeats is None:
            repeats = memo[key] = _repeats(at, passing, n_rows)
        for t in set(cond.kinds):  # the i-th most repeated rank t times or more, for each i: see _repeats
            ok = ok & (repeats[:, t] >= sum(k >= t for k in cond.kinds))
    if cond.reads_hand:
        ok = ok & _hand_holds(cond, at, [a for _, a in passing], n_rows)
    return np.asarray(ok)


def _repeats(at: Atoms, passing: Sequence[tuple[np.ndarray, np.ndarray | None]], n_rows: int) -> np.ndarray:
    """(N, 7) int8: column t, how many ranks are among the passing cards of each row t times or more.

    The i-th most repeated rank is there ``kinds[i]`` times or more for every i (kinds most first) exactly when,
    for each t in kinds, at least as many ranks are there t times or more as kinds has entries t or more (two
    lists sorted most first, one above the other term by term). A rank is counted at its first passing card,
    with how many passing cards share it: pairwise comparisons of the few named cards, no sort of every row."""
    rank = at.rank.astype(np.int8)  # 13 ranks and -1: narrow, so each comparison of millions moves less
    cards = [(p, rank[a]) for p, a in passing if a is not None]
    out = np.zeros((7, n_rows), dtype=np.int8)  # by column, each written contiguously
    same = {(i, j): cards[i][0] & cards[j][0] & (cards[i][1] == cards[j][1])
            for i in range(len(cards)) for j in range(i + 1, len(cards))}
    for i, (p, _) in enumerate(cards):
        many = p.astype(np.int8)
        first = p
        for j in range(len(cards)):
            if j != i:
                e = same[min(i, j), max(i, j)]
                many = many + e
                if j < i:
                    first = first & ~e
        for t in range(1, len(cards) + 1):
            out[t] += first & (many >= t)
    return out.T


def _hand_holds(cond: CardCondition, at: Atoms, cards: list[np.ndarray | None], n_rows: int) -> np.ndarray:
    """(N,) whether the named cards (atom indices per position; None: not dealt) make the class ``hand`` names,
    and at least ``hand_at_least``."""
    if any(a is None for a in cards):
        return np.zeros(n_rows, dtype=bool)
    idx = np.stack([a for a in cards if a is not None], axis=1)
    ranks, suits = at.rank[idx].astype(np.int64), at.suit[idx].astype(np.int64)
    order = ORDER[len(cards)]
    cls = hand_classes(ranks, suits)
    ok = np.ones(n_rows, dtype=bool)
    if cond.hand is not None:
        ok &= np.isin(cls, [order.index(h) for h in cond.hand])
    if cond.hand_at_least is not None:
        low, pair = cond.hand_at_least
        i = order.index(low)
        ok &= (cls < i) | ((cls == i) & (pair_rank(ranks) >= pair[0] if pair else True))
    return ok
