"""The stud engine's report sections: the return by the player's hand class, the strategy, the closest calls."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from oddscalc.cards import cards_str
from oddscalc.games.stud.count import MainCounts
from oddscalc.games.stud.settle import FOLD, Played, net
from oddscalc.games.stud.table import CLASSES, MainPays
from oddscalc.hands.three import three_card_key
from oddscalc.results import Cell, Column, Section

CLOSEST = 12  # decisions shown nearest to a tie


def by_hand_section(counts: MainCounts, played: Played, ranking: str, pays: MainPays) -> Section:
    """Per class of the player's hand: the deals, the share played and its net return per ante over every deal."""
    names = CLASSES[ranking]
    deals = [0] * len(names)
    play = [0] * len(names)
    units = [Fraction(0)] * len(names)
    block = pays.ante_bonus
    for w, cls, action, row in zip(counts.weights.tolist(), counts.player_class.tolist(), played.action.tolist(),
                                   counts.outcomes.tolist()):
        hands = w * counts.dealer_hands
        deals[cls] += hands
        if action == FOLD:
            units[cls] -= hands
            continue
        play[cls] += hands
        b = (block.pay_of(names[cls]) if block is not None else None) or Fraction(0)
        units[cls] += w * sum((row[o] * net(pays, o, action, b) for o in range(4)), Fraction(0))
    return return_by_hand(names, deals, play, units, counts.total)


def return_by_hand(names: Sequence[str], deals: Sequence[int], play: Sequence[int], units: Sequence[Fraction],
                   total: int, seen: str = "") -> Section:
    """The return-by-hand section of a game with a dealer: per class of the player's hand, its deals, the share
    played and its net units over every deal (``seen``: what else the decision saw, said in the note)."""
    rows: list[tuple[Cell, ...]] = [
        (n.replace("_", " ").capitalize(), deals[i], Fraction(play[i], deals[i]) if deals[i] else None,
         units[i] / total) for i, n in enumerate(names)]
    return Section("return_by_hand", "Return by the player's hand",
                   (Column("hand", "Player's hand"), Column("deals", "Deals", "int"),
                    Column("played", "Played", "percent", 2),
                    Column("return", "Net return per ante", "signed_percent", 4)), tuple(rows),
                   notes=("The net returns add up to the main wager's EV per ante: what each hand of the player wins "
                          f"or loses (folded or played), over every deal{seen}.",))


def strategy_section(counts: MainCounts, played: Played, ranking: str) -> Section:
    """The share of each class played, and the weakest hand played (the strategy in one line, three cards)."""
    names = CLASSES[ranking]
    rows: list[tuple[Cell, ...]] = []
    for i, n in enumerate(names):
        mine = counts.player_class == i
        of = int(counts.weights[mine].sum())
        if of:
            rows.append((n.replace("_", " ").capitalize(), int(counts.weights[mine & (played.action != FOLD)].sum()),
                         of))
    notes: tuple[str, ...] = ()
    if ranking == "three-card":
        values = [three_card_key(r.tolist(), counts.deck)[1] for r in counts.reps]
        kept = [v for v, a in zip(values, played.action.tolist()) if a != FOLD]
        if kept:
            low = min(kept)
            weakest = counts.reps[values.index(low)]
            every = all(a != FOLD for v, a in zip(values, played.action.tolist()) if v >= low)
            notes = (f"The weakest hand played: {cards_str(sorted(weakest.tolist(), reverse=True))}"
                     + ("; every stronger hand is played." if every else "; some stronger hands fold."),)
    return Section("play_strategy", "Strategy: hands played",
                   (Column("hand", "Player's hand"), Column("played", "Played", "int"),
                    Column("of", "Of", "int")), tuple(rows),
                   intro=("Player hands (one per card set) of each class that play rather than fold.",), notes=notes)


def closest_section(counts: MainCounts, played: Played) -> Section:
    """The hands nearest to a tie between playing and folding."""
    order = np.argsort(np.array([abs(float(g)) for g in played.gap]), kind="stable")[:CLOSEST]
    rows: list[tuple[Cell, ...]] = [
        (cards_str(sorted(counts.reps[i].tolist(), reverse=True)), played.gap[i],
         "play" if played.action[i] != FOLD else "fold") for i in order.tolist()]
    return Section("closest_decisions", "Closest decisions",
                   (Column("hand", "Player hand"), Column("play_minus_fold", "Play - fold", "decimal", 6),
                    Column("decision", "Decision (optimal)")), tuple(rows),
                   intro=("EV of the best bet minus EV of folding, in antes, for the decisions nearest to a tie; each "
                          "line stands for its suit pattern.",))
