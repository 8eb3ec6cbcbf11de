"""The game keys and their default tables: what the command line needs before any game is loaded.

The games are registered in :mod:`oddscalc.games`, which imports every game's code (and numpy and
pydantic with it); this list lets the command line parse its arguments, and answer a repeated
report from the report store, without that. The registry refuses to load if the two disagree.
"""

from __future__ import annotations

DEFAULT_TABLES: dict[str, str] = {
    "let-it-ride": "standard",
    "caribbean": "spain",  # the rule sheet's game: straight flush 25 and the fixed Jackpot
    "punto-banco": "standard",
    "house-baccarat": "seed",
}
GAME_KEYS: tuple[str, ...] = tuple(DEFAULT_TABLES)
