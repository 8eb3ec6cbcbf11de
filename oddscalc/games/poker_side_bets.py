"""Side bets of the poker games (Caribbean Stud, Let It Ride) as data: ordered rules over the cards they read.

A table declares each side bet as a block of its ``[pays]``, a list of rules, first match wins::

    [pays.five_plus_one]
    title = "5+1 Bonus"
    otherwise = { event = "lose", label = "Less than three of a kind" }     # pays "lose" unless told

    [[pays.five_plus_one.rules]]
    event = "royal_flush"
    cards_when = [{ cards = ["player", "dealer_up"], hand = "royal_flush" }]
    pays = "1000:1"                              # odds; or an amount (500, "0.50"); "100% meter"; "push"; "lose"

A rule holds when every one of its card conditions (``cards_when``: a list of them, or one) does. The vocabulary
of a card condition is the punto banco one (``punto_banco.card_conditions``: the same keys, the same meaning; only
the positions and ``values``, baccarat points, differ). A condition names the cards it reads, ``cards``: a
position of the game or a list of them (Caribbean Stud: ``player`` the player's five cards, ``dealer_up`` the
dealer's up card, ``dealer_hole`` his four hole cards, ``dealer`` his whole hand; Let It Ride: ``player`` the
player's three cards, ``community1``, ``community2``, ``community`` both), taken together as one set of cards.
Then any of these tests, all of which must hold:

- ``ranks`` (ranks such as "A", "K", "10", "7"), ``suits`` ("c", "d", "h", "s" or their names), ``colours``
  ("red", "black"): a filter; ``count`` (exactly this many of the cards pass it) or ``at_least`` (at least this
  many); neither: every one of the cards passes.
- ``same``: ``"rank"``, ``"suit"`` or ``"colour"``: the cards that pass the filter (all of them, without one)
  share it.
- ``hand``: a HandClass id or a list of them: the poker class of those cards is one of them (``hands.short``).
  Five cards or more: the best five-card hand among them. Three or four cards: the class of the cards
  themselves, where a straight or a flush needs all of them (A-2-3 is a straight; a straight flush to the ace
  is ``royal_flush``; four cards can be ``four_of_a_kind`` and ``two_pair``, three cannot).
- ``hand_at_least``: (five cards or more) the best five is at least this hand: a HandClass id, or ``"pair of
  <rank>"`` (a pair of that rank or better, or any better class).

``when`` (the key of these conditions before issue 45 gave both games one vocabulary) is refused with a message
naming ``cards_when``. Pays read as elsewhere (``tables.Prize``): odds "a:b" return the stake, an amount is all the
player gets back (the ``stake``, default 1, is kept), a share of a ``[meter]`` is a progressive prize. The count
of a side bet depends on its conditions only (never its pays) and is kept per deck and conditions
(``poker_side_count``). A table is never evaluated as code: every name is checked against the game's vocabulary
when the table loads, with the file, line and key of any error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Field, PlainSerializer, field_validator, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError, ValidationError

from oddscalc.cards import CardError, parse_rank
from oddscalc.games.progressive import Meter
from oddscalc.hands import HAND_CLASSES, HandClass
from oddscalc.tables import Amount, MeterShare, Odds, Strict, parse_prize, ratio_text

PUSH: Literal["push"] = "push"
LOSE: Literal["lose"] = "lose"
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
SUITS = {"c": 0, "clubs": 0, "d": 1, "diamonds": 1, "h": 2, "hearts": 2, "s": 3, "spades": 3}
COLOURS = {"black": 0, "red": 1}  # clubs and spades are black, diamonds and hearts red
COLOUR_OF_SUIT = (0, 1, 1, 0)
SAME = ("rank", "suit", "colour")
TESTS = ("hand", "hand_at_least", "ranks", "suits", "colours", "count", "at_least", "same")
RANK_TEXT = "23456789TJQKA"


def event_id(v: str) -> str:
    """A row id: lower case letters, digits and _, starting with a letter."""
    if not _ID.match(v):
        raise ValueError(f"an id is lower case letters, digits and _, starting with a letter, not {v!r}")
    return v


def _listed(value: Any) -> tuple[Any, ...]:
    items = tuple(value) if isinstance(value, list | tuple) else (value,)
    if not items:
        raise ValueError("an empty list matches nothing")
    return items


def _hand_classes(value: Any) -> tuple[HandClass, ...]:
    out = []
    for v in _listed(value):
        if not isinstance(v, str) or v not in HandClass._value2member_map_:
            raise ValueError(f"not a hand class: {v!r}; one of: {', '.join(c.value for c in HAND_CLASSES)}")
        out.append(HandClass(v))
    return tuple(out)


def _ranks(value: Any) -> tuple[int, ...]:
    out = []
    for v in _listed(value):
        if isinstance(v, bool) or not isinstance(v, str | int):
            raise ValueError(f"not a rank: {v!r} (write \"A\", \"K\", \"10\", \"7\", ...)")
        try:
            out.append(parse_rank(str(v)))
        except CardError as e:
            raise ValueError(str(e)) from None
    return tuple(sorted(set(out)))


def _names(vocabulary: Mapping[str, int], what: str) -> Any:
    def parse(value: Any) -> tuple[int, ...]:
        out = []
        for v in _listed(value):
            if not isinstance(v, str) or v.strip().lower() not in vocabulary:
                raise ValueError(f"not a {what}: {v!r}; one of: {', '.join(vocabulary)}")
            out.append(vocabulary[v.strip().lower()])
        return tuple(sorted(set(out)))
    return parse


def parse_at_least(value: Any) -> tuple[HandClass, tuple[int, ...]]:
    """A lowest hand: a HandClass id, or "pair of <rank>" (a pair of that rank or better)."""
    if isinstance(value, str):
        t = value.strip().lower()
        if t in HandClass._value2member_map_:
            return HandClass(t), ()
        m = re.fullmatch(r"pair of (\w+)", t.replace("_", " "))
        if m:
            try:
                return HandClass.PAIR, (parse_rank(m.group(1)),)
            except CardError:
                pass
    raise ValueError(f"not a lowest hand: {value!r} (a hand class id such as \"flush\", or \"pair of eights\")")


def _ser_at_least(v: tuple[HandClass, tuple[int, ...]]) -> str:
    return v[0].value if not v[1] else f"pair of {RANK_TEXT[v[1][0]]}"


Positions = Annotated[tuple[str, ...], BeforeValidator(_listed)]
Classes = Annotated[tuple[HandClass, ...], BeforeValidator(_hand_classes)]
Ranks = Annotated[tuple[int, ...], BeforeValidator(_ranks), PlainSerializer(lambda v: [RANK_TEXT[r] for r in v])]
Suits = Annotated[tuple[int, ...], BeforeValidator(_names(SUITS, "suit")),
                  PlainSerializer(lambda v: ["cdhs"[s] for s in v])]
Colours = Annotated[tuple[int, ...], BeforeValidator(_names(COLOURS, "colour")),
                    PlainSerializer(lambda v: [("black", "red")[c] for c in v])]
AtLeast = Annotated[tuple[HandClass, tuple[int, ...]], BeforeValidator(parse_at_least),
                    PlainSerializer(_ser_at_least)]


# What each key of a card condition means, worded once for both games' models (``punto_banco.card_conditions``
# reads these too), so the file-keys page says the same of each key in every game.
MEANS = {
    "cards": "the cards read: a position or a list of them, taken together",
    "ranks": 'ranks that pass the filter: "2" to "9", "10" (or "T"), "J", "Q", "K", "A"',
    "suits": "suits that pass the filter: clubs, diamonds, hearts, spades (or c, d, h, s)",
    "colours": "colours that pass the filter: red (diamonds, hearts), black (clubs, spades)",
    "count": "exactly this many of the named cards pass the filter (left out with at_least: every named card "
             "passes)",
    "at_least": "at least this many of the named cards pass the filter",
    "same": 'the cards that pass the filter (every card, without one) share it: one of "rank", "suit", "colour"',
    "hand": "a hand class id or a list: the poker class of the named cards taken together (three cards: the "
            "three-card ranking; four: the four-card one; five or more: the best five)",
    "hand_at_least": 'the named cards\' class is at least this: a hand class id, or "pair of <rank>" (a pair of '
                     "that rank or better)",
}


class Condition(Strict):
    """A condition on named cards, in the words both games' side bets use (``cards_when``): how many of them pass
    a filter (ranks, suits, colours), whether those share a rank, suit or colour, and the poker class of them all
    (every test given must hold)."""

    cards: Positions = Field(description=MEANS["cards"] + ' (e.g. ["player", "dealer_up"])')
    ranks: Ranks | None = Field(None, description=MEANS["ranks"])
    suits: Suits | None = Field(None, description=MEANS["suits"])
    colours: Colours | None = Field(None, description=MEANS["colours"])
    count: int | None = Field(None, description=MEANS["count"])
    at_least: int | None = Field(None, description=MEANS["at_least"])
    same: Literal["rank", "suit", "colour"] | None = Field(None, description=MEANS["same"])
    hand: Classes | None = Field(None, description=MEANS["hand"])
    hand_at_least: AtLeast | None = Field(None, description=MEANS["hand_at_least"] + " (here: the best five, five "
                                                                                     "cards or more)")

    @model_validator(mode="after")
    def _some_test(self) -> Condition:
        if all(getattr(self, k) is None for k in TESTS):
            raise ValueError(f"a condition needs a test besides cards: {', '.join(TESTS)}")
        if self.count is not None and self.at_least is not None:
            raise ValueError("give count (exactly) or at_least, not both")
        for key in ("count", "at_least"):
            k = getattr(self, key)
            if k is not None and (isinstance(k, bool) or k < 0):
                raise ValueError(f"{key} = {k!r} is not a number of cards")
        return self

    @property
    def reads_suits(self) -> bool:
        """Whether the test reads a suit's colour or names a suit (then suits are not interchangeable): "the same
        colour" too, since permuting the suits may pair a red suit with a black one."""
        return self.suits is not None or self.colours is not None or self.same == "colour"

    def key(self) -> dict[str, Any]:
        """The condition as plain data (a store key)."""
        return self.model_dump(mode="json", exclude_none=True)


def _conditions(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else (value,)


def parse_side_pay(value: Any) -> Fraction | str:
    """Odds ("50:1"), an amount (500, "0.50"), a share of the meter ("100% meter"), "push" or "lose"."""
    if isinstance(value, str) and value.strip().lower() in (PUSH, LOSE):
        return value.strip().lower()
    return parse_prize(value)


Prize = Annotated[Fraction | str, BeforeValidator(parse_side_pay),
                  PlainSerializer(lambda x: x if isinstance(x, str) else
                                  f"{x * 100}% meter" if isinstance(x, MeterShare) else ratio_text(x)
                                  if isinstance(x, Odds) else str(x))]


class Rule(Strict):
    """One line of a side bet: when all its card conditions hold (and no earlier rule's did), it pays."""

    event: str = Field(description="the outcome's id: lower case letters, digits and _, starting with a letter "
                                   "(rules sharing an event pay the same)")
    label: str = ""
    cards_when: Annotated[tuple[Condition, ...], BeforeValidator(_conditions)] = Field(
        description="conditions on the cards, all of which must hold: a list of them, or one")
    pays: Prize = Field(description='odds ("50:1"), an amount (500, "0.50"), a share of the meter ("100% meter"), '
                                    '"push" or "lose"')

    _event_id = field_validator("event")(lambda v: event_id(v))

    @model_validator(mode="before")
    @classmethod
    def _old_key(cls, data: Any) -> Any:
        """``when`` was this key before issue 45 gave both games one vocabulary: refused, naming the new key
        (punto banco's ``when`` reads the coup's features, so a poker ``when`` silently kept would mislead)."""
        if isinstance(data, dict) and "when" in data:
            raise ValidationError.from_exception_data("Rule", [InitErrorDetails(
                type=PydanticCustomError("renamed", "a side bet's card conditions are written cards_when (a list of "
                                                    "conditions, the key punto banco tables use), not when: rename "
                                                    "when = {...} to cards_when = [{...}]"),
                loc=("when",), input=data["when"])])
        return data

    @property
    def title(self) -> str:
        """The label, or the event in words."""
        return self.label or self.event.replace("_", " ").capitalize()


class Otherwise(Strict):
    """What a side bet does on every deal no rule takes."""

    event: str = LOSE
    label: str = "Anything else"
    pays: Prize = LOSE

    _event_id = field_validator("event")(lambda v: event_id(v))


def _rules(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


class PokerSideBet(Strict):
    """A side bet over the cards: its rules in order, and what every other deal does (lose, unless told).
    A game subclasses it with its positions (``POSITIONS``: name -> the game's slots it covers)."""

    POSITIONS: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    SLOTS: ClassVar[Mapping[str, int]] = {}  # the game's slots in dealing order, with their sizes

    title: str
    stake: Amount = Field(Fraction(1), description="the stake, for prizes written as amounts (default 1)")
    meter: Meter | None = None
    rules: Annotated[tuple[Rule, ...], BeforeValidator(_rules)]
    otherwise: Otherwise = Otherwise()
    notes: Annotated[tuple[str, ...], BeforeValidator(_rules)] = ()

    @field_validator("stake")
    @classmethod
    def _positive(cls, v: Fraction) -> Fraction:
        if v <= 0:
            raise ValueError("the stake must be more than 0")
        return v

    @model_validator(mode="after")
    def _check(self) -> PokerSideBet:
        if not self.rules:
            raise ValueError("a side bet needs at least one rule ([[pays.<wager>.rules]])")
        pays: dict[str, Fraction | str] = {self.otherwise.event: self.otherwise.pays}
        for i, r in enumerate(self.rules, start=1):
            where = f"rule {i} ({r.event!r})"
            if r.event == self.otherwise.event:
                raise ValueError(f"{where}: event {r.event!r} is the otherwise's")
            if r.event in pays and pays[r.event] != r.pays:
                raise ValueError(f"{where}: an event shared by rules is one row and pays the same")
            pays[r.event] = r.pays
            for j, c in enumerate(r.cards_when, start=1):
                self._check_condition(f"{where}, condition {j}", c)
        shares = [e for e, p in pays.items() if isinstance(p, MeterShare)]
        if shares and self.meter is None:
            raise ValueError(f"{shares[0]} pays a share of the meter: add a [meter] block with its reset")
        if self.meter is not None and not shares:
            raise ValueError("a [meter] block needs a rule that pays a share of the meter (e.g. \"100% meter\")")
        return self

    def _check_condition(self, where: str, c: Condition) -> None:
        unknown = [p for p in c.cards if p not in self.POSITIONS]
        if unknown:
            raise ValueError(f"{where}: unknown position {unknown[0]!r}; positions: {', '.join(self.POSITIONS)}")
        n = sum(self.SLOTS[s] for s in self.slots_of(c.cards))
        if c.hand is not None and n < 3:
            raise ValueError(f"{where}: hand needs at least three cards; {', '.join(c.cards)} hold {n}")
        if c.hand is not None and n < 5 and any(h in (HandClass.FULL_HOUSE,) or (n == 3 and h in (
                HandClass.FOUR_OF_A_KIND, HandClass.TWO_PAIR)) for h in c.hand):
            raise ValueError(f"{where}: {n} cards are never a {c.hand[-1].value}")
        if c.hand_at_least is not None and n < 5:
            raise ValueError(f"{where}: hand_at_least reads the best five cards; {', '.join(c.cards)} hold {n}")
        if c.same is not None and n < 2:
            raise ValueError(f"{where}: same needs at least two cards; {', '.join(c.cards)} hold {n}")
        for key in ("count", "at_least"):
            k = getattr(c, key)
            if k is not None and k > n:
                raise ValueError(f"{where}: {key} = {k} is more than the {n} card(s) of {', '.join(c.cards)}")

    @classmethod
    def slots_of(cls, positions: tuple[str, ...]) -> tuple[str, ...]:
        """The game's slots the positions cover, in dealing order (a slot named twice is read once)."""
        wanted = {s for p in positions for s in cls.POSITIONS[p]}
        return tuple(s for s in cls.SLOTS if s in wanted)

    @property
    def reads_suits(self) -> bool:
        """Whether some condition names a suit or a colour."""
        return any(c.reads_suits for r in self.rules for c in r.cards_when)

    def count_key(self) -> list[list[dict[str, Any]]]:
        """The conditions as plain data: all the count depends on, with the deck (never the pays)."""
        return [[c.key() for c in r.cards_when] for r in self.rules]

    def pay_items(self) -> dict[str, Fraction]:
        """The pays that are numbers, by event (what ``solve`` and the symbolic EV vary)."""
        return {r.event: r.pays for r in self.rules if isinstance(r.pays, Fraction)}

    def meter_shares(self) -> dict[str, Fraction]:
        """The rules' prizes that are shares of the meter, by event."""
        return {r.event: r.pays for r in self.rules if isinstance(r.pays, MeterShare)}

    def with_pay(self, event: str, value: Fraction) -> PokerSideBet:
        """The same bet with one event's pay replaced."""
        if not any(r.event == event for r in self.rules):
            raise KeyError(event)
        rules = tuple(r.model_copy(update={"pays": value}) if r.event == event else r for r in self.rules)
        return self.model_copy(update={"rules": rules})


def side_bet_ids(extra: Mapping[str, Any], taken: tuple[str, ...]) -> None:
    """Side bet names are ids, and not a fixed block's."""
    for key in extra:
        event_id(key)
        if key in taken:
            raise ValueError(f"{key!r} is a fixed block of [pays]")
