"""Let It Ride, the registered game: resolve a table, count the holdings, settle the report.

The counting argument is the package's docstring (:mod:`oddscalc.games.let_it_ride`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, Deck, cards_str, parse_rank, rank_name
from oddscalc.files import is_path
from oddscalc.games.let_it_ride import holdings as ride_holdings
from oddscalc.games.let_it_ride.capabilities import CAPABILITIES
from oddscalc.games.let_it_ride.count import HOLDING_ARRAYS, PAYING, HoldingCounts, count_holdings
from oddscalc.games.let_it_ride.settle import OPTIMAL_TITLE, Solution, solve
from oddscalc.games.let_it_ride.table import LetItRideTable
from oddscalc.games.let_it_ride.wagers import bonus_wager, by_hand_section, five_card_bonus_wager, main_wager
from oddscalc.games.let_it_ride.wording import strategy_section
from oddscalc.games.poker_side_count import settle_side_bets, stored_counts
from oddscalc.games.poker_side_envy import envy_sections, stored_envy
from oddscalc.games.progressive import progressive
from oddscalc.games.progressive import section as progressive_section
from oddscalc.protocol import Capabilities, OptionError, Rules, count_key
from oddscalc.results import Analysis, Bars, Chart, Decisions, RunOptions, Section, rarity_from_rows
from oddscalc.tables import Table, TableModel
from oddscalc.verify import named_sections

if TYPE_CHECKING:
    from oddscalc.games.let_it_ride.card import Card


@dataclass(frozen=True)
class LetItRideRules(Rules):
    """A Let It Ride table resolved for a run."""

    deck: Deck
    min_rank: int
    ride_on_zero: bool
    card: Card | None = None  # a strategy card file played instead of the optimal strategy

    @property
    def model(self) -> LetItRideTable:
        """The table file's model."""
        model = self.table.model
        assert isinstance(model, LetItRideTable)
        return model

    def count_key(self) -> dict[str, Any]:
        """Deck and the minimum paying pair: what decides each hand's pay class."""
        return {"deck": [list(self.deck.ranks), self.deck.n_suits], "min_rank": self.min_rank}

    def shown(self) -> dict[str, Any]:
        """The rules as the report states them."""
        return {"deck": self.deck.describe(), "min_pair": f"pair of {rank_name(self.min_rank, True)}",
                "ride_on_zero": self.ride_on_zero, "strategy": self.strategy_text}

    @property
    def strategy_id(self) -> str:
        """The strategy's id: optimal, or the strategy card's (its file name without .toml)."""
        return "optimal" if self.card is None else self.card.path.stem

    @property
    def strategy_text(self) -> str:
        """The strategy as the report names it."""
        if self.card is None:
            return "optimal"
        return f"the card {self.card.path.name} ({self.card.model.title}; sha256 {self.card.sha256[:12]})"


def _play_card(card: Card, counts: HoldingCounts, pays: Sequence[Fraction], optimal: Solution,
               shapes3: ride_holdings.Shapes, shapes4: ride_holdings.Shapes, min_rank: int) -> tuple[Solution, Section]:
    """The card's decisions counted like the optimal ones, and its cost by rule, checked against the EVs."""
    from oddscalc.games.let_it_ride import card as ride_card  # only a card run needs it

    played = {"bet1": ride_card.play(card, "bet1", shapes3, counts.reps3),
              "bet2": ride_card.play(card, "bet2", shapes4, counts.reps4)}
    sol = solve(counts, pays, rides=(played["bet1"].ride, played["bet2"].ride))
    section, whole = ride_card.cost_section(card, played, {"bet1": counts.weights3, "bet2": counts.weights4},
                                            {"bet1": optimal.s3, "bet2": optimal.s4}, optimal.denominator,
                                            counts.deck)
    # the two EVs come from the deal tallies, the cost from the holding sums: two ways to one number
    gap = main_wager(counts, optimal, pays, min_rank, False).expected_value \
        - main_wager(counts, sol, pays, min_rank, False).expected_value
    if whole != gap:
        raise AssertionError(f"the card's cost by rule {whole} does not add up to optimal minus card {gap}")
    return sol, section


def _cards(rep: np.ndarray) -> str:
    return cards_str(sorted(rep.tolist(), reverse=True))


class LetItRide:
    """Let It Ride: pull back or let ride two of three equal bets, paid on a five-card hand."""

    key: ClassVar[str] = "let-it-ride"
    title: ClassVar[str] = "Let It Ride"
    default_table: ClassVar[str] = CAPABILITIES.default_table
    capabilities: ClassVar[Capabilities] = CAPABILITIES  # what applies to the game, read by the CLI
    options: ClassVar[frozenset[str]] = frozenset({"strategy"})
    engine_version: ClassVar[int] = 3  # 3: counts per suit class
    table_model: ClassVar[type[TableModel]] = LetItRideTable
    strategies: ClassVar[tuple[str, ...]] = ("optimal",)

    def resolve(self, table: Table, options: RunOptions) -> LetItRideRules:
        """The table's rules, with ``--strategy`` (optimal, or a strategy card file) applied."""
        model = table.model
        assert isinstance(model, LetItRideTable)
        card = None
        if options.strategy is not None and is_path(options.strategy):
            from oddscalc.games.let_it_ride.card import load_card

            card = load_card(Path(options.strategy))
        elif options.strategy not in (None, "optimal"):
            raise OptionError(f"unknown strategy {options.strategy!r} for let-it-ride; known: optimal, or a strategy "
                              "card file (a path)")
        return LetItRideRules(table=table, options=options, strategy="card" if card else "optimal",
                              published_applies=options.deck is None and card is None,
                              deck=options.deck or FULL_DECK, min_rank=parse_rank(model.rules.min_pair),
                              ride_on_zero=model.rules.ride_on_zero, card=card)

    def count(self, rules: LetItRideRules, store: Store) -> HoldingCounts:
        """The pay-free holding counts of the rules' deck and minimum pair, from the store when it has them."""
        def build() -> dict[str, np.ndarray]:
            h = count_holdings(rules.deck, rules.min_rank)
            return {name: getattr(h, name) for name in HOLDING_ARRAYS}

        a = store.get(count_key(self, rules), build)
        stored_counts(self.key, rules.model.pays, rules.deck, store)  # the side bets over the cards, pay-free
        stored_envy(self.key, rules.model.pays, rules.deck, store)  # and their envy blocks' pair counts
        return HoldingCounts(rules.deck, **{name: a[name] for name in HOLDING_ARRAYS})

    def settle(self, counts: HoldingCounts, rules: LetItRideRules) -> Analysis:
        """Both pull-back decisions solved (or played from a strategy card), every wager, the strategy in
        words and the expected return per holding class."""
        model, deck = rules.model, rules.deck
        pays = [getattr(model.pays.main, c.value) for c in PAYING]
        sol = solve(counts, pays, rules.ride_on_zero)
        wanted = not rules.options.brief
        named = named_sections(rules.table)
        shapes3 = shapes4 = None
        if rules.card is not None or wanted or named & {"bet1_holdings", "bet2_holdings"}:
            shapes3 = ride_holdings.shapes(counts.reps3, deck, rules.min_rank)
            shapes4 = ride_holdings.shapes(counts.reps4, deck, rules.min_rank)
        card_cost = None
        if rules.card is not None:
            assert shapes3 is not None and shapes4 is not None
            sol, card_cost = _play_card(rules.card, counts, pays, sol, shapes3, shapes4, rules.min_rank)
        wagers = [main_wager(counts, sol, pays, rules.min_rank, rules.ride_on_zero,
                             rules.strategy_id, OPTIMAL_TITLE if rules.card is None else rules.strategy_text)]
        if model.pays.three_card_bonus is not None:
            wagers.append(bonus_wager(counts, model.pays.three_card_bonus))
        sections = [by_hand_section(sol, pays, rules.min_rank)]
        bonus = model.pays.five_card_bonus
        if bonus is not None:
            wagers.append(five_card_bonus_wager(deck, bonus))
            if bonus.meter is not None:
                sections.append(progressive_section(progressive(wagers[-1], bonus.meter_shares(), bonus.stake,
                                                                bonus.meter)))
        if wanted:
            sections.append(strategy_section("bet1_strategy", "Strategy: bet 1 (after the player's three cards)",
                                             counts.reps3, counts.weights3, sol.ride1, sol.s3, deck, rules.min_rank,
                                             rules.ride_on_zero))
            sections.append(strategy_section("bet2_strategy", "Strategy: bet 2 (after the first community card)",
                                             counts.reps4, counts.weights4, sol.ride2, sol.s4, deck, rules.min_rank,
                                             rules.ride_on_zero))
        for sid, title, sh, w, sums, ride in (
                ("bet1_holdings", "Bet 1: expected return by three-card holding", shapes3, counts.weights3,
                 sol.s3, sol.ride1),
                ("bet2_holdings", "Bet 2: expected return by four-card holding", shapes4, counts.weights4,
                 sol.s4, sol.ride2)):
            if sh is not None and (wanted or sid in named):
                sections.append(ride_holdings.holdings_section(sid, title, sh, w, sums, sol.denominator, ride, deck,
                                                               rules.min_rank))
        if card_cost is not None:
            sections.append(card_cost)
        n = deck.size
        side_wagers, side_sections = settle_side_bets(
            model.pays, deck, f"One combination is one deal, as the main wager's: the player's three cards (a set) "
                              f"and the two community cards in order, C({n},3) x {n - 3} x {n - 4} in all.")
        wagers += side_wagers
        sections += [*side_sections, *envy_sections(model.pays, side_wagers, deck)]
        decisions = (
            Decisions("bet1", "let bet 1 ride, per three-card hand (one point per suit pattern)", sol.ride1,
                      counts.weights3 * (deck.size - 3) * (deck.size - 4), lambda i: _cards(counts.reps3[i])),
            Decisions("bet2", "let bet 2 ride, per four cards seen (one point per suit pattern)", sol.ride2,
                      counts.weights4 * 4 * (deck.size - 4), lambda i: _cards(counts.reps4[i])),
        )
        return Analysis(
            game=self.key, table=rules.table, rules=rules.shown(), decisions=decisions,
            published_applies=rules.published_applies,
            convention=(f"one combination is one deal: the player's three cards (a set) and the two community "
                        f"cards in the order shown, C({deck.size},3) x {deck.size - 3} x {deck.size - 4} = "
                        f"{counts.total:,} equally likely deals"),
            wagers=tuple(wagers), sections=tuple(sections), assumptions=tuple(model.assumptions),
            # every wager's rows are its hands (the main bet's by bets in play too): a pay's rows give its rarity
            rarity={ref: p for w in wagers for ref, p in rarity_from_rows(w).items()},
        )

    def charts(self, analysis: Analysis, rerun: Callable[[RunOptions], Analysis]) -> tuple[Chart, ...]:
        """The share of each kind of holding that lets bet 1 and bet 2 ride."""
        out: list[Chart] = []
        for sid, name in (("bet1_strategy", "bet 1"), ("bet2_strategy", "bet 2")):
            try:
                sec = analysis.section(sid)
            except KeyError:
                continue
            rows = [r for r in sec.records() if r["ride"]]
            ride, of = sum(int(r["ride"] or 0) for r in sec.records()), sum(int(r["of"] or 0) for r in sec.records())
            out.append(Bars(f"let-it-ride-{name.replace(' ', '')}",
                            f"Let It Ride ({analysis.table.id}): holdings that let {name} ride",
                            tuple(str(r["holding"]) for r in rows),
                            tuple(Fraction(int(r["ride"] or 0), int(r["of"] or 1)) for r in rows),
                            f"{ride:,} of {of:,} holdings ride; every other holding pulls back."))
        return tuple(out)
