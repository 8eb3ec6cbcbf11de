"""Each logged round settled again by the table, in the exact engine's event vocabulary: the event of every wager
the round settles, the cards at each position (for the shuffle test), and what makes a round unreadable.

Caribbean Stud: the player's and dealer's five-card strengths and classes from the engine's hand table
(``hands.hand_table``), the pay class (``games.caribbean.count.pay_classes``), the qualifier, the logged action:
the main wager's event (``win_<pay class>``, ``dealer_not_qualified``, ``push``, ``fold``, ``lose``) and the
Jackpot's (its prize class or ``lose``). Punto banco: the coup's cell by the engine's drawing rules
(``audit.punto``), and every wager's event on it, whatever the player bet (the coup's outcome does not depend on
the bet). Rounds are settled a chunk at a time (vectorised), so a log of millions of rounds stays fast.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

import numpy as np

from oddscalc.audit.logformat import Round, card_ids
from oddscalc.audit.punto import cell_settlement, coup_cells
from oddscalc.cards import FULL_DECK
from oddscalc.results import Analysis
from oddscalc.tables import Table


@dataclass
class Settled:
    """A chunk of rounds settled: per wager, each round's event (None: the round does not settle it); the cards
    at each tested position (-1: not dealt); the rounds that cannot be settled, by line, with why."""

    events: dict[str, list[str | None]]
    positions: np.ndarray  # (n, len(Resettler.positions)) card ids
    unreadable: list[tuple[int, str]] = field(default_factory=list)


class Resettler(Protocol):
    """A game's re-settlement of logged rounds."""

    positions: tuple[str, ...]  # the card positions every round deals, tested against a uniform shuffle
    copies: dict[int, int]  # copies of each card id in the deck or shoe the table deals from

    def settle(self, rounds: Sequence[tuple[int, Round]]) -> Settled:
        """Settle a chunk of (line, round)."""
        ...


def _ids(cards: Sequence[str]) -> list[int]:
    return list(card_ids(cards))


class Caribbean:
    """Caribbean Stud: five cards each, the dealer's up card first; one decision, raise or fold."""

    positions: tuple[str, ...] = ("player_1", "player_2", "player_3", "player_4", "player_5", "dealer_up",
                                  "dealer_hole_1", "dealer_hole_2", "dealer_hole_3", "dealer_hole_4")
    copies: dict[int, int] = dict.fromkeys(range(52), 1)

    def __init__(self, table: Table, units: dict[str, dict[str, Fraction]]):
        from oddscalc.games.caribbean.count import qualifier_strength
        from oddscalc.games.caribbean.table import CaribbeanTable
        from oddscalc.hands import HAND_CLASSES, hand_table

        model = table.model
        assert isinstance(model, CaribbeanTable)
        self.ht = hand_table(FULL_DECK)
        self.qualifier = qualifier_strength(FULL_DECK, model.rules.dealer_qualifier)
        self.paid_on_fold = model.rules.jackpot_paid_on_fold
        self.prizes = set(units.get("jackpot", {}))
        self.class_names = [c.value for c in HAND_CLASSES]

    def settle(self, rounds: Sequence[tuple[int, Round]]) -> Settled:
        """Settle a chunk of (line, round)."""
        from oddscalc.games.caribbean.count import pay_classes
        from oddscalc.games.caribbean.wagers import WIN_EVENTS
        from oddscalc.hands import colex_indices

        n = len(rounds)
        main: list[str | None] = [None] * n
        jackpot: list[str | None] = [None] * n
        cards = np.full((n, 10), -1, dtype=np.int64)
        out = Settled({"main": main, "jackpot": jackpot}, cards)
        good, raised, dealt, dealt_at = [], [], [], []
        for i, (line, r) in enumerate(rounds):
            player, dealer = r.cards.player, r.cards.dealer
            if len(player) != 5 or len(dealer) != 5:
                out.unreadable.append((line, f"{len(player)} player and {len(dealer)} dealer cards, not 5 and 5"))
                continue
            ten = card_ids(player + dealer)
            dealt.append(ten)
            dealt_at.append(i)
            if len(set(ten)) < 10:
                out.unreadable.append((line, "a card dealt twice in one round (a damaged deck?)"))
                continue
            actions = [d.action for d in r.decisions if d.decision == "raise"]
            if len(actions) != 1 or actions[0] not in ("raise", "fold"):
                out.unreadable.append((line, "no raise decision (raise or fold)"))
                continue
            good.append(i)
            raised.append(actions[0] == "raise")
        if dealt:  # the cards of every round that dealt five and five, put in at once
            cards[np.array(dealt_at)] = np.array(dealt, dtype=np.int64)
        if not good:
            return out
        idx = np.array(good)
        hands, dealers = cards[idx, :5], cards[idx, 5:]
        pos = self.ht.position
        hand_rows = colex_indices(np.sort(pos[hands], axis=1))
        sp = self.ht.strength[hand_rows].astype(np.int64)
        sd = self.ht.strength[colex_indices(np.sort(pos[dealers], axis=1))].astype(np.int64)
        pay_class = pay_classes(FULL_DECK, hands.astype(np.int8)).astype(np.int64)
        # each round's main event as an index into one list of names, all rounds at once
        names = np.array(["fold", "dealer_not_qualified", "push", "lose", *(f"win_{w}" for w in WIN_EVENTS)],
                         dtype=object)
        up = np.array(raised, dtype=bool)
        code = np.select([~up, sd < self.qualifier, sp > sd, sp == sd], [0, 1, 4 + pay_class, 2], 3)
        column = np.full(n, None, dtype=object)
        column[idx] = names[code]
        out.events["main"] = column.tolist()
        if self.prizes:
            klass = self.ht.hand_class[hand_rows].astype(np.int64)
            prize = np.array([c if c in self.prizes else "lose" for c in self.class_names], dtype=object)
            won = prize[klass]
            if not self.paid_on_fold:
                won[~up] = "lose"
            column = np.full(n, None, dtype=object)
            column[idx] = won
            out.events["jackpot"] = column.tolist()
        return out


class PuntoBanco:
    """Punto banco: the coup's cards in shoe order; one decision, the bet (or none)."""

    positions: tuple[str, ...] = ("player_1", "banker_1", "player_2", "banker_2")

    def __init__(self, table: Table, units: dict[str, dict[str, Fraction]]):
        from oddscalc.analysis import Session
        from oddscalc.games.punto_banco.game import PuntoBancoRules

        rules = Session("punto-banco").resolve(table)
        assert isinstance(rules, PuntoBancoRules)
        self.rules = rules
        self.cells = cell_settlement(rules.model.pays)
        self.copies = {c: int(n) for c, n in enumerate(rules.cards.copies) if n}

    def settle(self, rounds: Sequence[tuple[int, Round]]) -> Settled:
        """Settle a chunk of (line, round)."""
        n = len(rounds)
        events: dict[str, list[str | None]] = {w: [None] * n for w in self.cells.events}
        cards = np.full((n, 6), 0, dtype=np.int64)
        dealt = np.zeros(n, dtype=np.int64)
        out = Settled(events, np.full((n, 4), -1, dtype=np.int64))
        for i, (line, r) in enumerate(rounds):
            shoe = _ids(r.cards.shoe)
            if not 4 <= len(shoe) <= 6:
                out.unreadable.append((line, f"{len(shoe)} cards in the coup: a coup deals 4 to 6"))
                continue
            cards[i, :len(shoe)] = shoe
            dealt[i] = len(shoe)
        ok = dealt > 0
        out.positions[ok] = cards[ok, :4]
        cell, right = coup_cells(cards, dealt, self.rules)
        for i in np.flatnonzero(ok).tolist():
            if not right[i]:
                out.unreadable.append((rounds[i][0], f"{dealt[i]} cards dealt where the drawing rules deal "
                                                     f"{'fewer' if dealt[i] > 4 else 'more'}"))
                continue
            for w in events:
                events[w][i] = self.cells.events[w][int(cell[i])]
        return out


class LetItRide:
    """Let It Ride: the player's three cards, then the two community cards; two decisions, ``ride_1`` and
    ``ride_2`` (ride or pull). The main wager's event is the final hand's pay class (the engine's
    ``games.let_it_ride.count.pay_classes``: a pair below the table's minimum loses) and the bets in play:
    ``pair_2_bets``, ``lose_3_bets``, ..., the exact report's rows. A side bet is not read (no stake is logged)."""

    positions: tuple[str, ...] = ("player_1", "player_2", "player_3", "community_1", "community_2")
    copies: dict[int, int] = dict.fromkeys(range(52), 1)

    def __init__(self, table: Table, units: dict[str, dict[str, Fraction]]):
        from oddscalc.analysis import Session
        from oddscalc.games.let_it_ride.count import PAYING
        from oddscalc.games.let_it_ride.ev import pay_classes_cached
        from oddscalc.games.let_it_ride.game import LetItRideRules

        rules = Session("let-it-ride").resolve(table)
        assert isinstance(rules, LetItRideRules)
        self.classes = pay_classes_cached(FULL_DECK, rules.min_rank)
        names = [c.value for c in PAYING] + ["lose"]
        self.names = np.array([[f"{k}_{b}_bet{'s' if b > 1 else ''}" for b in (1, 2, 3)] for k in names],
                              dtype=object)

    def settle(self, rounds: Sequence[tuple[int, Round]]) -> Settled:
        """Settle a chunk of (line, round)."""
        from oddscalc.hands import colex_indices

        n = len(rounds)
        cards = np.full((n, 5), -1, dtype=np.int64)
        out = Settled({"main": [None] * n}, cards)
        good, bets = [], []
        for i, (line, r) in enumerate(rounds):
            player, community = r.cards.player, r.cards.community
            if len(player) != 3 or len(community) != 2:
                out.unreadable.append((line, f"{len(player)} player and {len(community)} community cards, not 3 "
                                             "and 2"))
                continue
            five = card_ids(player + community)
            cards[i] = five
            if len(set(five)) < 5:
                out.unreadable.append((line, "a card dealt twice in one round (a damaged deck?)"))
                continue
            by = {d.decision: d.action for d in r.decisions}
            if len(r.decisions) != 2 or set(by) != {"ride_1", "ride_2"} or not set(by.values()) <= {"ride", "pull"}:
                out.unreadable.append((line, "not two decisions ride_1 and ride_2 (ride or pull)"))
                continue
            good.append(i)
            bets.append((by["ride_1"] == "ride") + (by["ride_2"] == "ride"))
        if not good:
            return out
        idx = np.array(good)
        klass = self.classes[colex_indices(np.sort(cards[idx], axis=1))].astype(np.int64)
        column = np.full(n, None, dtype=object)
        column[idx] = self.names[klass, np.array(bets, dtype=np.int64)]
        out.events["main"] = column.tolist()
        return out


# game -> its re-settlement, made from the table and the units of each event of each wager (the exact analysis's)
RESETTLERS: dict[str, Callable[[Table, dict[str, dict[str, Fraction]]], Resettler]] = {
    "caribbean": Caribbean, "let-it-ride": LetItRide, "punto-banco": PuntoBanco}


def units_by_event(analysis: Analysis) -> dict[str, dict[str, Fraction]]:
    """Per wager of the exact analysis, the units per unit staked of each event."""
    return {w.wager: {r.event: Fraction(r.units) for r in w.rows} for w in analysis.wagers}


__all__ = ["RESETTLERS", "Caribbean", "LetItRide", "PuntoBanco", "Resettler", "Settled", "units_by_event"]
