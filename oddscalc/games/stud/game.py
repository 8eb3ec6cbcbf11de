"""The stud family's registered class: one per game file, built from the game's key (no game-specific code).

``oddscalc.games.stud.game:three_card_poker`` names the class of the game in ``tables/three-card-poker/`` (the
module builds it on first use, from the declaration :mod:`oddscalc.games.stud.capabilities` read). Every game of
the family resolves, counts and settles the same way: the counting argument is in :mod:`.count` and
:mod:`.settle`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, Deck, cards_str, parse_rank
from oddscalc.datafile import Problem, TableError
from oddscalc.games.stud import board_settle, dealer_settle
from oddscalc.games.stud.board import Shape, pair_class_count
from oddscalc.games.stud.board_levels import MAX_CARDS, BoardCounts, count_levels, levels_of
from oddscalc.games.stud.capabilities import declared
from oddscalc.games.stud.count import MAIN_ARRAYS, MainCounts, class_counts, count_three_card
from oddscalc.games.stud.dealer import DEALER_ARRAYS, DealerCounts, cost, count_dealer
from oddscalc.games.stud.sections import by_hand_section, closest_section, strategy_section
from oddscalc.games.stud.settle import FOLD, decide, main_wager, side_wager
from oddscalc.games.stud.streets import Streets, count_streets, multipliers, share_section, solve
from oddscalc.games.stud.streets import by_hand_section as streets_by_hand
from oddscalc.games.stud.streets import rows as streets_rows
from oddscalc.games.stud.table import (
    SideBet,
    StudRules,
    StudTable,
    board_shape,
    dealer_up_seen,
    decision_points,
    engine_problems,
    parse_qualifier,
)
from oddscalc.progress import Progress
from oddscalc.protocol import Capabilities, OptionError, Rules, count_key
from oddscalc.results import Analysis, Chart, Decisions, RunOptions, WagerResult
from oddscalc.results.verdict import rarity_from_rows
from oddscalc.tables import Table, TableModel


@dataclass(frozen=True)
class StudRun(Rules):
    """A game file resolved for a run."""

    deck: Deck

    @property
    def model(self) -> StudTable:
        """The game file's model."""
        model = self.table.model
        assert isinstance(model, StudTable)
        return model

    def count_key(self) -> dict[str, Any]:
        """What the main counts depend on: the deck, the ranking, the cards dealt and the qualifier (no pays)."""
        r = self.model.rules
        deck = [list(self.deck.ranks), self.deck.n_suits]
        if r.dealer_qualifier is None:  # a dealer-less game: the first decision's cards, then one card a stage
            return {"deck": deck, "streets": r.stages[0].dealt()}
        cls, ranks = parse_qualifier(r.dealer_qualifier, r.ranking)
        if has_board(r):
            return {"deck": deck, "ranking": r.ranking, "board": list(board_shape(r)), "qualifier": [cls, list(ranks)],
                    "decisions": [list(p) for p in decision_points(r)]}
        key = {"deck": deck, "ranking": r.ranking, "player": r.player_cards, "dealer": r.dealer_cards,
               "qualifier": [cls, list(ranks)]}
        return key | ({"up": dealer_up_seen(r)} if by_up_cards(self.model) else {})  # (Three Card Poker's: as it was)

    def shown(self) -> dict[str, Any]:
        """The rules as the report states them."""
        r = self.model.rules
        decisions = [s.decision for s in r.stages if s.decision is not None]
        board = r.community_cards if has_board(r) else 0
        # community cards beside a dealer: each hand is the best of its own cards and the board's, so say both
        own: dict[str, Any] = {"player_cards": r.player_cards, "dealer_cards": r.dealer_cards} if not board else {
            "player_cards": f"{r.player_cards - board} and the {board} community cards",
            "dealer_cards": f"{r.dealer_cards} and the {board} community cards"}
        return {"deck": self.deck.describe(), "ranking": r.ranking, **own,
                "dealer_qualifier": r.dealer_qualifier or "none",
                "bets": "; ".join(", ".join(f"{b}x ante" if b else "check" for b in d.bets) for d in decisions),
                # one answer where every decision gives the same (as before), else each decision's in order
                "fold": decisions[0].fold if len({d.fold for d in decisions}) == 1 else
                "; ".join("yes" if d.fold else "no" for d in decisions), "strategy": self.strategy}


@dataclass(frozen=True)
class StudCounts:
    """The main counts and each side bet's card sets by class (keyed ``<k>/<ranking>``)."""

    main: MainCounts | None  # a game with a dealer
    streets: Streets | None  # a game without one
    sides: dict[str, np.ndarray]
    dealer: DealerCounts | None = None  # a game with a dealer counted by up cards (``by_up_cards``)
    board: BoardCounts | None = None  # community cards beside a dealer (``has_board``)

    @property
    def total(self) -> int:
        """Every deal."""
        if self.board is not None:
            return self.board.total
        if self.dealer is not None:
            return self.dealer.total
        return self.main.total if self.main is not None else self.streets.total if self.streets is not None else 0


def has_board(r: StudRules) -> bool:
    """Whether a game with a dealer deals community cards (counted by :mod:`.board`)."""
    return r.dealer_qualifier is not None and any(s.community for s in r.stages)


def by_up_cards(model: StudTable) -> bool:
    """Whether a game with a dealer is counted per set of his up cards (:mod:`.dealer`): up cards seen, a five-card
    comparison or a bet paid by hand; Three Card Poker's kind keeps its own count (:mod:`.count`)."""
    r = model.rules
    return r.dealer_qualifier is not None and (dealer_up_seen(r) > 0 or r.ranking != "three-card"
                                               or model.pays.main.bet_win_by_hand is not None)


class StudGame:
    """A game of the stud family, as its game file declares it (subclassed per key by :func:`game_class`)."""

    key: ClassVar[str] = ""
    title: ClassVar[str] = ""
    default_table: ClassVar[str] = ""
    capabilities: ClassVar[Capabilities]
    options: ClassVar[frozenset[str]] = frozenset()
    strategies: ClassVar[tuple[str, ...]] = ("optimal",)
    engine_version: ClassVar[int] = 1
    table_model: ClassVar[type[TableModel]] = StudTable

    def resolve(self, table: Table, options: RunOptions) -> StudRun:
        """The game file's rules; a file this engine version cannot count is refused naming its key."""
        model = table.model
        assert isinstance(model, StudTable)
        problems = engine_problems(model.rules, model.pays.main)
        if has_board(model.rules):  # side bets beside a board: which cards they read is not said yet
            problems += [(f"pays.{name}", "a side bet in a game with community cards beside a dealer is not counted "
                                          "by this engine version yet") for name in model.pays.model_extra or {}]
        if problems:
            raise TableError([Problem(str(table.path), None, key, why) for key, why in problems])
        if options.strategy not in (None, "optimal"):
            raise OptionError(f"unknown strategy {options.strategy!r} for {self.key}; known: optimal")
        return StudRun(table=table, options=options, strategy="optimal", published_applies=options.deck is None,
                       deck=options.deck or FULL_DECK)

    def count(self, rules: StudRun, store: Store) -> StudCounts:
        """The pay-free counts, from the store when it has them."""
        r = rules.model.rules
        main, streets = None, None
        if r.dealer_qualifier is None:
            first = r.stages[0].dealt()
            arrays = store.get(count_key(self, rules), lambda: count_streets(rules.deck, first))
            streets = Streets(rules.deck, first, dict(arrays))
        elif has_board(r):
            return self._count_board(rules, store)
        elif by_up_cards(rules.model):
            return self._count_dealer(rules, store)
        else:
            qualifier = parse_qualifier(r.dealer_qualifier, r.ranking)
            arrays = store.get(count_key(self, rules), lambda: count_three_card(rules.deck, qualifier))
            main = MainCounts(rules.deck, r.player_cards, r.dealer_cards, **{k: arrays[k] for k in MAIN_ARRAYS})
        return StudCounts(main, streets, self._sides(rules, store))

    def _count_dealer(self, rules: StudRun, store: Store) -> StudCounts:
        """A game with a dealer counted per set of his up cards."""
        r = rules.model.rules
        assert r.dealer_qualifier is not None
        qualifier, up = parse_qualifier(r.dealer_qualifier, r.ranking), dealer_up_seen(r)

        def build() -> dict[str, np.ndarray]:
            refuse_heavy(self.key, rules.deck, r.player_cards, r.dealer_cards, up)  # only when the store lacks it
            progress = Progress(rules.options.progress, f"{self.key}: counting dealer hands")
            return count_dealer(rules.deck, r.ranking, r.player_cards, r.dealer_cards, up, qualifier,
                                progress=progress)

        arrays = store.get(count_key(self, rules), build)
        dealer = DealerCounts(rules.deck, r.player_cards, r.dealer_cards, up, **{k: arrays[k] for k in DEALER_ARRAYS})
        return StudCounts(None, None, self._sides(rules, store), dealer)

    def _count_board(self, rules: StudRun, store: Store) -> StudCounts:
        """A game with community cards beside a dealer, per suit class of what the player has seen."""
        r = rules.model.rules
        assert r.dealer_qualifier is not None
        qualifier, shape = parse_qualifier(r.dealer_qualifier, r.ranking), Shape(*board_shape(r))

        def build() -> dict[str, np.ndarray]:
            refuse_heavy_board(self.key, rules.deck, shape, len(points))  # only when the store lacks it
            return count_levels(rules.deck, points, shape, qualifier)

        points = decision_points(r)
        arrays = store.get(count_key(self, rules), build)
        return StudCounts(None, None, {}, board=levels_of(rules.deck, shape, arrays, len(points)))

    def _settle_board(self, b: BoardCounts, rules: StudRun) -> Analysis:
        """Community cards beside a dealer: the decision per seen pair by exact EV."""
        model = rules.model
        r, pays = model.rules, model.pays.main
        points = decision_points(r)
        played = board_settle.decide(b, pays, [s.decision for s in r.stages if s.decision is not None])
        wagers = (board_settle.main_wager(b, pays, played, r.name),)
        n = rules.deck.size
        parts: list[tuple[int, int, str]] = []
        held, player, board = 0, 0, 0
        for p, c in [*points, (r.player_cards - r.community_cards, r.community_cards)]:
            for k, what in ((p - player, "the player's {} cards" if not held else "{} more of the player's"),
                            (c - board, "{} community cards" if not board else "{} more community cards")):
                if k:
                    parts.append((k, n - held, what))
                    held += k
            player, board = p, c
        parts.append((r.dealer_cards, n - held, "the dealer's {}"))
        return Analysis(
            game=self.key, table=rules.table, rules=rules.shown(), published_applies=rules.published_applies,
            decisions=board_settle.decisions(b, played),
            convention=("one combination is one deal: " + ", ".join(what.format(k) for k, _, what in parts)
                        + " (each a set): " + " x ".join(f"C({m},{k})" for k, m, _ in parts) + f" = {b.total:,}"),
            wagers=wagers, sections=(board_settle.by_hand_section(b, played, pays),),
            assumptions=tuple(model.assumptions),
            rarity={ref: q for w in wagers for ref, q in rarity_from_rows(w).items()},
        )

    def _sides(self, rules: StudRun, store: Store) -> dict[str, np.ndarray]:
        """Each side bet's card sets by class."""
        r = rules.model.rules
        sides: dict[str, np.ndarray] = {}
        for bet in (rules.model.pays.model_extra or {}).values():
            k = r.player_cards + (r.dealer_cards if bet.cards == "player_and_dealer" else 0)
            name = side_key(k, bet)
            if name not in sides:
                key = {"game": "stud", "engine": self.engine_version, "side": name,
                       "deck": [list(rules.deck.ranks), rules.deck.n_suits]}
                low = parse_rank(bet.pair_minimum) if bet.pair_minimum is not None else None
                sides[name] = store.get(key, functools.partial(_side, rules.deck, k, bet.ranking, low))["sets"]
        return sides

    def settle(self, counts: StudCounts, rules: StudRun) -> Analysis:
        """The decision by exact EV, the ante and play, every side bet, the return by hand and the strategy."""
        model, main = rules.model, counts.main
        r = model.rules
        sides = []
        for name, bet in (model.pays.model_extra or {}).items():
            k = r.player_cards + (r.dealer_cards if bet.cards == "player_and_dealer" else 0)
            sets = counts.sides[side_key(k, bet)]
            sides.append(side_wager(name, bet, sets, counts.total // math.comb(rules.deck.size, k)))
        if counts.board is not None:
            return self._settle_board(counts.board, rules)
        if counts.streets is not None:
            return self._settle_streets(counts.streets, rules, sides)
        if counts.dealer is not None:
            return self._settle_dealer(counts.dealer, rules, sides)
        assert main is not None
        decision = next(s.decision for s in r.stages if s.decision is not None)
        played = decide(main, model.pays.main, decision, r.ranking)
        wagers = [main_wager(main, model.pays.main, played, r.ranking, decision, r.name), *sides]
        sections = [by_hand_section(main, played, r.ranking, model.pays.main)]
        if not rules.options.brief:
            sections += [strategy_section(main, played, r.ranking), closest_section(main, played)]
        n, p = rules.deck.size, r.player_cards
        return Analysis(
            game=self.key, table=rules.table, rules=rules.shown(), published_applies=rules.published_applies,
            decisions=(Decisions("play", f"play (else fold), per {p}-card hand (one point per suit pattern)",
                                 played.action != FOLD, main.weights * main.dealer_hands,
                                 lambda i: cards_str(sorted(main.reps[i].tolist(), reverse=True))),),
            convention=(f"one combination is one deal: the player's {p} cards (a set) and the dealer's "
                        f"{r.dealer_cards} (a set): C({n},{p}) x C({n - p},{r.dealer_cards}) = {main.total:,}"),
            wagers=tuple(wagers), sections=tuple(sections), assumptions=tuple(model.assumptions),
            rarity={ref: q for w in wagers for ref, q in rarity_from_rows(w).items()},
        )

    def _settle_dealer(self, d: DealerCounts, rules: StudRun, sides: list[WagerResult]) -> Analysis:
        """A game with a dealer whose up cards the player sees: the decision per (hand, up cards) by exact EV."""
        model = rules.model
        r, pays = model.rules, model.pays.main
        decision = next(s.decision for s in r.stages if s.decision is not None)
        played = dealer_settle.decide(d, pays, decision, r.ranking)
        wagers = (dealer_settle.main_wager(d, pays, played, r.ranking, decision, r.name), *sides)
        n, p, u, h = rules.deck.size, r.player_cards, d.up_cards, r.dealer_cards - d.up_cards
        ups = d.outcomes.shape[1]
        return Analysis(
            game=self.key, table=rules.table, rules=rules.shown(), published_applies=rules.published_applies,
            decisions=(Decisions("play", f"play (else fold), per {p}-card hand (one point per suit pattern) and "
                                         "dealer's up cards", (played.action != FOLD).ravel(),
                                 np.repeat(d.weights * d.holes, ups),
                                 lambda i: cards_str(sorted(d.reps[i // ups].tolist(), reverse=True)) + " against "
                                 + cards_str(sorted(d.up_set(i // ups, i % ups), reverse=True))),),
            convention=(f"one combination is one deal: the player's {p} cards (a set), the dealer's {u} up "
                        f"card{'s' if u != 1 else ''} (a set) and {h} hole cards (a set): C({n},{p}) x C({n - p},{u}) "
                        f"x C({n - p - u},{h}) = {d.total:,}"),
            wagers=wagers, sections=(dealer_settle.by_hand_section(d, played, pays, r.ranking),),
            assumptions=tuple(model.assumptions),
            rarity={ref: q for w in wagers for ref, q in rarity_from_rows(w).items()},
        )

    def _settle_streets(self, s: Streets, rules: StudRun, sides: list[WagerResult]) -> Analysis:
        """A game without a dealer: every decision by backward induction, every bet paid by the final hand."""
        model = rules.model
        r, pays = model.rules, model.pays.main
        hand = pays.hand.pays() if pays.hand is not None else {}
        net = multipliers(hand, parse_rank(pays.pair_minimum) if pays.pair_minimum else None,
                          parse_rank(pays.push_pair_minimum) if pays.push_pair_minimum else None)
        sizes, folds, held = {}, [], 0
        for stage in r.stages:
            held += stage.dealt()
            if stage.decision is not None:
                sizes[held] = list(stage.decision.bets)
                folds += [held] if stage.decision.fold else []
        solved = solve(s, net, sizes, folds=folds)
        folded = sum(solved.folded.values())
        main = WagerResult(
            wager="main", title=f"{r.name} (ante and bets)", strategy="optimal", total_combinations=s.total,
            rows=tuple(streets_rows(solved, net, hand)), unit="ante", stake_varies=True,
            strategy_title="optimal: each decision by exact EV over what the player holds and has bet",
            extras={"fold_frequency": Fraction(folded, s.total)} if folds else {},
            notes=("Units are net antes won: every bet in play is paid at the final hand's odds; between equal "
                   "EVs the smaller stake is taken (a fold first).",))
        sections = [streets_by_hand(solved, net, s.total)]
        if not rules.options.brief:
            sections.append(share_section(s, solved, sizes, folds))
        n, first = rules.deck.size, s.first
        at = min(sizes)  # the first decision's cards held (the first stage's, or more when it has none)
        reps = s.arrays[f"reps{at}"]
        orders = math.factorial(at) // math.factorial(first)  # the cards after the first ones come in order
        wagers = (main, *sides)
        return Analysis(
            game=self.key, table=rules.table, rules=rules.shown(), published_applies=rules.published_applies,
            decisions=(Decisions("bet", f"bet (else {'fold' if at in folds else 'check'}) on the first {at} cards, "
                                        "per suit pattern", solved.actions[at][:, 1] > 0,
                                 s.arrays[f"weights{at}"] * orders * math.prod(range(n - 4, n - at + 1)),
                                 lambda i: cards_str(sorted(reps[i].tolist(), reverse=True))),),
            convention=(f"one combination is one deal: the player's {first} cards (a set) and the cards that follow "
                        f"in the order shown: C({n},{first}) x {' x '.join(str(n - j) for j in range(first, 5))} = "
                        f"{s.total:,}"),
            wagers=wagers, sections=tuple(sections), assumptions=tuple(model.assumptions),
            rarity={ref: q for w in wagers for ref, q in rarity_from_rows(w).items()},
        )

    def charts(self, analysis: Analysis, rerun: Callable[[RunOptions], Analysis]) -> tuple[Chart, ...]:
        """No charts yet for a file-declared game."""
        return ()


# Seconds of one core a report's count against a dealer may take cold (estimated by ``dealer.cost``): minutes,
# with progress on stderr, are a report's (Four Card Poker's full deck by the sieve); hours are a cluster's
HEAVY_SECONDS = 600.0


def refuse_heavy(key: str, deck: Deck, player: int, dealer: int, up: int) -> None:
    """Refuse (exit 4, one line) a count against a dealer too long for a report: the plan is measured apart."""
    c = cost(deck, player, dealer, up)
    if c.seconds > HEAVY_SECONDS:
        how = "by inclusion-exclusion over the player's cards" if c.sieve else "visiting every dealer hand"
        raise OptionError(
            f"{key}: the count on {deck.describe()} ({c.classes:,} player classes x {c.hands:,} dealer hands, {how}) "
            f"would take about {_duration(c.seconds)} of one core, more than a report's ten minutes: run it on a "
            "cluster (count_dealer's mapper); the measured plans are in docs/game-files.md")


def _duration(seconds: float) -> str:
    return f"{seconds / 3600:,.1f} hours" if seconds >= 5400 else f"{max(1, round(seconds / 60)):,} minutes"


# Completions the count with community cards may visit in a report (numpy, a class at a time: about 4.6e6 a second
# on one core here, Casino Hold'em on 12 cards), so a cold report stays within a few seconds.
HEAVY_BOARD = 2 * 10**7


def refuse_heavy_board(key: str, deck: Deck, shape: Shape, decisions: int) -> None:
    """Refuse (exit 4, one line) a count with community cards too long for a report (the plan is measured apart),
    or, with several decisions, on a deck too large for a state's key."""
    classes = pair_class_count(deck, shape.seen_player, shape.seen_board)
    completions = shape.completions(deck.size)
    if classes * completions > HEAVY_BOARD:
        raise OptionError(
            f"{key}: the count on {deck.describe()} visits {classes:,} classes of what the player has seen x "
            f"{completions:,} completions ({classes * completions:.2e}), far more than a report's few seconds: the "
            "measured plans (the cluster's runs) are in docs/game-files.md")
    if decisions > 1 and deck.size > MAX_CARDS:
        raise OptionError(f"{key}: several decisions with community cards are counted on decks of at most "
                          f"{MAX_CARDS} cards (a state's key is one 64-bit word); {deck.describe()} is larger")


def _side(deck: Deck, k: int, ranking: str, pair_minimum: int | None) -> dict[str, np.ndarray]:
    return {"sets": class_counts(deck, k, ranking, pair_minimum)}


def side_key(k: int, bet: SideBet) -> str:
    """The side counts a bet is settled from: ``<k>/<ranking>``, and the lowest pair paid where it names one."""
    return f"{k}/{bet.ranking}" + (f"/pair-{parse_rank(bet.pair_minimum)}" if bet.pair_minimum is not None else "")


@functools.cache
def game_class(key: str) -> type[StudGame]:
    """The class of the shipped game file folder ``key``, its attributes those of its declaration."""
    found = {c.key: c for c in declared(frozenset())}
    if key not in found:
        raise AttributeError(f"no stud-family game file folder {key!r}")
    return build_class(found[key])


def build_class(c: Capabilities) -> type[StudGame]:
    """A game's class from its declaration alone: the same engine, the key, title and table of the declaration."""
    name = c.key.replace("-", "_")
    # the game's own table model: the same schema, its GAME the key (a file of another game is refused)
    model = type(f"StudTable_{name}", (StudTable,), {"GAME": c.key, "__module__": __name__,
                                                    "__doc__": f"A {c.title} game file."})
    attrs = {"key": c.key, "title": c.title, "default_table": c.default_table, "capabilities": c,
             "options": c.options, "table_model": model, "__module__": __name__, "__qualname__": name,
             "__doc__": f"{c.title}, declared in tables/{c.key}/ (a stud-family game file)."}
    return type(name, (StudGame,), attrs)


def __getattr__(name: str) -> type[StudGame]:
    """``three_card_poker`` -> the class of ``tables/three-card-poker/`` (what a declaration names)."""
    if name.startswith("__"):
        raise AttributeError(name)
    return game_class(name.replace("_", "-"))


