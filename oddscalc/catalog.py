"""Where tables come from: the shipped tables, table references, and loading with the game's model.

The shipped tables live at the top of the project in ``tables/<game>/<id>.toml`` and are
installed as the package data ``oddscalc.shipped`` (``package_dir`` in ``setup.cfg``), so an
installed oddscalc finds them without a checkout. A table reference is either an id, naming a
shipped table of the game, or a path, which contains a path separator or ends in ``.toml``: the
two are never guessed between (a file called ``us`` in the working folder is not the ``us``
table). :func:`with_pays` makes a table with some pays changed, without a file.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oddscalc.files import is_path, real_path
from oddscalc.games import DEFAULT_TABLES, GAME_KEYS

if TYPE_CHECKING:  # loading a table needs the games' models; finding one does not
    from oddscalc.datafile import Problem
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


def shipped_data(folder: str) -> list[str]:
    """The ids of the shipped data files of a folder beside the games' tables (``information``, ``counts``), sorted."""
    return sorted(p.stem for p in (tables_dir() / folder).glob("*.toml"))


def data_path(ref: str, folder: str, noun: str, file_word: str, what: str) -> Path:
    """The file a reference to a data file names: a path, or the id of one shipped in ``tables/<folder>``; an unknown
    id raises TableError (``what`` the kind of file) listing the shipped ones, ``noun`` naming what a file holds and
    ``file_word`` its kind of file ("a path to a model file ...")."""
    if is_path(ref):
        return Path(ref)
    candidate = tables_dir() / folder / f"{ref}.toml"
    if not _ID.match(ref) or not candidate.is_file():
        from oddscalc.datafile import Problem, TableError

        known = ", ".join(shipped_data(folder)) or "none"
        raise TableError([Problem(ref, None, "", f"no {noun} with this id; shipped: {known} (a path to a "
                                                 f"{file_word} file ends in .toml or contains a /)")], what)
    return candidate


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
    """How a table is named to the user: ``let-it-ride/standard`` when shipped, else its path; a table made from
    one with pays changed (:func:`with_pays`) says so, as its id does (``caribbean/us[main.flush=6:1]``)."""
    derived = table.id[len(table.path.stem):] if table.id.startswith(table.path.stem + "[") else ""
    try:
        rel = real_path(table.path).relative_to(real_path(tables_dir()))
    except ValueError:
        return str(table.path) + derived
    return str(rel.with_suffix("")) + derived


def with_pays(table: Table, pays: Mapping[str, Any]) -> Table:
    """``table`` with the pays named changed, as if its file said so: no file is written.

    A key names a pay as a report's rows do, ``"<wager>.<key>"`` (``"main.straight_flush"``; a side bet's rule by
    its event, ``"player_pair.pair"``; ``"pays."`` in front is allowed), with a value written as the file writes it
    (``"40:1"``, a commission ``"4%"``). The file's data with the new values is validated by the same model as the
    file, so a bad value gives the error the file would give, naming the key; a key that names no pay of the table
    is refused listing the pays there are. Raises :class:`~oddscalc.datafile.TableError` with every problem.

    The new table's id says what changed (``us[main.straight_flush=40:1]``), and its digest is the sha256 of the
    file's digest and those changes: it is not the digest of any file. Its ``[published]`` and ``[claimed]``
    figures stay, stated for the rules and pays of the file (their ``rules_and_pays_sha256``), so a report of the
    new table says they were not compared, naming the pays that differ, rather than listing mismatches.
    """
    from oddscalc.datafile import Problem, TableError, parse_toml, validate_model
    from oddscalc.tables import FIGURE_BLOCKS, Table, TableModel, rules_and_pays_sha256

    if not pays:
        return table
    data, _, raw = parse_toml(table.path)
    if hashlib.sha256(raw).hexdigest() != table.sha256:  # a table changed in memory, or its file since it was read
        why = "pays= changes a table as its file holds it, and this file is not that table (changed since it was read)"
        raise TableError([Problem(str(table.path), None, "", why)])
    where = f"{table_label(table)} with pays="
    known = changeable(table.model)
    changed: list[str] = []
    problems: list[Problem] = []
    for ref, value in pays.items():
        name = str(ref).removeprefix("pays.")
        if name in known:
            _set_pay(data, name, value)
            changed.append(f"{name}={value}")
        else:
            problems.append(Problem(where, None, f"pays.{name}", f"unknown key: no pay {name!r} in this table (write "
                                                                 f"<wager>.<key>); its pays: {', '.join(known)}"))
    stated = rules_and_pays_sha256(table.model)  # the figures describe the table as its file holds it
    for block in FIGURE_BLOCKS:
        if isinstance(data.get(block), dict):
            data[block].setdefault("rules_and_pays_sha256", stated)
    model = validate_model(where, {}, type(table.model), data, problems)  # every problem at once, as a file's
    if isinstance(model, TableModel):
        problems += [Problem(where, None, ".".join(loc), message) for loc, message in model.name_problems()]
    if problems or not isinstance(model, TableModel):
        raise TableError(problems)
    tag = ",".join(changed)
    digest = hashlib.sha256(f"{table.sha256}\n{tag}".encode()).hexdigest()
    return Table(id=f"{table.id}[{tag}]", path=table.path, sha256=digest, model=model)


def changeable(model: Any) -> list[str]:
    """What :func:`with_pays` can change in a table, as ``<wager>.<key>``: each pay as the rows name it (a block's
    own ``pay_items()``, where a side bet's rule is named by its event), then each other exact figure of a
    ``[pays.<wager>]`` block (a commission, a stake)."""
    from fractions import Fraction

    refs: list[str] = []
    for wager, block in getattr(model, "pays", None) or ():
        if block is None:
            continue
        items = getattr(block, "pay_items", None)
        keys = [*(items() if callable(items) else ()), *(k for k, v in block if isinstance(v, Fraction))]
        refs += [f"{wager}.{k}" for k in dict.fromkeys(keys)]
    return refs


def _set_pay(data: dict[str, Any], name: str, value: Any) -> None:
    """Put ``value`` where the file writes ``name`` (``<wager>.<key>``): the block's key, or the ``pays`` of the rule
    whose event is the key."""
    wager, key = name.split(".", 1)
    block = data.setdefault("pays", {}).setdefault(wager, {})
    while "." in key and isinstance(block.get(key.split(".", 1)[0]), dict):  # a block in the block: main.hand.flush
        inner, key = key.split(".", 1)
        block = block[inner]
    rules = [r for r in block.get("rules", ()) if isinstance(r, dict) and r.get("event") == key]
    if key not in block and len(rules) == 1:
        rules[0]["pays"] = value
    else:
        block[key] = value
