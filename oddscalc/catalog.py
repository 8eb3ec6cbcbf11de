"""Where tables come from: the shipped tables, table references, and loading with the game's model.

The shipped tables live at the top of the project in ``tables/<game>/<id>.toml`` and are
installed as the package data ``oddscalc.shipped`` (``package_dir`` in ``setup.cfg``), so an
installed oddscalc finds them without a checkout. A table reference is either an id, naming a
shipped table of the game, or a path, which contains a path separator or ends in ``.toml``: the
two are never guessed between (a file called ``us`` in the working folder is not the ``us``
table).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import TYPE_CHECKING

from oddscalc.files import is_path, real_path
from oddscalc.games import DEFAULT_TABLES, GAME_KEYS

if TYPE_CHECKING:  # loading a table needs the games' models; finding one does not
    from oddscalc.tables import Table

SHIPPED_PACKAGE = "oddscalc.shipped"
PROFILES_PACKAGE = "oddscalc.profiles"
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def _package_dir(package: str, what: str) -> Path:
    spec = importlib.util.find_spec(package)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        raise RuntimeError(f"the shipped {what} ({package}) are not installed")
    return Path(locations[0])


def tables_dir() -> Path:
    """The folder of the shipped tables (in a checkout: ``tables/``)."""
    return _package_dir(SHIPPED_PACKAGE, "tables")


def profiles_dir() -> Path:
    """The folder of the shipped compliance profiles (in a checkout: ``profiles/``)."""
    return _package_dir(PROFILES_PACKAGE, "profiles")


def profile_path(ref: str) -> Path:
    """The file a profile reference names: a path, or the id of a shipped profile."""
    if is_path(ref):
        return Path(ref)
    if not _ID.match(ref):
        raise ValueError(f"bad profile id {ref!r}")
    return profiles_dir() / f"{ref}.toml"


def shipped_tables(game: str | None = None) -> list[Path]:
    """The shipped table files of ``game`` (default: every game), sorted."""
    base = tables_dir()
    games = [game] if game else sorted(g for g in GAME_KEYS if (base / g).is_dir())
    out: list[Path] = []
    for g in games:
        out.extend(sorted((base / g).glob("*.toml")))
    return out


def load_table(path: Path, expect_game: str | None = None) -> Table:
    """Read and validate a table file of any registered game."""
    from oddscalc.games import TABLE_MODELS
    from oddscalc.tables import load_table_file

    return load_table_file(path, TABLE_MODELS, expect_game, ident=_shipped_id(path))


def _shipped_id(path: Path) -> str | None:
    try:
        rel = real_path(path).relative_to(real_path(tables_dir()))
    except ValueError:
        return None
    return rel.stem if len(rel.parts) == 2 else None


def resolve_table(game: str, ref: str | None = None) -> Table:
    """``ref`` is a shipped id, a path (see :func:`is_path`), or None for the game's default table."""
    from oddscalc.datafile import Problem, TableError

    ident = ref if ref is not None else DEFAULT_TABLES[game]
    if is_path(ident):
        return load_table(Path(ident), expect_game=game)
    known = ", ".join(p.stem for p in shipped_tables(game)) or "none"
    candidate = tables_dir() / game / f"{ident}.toml"
    if not _ID.match(ident) or not candidate.is_file():
        raise TableError([Problem(ident, None, "", f"no {game!r} table with this id; shipped: {known} "
                                                   "(a path to a table file ends in .toml or contains a /)")])
    return load_table(candidate, expect_game=game)


def table_label(table: Table) -> str:
    """How a table is named to the user: ``let-it-ride/standard`` when shipped, else its path."""
    try:
        rel = real_path(table.path).relative_to(real_path(tables_dir()))
    except ValueError:
        return str(table.path)
    return str(rel.with_suffix(""))
