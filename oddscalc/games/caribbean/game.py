"""Caribbean Stud, the registered game: resolve a table, count the dealer hands, settle the report.

The counting argument is the package's docstring (:mod:`oddscalc.games.caribbean`).
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from oddscalc.cache import Store
from oddscalc.cards import FULL_DECK, Deck
from oddscalc.files import is_path
from oddscalc.games.caribbean.capabilities import CAPABILITIES
from oddscalc.games.caribbean.count import RAISE_TABLE_ARRAYS, dealer_counts_of
from oddscalc.games.caribbean.raise_table import STRATEGIES, RaiseTable
from oddscalc.games.caribbean.sections import ak_section, closest_section, comparison_section, describe_point
from oddscalc.games.caribbean.settle import CARD, settle_counts
from oddscalc.games.caribbean.table import CaribbeanTable, Pays, parse_qualifier
from oddscalc.games.caribbean.wagers import jackpot_wager, joint_main_jackpot, main_wager
from oddscalc.games.poker_side_count import settle_side_bets, stored_counts
from oddscalc.games.poker_side_envy import EnvyBet, envy_sections, seat_classes, stored_envy
from oddscalc.games.progressive import progressive
from oddscalc.games.progressive import section as progressive_section
from oddscalc.hands import HAND_CLASSES
from oddscalc.progress import Progress
from oddscalc.protocol import Capabilities, OptionError, Rules, count_key
from oddscalc.results import Analysis, Chart, Decisions, Heatmap, RunOptions, Section, rarity_from_rows
from oddscalc.tables import Table, TableModel
from oddscalc.verify import named_sections

if TYPE_CHECKING:
    from oddscalc.games.caribbean.card import Card


STRATEGY_TITLES = {  # each named strategy in words, beside its id in the report
    "optimal": "optimal: raise exactly when raising's EV beats folding's",
    "raise-pair-plus": "raise a pair or better",
    "raise-ak-plus": "raise ace-king or better",
    "always-raise": "always raise",
    "rules-of-thumb": "rules of thumb: a pair or better; ace-king by the up card and the queens and jacks held",
    "ace-king-jack-8-3": "raise a pair or better, and any other hand at or above A-K-J-8-3",
    "matching-rank": "raise a pair or better; ace-king when a card matches the up card's rank",
}


@dataclass(frozen=True)
class CaribbeanRules(Rules):
    """A Caribbean Stud table resolved for a run."""

    deck: Deck
    qualifier: str
    jackpot_paid_on_fold: bool
    card: Card | None = None  # a strategy card file played instead of a named strategy

    @property
    def model(self) -> CaribbeanTable:
        """The table file's model."""
        model = self.table.model
        assert isinstance(model, CaribbeanTable)
        return model

    def count_key(self) -> dict[str, Any]:
        """Deck and qualifier: nothing else changes the dealer counts."""
        cls, ranks = parse_qualifier(self.qualifier)
        return {"deck": [list(self.deck.ranks), self.deck.n_suits], "qualifier": [cls.value, list(ranks)]}

    def shown(self) -> dict[str, Any]:
        """The rules as the report states them."""
        strategy = self.strategy if self.card is None else (
            f"the card {self.card.path.name} ({self.card.model.title}; sha256 {self.card.sha256[:12]})")
        return {"deck": self.deck.describe(), "dealer_qualifier": self.qualifier, "raise": "2 antes",
                "strategy": strategy, "jackpot_paid_on_fold": self.jackpot_paid_on_fold}


class Caribbean:
    """Caribbean Stud Poker: ante, raise or fold against the dealer's hand, and the Jackpot."""

    key: ClassVar[str] = "caribbean"
    title: ClassVar[str] = "Caribbean Stud Poker"
    default_table: ClassVar[str] = CAPABILITIES.default_table
    capabilities: ClassVar[Capabilities] = CAPABILITIES  # what applies to the game, read by the CLI
    options: ClassVar[frozenset[str]] = frozenset({"strategy"})
    strategies: ClassVar[tuple[str, ...]] = STRATEGIES
    engine_version: ClassVar[int] = 5  # 3: the stored raise table; 4: its shortlist; 5: six pay-free strategies
    table_model: ClassVar[type[TableModel]] = CaribbeanTable

    def resolve(self, table: Table, options: RunOptions) -> CaribbeanRules:
        """The table's rules, with ``--strategy`` applied."""
        model = table.model
        assert isinstance(model, CaribbeanTable)
        strategy = options.strategy or model.rules.strategy
        card = None
        if is_path(strategy):
            from oddscalc.games.caribbean.card import load_card

            card = load_card(Path(strategy))
        elif strategy not in STRATEGIES:
            raise OptionError(f"unknown strategy {strategy!r} for caribbean; one of: {', '.join(STRATEGIES)}, "
                              "or a strategy card file (a path)")
        return CaribbeanRules(table=table, options=options, strategy=CARD if card else strategy,
                              published_applies=strategy == model.rules.strategy and options.deck is None,
                              deck=options.deck or FULL_DECK, qualifier=model.rules.dealer_qualifier,
                              jackpot_paid_on_fold=model.rules.jackpot_paid_on_fold, card=card)

    def count(self, rules: CaribbeanRules, store: Store) -> RaiseTable:
        """The raise table of the rules' deck and qualifier, from the store when it has them."""
        progress = Progress(rules.options.progress, "caribbean: counting dealer hands")

        def build() -> dict[str, np.ndarray]:
            rt = dealer_counts_of(rules.deck, rules.qualifier, progress=progress).table()
            return {name: getattr(rt, name) for name in RAISE_TABLE_ARRAYS}

        arrays = store.get(count_key(self, rules), build)
        stored_counts(self.key, rules.model.pays, rules.deck, store)  # the side bets over the cards, pay-free
        stored_envy(self.key, rules.model.pays, rules.deck, store, _jackpot_envy(rules.model.pays))  # envy counts
        return RaiseTable(rules.deck, **{name: arrays[name] for name in RAISE_TABLE_ARRAYS})

    def settle(self, counts: RaiseTable, rules: CaribbeanRules) -> Analysis:
        """Every wager, the ace-king chart, the closest decisions and the named strategies compared."""
        dc, model = counts, rules.model
        st = settle_counts(dc, model.pays.main, rules.strategy, closest=not rules.options.brief, card=rules.card)
        wagers = [main_wager(dc, model.pays.main, st)]
        meter_sections: list[Section] = []
        if model.pays.jackpot is not None:
            wagers.append(jackpot_wager(dc, model.pays.jackpot, st, rules.jackpot_paid_on_fold))
        # the strategy as an id (a name, or the card's file name without .toml) and in words beside it
        sid = rules.strategy if rules.card is None else rules.card.path.stem
        title = STRATEGY_TITLES.get(sid, sid) if rules.card is None else str(rules.shown()["strategy"])
        wagers = [dataclasses.replace(w, strategy=sid, strategy_title=title) for w in wagers]
        jackpot = model.pays.jackpot
        if jackpot is not None and jackpot.meter is not None:
            meter_sections.append(progressive_section(progressive(wagers[-1], jackpot.meter_shares(), jackpot.stake,
                                                                  jackpot.meter)))
        if not rules.options.brief:
            sections: tuple[Section, ...] = (ak_section(st), closest_section(dc, st, rules.card),
                                              comparison_section(dc, model.pays.main, st, rules.card),
                                              *([st.card_cost] if st.card_cost is not None else []))
        elif "strategies_compared" in named_sections(rules.table):  # for verify
            sections = (comparison_section(dc, model.pays.main, st, rules.card),)
        else:
            sections = ()
        side_wagers, side_sections = settle_side_bets(model.pays, rules.deck, _side_convention(rules.deck))
        wagers += side_wagers
        sections = (*sections, *meter_sections, *side_sections, *envy_sections(model.pays, wagers, rules.deck,
                                                                                   _jackpot_envy(model.pays)))
        decide = st.decision
        decisions = Decisions(
            "raise", "raise (else fold), per player hand suit pattern and dealer up card (in raise-key order)",
            (lambda: decide().ravel()) if decide is not None else np.zeros(0, dtype=np.bool_),
            lambda: dc.point_weights,
            lambda f: describe_point(dc, f))
        deck = rules.deck
        return Analysis(
            game=self.key, table=rules.table, rules=rules.shown(), decisions=(decisions,),
            published_applies=rules.published_applies,
            convention=(f"one combination is one deal: the player's five cards (a set), the dealer's up card "
                        f"(ordered) and the dealer's four hole cards (a set): C({deck.size},5) x {deck.size - 5} x "
                        f"C({deck.size - 6},4) = {dc.total:,}"),
            wagers=tuple(wagers), sections=sections, assumptions=tuple(model.assumptions),
            rarity=hand_rarity(dc, model) | {ref: p for w in side_wagers for ref, p in rarity_from_rows(w).items()},
            joint={} if model.pays.jackpot is None else {
                ("main", "jackpot"): joint_main_jackpot(st, model.pays.jackpot, rules.jackpot_paid_on_fold)},
        )

    def charts(self, analysis: Analysis, rerun: Callable[[RunOptions], Analysis]) -> tuple[Chart, ...]:
        """The ace-king raising chart as a heat map."""
        try:
            sec = analysis.section("ace_king_chart")
        except KeyError:
            return ()
        cols = tuple(c.title for c in sec.columns[1:])
        cells = tuple(tuple(x if isinstance(x, Fraction) else None for x in r[1:]) for r in sec.rows)
        return (Heatmap("caribbean-ace-king", f"Caribbean Stud ({analysis.table.id}): share of ace-king deals raised",
                        tuple(str(r[0]) for r in sec.rows), cols, cells, "dealer's up card",
                        "player's ace-king hand, by third card"),)


def _side_convention(deck: Deck) -> str:
    n = deck.size
    return (f"One combination is one deal, as the main wager's: the player's five cards (a set), the dealer's up card "
            f"and his four hole cards (a set), C({n},5) x {n - 5} x C({n - 6},4) in all.")


def hand_rarity(dc: RaiseTable, model: CaribbeanTable) -> dict[str, Fraction]:
    """Each pay of the player's own hand (``main``, ``jackpot``) with the probability of its five-card class, from
    the count's player hands (``high_card`` in ``main`` is ace-king, the only high card paid)."""
    total, by_class = _class_weights(dc)
    out: dict[str, Fraction] = {}
    for wager, block in model.pays:
        if block is None or wager not in type(model.pays).model_fields:  # a side bet's rarity is from its rows
            continue
        keys = {k for k, v in block if isinstance(v, Fraction)}
        out.update({f"{wager}.{c.value}": Fraction(by_class[i], total) for i, c in enumerate(HAND_CLASSES)
                    if c.value in keys})
    return out


# by the count's identity (a count's arrays are not hashable); an entry goes with its count
_CLASS_WEIGHTS: dict[int, tuple[int, list[int]]] = {}


def _class_weights(dc: RaiseTable) -> tuple[int, list[int]]:
    """The count's player hands in all and by five-card class: pay-free, so summed once per count (a workbench
    settles one count again on every pay typed)."""
    key = id(dc)
    if key not in _CLASS_WEIGHTS:
        _CLASS_WEIGHTS[key] = (int(dc.weights.astype(object).sum()),
                               [int(dc.weights[dc.pay_class == i].astype(object).sum())
                                for i in range(len(HAND_CLASSES))])
        weakref.finalize(dc, _CLASS_WEIGHTS.pop, key, None)
    return _CLASS_WEIGHTS[key]


def _jackpot_envy(pays: Pays) -> tuple[EnvyBet, ...]:
    """The Jackpot's envy block as the envy figures read it: its lines are the jackpot wager's rows (each prize's
    class, then no prize), a function of the player's five cards alone (the table requires it paid on a fold)."""
    jp = pays.jackpot
    if jp is None or jp.envy is None:
        return ()
    paid = [c for c in HAND_CLASSES[:5] if getattr(jp, c.value) is not None]

    def line_of_hand(deck: Deck) -> NDArray[np.int64]:
        line = np.full(len(HAND_CLASSES), len(paid), dtype=np.int64)  # no prize: the last row
        line[[c.code for c in paid]] = np.arange(len(paid))
        return line[seat_classes(deck, 5)]

    return (EnvyBet("jackpot", jp.envy, jp.stake, 5, {"jackpot": [c.value for c in paid]}, line_of_hand,
                    len(paid) + 1),)
