"""House baccarat, the registered game: resolve a table, count your seat, settle the report.

The counting argument is the package's docstring (:mod:`oddscalc.games.house_baccarat`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from oddscalc.cache import Store
from oddscalc.files import is_path
from oddscalc.games.house_baccarat.capabilities import CAPABILITIES
from oddscalc.games.house_baccarat.count import HouseBaccaratRules, SeatCounter
from oddscalc.games.house_baccarat.sections import analysis
from oddscalc.games.house_baccarat.settle import plays
from oddscalc.games.house_baccarat.strategy import Strategy
from oddscalc.games.house_baccarat.table import HouseBaccaratTable, check_strategy
from oddscalc.games.shoe import Shoe
from oddscalc.protocol import Capabilities, OptionError
from oddscalc.results import Analysis, Chart, RunOptions
from oddscalc.tables import Table, TableModel

FINITE_EXACT_MAX_PLAYERS = 7  # measured: see benchmarks/bench_baccarat.py


def shown_to_others(rules: HouseBaccaratRules) -> bool:
    """Whether third cards are shown to other seats: a later seat then decides on earlier third cards."""
    return rules.third_cards == "shown" and rules.players > 1


def refuse_shown(rules: HouseBaccaratRules) -> None:
    """Refuse third cards shown to other seats, which the report does not model (``oddscalc seats`` does)."""
    if shown_to_others(rules):
        from oddscalc.seats.shown.chain import MAX_PLAYERS

        raise OptionError("third_cards = \"shown\": a later seat decides on earlier third cards, which this report "
                          "does not model; oddscalc seats house-baccarat "
                          f"--players {min(rules.players, MAX_PLAYERS)} gives 2 to {MAX_PLAYERS} seats exactly")


class HouseBaccarat:
    """The rule sheet's house-banked baccarat: each player draws or stands, then the house plays."""

    key: ClassVar[str] = "house-baccarat"
    title: ClassVar[str] = "House baccarat (rule sheet)"
    default_table: ClassVar[str] = CAPABILITIES.default_table
    capabilities: ClassVar[Capabilities] = CAPABILITIES  # what applies to the game, read by the CLI
    options: ClassVar[frozenset[str]] = frozenset({"decks", "players", "strategy"})
    # draw-A-B: draw on a two-card total from A to B (check_strategy)
    strategies: ClassVar[tuple[str, ...]] = ("optimal", "optimal-total",
                                             *(f"draw-{a}-{b}" for a in range(8) for b in range(a, 8)))
    engine_version: ClassVar[int] = 1
    table_model: ClassVar[type[TableModel]] = HouseBaccaratTable

    def resolve(self, table: Table, options: RunOptions) -> HouseBaccaratRules:
        """The table's rules with ``--decks``, ``--players`` and ``--strategy`` (a name or a strategy card file,
        ``draw_card``) applied."""
        model = table.model
        assert isinstance(model, HouseBaccaratTable)
        rules = model.rules
        decks = options.decks if options.decks is not None else rules.decks
        players = options.players if options.players is not None else rules.players
        if decks < 1:
            raise OptionError("--decks must be at least 1")
        if not 1 <= players <= 7:
            raise OptionError("--players must be 1 to 7")
        fixed: Strategy | None = None
        if options.strategy is not None and is_path(options.strategy):
            from oddscalc.games.house_baccarat import card as draw_card

            card = draw_card.load_card(Path(options.strategy))
            fixed = Strategy.of(draw_card.name(card), draw_card.draws(card))
            name = fixed.name
        elif options.strategy is not None:
            try:
                name = check_strategy(options.strategy)
            except ValueError as e:
                raise OptionError(str(e)) from None
        elif rules.draw_on is not None:
            name = "table"
            fixed = Strategy.by_totals("draw_on (table)", rules.draw_on)
        else:
            name = rules.strategy or "optimal"
        kind = name if name in ("optimal", "optimal-total") else "fixed"
        if kind == "fixed" and fixed is None:
            lo, hi = (int(x) for x in name.split("-")[1:])
            fixed = Strategy.by_totals(name, range(lo, hi + 1))
        infinite = players > FINITE_EXACT_MAX_PLAYERS
        shoe = Shoe.of_decks(decks)
        if not infinite and players > 1 and 12 * shoe.size**3 >= 2**54:
            raise OptionError(f"--decks {decks} is too large for the exact multi-player recursion "
                              "(at most 2,000 decks)")
        return HouseBaccaratRules(
            table=table, options=options, strategy=name,
            published_applies=options.decks is None and options.players is None and options.strategy is None,
            decks=decks, players=players, house_tableau=rules.house_tableau, all_stand=rules.house_draws_when_all_stand,
            kind=kind, fixed=fixed, infinite=infinite, pay=model.pays.main.win, third_cards=rules.third_cards)

    def count(self, rules: HouseBaccaratRules, store: Store) -> SeatCounter:
        """Your seat's outcome counts, through the store: for one seat, the play fixed, and each play on the way
        to the table's equilibrium.

        The counts carry no pays: each entry is keyed by the seats and the others' play only. But with several
        seats the others' play is the equilibrium of the table's pay, so the pay chooses which plays are counted
        (the chain of best replies from one seat up, as ``settle.plays`` walks it). The counter keeps them for
        ``settle``, which then only compares them; it counts on demand for any other play (another table's pay
        sharing this count, or ``oddscalc seats``). Third cards shown to several seats are not this report's
        game (``settle`` refuses it; ``oddscalc seats`` counts what it needs), so nothing is counted ahead."""
        counter = SeatCounter(rules, store, self)
        if not shown_to_others(rules):
            plays(counter, rules)
        return counter

    def settle(self, counts: SeatCounter, rules: HouseBaccaratRules) -> Analysis:
        """The optimal strategy (a symmetric equilibrium with several seats), the played one, and the wager."""
        refuse_shown(rules)
        optimum, played = plays(counts, rules)
        return analysis(self.key, rules, optimum, played, FINITE_EXACT_MAX_PLAYERS)

    def charts(self, analysis: Analysis, rerun: Callable[[RunOptions], Analysis]) -> tuple[Chart, ...]:
        """No chart: the tables say it all."""
        return ()
