"""The page's forms, read off what the project declares: a table's pays (:func:`~oddscalc.catalog.changeable`, the
keys ``pays=`` takes), its rules (the table model's keys, as the reference of file keys lists them:
:func:`~oddscalc.report.keys.keys_of`), the strategies a game names and the inputs of its hand query (its
declaration). Nothing here knows a game.

A value is shown as the table's file writes it, and an edit is written back the same way (:func:`edited_text`):
a pay as its ratio text, a rule as a TOML value. The file's text is edited with tomlkit, so its comments and layout
stay; the result is validated by loading it as any file is.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import tomlkit

from oddscalc.catalog import changeable
from oddscalc.datafile import parse_toml
from oddscalc.games import DECLARED, TABLE_MODELS
from oddscalc.report.keys import keys_of
from oddscalc.tables import Table, without_figures


@dataclass(frozen=True)
class Field:
    """One input of a form: its name in the form, the key it edits, its value as the file writes it, and what it
    takes (the model's own words)."""

    name: str  # "pay:main.flush", "rule:dealer_qualifier"
    key: str  # "main.flush", "rules.dealer_qualifier"
    value: str
    takes: str = ""


def written(value: Any) -> str:
    """A value as a form shows it: a string as it is (a pay's "5:1"), anything else as TOML writes it."""
    if isinstance(value, str):
        return value
    return str(tomlkit.item(value).as_string())


def file_data(table: Table) -> dict[str, Any]:
    """The table's file as data (its file is the truth of what it says), read once per file and digest: not to be
    changed by the caller."""
    return _parsed(str(table.path), table.sha256)


@lru_cache(maxsize=64)
def _parsed(path: str, sha256: str) -> dict[str, Any]:
    # keyed by the digest too: a file changed on disk since is read again (its table has another digest)
    data, _, _ = parse_toml(Path(path))
    return data


def _pay_in(data: dict[str, Any], ref: str) -> Any:
    """Where a file writes the pay ``ref`` (``<wager>.<key>``): its block's key, or the pays of the rule whose
    event is the key (as :func:`~oddscalc.catalog.with_pays` reads it)."""
    wager, key = ref.split(".", 1)
    block = data.get("pays", {}).get(wager, {})
    if key in block:
        return block[key]
    rules = [r for r in block.get("rules", ()) if isinstance(r, dict) and r.get("event") == key]
    return rules[0].get("pays") if len(rules) == 1 else None


def pay_fields(table: Table) -> list[Field]:
    """Every pay of the table ``pays=`` can change, with its value as the file writes it."""
    data = file_data(table)
    out = []
    for ref in changeable(table.model):
        value = _pay_in(data, ref)
        out.append(Field(f"pay:{ref}", ref, "" if value is None else written(value)))
    return out


def rule_fields(table: Table) -> list[Field]:
    """Every key of the table's ``[rules]`` block its model admits, with the file's value or the default."""
    data = file_data(table).get("rules", {})
    out = []
    for k in keys_of(TABLE_MODELS[table.game]):
        if not k.key.startswith("rules.") or "<" in k.key or "[" in k.key:
            continue
        name = k.key.removeprefix("rules.")
        if name in data:
            value = written(data[name])
        elif k.need.startswith("default: "):
            value = written(json.loads(k.need.removeprefix("default: ")))
        else:
            value = ""
        out.append(Field(f"rule:{name}", k.key, value, k.takes))
    return out


def strategies(game: str) -> tuple[str, ...]:
    """The named strategies a game's runs take (none where its declaration takes no strategy)."""
    if "strategy" not in DECLARED[game].options:
        return ()
    from oddscalc.games import GAMES

    return GAMES[game].strategies


def takes_card(game: str) -> bool:
    """Whether a game's runs take a strategy card file."""
    return DECLARED[game].card is not None and "strategy" in DECLARED[game].options


def ev_inputs(game: str) -> tuple[str, ...]:
    """The inputs of a game's hand query (its ``ev`` declaration), none where it has none."""
    plan = DECLARED[game].ev
    return plan.inputs if plan is not None else ()


def rule_value(text: str) -> Any:
    """What a rule's field says, as TOML reads it (``8``, ``true``, ``[0, 1, 2]``, ``"ace-king"``); text that is
    no TOML value is taken as a string (``ace-king``)."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text.strip()


def edited_text(table: Table, pays: dict[str, str], rules: dict[str, Any], header: str = "") -> str:
    """The table's file with ``pays`` (by ``<wager>.<key>``) and ``rules`` (by key) set, its comments and layout
    kept, without its published and claimed figures (they describe the file as it was), ``header`` (comment lines)
    first."""
    doc = tomlkit.parse(without_figures(table.path.read_text(encoding="utf-8-sig")))
    for name, value in rules.items():
        if "rules" not in doc:
            doc["rules"] = tomlkit.table()
        doc["rules"][name] = value
    for ref, value in pays.items():
        wager, key = ref.split(".", 1)
        if "pays" not in doc:
            doc["pays"] = tomlkit.table(is_super_table=True)
        pays_block = doc["pays"]
        if wager not in pays_block:
            pays_block[wager] = tomlkit.table()
        block = pays_block[wager]
        while "." in key and isinstance(block.get(key.split(".", 1)[0]), dict):  # a block in the block: main.hand.flush
            inner, key = key.split(".", 1)
            block = block[inner]
        matching = [r for r in block.get("rules", ()) if r.get("event") == key]
        if key not in block and len(matching) == 1:
            matching[0]["pays"] = value
        else:
            block[key] = value
    text = tomlkit.dumps(doc)
    return header + text
