"""What applies to each game declared in a game file: found in the shipped tables, read without loading the game.

A folder ``tables/<game>/`` whose files say ``family = "stud"`` in their ``[rules]`` is a game of the stud family:
its key is the folder's name, its title the ``name`` its default table gives (``standard.toml``, else the first
file), and its class is built by :mod:`oddscalc.games.stud.game` from the key alone. Adding a game of the family is
adding a folder with a game file: no code. The files are read with ``tomllib`` (no pydantic here: the command line
reads the declarations on every run); a file that does not parse is left to the table loader, which names the
problem with its file, line and key.
"""

from __future__ import annotations

import functools
import importlib.util
import tomllib
from pathlib import Path

from oddscalc.protocol import Capabilities, Ev, SimulatePlan

MARK = b'family = "stud"'  # a file that does not say this is not read at all


def _tables() -> Path | None:
    spec = importlib.util.find_spec("oddscalc.shipped")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(locations[0]) if locations else None


def _rules(path: Path) -> dict[str, object] | None:
    raw = path.read_bytes()
    if MARK not in raw:
        return None
    try:
        rules = tomllib.loads(raw.decode("utf-8")).get("rules", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    return rules if isinstance(rules, dict) and rules.get("family") == "stud" else None


def _name(path: Path) -> str | None:
    rules = _rules(path)
    if rules is None:
        return None
    name = rules.get("name")
    return name if isinstance(name, str) and name else path.parent.name


def _ev(path: Path) -> Ev:
    """``ev`` takes the player's cards; without a dealer the antes in play too (a decision after the first); with
    one who shows cards before the decision, his up cards."""
    rules = _rules(path) or {}
    if rules.get("dealer_qualifier") is None:
        return Ev("oddscalc.games.stud.ev:ev_sections", inputs=("hand", "stake"))
    return Ev("oddscalc.games.stud.ev:ev_sections", inputs=("hand", "up") if _shows(rules) else ("hand",))


def _shows(rules: dict[str, object]) -> bool:
    """Whether the dealer shows a card by the first decision (read as the file says it; the model validates)."""
    stages = rules.get("stages")
    for stage in stages if isinstance(stages, list) else []:
        if not isinstance(stage, dict):
            return False
        if isinstance(stage.get("dealer_up"), int) and stage["dealer_up"] > 0:
            return True
        if stage.get("decision") is not None:
            return False
    return False


def declared(taken: frozenset[str]) -> tuple[Capabilities, ...]:
    """The game files' declarations, one per folder of stud-family files (the games in ``taken`` skipped)."""
    return tuple(c for c in _scan() if c.key not in taken)


@functools.cache
def _scan() -> tuple[Capabilities, ...]:
    """Read once: the registry and the game's class hold the same declaration (the registry checks identity)."""
    base = _tables()
    return declared_in(base) if base is not None else ()


def declared_in(base: Path) -> tuple[Capabilities, ...]:
    """The declarations of the game file folders under ``base`` (a tables folder), read now."""
    out: list[Capabilities] = []
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        files = sorted(folder.glob("*.toml"))
        default = next((p for p in files if p.stem == "standard"), files[0] if files else None)
        title = _name(default) if default is not None else None
        if default is None or title is None:
            continue
        out.append(Capabilities(
            key=folder.name, title=title, default_table=default.stem,
            game=f"oddscalc.games.stud.game:{folder.name.replace('-', '_')}", options=frozenset(),
            simulate=SimulatePlan("oddscalc.simulate.stud:plan", 1_000_000), ev=_ev(default)))
    return tuple(out)
