"""A stud-family game file: the game's deal, decisions, qualifier and pays, as validated TOML (never code).

A game file is a table file (``tables/<game>/<id>.toml``) whose ``[rules]`` say ``family = "stud"`` and declare
how the game plays; its ``[pays]`` how each bet settles. The keys are documented in ``docs/game-files.md``. The
model validates what a file can say; what the engine can count today is checked by :func:`engine_problems`
(a file the engine cannot count yet is refused with its key, never miscounted).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import ClassVar, Literal

from pydantic import ConfigDict, Field, ValidationInfo, field_validator, model_validator

from oddscalc.cards import parse_rank
from oddscalc.hands import HAND_CLASSES
from oddscalc.hands.four import FOUR_CLASSES
from oddscalc.hands.three import THREE_CLASSES
from oddscalc.tables import Ratio, Strict, TableModel

RANKINGS = ("three-card", "four-card", "five-card")
Ranking = Literal["three-card", "four-card", "five-card"]
CLASSES: dict[str, tuple[str, ...]] = {  # each ranking's hand classes, best first (the pay keys)
    "three-card": THREE_CLASSES,
    "four-card": FOUR_CLASSES,  # Four Card Poker's order: four of a kind > straight flush > three of a kind > ...
    "five-card": tuple(c.value for c in HAND_CLASSES),
}
HAND_SIZE = {"three-card": 3, "four-card": 4, "five-card": 5}
BEST_OF = {"four-card": range(4, 7)}  # a ranking compared on the best of more cards: the hand sizes counted


def parse_qualifier(text: str, ranking: str) -> tuple[str, tuple[int, ...]]:
    """"queen-high" -> ("high_card", (Q,)); "pair of fours" -> ("pair", (4,)); "ace-king" -> ("high_card", (A, K));
    "any" -> ("high_card", ()); a class name ("pair", "flush") -> that class with any ranks."""
    t = text.strip().lower().replace("_", " ").replace("-", " ")
    m = re.fullmatch(r"(?:a )?pair of (\w+)", t)
    if m:
        return "pair", (parse_rank(m.group(1)),)
    m = re.fullmatch(r"(\w+) high", t)
    if m:
        return "high_card", (parse_rank(m.group(1)),)
    parts = t.split()
    if len(parts) == 2 and all(p not in ("of", "high") for p in parts) and "_".join(parts) not in CLASSES[ranking]:
        hi, lo = parse_rank(parts[0]), parse_rank(parts[1])
        if hi > lo:
            return "high_card", (hi, lo)
    if t in ("any", "none"):
        return "high_card", ()
    if t.replace(" ", "_") in CLASSES[ranking]:
        return t.replace(" ", "_"), ()
    raise ValueError(f"not a qualifier: {text!r} (e.g. 'queen-high', 'ace-king', 'pair of fours', 'any')")


class Decision(Strict):
    """What the player may do after a stage: fold, or bet one of ``bets`` (multiples of the ante; 0 is a check:
    add nothing and see the next card)."""

    bets: list[int] = Field(min_length=1, description="bet sizes allowed, as multiples of the ante (0: a check)")
    fold: bool = True

    @model_validator(mode="after")
    def _sizes(self) -> Decision:
        if any(b < 0 or b > 100 for b in self.bets) or len(set(self.bets)) != len(self.bets):
            raise ValueError("bets are distinct whole multiples of the ante from 0 (a check) to 100")
        return self


class Stage(Strict):
    """One stage of the deal: the cards dealt (to the player, the board, the dealer face up or down), then the
    player's decision when there is one."""

    player: int = Field(0, ge=0, le=7)
    community: int = Field(0, ge=0, le=5)
    dealer_up: int = Field(0, ge=0, le=5)
    dealer_down: int = Field(0, ge=0, le=7)
    decision: Decision | None = None

    def dealt(self) -> int:
        """Cards dealt at this stage."""
        return self.player + self.community + self.dealer_up + self.dealer_down


class StudRules(Strict):
    """The ``[rules]`` of a stud-family game: deck, ranking, the deal by stage, the dealer's qualifier."""

    family: Literal["stud"]
    name: str = Field(min_length=1, max_length=80, description="the game's name, as reports and the CLI show it")
    deck: Literal["standard"] = "standard"
    ranking: Ranking
    stages: list[Stage] = Field(min_length=1)
    dealer_qualifier: str | None = Field(None, description="the lowest hand the dealer plays with; none: no dealer")
    # left out (None) as false: the published figures' fingerprints of the files written before this key stay
    raise_once: bool | None = Field(None, description="against a dealer: a bet made at one decision ends the "
                                                      "player's decisions (one raise at most, Ultimate Texas Hold'em)")

    @field_validator("dealer_qualifier")
    @classmethod
    def _qualifier(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None:
            parse_qualifier(value, str(info.data.get("ranking", "five-card")))
        return value

    @model_validator(mode="after")
    def _deal(self) -> StudRules:
        if sum(s.dealt() for s in self.stages) > 52:
            raise ValueError("the stages deal more than 52 cards")
        if not any(s.decision for s in self.stages):
            raise ValueError("a game of the family has at least one decision (a stage with a decision)")
        return self

    @property
    def dealer_cards(self) -> int:
        """Cards the dealer holds at the end."""
        return sum(s.dealer_up + s.dealer_down for s in self.stages)

    @property
    def player_cards(self) -> int:
        """Cards the player holds at the end (own and community)."""
        return sum(s.player + s.community for s in self.stages)

    @property
    def community_cards(self) -> int:
        """Community cards dealt."""
        return sum(s.community for s in self.stages)


class BonusPays(Strict):
    """A pay for some hand classes of the ranking ("40:1"); a class not named pays nothing (a side bet loses,
    an ante bonus adds nothing)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    mini_royal: Ratio | None = None
    royal_flush: Ratio | None = None
    straight_flush: Ratio | None = None
    four_of_a_kind: Ratio | None = None
    full_house: Ratio | None = None
    flush: Ratio | None = None
    straight: Ratio | None = None
    three_of_a_kind: Ratio | None = None
    two_pair: Ratio | None = None
    pair: Ratio | None = None

    def pays(self) -> dict[str, Fraction]:
        """The classes paid and their pays, best first as declared."""
        return {k: v for k, v in self if isinstance(v, Fraction)}

    def paid_as(self, name: str) -> str | None:
        """The pay key a hand of class ``name`` is paid by: its own, or a straight flush's for a mini royal not
        named (it is one); None when neither is paid."""
        paid = self.pays()
        key = "straight_flush" if name == "mini_royal" and name not in paid else name
        return key if key in paid else None

    def pay_of(self, name: str) -> Fraction | None:
        """What a hand of class ``name`` is paid (see :meth:`paid_as`), None when nothing."""
        key = self.paid_as(name)
        return self.pays()[key] if key is not None else None


class MainPays(Strict):
    """How the ante and the bets made at the decisions settle: against the dealer, or (no dealer) every bet by the
    player's final hand (``hand``)."""

    ante_win: Ratio = Fraction(1)  # the ante when the player beats a qualifying dealer
    bet_win: Ratio = Fraction(1)  # each bet made at a decision when the player beats a qualifying dealer
    # equal hands against a qualifying dealer: both push (left out: the default, which keeps the published figures'
    # fingerprints of the files written before this key), or the player wins the ante and the bets (Four Card Poker)
    tie: Literal["push", "win"] | None = Field(None, description='equal hands against a qualifying dealer: "push" '
                                               '(left out: the same) or "win" (the ante and the bets paid)')
    # "compare": settled against the dealer's hand as if he qualified (Ultimate Texas Hold'em's play bet)
    ante_when_dealer_does_not_qualify: Literal["win", "push", "compare"] = "win"
    bets_when_dealer_does_not_qualify: Literal["win", "push", "compare"] = "push"
    # a second forced bet of one ante (Ultimate Texas Hold'em's blind): when the player beats the dealer (qualified
    # or not) paid by his final class where named, pushed otherwise; pushed on equal hands; lost when he loses or
    # folds
    blind: BonusPays | None = None
    ante_bonus: BonusPays | None = None  # paid on the ante by the player's hand when he plays, whatever the dealer
    # each bet made at a decision, when the player beats a qualifying dealer: paid by his hand's class where named
    # (Caribbean Stud's raise), at ``bet_win`` otherwise
    bet_win_by_hand: BonusPays | None = None
    # the ante, whenever it is won (the player beats a qualifying dealer, or the dealer does not qualify and the ante
    # wins), paid by the player's hand class where named, at ``ante_win`` otherwise (Casino Hold'em's ante table)
    ante_win_by_hand: BonusPays | None = None
    hand: BonusPays | None = None  # no dealer: every bet paid by the final hand's class; a class not named loses
    pair_minimum: str | None = Field(None, description='the lowest pair "hand.pair" pays: a rank, e.g. "jacks"')
    push_pair_minimum: str | None = Field(None, description="the lowest pair that pushes (pairs from it up to the "
                                                            "paying ones push; lower pairs lose)")

    @model_validator(mode="after")
    def _pairs(self) -> MainPays:
        for value in (self.pair_minimum, self.push_pair_minimum):
            if value is not None:
                parse_rank(value)
        if self.push_pair_minimum is not None and self.pair_minimum is not None and \
                parse_rank(self.push_pair_minimum) > parse_rank(self.pair_minimum):
            raise ValueError("push_pair_minimum is above pair_minimum")
        return self

    def pay_items(self) -> dict[str, Fraction]:
        """The pays the rows are paid by, as ``<block>.<class>`` (``hand.royal_flush``, ``ante_bonus.straight``):
        what ``solve`` and ``pays=`` name after ``main.``. The ante's and the bets' win odds are not here: a row
        against the dealer is paid by both at once (a row names one pay); they stay changeable by ``pays=``."""
        return {f"{name}.{k}": v for name in ("hand", "ante_bonus")
                if (block := getattr(self, name)) is not None for k, v in block.pays().items()}

    def with_pay(self, key: str, value: Fraction) -> MainPays:
        """The same pays with one of :meth:`pay_items` (``hand.<class>``) or a field of its own replaced."""
        name, _, cls = key.partition(".")
        if not cls:
            return self.model_copy(update={key: value})
        block = getattr(self, name)
        return self.model_copy(update={name: block.model_copy(update={cls: value})})


class SideBet(BonusPays):
    """A side bet paid by the class of some cards, regardless of the dealer and of the player's decisions."""

    cards: Literal["player", "player_and_dealer"] = "player"
    ranking: Ranking  # five-card: the best five of the cards; four-card: the best four
    # the lowest pair the bet pays (a rank, "aces": Four Card Poker's Aces Up); lower pairs lose. Four-card only.
    pair_minimum: str | None = Field(None, description='the lowest pair "pair" pays: a rank, e.g. "aces"')

    @model_validator(mode="after")
    def _pair(self) -> SideBet:
        if self.pair_minimum is not None:
            parse_rank(self.pair_minimum)
            if self.ranking != "four-card":
                raise ValueError("pair_minimum on a side bet is counted for the four-card ranking only")
        return self


class StudPays(Strict):
    """The ``[pays]`` of a stud-family game: ``main`` (ante and bets) and any number of side bets by name."""

    model_config = ConfigDict(extra="allow", frozen=True, strict=True)
    __pydantic_extra__: dict[str, SideBet] = Field(init=False)
    main: MainPays


class StudTable(TableModel):
    """A stud-family game file."""

    GAME: ClassVar[str] = ""  # each file-declared game has its own key; the model is shared
    rules: StudRules
    pays: StudPays

    @model_validator(mode="after")
    def _classes(self) -> StudTable:
        problems = [f"pays.main.ante_bonus: {p}" for p in _unknown(self.pays.main.ante_bonus, self.rules.ranking)]
        problems += [f"pays.main.hand: {p}" for p in _unknown(self.pays.main.hand, self.rules.ranking)]
        problems += [f"pays.main.bet_win_by_hand: {p}"
                     for p in _unknown(self.pays.main.bet_win_by_hand, self.rules.ranking)]
        problems += [f"pays.main.ante_win_by_hand: {p}"
                     for p in _unknown(self.pays.main.ante_win_by_hand, self.rules.ranking)]
        problems += [f"pays.main.blind: {p}" for p in _unknown(self.pays.main.blind, self.rules.ranking)]
        for name, bet in (self.pays.model_extra or {}).items():
            if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
                problems.append(f"pays.{name}: a side bet's name is lower case letters, digits and _")
            problems += [f"pays.{name}: {p}" for p in _unknown(bet, bet.ranking)]
        if problems:
            raise ValueError("; ".join(problems))
        return self


def _unknown(block: BonusPays | None, ranking: str) -> list[str]:
    if block is None:
        return []
    return [f"{k} is not a class of the {ranking} ranking ({', '.join(CLASSES[ranking])})"
            for k in block.pays() if k not in CLASSES[ranking]]


def engine_problems(rules: StudRules, pays: MainPays) -> list[tuple[str, str]]:
    """(key, why) for each thing a valid game file declares that this engine version cannot count yet (or that
    cannot be settled: a dealer-less game with no hand pays)."""
    if (pays.hand is None) == (rules.dealer_qualifier is None):
        return [("pays.main.hand", "a game with a dealer (rules.dealer_qualifier) settles against him; a game without "
                                   "one pays every bet by the final hand ([pays.main.hand]): one or the other")]
    if rules.dealer_qualifier is None:
        return _streets_problems(rules)
    if any(s.community for s in rules.stages):
        return _board_problems(rules, pays)
    out = _board_only(rules, pays)
    decisions = [i for i, s in enumerate(rules.stages) if s.decision is not None]
    if len(decisions) != 1:
        out.append(("rules.stages", "this engine version counts games with a dealer and one decision"))
    first = decisions[0] if decisions else 0
    if any(0 in d.bets for s in rules.stages if (d := s.decision) is not None):
        out.append(("rules.stages", "a check (bet 0) against a dealer is not counted by this engine version yet"))
    if pays.tie == "win" and dealer_up_seen(rules) == 0:
        out.append(("pays.main.tie", "a tie won by the player is counted for a dealer with up cards only (the "
                                     "three-card count settles equal hands as a push)"))
    if any(s.player for s in rules.stages[first + 1:]):
        out.append(("rules.stages", "player cards after the decision are not counted by this engine version yet"))
    size = HAND_SIZE[rules.ranking]
    best = BEST_OF.get(rules.ranking)
    if best is not None:
        if rules.player_cards not in best or rules.dealer_cards not in best:
            out.append(("rules.ranking", f"the {rules.ranking} ranking compares the best {size} of {best.start} to "
                                         f"{best.stop - 1} cards: the player and the dealer each get that many"))
    elif rules.player_cards != size or rules.dealer_cards != size:
        out.append(("rules.ranking", f"the {rules.ranking} ranking compares hands of {size} cards: the player and "
                                     f"the dealer each get {size} (best-of-more hands are not counted yet)"))
    return out


def _board_only(rules: StudRules, pays: MainPays) -> list[tuple[str, str]]:
    """The keys only the count with community cards settles, where a game without them says one."""
    asked = {"pays.main.ante_win_by_hand": pays.ante_win_by_hand is not None, "pays.main.blind": pays.blind is not None,
             "pays.main.ante_when_dealer_does_not_qualify": pays.ante_when_dealer_does_not_qualify == "compare",
             "pays.main.bets_when_dealer_does_not_qualify": pays.bets_when_dealer_does_not_qualify == "compare",
             "rules.raise_once": rules.raise_once}
    return [(key, "counted for a game with community cards beside the dealer only (this engine version)")
            for key, said in asked.items() if said]


def dealer_up_seen(rules: StudRules) -> int:
    """The dealer's cards face up by the (one) decision: the up cards the player decides on."""
    first = next((i for i, s in enumerate(rules.stages) if s.decision is not None), 0)
    return sum(s.dealer_up for s in rules.stages[:first + 1])


def _streets_problems(rules: StudRules) -> list[tuple[str, str]]:
    """A game without a dealer: the player's first cards, then one card a stage; a decision (bets, a check, a
    fold where allowed) after any stage but the last."""
    out: list[tuple[str, str]] = []
    if rules.ranking != "five-card" or rules.player_cards != 5:
        out.append(("rules.ranking", "a game without a dealer is counted on five cards ranked five-card"))
    if rules.dealer_cards:
        out.append(("rules.stages", "a game without a dealer deals him no cards"))
    stages = rules.stages
    if stages[-1].decision is not None:
        out.append(("rules.stages", "the last stage's decision would decide nothing: no card follows it"))
    if any(s.dealt() != 1 for s in stages[1:]) or not 1 <= stages[0].dealt() <= 4:
        out.append(("rules.stages", "this engine version counts a first stage of one to four cards, then one card "
                                    "a stage (a decision after any stage but the last)"))
    return out


def decision_points(rules: StudRules) -> list[tuple[int, int]]:
    """At each decision, in order: the player's cards and the community cards dealt by then."""
    out, player, board = [], 0, 0
    for s in rules.stages:
        player, board = player + s.player, board + s.community
        if s.decision is not None:
            out.append((player, board))
    return out


def board_shape(rules: StudRules) -> tuple[int, int, int, int, int]:
    """A game with community cards beside a dealer: (the player's cards and the community cards seen at the last
    decision, the player's and the community's dealt after it, the dealer's): what its last count depends on."""
    (p, b), *_ = decision_points(rules)[::-1] or [(0, 0)]
    return p, b, rules.player_cards - rules.community_cards - p, rules.community_cards - b, rules.dealer_cards


def _board_problems(rules: StudRules, pays: MainPays) -> list[tuple[str, str]]:
    """Community cards beside a dealer (:mod:`oddscalc.games.stud.board`): the player's cards and the board seen
    at each decision (fold, a check or a bet), the rest unseen, the best five of each hand's cards."""
    out: list[tuple[str, str]] = []
    decisions = [s.decision for s in rules.stages if s.decision is not None]
    if len(decisions) > 1 and not rules.raise_once:
        out.append(("rules.raise_once", "several decisions against a dealer are counted with one raise at most: "
                                        "a bet ends the decisions (say raise_once = true)"))
    if any(s.dealer_up for s in rules.stages):
        out.append(("rules.stages", "community cards beside a dealer who shows up cards are not counted yet"))
    if rules.ranking != "five-card":
        out.append(("rules.ranking", "community cards beside a dealer are counted for the five-card ranking (the "
                                     "best five of each hand's cards)"))
    p0, b0, pl, bl, d = board_shape(rules)
    board = b0 + bl
    if not (5 <= p0 + pl + board <= 7 and 5 <= d + board <= 7):
        out.append(("rules.stages", f"community cards beside a dealer: the player's hand is {p0 + pl} of his own "
                                    f"and {board} community cards, the dealer's {d} and {board}: each is counted "
                                    "on 5 to 7 cards"))
    if pays.ante_bonus is not None or pays.bet_win_by_hand is not None:
        out.append(("pays.main", "community cards beside a dealer: the ante is paid by hand "
                                 "([pays.main.ante_win_by_hand]); an ante bonus or a bet paid by hand is not counted "
                                 "there yet"))
    return out
