"""What each punto banco wager is worth from a given shoe: exact, for any composition.

Counting argument. The next coup is any ordered sequence of six cards of the shoe as it stands (cards a coup
leaves undrawn count as drawn after it: the published convention). ``coup_features.count_cells`` counts those
sequences by coup cell for any composition (per card class, rank and suit), and ``settle`` applies the table's
pays to the cells: each wager's exact EV per unit staked, side bets included.

The shoe is the table's, less the cards removed (``--removed "5s 5h Kd"``: rank and suit, since the pair and
suited bets read both), or a shoe given as cards per point value (``--shoe``). A shoe by value says nothing of
ranks and suits, so only the wagers settled on the values (the totals, cards drawn, naturals, the winner) are
answered from it: every main bet and the side bets that read no pair, suit or card condition (``cards_when``);
the others are listed, not guessed. A bet on the cards is counted from the shoe given by its own pass
(``card_count``).

:func:`shoe_ev` is the in-process function (the workbench calls it); :func:`ev_sections` is what
``oddscalc ev punto-banco`` shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from oddscalc.cards import CardError, cards_str, parse_cards
from oddscalc.games.ev import Choice, actions_section
from oddscalc.games.punto_banco.card_count import count_conditions
from oddscalc.games.punto_banco.coup_features import CLASSES, RANKS, SUITS, Cards, count_cells
from oddscalc.games.punto_banco.game import PuntoBancoRules, settle
from oddscalc.games.punto_banco.side_bets import CoupRule
from oddscalc.games.shoe import VALUES
from oddscalc.protocol import OptionError
from oddscalc.results import Section, WagerResult

if TYPE_CHECKING:
    from oddscalc.analysis import Session

# the features that read ranks or suits: a shoe given by point value cannot settle a wager on them
RANK_AND_SUIT = frozenset({"player_pair", "banker_pair", "player_suited", "banker_suited"})
MOST_CARDS = 10**6  # cards per value in --shoe: a bound on what the exact counts are asked to hold


def shoe_ev(rules: PuntoBancoRules, cards: Cards) -> tuple[WagerResult, ...]:
    """Every wager of the table settled on the next coup from the shoe ``cards`` (copies per card class), exact;
    with an infinite-shoe table the copies are the proportions cards are drawn in, with replacement."""
    if sum(cards.copies) < (1 if rules.infinite else 6):
        raise OptionError(f"a shoe of {sum(cards.copies)} cards cannot deal a coup (six cards may be drawn)")
    if not value_wagers(rules)[1]:
        # no wager reads a pair or a suit: the shoe by value settles them all, and a shoe of ten card classes is
        # counted in a blink where one of up to 52 (cards removed from whole decks) takes seconds
        cards = _by_value(cards.shoe.counts)
    on_cards = {w: count_conditions(cards.copies, rules.drawing, rules.infinite, b.card_conditions())
                for w, b in rules.model.pays.side_bets.items() if b.card_conditions()}
    return settle(count_cells(cards, rules.drawing, rules.infinite), rules.model.pays, on_cards)


def without(rules: PuntoBancoRules, removed: Iterable[int]) -> Cards:
    """The table's full shoe less the ``removed`` cards (card ids: rank and suit); refused when a card is gone."""
    if rules.infinite:
        raise OptionError("--removed: this table's shoe is infinite (cards drawn with replacement): removing a card "
                          "changes nothing; give the proportions with --shoe")
    copies = list(rules.cards.copies)
    for c in removed:
        copies[c] -= 1
        if copies[c] < 0:
            raise CardError(f"--removed: more {cards_str([c])} than the shoe holds ({rules.cards.copies[c]})")
    return Cards(tuple(copies))


def parse_removed(text: str) -> list[int]:
    """``"5s 5h Kd"`` (repeats allowed: a shoe holds several decks) as card ids."""
    out: list[int] = []
    for token in text.replace(",", " ").split():
        out.extend(parse_cards(token))
    if not out:
        raise CardError("--removed: no card given (e.g. --removed \"5s 5h Kd\")")
    return out


def by_value(text: str) -> Cards:
    """``--shoe``: cards per point value 0 (tens and faces) to 9, as ten whole numbers, placed on one card class
    per value (so only the wagers on values may be read from it)."""
    parts = text.replace(",", " ").split()
    if len(parts) != VALUES or not all(p.isascii() and p.isdigit() for p in parts):
        raise OptionError(f"--shoe: give {VALUES} whole numbers, the cards of each point value from 0 (tens and "
                          f"faces) to 9, e.g. \"128 32 32 32 32 32 32 32 32 32\"; got {text!r}")
    counts = [int(p) for p in parts]
    if max(counts) > MOST_CARDS:
        raise OptionError(f"--shoe: at most {MOST_CARDS:,} cards of a value")
    return _by_value(counts)


def _by_value(counts: Sequence[int]) -> Cards:
    """Cards per point value 0 to 9, each value on one card class (a ten for 0, an ace for 1)."""
    copies = [0] * CLASSES
    for value, n in enumerate(counts):
        rank = "T" if value == 0 else "A" if value == 1 else str(value)
        copies[RANKS.index(rank) * SUITS] = n
    return Cards(tuple(copies))


def _reads_ranks(rules: tuple[CoupRule, ...]) -> bool:
    return any(RANK_AND_SUIT & set(r.when) or r.cards for r in rules)  # a condition on the cards reads them


def value_wagers(rules: PuntoBancoRules) -> tuple[set[str], list[str]]:
    """The wagers a shoe by value settles, and those it cannot (their rules read a pair or a suit)."""
    pays = rules.model.pays
    bets = {"banker": pays.banker.rules, "player": pays.player.rules, "tie": pays.tie.rules,
            **{k: b.rules for k, b in pays.side_bets.items()}}
    return {k for k, r in bets.items() if not _reads_ranks(r)}, [k for k, r in bets.items() if _reads_ranks(r)]


def ev_sections(session: Session, table_ref: str | None, shoe: str | None, removed: str | None) -> list[Section]:
    """The ``ev`` command for punto banco (the game's declaration names it): every wager's exact EV on the next
    coup from the shoe given."""
    rules = session.resolve(table_ref)
    assert isinstance(rules, PuntoBancoRules)
    if shoe is not None and removed is not None:
        raise OptionError("--shoe and --removed: give one (the shoe by value, or the cards gone from the table's)")
    unsettled: list[str] = []
    if shoe is not None:
        cards = by_value(shoe)
        keep, unsettled = value_wagers(rules)
        told = (f"The shoe given by point value, 0 to 9: {shoe.strip()} ({sum(cards.copies):,} cards).",)
    elif removed is not None:
        gone = parse_removed(removed)
        cards = without(rules, gone)
        keep = set()
        told = (f"The table's shoe ({rules.cards.shoe.label}) less {cards_str(gone)}: {sum(cards.copies):,} cards.",)
    else:
        cards, keep = rules.cards, set()
        told = (f"The table's full shoe ({rules.cards.shoe.label}); give --removed or --shoe for another.",)
    wagers = [w for w in shoe_ev(rules, cards) if shoe is None or w.wager in keep]
    choices = [Choice(w.wager, w.title, w.expected_value) for w in wagers]
    notes = ((f"Not settled from a shoe by value (they read pairs or suits): {', '.join(unsettled)}; give the cards "
              "removed instead.",) if unsettled else ())
    return [actions_section("wagers", "Each wager on the next coup", choices, "unit staked",
                            intro=(*told, "Counted over every ordered sequence of the next six cards. Where every "
                                   "EV is below 0 the best is the wager that loses least: not betting is worth 0."),
                            notes=notes)]
