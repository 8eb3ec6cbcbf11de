"""Plain brute force for the house baccarat's information models (one seat): every ordered deal of a small shoe,
each card told apart, played from the drawing table as the game's table file writes it; the best action picked
per information state directly. Shares no code with the engine (``protection.information_house``)."""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass
from pathlib import Path

VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0}
TABLE = Path(__file__).resolve().parents[2] / "tables" / "house-baccarat" / "seed.toml"


def tableau() -> list[str]:
    """The house's drawing table as the shipped table file writes it (rows: house total, columns: third card)."""
    with TABLE.open("rb") as f:
        rows: list[str] = tomllib.load(f)["rules"]["house_tableau"]
    return rows


@dataclass(frozen=True)
class Brute:
    """EV with the glimpses, honest EV (as fractions' numerators over ``rounds``), rounds played otherwise."""

    ev: int
    honest: int
    rounds: int
    changed: int


def view(how: list[list[str]] | str | None, rank: str) -> object:
    """What a glimpse shows of a rank: nothing (None), its value ("value") or the index of its group."""
    if how is None:
        return None
    if how == "value":
        return VALUE[rank]
    return next(i for i, g in enumerate(how) if rank in g)


def brute(ranks: list[str], seen: dict[str, list[list[str]] | str], on_0_5: bool = False) -> Brute:
    """Every ordered six-card deal of ``ranks`` (seat, house, seat, house, next card, the one after); ``seen``: by
    position (next_card, house_1, house_2) a list of rank groups or "value"."""
    table = tableau()

    def house(h: int, third_of_seat: int | None, card: int) -> int:
        if h >= 7:
            return h
        if third_of_seat is None:
            draws = on_0_5 and h <= 5
        else:
            draws = table[h][third_of_seat] == "D"
        return (h + card) % 10 if draws else h

    def score(you: int, house_total: int) -> int:
        return (you > house_total) - (you < house_total)

    states: dict[tuple[object, ...], list[int]] = {}  # state -> [stand ev, draw ev, rounds]
    natural = 0
    rounds = 0
    for a, h1, b, h2, c, d in itertools.permutations(ranks, 6):
        rounds += 1
        t = (VALUE[a] + VALUE[b]) % 10
        h = (VALUE[h1] + VALUE[h2]) % 10
        if t >= 8:
            natural += score(t, h)
            continue
        state = (a, b, view(seen.get("next_card"), c), view(seen.get("house_1"), h1), view(seen.get("house_2"), h2))
        cell = states.setdefault(state, [0, 0, 0])
        cell[0] += score(t, house(h, None, VALUE[c]))
        cell[1] += score((t + VALUE[c]) % 10, house(h, VALUE[c], VALUE[d]))
        cell[2] += 1
    honest_cells: dict[tuple[str, str], list[int]] = {}
    for key, cell in states.items():
        acc = honest_cells.setdefault((str(key[0]), str(key[1])), [0, 0])
        acc[0] += cell[0]
        acc[1] += cell[1]
    honest_draw = {k: v[1] > v[0] for k, v in honest_cells.items()}
    honest = natural + sum(v[1] if honest_draw[k] else v[0] for k, v in honest_cells.items())
    ev = natural + sum(max(cell[0], cell[1]) for cell in states.values())
    changed = sum(cell[2] for key, cell in states.items() if (cell[1] > cell[0]) != honest_draw[(str(key[0]),
                                                                                                 str(key[1]))])
    return Brute(ev, honest, rounds, changed)
