"""Games of the stud family declared in a game file, simulated: the games with a dealer (Three Card Poker, Caribbean
Stud as a file, any file of that shape). A round deals the player's cards and the dealer's (his up cards first);
the player folds or bets as the exact engine's solved strategy says; each bet is settled by the file's rules.

The strategy is the exact analysis's (its ``play`` decisions: one per suit pattern of the player's cards and, where
the dealer shows cards, of his up cards with them), read as data, as house baccarat's chart is: each point named by
its cards (the decision's words, parsed back), looked up per round by a suit-relabelling key. Nothing is solved
again. Everything else is the simulator's own: the dealing, the hands' strengths (``evaluator``), the qualifier as a
strength, and the settlement of every bet by the pays the validated file declares.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from oddscalc.cards import FULL_DECK, Deck, parse_cards
from oddscalc.games.stud.table import BonusPays, MainPays, SideBet, StudTable, parse_qualifier
from oddscalc.protocol import OptionError
from oddscalc.results import Analysis, RunOptions
from oddscalc.simulate.arrays import FloatArray, IntArray
from oddscalc.simulate.dealing import deal
from oddscalc.simulate.evaluator import (
    CATEGORY_NAMES,
    STRAIGHT_FLUSH,
    THREE_NAMES,
    THREE_STRAIGHT_FLUSH,
    category_of,
    is_royal,
    strength,
    strength_floor,
    three_card_category,
    three_card_floor,
    three_card_strength,
    three_card_top,
)
from oddscalc.simulate.plan import Outcome, Outcomes, Plan
from oddscalc.tables import Table

# class indices of each ranking: the evaluator's categories, then the best hand named apart for the pay tables
FIVE = (*CATEGORY_NAMES, "royal_flush")
THREE = (*THREE_NAMES, "mini_royal")
_PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)  # the 24 suit relabellings


def joint_keys(player: IntArray, up: IntArray) -> IntArray:
    """A key per round of the player's cards (n, P) and the dealer's up cards (n, U), equal for two rounds exactly
    when a suit relabelling maps one onto the other (each set onto its own): the smallest base-52 code of the two
    sorted sets over the 24 relabellings."""
    both = np.concatenate([player, up], axis=1).astype(np.int64)
    p = player.shape[1]
    relabelled = (both >> 2)[None] * 4 + _PERMS[:, both & 3]  # (24, n, P + U)
    relabelled[..., :p].sort(axis=-1)
    relabelled[..., p:].sort(axis=-1)
    codes = relabelled @ (52 ** np.arange(both.shape[1], dtype=np.int64))
    return np.asarray(codes.min(axis=0), dtype=np.int64)


def strengths(cards: IntArray, ranking: str) -> IntArray:
    """Each row's strength by ``ranking``: three cards, or the best five of five or more."""
    if ranking == "three-card":
        return three_card_strength(cards)
    k = cards.shape[1]
    fives = np.stack([strength(cards[:, list(s)]) for s in itertools.combinations(range(k), 5)])
    return np.asarray(fives.max(axis=0), dtype=np.int64)


def class_index(s: IntArray, ranking: str) -> IntArray:
    """Each strength's class, an index into ``THREE`` or ``FIVE`` (the best hand of each named apart)."""
    if ranking == "three-card":
        top = (three_card_category(s) == THREE_STRAIGHT_FLUSH) & (three_card_top(s) == 12)
        return np.where(top, len(THREE) - 1, three_card_category(s))
    return np.where(is_royal(s), len(FIVE) - 1, category_of(s))


def floor_of(qualifier: str, ranking: str) -> int:
    """The weakest strength that qualifies the dealer, from the file's words ("queen-high", "ace-king")."""
    cls, ranks = parse_qualifier(qualifier, ranking)
    if ranking == "three-card":
        if cls == "mini_royal":
            return three_card_floor(THREE_STRAIGHT_FLUSH, (12,))
        return three_card_floor(THREE_NAMES.index(cls), ranks)
    if cls == "royal_flush":
        return strength_floor(STRAIGHT_FLUSH, (12,))
    return strength_floor(CATEGORY_NAMES.index(cls), ranks)


def pay_vector(block: BonusPays | None, names: tuple[str, ...], default: float) -> FloatArray:
    """Each class's pay from ``block`` (``default`` for a class it does not pay)."""
    return np.array([float(p) if block is not None and (p := block.pay_of(n)) is not None else default
                     for n in names], dtype=np.float64)


@dataclass(frozen=True)
class Dealt:
    """What a round of a dealer game deals and how each bet settles, read from a game file."""

    player: int  # the player's cards
    dealer: int  # the dealer's cards, his up cards first
    up: int  # the dealer's cards face up at the decision
    ranking: str
    floor: int  # the weakest strength that qualifies the dealer
    pays: MainPays
    bet: int  # the one bet size a play adds, in antes
    sides: tuple[tuple[str, SideBet], ...]

    @classmethod
    def of(cls, model: StudTable) -> Dealt:
        """The file's deal and pays (a decision with one bet size: the analysis's decisions say play or fold)."""
        r = model.rules
        if r.dealer_qualifier is None:
            raise ValueError(f"{r.name} has no dealer")
        if any(s.community for s in r.stages):  # its deal has no board: never a game it would play as another
            raise OptionError(f"simulate plays a game with a dealer and no community cards; {r.name} deals "
                              "community cards (not yet)")
        decisions = [(i, s.decision) for i, s in enumerate(r.stages) if s.decision is not None]
        (first, decision), = decisions
        if len(decision.bets) != 1 or 0 in decision.bets:
            raise OptionError(f"simulate plays a game with a dealer whose decision is fold or one bet size; {r.name} "
                              f"allows {', '.join(map(str, decision.bets))} antes (not yet)")
        up = sum(s.dealer_up for s in r.stages[:first + 1])
        sides = tuple((model.pays.model_extra or {}).items())
        # the evaluator here ranks three cards and the best five: a four-card hand would be ranked as five, wrongly
        if "four-card" in (r.ranking, *(side.ranking for _, side in sides)):
            raise OptionError(f"simulate ranks three-card and five-card hands; {r.name} ranks the best four (not yet)")
        return cls(r.player_cards, r.dealer_cards, up, r.ranking, floor_of(r.dealer_qualifier, r.ranking),
                   model.pays.main, decision.bets[0], sides)

    def settle(self, cards: IntArray, play: np.ndarray) -> Outcomes:
        """Every bet of each round: ``cards`` (n, P + D) the player's then the dealer's (up cards first), ``play``
        (n,) whether the player bets. The main bet per ante (fold -1; a dealer who does not qualify pays the ante
        and the bets as the file says; a win pays the ante, and each bet by the player's class where the file
        names it; equal hands push both, or win where the file's ``tie`` says so; the ante bonus paid by his class
        whenever he plays); each side bet by
        the class of its cards."""
        names = THREE if self.ranking == "three-card" else FIVE
        player, dealer = cards[:, :self.player], cards[:, self.player:self.player + self.dealer]
        mine, his = strengths(player, self.ranking), strengths(dealer, self.ranking)
        cls = class_index(mine, self.ranking)
        p, b = self.pays, self.bet
        bonus = pay_vector(p.ante_bonus, names, 0.0)[cls]
        bet_pay = pay_vector(p.bet_win_by_hand, names, float(p.bet_win))[cls]
        nq = (float(p.ante_win) if p.ante_when_dealer_does_not_qualify == "win" else 0.0) + (
            b * float(p.bet_win) if p.bets_when_dealer_does_not_qualify == "win" else 0.0)
        qualifies = his >= self.floor
        wins = (mine > his) | ((mine == his) & (p.tie == "win"))  # Four Card Poker's ties go to the player
        net = np.select([~qualifies, wins, mine == his],
                        [nq + bonus, float(p.ante_win) + b * bet_pay + bonus, bonus], bonus - 1 - b)
        net = np.where(play, net, -1.0)
        out = {"main": Outcome(net, stake=np.where(play, 1.0 + b, 1.0))}
        for name, side in self.sides:
            held = player if side.cards == "player" else cards[:, :self.player + self.dealer]
            side_names = THREE if side.ranking == "three-card" else FIVE
            k = class_index(strengths(held, side.ranking), side.ranking)
            out[name] = Outcome(pay_vector(side, side_names, -1.0)[k])
        return out


class Strategy:
    """The analysis's ``play`` decisions, looked up per round by the suit pattern of what the player has seen."""

    def __init__(self, analysis: Analysis, player: int, up: int):
        play = analysis.decision("play")
        values = np.asarray(play.array(), dtype=bool)
        points = np.array([self._parse(play.describe(i), player, up) for i in range(len(values))],
                          dtype=np.int64).reshape(len(values), player + up)
        keys = joint_keys(points[:, :player], points[:, player:])
        order = np.argsort(keys, kind="stable")
        self.keys, self.play = keys[order], values[order]
        same = self.keys[1:] == self.keys[:-1]
        if (self.play[1:][same] != self.play[:-1][same]).any():  # suit-equivalent points decided apart: no strategy
            raise ValueError("the analysis decides suit-equivalent points differently")
        self.player = player

    @staticmethod
    def _parse(text: str, player: int, up: int) -> tuple[int, ...]:
        """A point's cards from its words: "Qs 6d 4c", or "As Kd Qh Jc 9s against 7h" where the dealer shows."""
        mine, _, shown = text.partition(" against ")
        cards = parse_cards(mine) + (parse_cards(shown) if shown else ())
        if len(cards) != player + up:
            raise ValueError(f"a decision point {text!r} is not {player} cards and {up} up")
        return cards

    def lookup(self, player: IntArray, up: IntArray) -> np.ndarray:
        """Whether the player bets in each round."""
        keys = joint_keys(player, up)
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        if (self.keys[at] != keys).any():
            raise ValueError("a round's cards match no decision point of the analysis")
        return np.asarray(self.play[at], dtype=bool)


def dealer_plan(model: StudTable, analysis: Analysis, deck: Deck = FULL_DECK) -> Plan:
    """The plan of a game with a dealer, its strategy read from ``analysis`` (of ``deck``)."""
    dealt = Dealt.of(model)
    strategy = Strategy(analysis, dealt.player, dealt.up)
    shoe = np.array(deck.cards, dtype=np.int8)
    k = dealt.player + dealt.dealer

    def play(rng: np.random.Generator, n: int) -> Outcomes:
        cards = deal(rng, shoe, n, k)  # the player's cards, then the dealer's, his up cards first
        bets = strategy.lookup(cards[:, :dealt.player], cards[:, dealt.player:dealt.player + dealt.up])
        return dealt.settle(cards, bets)

    what = "his cards and the dealer's up cards" if dealt.up else "his cards"
    shown = {"player_cards": dealt.player, "dealer_cards": dealt.dealer, "dealer_up": dealt.up,
             "dealer_qualifier": model.rules.dealer_qualifier, "bet": f"{dealt.bet}x ante or fold"}
    return Plan(play, f"optimal: the exact analysis's play-or-fold decision on {what} (its solved strategy, read "
                      "as data); every bet settled by the simulator's own evaluator", RunOptions(), shown,
                chunk=50_000)


def plan(table: Table, options: RunOptions) -> tuple[Plan, Analysis]:
    """Count and solve the game exactly once (the report's analysis, from the store when it has it), then play
    its decisions."""
    from oddscalc.analysis import Session

    model = table.model
    assert isinstance(model, StudTable)
    Dealt.of(model)  # a file it cannot play is refused before the count
    analysis = Session(table.game, RunOptions(progress=options.progress)).analyze(table)
    return dealer_plan(model, analysis, FULL_DECK), analysis
